import { Encodings, Font, FontNames } from '@pdf-lib/standard-fonts';
import {
  type AnchorKind,
  type AnchorPlacement,
  type AnchorSource,
  clampToPage,
  displayToPage,
  type PageGeometry,
  pageToDisplay,
  type Rect,
  rectsOverlap,
  TAG_TYPES,
  tagDimensions,
  type TagType,
} from '@pakt/domain';
import type { PageText, TextPiece } from './text-protocol';

/**
 * Where tags belong, read from a page's text: anchor strings, configured strings and signature
 * lines (issue 21). Pure: pieces of text and drawn lines in, rectangles in the tag frame out.
 *
 * Frames (see the domain's tags/geometry.ts). pdf.js gives each piece of text in PDF user space.
 * It is taken to the page frame (the tag frame: visible box, unrotated, top-left origin, y down),
 * then to a READING frame: the page frame turned by a quarter turn r (0, 90, 180 or 270), chosen so
 * that the piece's baseline runs left to right with its glyphs upright. For text a person reads
 * upright on screen r is the page's /Rotate, and the reading frame is what the viewer shows; the
 * pages pypdf turned with /Rotate alone show their text sideways, and it is read in its own frame.
 * Lines, labels and "to the right of" live in the reading frame; a rectangle found there goes back
 * to the page frame through the domain's displayToPage, the exact inverse of what the editor draws
 * with (pageToDisplay), so a tag lands where the text is, whatever the page's rotation or crop box.
 *
 * pdf.js gives one position and advance per piece, not per character: where a match starts inside
 * a piece is estimated from Helvetica's widths (other scripts at an average width), spread over the
 * piece's true advance. Exact for Helvetica, within a character or so for other fonts.
 */

export type Quarter = PageGeometry['rotate'];
const QUARTERS: readonly Quarter[] = [0, 90, 180, 270];

interface Point {
  readonly x: number;
  readonly y: number;
}

/** What a rectangle found on a page is for. */
export interface Found {
  readonly pageNumber: number;
  /** The tag's rectangle in the page frame, inside the page. */
  readonly rect: Rect;
  /** The matched text (or line), page frame. */
  readonly anchorBox: Rect;
  readonly type: TagType;
  readonly source: AnchorSource;
  readonly kind: AnchorKind;
  readonly confidence: number;
  readonly text: string;
  readonly signerSlot: number | null;
}

/** A configured string, as the request gives it (ConfiguredAnchor with defaults applied). */
export interface ConfiguredString {
  readonly text: string;
  readonly type: TagType;
  readonly signer?: number | undefined;
  readonly placement: AnchorPlacement;
  readonly offsetX: number;
  readonly offsetY: number;
}

export interface AnchorFindings {
  readonly found: Found[];
  /** Anchor strings naming no tag type, each once. */
  readonly unrecognised: string[];
  /** Occurrences of each configured string, in the order given. */
  readonly configuredCounts: number[];
}

// ---------------------------------------------------------------------------------------------
// Geometry

/** User space → page frame, for a point. */
export function userToPageFrame(x: number, y: number, page: Pick<PageGeometry, 'x' | 'y' | 'height'>): Point {
  return { x: x - page.x, y: page.y + page.height - y };
}

/** Page frame → a frame turned by `rotate` (zoom 1): pageToDisplay for a point. */
export function pageFrameToTurned(point: Point, page: Pick<PageGeometry, 'width' | 'height'>, rotate: Quarter): Point {
  const { width: W, height: H } = page;
  switch (rotate) {
    case 0:
      return point;
    case 90:
      return { x: H - point.y, y: point.x };
    case 180:
      return { x: W - point.x, y: H - point.y };
    case 270:
      return { x: point.y, y: W - point.x };
  }
}

/** A direction in the page frame, as the frame turned by `rotate` sees it. */
function turnVector(v: Point, rotate: Quarter): Point {
  switch (rotate) {
    case 0:
      return v;
    case 90:
      return { x: -v.y, y: v.x };
    case 180:
      return { x: -v.x, y: -v.y };
    case 270:
      return { x: v.y, y: -v.x };
  }
}

