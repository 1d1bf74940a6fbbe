import crypto from 'node:crypto';
import zlib from 'node:zlib';
import { pdfArray, pdfDict, pdfName, pdfNumber, pdfRef, pdfString, serializeIndirect, serializeValue, type PdfDict, type PdfRef, type PdfValue } from './objects';
import type { PdfFile } from './pdf-file';

/**
 * Appends a revision to a PDF as an incremental update (PDF 32000-1 7.5.6): the bytes already
 * there are never touched, new and changed objects follow them, then a cross-reference section
 * of the same kind as the file's last one (a table after a table, a stream after a stream, so a
 * file that uses object streams keeps being read the same way) and a trailer pointing back with
 * /Prev. Earlier signatures cover byte ranges of the old file, so they stay valid.
 */

export interface RevisionObject {
  /** The object's number: an existing one to replace it, or one from `allocate()` for a new one. */
  readonly ref: PdfRef;
  /** A dictionary or any direct value; with `stream`, the stream's dictionary. */
  readonly value: PdfValue;
  /** The stream's data, already encoded as the dictionary's /Filter says (not encrypted). */
  readonly stream?: Buffer;
  /**
   * The exact bytes of the object's value, written as they are (the signature dictionary, whose
   * /ByteRange and /Contents are patched in place after the file is assembled). Never encrypted:
   * a signature's /Contents is the one string an encrypted file keeps in clear (7.6.2).
   */
  readonly raw?: Buffer;
}

export interface AppendedRevision {
  /**
   * What follows the old bytes: the new file is the source, then this. Kept apart so a large file
   * is never copied (storage can keep a revision as its predecessor plus a tail).
   */
  readonly tail: Buffer;
  /** Where each object written starts, by object number (offsets into the whole new file). */
  readonly offsets: ReadonlyMap<number, number>;
}

/** Hands out object numbers after the file's last one (trailer /Size). */
export class ObjectAllocator {
  private next: number;
  constructor(file: PdfFile) {
    this.next = file.size;
  }
  allocate(): PdfRef {
    return pdfRef(this.next++, 0);
  }
  get size(): number {
    return this.next;
  }
}

/** Encrypts every string inside a value (a changed object of an encrypted file is written anew). */
function encryptStrings(value: PdfValue, encrypt: (data: Buffer) => Buffer): PdfValue {
  switch (value.kind) {
    case 'string':
      return pdfString(encrypt(value.bytes), value.hex);
    case 'array':
      return pdfArray(value.items.map((item) => encryptStrings(item, encrypt)));
    case 'dict':
      return pdfDict([...value.entries].map(([key, item]) => [key, encryptStrings(item, encrypt)] as const));
    case 'stream':
      return { ...value, dict: encryptStrings(value.dict, encrypt) as PdfDict };
    default:
      return value;
  }
}

const TRAILER_KEYS_KEPT = ['Root', 'Info', 'Encrypt'] as const;

/**
 * The trailer of the new section: /Size, /Prev, the keys a reader needs from the last trailer,
 * and /ID with the first part kept (it names the document) and the second made new (it names
 * this revision), as 14.4 asks. A file without /ID gets one, unless it is encrypted (its key
 * depends on the ID, which therefore must not appear now).
 */
function trailerEntries(file: PdfFile, size: number, revisionSeed: Buffer): [string, PdfValue][] {
  const entries: [string, PdfValue][] = [
    ['Size', pdfNumber(size)],
    ['Prev', pdfNumber(file.startxref)],
  ];
  for (const key of TRAILER_KEYS_KEPT) {
    const value = file.trailer.entries.get(key);
    if (value) entries.push([key, value]);
  }
  const revisionId = pdfString(crypto.createHash('md5').update(revisionSeed).digest(), true);
  if (file.id) entries.push(['ID', pdfArray([file.id[0], revisionId])]);
  else if (!file.encrypted) entries.push(['ID', pdfArray([revisionId, revisionId])]);
  return entries;
}

/** Consecutive runs of object numbers, as /Index pairs and xref subsections want them. */
function runs(numbers: readonly number[]): Array<[first: number, count: number]> {
  const sorted = [...new Set(numbers)].sort((a, b) => a - b);
  const out: Array<[number, number]> = [];
  for (const num of sorted) {
    const last = out.at(-1);
    if (last && last[0] + last[1] === num) last[1]++;
    else out.push([num, 1]);
  }
  return out;
}

