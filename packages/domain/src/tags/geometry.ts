import { z } from 'zod';
import type { PageGeometry } from '../documents';
import type { BlockBounds, Tag } from './tag';

/**
 * Coordinate conventions for tags. There are three frames:
 *
 * 1. Page frame (what tags store): PDF points, relative to the page's visible box, UNROTATED
 *    (as the page is defined, before /Rotate), origin at the visible box's TOP-LEFT corner, x to
 *    the right, y DOWNWARD. A tag at (0, 0) sits in the top-left corner of the page as defined.
 *    positionX/positionY/blockWidth/blockHeight are in this frame, and so is `PreconfiguredTag`.
 *    Storing the unrotated frame makes a tag independent of how the viewer shows the page, and
 *    stamping needs no rotation logic beyond `toPdfUserSpace`.
 *
 * 2. Display frame (what the viewer draws): the page rotated clockwise by /Rotate, as pdf.js
 *    and every PDF viewer show it, then scaled by the zoom; origin at the top-left of the shown
 *    page, y downward. Its size is `displayedSize(page) * zoom`. `zoom` is display units per
 *    point; a viewer drawing at pdf.js scale s with CSS units passes s * 96 / 72.
 *
 * 3. PDF user space (what stamping writes): points, origin at the bottom-left of the media box,
 *    y upward; the visible box starts at (page.x, page.y). Rectangles there are [x0, y0, x1, y1].
 *
 * blockBounds are the page-frame rectangle as ratios of the visible box, so a tag keeps its
 * relative place if a page is re-rendered at another size.
 */