const isQuarterTurn = (rotate: Quarter) => rotate === 90 || rotate === 270;

/**
 * A tag type's default size and limits in a reading frame: they are meant as the page SHOWS the tag
 * (its /Rotate), so in a frame turned a quarter from that, width and height swap.
 */
export function readingDimensions(type: TagType, pageRotate: Quarter, reading: Quarter) {
  const dims = tagDimensions(type);
  const swap = isQuarterTurn(pageRotate) !== isQuarterTurn(reading);
  return swap
    ? { width: dims.height, height: dims.width, minWidth: dims.min.height, maxWidth: dims.max.height }
    : { width: dims.width, height: dims.height, minWidth: dims.min.width, maxWidth: dims.max.width };
}

// ---------------------------------------------------------------------------------------------
// Character widths

const helvetica = Font.load(FontNames.Helvetica);
const winAnsi = Encodings.WinAnsi;
const widthCache = new Map<number, number>();

/** A UTF-16 unit's estimated advance, in thousandths of the font size. */
function unitWidth(code: number): number {
  let width = widthCache.get(code);
  if (width !== undefined) return width;
  if (code >= 0xdc00 && code <= 0xdfff) width = 0; // the second half of a surrogate pair
  else if (code < 0x20) width = 0;
  else if (/\p{M}/u.test(String.fromCharCode(code))) width = 150;
  else if (winAnsi.canEncodeUnicodeCodePoint(code)) width = helvetica.getWidthOfGlyph(winAnsi.encodeUnicodeCodePoint(code).name) ?? 556;
  else width = 556;
  widthCache.set(code, width);
  return width;
}

/** Where each UTF-16 boundary of `text` falls, as a fraction of its whole advance (length + 1 values). */
export function characterOffsets(text: string): number[] {
  const cumulative = [0];
  for (let i = 0; i < text.length; i++) cumulative.push(cumulative[i]! + unitWidth(text.charCodeAt(i)));
  const total = cumulative[text.length]!;
  return total > 0 ? cumulative.map((value) => value / total) : cumulative.map((_, i) => (text.length === 0 ? 0 : i / text.length));
}

// ---------------------------------------------------------------------------------------------
// Pieces and lines

/** Above and below the baseline, as fractions of the font size: about Helvetica's. */
const ASCENT = 0.78;
const DESCENT = 0.22;

/** A piece of text in the page frame. */
interface Piece {
  readonly str: string;
  readonly origin: Point;
  /** Unit vectors along the baseline and toward the top of the glyphs. */
  readonly along: Point;
  readonly up: Point;
  readonly advance: number;
  readonly size: number;
}

function pieceOf(raw: TextPiece, page: PageGeometry): Piece | null {
  const [str, a, b, c, d, e, f, width, height] = raw;
  const alongLength = Math.hypot(a, b);
  if (alongLength === 0 || width <= 0) return null;
  const upLength = Math.hypot(c, d);
  // User space has y up; the page frame y down.
  const along = { x: a / alongLength, y: -b / alongLength };
  const up = upLength > 0 ? { x: c / upLength, y: -d / upLength } : { x: along.y, y: -along.x };
  const size = height > 0 ? height : upLength;
  if (!(size > 0)) return null;
  return { str, origin: userToPageFrame(e, f, page), along, up, advance: width, size };
}

/** A piece in the reading frame where it runs left to right, upright. */
interface Placed {
  readonly str: string;
  readonly x0: number;
  readonly x1: number;
  readonly baseline: number;
  readonly top: number;
  readonly bottom: number;
  readonly size: number;
  readonly offsets: number[];
}

/** Cosine of the largest slant still read as level: about 8 degrees, for skewed scans' text layers. */
const LEVEL = Math.cos((8 * Math.PI) / 180);

