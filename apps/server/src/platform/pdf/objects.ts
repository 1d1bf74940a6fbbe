import { PdfStructureError } from './errors';

/*
 * The PDF object model, a parser for PDF object syntax (ISO 32000-2 §7.2–7.3) and a serialiser.
 *
 * Every value is a plain object tagged by `kind`, one discriminated union for all of them, so a
 * `switch (value.kind)` is exhaustive and test equality is structural. Values handed out by a
 * PdfFile are shared with its cache: treat them as immutable and `cloneValue` before changing one
 * (the incremental writer writes CHANGED objects as new copies; the old bytes must stay intact).
 */

export interface PdfNull {
  readonly kind: 'null';
}
export interface PdfBool {
  readonly kind: 'bool';
  readonly value: boolean;
}
/**
 * `raw` keeps the number's text as it was written whenever the canonical form would differ (reals
 * such as `0.50` or `.5`, `+3`): re-serialising a parsed object must not change its values.
 */
export interface PdfNumber {
  readonly kind: 'number';
  readonly value: number;
  readonly raw?: string;
}
/**
 * A name without its slash and with `#xx` escapes decoded. Names are byte strings, so `value`
 * holds one latin1 character per byte: any name, UTF-8 ones included, round-trips exactly.
 */
export interface PdfName {
  readonly kind: 'name';
  readonly value: string;
}
/** A string's bytes after escapes are decoded; `hex` remembers which syntax it was written in. */
export interface PdfString {
  readonly kind: 'string';
  readonly bytes: Buffer;
  readonly hex: boolean;
}
export interface PdfArray {
  readonly kind: 'array';
  readonly items: PdfValue[];
}
/** Keys are names as in PdfName.value; the Map keeps the order the entries were written in. */
export interface PdfDict {
  readonly kind: 'dict';
  readonly entries: Map<string, PdfValue>;
}
export interface PdfRef {
  readonly kind: 'ref';
  readonly num: number;
  readonly gen: number;
}
/**
 * A stream's dictionary and where its raw (still encoded, maybe encrypted) bytes are in the file.
 * Data is decoded on demand only, so opening a large file never inflates its content streams.
 */
export interface PdfStream {
  readonly kind: 'stream';
  readonly dict: PdfDict;
  readonly rawStart: number;
  readonly rawLength: number;
}

export type PdfValue = PdfNull | PdfBool | PdfNumber | PdfName | PdfString | PdfArray | PdfDict | PdfRef | PdfStream;

// ---------------------------------------------------------------------------------------------
// Constructors and accessors

export const PDF_NULL: PdfNull = Object.freeze({ kind: 'null' });

export const pdfBool = (value: boolean): PdfBool => ({ kind: 'bool', value });

export function pdfNumber(value: number, raw?: string): PdfNumber {
  return raw === undefined ? { kind: 'number', value } : { kind: 'number', value, raw };
}

export const pdfName = (value: string): PdfName => ({ kind: 'name', value });

/** A string from bytes, or from a JS string taken as latin1 bytes (use pdfTextString for text). */
export function pdfString(bytes: Buffer | Uint8Array | string, hex = false): PdfString {
  const data = typeof bytes === 'string' ? Buffer.from(bytes, 'latin1') : Buffer.from(bytes);
  return { kind: 'string', bytes: data, hex };
}

export const pdfArray = (items: PdfValue[] = []): PdfArray => ({ kind: 'array', items });

export function pdfDict(entries: Iterable<readonly [string, PdfValue]> | Record<string, PdfValue> = []): PdfDict {
  const map = new Map<string, PdfValue>();
  const list = Symbol.iterator in entries ? (entries as Iterable<readonly [string, PdfValue]>) : Object.entries(entries);
  for (const [key, value] of list) map.set(key, value);
  return { kind: 'dict', entries: map };
}

export function pdfRef(num: number, gen = 0): PdfRef {
  return { kind: 'ref', num, gen };
}

export const isName = (value: PdfValue | undefined, name?: string): value is PdfName =>
  value?.kind === 'name' && (name === undefined || value.value === name);
