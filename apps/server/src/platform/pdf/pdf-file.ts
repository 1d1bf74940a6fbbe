import { openSecurityHandler, type SecurityHandler } from './crypt';
import { PdfStructureError } from './errors';
import { DEFAULT_MAX_DECODED_BYTES, decodeStreamData } from './filters';
import {
  decodeTextString,
  isName,
  parseIndirectObjectAt,
  parseValue,
  PDF_NULL,
  PdfLexer,
  pdfRef,
  type PdfDict,
  type PdfRef,
  type PdfStream,
  type PdfString,
  type PdfValue,
} from './objects';
import { readXref, type XrefInfo, type XrefKind } from './xref';

/*
 * A lazily read PDF: opening reads the cross-reference chain and the catalog, nothing else. Every
 * other object is parsed when asked for (and cached), object streams are inflated once when one of
 * their objects is first needed, and content streams and images are never touched. That keeps a
 * 500-page file cheap to open, and it is all an incremental writer needs: where things are, and
 * the few objects (catalog, pages, AcroForm) an update changes.
 */

/** A rectangle as [llx, lly, urx, ury], normalised so that llx ≤ urx and lly ≤ ury. */
export type PdfBox = readonly [number, number, number, number];

export interface PdfPage {
  /** 0-based position in the document. */
  index: number;
  ref: PdfRef;
  dict: PdfDict;
  /** Inherited from the page tree where the page does not say; US Letter when nobody does. */
  mediaBox: PdfBox;
  /** The visible area: /CropBox (inherited, default the MediaBox) clipped to the MediaBox, as poppler does. */
  cropBox: PdfBox;
  rotate: 0 | 90 | 180 | 270;
  /** Size of a default user-space unit in 1/72 inch (PDF 1.6 /UserUnit, default 1). */
  userUnit: number;
  /** The page's (maybe inherited) resource dictionary. */
  resources: PdfDict | null;
}

export interface PdfAcroForm {
  /** Set when the catalog refers to the AcroForm indirectly (an update then rewrites that object). */
  ref?: PdfRef;
  dict: PdfDict;
  /** The root fields (/Fields). */
  fields: PdfRef[];
}

export interface PdfSignatureField {
  ref: PdfRef;
  /** Fully qualified name: the partial names (/T) from the root down, joined with dots. */
  name: string;
  /** Whether the field holds a signature (/V is a signature dictionary). */
  signed: boolean;
  /** /V when it is an indirect signature dictionary. */
  valueRef?: PdfRef;
  /** The widget annotations: the field itself when it doubles as its widget, else its kids. */
  widgets: PdfRef[];
}

export interface OpenPdfOptions {
  /** User or owner password of an encrypted file; the empty user password when omitted. */
  password?: string;
  /** The most bytes one decoded object stream may inflate to. */
  maxDecodedBytes?: number;
}

interface ObjectStreamIndex {
  data: Buffer;
  /** Object number and byte offset (from /First) of each object, in stream order. */
  objects: Array<[number, number]>;
  first: number;
}

const DEFAULT_MEDIA_BOX: PdfBox = [0, 0, 612, 792];
const MAX_PAGE_TREE_DEPTH = 256;
const MAX_FIELD_TREE_DEPTH = 64;

/** Opens a PDF held in memory. Throws PdfStructureError or PdfEncryptionError when it cannot. */
export function openPdfFile(buf: Buffer, options: OpenPdfOptions = {}): PdfFile {
  return new PdfFile(buf, options);
}

export class PdfFile {
  readonly xref: XrefInfo;
  readonly trailer: PdfDict;
  readonly xrefKind: XrefKind;
  /** Trailer /Size: one more than the highest object number in use. */
  readonly size: number;
  /** The last `startxref` offset, as written (the next update's /Prev). */
  readonly startxref: number;
  /** Added to every offset written in the file to index the buffer (junk before %PDF-), usually 0. */
  readonly baseOffset: number;
  readonly catalog: { ref: PdfRef; dict: PdfDict };
  readonly encrypted: boolean;
  /** The decryption (and re-encryption) keys of an encrypted file. */
  readonly security: SecurityHandler | null = null;
  /** Trailer /ID: the permanent and the changing identifier, when present and well formed. */
  readonly id: readonly [PdfString, PdfString] | null;

