import { layoutLine, type LaidOutLine, type LineRun } from './text-layout';
import { pdfGlyphWidth, type UnicodeFace } from './unicode-font';

/**
 * Appearance streams for the widgets a signer's revision adds: what a viewer draws for a filled
 * field or a signature. Values are drawn into widget appearances (annotations), never into page
 * content, so a revision only adds annotations and fills fields: the changes an approval
 * signature allows, which keeps every earlier signature valid in strict validators too.
 *
 * Text WinAnsi can encode uses the standard Helvetica, which every viewer has without embedding
 * anything. Other text (Devanagari and the other Indian scripts, Arabic, Cyrillic, Greek, Latin
 * beyond WinAnsi) is shaped and drawn with embedded Noto Sans faces (text-layout.ts,
 * unicode-font.ts), which seal.ts subsets and embeds once per revision. Each such line is marked
 * with its text as /ActualText, so copying and searching give the characters as typed even where
 * shaping reordered or merged glyphs. Characters no font has are drawn as "?" and reported.
 */

/** The page's /Rotate: an appearance is turned against it so it reads upright as shown. */
export type Rotation = 0 | 90 | 180 | 270;

export const APPEARANCE_FONT = 'Helvetica';
/** The resource name the content streams use for the font. */
export const APPEARANCE_FONT_KEY = 'PaktHelv';

export { encodeText, type EncodedText } from './text-layout';

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
  /** Embedded faces the content draws with (by their resourceKey), and the glyphs it draws. */
  readonly unicodeFonts?: readonly UnicodeFontUse[];
  readonly unencodable: readonly string[];
}