export const isDict = (value: PdfValue | undefined): value is PdfDict => value?.kind === 'dict';
export const isArray = (value: PdfValue | undefined): value is PdfArray => value?.kind === 'array';
export const isRef = (value: PdfValue | undefined): value is PdfRef => value?.kind === 'ref';
export const isNumber = (value: PdfValue | undefined): value is PdfNumber => value?.kind === 'number';
export const isString = (value: PdfValue | undefined): value is PdfString => value?.kind === 'string';
export const isStream = (value: PdfValue | undefined): value is PdfStream => value?.kind === 'stream';

export const sameRef = (a: PdfRef, b: PdfRef): boolean => a.num === b.num && a.gen === b.gen;

/** A deep copy that shares nothing mutable with the original (stream offsets are copied as is). */
export function cloneValue<T extends PdfValue>(value: T): T {
  switch (value.kind) {
    case 'array':
      return { kind: 'array', items: value.items.map((item) => cloneValue(item)) } as T;
    case 'dict':
      return pdfDict([...value.entries].map(([key, item]) => [key, cloneValue(item)] as const)) as T;
    case 'stream':
      return { ...value, dict: cloneValue(value.dict) } as T;
    case 'string':
      return { ...value, bytes: Buffer.from(value.bytes) } as T;
    default:
      return { ...value };
  }
}

// ---------------------------------------------------------------------------------------------
// Text strings (§7.9.2.2): what a field name or a /Reason says, as JS text.

/** PDFDocEncoding differs from latin1 only at these codes. */
const PDF_DOC_ENCODING: Record<number, number> = {
  0x18: 0x02d8, 0x19: 0x02c7, 0x1a: 0x02c6, 0x1b: 0x02d9, 0x1c: 0x02dd, 0x1d: 0x02db, 0x1e: 0x02da, 0x1f: 0x02dc,
  0x80: 0x2022, 0x81: 0x2020, 0x82: 0x2021, 0x83: 0x2026, 0x84: 0x2014, 0x85: 0x2013, 0x86: 0x0192, 0x87: 0x2044,
  0x88: 0x2039, 0x89: 0x203a, 0x8a: 0x2212, 0x8b: 0x2030, 0x8c: 0x201e, 0x8d: 0x201c, 0x8e: 0x201d, 0x8f: 0x2018,
  0x90: 0x2019, 0x91: 0x201a, 0x92: 0x2122, 0x93: 0xfb01, 0x94: 0xfb02, 0x95: 0x0141, 0x96: 0x0152, 0x97: 0x0160,
  0x98: 0x0178, 0x99: 0x017d, 0x9a: 0x0131, 0x9b: 0x0142, 0x9c: 0x0153, 0x9d: 0x0161, 0x9e: 0x017e, 0xa0: 0x20ac,
};

/** Decodes a text string: UTF-16BE or UTF-8 with a byte order mark, else PDFDocEncoding. */
export function decodeTextString(value: PdfString | Buffer): string {
  const bytes = Buffer.isBuffer(value) ? value : value.bytes;
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) {
    const body = Buffer.from(bytes.subarray(2, bytes.length - (bytes.length % 2)));
    return body.swap16().toString('utf16le');
  }
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return bytes.subarray(3).toString('utf8');
  let text = '';
  for (const byte of bytes) text += String.fromCharCode(PDF_DOC_ENCODING[byte] ?? byte);
  return text;
}

/** A text string as readers expect it: plain ASCII stays readable, anything else is UTF-16BE. */
export function pdfTextString(text: string): PdfString {
  if (/^[\x20-\x7e\n\r\t]*$/.test(text)) return pdfString(Buffer.from(text, 'latin1'));
  const utf16 = Buffer.from(text, 'utf16le').swap16();
  return pdfString(Buffer.concat([Buffer.from([0xfe, 0xff]), utf16]));
}

// ---------------------------------------------------------------------------------------------
// Parser

const WHITESPACE = 1;
const DELIMITER = 2;
/** Character classes of §7.2.3: whitespace, delimiters, and (0) regular characters. */
const CHAR_CLASS = new Uint8Array(256);
for (const code of [0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]) CHAR_CLASS[code] = WHITESPACE;
for (const char of '()<>[]{}/%') CHAR_CLASS[char.charCodeAt(0)] = DELIMITER;

const CR = 0x0d;
const LF = 0x0a;
/** Deeper nesting than this is an attack on the stack, not a document. */
const MAX_DEPTH = 256;
const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)$/;
const ENDSTREAM = Buffer.from('endstream', 'latin1');