function placeIn(piece: Piece, page: PageGeometry, reading: Quarter): Placed | null {
  const along = turnVector(piece.along, reading);
  const up = turnVector(piece.up, reading);
  if (along.x < LEVEL || -up.y < LEVEL) return null;
  const origin = pageFrameToTurned(piece.origin, page, reading);
  return {
    str: piece.str,
    x0: origin.x,
    x1: origin.x + piece.advance * along.x,
    baseline: origin.y,
    top: origin.y - ASCENT * piece.size,
    bottom: origin.y + DESCENT * piece.size,
    size: piece.size,
    offsets: characterOffsets(piece.str),
  };
}

/** One character of a line; gaps between pieces are characters of no piece. */
interface LineChar {
  readonly x0: number;
  readonly x1: number;
  readonly piece: Placed | null;
}

/** A line of text in a reading frame: its text and where each of its UTF-16 units is. */
export interface Line {
  readonly text: string;
  readonly chars: readonly LineChar[];
  readonly baseline: number;
  readonly size: number;
}

/** A gap wider than this many font sizes separates columns: it reads as U+2003 in the line's text. */
const COLUMN_GAP = 1.5;
/** A gap wider than this many font sizes reads as a space. */
const WORD_GAP = 0.15;
const COLUMN = '\u2003';

function buildLines(placed: Placed[]): Line[] {
  const sorted = [...placed].sort((p, q) => p.baseline - q.baseline || p.x0 - q.x0);
  const groups: Placed[][] = [];
  for (const piece of sorted) {
    const group = groups.at(-1);
    const reference = group?.[0];
    if (group && reference && Math.abs(piece.baseline - reference.baseline) <= 0.35 * Math.min(piece.size, reference.size)) group.push(piece);
    else groups.push([piece]);
  }
  return groups.map((group) => {
    group.sort((p, q) => p.x0 - q.x0);
    const size = Math.max(...group.map((piece) => piece.size));
    let text = '';
    const chars: LineChar[] = [];
    let previous: Placed | undefined;
    for (const piece of group) {
      // Text drawn twice a hair apart (poor man's bold) would read twice.
      if (previous && piece.str === previous.str && Math.abs(piece.x0 - previous.x0) < 0.5 * piece.size) continue;
      if (previous) {
        const gap = piece.x0 - previous.x1;
        if (gap > COLUMN_GAP * size) {
          text += COLUMN;
          chars.push({ x0: previous.x1, x1: piece.x0, piece: null });
        } else if (gap > WORD_GAP * size && !/\s$/.test(previous.str) && !/^\s/.test(piece.str)) {
          text += ' ';
          chars.push({ x0: previous.x1, x1: piece.x0, piece: null });
        }
      }
      const span = piece.x1 - piece.x0;
      for (let i = 0; i < piece.str.length; i++) {
        chars.push({ x0: piece.x0 + span * piece.offsets[i]!, x1: piece.x0 + span * piece.offsets[i + 1]!, piece });
      }
      text += piece.str;
      previous = piece;
    }
    return { text, chars, baseline: group[0]!.baseline, size };
  });
}

/** The reading-frame box of the characters [start, end) of a line, with the baseline of their text. */
function spanBox(line: Line, start: number, end: number): (Rect & { baseline: number }) | null {
  const own = line.chars.slice(start, end).filter((char) => char.piece !== null);
  if (own.length === 0) return null;
  const x0 = own[0]!.x0;
  const x1 = own.at(-1)!.x1;
  const top = Math.min(...own.map((char) => char.piece!.top));
  const bottom = Math.max(...own.map((char) => char.piece!.bottom));
  const baseline = Math.max(...own.map((char) => char.piece!.baseline));
  return { x: x0, y: top, width: Math.max(0, x1 - x0), height: bottom - top, baseline };
}

/** The text of one page in each reading frame that has any. */
export interface PageLines {
  readonly reading: Quarter;
  readonly lines: Line[];
}

export function pageLines(text: PageText, page: PageGeometry): PageLines[] {
  const pieces = text.items.map((raw) => pieceOf(raw, page)).filter((piece): piece is Piece => piece !== null);
  const out: PageLines[] = [];
  for (const reading of QUARTERS) {
    const placed = pieces.map((piece) => placeIn(piece, page, reading)).filter((piece): piece is Placed => piece !== null);
    if (placed.length > 0) out.push({ reading, lines: buildLines(placed) });
  }
  return out;
}

