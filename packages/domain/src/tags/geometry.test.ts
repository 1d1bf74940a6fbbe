import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { displayedSize, type PageGeometry } from '../documents';
import {
  GEOMETRY_EPSILON,
  clampToPage,
  displayToPage,
  fromBlockBounds,
  fromPdfUserSpace,
  isInsidePage,
  overlapDepth,
  pageToDisplay,
  rectsOverlap,
  tagRect,
  toBlockBounds,
  toPdfUserSpace,
  type Rect,
} from './geometry';

const ROTATIONS = [0, 90, 180, 270] as const;

// A portrait page whose visible box is offset, as a crop box makes it.
const page = (rotate: PageGeometry['rotate'] = 0): PageGeometry => ({ width: 600, height: 800, x: 5, y: 7, rotate });
const rect: Rect = { x: 10, y: 20, width: 100, height: 50 };

const closeTo = (a: number, b: number, tolerance = GEOMETRY_EPSILON) => Math.abs(a - b) <= tolerance;
const rectsClose = (a: Rect, b: Rect, tolerance = GEOMETRY_EPSILON) =>
  closeTo(a.x, b.x, tolerance) && closeTo(a.y, b.y, tolerance) && closeTo(a.width, b.width, tolerance) && closeTo(a.height, b.height, tolerance);

/**
 * pdf.js's PageViewport transform (pdfjs-dist, PageViewport constructor), rewritten here as an
 * oracle: it maps a point of PDF user space to the canvas the viewer draws. Our display frame
 * must agree with it for every rotation, or tags would show in the wrong place.
 */
function pdfjsViewportPoint(p: PageGeometry, scale: number, [px, py]: [number, number]): [number, number] {
  const viewBox = [p.x, p.y, p.x + p.width, p.y + p.height] as const;
  const centerX = (viewBox[2] + viewBox[0]) / 2;
  const centerY = (viewBox[3] + viewBox[1]) / 2;
  const matrices: Record<PageGeometry['rotate'], [number, number, number, number]> = { 0: [1, 0, 0, -1], 90: [0, 1, 1, 0], 180: [-1, 0, 0, 1], 270: [0, -1, -1, 0] };
  const [a, b, c, d] = matrices[p.rotate];
  const offsetX = a === 0 ? Math.abs(centerY - viewBox[1]) * scale : Math.abs(centerX - viewBox[0]) * scale;
  const offsetY = a === 0 ? Math.abs(centerX - viewBox[0]) * scale : Math.abs(centerY - viewBox[1]) * scale;
  const t = [a * scale, b * scale, c * scale, d * scale, offsetX - a * scale * centerX - c * scale * centerY, offsetY - b * scale * centerX - d * scale * centerY];
  return [t[0]! * px + t[2]! * py + t[4]!, t[1]! * px + t[3]! * py + t[5]!];
}

function boundingBox(points: [number, number][]): Rect {
  const xs = points.map(([x]) => x);
  const ys = points.map(([, y]) => y);
  return { x: Math.min(...xs), y: Math.min(...ys), width: Math.max(...xs) - Math.min(...xs), height: Math.max(...ys) - Math.min(...ys) };
}

// Arbitraries. Page sizes stop at 14,400 pt, the PDF spec's largest page.
const pageArb: fc.Arbitrary<PageGeometry> = fc.record({
  width: fc.double({ min: 1, max: 14_400, noNaN: true }),
  height: fc.double({ min: 1, max: 14_400, noNaN: true }),
  x: fc.double({ min: -1_000, max: 1_000, noNaN: true }),
  y: fc.double({ min: -1_000, max: 1_000, noNaN: true }),
  rotate: fc.constantFrom(...ROTATIONS),
});
const zoomArb = fc.double({ min: 0.1, max: 10, noNaN: true });
const coordinate = fc.double({ min: -20_000, max: 20_000, noNaN: true });
const length = fc.double({ min: 0, max: 20_000, noNaN: true });
const rectArb: fc.Arbitrary<Rect> = fc.record({ x: coordinate, y: coordinate, width: length, height: length });