const isDigit = (code: number | undefined) => code !== undefined && code >= 0x30 && code <= 0x39;
const hexValue = (code: number): number =>
  code >= 0x30 && code <= 0x39 ? code - 0x30 : code >= 0x41 && code <= 0x46 ? code - 0x37 : code >= 0x61 && code <= 0x66 ? code - 0x57 : -1;

/** A cursor over the file's bytes. Parsing works on bytes throughout: the file is never decoded. */
export class PdfLexer {
  constructor(
    readonly buf: Buffer,
    public pos: number,
  ) {}

  fail(message: string, at = this.pos): never {
    throw new PdfStructureError(`${message} at offset ${at}`);
  }

  /** Skips whitespace and comments. */
  skipSpace(): void {
    const { buf } = this;
    let pos = this.pos;
    while (pos < buf.length) {
      const code = buf[pos]!;
      if (CHAR_CLASS[code] === WHITESPACE) pos++;
      else if (code === 0x25) {
        while (pos < buf.length && buf[pos] !== LF && buf[pos] !== CR) pos++;
      } else break;
    }
    this.pos = pos;
  }

  /** The run of regular characters at the cursor (a keyword or a number), maybe empty. */
  readRegular(): string {
    const start = this.pos;
    let pos = start;
    while (pos < this.buf.length && CHAR_CLASS[this.buf[pos]!] === 0) pos++;
    this.pos = pos;
    return this.buf.toString('latin1', start, pos);
  }

  /** Whether `word` is at the cursor as a whole keyword (not the start of a longer one). */
  atKeyword(word: string): boolean {
    const end = this.pos + word.length;
    if (end > this.buf.length || this.buf.toString('latin1', this.pos, end) !== word) return false;
    return end === this.buf.length || CHAR_CLASS[this.buf[end]!] !== 0;
  }

  readUnsignedInt(what: string): number {
    const start = this.pos;
    const token = this.readRegular();
    if (!/^\d+$/.test(token)) this.fail(`expected ${what}, found ${describeToken(token, this.buf[start])}`, start);
    return Number(token);
  }

  value(depth = 0): PdfValue {
    if (depth > MAX_DEPTH) this.fail('objects nested too deeply');
    this.skipSpace();
    const { buf } = this;
    if (this.pos >= buf.length) this.fail('unexpected end of data');
    const code = buf[this.pos]!;
    switch (code) {
      case 0x2f: // /
        return this.name();
      case 0x28: // (
        return this.literalString();
      case 0x3c: // <
        return buf[this.pos + 1] === 0x3c ? this.dict(depth) : this.hexString();
      case 0x5b: // [
        return this.array(depth);
      default:
        break;
    }
    if (isDigit(code) || code === 0x2b || code === 0x2d || code === 0x2e) return this.numberOrRef();
    const start = this.pos;
    const word = this.readRegular();
    if (word === 'true' || word === 'false') return pdfBool(word === 'true');
    if (word === 'null') return PDF_NULL;
    return this.fail(`unexpected ${describeToken(word, code)}`, start);
  }

  private numberOrRef(): PdfNumber | PdfRef {
    const start = this.pos;
    const token = this.readRegular();
    if (!NUMBER.test(token)) this.fail(`malformed number "${token}"`, start);
    const value = Number(token);
    if (/^\d+$/.test(token)) {
      // `12 0 R` is a reference: look ahead for a second integer and R, else keep the number.
      const after = this.pos;
      this.skipSpace();
      if (isDigit(this.buf[this.pos])) {
        const gen = this.readRegular();
        if (/^\d+$/.test(gen)) {
          this.skipSpace();
          if (this.atKeyword('R')) {
            this.pos++;
            return pdfRef(value, Number(gen));
          }
        }
      }
      this.pos = after;
    }
    return String(value) === token ? pdfNumber(value) : pdfNumber(value, token);
  }

  private name(): PdfName {
    const { buf } = this;
    let pos = this.pos + 1;
    const start = pos;
    while (pos < buf.length && CHAR_CLASS[buf[pos]!] === 0) pos++;
    this.pos = pos;
    const raw = buf.subarray(start, pos);
    if (!raw.includes(0x23)) return pdfName(raw.toString('latin1'));
    // #xx escapes (PDF 1.2+); a # without two hex digits is kept as is, as PDF 1.1 wrote it.
    const out: number[] = [];
    for (let i = 0; i < raw.length; i++) {
      const hi = raw[i] === 0x23 && i + 2 < raw.length ? hexValue(raw[i + 1]!) : -1;
      const lo = hi >= 0 ? hexValue(raw[i + 2]!) : -1;
      if (hi >= 0 && lo >= 0) {
        out.push(hi * 16 + lo);
        i += 2;
      } else out.push(raw[i]!);
    }
    return pdfName(Buffer.from(out).toString('latin1'));
  }

