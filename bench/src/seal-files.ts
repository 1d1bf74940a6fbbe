/**
 * The two large PDFs the sealing benches sign (bench:seal, bench:sign-step): a synthetic one and
 * one made of real-world pages, both of a given page count and padded to about a given size.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PDFDocument, rgb, StandardFonts } from 'pdf-lib';

export const SOURCES = ['synthetic', 'corpus'] as const;
export type Source = (typeof SOURCES)[number];

export const describeSource: Record<Source, string> = {
  synthetic: 'synthetic (pdf-lib pages + noise)',
  corpus: 'real-world pages',
};

export interface SealFileOptions {
  readonly file: string;
  readonly pages: number;
  readonly megabytes: number;
}

const CORPUS = fileURLToPath(new URL('../../../shared/corpus/pdfs/', import.meta.url));
/** Real-world pages, copied in turn: two books (fonts, many small objects) and scans. */
const CORPUS_SOURCES = ['pages-352-freeculture.pdf', 'pages-117-geotopo.pdf', 'mixed-sizes-scans-6p.pdf', 'form-irs-1040-2010.pdf'];

/** Random bytes in image-like streams until the file is about `bytes` larger. */
function padTo(doc: PDFDocument, bytes: number, pieces: number): void {
  if (bytes <= 0) return;
  const each = Math.ceil(bytes / pieces);
  for (let i = 0; i < pieces; i++) {
    doc.context.register(doc.context.stream(crypto.randomBytes(each), { Type: 'XObject', Subtype: 'Image', Width: 1, Height: 1, ColorSpace: 'DeviceGray', BitsPerComponent: 8 }));
  }
}

/**
 * `pages` pages copied round-robin from real files of the shared corpus (fonts, content streams,
 * annotations, form fields: tens of thousands of small objects, as real documents have), then
 * padded with image data to about `megabytes` MB.
 */
export async function makeCorpusPdf(options: SealFileOptions): Promise<void> {
  const { pages } = options;
  const doc = await PDFDocument.create();
  const sources = await Promise.all(CORPUS_SOURCES.map(async (name) => PDFDocument.load(fs.readFileSync(path.join(CORPUS, name)), { ignoreEncryption: true })));
  // One copyPages call per source, so pages of one book share its fonts as they do in the book.
  const wanted = sources.map(() => 0);
  for (let i = 0; i < pages; i++) wanted[i % sources.length]! += 1;
  const copied = await Promise.all(
    sources.map((source, which) => doc.copyPages(source, Array.from({ length: wanted[which]! }, (_, k) => k % source.getPageCount()))),
  );
  for (let i = 0; i < pages; i++) doc.addPage(copied[i % sources.length]![Math.floor(i / sources.length)]!);
  const unpadded = (await doc.save({ useObjectStreams: true })).length;
  padTo(doc, options.megabytes * 1024 * 1024 - unpadded, pages);
  fs.writeFileSync(options.file, await doc.save({ useObjectStreams: true }));
}

/** A PDF of `pages` A4 pages and about `megabytes` MB: each page carries its share as a poorly compressible image-like stream. */
export async function makeSyntheticPdf(options: SealFileOptions): Promise<void> {
  const { pages } = options;
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const perPage = Math.floor((options.megabytes * 1024 * 1024) / pages);
  for (let i = 0; i < pages; i++) {
    const page = doc.addPage([595, 842]);
    page.drawText(`Page ${i + 1} of ${pages}`, { x: 72, y: 770, size: 14, font, color: rgb(0, 0, 0) });
    // Random bytes as an image-like stream do not compress: the file really is `megabytes` large.
    const noise = doc.context.stream(crypto.randomBytes(perPage), { Type: 'XObject', Subtype: 'Image', Width: 1, Height: 1, ColorSpace: 'DeviceGray', BitsPerComponent: 8 });
    doc.context.register(noise);
  }
  fs.writeFileSync(options.file, await doc.save({ useObjectStreams: true }));
}

/** Writes the file of `source` (synthetic or real-world pages). */
export async function makeSealFile(source: Source, options: SealFileOptions): Promise<void> {
  await (source === 'corpus' ? makeCorpusPdf(options) : makeSyntheticPdf(options));
}