/** A rectangle of a reading frame, back in the page frame. */
function toPageFrame(rect: Rect, page: PageGeometry, reading: Quarter): Rect {
  return displayToPage(rect, { width: page.width, height: page.height, rotate: reading }, 1);
}

// ---------------------------------------------------------------------------------------------
// Anchors and configured strings

const ANCHOR = /\{\{\s*([A-Za-z]+)\s*(?::\s*signer\s*(\d{1,4}))?\s*\}\}/gi;
const ALIASES: Readonly<Record<string, TagType>> = { sign: 'signature', date: 'calendar', initials: 'userInitial', initial: 'userInitial', name: 'username' };
const TYPES_BY_NAME = new Map<string, TagType>([...TAG_TYPES.map((type) => [type.toLowerCase(), type] as const), ...Object.entries(ALIASES)]);

/** The tag type an anchor's name stands for (any case, or an alias), or null. */
export function anchorType(name: string): TagType | null {
  return TYPES_BY_NAME.get(name.toLowerCase()) ?? null;
}

const SIGNATURE_TYPES: readonly TagType[] = ['signature', 'signatureText', 'userInitial'];
const DATE_TYPES: readonly TagType[] = ['calendar', 'timeStamp'];
export const kindOf = (type: TagType): AnchorKind => (SIGNATURE_TYPES.includes(type) ? 'signature' : DATE_TYPES.includes(type) ? 'date' : 'field');

/** A configured string as a pattern: its words, any white space between them, any case. */
export function configuredPattern(text: string): RegExp {
  const words = text.trim().split(/\s+/).map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(words.join('\\s+'), 'giu');
}

/** The tag's reading-frame rectangle for matched text at `box`, placed as asked. */
function placeAt(box: Rect, size: { width: number; height: number }, placement: AnchorPlacement, lineSize: number): Rect {
  switch (placement) {
    case 'over':
      return { x: box.x, y: box.y, ...size };
    case 'below':
      return { x: box.x, y: box.y + box.height + 0.2 * lineSize, ...size };
    case 'right':
      return { x: box.x + box.width + 0.3 * lineSize, y: box.y + box.height / 2 - size.height / 2, ...size };
  }
}

function found(options: {
  page: PageGeometry;
  pageNumber: number;
  reading: Quarter;
  rect: Rect;
  anchor: Rect;
  type: TagType;
  source: AnchorSource;
  confidence: number;
  text: string;
  signerSlot: number | null;
}): Found {
  const { page, reading } = options;
  return {
    pageNumber: options.pageNumber,
    rect: clampToPage(toPageFrame(options.rect, page, reading), page),
    anchorBox: toPageFrame(options.anchor, page, reading),
    type: options.type,
    source: options.source,
    kind: kindOf(options.type),
    confidence: Math.round(Math.min(1, Math.max(0, options.confidence)) * 100) / 100,
    text: options.text.slice(0, 200),
    signerSlot: options.signerSlot,
  };
}