  private literalString(): PdfString {
    const { buf } = this;
    const start = this.pos;
    let pos = this.pos + 1;
    let depth = 1;
    const out: number[] = [];
    for (;;) {
      if (pos >= buf.length) this.fail('unterminated string', start);
      const code = buf[pos++]!;
      if (code === 0x5c) {
        // Escapes (§7.3.4.2); an unknown one stands for the character itself.
        if (pos >= buf.length) this.fail('unterminated string', start);
        const next = buf[pos++]!;
        switch (next) {
          case 0x6e: out.push(LF); break; // n
          case 0x72: out.push(CR); break; // r
          case 0x74: out.push(0x09); break; // t
          case 0x62: out.push(0x08); break; // b
          case 0x66: out.push(0x0c); break; // f
          case CR: if (buf[pos] === LF) pos++; break; // a backslash before an end of line continues the line
          case LF: break;
          default:
            if (next >= 0x30 && next <= 0x37) {
              let octal = next - 0x30;
              for (let digits = 1; digits < 3 && buf[pos]! >= 0x30 && buf[pos]! <= 0x37; digits++) octal = octal * 8 + buf[pos++]! - 0x30;
              out.push(octal & 0xff);
            } else out.push(next);
        }
      } else if (code === 0x28) {
        depth++;
        out.push(code);
      } else if (code === 0x29) {
        if (--depth === 0) break;
        out.push(code);
      } else if (code === CR) {
        // An unescaped end of line of any kind is one LF in the string's value.
        if (buf[pos] === LF) pos++;
        out.push(LF);
      } else out.push(code);
    }
    this.pos = pos;
    return pdfString(Buffer.from(out), false);
  }

  private hexString(): PdfString {
    const { buf } = this;
    const start = this.pos;
    let pos = this.pos + 1;
    const out: number[] = [];
    let high = -1;
    for (;;) {
      if (pos >= buf.length) this.fail('unterminated hex string', start);
      const code = buf[pos++]!;
      if (code === 0x3e) break;
      if (CHAR_CLASS[code] === WHITESPACE) continue;
      const nibble = hexValue(code);
      if (nibble < 0) this.fail(`invalid character ${JSON.stringify(String.fromCharCode(code))} in hex string`, pos - 1);
      if (high < 0) high = nibble;
      else {
        out.push(high * 16 + nibble);
        high = -1;
      }
    }
    // An odd final digit is followed by an implied 0 (§7.3.4.3).
    if (high >= 0) out.push(high * 16);
    this.pos = pos;
    return pdfString(Buffer.from(out), true);
  }

  private array(depth: number): PdfArray {
    const start = this.pos;
    this.pos++;
    const items: PdfValue[] = [];
    for (;;) {
      this.skipSpace();
      if (this.pos >= this.buf.length) this.fail('unterminated array', start);
      if (this.buf[this.pos] === 0x5d) {
        this.pos++;
        return pdfArray(items);
      }
      items.push(this.value(depth + 1));
    }
  }

  private dict(depth: number): PdfDict {
    const start = this.pos;
    this.pos += 2;
    const entries = new Map<string, PdfValue>();
    for (;;) {
      this.skipSpace();
      if (this.pos >= this.buf.length) this.fail('unterminated dictionary', start);
      const code = this.buf[this.pos];
      if (code === 0x3e && this.buf[this.pos + 1] === 0x3e) {
        this.pos += 2;
        return { kind: 'dict', entries };
      }
      if (code !== 0x2f) this.fail('expected a name as dictionary key');
      const key = this.name().value;
      const value = this.value(depth + 1);
      // A repeated key is undefined behaviour; poppler, qpdf and pdf.js all let the last one count,
      // so this reader does too. Reading another value than the viewers do is a shadow attack:
      // a page rewritten on signing would then show what its signer never saw.
      entries.set(key, value);
    }
  }
}

