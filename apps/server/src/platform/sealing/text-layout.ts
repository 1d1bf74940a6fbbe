import { Encodings, Font, FontNames } from '@pdf-lib/standard-fonts';
import bidiFactory from 'bidi-js';
import type * as fontkit from 'fontkit';
import { getScript } from 'unicode-properties';
import { faceFor, unicodeFaces, type UnicodeFace } from './unicode-font';

/**
 * One line of text as glyphs to draw: split into runs of one font each, shaped, in the order
 * they are shown (left to right).
 *
 * Text Helvetica/WinAnsi can encode is drawn with it, as always. Other text goes to an embedded
 * Unicode face (unicode-font.ts):
 * 1. the Unicode bidirectional algorithm (bidi-js) gives each character its embedding level;
 *    the line's direction is its first strong character's;
 * 2. the line is cut into runs of one script and one level; punctuation, digits and spaces
 *    (script Common) and combining marks (Inherited) belong to the run before them;
 * 3. a run WinAnsi can encode whole is Helvetica; otherwise each character goes to the face of
 *    the run's first letter if it has it (spaces and marks too, when that face has them), else to another face of the same family, else to
 *    Helvetica if WinAnsi has it, else to the first face that has it; if none has it, it is
 *    drawn as "?" in Helvetica and reported;
 * 4. each face's run is shaped by fontkit (GSUB/GPOS, with its Indic and Arabic shapers):
 *    conjuncts, the pre-base ि moved before its consonant, Arabic joining forms, marks;
 * 5. runs are put in visual order (rule L2), right-to-left ones already reversed by fontkit.
 */

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

export function isWinAnsi(text: string): boolean {
  for (const char of text) if (!winAnsi.canEncodeUnicodeCodePoint(char.codePointAt(0)!)) return false;
  return true;
}

export interface ShapedGlyph {
  readonly id: number;
  /** The pen's move after the glyph, and the glyph's shift from the pen, in font units. */
  readonly xAdvance: number;
  readonly xOffset: number;
  readonly yOffset: number;
}

export type LineRun =
  | { readonly font: 'helvetica'; readonly encoded: EncodedText }
  | {
      readonly font: UnicodeFace;
      readonly glyphs: readonly ShapedGlyph[];
      readonly unitsPerEm: number;
      /** Width at 1 pt font size, in points. */
      readonly width: number;
    };

export interface LaidOutLine {
  readonly text: string;
  /** Left to right as shown. */
  readonly runs: readonly LineRun[];
  /** Width at 1 pt font size, in points. */
  readonly width: number;
  /** How far the embedded glyphs reach above and below the baseline, at 1 pt (0 for Helvetica only). */
  readonly ascent: number;
  readonly descent: number;
  /** Whether the line reads right to left (its first strong character is Arabic, Hebrew...). */
  readonly rtl: boolean;
  /**
   * Each embedded face drawn, with every glyph drawn and the characters it stands for (for
   * /ToUnicode; empty for a glyph that stands for none, such as the dots of a decomposed letter).
   */
  readonly glyphText: ReadonlyMap<UnicodeFace, ReadonlyMap<number, string>>;
  readonly unencodable: readonly string[];
}

let bidi: ReturnType<typeof bidiFactory> | undefined;

/**
 * Arabic harakat in the order fonts stack them: shadda first, then the vowel on top of it. NFC
 * puts fatha, damma and kasra (combining classes 30-32) before shadda (33); HarfBuzz reorders
 * them the same way (its modified combining classes), fontkit does not.
 */
function arabicMarksInFontOrder(text: string): string {
  return text.replace(/[\u064B-\u0652]{2,}/g, (marks) => {
    const shaddas = marks.replace(/[^\u0651]/g, '');
    return shaddas + marks.replace(/\u0651/g, '');
  });
}

const WEAK_SCRIPTS = new Set(['Common', 'Inherited', 'Unknown']);

interface Item {
  readonly font: 'helvetica' | UnicodeFace;
  readonly level: number;
  text: string;
}

/**
 * fontkit's layout, and what to do when it throws: its mark positioning fails on anchors a
 * font leaves empty (Noto Sans Gurmukhi's above-base marks, e.g. "ਸਿੰਘ"), which HarfBuzz skips.
 * Then the mark features that failed are left out, and at worst the text is drawn unshaped.
 */
function shape(font: fontkit.Font, text: string, direction: 'ltr' | 'rtl'): fontkit.GlyphRun {
  const attempts: Array<Record<string, boolean> | undefined> = [undefined, { abvm: false }, { abvm: false, blwm: false, mark: false, mkmk: false }];
  for (const features of attempts) {
    try {
      return font.layout(text, features, undefined, undefined, direction);
    } catch {
      // try with less
    }
  }
  const glyphs = [...text].map((char) => font.glyphForCodePoint(char.codePointAt(0)!));
  if (direction === 'rtl') glyphs.reverse();
  return { glyphs, positions: glyphs.map((glyph) => ({ xAdvance: glyph.advanceWidth, yAdvance: 0, xOffset: 0, yOffset: 0 })), direction };
}

