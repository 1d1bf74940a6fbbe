import { downloadEpakDocument } from '@pakt/domain';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { callApi } from '../../api/client';
import { useSession } from '../../api/session-store';
import { openPdf, type PdfDocument } from './pdf-document';
import { preloadPdfJs } from './pdfjs-loader';
import { tagEditorQueryKeys } from './queries';

export type PdfState =
  | { readonly status: 'loading'; readonly pdf: null }
  | { readonly status: 'error'; readonly pdf: null; readonly retry: () => void }
  | { readonly status: 'ready'; readonly pdf: PdfDocument };

/**
 * One document of an ePak as pdf.js sees it. The bytes are fetched once and kept by TanStack
 * Query (a draft's document does not change, so they never go stale); the pdf.js document made
 * from them lives as long as the component showing it, and is destroyed with it, which frees
 * its worker-side memory.
 */
export function usePdfDocument(ePakId: string, documentId: string): PdfState {
  const session = useSession();
  const bytes = useQuery({
    queryKey: tagEditorQueryKeys.pdf(session?.tenantUuid, ePakId, documentId),
    queryFn: async ({ signal }) => {
      const blob = await callApi(downloadEpakDocument, { params: { ePakId, documentId } }, { signal, failures: 'caller' });
      return blob.arrayBuffer();
    },
    staleTime: Infinity,
  });
  return useOpenedPdf({ data: bytes.data, isError: bytes.isError, refetch: () => void bytes.refetch() });
}

/**
 * A pdf.js document opened from fetched bytes, destroyed when the bytes change or the component
 * goes; shared by the tag editor and the signing ceremony, which fetch their bytes differently.
 */
export function useOpenedPdf(
  bytes: { readonly data: ArrayBuffer | undefined; readonly isError: boolean; readonly refetch: () => void },
  options: { readonly preload?: boolean } = {},
): PdfState {
  const [opened, setOpened] = useState<{ readonly source: ArrayBuffer; readonly pdf: PdfDocument | null } | null>(null);
  const [attempt, setAttempt] = useState(0);

  // pdf.js and its worker load while the bytes download, not after them (pdfjs-loader.ts); a
  // caller with something to show first holds them back until it is shown (`preload: false`).
  const preload = options.preload ?? true;
  useEffect(() => {
    if (preload) preloadPdfJs();
  }, [preload]);

  useEffect(() => {
    const source = bytes.data;
    if (!source) return;
    let cancelled = false;
    let pdf: PdfDocument | null = null;
    openPdf(source).then(
      (opened) => {
        if (cancelled) return opened.destroy();
        pdf = opened;
        setOpened({ source, pdf: opened });
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

  if (bytes.isError) return { status: 'error', pdf: null, retry: bytes.refetch };
  if (!bytes.data || opened?.source !== bytes.data) return { status: 'loading', pdf: null };
  if (!opened.pdf) {
    return {
      status: 'error',
      pdf: null,
      retry: () => {
        setOpened(null);
        setAttempt((count) => count + 1);
      },
    };
  }
  return { status: 'ready', pdf: opened.pdf };
}
