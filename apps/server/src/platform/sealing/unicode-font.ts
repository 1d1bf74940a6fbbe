import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import zlib from 'node:zlib';
import * as fontkit from 'fontkit';
import type { RevisionObject } from '../pdf/incremental-writer';
import { pdfArray, pdfDict, pdfName, pdfNumber, pdfString, type PdfRef, type PdfValue } from '../pdf/objects';

/**
 * The Unicode fonts appearances fall back to for text Helvetica/WinAnsi cannot draw, and their
 * embedding: a subset of the glyphs drawn, as a Type0 font with a CIDFontType2 descendant.
 *
 * The fonts are Noto Sans (SIL Open Font License 1.1) as the @fontsource packages ship them:
 * WOFF 1 files, one per Unicode range ("subset") of a family, each a TrueType font whose layout
 * tables (GSUB, GPOS) still cover its glyphs, so text is shaped with them (text-layout.ts). Only
 * the 400 (regular) weight is used. Nothing is fetched at run time: npm installs the files.
 *
 * Subsets keep glyph ids: the content streams draw a glyph by its id in the shipped font (CID =
 * GID, /CIDToGIDMap /Identity), and the embedded program keeps every glyph up to the highest one
 * drawn, all others left empty. So appearances are final when made, before the revision is
 * sealed, and every appearance of a revision shares one font object per face; the empty glyphs
 * cost a few bytes each in the index tables (loca, hmtx), which compress to almost nothing.
 */

const require = createRequire(import.meta.url);

/**
 * Families by priority: a character goes to the first face whose range and glyphs cover it.
 * `subsets` names the package's range files to use (its unicode.json), or 'all' for a family
 * split into numbered chunks, as the CJK ones are ("[4]", "[5]"...).
 */
const FAMILIES: ReadonlyArray<{ readonly package: string; readonly subsets: readonly string[] | 'all' }> = [
  // Latin, Greek, Cyrillic, Vietnamese (its "devanagari" subset is left to the family below).
  { package: '@fontsource/noto-sans', subsets: ['latin', 'latin-ext', 'cyrillic', 'cyrillic-ext', 'greek', 'greek-ext', 'vietnamese'] },
  { package: '@fontsource/noto-sans-devanagari', subsets: ['devanagari'] },
  { package: '@fontsource/noto-sans-arabic', subsets: ['arabic'] },
  { package: '@fontsource/noto-sans-bengali', subsets: ['bengali'] },
  { package: '@fontsource/noto-sans-gujarati', subsets: ['gujarati'] },
  { package: '@fontsource/noto-sans-gurmukhi', subsets: ['gurmukhi'] },
  { package: '@fontsource/noto-sans-oriya', subsets: ['oriya'] },
  { package: '@fontsource/noto-sans-tamil', subsets: ['tamil'] },
  { package: '@fontsource/noto-sans-telugu', subsets: ['telugu'] },
  { package: '@fontsource/noto-sans-kannada', subsets: ['kannada'] },
  { package: '@fontsource/noto-sans-malayalam', subsets: ['malayalam'] },
  { package: '@fontsource/noto-sans-hebrew', subsets: ['hebrew'] },
  { package: '@fontsource/noto-sans-thai', subsets: ['thai'] },
  // No CJK family: @fontsource ships every weight in one package (50 to 80 MB each), too much
  // for `npm install` on every machine; such text is still drawn as '?' (text-layout.ts).
];

const WEIGHT = 400;

/** One font file: a family's subset, loaded on first use. */
export class UnicodeFace {
  private loaded: { font: fontkit.Font; tables: Map<string, Buffer> } | undefined;

  constructor(
    /** The family's package, e.g. "@fontsource/noto-sans-devanagari". */
    readonly family: string,
    readonly subset: string,
    private readonly file: string,
    /** Inclusive code point ranges the subset is made for (its unicode-range). */
    private readonly ranges: ReadonlyArray<readonly [number, number]>,
  ) {}

  /** The name the appearance streams' /Resources give the font, e.g. "Pakt-noto-sans-devanagari-devanagari". */
  get resourceKey(): string {
    return `Pakt-${this.family.replace(/^@fontsource\//, '')}-${this.subset}`.replace(/[^A-Za-z0-9-]/g, '');
  }