function xrefTable(offsets: ReadonlyMap<number, number>, trailer: [string, PdfValue][], xrefOffset: number): Buffer {
  const lines = ['xref'];
  for (const [first, count] of runs([...offsets.keys()])) {
    lines.push(`${first} ${count}`);
    for (let num = first; num < first + count; num++) {
      // Each entry is exactly 20 bytes: 10-digit offset, 5-digit generation, type, two-byte EOL.
      lines.push(`${String(offsets.get(num)!).padStart(10, '0')} 00000 n\r`);
    }
  }
  return Buffer.concat([
    Buffer.from(`${lines.join('\n')}\ntrailer\n`, 'latin1'),
    serializeValue(pdfDict(trailer)),
    Buffer.from(`\nstartxref\n${xrefOffset}\n%%EOF\n`, 'latin1'),
  ]);
}

function xrefStream(offsets: Map<number, number>, trailer: [string, PdfValue][], self: PdfRef, xrefOffset: number): Buffer {
  offsets.set(self.num, xrefOffset);
  const widest = Math.max(...offsets.values());
  const offsetBytes = Math.max(1, Math.ceil(Math.log2(widest + 1) / 8));
  const index = runs([...offsets.keys()]);
  const rows: Buffer[] = [];
  for (const [first, count] of index) {
    for (let num = first; num < first + count; num++) {
      const row = Buffer.alloc(1 + offsetBytes + 2);
      row[0] = 1;
      row.writeUIntBE(offsets.get(num)!, 1, offsetBytes);
      rows.push(row);
    }
  }
  const dict = pdfDict([
    ['Type', pdfName('XRef')],
    ...trailer,
    ['Index', pdfArray(index.flatMap(([first, count]) => [pdfNumber(first), pdfNumber(count)]))],
    ['W', pdfArray([pdfNumber(1), pdfNumber(offsetBytes), pdfNumber(2)])],
    ['Filter', pdfName('FlateDecode')],
  ]);
  // Cross-reference streams are never encrypted (7.6.2), so the data goes in as it is.
  return Buffer.concat([serializeIndirect(self.num, self.gen, dict, zlib.deflateSync(Buffer.concat(rows))), Buffer.from(`startxref\n${xrefOffset}\n%%EOF\n`, 'latin1')]);
}

/**
 * The file with `objects` appended as one revision. `allocator` must be the one the new
 * objects' numbers came from (its size becomes the trailer's /Size).
 */
export function appendRevision(options: { file: PdfFile; source: Buffer; objects: readonly RevisionObject[]; allocator: ObjectAllocator }): AppendedRevision {
  const { file, source } = options;
  const security = file.security;
  const parts: Buffer[] = [];
  let length = source.length;
  const push = (chunk: Buffer) => {
    parts.push(chunk);
    length += chunk.length;
  };
  // A revision starts on a line of its own; the old bytes stay as they are.
  if (source.length > 0 && source[source.length - 1] !== 0x0a && source[source.length - 1] !== 0x0d) push(Buffer.from('\n', 'latin1'));

  // Offsets in the cross-reference are counted from the header, which some files do not start with.
  const offsets = new Map<number, number>();
  const absolute = new Map<number, number>();
  for (const object of options.objects) {
    if (offsets.has(object.ref.num)) throw new Error(`object ${object.ref.num} is written twice in one revision`);
    absolute.set(object.ref.num, length);
    offsets.set(object.ref.num, length - file.baseOffset);
    if (object.raw) {
      push(Buffer.concat([Buffer.from(`${object.ref.num} ${object.ref.gen} obj\n`, 'latin1'), object.raw, Buffer.from('\nendobj\n', 'latin1')]));
      continue;
    }
    const encrypt = security ? (data: Buffer, target: 'string' | 'stream') => security.encrypt(data, object.ref.num, object.ref.gen, target) : null;
    const value = encrypt ? encryptStrings(object.value, (data) => encrypt(data, 'string')) : object.value;
    const stream = object.stream && encrypt ? encrypt(object.stream, 'stream') : object.stream;
    push(serializeIndirect(object.ref.num, object.ref.gen, value, stream));
  }

  const xrefOffset = length - file.baseOffset;
  const seed = crypto.createHash('sha256');
  for (const part of parts) seed.update(part);
  if (file.xrefKind === 'table') {
    push(xrefTable(offsets, trailerEntries(file, options.allocator.size, seed.digest()), xrefOffset));
  } else {
    const self = options.allocator.allocate();
    absolute.set(self.num, length);
    push(xrefStream(offsets, trailerEntries(file, options.allocator.size, seed.digest()), self, xrefOffset));
  }
  return { tail: Buffer.concat(parts, length - source.length), offsets: absolute };
}