  private readonly cache = new Map<number, PdfValue>();
  private readonly objectStreams = new Map<number, ObjectStreamIndex>();
  /** Objects being parsed right now: an object whose /Length is itself must not recurse. */
  private readonly inProgress = new Set<number>();
  /** Which indirect object each parsed stream is (it salts the stream's decryption key). */
  private readonly streamOwners = new WeakMap<PdfStream, PdfRef>();
  private readonly encryptRef: PdfRef | undefined;
  private readonly maxDecodedBytes: number;
  private pageList: PdfPage[] | undefined;

  constructor(
    readonly buffer: Buffer,
    options: OpenPdfOptions = {},
  ) {
    this.maxDecodedBytes = options.maxDecodedBytes ?? DEFAULT_MAX_DECODED_BYTES;
    this.xref = readXref(buffer);
    this.trailer = this.xref.trailer;
    this.xrefKind = this.xref.kind;
    this.size = this.xref.size;
    this.startxref = this.xref.startxref;
    this.baseOffset = this.xref.baseOffset;

    const id = this.resolve(this.trailer.entries.get('ID'));
    this.id = id.kind === 'array' && id.items[0]?.kind === 'string' && id.items[1]?.kind === 'string' ? [id.items[0], id.items[1]] : null;

    const encrypt = this.trailer.entries.get('Encrypt');
    this.encrypted = encrypt !== undefined && encrypt.kind !== 'null';
    if (this.encrypted) {
      // The encryption dictionary is never encrypted itself; look it up before keys exist.
      if (encrypt?.kind === 'ref') this.encryptRef = encrypt;
      const dict = this.resolve(encrypt);
      if (dict.kind !== 'dict') throw new PdfStructureError('trailer /Encrypt is not a dictionary');
      const firstId = this.id?.[0].bytes ?? Buffer.alloc(0);
      this.security = openSecurityHandler(dict, firstId, { password: options.password, resolve: (value) => this.resolve(value) });
      // Anything cached so far was read without keys; only the encryption dictionary may stay.
      for (const num of this.cache.keys()) if (num !== this.encryptRef?.num) this.cache.delete(num);
    }

    const root = this.trailer.entries.get('Root');
    if (root?.kind !== 'ref') throw new PdfStructureError('the trailer has no /Root reference to the document catalog');
    const catalog = this.lookup(root);
    if (catalog.kind !== 'dict') throw new PdfStructureError(`the document catalog (object ${root.num}) is not a dictionary`);
    this.catalog = { ref: root, dict: catalog };
  }

  /**
   * The object with this reference or number: null for free and unknown objects, and for a
   * reference whose generation is not the current one (§7.3.10). Throws PdfStructureError when the
   * cross-reference entry leads nowhere.
   */
  lookup(target: PdfRef | number): PdfValue {
    const num = typeof target === 'number' ? target : target.num;
    const entry = this.xref.entries.get(num);
    if (!entry || entry.type === 'f') return PDF_NULL;
    if (typeof target !== 'number' && target.gen !== (entry.type === 'n' ? entry.gen : 0)) return PDF_NULL;
    const cached = this.cache.get(num);
    if (cached) return cached;
    if (this.inProgress.has(num)) throw new PdfStructureError(`object ${num} depends on itself`);
    this.inProgress.add(num);
    try {
      const value = entry.type === 'n' ? this.readUncompressed(num, entry.offset, entry.gen) : this.readCompressed(num, entry.streamNum, entry.index);
      this.cache.set(num, value);
      return value;
    } finally {
      this.inProgress.delete(num);
    }
  }

  /** Follows references until a direct value; undefined (an absent key) is null. */
  resolve(value: PdfValue | undefined): PdfValue {
    let current: PdfValue = value ?? PDF_NULL;
    for (let hops = 0; current.kind === 'ref'; hops++) {
      if (hops > 32) throw new PdfStructureError(`reference chain from object ${current.num} is too long`);
      current = this.lookup(current);
    }
    return current;
  }

  /** A dictionary entry, resolved; null when absent. */
  get(dict: PdfDict, key: string): PdfValue {
    return this.resolve(dict.entries.get(key));
  }

