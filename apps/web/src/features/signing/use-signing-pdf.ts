import { downloadEpakDocument } from '@pakt/domain';
import { useQuery } from '@tanstack/react-query';
import { type PdfState, useOpenedPdf } from '../tag-editor';
import { useSigningApi } from '../../api/signing-api';
import { signingQueryKeys } from '../../api/signing-query-keys';

/**
 * The tag editor's usePdfDocument for the ceremony: the same pdf.js wrapper, but the bytes come
 * through the ceremony's session (a signing link has its own) and are keyed by the document's
 * revision count, since every signature appends a revision and the file shown must include it.
 * Also says which revision count the file on screen has, so a reader can tell the new one is in.
 * `start: false` holds the download and pdf.js back (use-page-preview.ts).
 */
export function useSigningPdf(ePakId: string, documentId: string, revisions: number, options: { readonly start?: boolean } = {}): { readonly pdf: PdfState; readonly revisions: number | null } {
  // Held back (`start: false`) while the first page's picture comes, so the two do not share a slow line.
  const start = options.start ?? true;
  const { callApi, scope } = useSigningApi();
  const query = useQuery({
    queryKey: signingQueryKeys.pdf(scope, ePakId, documentId, revisions),
    queryFn: async ({ signal }) => {
      const blob = await callApi(downloadEpakDocument, { params: { ePakId, documentId } }, { signal, failures: 'caller' });
      return { revisions, bytes: await blob.arrayBuffer() };
    },
    enabled: documentId !== '' && start,
    staleTime: Infinity,
    // While a new revision loads, the one before stays on screen instead of a blank page; never
    // another document's file, whose pages would not match.
    placeholderData: (previous, previousQuery) => (previousQuery?.queryKey[4] === documentId ? previous : undefined),
  });
  const pdf = useOpenedPdf({ data: query.data?.bytes, isError: query.isError, refetch: () => void query.refetch() }, { preload: start });
  // The revision count on screen is the one whose file is open, not the one being fetched.
  return { pdf, revisions: pdf.status === 'ready' ? (query.data?.revisions ?? null) : null };
}
