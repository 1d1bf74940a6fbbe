import { actOnEpakDocument, displayedSize, ZOOM_DEFAULTS, type EpakDetail, type PageGeometry } from '@pakt/domain';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { usePublicConfiguration } from '../../api/public-queries';
import { clampZoom, stepZoom, type EpakDocument, type ZoomLimits } from '../tag-editor';
import { fitWidthZoom } from './ceremony-zoom';
import { signingQueryKeys } from '../../api/signing-query-keys';
import { useSigningApi } from '../../api/signing-api';
import { NO_VIEWER } from './signing-tags';
import { usePagePreview } from './use-page-preview';
import { useSigningPdf } from './use-signing-pdf';

/**
 * The document on screen: which one, its PDF, its zoom, the field opened on it, and going to a
 * field (on whichever document it is). Showing a document's pages reports it viewed.
 */
export function useDocumentView({ epak }: { readonly epak: EpakDetail }) {
  const { callApi, scope } = useSigningApi();
  const queryClient = useQueryClient();
  const ePakId = epak.ePakId;
  const viewer = epak.viewer ?? NO_VIEWER;
  const [documentId, setDocumentId] = useState(epak.documents[0]?.documentId ?? '');
  const current: EpakDocument | undefined = epak.documents.find((document) => document.documentId === documentId) ?? epak.documents[0];
  const currentId = current?.documentId ?? '';
  const [openTag, setOpenTag] = useState<string | null>(null);

  // ---- zoom ----
  const configuration = usePublicConfiguration();
  const zoomConfig = configuration.data?.zoom;
  const limits: ZoomLimits = useMemo(
    () => ({ min: zoomConfig?.min ?? ZOOM_DEFAULTS.min, max: zoomConfig?.max ?? ZOOM_DEFAULTS.max, step: zoomConfig?.step ?? ZOOM_DEFAULTS.step }),
    [zoomConfig],
  );
  const [customZoom, setCustomZoom] = useState<number | null>(null);
  const [available, setAvailable] = useState(0);
  const scrollRef = useRef<HTMLDivElement | null>(null);
  const pageElements = useRef(new Map<number, HTMLElement>());
  const pages: readonly PageGeometry[] = current?.pages ?? [];
  // Fit to width is a mode (issue 22): while it is on, every new width (a resize, a phone turned)
  // fits the page again; only a zoom the signer chooses is held to the limits.
  const fitZoom = fitWidthZoom(available, pages) ?? clampZoom(1, limits);
  const zoom = customZoom === null ? fitZoom : clampZoom(customZoom, limits);
  const zoomBy = (direction: 1 | -1) => {
    const next = stepZoom(zoom, direction, limits);
    if (next !== null) setCustomZoom(next);
  };
  /** A zoom from a pinch (already held to the limits), or back to fitting the width. */
  const setZoom = (next: number | 'fit') => setCustomZoom(next === 'fit' ? null : clampZoom(next, limits));

  // ---- the PDF, after a picture of its first page ----
  // Until pdf.js has drawn a page here once, the server's picture of the first page comes first
  // (issue 23: on a slow phone line the picture is tens of KB, pdf.js and the file ten times that).
  // Its width waits for the pages' box to be measured (0 until then), so it fits the screen.
  const [drawnOnce, setDrawnOnce] = useState(false);
  const firstPage = pages[0];
  const preview = usePagePreview({
    ePakId,
    documentId: currentId,
    revisions: current?.revisions ?? 0,
    cssWidth: available !== 0 && firstPage ? displayedSize(firstPage).width * zoom : 0,
    wanted: !drawnOnce,
  });
  const { pdf, revisions: shownRevisions } = useSigningPdf(ePakId, currentId, current?.revisions ?? 0, { start: drawnOnce || preview.settled });
  useEffect(() => {
    if (pdf.status === 'ready') setDrawnOnce(true);
  }, [pdf.status]);
  const pictureOf = useCallback((pageNumber: number) => (pageNumber === 1 ? preview.url : null), [preview.url]);

  // View enforcement (spec §5): a document counts as opened once its pages are shown to the person.
  const reportedViews = useRef(new Set<string>());
  useEffect(() => {
    if (pdf.status !== 'ready' || !currentId || viewer.recipientId === null) return;
    if (viewer.viewedDocumentIds.includes(currentId) || reportedViews.current.has(currentId)) return;
    reportedViews.current.add(currentId);
    const epakKey = signingQueryKeys.epak(scope, ePakId);
    callApi(actOnEpakDocument, { params: { epakId: ePakId, documentId: currentId, action: 'view' } }, { failures: 'caller' }).then(
      (next) => queryClient.setQueryData<EpakDetail>(epakKey, (old) => (old ? { ...old, viewer: next } : old)),
      // Not recorded: the next showing of the document tries again.
      () => reportedViews.current.delete(currentId),
    );
  }, [pdf.status, currentId, viewer.recipientId, viewer.viewedDocumentIds, callApi, ePakId, queryClient, scope]);

  // ---- going to a field ----
  // The field to bring into view once it is on the page: its page may render a few renders later,
  // so every render tries until it is there. A ref, not state: finding it needs no new render.
  const focusTag = useRef<string | null>(null);
  const [, setFocusRequests] = useState(0);
  useEffect(() => {
    if (!focusTag.current) return;
    const element = document.querySelector<HTMLElement>(`[data-tag-uuid="${focusTag.current}"]`);
    if (!element) return;
    focusTag.current = null;
    element.scrollIntoView?.({ block: 'center', inline: 'nearest' });
    element.focus({ preventScroll: true });
  });
  const goTo = (target: { documentId: string; uuid: string }) => {
    setDocumentId(target.documentId);
    focusTag.current = target.uuid;
    // A render, so the effect above looks for it even when the document stays the same.
    setFocusRequests((requests) => requests + 1);
  };
  /** Another document's tab: whatever field was open closes. */
  const show = (next: string) => {
    setDocumentId(next);
    setOpenTag(null);
  };

  return {
    current,
    currentId,
    setDocumentId,
    show,
    pdf,
    pictureOf,
    shownRevisions,
    openTag,
    setOpenTag,
    goTo,
    zoom,
    fitZoom,
    limits,
    zoomBy,
    setZoom,
    fitsWidth: customZoom === null,
    fitToWidth: () => setCustomZoom(null),
    setAvailable,
    scrollRef,
    pageElements,
  };
}

export type DocumentView = ReturnType<typeof useDocumentView>;
