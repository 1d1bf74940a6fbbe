import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { ChangedRegion, RevisionChange, VerifiedRevision } from '@pakt/domain';
import { PNG } from 'pngjs';
import { openPdfFile, type PdfBox } from '../../platform/pdf/pdf-file';

/**
 * The picture of what a revision changed (issue 20, /verify): each page a revision changed is
 * rendered by poppler as it was before and after, and the box of the pixels that differ becomes
 * a region, with the area before and after as small PNGs. Runs in the verifier's child; without
 * pdftoppm, or for a page that will not render, the report simply has no pictures.
 */

/** Pixels per point (72 dpi): text in the area stays readable, and a page is still small for a report. */
const SCALE = 1;
/** Pages rendered at most per file (each twice), whatever a crafted file changes. */
const MAX_PAGES = 6;
/** A cropped area larger than this many pixels is described by its box only. */
const MAX_IMAGE_PIXELS = 400_000;
const MARGIN_PX = 6;
/** Changes that show on a page: its content, its annotations, and fields signed or filled there. */
const PAGE_KINDS = new Set<RevisionChange['kind']>(['pageContent', 'pageResources', 'annotationAdded', 'annotationChanged', 'annotationRemoved', 'signatureAdded', 'formFieldFilled', 'formFieldChanged']);

interface Raster {
  width: number;
  height: number;
  rgb: Buffer;
}

function render(file: string, page: number, out: string): Raster | null {
  try {
    execFileSync('pdftoppm', ['-r', String(SCALE * 72), '-cropbox', '-f', String(page), '-l', String(page), '-singlefile', file, out], { stdio: 'ignore', timeout: 20_000 });
    const ppm = fs.readFileSync(`${out}.ppm`);
    const header = /^P6\s+(\d+)\s+(\d+)\s+255\s/.exec(ppm.subarray(0, 64).toString('latin1'));
    if (!header) return null;
    return { width: Number(header[1]), height: Number(header[2]), rgb: ppm.subarray(header[0].length) };
  } catch {
    return null;
  }
}

/** The bounding box of the pixels that differ, or null when the two look the same. */
function differingBox(before: Raster, after: Raster): [number, number, number, number] | null {
  if (before.width !== after.width || before.height !== after.height) return [0, 0, after.width, after.height];
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -1;
  let maxY = -1;
  for (let y = 0; y < after.height; y++) {
    for (let x = 0; x < after.width; x++) {
      const at = (y * after.width + x) * 3;
      if (before.rgb[at] === after.rgb[at] && before.rgb[at + 1] === after.rgb[at + 1] && before.rgb[at + 2] === after.rgb[at + 2]) continue;
      minX = Math.min(minX, x);
      minY = Math.min(minY, y);
      maxX = Math.max(maxX, x);
      maxY = Math.max(maxY, y);
    }
  }
  return maxX < 0 ? null : [minX, minY, maxX + 1, maxY + 1];
}

function cropPng(raster: Raster, [x0, y0, x1, y1]: readonly [number, number, number, number]): string | null {
  const width = x1 - x0;
  const height = y1 - y0;
  if (width <= 0 || height <= 0 || width * height > MAX_IMAGE_PIXELS) return null;
  const png = new PNG({ width, height });
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const from = ((y0 + y) * raster.width + (x0 + x)) * 3;
      const to = (y * width + x) * 4;
      png.data[to] = raster.rgb[from]!;
      png.data[to + 1] = raster.rgb[from + 1]!;
      png.data[to + 2] = raster.rgb[from + 2]!;
      png.data[to + 3] = 255;
    }
  }
  return `data:image/png;base64,${PNG.sync.write(png).toString('base64')}`;
}

/** A pixel box of a render of the crop box, in the page's user space (poppler turns the page by /Rotate). */
function toPagePoints([px0, py0, px1, py1]: readonly number[], cropBox: PdfBox, rotate: number): [number, number, number, number] {
  const [x0, y0, x1, y1] = cropBox;
  const point = (px: number, py: number): [number, number] => {
    const u = px / SCALE;
    const v = py / SCALE;
    if (rotate === 90) return [x0 + v, y0 + u];
    if (rotate === 180) return [x1 - u, y0 + v];
    if (rotate === 270) return [x1 - v, y1 - u];
    return [x0 + u, y1 - v];
  };
  const [ax, ay] = point(px0!, py0!);
  const [bx, by] = point(px1!, py1!);
  const round = (n: number) => Math.round(n * 10) / 10;
  return [round(Math.min(ax, bx)), round(Math.min(ay, by)), round(Math.max(ax, bx)), round(Math.max(ay, by))];
}

/** The revisions with the regions their page changes show, rendered from the file's prefixes in `workDir`. */
export function withChangedRegions(buffer: Buffer, revisions: readonly VerifiedRevision[], workDir: string): VerifiedRevision[] {
  let budget = MAX_PAGES;
  return revisions.map((revision, index) => {
    const pages = [...new Set(revision.changes.filter((change) => PAGE_KINDS.has(change.kind) && change.page !== null).map((change) => change.page!))];
    if (index === 0 || pages.length === 0 || budget <= 0) return revision;
    const previous = revisions[index - 1]!;
    const beforeFile = path.join(workDir, `revision-${previous.number}.pdf`);
    const afterFile = path.join(workDir, `revision-${revision.number}.pdf`);
    fs.writeFileSync(beforeFile, buffer.subarray(0, previous.endOffset));
    fs.writeFileSync(afterFile, buffer.subarray(0, revision.endOffset));
    let view: { cropBox: PdfBox; rotate: number }[] = [];
    try {
      view = openPdfFile(buffer.subarray(0, revision.endOffset)).pages().map((page) => ({ cropBox: page.cropBox, rotate: page.rotate }));
    } catch {
      return revision;
    }
    const regions: ChangedRegion[] = [];
    for (const page of pages) {
      if (budget-- <= 0 || !view[page - 1]) break;
      const before = render(beforeFile, page, path.join(workDir, `before-${revision.number}-${page}`));
      const after = render(afterFile, page, path.join(workDir, `after-${revision.number}-${page}`));
      if (!before || !after) continue;
      const box = differingBox(before, after);
      if (!box) continue;
      const padded = [Math.max(0, box[0] - MARGIN_PX), Math.max(0, box[1] - MARGIN_PX), Math.min(after.width, box[2] + MARGIN_PX), Math.min(after.height, box[3] + MARGIN_PX)] as const;
      const sameSize = before.width === after.width && before.height === after.height;
      regions.push({
        page,
        box: toPagePoints(box, view[page - 1]!.cropBox, view[page - 1]!.rotate),
        before: sameSize ? cropPng(before, padded) : null,
        after: cropPng(after, padded),
      });
    }
    return { ...revision, regions };
  });
}
