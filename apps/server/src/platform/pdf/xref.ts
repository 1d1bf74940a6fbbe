import { PdfStructureError } from './errors';
import { decodeStreamData } from './filters';
import { parseIndirectObjectAt, PdfLexer, type PdfDict, type PdfValue } from './objects';

/*
 * The cross-reference chain (ISO 32000-2 §7.5.4–7.5.8): from the last `startxref` back through
 * every /Prev, reading classic tables, cross-reference streams and hybrid files (a table whose
 * trailer points with /XRefStm at a stream holding the compressed objects).
 *
 * Only the chain is read, never the body: the cost is one pass over the xref sections, however big
 * the file. A chain that does not hold together is refused with a PdfStructureError instead of
 * being rebuilt by scanning the file for `obj` keywords. That is deliberate: a reconstructed
 * xref is a guess, another reader may guess differently, and a signature must cover the document
 * every reader sees. Recovery, if we ever want it, belongs in a separate, explicit repair step.
 *
 * The one tolerance is leading junk: some files carry bytes before `%PDF-` (a print workflow's
 * header, a mail gateway's prefix) and their offsets count from the header rather than from the
 * start of the file. That is not a guess: one constant shift must make `startxref` land on a
 * cross-reference section, and it is reported as `baseOffset` so the writer can keep it.
 */

/** Where an object lives. Offsets are as written in the file; add `baseOffset` to index the buffer. */
export type XrefEntry =
  | { type: 'n'; offset: number; gen: number }
  | { type: 'c'; streamNum: number; index: number }
  | { type: 'f'; gen: number };

export type XrefKind = 'table' | 'stream';

export interface XrefSection {
  /** The section's offset as written (in `startxref` or /Prev). */
  offset: number;
  kind: XrefKind;
  /** Hybrid files: the /XRefStm offset this table's trailer points at. */
  xrefStm?: number;
  /** The section's own trailer (for a stream section, the stream's dictionary). */
  trailer: PdfDict;
}

export interface XrefInfo {
  /** The offset after the file's last `startxref`, as written: the next update's /Prev. */
  startxref: number;
  /** The kind of the newest section, which an incremental update must continue. */
  kind: XrefKind;
  /** The trailers merged, newest first wins, without the per-section keys (/Prev, /W, …). */
  trailer: PdfDict;
  /** The newest entry of every object number the chain mentions. */
  entries: Map<number, XrefEntry>;
  /** Trailer /Size (or, when a broken writer left it out, one more than the highest number). */
  size: number;
  /** Bytes to add to every offset in the file to index the buffer (leading junk), usually 0. */
  baseOffset: number;
  /** Every section, newest first. */
  sections: XrefSection[];
}

/** How far back from the end `startxref` is searched for (the standard says 1024 bytes; junk appended after %%EOF happens). */
const STARTXREF_WINDOW = 64 * 1024;
const HEADER_WINDOW = 1024;
/** No real file has anywhere near this many updates; a longer chain is a loop in disguise. */
const MAX_SECTIONS = 10_000;
/** Keys describing one section, not the document: they do not belong in the merged trailer. */
const SECTION_KEYS = new Set(['Prev', 'XRefStm', 'Type', 'W', 'Index', 'Length', 'Filter', 'DecodeParms', 'DL', 'F', 'FFilter', 'FDecodeParms']);

/** The offset written after the last `startxref` near the end of the file. */
export function findStartxref(buf: Buffer): number {
  const from = Math.max(0, buf.length - STARTXREF_WINDOW);
  const at = buf.subarray(from).lastIndexOf('startxref');
  if (at < 0) throw new PdfStructureError('no "startxref" near the end of the file: it is not a PDF, or it was cut short');
  const lexer = new PdfLexer(buf, from + at + 'startxref'.length);
  lexer.skipSpace();
  const token = lexer.readRegular();
  if (!/^\d+$/.test(token)) throw new PdfStructureError(`"startxref" at offset ${from + at} is not followed by an offset`);
  return Number(token);
}