/** An axis-aligned rectangle: top-left corner and size, in whichever frame the function says. */
export interface Rect {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

export const Rect = z.object({
  x: z.number(),
  y: z.number(),
  width: z.number().nonnegative(),
  height: z.number().nonnegative(),
});

/** [x0, y0, x1, y1] in PDF user space, x0 <= x1 and y0 <= y1 (a PDF /Rect). */
export type PdfRect = readonly [x0: number, y0: number, x1: number, y1: number];

/**
 * Slack for comparisons, in points. Conversions through a zoom leave rounding of ~1e-12 pt on
 * real page sizes (at most 14,400 pt by the PDF spec); without slack a tag dragged exactly onto
 * an edge or a limit would fail by a hair. A millionth of a point is far below anything visible.
 */
export const GEOMETRY_EPSILON = 1e-6;

type PageSize = Pick<PageGeometry, 'width' | 'height'>;
type PageFrame = Pick<PageGeometry, 'width' | 'height' | 'rotate'>;
type PageBox = Pick<PageGeometry, 'width' | 'height' | 'x' | 'y'>;

/**
 * A rectangle's size as the viewer shows it: width and height swap on pages turned a quarter.
 * Tag sizes and their limits (TAG_DIMENSIONS, a tag's min/max) mean this size, so a signature is
 * wide and low as the person sees the page, whatever the page's /Rotate; stamping turns what it
 * draws to match.
 */
export function shownSize(size: Pick<Rect, 'width' | 'height'>, rotate: PageGeometry['rotate']): { width: number; height: number } {
  return rotate === 90 || rotate === 270 ? { width: size.height, height: size.width } : { width: size.width, height: size.height };
}

/** A shift seen on screen (dx right, dy down) as a shift in the page frame of a turned page. */
export function pageFrameShift(dx: number, dy: number, rotate: PageGeometry['rotate']): { dx: number; dy: number } {
  switch (rotate) {
    case 0:
      return { dx, dy };
    case 90:
      return { dx: dy, dy: -dx };
    case 180:
      return { dx: -dx, dy: -dy };
    case 270:
      return { dx: -dy, dy: dx };
  }
}

/** The page-frame rectangle a tag occupies. */
export function tagRect(tag: Pick<Tag, 'positionX' | 'positionY' | 'blockWidth' | 'blockHeight'>): Rect {
  return { x: tag.positionX, y: tag.positionY, width: tag.blockWidth, height: tag.blockHeight };
}

/** The page-frame rectangle as ratios of the visible box. */
export function toBlockBounds(rect: Rect, page: PageSize): BlockBounds {
  return {
    top: rect.y / page.height,
    left: rect.x / page.width,
    heightRatio: rect.height / page.height,
    widthRatio: rect.width / page.width,
  };
}

/** Inverse of `toBlockBounds`. */
export function fromBlockBounds(bounds: BlockBounds, page: PageSize): Rect {
  return {
    x: bounds.left * page.width,
    y: bounds.top * page.height,
    width: bounds.widthRatio * page.width,
    height: bounds.heightRatio * page.height,
  };
}

function assertZoom(zoom: number): void {
  if (!Number.isFinite(zoom) || zoom <= 0) throw new RangeError(`zoom must be a positive finite number, got ${zoom}`);
}

/**
 * Page frame → display frame. A clockwise turn of 90° takes the page's left edge to the top:
 * the point (x, y) shows at (H − y, x); 180° at (W − x, H − y); 270° at (y, W − x), where W and
 * H are the unrotated width and height. A rectangle's width and height swap at 90° and 270°.
 */
export function pageToDisplay(rect: Rect, page: PageFrame, zoom: number): Rect {
  assertZoom(zoom);
  const { width: W, height: H } = page;
  let shown: Rect;
  switch (page.rotate) {
    case 0:
      shown = rect;
      break;
    case 90:
      shown = { x: H - rect.y - rect.height, y: rect.x, width: rect.height, height: rect.width };
      break;
    case 180:
      shown = { x: W - rect.x - rect.width, y: H - rect.y - rect.height, width: rect.width, height: rect.height };
      break;
    case 270:
      shown = { x: rect.y, y: W - rect.x - rect.width, width: rect.height, height: rect.width };
      break;
  }
  return { x: shown.x * zoom, y: shown.y * zoom, width: shown.width * zoom, height: shown.height * zoom };
}

/** Display frame → page frame: the exact inverse of `pageToDisplay`. */
export function displayToPage(rect: Rect, page: PageFrame, zoom: number): Rect {
  assertZoom(zoom);
  const { width: W, height: H } = page;
  // Undo the zoom first, so every term below is in points.
  const x = rect.x / zoom;
  const y = rect.y / zoom;
  const width = rect.width / zoom;
  const height = rect.height / zoom;
  switch (page.rotate) {
    case 0:
      return { x, y, width, height };
    case 90:
      return { x: y, y: H - x - width, width: height, height: width };
    case 180:
      return { x: W - x - width, y: H - y - height, width, height };
    case 270:
      return { x: W - y - height, y: x, width: height, height: width };
  }
}

/**
 * Page frame → PDF user space, for stamping. Rotation plays no part: /Rotate only changes how a
 * viewer shows the page, not where content sits in user space (a stamper still has to turn the
 * content it draws so that it reads upright).
 */
export function toPdfUserSpace(rect: Rect, page: PageBox): PdfRect {
  const top = page.y + page.height - rect.y;
  return [page.x + rect.x, top - rect.height, page.x + rect.x + rect.width, top];
}

/** PDF user space → page frame; accepts the corners in either order, as PDF /Rect entries may. */
export function fromPdfUserSpace(pdfRect: PdfRect, page: PageBox): Rect {
  const [ax, ay, bx, by] = pdfRect;
  const x0 = Math.min(ax, bx);
  const x1 = Math.max(ax, bx);
  const y0 = Math.min(ay, by);
  const y1 = Math.max(ay, by);
  return { x: x0 - page.x, y: page.y + page.height - y1, width: x1 - x0, height: y1 - y0 };
}

/** True when the rectangle lies fully inside the page's visible box (spec §5), edges included. */
export function isInsidePage(rect: Rect, page: PageSize): boolean {
  return (
    Number.isFinite(rect.x) &&
    Number.isFinite(rect.y) &&
    Number.isFinite(rect.width) &&
    Number.isFinite(rect.height) &&
    rect.width >= 0 &&
    rect.height >= 0 &&
    rect.x >= -GEOMETRY_EPSILON &&
    rect.y >= -GEOMETRY_EPSILON &&
    rect.x + rect.width <= page.width + GEOMETRY_EPSILON &&
    rect.y + rect.height <= page.height + GEOMETRY_EPSILON
  );
}

/** Clamp one span [start, start + length) into [0, limit]: shrink it if too long, then shift it. */
function clampSpan(start: number, length: number, limit: number): [number, number] {
  const size = Number.isNaN(length) ? 0 : Math.min(Math.max(length, 0), limit);
  const at = Number.isNaN(start) ? 0 : Math.min(Math.max(start, 0), limit - size);
  return [at, size];
}

/**
 * The nearest rectangle inside the page: moved in from any edge it crosses, and shrunk to the
 * page only if it is larger than the page. Always satisfies `isInsidePage`.
 */
export function clampToPage(rect: Rect, page: PageSize): Rect {
  const [x, width] = clampSpan(rect.x, rect.width, page.width);
  const [y, height] = clampSpan(rect.y, rect.height, page.height);
  return { x, y, width, height };
}

/** How far two rectangles overlap along each axis; negative means a gap of that size. */
export function overlapDepth(a: Rect, b: Rect): { x: number; y: number } {
  return {
    x: Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x),
    y: Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y),
  };
}

/**
 * True when the rectangles share an area deeper than `tolerance` on both axes. Rectangles that
 * only touch along an edge do not overlap, even at tolerance 0. Symmetric in a and b.
 */
export function rectsOverlap(a: Rect, b: Rect, tolerance = 0): boolean {
  const depth = overlapDepth(a, b);
  const limit = tolerance + GEOMETRY_EPSILON;
  return depth.x > limit && depth.y > limit;
}

export function translateRect(rect: Rect, dx: number, dy: number): Rect {
  return { x: rect.x + dx, y: rect.y + dy, width: rect.width, height: rect.height };
}