export interface UnicodeFontUse {
  readonly face: UnicodeFace;
  /** Glyph id to the characters it stands for. */
  readonly glyphs: ReadonlyMap<number, string>;
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

/** Helvetica's ascender: the first baseline is this far (times the size) below the top. */
const HELVETICA_ASCENT = 0.718;

/** A line's glyphs from the pen at the line's start, in content stream operators. */
function drawRuns(runs: readonly LineRun[], size: number, current: { font: string | null }): string[] {
  const ops: string[] = [];
  for (const run of runs) {
    if (run.font === 'helvetica') {
      if (current.font !== APPEARANCE_FONT_KEY) ops.push(`/${APPEARANCE_FONT_KEY} ${num(size)} Tf`);
      current.font = APPEARANCE_FONT_KEY;
      ops.push(`${literalString(run.encoded.bytes)} Tj`);
      continue;
    }
    const face = run.font;
    if (current.font !== face.resourceKey) ops.push(`/${face.resourceKey} ${num(size)} Tf`);
    current.font = face.resourceKey;
    // Positions are kept in thousandths of the size (the unit of /W and TJ): where the text
    // position is after what was shown (`shown`) and where the shaper put the pen (`pen`).
    const scale = 1000 / run.unitsPerEm;
    let shown = 0;
    let pen = 0;
    let rise = 0;
    let array: string[] = [];
    const flush = () => {
      if (array.length) ops.push(`[${array.join(' ')}] TJ`);
      array = [];
    };
    const moveTo = (target: number) => {
      if (Math.abs(shown - target) > 0.0005) array.push(num(shown - target));
      shown = target;
    };
    for (const glyph of run.glyphs) {
      const wantedRise = (glyph.yOffset / run.unitsPerEm) * size;
      if (Math.abs(wantedRise - rise) > 0.00005) {
        flush();
        ops.push(`${num(wantedRise)} Ts`);
        rise = wantedRise;
      }
      moveTo((pen + glyph.xOffset) * scale);
      array.push(`<${glyph.id.toString(16).padStart(4, '0')}>`);
      shown += pdfGlyphWidth(face, glyph.id);
      pen += glyph.xAdvance;
    }
    moveTo(pen * scale);
    flush();
    if (rise !== 0) ops.push('0 Ts');
  }
  return ops;
}

/** A PDF hex string of text as UTF-16BE with its byte order mark (a text string, 7.9.2.2). */
function textStringHex(text: string): string {
  return `<FEFF${Buffer.from(text, 'utf16le').swap16().toString('hex').toUpperCase()}>`;
}

/** Text lines in a box, shrunk to fit, clipped to the box. */
export function textAppearance(options: TextAppearanceOptions): Appearance {
  const { width, height } = options;
  const laid: LaidOutLine[] = options.lines.map(layoutLine);
  const widest = Math.max(0, ...laid.map((line) => line.width));
  const lineCount = Math.max(1, laid.length);
  // Embedded glyphs may reach higher than Helvetica's ascender or lower than the space a line
  // leaves below its baseline (matras, conjuncts, Arabic marks): such a line takes more room.
  const extraAbove = laid.map((line) => Math.max(0, line.ascent - HELVETICA_ASCENT));
  const extraBelow = laid.map((line) => Math.max(0, line.descent - (LINE_GAP - HELVETICA_ASCENT)));
  const extra = [...extraAbove, ...extraBelow].reduce((sum, value) => sum + value, 0);
  const wanted = options.fontSize ?? 12;
  const byWidth = widest > 0 ? (width - 2 * PADDING) / widest : wanted;
  const byHeight = (height - 2 * PADDING) / (lineCount * LINE_GAP + extra);
  const size = Math.max(MIN_FONT_SIZE, Math.min(wanted, byWidth, byHeight));
  const usesHelvetica = laid.length === 0 || laid.some((line) => line.runs.some((run) => run.font === 'helvetica'));
  const ops: string[] = ['q', `0 0 ${num(width)} ${num(height)} re W n`];
  if (options.border) ops.push('0.2 0.2 0.5 RG 0.75 w', `0.375 0.375 ${num(width - 0.75)} ${num(height - 0.75)} re S`);
  ops.push('BT');
  const current = { font: null as string | null };
  if (usesHelvetica) {
    ops.push(`/${APPEARANCE_FONT_KEY} ${num(size)} Tf`);
    current.font = APPEARANCE_FONT_KEY;
  }
  ops.push('0 g');
  // First baseline one ascent below the top.
  let y = height - PADDING - size * HELVETICA_ASCENT;
  laid.forEach((line, i) => {
    if (extraAbove[i]) y -= size * extraAbove[i]!;
    // Right-to-left lines start at the right edge.
    const x = line.rtl ? width - PADDING - line.width * size : PADDING;
    const simple = line.runs.length === 1 && line.runs[0]!.font === 'helvetica' && line.text === options.lines[i];
    if (simple) {
      ops.push(`1 0 0 1 ${num(x)} ${num(y)} Tm`, ...drawRuns(line.runs, size, current));
    } else {
      ops.push(`/Span << /ActualText ${textStringHex(line.text)} >> BDC`, `1 0 0 1 ${num(x)} ${num(y)} Tm`, ...drawRuns(line.runs, size, current), 'EMC');
    }
    y -= size * LINE_GAP;
    if (extraBelow[i]) y -= size * extraBelow[i]!;
  });
  ops.push('ET', 'Q');
  const fonts = new Map<UnicodeFace, Map<number, string>>();
  for (const line of laid) {
    for (const [face, glyphs] of line.glyphText) {
      const merged = fonts.get(face) ?? new Map<number, string>();
      for (const [id, text] of glyphs) if (!merged.get(id)) merged.set(id, text);
      fonts.set(face, merged);
    }
  }
  return {
    content: Buffer.from(ops.join('\n'), 'latin1'),
    bbox: [0, 0, width, height],
    matrix: rotationMatrix(options.rotate, { width, height }),
    usesFont: usesHelvetica,
    unicodeFonts: [...fonts].map(([face, glyphs]) => ({ face, glyphs })),
    unencodable: laid.flatMap((line) => line.unencodable),
  };
}

/** The widget's /Rect in page user space is the shown box; for the matrix only the size matters. */
export function shownSizeOfRect(rect: readonly [number, number, number, number], rotate: Rotation): { width: number; height: number } {
  const w = Math.abs(rect[2] - rect[0]);
  const h = Math.abs(rect[3] - rect[1]);
  return rotate === 90 || rotate === 270 ? { width: h, height: w } : { width: w, height: h };
}