/** Reads the whole cross-reference chain. Throws PdfStructureError when it does not hold together. */
export function readXref(buf: Buffer): XrefInfo {
  const header = buf.subarray(0, HEADER_WINDOW).indexOf('%PDF-');
  if (header < 0) throw new PdfStructureError('no "%PDF-" header in the first 1024 bytes: not a PDF');
  const startxref = findStartxref(buf);
  const baseOffset = [0, header].find((base) => sectionKindAt(buf, startxref + base) !== undefined);
  if (baseOffset === undefined) {
    throw new PdfStructureError(`startxref points to offset ${startxref}, where there is no cross-reference section (the file is damaged)`);
  }

  const entries = new Map<number, XrefEntry>();
  const trailer = new Map<string, PdfValue>();
  const sections: XrefSection[] = [];
  const visited = new Set<number>();
  let next: number | undefined = startxref;
  while (next !== undefined) {
    if (visited.has(next)) throw new PdfStructureError(`the cross-reference chain loops back to offset ${next}`);
    if (sections.length >= MAX_SECTIONS) throw new PdfStructureError(`more than ${MAX_SECTIONS} cross-reference sections`);
    visited.add(next);
    const section = readSection(buf, next, baseOffset);
    sections.push(section.info);
    // Sections are read newest first, so anything already known is newer and wins.
    for (const [num, entry] of section.entries) if (!entries.has(num)) entries.set(num, entry);
    for (const [key, value] of section.info.trailer.entries) if (!SECTION_KEYS.has(key) && !trailer.has(key)) trailer.set(key, value);
    const prev = section.info.trailer.entries.get('Prev');
    if (prev === undefined) next = undefined;
    else if (prev.kind === 'number' && Number.isInteger(prev.value) && prev.value >= 0) next = prev.value;
    else throw new PdfStructureError(`the trailer of the section at offset ${section.info.offset} has an invalid /Prev`);
  }

  const sizeValue = trailer.get('Size');
  let size: number;
  if (sizeValue?.kind === 'number' && Number.isInteger(sizeValue.value) && sizeValue.value >= 0) size = sizeValue.value;
  else {
    size = 1;
    for (const num of entries.keys()) size = Math.max(size, num + 1);
  }
  return { startxref, kind: sections[0]!.kind, trailer: { kind: 'dict', entries: trailer }, entries, size, baseOffset, sections };
}