  get font(): fontkit.Font {
    return this.load().font;
  }

  get tables(): ReadonlyMap<string, Buffer> {
    return this.load().tables;
  }

  /** Whether the file is meant for this character: true without reading the file. */
  inRange(codePoint: number): boolean {
    return this.ranges.some(([from, to]) => codePoint >= from && codePoint <= to);
  }

  covers(codePoint: number): boolean {
    return this.inRange(codePoint) && this.font.hasGlyphForCodePoint(codePoint);
  }

  private load() {
    if (!this.loaded) {
      const sfnt = woffToSfnt(fs.readFileSync(this.file));
      const tables = readSfntTables(sfnt);
      if (!tables.has('glyf') || !tables.has('loca')) throw new Error(`${this.file} is not a TrueType (glyf) font`);
      this.loaded = { font: fontkit.create(sfnt), tables };
    }
    return this.loaded;
  }
}

/** "U+0900-097F,U+20B9" as inclusive ranges. */
export function parseUnicodeRange(text: string): Array<[number, number]> {
  return text
    .split(',')
    .map((part) => part.trim().replace(/^U\+/i, ''))
    .filter(Boolean)
    .map((part) => {
      const [from, to] = part.split('-');
      return [parseInt(from!, 16), parseInt(to ?? from!, 16)];
    });
}

let registry: readonly UnicodeFace[] | undefined;