  /**
   * A stream's data: decrypted, then decoded when `decode` (FlateDecode only; anything else is
   * refused with PdfStructureError, so ask for `decode: false` to get the encoded bytes).
   */
  streamData(stream: PdfStream, options: { decode?: boolean } = {}): Buffer {
    let data = this.buffer.subarray(stream.rawStart, stream.rawStart + stream.rawLength);
    const owner = this.streamOwners.get(stream);
    if (this.security && owner && !this.isUnencryptedStream(stream)) data = this.security.decrypt(data, owner.num, owner.gen, 'stream');
    if (options.decode === false) return data;
    return decodeStreamData(data, stream.dict, { resolve: (value) => this.resolve(value), maxOutputLength: this.maxDecodedBytes });
  }

  /** The pages in document order, with inherited attributes resolved. */
  pages(): PdfPage[] {
    this.pageList ??= this.walkPages();
    return this.pageList;
  }

  /** The interactive form, or null when the catalog has none. */
  acroForm(): PdfAcroForm | null {
    const value = this.catalog.dict.entries.get('AcroForm');
    const dict = this.resolve(value);
    if (dict.kind !== 'dict') return null;
    const fields = this.get(dict, 'Fields');
    const refs = fields.kind === 'array' ? fields.items.filter((item): item is PdfRef => item.kind === 'ref') : [];
    return value?.kind === 'ref' ? { ref: value, dict, fields: refs } : { dict, fields: refs };
  }

  /** Every signature field (/FT /Sig, maybe inherited), signed or not, in field-tree order. */
  signatureFields(): PdfSignatureField[] {
    const form = this.acroForm();
    if (!form) return [];
    const found: PdfSignatureField[] = [];
    const visited = new Set<number>();
    const visit = (ref: PdfRef, parentName: string, inheritedType: string | undefined, depth: number) => {
      if (visited.has(ref.num) || depth > MAX_FIELD_TREE_DEPTH) return;
      visited.add(ref.num);
      const dict = this.lookup(ref);
      if (dict.kind !== 'dict') return;
      const partial = this.get(dict, 'T');
      const name = partial.kind === 'string' ? (parentName ? `${parentName}.${decodeTextString(partial)}` : decodeTextString(partial)) : parentName;
      const type = this.get(dict, 'FT');
      const fieldType = type.kind === 'name' ? type.value : inheritedType;
      const kids = this.get(dict, 'Kids');
      const kidRefs = kids.kind === 'array' ? kids.items.filter((item): item is PdfRef => item.kind === 'ref') : [];
      // Kids with a partial name are fields; kids without one are this field's widgets.
      const childFields = kidRefs.filter((kid) => {
        const kidDict = this.lookup(kid);
        return kidDict.kind === 'dict' && kidDict.entries.has('T');
      });
      for (const child of childFields) visit(child, name, fieldType, depth + 1);
      if (fieldType !== 'Sig' || childFields.length > 0) return;
      const v = dict.entries.get('V');
      const signed = this.resolve(v).kind === 'dict';
      const widgets = isName(this.get(dict, 'Subtype'), 'Widget') ? [ref] : kidRefs;
      found.push({ ref, name, signed, ...(v?.kind === 'ref' ? { valueRef: v } : {}), widgets });
    };
    for (const field of form.fields) visit(field, '', undefined, 0);
    return found;
  }

  // -------------------------------------------------------------------------------------------

  private readUncompressed(num: number, offset: number, gen: number): PdfValue {
    const position = offset + this.baseOffset;
    let parsed;
    try {
      parsed = parseIndirectObjectAt(this.buffer, position, { resolveLength: (ref) => this.lengthOf(ref) });
    } catch (error) {
      throw new PdfStructureError(`object ${num} (at offset ${offset}, per the cross-reference table) cannot be read: ${(error as Error).message}`);
    }
    if (parsed.num !== num || parsed.gen !== gen) {
      throw new PdfStructureError(`the cross-reference entry of object ${num} ${gen} points to offset ${offset}, where object ${parsed.num} ${parsed.gen} starts`);
    }
    let { value } = parsed;
    if (this.security && num !== this.encryptRef?.num) value = this.decryptStrings(value, num, gen);
    if (value.kind === 'stream') this.streamOwners.set(value, pdfRef(num, gen));
    return value;
  }