/** Anchor strings (`{{type:signerN}}`) and configured strings on one page. */
export function findAnchorsOnPage(
  lines: readonly PageLines[],
  page: PageGeometry,
  pageNumber: number,
  configured: readonly ConfiguredString[],
): AnchorFindings {
  const out: Found[] = [];
  const unrecognised = new Set<string>();
  const configuredCounts = configured.map(() => 0);
  const patterns = configured.map((entry) => configuredPattern(entry.text));
  for (const { reading, lines: frameLines } of lines) {
    for (const line of frameLines) {
      for (const match of line.text.matchAll(ANCHOR)) {
        const box = spanBox(line, match.index, match.index + match[0].length);
        if (!box) continue;
        const type = anchorType(match[1]!);
        if (!type) {
          unrecognised.add(match[0].replace(/\s+/g, ''));
          continue;
        }
        const dims = readingDimensions(type, page.rotate, reading);
        out.push(
          found({
            page,
            pageNumber,
            reading,
            rect: placeAt(box, dims, 'over', line.size),
            anchor: box,
            type,
            source: 'anchor',
            confidence: 1,
            text: match[0],
            signerSlot: match[2] ? Number(match[2]) || null : null,
          }),
        );
      }
      patterns.forEach((pattern, index) => {
        const entry = configured[index]!;
        for (const match of line.text.matchAll(pattern)) {
          const box = spanBox(line, match.index, match.index + match[0].length);
          if (!box) continue;
          const dims = readingDimensions(entry.type, page.rotate, reading);
          const placed = placeAt(box, dims, entry.placement, line.size);
          configuredCounts[index]! += 1;
          out.push(
            found({
              page,
              pageNumber,
              reading,
              rect: { ...placed, x: placed.x + entry.offsetX, y: placed.y + entry.offsetY },
              anchor: box,
              type: entry.type,
              source: 'configured',
              confidence: 1,
              text: match[0],
              signerSlot: entry.signer ?? null,
            }),
          );
        }
      });
    }
  }
  return { found: out, unrecognised: [...unrecognised], configuredCounts };
}

// ---------------------------------------------------------------------------------------------
// Signature lines

/** Junk some PDFs put between the letters of shaped Devanagari: spaces, control and zero-width characters. */
const J = '[\\s\\u0000-\\u001f\\u200b-\\u200d]*';
/** Not preceded by a letter (JavaScript's \b knows only ASCII). */
const START = '(?<![\\p{L}\\p{M}\\p{N}])';
const END = '(?![\\p{L}\\p{M}\\p{N}])';
/**
 * Letters with junk allowed between them; a letter written `x?` may be missing. Each optional
 * letter carries its own junk, so no two junk runs meet: a long run of spaces cannot make the
 * pattern backtrack without end.
 */
const dev = (...parts: string[]) =>
  parts.reduce((pattern, part, at) => {
    const letter = part.endsWith('?') ? part.slice(0, -1) : part;
    const last = at === parts.length - 1;
    if (part.endsWith('?')) return `${pattern}(?:${letter}${last ? '' : J})?`;
    return `${pattern}${letter}${last ? '' : J}`;
  }, '');

/** Labels, each with the kind of tag the line beside it takes. */
const LABELS: readonly { kind: 'signature' | 'date'; pattern: RegExp }[] = [
  { kind: 'signature', pattern: new RegExp(`${START}sign(?:ature|atory|ed)?(?:\\(s\\))?${END}`, 'giu') },
  // हस्ताक्षर (signature) and हस्ताक्षरकर्ता (signatory): the virama is sometimes lost in extraction.
  { kind: 'signature', pattern: new RegExp(`${START}${dev('ह', 'स', '्?', 'त', 'ा', 'क', '्?', 'ष', 'र')}`, 'gu') },
  { kind: 'date', pattern: new RegExp(`${START}dated?${END}`, 'giu') },
  // दिनांक, तिथि and तारीख (date); the i-matra is often extracted before its consonant (visual order).
  { kind: 'date', pattern: new RegExp(`${START}(?:ि${J}द|द${J}ि)${J}${dev('न', 'ा', 'ं?', 'क')}`, 'gu') },
  { kind: 'date', pattern: new RegExp(`${START}(?:ि${J}त|त${J}ि)${J}(?:ि${J}थ|थ${J}ि)${END}`, 'gu') },
  { kind: 'date', pattern: new RegExp(`${START}${dev('त', 'ा', 'र', 'ी', 'ख')}${END}`, 'gu') },
];

/**
 * A label as a person reads it: without the junk between letters, and with an i-matra that was
 * extracted before its consonant (visual order, "िदनांक") put back after it (दिनांक).
 */
export function labelText(raw: string): string {
  // eslint-disable-next-line no-control-regex -- the junk is control characters
  return raw.replace(/[\u0000-\u001f\u200b-\u200d]/g, '').replace(/\u093f\s*([\u0915-\u0939\u0958-\u095f])/g, '$1\u093f');
}