function describeToken(token: string, code: number | undefined): string {
  if (token) return `"${token.length > 20 ? `${token.slice(0, 20)}…` : token}"`;
  return code === undefined ? 'end of data' : `character ${JSON.stringify(String.fromCharCode(code))}`;
}

/** Parses one direct value (as inside an object stream) at `offset`; `end` is just after it. */
export function parseValue(buf: Buffer, offset: number): { value: PdfValue; end: number } {
  const lexer = new PdfLexer(buf, offset);
  const value = lexer.value();
  return { value, end: lexer.pos };
}

export interface ParseObjectOptions {
  /**
   * Resolves an indirect /Length. Return undefined when it cannot be known (the object is missing,
   * or is the very object being parsed): the stream then ends at its `endstream` keyword.
   */
  resolveLength?: (ref: PdfRef) => number | undefined;
}

export interface IndirectObject {
  num: number;
  gen: number;
  value: PdfValue;
  /** Just after `endobj` (or after the value or `endstream` when a sloppy writer left it out). */
  end: number;
}

/** Parses `N G obj … endobj` at `offset` (whitespace and comments before it are skipped). */
export function parseIndirectObjectAt(buf: Buffer, offset: number, options: ParseObjectOptions = {}): IndirectObject {
  if (!Number.isInteger(offset) || offset < 0 || offset >= buf.length) {
    throw new PdfStructureError(`object offset ${offset} is outside the file (${buf.length} bytes)`);
  }
  const lexer = new PdfLexer(buf, offset);
  lexer.skipSpace();
  const num = lexer.readUnsignedInt('an object number');
  lexer.skipSpace();
  const gen = lexer.readUnsignedInt('a generation number');
  lexer.skipSpace();
  if (!lexer.atKeyword('obj')) lexer.fail(`expected "obj" after "${num} ${gen}"`);
  lexer.pos += 3;
  let value = lexer.value();
  let end = lexer.pos;
  lexer.skipSpace();
  if (value.kind === 'dict' && lexer.atKeyword('stream')) {
    value = readStreamBody(lexer, value, options);
    end = lexer.pos;
    lexer.skipSpace();
  }
  if (lexer.atKeyword('endobj')) end = lexer.pos + 6;
  return { num, gen, value, end };
}

/** With the cursor on `stream`: finds the data and leaves the cursor after `endstream`. */
function readStreamBody(lexer: PdfLexer, dict: PdfDict, options: ParseObjectOptions): PdfStream {
  const { buf } = lexer;
  // The keyword is followed by CRLF or LF (§7.3.8.1). Sloppy writers put spaces before it or use
  // a lone CR; with no end of line at all the data starts right after the keyword.
  let pos = lexer.pos + 6;
  let eol = pos;
  while (buf[eol] === 0x20 || buf[eol] === 0x09) eol++;
  if (buf[eol] === CR) pos = buf[eol + 1] === LF ? eol + 2 : eol + 1;
  else if (buf[eol] === LF) pos = eol + 1;
  const rawStart = pos;

  const lengthValue = dict.entries.get('Length');
  let length: number | undefined;
  if (lengthValue?.kind === 'number') length = lengthValue.value;
  else if (lengthValue?.kind === 'ref') {
    try {
      length = options.resolveLength?.(lengthValue);
    } catch {
      length = undefined;
    }
  }
  if (length !== undefined && Number.isInteger(length) && length >= 0 && rawStart + length <= buf.length) {
    let after = rawStart + length;
    while (after < buf.length && CHAR_CLASS[buf[after]!] === WHITESPACE) after++;
    if (buf.subarray(after, after + ENDSTREAM.length).equals(ENDSTREAM)) {
      lexer.pos = after + ENDSTREAM.length;
      return { kind: 'stream', dict, rawStart, rawLength: length };
    }
  }
  // /Length is missing or wrong (common after careless edits): the data ends at the end of line
  // before the first `endstream`. This only ever affects how we read this one stream.
  const found = buf.indexOf(ENDSTREAM, rawStart);
  if (found < 0) lexer.fail('stream without "endstream"', lexer.pos);
  let dataEnd = found;
  if (buf[dataEnd - 1] === LF && dataEnd > rawStart) dataEnd--;
  if (buf[dataEnd - 1] === CR && dataEnd > rawStart) dataEnd--;
  lexer.pos = found + ENDSTREAM.length;
  return { kind: 'stream', dict, rawStart, rawLength: dataEnd - rawStart };
}