/** Every face, in priority order (files are read only when a face is first used). */
export function unicodeFaces(): readonly UnicodeFace[] {
  if (!registry) {
    const faces: UnicodeFace[] = [];
    for (const family of FAMILIES) {
      const ranges = JSON.parse(fs.readFileSync(require.resolve(`${family.package}/unicode.json`), 'utf8')) as Record<string, string>;
      const id = family.package.replace(/^@fontsource\//, '');
      for (const subset of family.subsets === 'all' ? Object.keys(ranges) : family.subsets) {
        const range = ranges[subset];
        if (range === undefined) throw new Error(`${family.package} has no subset ${subset}`);
        const file = require.resolve(`${family.package}/files/${id}-${subset.replace(/[[\]]/g, '')}-${WEIGHT}-normal.woff`);
        faces.push(new UnicodeFace(family.package, subset, file, parseUnicodeRange(range)));
      }
    }
    registry = faces;
  }
  return registry;
}

/** The first face that has a glyph for the character, if any. */
export function faceFor(codePoint: number, among: readonly UnicodeFace[] = unicodeFaces()): UnicodeFace | undefined {
  return among.find((face) => face.covers(codePoint));
}

// --- sfnt files -------------------------------------------------------------------------------

/** A WOFF 1 file as the TrueType (sfnt) font it wraps: each table inflated where compressed. */
export function woffToSfnt(woff: Buffer): Buffer {
  if (woff.toString('latin1', 0, 4) !== 'wOFF') throw new Error('not a WOFF file');
  const flavor = woff.readUInt32BE(4);
  const count = woff.readUInt16BE(12);
  const tables = new Map<string, Buffer>();
  for (let i = 0; i < count; i++) {
    const at = 44 + i * 20;
    const tag = woff.toString('latin1', at, at + 4);
    const offset = woff.readUInt32BE(at + 4);
    const compLength = woff.readUInt32BE(at + 8);
    const origLength = woff.readUInt32BE(at + 12);
    const stored = woff.subarray(offset, offset + compLength);
    const data = compLength < origLength ? zlib.inflateSync(stored) : Buffer.from(stored);
    if (data.length !== origLength) throw new Error(`WOFF table ${tag} has ${data.length} bytes, not ${origLength}`);
    tables.set(tag, data);
  }
  return writeSfnt(tables, flavor);
}

export function readSfntTables(sfnt: Buffer): Map<string, Buffer> {
  const count = sfnt.readUInt16BE(4);
  const tables = new Map<string, Buffer>();
  for (let i = 0; i < count; i++) {
    const at = 12 + i * 16;
    const offset = sfnt.readUInt32BE(at + 8);
    tables.set(sfnt.toString('latin1', at, at + 4), sfnt.subarray(offset, offset + sfnt.readUInt32BE(at + 12)));
  }
  return tables;
}

function checksum(data: Buffer): number {
  let sum = 0;
  const padded = data.length % 4 === 0 ? data : Buffer.concat([data, Buffer.alloc(4 - (data.length % 4))]);
  for (let i = 0; i < padded.length; i += 4) sum = (sum + padded.readUInt32BE(i)) >>> 0;
  return sum;
}

/** An sfnt from its tables: sorted directory, 4-byte aligned tables, checksums, head's adjustment. */
export function writeSfnt(tables: ReadonlyMap<string, Buffer>, flavor = 0x00010000): Buffer {
  const tags = [...tables.keys()].sort();
  const count = tags.length;
  const power = 2 ** Math.floor(Math.log2(count));
  const header = Buffer.alloc(12 + 16 * count);
  header.writeUInt32BE(flavor, 0);
  header.writeUInt16BE(count, 4);
  header.writeUInt16BE(power * 16, 6);
  header.writeUInt16BE(Math.log2(power), 8);
  header.writeUInt16BE(count * 16 - power * 16, 10);
  const parts: Buffer[] = [header];
  let offset = header.length;
  let headAt = -1;
  tags.forEach((tag, i) => {
    let data = tables.get(tag)!;
    if (tag === 'head') {
      data = Buffer.from(data);
      data.writeUInt32BE(0, 8);
      headAt = offset;
    }
    const at = 12 + i * 16;
    header.write(tag, at, 'latin1');
    header.writeUInt32BE(checksum(data), at + 4);
    header.writeUInt32BE(offset, at + 8);
    header.writeUInt32BE(data.length, at + 12);
    const padding = Buffer.alloc((4 - (data.length % 4)) % 4);
    parts.push(data, padding);
    offset += data.length + padding.length;
  });
  const font = Buffer.concat(parts);
  if (headAt >= 0) font.writeUInt32BE((0xb1b0afba - checksum(font)) >>> 0, headAt + 8);
  return font;
}

// --- subsetting -------------------------------------------------------------------------------

/** The glyphs a composite glyph is made of (its components' ids). */
function components(glyph: Buffer): number[] {
  if (glyph.length < 10 || glyph.readInt16BE(0) >= 0) return [];
  const ids: number[] = [];
  let at = 10;
  for (;;) {
    const flags = glyph.readUInt16BE(at);
    ids.push(glyph.readUInt16BE(at + 2));
    at += 4 + (flags & 0x0001 ? 4 : 2);
    if (flags & 0x0008) at += 2;
    else if (flags & 0x0040) at += 4;
    else if (flags & 0x0080) at += 8;
    if (!(flags & 0x0020)) return ids;
  }
}

/**
 * A TrueType font with only the given glyphs (and the ones they are built from), every glyph
 * keeping its id: glyphs not kept are empty, and glyphs after the last one kept are left out.
 * Layout, naming and mapping tables are dropped: a PDF font maps codes to glyphs by itself.
 */
export function subsetTrueType(tables: ReadonlyMap<string, Buffer>, glyphIds: Iterable<number>): Buffer {
  const table = (tag: string) => {
    const data = tables.get(tag);
    if (!data) throw new Error(`the font has no ${tag} table`);
    return data;
  };
  const head = Buffer.from(table('head'));
  const hhea = Buffer.from(table('hhea'));
  const maxp = Buffer.from(table('maxp'));
  const loca = table('loca');
  const glyf = table('glyf');
  const hmtx = table('hmtx');
  const numGlyphs = maxp.readUInt16BE(4);
  const longLoca = head.readInt16BE(50) === 1;
  const offsetOf = (id: number) => (longLoca ? loca.readUInt32BE(id * 4) : loca.readUInt16BE(id * 2) * 2);
  const glyphData = (id: number) => glyf.subarray(offsetOf(id), offsetOf(id + 1));

  const kept = new Set<number>();
  const pending = [0, ...glyphIds];
  while (pending.length) {
    const id = pending.pop()!;
    if (id < 0 || id >= numGlyphs || kept.has(id)) continue;
    kept.add(id);
    // A composite's components, which may be composite themselves.
    pending.push(...components(glyphData(id)).filter((part) => !kept.has(part)));
  }

  const count = Math.max(...kept) + 1;
  const hMetrics = hhea.readUInt16BE(34);
  const parts: Buffer[] = [];
  const offsets: number[] = [];
  let length = 0;
  const newHmtx = Buffer.alloc(count * 4);
  for (let id = 0; id < count; id++) {
    offsets.push(length);
    if (!kept.has(id)) continue;
    const data = glyphData(id);
    const padded = data.length % 4 ? Buffer.concat([data, Buffer.alloc(4 - (data.length % 4))]) : data;
    parts.push(padded);
    length += padded.length;
    newHmtx.writeUInt16BE(hmtx.readUInt16BE(Math.min(id, hMetrics - 1) * 4), id * 4);
    newHmtx.writeInt16BE(id < hMetrics ? hmtx.readInt16BE(id * 4 + 2) : hmtx.readInt16BE(hMetrics * 4 + (id - hMetrics) * 2), id * 4 + 2);
  }
  offsets.push(length);
  const short = length / 2 <= 0xffff;
  const newLoca = Buffer.alloc(offsets.length * (short ? 2 : 4));
  offsets.forEach((offset, i) => (short ? newLoca.writeUInt16BE(offset / 2, i * 2) : newLoca.writeUInt32BE(offset, i * 4)));
  head.writeInt16BE(short ? 0 : 1, 50);
  maxp.writeUInt16BE(count, 4);
  hhea.writeUInt16BE(count, 34);

  const out = new Map<string, Buffer>([
    ['head', head],
    ['hhea', hhea],
    ['maxp', maxp],
    ['hmtx', newHmtx],
    ['loca', newLoca],
    ['glyf', Buffer.concat(parts)],
  ]);
  // Hinting programs, where the font has them: glyph instructions may call into them.
  for (const tag of ['cvt ', 'fpgm', 'prep']) if (tables.has(tag)) out.set(tag, tables.get(tag)!);
  return writeSfnt(out);
}

// --- PDF objects ------------------------------------------------------------------------------

/** A glyph's advance in PDF glyph space (1/1000 of the font size), as /W writes it. */
export function pdfGlyphWidth(face: UnicodeFace, glyphId: number): number {
  const font = face.font;
  return Math.round((font.getGlyph(glyphId).advanceWidth * 1000) / font.unitsPerEm);
}

/** Six capital letters naming a subset (PDF 32000-1 9.6.4), the same for the same glyphs. */
function subsetTag(name: string, glyphIds: readonly number[]): string {
  const hash = crypto.createHash('sha256').update(`${name}:${glyphIds.join(',')}`).digest();
  return [...hash.subarray(0, 6)].map((byte) => String.fromCharCode(65 + (byte % 26))).join('');
}

function utf16Hex(text: string): string {
  return Buffer.from(text, 'utf16le').swap16().toString('hex').toUpperCase();
}

/** A /ToUnicode CMap: each glyph drawn to the characters it stands for. */
export function toUnicodeCMap(glyphs: ReadonlyMap<number, string>): Buffer {
  const entries = [...glyphs].filter(([, text]) => text.length > 0).sort(([a], [b]) => a - b);
  const lines = [
    '/CIDInit /ProcSet findresource begin',
    '12 dict begin',
    'begincmap',
    '/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def',
    '/CMapName /Adobe-Identity-UCS def',
    '/CMapType 2 def',
    '1 begincodespacerange',
    '<0000> <FFFF>',
    'endcodespacerange',
  ];
  for (let i = 0; i < entries.length; i += 100) {
    const block = entries.slice(i, i + 100);
    lines.push(`${block.length} beginbfchar`);
    for (const [id, text] of block) lines.push(`<${id.toString(16).padStart(4, '0').toUpperCase()}> <${utf16Hex(text)}>`);
    lines.push('endbfchar');
  }
  lines.push('endcmap', 'CMapName currentdict /CMap defineresource pop', 'end', 'end');
  return Buffer.from(lines.join('\n'), 'latin1');
}

/** /W: runs of consecutive glyph ids with their widths. */
function widthsArray(face: UnicodeFace, glyphIds: readonly number[]): PdfValue {
  const items: PdfValue[] = [];
  let run: number[] = [];
  let start = -1;
  const flush = () => {
    if (run.length) items.push(pdfNumber(start), pdfArray(run.map((width) => pdfNumber(width))));
  };
  for (const id of glyphIds) {
    if (run.length && id === start + run.length) {
      run.push(pdfGlyphWidth(face, id));
      continue;
    }
    flush();
    start = id;
    run = [pdfGlyphWidth(face, id)];
  }
  flush();
  return pdfArray(items);
}

/**
 * The objects of one embedded face for a revision: the Type0 font at `fontRef` (the object the
 * appearances' /Resources point to), its CIDFontType2, descriptor, font program and /ToUnicode.
 * Streams are given plain; the writer encrypts them in an encrypted file.
 */
export function embeddedFontObjects(face: UnicodeFace, glyphs: ReadonlyMap<number, string>, fontRef: PdfRef, allocate: () => PdfRef): RevisionObject[] {
  const font = face.font;
  const ids = [...new Set([0, ...glyphs.keys()])].sort((a, b) => a - b);
  const program = subsetTrueType(face.tables, ids);
  const baseFont = `${subsetTag(font.postscriptName, ids)}+${font.postscriptName}`;
  const scale = 1000 / font.unitsPerEm;
  const [cidFontRef, descriptorRef, programRef, toUnicodeRef] = [allocate(), allocate(), allocate(), allocate()];
  const toUnicode = toUnicodeCMap(glyphs);
  const { minX, minY, maxX, maxY } = font.bbox;
  return [
    {
      ref: fontRef,
      value: pdfDict([
        ['Type', pdfName('Font')],
        ['Subtype', pdfName('Type0')],
        ['BaseFont', pdfName(baseFont)],
        ['Encoding', pdfName('Identity-H')],
        ['DescendantFonts', pdfArray([cidFontRef])],
        ['ToUnicode', toUnicodeRef],
      ]),
    },
    {
      ref: cidFontRef,
      value: pdfDict([
        ['Type', pdfName('Font')],
        ['Subtype', pdfName('CIDFontType2')],
        ['BaseFont', pdfName(baseFont)],
        [
          'CIDSystemInfo',
          pdfDict([
            ['Registry', pdfString('Adobe')],
            ['Ordering', pdfString('Identity')],
            ['Supplement', pdfNumber(0)],
          ]),
        ],
        ['FontDescriptor', descriptorRef],
        ['W', widthsArray(face, ids)],
        ['CIDToGIDMap', pdfName('Identity')],
      ]),
    },
    {
      ref: descriptorRef,
      value: pdfDict([
        ['Type', pdfName('FontDescriptor')],
        ['FontName', pdfName(baseFont)],
        // Symbolic: its glyphs are outside the standard Latin character set.
        ['Flags', pdfNumber(4)],
        ['FontBBox', pdfArray([minX, minY, maxX, maxY].map((n) => pdfNumber(Math.round(n * scale))))],
        ['ItalicAngle', pdfNumber(0)],
        ['Ascent', pdfNumber(Math.round(font.ascent * scale))],
        ['Descent', pdfNumber(Math.round(font.descent * scale))],
        ['CapHeight', pdfNumber(Math.round((font.capHeight || font.ascent) * scale))],
        ['StemV', pdfNumber(80)],
        ['FontFile2', programRef],
      ]),
    },
    {
      ref: programRef,
      value: pdfDict([
        ['Length1', pdfNumber(program.length)],
        ['Filter', pdfName('FlateDecode')],
      ]),
      stream: zlib.deflateSync(program, { level: 9 }),
    },
    { ref: toUnicodeRef, value: pdfDict([['Filter', pdfName('FlateDecode')]]), stream: zlib.deflateSync(toUnicode, { level: 9 }) },
  ];
}