describe('display frame', () => {
  // Page 600 x 800; rect at (10, 20) size 100 x 50. Rotated pages show 800 x 600.
  it.each([
    { rotate: 0, shown: { x: 10, y: 20, width: 100, height: 50 } },
    // 90° clockwise: the page's left edge becomes the top; x' = H - y - h, y' = x.
    { rotate: 90, shown: { x: 730, y: 10, width: 50, height: 100 } },
    // 180°: x' = W - x - w, y' = H - y - h.
    { rotate: 180, shown: { x: 490, y: 730, width: 100, height: 50 } },
    // 270°: the page's top edge becomes the left; x' = y, y' = W - x - w.
    { rotate: 270, shown: { x: 20, y: 490, width: 50, height: 100 } },
  ] as const)('shows a rect on a page rotated $rotate°', ({ rotate, shown }) => {
    expect(pageToDisplay(rect, page(rotate), 1)).toEqual(shown);
    expect(displayToPage(shown, page(rotate), 1)).toEqual(rect);
  });

  it.each(ROTATIONS)('scales by the zoom at %i°', (rotate) => {
    const atOne = pageToDisplay(rect, page(rotate), 1);
    const atTwo = pageToDisplay(rect, page(rotate), 2);
    expect(atTwo).toEqual({ x: atOne.x * 2, y: atOne.y * 2, width: atOne.width * 2, height: atOne.height * 2 });
    expect(displayToPage(atTwo, page(rotate), 2)).toEqual(rect);
  });

  it.each(ROTATIONS)('maps the whole page onto the displayed page at %i°', (rotate) => {
    const whole = { x: 0, y: 0, width: 600, height: 800 };
    expect(pageToDisplay(whole, page(rotate), 1.5)).toEqual({ x: 0, y: 0, ...scaleSize(displayedSize(page(rotate)), 1.5) });
  });

  it('puts the page top-left corner where a clockwise turn takes it', () => {
    const corner = { x: 0, y: 0, width: 0, height: 0 };
    expect(pageToDisplay(corner, page(90), 1)).toMatchObject({ x: 800, y: 0 }); // top-right
    expect(pageToDisplay(corner, page(180), 1)).toMatchObject({ x: 600, y: 800 }); // bottom-right
    expect(pageToDisplay(corner, page(270), 1)).toMatchObject({ x: 0, y: 600 }); // bottom-left
  });

  it.each([0, -1, Number.NaN, Number.POSITIVE_INFINITY])('refuses zoom %s', (zoom) => {
    expect(() => pageToDisplay(rect, page(), zoom)).toThrow(RangeError);
    expect(() => displayToPage(rect, page(), zoom)).toThrow(RangeError);
  });

  it('displayToPage ∘ pageToDisplay is the identity (property)', () => {
    fc.assert(
      fc.property(rectArb, pageArb, zoomArb, (r, p, zoom) => {
        expect(rectsClose(displayToPage(pageToDisplay(r, p, zoom), p, zoom), r)).toBe(true);
      }),
    );
  });

  it('pageToDisplay ∘ displayToPage is the identity (property)', () => {
    fc.assert(
      fc.property(rectArb, pageArb, zoomArb, (r, p, zoom) => {
        // Display coordinates are points times zoom, so the tolerance scales with the zoom.
        expect(rectsClose(pageToDisplay(displayToPage(r, p, zoom), p, zoom), r, GEOMETRY_EPSILON * 10)).toBe(true);
      }),
    );
  });

  it('agrees with the pdf.js viewport for every rotation (property)', () => {
    fc.assert(
      fc.property(rectArb, pageArb, zoomArb, (r, p, zoom) => {
        const [x0, y0, x1, y1] = toPdfUserSpace(r, p);
        const corners: [number, number][] = [
          [x0, y0],
          [x0, y1],
          [x1, y0],
          [x1, y1],
        ];
        const viewer = boundingBox(corners.map((corner) => pdfjsViewportPoint(p, zoom, corner)));
        expect(rectsClose(pageToDisplay(r, p, zoom), viewer, 1e-5)).toBe(true);
      }),
    );
  });

  it('keeps a rect inside the page inside the displayed page (property)', () => {
    fc.assert(
      fc.property(rectArb, pageArb, zoomArb, (r, p, zoom) => {
        const inside = clampToPage(r, p);
        const shown = pageToDisplay(inside, p, zoom);
        const size = displayedSize(p);
        expect(isInsidePage(shown, { width: size.width * zoom, height: size.height * zoom })).toBe(true);
      }),
    );
  });
});

function scaleSize(size: { width: number; height: number }, zoom: number) {
  return { width: size.width * zoom, height: size.height * zoom };
}