/** Underscores, dots or ellipses to write on. */
const WRITING_RUN = /_{4,}|\.{8,}|…{3,}/g;

/** A label's text segment is this short at most, or it is prose that happens to mention signing. */
const LABEL_SEGMENT_MAX = 40;
/** At most this many words before a label in its segment. */
const WORDS_BEFORE_LABEL = 2;

interface Label {
  readonly kind: 'signature' | 'date';
  readonly start: number;
  readonly end: number;
  readonly box: Rect;
  readonly text: string;
  /** The label is followed by a colon. */
  readonly colon: boolean;
}

interface WritingLine {
  /** Reading frame: where one writes, and the y of the line itself. */
  readonly x0: number;
  readonly x1: number;
  readonly y: number;
  readonly size: number;
  readonly box: Rect;
  /** On which text line (index) and where in it, for text runs; null for drawn lines. */
  readonly line: number | null;
  readonly start: number;
  readonly end: number;
  readonly drawn: boolean;
}

/** The segments of a line: spans between column gaps and writing runs, [start, end). */
function segmentsOf(line: Line, runs: readonly { start: number; end: number }[]): { start: number; end: number }[] {
  const cuts: { start: number; end: number }[] = [...runs];
  for (let i = 0; i < line.text.length; i++) if (line.text[i] === COLUMN) cuts.push({ start: i, end: i + 1 });
  cuts.sort((a, b) => a.start - b.start);
  const segments: { start: number; end: number }[] = [];
  let at = 0;
  for (const cut of cuts) {
    if (cut.start > at) segments.push({ start: at, end: cut.start });
    at = Math.max(at, cut.end);
  }
  if (at < line.text.length) segments.push({ start: at, end: line.text.length });
  return segments;
}

function labelsOf(line: Line, segments: readonly { start: number; end: number }[]): Label[] {
  const labels: Label[] = [];
  for (const { kind, pattern } of LABELS) {
    for (const match of line.text.matchAll(pattern)) {
      const start = match.index;
      const end = start + match[0].length;
      const segment = segments.find((candidate) => candidate.start <= start && end <= candidate.end);
      if (!segment || line.text.slice(segment.start, segment.end).trim().length > LABEL_SEGMENT_MAX) continue;
      // "Signature", "Buyer's signature", "Authorised Signatory": a label starts its segment, or nearly.
      if (wordCount(line.text.slice(segment.start, start)) > WORDS_BEFORE_LABEL) continue;
      const box = spanBox(line, start, end);
      if (!box) continue;
      labels.push({ kind, start, end, box, text: labelText(match[0]), colon: /^\s*[:：]/.test(line.text.slice(end, segment.end)) });
    }
  }
  return labels.sort((a, b) => a.start - b.start);
}

/** Whether the line's text between two of its positions holds nothing but spaces, column gaps and a colon. */
function blankBetween(line: Line, start: number, end: number): boolean {
  return /^[\s:：\-–—]*$/u.test(line.text.slice(start, end));
}