export function layoutLine(line: string): LaidOutLine {
  if (isWinAnsi(line)) {
    const text = line;
    const encoded = encodeText(text);
    return { text, runs: [{ font: 'helvetica', encoded }], width: encoded.width, ascent: 0, descent: 0, rtl: false, glyphText: new Map(), unencodable: [] };
  }
  // Composed where Unicode can: a letter and its accent are then one character of one font.
  const text = line.normalize('NFC');
  const shaped = arabicMarksInFontOrder(text);
  bidi ??= bidiFactory();
  const embedding = bidi.getEmbeddingLevels(shaped);
  const chars: Array<{ char: string; codePoint: number; level: number; script: string; weak: boolean }> = [];
  let index = 0;
  for (const char of shaped) {
    const codePoint = char.codePointAt(0)!;
    const script = getScript(codePoint);
    chars.push({ char, codePoint, level: embedding.levels[index] ?? 0, script, weak: WEAK_SCRIPTS.has(script) });
    index += char.length;
  }
  // Weak characters take the script before them, or after them at the start of the line.
  let last: string | undefined;
  for (const c of chars) last = c.weak ? (c.script = last ?? c.script) : c.script;
  let next: string | undefined;
  for (let i = chars.length - 1; i >= 0; i--) {
    const c = chars[i]!;
    if (!c.weak || !WEAK_SCRIPTS.has(c.script)) next = c.script;
    else if (next) c.script = next;
  }

  const items: Item[] = [];
  const push = (font: Item['font'], level: number, char: string) => {
    const previous = items.at(-1);
    if (previous && previous.font === font && previous.level === level) previous.text += char;
    else items.push({ font, level, text: char });
  };
  const unencodable: string[] = [];
  for (let start = 0; start < chars.length; ) {
    let end = start + 1;
    while (end < chars.length && chars[end]!.script === chars[start]!.script && chars[end]!.level === chars[start]!.level) end++;
    const run = chars.slice(start, end);
    start = end;
    const level = run[0]!.level;
    // Mirrored in right-to-left runs: "(" shows as ")".
    const shown = (c: (typeof run)[number]) => (level % 2 ? (bidi!.getMirroredCharacter(c.char) ?? c.char) : c.char);
    if (run.every((c) => winAnsi.canEncodeUnicodeCodePoint(c.codePoint))) {
      for (const c of run) push('helvetica', level, shown(c));
      continue;
    }
    const firstLetter = run.find((c) => !c.weak) ?? run[0]!;
    const primary = faceFor(firstLetter.codePoint);
    const family = primary ? unicodeFaces().filter((face) => face.family === primary.family) : [];
    for (const c of run) {
      // A space or mark inside the run stays in its face when the face has it, even outside the
      // face's own range (a subset file keeps the space): the shaper then sees the whole run.
      const inPrimary = primary && (primary.covers(c.codePoint) || (c.weak && primary.font.hasGlyphForCodePoint(c.codePoint)));
      const face = inPrimary ? primary : faceFor(c.codePoint, family);
      if (face) push(face, level, shown(c));
      else if (winAnsi.canEncodeUnicodeCodePoint(c.codePoint)) push('helvetica', level, shown(c));
      else {
        const fallback = faceFor(c.codePoint);
        if (fallback) push(fallback, level, shown(c));
        else {
          unencodable.push(c.char);
          push('helvetica', level, '?');
        }
      }
    }
  }

  const glyphText = new Map<UnicodeFace, Map<number, string>>();
  let ascent = 0;
  let descent = 0;
  const placed = items.map((item): { level: number; run: LineRun } => {
    const rtl = item.level % 2 === 1;
    if (item.font === 'helvetica') {
      // Helvetica draws characters in the order given: reversed in a right-to-left run.
      const encoded = encodeText(rtl ? [...item.text].reverse().join('') : item.text);
      return { level: item.level, run: { font: 'helvetica', encoded } };
    }
    const face = item.font;
    const font = face.font;
    const layout = shape(font, item.text, rtl ? 'rtl' : 'ltr');
    const texts = glyphText.get(face) ?? new Map<number, string>();
    glyphText.set(face, texts);
    const glyphs = layout.glyphs.map((glyph, i): ShapedGlyph => {
      const position = layout.positions[i]!;
      // Every glyph drawn is embedded; one the shaper split off or added stands for no character.
      if (!texts.get(glyph.id)) texts.set(glyph.id, String.fromCodePoint(...glyph.codePoints));
      const box = glyph.cbox;
      if (box.maxY > box.minY) {
        ascent = Math.max(ascent, (box.maxY + position.yOffset) / font.unitsPerEm);
        descent = Math.max(descent, -(box.minY + position.yOffset) / font.unitsPerEm);
      }
      return { id: glyph.id, xAdvance: position.xAdvance, xOffset: position.xOffset, yOffset: position.yOffset };
    });
    const width = glyphs.reduce((sum, glyph) => sum + glyph.xAdvance, 0) / font.unitsPerEm;
    return { level: item.level, run: { font: face, glyphs, unitsPerEm: font.unitsPerEm, width } };
  });

  // Rule L2: from the highest level down to the lowest odd one, reverse every stretch of runs at
  // that level or higher.
  const levels = placed.map((item) => item.level);
  const highest = Math.max(0, ...levels);
  const lowestOdd = Math.min(...levels.map((level) => (level % 2 ? level : level + 1)));
  for (let level = highest; level >= lowestOdd; level--) {
    for (let i = 0; i < placed.length; ) {
      if (placed[i]!.level < level) {
        i++;
        continue;
      }
      let j = i;
      while (j < placed.length && placed[j]!.level >= level) j++;
      placed.splice(i, j - i, ...placed.slice(i, j).reverse());
      i = j;
    }
  }
  const runs = placed.map((item) => item.run);
  const width = runs.reduce((sum, run) => sum + (run.font === 'helvetica' ? run.encoded.width : run.width), 0);
  const rtl = (embedding.paragraphs[0]?.level ?? 0) % 2 === 1;
  return { text, runs, width, ascent, descent, rtl, glyphText, unencodable };
}