describe('block bounds', () => {
  it('are the rect as ratios of the visible box', () => {
    expect(toBlockBounds({ x: 60, y: 200, width: 150, height: 40 }, page())).toEqual({ top: 0.25, left: 0.1, heightRatio: 0.05, widthRatio: 0.25 });
    expect(fromBlockBounds({ top: 0.25, left: 0.1, heightRatio: 0.05, widthRatio: 0.25 }, page())).toEqual({ x: 60, y: 200, width: 150, height: 40 });
  });

  it('ignore rotation: they describe the unrotated page', () => {
    for (const rotate of ROTATIONS) expect(toBlockBounds(rect, page(rotate))).toEqual(toBlockBounds(rect, page(0)));
  });

  it('round-trip (property)', () => {
    fc.assert(
      fc.property(rectArb, pageArb, (r, p) => {
        expect(rectsClose(fromBlockBounds(toBlockBounds(r, p), p), r)).toBe(true);
      }),
    );
  });
});

describe('PDF user space', () => {
  it('flips y and adds the visible box origin', () => {
    // Visible box from (5, 7), height 800: top edge at y = 807.
    expect(toPdfUserSpace(rect, page())).toEqual([15, 737, 115, 787]);
  });

  it('is the same whatever the rotation', () => {
    for (const rotate of ROTATIONS) expect(toPdfUserSpace(rect, page(rotate))).toEqual([15, 737, 115, 787]);
  });

  it('reads back, corners in either order', () => {
    expect(fromPdfUserSpace([15, 737, 115, 787], page())).toEqual(rect);
    expect(fromPdfUserSpace([115, 787, 15, 737], page())).toEqual(rect);
  });

  it('agrees with the form-field import of the document sandbox', () => {
    // sandbox-child.mjs: positionX = min(x) - box.x, positionY = box.y + box.height - max(y).
    const annotation = [105, 500, 255, 550] as const;
    const p = page();
    expect(fromPdfUserSpace(annotation, p)).toEqual({ x: 105 - p.x, y: p.y + p.height - 550, width: 150, height: 50 });
  });

  it('round-trips (property)', () => {
    fc.assert(
      fc.property(rectArb, pageArb, (r, p) => {
        expect(rectsClose(fromPdfUserSpace(toPdfUserSpace(r, p), p), r)).toBe(true);
      }),
    );
  });
});

describe('page bounds', () => {
  const p = { width: 600, height: 800 };
  it.each([
    { name: 'inside', r: { x: 10, y: 10, width: 100, height: 50 }, inside: true },
    { name: 'the whole page', r: { x: 0, y: 0, width: 600, height: 800 }, inside: true },
    { name: 'on the right edge', r: { x: 500, y: 0, width: 100, height: 50 }, inside: true },
    { name: 'a hair over the edge (rounding)', r: { x: 500 + 1e-9, y: 0, width: 100, height: 50 }, inside: true },
    { name: 'over the right edge', r: { x: 501, y: 0, width: 100, height: 50 }, inside: false },
    { name: 'over the bottom edge', r: { x: 0, y: 760, width: 100, height: 50 }, inside: false },
    { name: 'left of the page', r: { x: -1, y: 0, width: 100, height: 50 }, inside: false },
    { name: 'above the page', r: { x: 0, y: -0.5, width: 100, height: 50 }, inside: false },
    { name: 'negative size', r: { x: 10, y: 10, width: -5, height: 50 }, inside: false },
    { name: 'NaN', r: { x: Number.NaN, y: 10, width: 5, height: 50 }, inside: false },
    { name: 'infinite', r: { x: 0, y: 0, width: Number.POSITIVE_INFINITY, height: 50 }, inside: false },
  ])('$name → $inside', ({ r, inside }) => {
    expect(isInsidePage(r, p)).toBe(inside);
  });

  it.each([
    { name: 'leaves a rect inside alone', r: { x: 10, y: 10, width: 100, height: 50 }, out: { x: 10, y: 10, width: 100, height: 50 } },
    { name: 'pulls in from the right', r: { x: 550, y: 10, width: 100, height: 50 }, out: { x: 500, y: 10, width: 100, height: 50 } },
    { name: 'pulls in from the top-left', r: { x: -20, y: -30, width: 100, height: 50 }, out: { x: 0, y: 0, width: 100, height: 50 } },
    { name: 'shrinks a rect larger than the page', r: { x: -5, y: 100, width: 700, height: 900 }, out: { x: 0, y: 0, width: 600, height: 800 } },
    { name: 'treats NaN as zero', r: { x: Number.NaN, y: 10, width: Number.NaN, height: 50 }, out: { x: 0, y: 10, width: 0, height: 50 } },
  ])('clampToPage $name', ({ r, out }) => {
    expect(clampToPage(r, p)).toEqual(out);
  });

  it('clampToPage always yields a rect inside the page (property)', () => {
    const wild = fc.double({ noNaN: false });
    fc.assert(
      fc.property(fc.record({ x: wild, y: wild, width: wild, height: wild }), pageArb, (r, pg) => {
        expect(isInsidePage(clampToPage(r, pg), pg)).toBe(true);
      }),
    );
  });

  it('clampToPage leaves a rect already inside unchanged (property)', () => {
    fc.assert(
      fc.property(rectArb, pageArb, (r, pg) => {
        const inside = clampToPage(r, pg);
        expect(clampToPage(inside, pg)).toEqual(inside);
      }),
    );
  });
});