/** Signature and date lines on one page. */
export function findSignatureLinesOnPage(lines: readonly PageLines[], page: PageGeometry, pageNumber: number, rules: PageText['rules']): Found[] {
  const out: Found[] = [];
  for (const { reading, lines: frameLines } of lines) {
    const labels: Label[][] = [];
    const writing: WritingLine[] = [];
    frameLines.forEach((line, index) => {
      const runs = [...line.text.matchAll(WRITING_RUN)].map((match) => ({ start: match.index, end: match.index + match[0].length }));
      labels.push(labelsOf(line, segmentsOf(line, runs)));
      for (const run of runs) {
        const box = spanBox(line, run.start, run.end);
        if (box && box.width > 0) writing.push({ x0: box.x, x1: box.x + box.width, y: box.baseline, size: line.size, box, line: index, start: run.start, end: run.end, drawn: false });
      }
    });
    writing.push(...drawnLines(rules, frameLines, writing, page, reading));

    const used = new Set<Label>();
    const matched = new Map<WritingLine, { label: Label; confidence: number }>();
    const take = (run: WritingLine, choice: { label: Label; confidence: number } | null) => {
      if (!choice || matched.has(run)) return;
      matched.set(run, choice);
      used.add(choice.label);
    };
    // Nearest first: a label on the line's own text line, then one under it, then one over it.
    for (const run of writing) take(run, sameLineLabel(run, frameLines, labels, writing));
    for (const run of writing) if (!matched.has(run)) take(run, nearbyLabel(run, frameLines, labels, used, writing, 'below'));
    for (const run of writing) if (!matched.has(run)) take(run, nearbyLabel(run, frameLines, labels, used, writing, 'above'));

    for (const [run, { label, confidence: base }] of matched) {
      const type: TagType = label.kind === 'signature' ? 'signature' : 'calendar';
      const dims = readingDimensions(type, page.rotate, reading);
      const width = Math.min(Math.max(run.x1 - run.x0, dims.minWidth), dims.maxWidth);
      let confidence = base;
      if (run.drawn) confidence -= 0.05;
      if (run.x1 - run.x0 > 350) confidence -= 0.15;
      out.push(
        found({
          page,
          pageNumber,
          reading,
          // Standing on the line, as wide as it (within the type's limits).
          rect: { x: run.x0, y: run.y - dims.height, width, height: dims.height },
          anchor: run.box,
          type,
          source: 'signatureLine',
          confidence,
          text: label.text,
          signerSlot: null,
        }),
      );
    }

    // A label with a colon and nothing after it on its line: the tag goes after the colon.
    frameLines.forEach((line, index) => {
      for (const label of labels[index]!) {
        if (used.has(label)) continue;
        const colon = /^\s*[:：]\s*$/.exec(line.text.slice(label.end));
        if (!colon) continue;
        const box = spanBox(line, label.start, label.end + colon[0].trimEnd().length) ?? label.box;
        const type: TagType = label.kind === 'signature' ? 'signature' : 'calendar';
        const dims = readingDimensions(type, page.rotate, reading);
        out.push(
          found({
            page,
            pageNumber,
            reading,
            rect: placeAt(box, dims, 'right', line.size),
            anchor: box,
            type,
            source: 'signatureLine',
            confidence: 0.5,
            text: label.text,
            signerSlot: null,
          }),
        );
      }
    });
  }
  // One suggestion per place: the surest where two overlap.
  const kept: Found[] = [];
  for (const candidate of [...out].sort((a, b) => b.confidence - a.confidence)) {
    if (!kept.some((other) => rectsOverlap(other.rect, candidate.rect))) kept.push(candidate);
  }
  return kept;
}

/**
 * Drawn lines that run left to right in this reading frame, as writing lines; not those that
 * underline text, nor those that double a run of underscores.
 */
function drawnLines(rules: PageText['rules'], lines: readonly Line[], runs: readonly WritingLine[], page: PageGeometry, reading: Quarter): WritingLine[] {
  const sizes = lines.map((line) => line.size).sort((a, b) => a - b);
  const typical = sizes[Math.floor(sizes.length / 2)] ?? 12;
  const out: WritingLine[] = [];
  for (const rule of rules) {
    const [a, b] = [userToPageFrame(rule[0], rule[1], page), userToPageFrame(rule[2], rule[3], page)].map((point) => pageFrameToTurned(point, page, reading)) as [Point, Point];
    const x0 = Math.min(a.x, b.x);
    const x1 = Math.max(a.x, b.x);
    const y0 = Math.min(a.y, b.y);
    const y1 = Math.max(a.y, b.y);
    if (y1 - y0 > 3 || x1 - x0 < 24) continue;
    const doubles = runs.some((run) => Math.abs(run.y - y0) < run.size && Math.min(run.x1, x1) - Math.max(run.x0, x0) > 0.5 * (x1 - x0));
    const underlines = lines.some((line) => {
      if (y0 < line.baseline - 1 || y0 > line.baseline + 0.5 * line.size) return false;
      let covered = 0;
      line.chars.forEach((char, i) => {
        if (char.piece !== null && !/[\s_.…]/.test(line.text[i] ?? '') && char.x1 > x0 && char.x0 < x1) covered += Math.min(char.x1, x1) - Math.max(char.x0, x0);
      });
      return covered > 0.4 * (x1 - x0);
    });
    if (!doubles && !underlines) out.push({ x0, x1, y: y0, size: typical, box: { x: x0, y: y0, width: x1 - x0, height: y1 - y0 }, line: null, start: 0, end: 0, drawn: true });
  }
  return out;
}

