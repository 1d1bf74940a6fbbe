import { downloadEpakDocument } from '@pakt/domain';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { openPdf, type PdfDocument } from '../tag-editor/pdf-document';
import type { PdfState } from '../tag-editor/use-pdf-document';
import { signingQueryKeys, useSigningApi } from './signing-api';

/**
 * The tag editor's usePdfDocument for the ceremony: the same pdf.js wrapper, but the bytes come
 * through the ceremony's session (a signing link has its own) and are keyed by the document's
 * revision count, since every signature appends a revision and the file shown must include it.
 * Also says which revision count the file on screen has, so a reader can tell the new one is in.
 */
export function useSigningPdf(ePakId: string, documentId: string, revisions: number): { readonly pdf: PdfState; readonly revisions: number | null } {
  const { callApi, scope } = useSigningApi();
  const query = useQuery({
    queryKey: signingQueryKeys.pdf(scope, ePakId, documentId, revisions),
    queryFn: async ({ signal }) => {
      const blob = await callApi(downloadEpakDocument, { params: { ePakId, documentId } }, { signal, failures: 'caller' });
      return { revisions, bytes: await blob.arrayBuffer() };
    },
    enabled: documentId !== '',
    staleTime: Infinity,
    // While a new revision loads, the one before stays on screen instead of a blank page; never
    // another document's file, whose pages would not match.
    placeholderData: (previous, previousQuery) => (previousQuery?.queryKey[4] === documentId ? previous : undefined),
  });
  const bytes = { data: query.data?.bytes, isError: query.isError, refetch: query.refetch };
  const [opened, setOpened] = useState<{ readonly source: ArrayBuffer; readonly pdf: PdfDocument | null } | null>(null);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const source = bytes.data;
    if (!source) return;
    let cancelled = false;
    let pdf: PdfDocument | null = null;
    openPdf(source).then(
      (document) => {
        if (cancelled) return document.destroy();
        pdf = document;
        setOpened({ source, pdf: document });
      },
      () => {
        if (!cancelled) setOpened({ source, pdf: null });
      },
    );
    return () => {
      cancelled = true;
      pdf?.destroy();
    };
  }, [bytes.data, attempt]);

  const shown = query.data?.revisions ?? null;
  if (bytes.isError) return { pdf: { status: 'error', pdf: null, retry: () => void bytes.refetch() }, revisions: null };
  if (!bytes.data || opened?.source !== bytes.data) return { pdf: { status: 'loading', pdf: null }, revisions: null };
  if (!opened.pdf) {
    return {
      pdf: {
        status: 'error',
        pdf: null,
        retry: () => {
          setOpened(null);
          setAttempt((count) => count + 1);
        },
      },
      revisions: null,
    };
  }
  return { pdf: { status: 'ready', pdf: opened.pdf }, revisions: shown };
}
