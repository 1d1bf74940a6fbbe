import { createZoomSchema, displayedSize, ZOOM_DEFAULTS, type PageGeometry } from '@pakt/domain';

/**
 * The editor's zoom is CSS pixels per PDF point: at zoom 1 an A4 page (595 x 842 pt) is
 * 595 x 842 CSS px. This is the `zoom` of geometry.ts's display frame, so tag boxes are placed
 * with pageToDisplay(rect, page, zoom) and pdf.js renders at scale zoom (times the device's
 * pixel ratio for a sharp canvas).
 */
export interface ZoomLimits {
  readonly min: number;
  readonly max: number;
  readonly step: number;
}

export const DEFAULT_ZOOM_LIMITS: ZoomLimits = ZOOM_DEFAULTS;

export function clampZoom(zoom: number, limits: ZoomLimits): number {
  return Math.min(limits.max, Math.max(limits.min, zoom));
}

/** Hundredths are as fine as the readout goes; rounding keeps 0.6 + 0.3 from becoming 0.8999…. */
const round = (zoom: number) => Math.round(zoom * 100) / 100;

/**
 * One toolbar step in or out from any zoom (fit-to-width gives uneven ones), held to the limits.
 * Null when the step would not go that way (at a limit, or zooming out from below the
 * minimum), or when the result is no valid zoom (spec §5: zoom values must be finite and within
 * the minimum and maximum).
 */
export function stepZoom(zoom: number, direction: 1 | -1, limits: ZoomLimits): number | null {
  const next = round(clampZoom(zoom + direction * limits.step, limits));
  if ((next - zoom) * direction < 0.005) return null;
  return createZoomSchema(limits.min, limits.max).safeParse(next).success ? next : null;
}

/**
 * The zoom at which the widest page (as shown, rotation applied) fills `width` CSS px, held to
 * the configured limits like every zoom (spec §5: zoom values stay within the minimum and
 * maximum). On a phone the minimum can leave a page wider than the screen (595 pt x 0.6 = 357
 * px); the page area then scrolls sideways rather than breaking that rule.
 */
export function fitToWidthZoom(width: number, pages: readonly PageGeometry[], limits: ZoomLimits): number {
  const widest = Math.max(0, ...pages.map((page) => displayedSize(page).width));
  // Before the container is laid out (or with no page) there is nothing to fit: show actual size.
  if (width <= 0 || widest <= 0) return clampZoom(1, limits);
  return clampZoom(Math.floor((width / widest) * 1000) / 1000, limits);
}

export const zoomPercent = (zoom: number) => Math.round(zoom * 100);
