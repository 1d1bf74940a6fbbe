import { displayedSize, type PageGeometry } from '@pakt/domain';
import { clampZoom, type ZoomLimits } from '../tag-editor';

/**
 * The ceremony's zoom (issue 22). Spec §9 names two render modes, fit to width and actual size,
 * and zoom limits. Fit to width is a mode, not a zoom value: the page takes exactly the width
 * there is, even when that is below the minimum zoom (a 360 px phone fits an A4 page at about
 * 0.54, below the default minimum of 0.6). Only the zoom the signer chooses (buttons or pinch)
 * is held to the configured limits.
 */

/** The zoom at which the widest page fills `width` CSS px; null before there is a width or a page. */
export function fitWidthZoom(width: number, pages: readonly PageGeometry[]): number | null {
  const widest = Math.max(0, ...pages.map((page) => displayedSize(page).width));
  if (width <= 0 || widest <= 0) return null;
  // Rounded down so the page never overflows its column by a fraction of a pixel.
  return Math.floor((width / widest) * 1000) / 1000;
}

/** Hundredths are as fine as a chosen zoom goes (the readout shows percent). */
const hundredths = (zoom: number) => Math.round(zoom * 100) / 100;

/**
 * Where a two-finger pinch lands: the zoom it started at times how far the fingers spread,
 * held to the limits. Pinching in below the minimum while the fit is smaller still goes back to
 * fitting the width (the nearer of the two wins), never to a zoom under the minimum.
 */
export function pinchZoom({ start, ratio, fit, limits }: { readonly start: number; readonly ratio: number; readonly fit: number; readonly limits: ZoomLimits }): number | 'fit' {
  const wanted = start * (Number.isFinite(ratio) && ratio > 0 ? ratio : 1);
  if (wanted < limits.min && fit < limits.min) return wanted <= (fit + limits.min) / 2 ? 'fit' : limits.min;
  return hundredths(clampZoom(wanted, limits));
}