/** At most this many words between a label and its line on the same text line ("Signature of the Buyer ____"). */
const WORDS_AFTER_LABEL = 4;
const wordCount = (text: string) => text.split(/[\s\u2003]+/).filter((word) => /[\p{L}\p{N}]/u.test(word)).length;

/** The label just before a writing line on its own text line, with no other writing line between. */
function sameLineLabel(run: WritingLine, lines: readonly Line[], labels: readonly Label[][], writing: readonly WritingLine[]): { label: Label; confidence: number } | null {
  const candidates: { line: Line; index: number; before: number }[] = [];
  if (run.line !== null) {
    candidates.push({ line: lines[run.line]!, index: run.line, before: run.start });
  } else {
    // A drawn line sits on, or a little under, the baseline of the text beside it.
    lines.forEach((line, index) => {
      if (run.y < line.baseline - 0.8 * line.size || run.y > line.baseline + 0.6 * line.size) return;
      const before = line.chars.findIndex((char) => char.x0 >= run.x0 - 1);
      candidates.push({ line, index, before: before < 0 ? line.text.length : before });
    });
  }
  for (const { line, index, before } of candidates) {
    const label = labels[index]!.filter((candidate) => candidate.end <= before).at(-1);
    if (!label) continue;
    const between = line.text.slice(label.end, before);
    const otherRun = writing.some((other) => other !== run && other.line === index && other.start >= label.end && other.end <= before);
    if (otherRun || wordCount(between) > WORDS_AFTER_LABEL || /[.;!?]\s/.test(between)) continue;
    if (run.x0 - (label.box.x + label.box.width) > 20 * line.size) continue;
    return { label, confidence: (blankBetween(line, label.end, before) ? 0.9 : 0.8) + (label.colon ? 0.05 : 0) };
  }
  return null;
}

/**
 * A label on the text line just under (or over) a writing line, starting within its span, that
 * no other writing line has taken; over it, only a label with no writing line after it on its own
 * line ("Signature" heading the space below).
 */
function nearbyLabel(
  run: WritingLine,
  lines: readonly Line[],
  labels: readonly Label[][],
  used: ReadonlySet<Label>,
  writing: readonly WritingLine[],
  where: 'below' | 'above',
): { label: Label; confidence: number } | null {
  let best: { label: Label; distance: number } | undefined;
  lines.forEach((line, index) => {
    const distance = where === 'below' ? line.baseline - run.y : run.y - line.baseline;
    const reach = (where === 'below' ? 3 : 2.5) * line.size;
    if (distance <= 0.3 * line.size || distance > reach) return;
    for (const label of labels[index]!) {
      if (used.has(label) || label.box.x < run.x0 - 2 * line.size || label.box.x > run.x1) continue;
      if (where === 'above' && writing.some((other) => other.line === index && other.start >= label.end)) continue;
      if (!best || distance < best.distance) best = { label, distance };
    }
  });
  return best ? { label: best.label, confidence: where === 'below' ? 0.8 : 0.7 } : null;
}

/** Found rectangles in reading order as the page shows them: top to bottom, then left to right. */
export function inShownOrder(found: readonly Found[], pages: readonly PageGeometry[]): Found[] {
  const key = (item: Found) => {
    const page = pages[item.pageNumber - 1];
    return page ? pageToDisplay(item.rect, page, 1) : item.rect;
  };
  return [...found].sort((a, b) => {
    if (a.pageNumber !== b.pageNumber) return a.pageNumber - b.pageNumber;
    const ka = key(a);
    const kb = key(b);
    return Math.abs(ka.y - kb.y) > 2 ? ka.y - kb.y : ka.x - kb.x;
  });
}
