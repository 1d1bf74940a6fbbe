import { ZOOM_DEFAULTS, type PageGeometry, type RenderMode } from '@pakt/domain';
import { useLayoutEffect, useMemo, useRef, useState } from 'react';
import { usePublicConfiguration } from '../../api/public-queries';
import { clampZoom, fitToWidthZoom, stepZoom, type ZoomLimits } from './zoom';

export type ZoomMode = RenderMode | 'custom';

/**
 * The zoom of the pages: the tenant's limits and default mode, fit-to-width measured on the
 * scroll container (`scrollRef`, whose usable width comes in through `setAvailable`), and steps
 * in and out.
 */
export function useEditorZoom(pages: readonly PageGeometry[]) {
  const configuration = usePublicConfiguration();
  const zoomConfig = configuration.data?.zoom;
  const limits: ZoomLimits = useMemo(
    () => ({ min: zoomConfig?.min ?? ZOOM_DEFAULTS.min, max: zoomConfig?.max ?? ZOOM_DEFAULTS.max, step: zoomConfig?.step ?? ZOOM_DEFAULTS.step }),
    [zoomConfig],
  );
  const [mode, setMode] = useState<ZoomMode | null>(null);
  const zoomMode: ZoomMode = mode ?? zoomConfig?.defaultRenderMode ?? 'fitToWidth';
  const [customZoom, setCustomZoom] = useState(1);
  const scrollRef = useRef<HTMLDivElement | null>(null);
  const [available, setAvailable] = useState(0);
  const zoom =
    zoomMode === 'fitToWidth' ? fitToWidthZoom(available, pages, limits) : zoomMode === 'actual' ? clampZoom(1, limits) : clampZoom(customZoom, limits);
  // Keep the same part of the document in view when the zoom changes.
  const previousZoom = useRef(zoom);
  useLayoutEffect(() => {
    const element = scrollRef.current;
    if (element && previousZoom.current !== zoom) element.scrollTop *= zoom / previousZoom.current;
    previousZoom.current = zoom;
  }, [zoom]);
  const zoomBy = (direction: 1 | -1) => {
    const next = stepZoom(zoom, direction, limits);
    if (next === null) return;
    setCustomZoom(next);
    setMode('custom');
  };
  return {
    zoom,
    zoomMode,
    setMode,
    zoomBy,
    canZoomOut: stepZoom(zoom, -1, limits) !== null,
    canZoomIn: stepZoom(zoom, 1, limits) !== null,
    scrollRef,
    setAvailable,
  };
}