/** What starts at `pos` (after whitespace): a table (`xref`), an object (maybe an xref stream), or nothing we know. */
function sectionKindAt(buf: Buffer, pos: number): XrefKind | undefined {
  if (pos < 0 || pos >= buf.length) return undefined;
  const lexer = new PdfLexer(buf, pos);
  lexer.skipSpace();
  if (lexer.atKeyword('xref')) return 'table';
  const head = buf.toString('latin1', lexer.pos, Math.min(buf.length, lexer.pos + 32));
  return /^\d+\s+\d+\s+obj(?![^\s<[(/%])/.test(head) ? 'stream' : undefined;
}

interface SectionRead {
  info: XrefSection;
  entries: Map<number, XrefEntry>;
}

function readSection(buf: Buffer, offset: number, baseOffset: number): SectionRead {
  const pos = offset + baseOffset;
  const kind = sectionKindAt(buf, pos);
  if (kind === undefined) {
    const where = pos < 0 || pos >= buf.length ? `outside the file (${buf.length} bytes)` : 'where there is no cross-reference section';
    throw new PdfStructureError(`a cross-reference section is expected at offset ${offset}, ${where}`);
  }
  if (kind === 'stream') {
    const { dict, entries } = readXrefStream(buf, pos, offset);
    return { info: { offset, kind, trailer: dict }, entries };
  }
  const { trailer, entries } = readXrefTable(buf, pos);
  const xrefStm = trailer.entries.get('XRefStm');
  if (xrefStm === undefined) return { info: { offset, kind, trailer }, entries };
  if (xrefStm.kind !== 'number' || !Number.isInteger(xrefStm.value)) {
    throw new PdfStructureError(`the trailer of the section at offset ${offset} has an invalid /XRefStm`);
  }
  // Hybrid file: the table lists what older readers can use, often with the compressed objects
  // marked free; the stream has those objects. Within the section, an in-use table entry wins,
  // then the stream's entry, then the table's free entry (§7.5.8.4).
  const streamPos = xrefStm.value + baseOffset;
  if (sectionKindAt(buf, streamPos) !== 'stream') {
    throw new PdfStructureError(`/XRefStm of the section at offset ${offset} points to offset ${xrefStm.value}, where there is no cross-reference stream`);
  }
  const stream = readXrefStream(buf, streamPos, xrefStm.value);
  for (const [num, entry] of stream.entries) {
    const fromTable = entries.get(num);
    if (!fromTable || (fromTable.type === 'f' && entry.type !== 'f')) entries.set(num, entry);
  }
  return { info: { offset, kind, xrefStm: xrefStm.value, trailer }, entries };
}

/** A classic `xref` table with its subsections and the trailer dictionary after it. */
function readXrefTable(buf: Buffer, pos: number): { trailer: PdfDict; entries: Map<number, XrefEntry> } {
  const lexer = new PdfLexer(buf, pos);
  lexer.skipSpace();
  lexer.pos += 4; // xref
  const entries = new Map<number, XrefEntry>();
  // Entries are meant to be exactly 20 bytes, but writers use any whitespace (a lone CR, a
  // missing space, spaces before the EOL): read them as tokens, not as fixed-width records.
  for (;;) {
    lexer.skipSpace();
    if (lexer.atKeyword('trailer')) break;
    if (lexer.pos >= buf.length) lexer.fail('cross-reference table without "trailer"');
    const first = readInteger(lexer, 'the first object number of a subsection');
    lexer.skipSpace();
    const count = readInteger(lexer, 'the entry count of a subsection');
    for (let i = 0; i < count; i++) {
      lexer.skipSpace();
      const offset = readInteger(lexer, 'an entry offset');
      lexer.skipSpace();
      const gen = readInteger(lexer, 'an entry generation');
      lexer.skipSpace();
      const type = buf[lexer.pos];
      if ((type !== 0x6e && type !== 0x66) || !(lexer.pos + 1 >= buf.length || isSeparator(buf[lexer.pos + 1]!))) {
        lexer.fail(`cross-reference entry ${first + i} is neither "n" nor "f"`);
      }
      lexer.pos++;
      const num = first + i;
      if (entries.has(num)) continue; // a number listed twice in one table: the first one counts
      entries.set(num, type === 0x6e ? { type: 'n', offset, gen } : { type: 'f', gen });
    }
  }
  lexer.pos += 7; // trailer
  const trailer = lexer.value();
  if (trailer.kind !== 'dict') throw new PdfStructureError(`"trailer" at offset ${lexer.pos} is not followed by a dictionary`);
  return { trailer, entries };
}

const isSeparator = (code: number) => code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09 || code === 0x0c || code === 0x00 || code === 0x25;

/** An unsigned integer, parsed from bytes (tables can have a hundred thousand entries). */
function readInteger(lexer: PdfLexer, what: string): number {
  const { buf } = lexer;
  const start = lexer.pos;
  let value = 0;
  while (lexer.pos < buf.length && buf[lexer.pos]! >= 0x30 && buf[lexer.pos]! <= 0x39) value = value * 10 + buf[lexer.pos++]! - 0x30;
  if (lexer.pos === start) lexer.fail(`expected ${what} in the cross-reference table`);
  return value;
}

/** A cross-reference stream (§7.5.8): binary rows of /W-sized fields over the /Index ranges. */
function readXrefStream(buf: Buffer, pos: number, offset: number): { dict: PdfDict; entries: Map<number, XrefEntry> } {
  const { num: ownNum, gen: ownGen, value } = parseIndirectObjectAt(buf, pos);
  if (value.kind !== 'stream') throw new PdfStructureError(`the object at offset ${pos} is not a cross-reference stream`);
  const { dict } = value;
  const type = dict.entries.get('Type');
  if (type !== undefined && !(type.kind === 'name' && type.value === 'XRef')) {
    throw new PdfStructureError(`the object at offset ${pos} is not a cross-reference stream (/Type is not /XRef)`);
  }
  const widths = integerArray(dict.entries.get('W'));
  if (!widths || widths.length < 3 || widths.some((width) => width < 0 || width > 8)) {
    throw new PdfStructureError(`the cross-reference stream at offset ${pos} has an invalid /W`);
  }
  const size = dict.entries.get('Size');
  const index = integerArray(dict.entries.get('Index')) ?? (size?.kind === 'number' ? [0, size.value] : undefined);
  if (!index || index.length % 2 !== 0 || index.some((n) => n < 0)) {
    throw new PdfStructureError(`the cross-reference stream at offset ${pos} has an invalid /Index or /Size`);
  }

  let data: Buffer;
  try {
    data = decodeStreamData(buf.subarray(value.rawStart, value.rawStart + value.rawLength), dict);
  } catch (error) {
    throw new PdfStructureError(`the cross-reference stream at offset ${pos} cannot be decoded: ${(error as Error).message}`);
  }
  const [w0, w1, w2] = widths as [number, number, number];
  const rowLength = w0 + w1 + w2;
  const rowCount = index.reduce((sum, n, i) => (i % 2 === 1 ? sum + n : sum), 0);
  if (rowLength === 0 || data.length < rowLength * rowCount) {
    throw new PdfStructureError(`the cross-reference stream at offset ${pos} holds ${data.length} bytes, too few for ${rowCount} entries of ${rowLength} bytes`);
  }

  const field = (at: number, width: number): number => {
    let n = 0;
    for (let i = 0; i < width; i++) n = n * 256 + data[at + i]!;
    return n;
  };
  const entries = new Map<number, XrefEntry>();
  let row = 0;
  for (let i = 0; i < index.length; i += 2) {
    const first = index[i]!;
    const count = index[i + 1]!;
    for (let k = 0; k < count; k++, row++) {
      const at = row * rowLength;
      // A missing type field means type 1 (§7.5.8.2, Table 17).
      const kind = w0 === 0 ? 1 : field(at, w0);
      const second = field(at + w0, w1);
      const third = field(at + w0 + w1, w2);
      const num = first + k;
      if (entries.has(num)) continue;
      if (kind === 0) entries.set(num, { type: 'f', gen: third });
      else if (kind === 1) entries.set(num, { type: 'n', offset: second, gen: third });
      else if (kind === 2) entries.set(num, { type: 'c', streamNum: second, index: third });
      // Other types are reserved: such an entry is a reference to the null object, i.e. none.
    }
  }
  // The stream is where we just read it, whatever its own row says: some writers (the IRS forms'
  // Acrobat among them) list it at offset 0, not knowing their offset while writing the row.
  entries.set(ownNum, { type: 'n', offset, gen: ownGen });
  return { dict, entries };
}

function integerArray(value: PdfValue | undefined): number[] | undefined {
  if (value?.kind !== 'array') return undefined;
  const numbers: number[] = [];
  for (const item of value.items) {
    if (item.kind !== 'number' || !Number.isInteger(item.value)) return undefined;
    numbers.push(item.value);
  }
  return numbers;
}
