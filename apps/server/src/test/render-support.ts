import fs from 'node:fs';
import path from 'node:path';
import { run } from './signing-support';

/**
 * Judging a sealed PDF as a person sees it: a page rendered by poppler (pdftoppm) before and after
 * a signing step, and where the pixels changed, in page points. What a signer approved must show
 * inside the boxes their tags occupy, and nothing else on the page may change.
 */

export type Box = readonly [number, number, number, number];

export interface Render {
  readonly width: number;
  readonly height: number;
  /** RGB, three bytes a pixel. */
  readonly pixels: Buffer;
  /** Pixels per point. */
  readonly scale: number;
}

/**
 * One page (1-based) of its crop box, the area viewers show, rendered in colour (PPM) at `scale`
 * pixels per point, in `dir`. Colour, not poppler's grey mode: on the A0 poster of the corpus a
 * signature drawn over a dark band showed in colour and not at all in grey.
 */
export function renderPage(bytes: Buffer, page: number, dir: string, name: string, scale = 0.5): Render {
  const file = path.join(dir, `${name}.pdf`);
  fs.writeFileSync(file, bytes);
  const out = path.join(dir, `${name}-render`);
  const rendered = run('pdftoppm', ['-r', String(scale * 72), '-cropbox', '-f', String(page), '-l', String(page), '-singlefile', file, out]);
  if (rendered.status !== 0) throw new Error(`pdftoppm failed on ${name}: ${rendered.stderr}`);
  const ppm = fs.readFileSync(`${out}.ppm`);
  const header = /^P6\s+(\d+)\s+(\d+)\s+255\s/.exec(ppm.subarray(0, 64).toString('latin1'))!;
  return { width: Number(header[1]), height: Number(header[2]), pixels: ppm.subarray(header[0].length), scale };
}

/** The page as poppler draws it: its crop box and /Rotate (the default, an unturned box from 0,0). */
export interface PageView {
  readonly cropBox: Box;
  readonly rotate: 0 | 90 | 180 | 270;
}

const UNTURNED: PageView = { cropBox: [0, 0, Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY], rotate: 0 };

/** A pixel's centre, back in the page's user space. */
function toPage(x: number, y: number, render: Render, view: PageView): [number, number] {
  const [x0, y0, x1, y1] = view.cropBox;
  const px = (x + 0.5) / render.scale;
  const py = (y + 0.5) / render.scale;
  switch (view.rotate) {
    case 90:
      return [x0 + py, y0 + px];
    case 180:
      return [x1 - px, y0 + py];
    case 270:
      return [x1 - py, y1 - px];
    default:
      // An unturned box of unknown height: the render's own height is the page's.
      return [x0 + px, (Number.isFinite(y1) ? y1 : render.height / render.scale) - py];
  }
}

/** Pixels that differ between two renders of a page: per box (in page points), and outside them all. */
export function changedPixels(before: Render, after: Render, boxes: readonly Box[], view: PageView = UNTURNED): { changedIn: number[]; changedOutside: number } {
  if (before.width !== after.width || before.height !== after.height) throw new Error(`the page changed size: ${before.width}x${before.height} -> ${after.width}x${after.height}`);
  const changedIn = boxes.map(() => 0);
  let changedOutside = 0;
  // A pixel of slack around each box for anti-aliasing.
  const slack = 1 / after.scale;
  for (let y = 0; y < after.height; y++) {
    for (let x = 0; x < after.width; x++) {
      const at = (y * after.width + x) * 3;
      if (after.pixels[at] === before.pixels[at] && after.pixels[at + 1] === before.pixels[at + 1] && after.pixels[at + 2] === before.pixels[at + 2]) continue;
      const [ux, uy] = toPage(x, y, after, view);
      const hit = boxes.findIndex(([x0, y0, x1, y1]) => ux >= x0 - slack && ux <= x1 + slack && uy >= y0 - slack && uy <= y1 + slack);
      if (hit < 0) changedOutside++;
      else changedIn[hit]!++;
    }
  }
  return { changedIn, changedOutside };
}