  /** An indirect /Length: undefined when it cannot be known, so the stream ends at `endstream`. */
  private lengthOf(ref: PdfRef): number | undefined {
    if (this.inProgress.has(ref.num)) return undefined;
    const value = this.lookup(ref);
    return value.kind === 'number' ? value.value : undefined;
  }

  private readCompressed(num: number, streamNum: number, index: number): PdfValue {
    const stream = this.objectStream(streamNum);
    // The xref says which slot; trust it when the slot has the object, else search the header.
    let slot = stream.objects[index];
    if (slot?.[0] !== num) slot = stream.objects.find(([n]) => n === num);
    if (!slot) throw new PdfStructureError(`object ${num} is not in object stream ${streamNum}, where the cross-reference stream puts it`);
    try {
      return parseValue(stream.data, stream.first + slot[1]).value;
    } catch (error) {
      throw new PdfStructureError(`object ${num} in object stream ${streamNum} cannot be read: ${(error as Error).message}`);
    }
  }

  private objectStream(streamNum: number): ObjectStreamIndex {
    const cached = this.objectStreams.get(streamNum);
    if (cached) return cached;
    const entry = this.xref.entries.get(streamNum);
    if (entry?.type !== 'n') throw new PdfStructureError(`object stream ${streamNum} is not a stored object`);
    const stream = this.lookup(streamNum);
    if (stream.kind !== 'stream') throw new PdfStructureError(`object ${streamNum} should be an object stream but is a ${stream.kind}`);
    const n = this.get(stream.dict, 'N');
    const first = this.get(stream.dict, 'First');
    if (n.kind !== 'number' || first.kind !== 'number' || !Number.isInteger(n.value) || !Number.isInteger(first.value) || n.value < 0 || first.value < 0) {
      throw new PdfStructureError(`object stream ${streamNum} has an invalid /N or /First`);
    }
    let data: Buffer;
    try {
      data = this.streamData(stream);
    } catch (error) {
      throw new PdfStructureError(`object stream ${streamNum} cannot be decoded: ${(error as Error).message}`);
    }
    const lexer = new PdfLexer(data, 0);
    const objects: Array<[number, number]> = [];
    try {
      for (let i = 0; i < n.value; i++) {
        lexer.skipSpace();
        const objectNum = lexer.readUnsignedInt('an object number');
        lexer.skipSpace();
        objects.push([objectNum, lexer.readUnsignedInt('an offset')]);
      }
    } catch (error) {
      throw new PdfStructureError(`object stream ${streamNum} has a malformed header: ${(error as Error).message}`);
    }
    const index = { data, objects, first: first.value };
    this.objectStreams.set(streamNum, index);
    return index;
  }

  /** Streams that stay in clear in an encrypted file: xref streams, and metadata when so declared. */
  private isUnencryptedStream(stream: PdfStream): boolean {
    const type = stream.dict.entries.get('Type');
    if (isName(type, 'XRef')) return true;
    if (isName(type, 'Metadata') && this.security && !this.security.encryptMetadata) return true;
    // A stream with its own /Crypt filter says how it is encrypted; only /Identity is in use.
    const filter = stream.dict.entries.get('Filter');
    return filter?.kind === 'array' ? filter.items.some((item) => isName(item, 'Crypt')) : isName(filter, 'Crypt');
  }

  /** A copy of an uncompressed object's value with every string decrypted (§7.6.2). */
  private decryptStrings(value: PdfValue, num: number, gen: number): PdfValue {
    const security = this.security!;
    const walk = (item: PdfValue): PdfValue => {
      switch (item.kind) {
        case 'string':
          return { ...item, bytes: security.decrypt(item.bytes, num, gen, 'string') };
        case 'array':
          return { kind: 'array', items: item.items.map(walk) };
        case 'dict': {
          // A signature's /Contents is never encrypted: it is what the signature covers from outside.
          const type = item.entries.get('Type');
          const isSignature = isName(type, 'Sig') || isName(type, 'DocTimeStamp') || (item.entries.has('ByteRange') && item.entries.has('Contents'));
          const entries = new Map<string, PdfValue>();
          for (const [key, entry] of item.entries) entries.set(key, isSignature && key === 'Contents' ? entry : walk(entry));
          return { kind: 'dict', entries };
        }
        case 'stream':
          return { ...item, dict: walk(item.dict) as PdfDict };
        default:
          return item;
      }
    };
    return walk(value);
  }

