import { Encodings, Font, FontNames } from '@pdf-lib/standard-fonts';

/**
 * Appearance streams for the widgets a signer's revision adds: what a viewer draws for a filled
 * field or a signature. Values are drawn into widget appearances (annotations), never into page
 * content, so a revision only adds annotations and fills fields: the changes an approval
 * signature allows, which keeps every earlier signature valid in strict validators too.
 *
 * Text uses the standard Helvetica with WinAnsiEncoding, which every viewer has without
 * embedding anything. Characters it cannot encode are shown as "?" and reported, so the caller
 * can decide (embedding a Unicode font for them is a later step).
 */

/** The page's /Rotate: an appearance is turned against it so it reads upright as shown. */
export type Rotation = 0 | 90 | 180 | 270;

export const APPEARANCE_FONT = 'Helvetica';
/** The resource name the content streams use for the font. */
export const APPEARANCE_FONT_KEY = 'PaktHelv';

const helvetica = Font.load(FontNames.Helvetica);
const winAnsi = Encodings.WinAnsi;

export interface EncodedText {
  /** WinAnsi bytes, ready for a PDF string. */
  readonly bytes: Buffer;
  /** Width at 1 pt font size, in points. */
  readonly width: number;
  /** Characters that had to be replaced by "?". */
  readonly unencodable: readonly string[];
}

/** Encodes text for Helvetica/WinAnsi and measures it (kerning left out, as Tj draws it). */
export function encodeText(text: string): EncodedText {
  const bytes: number[] = [];
  const unencodable: string[] = [];
  let width = 0;
  for (const char of text) {
    const codePoint = char.codePointAt(0)!;
    const fits = winAnsi.canEncodeUnicodeCodePoint(codePoint);
    if (!fits) unencodable.push(char);
    const { code, name } = winAnsi.encodeUnicodeCodePoint(fits ? codePoint : 0x3f);
    bytes.push(code);
    width += (helvetica.getWidthOfGlyph(name) ?? 0) / 1000;
  }
  return { bytes: Buffer.from(bytes), width, unencodable };
}

/** A PDF literal string of these bytes, with the three characters that need it escaped. */
export function literalString(bytes: Buffer): string {
  let out = '(';
  for (const byte of bytes) {
    if (byte === 0x28 || byte === 0x29 || byte === 0x5c) out += `\\${String.fromCharCode(byte)}`;
    else if (byte < 0x20 || byte > 0x7e) out += `\\${byte.toString(8).padStart(3, '0')}`;
    else out += String.fromCharCode(byte);
  }
  return `${out})`;
}

/** Numbers as PDF writes them: at most 4 decimals, no exponent, no "-0". */
export function num(value: number): string {
  if (!Number.isFinite(value)) throw new RangeError(`not a finite number: ${value}`);
  const rounded = Math.round(value * 10000) / 10000;
  return Object.is(rounded, -0) ? '0' : String(rounded);
}

export interface Appearance {
  /** The content stream. */
  readonly content: Buffer;
  /** /BBox of the form XObject: the box as the person sees it, from its bottom-left corner. */
  readonly bbox: readonly [number, number, number, number];
  /** /Matrix turning the box so it reads upright on a rotated page. */
  readonly matrix: readonly [number, number, number, number, number, number];
  /** Whether the Helvetica resource is used. */
  readonly usesFont: boolean;
  readonly unencodable: readonly string[];
}

/**
 * The /Matrix for a page turned clockwise by `rotate`: the appearance is turned the other way,
 * so that after the viewer turns the page it reads upright. The annotation's /Rect is in page
 * space; viewers fit the transformed box into it (PDF 32000-1 12.5.5).
 */
export function rotationMatrix(rotate: Rotation, shown: { width: number; height: number }): Appearance['matrix'] {
  switch (rotate) {
    case 0:
      return [1, 0, 0, 1, 0, 0];
    case 90:
      return [0, 1, -1, 0, shown.height, 0];
    case 180:
      return [-1, 0, 0, -1, shown.width, shown.height];
    case 270:
      return [0, -1, 1, 0, 0, shown.width];
  }
}

export interface TextAppearanceOptions {
  /** Size as shown (upright), in points. */
  readonly width: number;
  readonly height: number;
  readonly rotate: Rotation;
  /** One or more lines, top to bottom. */
  readonly lines: readonly string[];
  /** The font size wanted; lowered until the text fits (not below 4 pt). */
  readonly fontSize?: number;
  /** A thin frame, as signature boxes have. */
  readonly border?: boolean;
}

const MIN_FONT_SIZE = 4;
const PADDING = 2;
const LINE_GAP = 1.15;

/** Text lines in a box, shrunk to fit, clipped to the box. */
export function textAppearance(options: TextAppearanceOptions): Appearance {
  const { width, height } = options;
  const encoded = options.lines.map(encodeText);
  const widest = Math.max(0, ...encoded.map((line) => line.width));
  const lineCount = Math.max(1, encoded.length);
  const wanted = options.fontSize ?? 12;
  const byWidth = widest > 0 ? (width - 2 * PADDING) / widest : wanted;
  const byHeight = (height - 2 * PADDING) / (lineCount * LINE_GAP);
  const size = Math.max(MIN_FONT_SIZE, Math.min(wanted, byWidth, byHeight));
  const ops: string[] = ['q', `0 0 ${num(width)} ${num(height)} re W n`];
  if (options.border) ops.push('0.2 0.2 0.5 RG 0.75 w', `0.375 0.375 ${num(width - 0.75)} ${num(height - 0.75)} re S`);
  ops.push('BT', `/${APPEARANCE_FONT_KEY} ${num(size)} Tf`, '0 g');
  // First baseline one ascent below the top; Helvetica's ascender is 718/1000.
  let y = height - PADDING - size * 0.718;
  for (const line of encoded) {
    ops.push(`1 0 0 1 ${num(PADDING)} ${num(y)} Tm`, `${literalString(line.bytes)} Tj`);
    y -= size * LINE_GAP;
  }
  ops.push('ET', 'Q');
  return {
    content: Buffer.from(ops.join('\n'), 'latin1'),
    bbox: [0, 0, width, height],
    matrix: rotationMatrix(options.rotate, { width, height }),
    usesFont: true,
    unencodable: encoded.flatMap((line) => line.unencodable),
  };
}

/** The widget's /Rect in page user space is the shown box; for the matrix only the size matters. */
export function shownSizeOfRect(rect: readonly [number, number, number, number], rotate: Rotation): { width: number; height: number } {
  const w = Math.abs(rect[2] - rect[0]);
  const h = Math.abs(rect[3] - rect[1]);
  return rotate === 90 || rotate === 270 ? { width: h, height: w } : { width: w, height: h };
}