describe('overlap', () => {
  const a = { x: 0, y: 0, width: 100, height: 50 };
  it.each([
    { name: 'disjoint', b: { x: 200, y: 0, width: 100, height: 50 }, tolerance: 0, overlaps: false },
    { name: 'touching along an edge', b: { x: 100, y: 0, width: 100, height: 50 }, tolerance: 0, overlaps: false },
    { name: 'touching at a corner', b: { x: 100, y: 50, width: 10, height: 10 }, tolerance: 0, overlaps: false },
    { name: 'sharing a 1 pt strip', b: { x: 99, y: 0, width: 100, height: 50 }, tolerance: 0, overlaps: true },
    { name: 'sharing a 1 pt strip, tolerance 3', b: { x: 99, y: 0, width: 100, height: 50 }, tolerance: 3, overlaps: false },
    { name: 'sharing a 3 pt strip, tolerance 3', b: { x: 97, y: 0, width: 100, height: 50 }, tolerance: 3, overlaps: false },
    { name: 'sharing a 4 pt strip, tolerance 3', b: { x: 96, y: 0, width: 100, height: 50 }, tolerance: 3, overlaps: true },
    { name: 'contained', b: { x: 10, y: 10, width: 10, height: 10 }, tolerance: 3, overlaps: true },
    { name: 'identical', b: a, tolerance: 0, overlaps: true },
    { name: 'empty rect inside', b: { x: 10, y: 10, width: 0, height: 0 }, tolerance: 0, overlaps: false },
  ])('$name → $overlaps', ({ b, tolerance, overlaps }) => {
    expect(rectsOverlap(a, b, tolerance)).toBe(overlaps);
    expect(rectsOverlap(b, a, tolerance)).toBe(overlaps);
  });

  const toleranceArb = fc.constantFrom(0, 3);

  it('is symmetric (property)', () => {
    fc.assert(
      fc.property(rectArb, rectArb, toleranceArb, (r, s, tolerance) => {
        expect(rectsOverlap(r, s, tolerance)).toBe(rectsOverlap(s, r, tolerance));
        expect(overlapDepth(r, s)).toEqual(overlapDepth(s, r));
      }),
    );
  });

  it('never holds for a rect strictly disjoint from another (property)', () => {
    // b is placed strictly right of, left of, below or above a, by a positive gap.
    const gap = fc.double({ min: 1e-3, max: 1_000, noNaN: true });
    fc.assert(
      fc.property(rectArb, length, length, coordinate, gap, fc.constantFrom('right', 'left', 'below', 'above'), toleranceArb, (r, width, height, along, g, side, tolerance) => {
        const b =
          side === 'right'
            ? { x: r.x + r.width + g, y: along, width, height }
            : side === 'left'
              ? { x: r.x - width - g, y: along, width, height }
              : side === 'below'
                ? { x: along, y: r.y + r.height + g, width, height }
                : { x: along, y: r.y - height - g, width, height };
        expect(rectsOverlap(r, b, tolerance)).toBe(false);
      }),
    );
  });
});

describe('tagRect', () => {
  it('reads the position and size of a tag', () => {
    expect(tagRect({ positionX: 1, positionY: 2, blockWidth: 3, blockHeight: 4 })).toEqual({ x: 1, y: 2, width: 3, height: 4 });
  });
});