  /**
   * One page, found by descending the page tree with each node's /Count instead of listing every
   * page: a signer's step on page 250 of 500 reads a handful of tree nodes. Files whose counts
   * are wrong fall back to the full walk, which is authoritative.
   */
  page(index: number): PdfPage | undefined {
    if (this.pageList) return this.pageList[index];
    try {
      return this.descendTo(index) ?? this.pages()[index];
    } catch (error) {
      if (error instanceof PdfStructureError) return this.pages()[index];
      throw error;
    }
  }

  private descendTo(index: number): PdfPage | undefined {
    if (!Number.isInteger(index) || index < 0) return undefined;
    const rootValue = this.catalog.dict.entries.get('Pages');
    let node = this.resolve(rootValue);
    let ref: PdfRef | undefined = rootValue?.kind === 'ref' ? rootValue : undefined;
    let remaining = index;
    const chain: PdfDict[] = [];
    for (let depth = 0; node.kind === 'dict'; depth++) {
      if (depth > MAX_PAGE_TREE_DEPTH) return undefined;
      chain.push(node);
      const kids = this.get(node, 'Kids');
      const type = this.get(node, 'Type');
      const isPage = isName(type, 'Page') || (!isName(type, 'Pages') && kids.kind !== 'array');
      if (isPage) {
        if (remaining !== 0 || !ref) return undefined;
        return this.pageFromChain(index, ref, chain);
      }
      if (kids.kind !== 'array') return undefined;
      let next: { node: PdfValue; ref: PdfRef } | undefined;
      for (const kid of kids.items) {
        if (kid.kind !== 'ref') return undefined;
        const kidNode = this.lookup(kid);
        if (kidNode.kind !== 'dict') return undefined;
        const kidKids = this.get(kidNode, 'Kids');
        const kidType = this.get(kidNode, 'Type');
        const kidIsPage = isName(kidType, 'Page') || (!isName(kidType, 'Pages') && kidKids.kind !== 'array');
        const count = kidIsPage ? 1 : this.get(kidNode, 'Count');
        const n = typeof count === 'number' ? count : count.kind === 'number' && Number.isInteger(count.value) && count.value >= 0 ? count.value : undefined;
        if (n === undefined) return undefined;
        if (remaining < n) {
          next = { node: kidNode, ref: kid };
          break;
        }
        remaining -= n;
      }
      if (!next) return undefined;
      node = next.node;
      ref = next.ref;
    }
    return undefined;
  }

  /** A page with the attributes it inherits along `chain` (root first, the page last). */
  private pageFromChain(index: number, ref: PdfRef, chain: readonly PdfDict[]): PdfPage {
    let mediaBox: PdfBox = DEFAULT_MEDIA_BOX;
    let cropBox: PdfBox | undefined;
    let rotate = 0;
    let resources: PdfDict | null = null;
    for (const node of chain) {
      mediaBox = this.readBox(node, 'MediaBox') ?? mediaBox;
      cropBox = this.readBox(node, 'CropBox') ?? cropBox;
      rotate = this.readRotate(node) ?? rotate;
      const own = this.get(node, 'Resources');
      if (own.kind === 'dict') resources = own;
    }
    const dict = chain.at(-1)!;
    const userUnit = this.get(dict, 'UserUnit');
    return {
      index,
      ref,
      dict,
      mediaBox,
      cropBox: clipBox(cropBox ?? mediaBox, mediaBox),
      rotate: (((rotate % 360) + 360) % 360) as 0 | 90 | 180 | 270,
      userUnit: userUnit.kind === 'number' && userUnit.value > 0 ? userUnit.value : 1,
      resources,
    };
  }