// ---------------------------------------------------------------------------------------------
// Serialiser: canonical syntax for NEW and CHANGED objects of an incremental update.

const LITERAL_ESCAPES: Record<number, string> = { 0x28: '\\(', 0x29: '\\)', 0x5c: '\\\\', 0x0a: '\\n', 0x0d: '\\r', 0x09: '\\t', 0x08: '\\b', 0x0c: '\\f' };

function formatNumber(number: PdfNumber): string {
  if (number.raw !== undefined) return number.raw;
  const { value } = number;
  if (!Number.isFinite(value)) throw new RangeError(`PDF has no number ${value}`);
  if (Number.isInteger(value)) return Object.is(value, -0) ? '0' : BigInt(value).toString();
  // PDF has no exponent notation; ten decimals are far below any device's resolution.
  const text = value.toFixed(10).replace(/\.?0+$/, '');
  return text === '-0' ? '0' : text;
}

function formatName(value: string): string {
  let out = '/';
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code > 0xff) throw new RangeError(`name ${JSON.stringify(value)} holds a character beyond latin1; names are bytes`);
    out += code > 0x20 && code < 0x7f && CHAR_CLASS[code] === 0 && code !== 0x23 ? value[i] : `#${code.toString(16).padStart(2, '0').toUpperCase()}`;
  }
  return out;
}

function formatString(value: PdfString): string {
  if (value.hex) return `<${value.bytes.toString('hex')}>`;
  let out = '(';
  for (const code of value.bytes) {
    const escape = LITERAL_ESCAPES[code];
    if (escape) out += escape;
    else if (code < 0x20 || code > 0x7e) out += `\\${code.toString(8).padStart(3, '0')}`;
    else out += String.fromCharCode(code);
  }
  return `${out})`;
}

/** The value in PDF syntax as a latin1 string (one character per byte). */
function formatValue(value: PdfValue): string {
  switch (value.kind) {
    case 'null':
      return 'null';
    case 'bool':
      return value.value ? 'true' : 'false';
    case 'number':
      return formatNumber(value);
    case 'name':
      return formatName(value.value);
    case 'string':
      return formatString(value);
    case 'ref':
      return `${value.num} ${value.gen} R`;
    case 'array':
      return `[${value.items.map(formatValue).join(' ')}]`;
    case 'dict':
      return `<<${[...value.entries].map(([key, item]) => `${formatName(key)} ${formatValue(item)}`).join(' ')}>>`;
    case 'stream':
      throw new TypeError('a stream can only be written as an indirect object (serializeIndirect)');
  }
}

/** A direct value in canonical PDF syntax. */
export function serializeValue(value: PdfValue): Buffer {
  return Buffer.from(formatValue(value), 'latin1');
}

/**
 * `num gen obj … endobj`, ending with a newline. A stream needs its (already encoded) data, and
 * its /Length is set from that data: a stale /Length from a copied dictionary cannot slip through.
 */
export function serializeIndirect(num: number, gen: number, value: PdfValue, streamData?: Uint8Array): Buffer {
  if (!Number.isInteger(num) || num < 1 || !Number.isInteger(gen) || gen < 0 || gen > 65535) {
    throw new RangeError(`invalid object number ${num} ${gen}`);
  }
  const head = Buffer.from(`${num} ${gen} obj\n`, 'latin1');
  if (value.kind !== 'stream' && streamData === undefined) {
    return Buffer.concat([head, serializeValue(value), Buffer.from('\nendobj\n', 'latin1')]);
  }
  if (streamData === undefined) throw new TypeError(`object ${num} ${gen} is a stream: its data is needed to write it`);
  const dict = value.kind === 'stream' ? value.dict : value.kind === 'dict' ? value : undefined;
  if (!dict) throw new TypeError(`stream data was given for object ${num} ${gen}, whose value is not a dictionary`);
  const withLength = pdfDict(dict.entries);
  withLength.entries.set('Length', pdfNumber(streamData.length));
  return Buffer.concat([
    head,
    serializeValue(withLength),
    Buffer.from('\nstream\n', 'latin1'),
    streamData,
    Buffer.from('\nendstream\nendobj\n', 'latin1'),
  ]);
}
