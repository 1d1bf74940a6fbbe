import { PAGE_PREVIEW_WIDTHS, previewEpakDocumentPage } from '@pakt/domain';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useSigningApi } from '../../api/signing-api';
import { signingQueryKeys } from '../../api/signing-query-keys';

/**
 * Device pixels per CSS pixel for the first picture: sharp enough to read, small enough to come
 * first on a slow line (pdf.js draws the page at the screen's full density right after).
 */
const PREVIEW_DENSITY_CAP = 1.5;

/** The smallest offered width that covers `cssWidth` at the screen's density (capped), or the largest. */
export function previewWidthFor(cssWidth: number, devicePixelRatio: number): (typeof PAGE_PREVIEW_WIDTHS)[number] {
  const wanted = cssWidth * Math.min(Math.max(devicePixelRatio, 1), PREVIEW_DENSITY_CAP);
  return PAGE_PREVIEW_WIDTHS.find((width) => width >= wanted) ?? PAGE_PREVIEW_WIDTHS[PAGE_PREVIEW_WIDTHS.length - 1]!;
}

export interface PagePreview {
  /** An object URL of the first page's picture, once it has come. */
  readonly url: string | null;
  /** The picture has come or will not (refused, failed, not wanted): the PDF may load now. */
  readonly settled: boolean;
}

/**
 * The server's picture of a document's first page (issue 23), asked for only while `wanted`: a
 * signer on a phone sees the page in a few tens of KB while pdf.js and the file, ten times that,
 * come after it instead of beside it. Any failure simply settles it: pdf.js draws the page as ever.
 * `cssWidth` is the width the page is shown at; 0 while it is not known yet.
 */
export function usePagePreview(options: { readonly ePakId: string; readonly documentId: string; readonly revisions: number; readonly cssWidth: number; readonly wanted: boolean }): PagePreview {
  const { callApi, scope } = useSigningApi();
  const { ePakId, documentId, revisions, wanted } = options;
  const width = options.cssWidth > 0 ? previewWidthFor(options.cssWidth, typeof window === 'undefined' ? 1 : window.devicePixelRatio || 1) : 0;
  // The first width asked stays: a zoom or a resize while pdf.js loads asks for no second picture.
  const [chosenWidth, setChosenWidth] = useState(0);
  useEffect(() => {
    if (wanted && chosenWidth === 0 && width > 0) setChosenWidth(width);
  }, [wanted, chosenWidth, width]);
  const enabled = wanted && documentId !== '' && chosenWidth > 0;
  const query = useQuery({
    queryKey: signingQueryKeys.preview(scope, ePakId, documentId, revisions, chosenWidth),
    queryFn: ({ signal }) => callApi(previewEpakDocumentPage, { params: { ePakId, documentId, page: 1 }, query: { width: chosenWidth as (typeof PAGE_PREVIEW_WIDTHS)[number] } }, { signal, failures: 'caller' }),
    enabled,
    staleTime: Infinity,
    retry: false,
  });
  const blob = query.data;
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!blob || typeof URL.createObjectURL !== 'function') return;
    const next = URL.createObjectURL(blob);
    setUrl(next);
    return () => {
      URL.revokeObjectURL(next);
      setUrl(null);
    };
  }, [blob]);
  // The picture stays while pdf.js draws over it (the page hides it once drawn).
  return { url, settled: !wanted || documentId === '' || query.isSuccess || query.isError };
}