  private walkPages(): PdfPage[] {
    const rootValue = this.catalog.dict.entries.get('Pages');
    const root = this.resolve(rootValue);
    if (root.kind !== 'dict') throw new PdfStructureError('the document catalog has no page tree (/Pages)');
    const pages: PdfPage[] = [];
    const visited = new Set<number>();
    if (rootValue?.kind === 'ref') visited.add(rootValue.num);

    interface Inherited {
      mediaBox: PdfBox;
      cropBox: PdfBox | undefined;
      rotate: number;
      resources: PdfDict | null;
    }
    const visit = (node: PdfDict, ref: PdfRef | undefined, inherited: Inherited, depth: number) => {
      if (depth > MAX_PAGE_TREE_DEPTH) throw new PdfStructureError('the page tree is nested too deeply');
      const resources = this.get(node, 'Resources');
      const attributes: Inherited = {
        mediaBox: this.readBox(node, 'MediaBox') ?? inherited.mediaBox,
        cropBox: this.readBox(node, 'CropBox') ?? inherited.cropBox,
        rotate: this.readRotate(node) ?? inherited.rotate,
        resources: resources.kind === 'dict' ? resources : inherited.resources,
      };
      const type = this.get(node, 'Type');
      const kids = this.get(node, 'Kids');
      const isPage = isName(type, 'Page') || (!isName(type, 'Pages') && kids.kind !== 'array');
      if (!isPage) {
        if (kids.kind !== 'array') return; // an empty /Pages node
        for (const kid of kids.items) {
          if (kid.kind !== 'ref') throw new PdfStructureError(`a page tree node (${ref ? `object ${ref.num}` : 'the root'}) has a kid that is not a reference`);
          if (visited.has(kid.num)) throw new PdfStructureError(`the page tree reaches object ${kid.num} twice (a cycle or a shared kid)`);
          visited.add(kid.num);
          const kidNode = this.lookup(kid);
          if (kidNode.kind !== 'dict') throw new PdfStructureError(`page tree kid ${kid.num} ${kid.gen} R is not a dictionary`);
          visit(kidNode, kid, attributes, depth + 1);
        }
        return;
      }
      if (!ref) throw new PdfStructureError('the page tree root is a page written inline, which cannot be referred to');
      const { mediaBox } = attributes;
      const userUnit = this.get(node, 'UserUnit');
      pages.push({
        index: pages.length,
        ref,
        dict: node,
        mediaBox,
        cropBox: clipBox(attributes.cropBox ?? mediaBox, mediaBox),
        rotate: (((attributes.rotate % 360) + 360) % 360) as 0 | 90 | 180 | 270,
        userUnit: userUnit.kind === 'number' && userUnit.value > 0 ? userUnit.value : 1,
        resources: attributes.resources,
      });
    };
    visit(root, rootValue?.kind === 'ref' ? rootValue : undefined, { mediaBox: DEFAULT_MEDIA_BOX, cropBox: undefined, rotate: 0, resources: null }, 0);
    return pages;
  }

  /** A rectangle entry, normalised; undefined when absent or malformed (then it is inherited). */
  private readBox(dict: PdfDict, key: string): PdfBox | undefined {
    const value = this.get(dict, key);
    if (value.kind !== 'array' || value.items.length !== 4) return undefined;
    const numbers = value.items.map((item) => this.resolve(item));
    if (!numbers.every((item) => item.kind === 'number')) return undefined;
    const [x1, y1, x2, y2] = numbers.map((item) => (item.kind === 'number' ? item.value : 0)) as [number, number, number, number];
    if (x1 === 0 && y1 === 0 && x2 === 0 && y2 === 0) return undefined;
    return [Math.min(x1, x2), Math.min(y1, y2), Math.max(x1, x2), Math.max(y1, y2)];
  }

  /** /Rotate when it is a multiple of 90 (anything else is invalid and taken as 0). */
  private readRotate(dict: PdfDict): number | undefined {
    const value = this.get(dict, 'Rotate');
    if (value.kind !== 'number' || !Number.isInteger(value.value)) return undefined;
    return value.value % 90 === 0 ? value.value : 0;
  }
}

/** Poppler's rule: a crop box larger than the media box takes the media box's extent, then is clipped to it. */
function clipBox(box: PdfBox, to: PdfBox): PdfBox {
  let [x1, y1, x2, y2] = box;
  if (x2 - x1 > to[2] - to[0]) [x1, x2] = [to[0], to[2]];
  if (y2 - y1 > to[3] - to[1]) [y1, y2] = [to[1], to[3]];
  const clamp = (value: number, low: number, high: number) => Math.min(Math.max(value, low), high);
  return [clamp(x1, to[0], to[2]), clamp(y1, to[1], to[3]), clamp(x2, to[0], to[2]), clamp(y2, to[1], to[3])];
}
