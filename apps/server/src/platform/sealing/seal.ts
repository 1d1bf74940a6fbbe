import crypto from 'node:crypto';
import zlib from 'node:zlib';
import { appendRevision, ObjectAllocator, type RevisionObject } from '../pdf/incremental-writer';
import {
  pdfArray,
  pdfDict,
  pdfName,
  pdfNumber,
  pdfString,
  pdfTextString,
  serializeValue,
  type PdfDict,
  type PdfRef,
  type PdfValue,
} from '../pdf/objects';
import { certificationLevel, certificationRefusal } from '../pdf/certification';
import { openPdfFile, type PdfBox, type PdfFile } from '../pdf/pdf-file';
import { APPEARANCE_FONT, APPEARANCE_FONT_KEY, shownSizeOfRect, type Appearance, type Rotation, type UnicodeFontUse } from './appearance';
import { APPEARANCE_IMAGE_KEY, imageAppearance, imageXObject, withSoftMask } from './image';
import { SealError } from './seal-error';
import { embeddedFontObjects, type UnicodeFace } from './unicode-font';

/**
 * One signer's revision: a signature field whose widget shows `appearance`, and a PAdES
 * signature (/SubFilter /ETSI.CAdES.detached) over the whole new file but its /Contents. Only
 * annotations, the form and the page's /Annots change, and only by appending, so every earlier
 * signature keeps verifying.
 *
 * Hash-then-sign is the shape of the API: the caller's `sign` gets the SHA-256 digest of the
 * signed byte ranges and answers a DER CMS, made here with the tenant's seal (signing/cms.ts) or
 * elsewhere (a signer's own device), which is then embedded as it is.
 */

export { SealError };

export interface SignatureRequest {
  /** 0-based page index. */
  readonly pageIndex: number;
  /** The widget's rectangle in the page's user space: [llx, lly, urx, ury]. */
  readonly rect: PdfBox;
  /** What the signature box shows: text (name, date) or, with `image`, the drawn signature. */
  readonly appearance: Appearance;
  readonly image?: SealImage;
  /** The field's partial name; unique among the document's fields. */
  readonly fieldName: string;
  /** Who signs, as the signature dictionary's /Name. */
  readonly signerName: string;
  readonly reason?: string;
  readonly location?: string;
  readonly signedAt: Date;
}

/** A PNG or JPEG to draw (a drawn signature, an image tag, a letterhead). */
export interface SealImage {
  readonly data: Buffer;
  readonly format: 'png' | 'jpeg';
}

/**
 * A value the signer filled in, drawn into a field of its own in the same revision: filling
 * form fields is a change every approval signature allows, unlike writing into page content.
 */
export type FieldRequest =
  | {
      readonly kind: 'text';
      readonly pageIndex: number;
      readonly rect: PdfBox;
      readonly fieldName: string;
      readonly value: string;
      readonly appearance: Appearance;
    }
  | { readonly kind: 'image'; readonly pageIndex: number; readonly rect: PdfBox; readonly fieldName: string; readonly image: SealImage };

export interface SealOptions {
  readonly source: Buffer;
  /** Values of the signer's other tags, drawn as read-only fields in the same revision. */
  readonly fields?: readonly FieldRequest[];
  /** For a file encrypted with a user password other than the empty one. */
  readonly password?: string;
  readonly signature: SignatureRequest;
  /** Bytes reserved for the CMS: signing/cms.ts maxCmsSize for the certificates that will sign. */
  readonly cmsMaxSize: number;
  readonly sign: (digest: Buffer) => Buffer | Promise<Buffer>;
  /**
   * A SHA-256 that has taken in exactly `source` (the caller hashed it while reading it, to check
   * it): the signed ranges and the new file's digest go on from copies of it instead of hashing
   * the whole file again. Left as it is.
   */
  readonly sourceHash?: crypto.Hash;
  /**
   * `source` already opened (prepareForSealing's), without a password: sealing goes on from the
   * objects read there instead of parsing the file again. It must be `source` itself.
   */
  readonly file?: PdfFile;
}

export interface SealedRevision {
  /** What the revision appends to the source (storage may keep just this). */
  readonly tail: Buffer;
  /** The whole new file (source then tail), made on first use. */
  readonly bytes: Buffer;
  readonly byteRange: readonly [number, number, number, number];
  /** The digest that was signed. */
  readonly digest: Buffer;
  /** SHA-256 (hex) of the whole new file. */
  readonly sha256: string;
}

/** D:YYYYMMDDHHmmSSZ, the PDF date of an instant (7.9.4), in UTC. */
export function pdfDate(at: Date): string {
  const iso = at.toISOString();
  return `D:${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}Z`;
}

// The placeholder's numbers are written 10 digits wide and patched in place with the real ones
// (spaces pad the rest), so the dictionary's length never changes after offsets are known.
const BYTE_RANGE_PLACEHOLDER = '[0 0000000000 0000000000 0000000000]';

/**
 * The signature dictionary as exact bytes, with the offsets (within them) of the /ByteRange
 * array and of the /Contents hex string. Strings other than /Contents are encrypted in an
 * encrypted file; /Contents never is (7.6.2).
 */
function signatureDictionary(request: SignatureRequest, cmsMaxSize: number, encryptString: (bytes: Buffer) => Buffer): {
  raw: Buffer;
  byteRangeAt: number;
  contentsAt: number;
  contentsLength: number;
} {
  const text = (value: string) => {
    const plain = pdfTextString(value);
    return serializeValue(pdfString(encryptString(plain.bytes), true)).toString('latin1');
  };
  const head = [
    '<< /Type /Sig /Filter /Adobe.PPKLite /SubFilter /ETSI.CAdES.detached',
    `/M ${text(pdfDate(request.signedAt))}`,
    `/Name ${text(request.signerName)}`,
    ...(request.reason ? [`/Reason ${text(request.reason)}`] : []),
    ...(request.location ? [`/Location ${text(request.location)}`] : []),
    '/ByteRange ',
  ].join('\n');
  const contentsLength = 2 + cmsMaxSize * 2;
  const middle = `\n/Contents `;
  const tail = '\n>>';
  const raw = Buffer.from(`${head}${BYTE_RANGE_PLACEHOLDER}${middle}<${'0'.repeat(cmsMaxSize * 2)}>${tail}`, 'latin1');
  return { raw, byteRangeAt: head.length, contentsAt: head.length + BYTE_RANGE_PLACEHOLDER.length + middle.length, contentsLength };
}

/** The page's /Annots with more annotations: the array object rewritten, or the page itself. */
function addAnnotations(file: PdfFile, page: { ref: PdfRef; dict: PdfDict }, widgets: readonly PdfRef[]): RevisionObject {
  const annots = page.dict.entries.get('Annots');
  if (annots?.kind === 'ref') {
    const array = file.lookup(annots);
    const items = array.kind === 'array' ? array.items : [];
    return { ref: annots, value: pdfArray([...items, ...widgets]) };
  }
  const items = annots?.kind === 'array' ? annots.items : [];
  const dict = pdfDict(page.dict.entries);
  dict.entries.set('Annots', pdfArray([...items, ...widgets]));
  return { ref: page.ref, value: dict };
}

/** How a viewer that rebuilds a field's look draws Pakt's fields: the revision's Helvetica, sized to fit. */
const FIELD_DA = pdfString(`/${APPEARANCE_FONT_KEY} 0 Tf 0 g`);

/**
 * The form with more root fields and /SigFlags 3 (signatures exist, append only). Its resources
 * gain the font that the fields' /DA names. Its /NeedAppearances stays as it is: the form's own
 * fields may have no appearance, or a stale one, and are shown rebuilt from their values (the
 * corpus LibreOffice form's "Alice" is only there rebuilt); dropping the flag would hide them.
 */
function addFields(file: PdfFile, allocator: ObjectAllocator, added: readonly PdfRef[], daFont: PdfRef): RevisionObject[] {
  const form = file.acroForm();
  const withField = (dict: PdfDict): { dict: PdfDict; extra: RevisionObject[] } => {
    const copy = pdfDict(dict.entries);
    copy.entries.set('SigFlags', pdfNumber(3));
    copy.entries.set('DR', withDaFont(file, file.get(dict, 'DR'), daFont));
    const fields = dict.entries.get('Fields');
    if (fields?.kind === 'ref') {
      const array = file.lookup(fields);
      const items = array.kind === 'array' ? array.items : [];
      return { dict: copy, extra: [{ ref: fields, value: pdfArray([...items, ...added]) }] };
    }
    copy.entries.set('Fields', pdfArray([...(fields?.kind === 'array' ? fields.items : []), ...added]));
    return { dict: copy, extra: [] };
  };
  if (form?.ref) {
    const { dict, extra } = withField(form.dict);
    return [{ ref: form.ref, value: dict }, ...extra];
  }
  const catalog = pdfDict(file.catalog.dict.entries);
  if (form) {
    const { dict, extra } = withField(form.dict);
    catalog.entries.set('AcroForm', dict);
    return [{ ref: file.catalog.ref, value: catalog }, ...extra];
  }
  const formRef = allocator.allocate();
  catalog.entries.set('AcroForm', formRef);
  return [
    { ref: formRef, value: pdfDict([['Fields', pdfArray([...added])], ['SigFlags', pdfNumber(3)], ['DR', withDaFont(file, undefined, daFont)]]) },
    { ref: file.catalog.ref, value: catalog },
  ];
}

/** The form's default resources (a direct copy) with the fields' /DA font added beside the form's own. */
function withDaFont(file: PdfFile, resources: PdfValue | undefined, daFont: PdfRef): PdfDict {
  const copy = pdfDict(resources?.kind === 'dict' ? resources.entries : []);
  const fonts = resources?.kind === 'dict' ? file.get(resources, 'Font') : undefined;
  copy.entries.set('Font', pdfDict([...(fonts?.kind === 'dict' ? fonts.entries : []), [APPEARANCE_FONT_KEY, daFont]]));
  return copy;
}

/** Whether the form asks viewers to rebuild its fields' appearances from their values. */
function needsAppearances(file: PdfFile): boolean {
  const form = file.acroForm();
  const flag = form ? file.get(form.dict, 'NeedAppearances') : undefined;
  return flag?.kind === 'bool' && flag.value;
}

/** Refuses files whose author's certification forbids the fields a signing adds (DocMDP). */
function assertChangesAllowed(file: PdfFile): void {
  const refusal = certificationRefusal(certificationLevel(file));
  if (refusal) throw new SealError(refusal);
}

export async function sealRevision(options: SealOptions): Promise<SealedRevision> {
  if (options.file && options.file.buffer !== options.source) throw new Error('sealRevision: the opened file given is not the source');
  const file = options.file ?? openPdfFile(options.source, options.password === undefined ? {} : { password: options.password });
  assertChangesAllowed(file);
  const request = options.signature;

  const allocator = new ObjectAllocator(file);
  const fields = options.fields ?? [];
  const taken = new Set(file.signatureFields().map((field) => field.name));
  if (taken.has(request.fieldName)) throw new SealError(`The document already has a field named ${request.fieldName}.`);
  for (const field of fields) {
    if (field.fieldName === request.fieldName || taken.has(field.fieldName)) throw new SealError(`Two fields would be named ${field.fieldName}.`);
    taken.add(field.fieldName);
  }
  const objects: RevisionObject[] = [];
  let fontRef: PdfRef | undefined;
  const font = () => {
    if (!fontRef) {
      fontRef = allocator.allocate();
      objects.push({
        ref: fontRef,
        value: pdfDict([
          ['Type', pdfName('Font')],
          ['Subtype', pdfName('Type1')],
          ['BaseFont', pdfName(APPEARANCE_FONT)],
          ['Encoding', pdfName('WinAnsiEncoding')],
        ]),
      });
    }
    return fontRef;
  };
  // Embedded faces: one font object per face for the whole revision, written once every
  // appearance is made, with a subset of all the glyphs they draw.
  const unicodeFonts = new Map<UnicodeFace, { ref: PdfRef; glyphs: Map<number, string> }>();
  const unicodeFont = (use: UnicodeFontUse) => {
    let entry = unicodeFonts.get(use.face);
    if (!entry) {
      entry = { ref: allocator.allocate(), glyphs: new Map() };
      unicodeFonts.set(use.face, entry);
    }
    for (const [id, text] of use.glyphs) if (!entry.glyphs.get(id)) entry.glyphs.set(id, text);
    return entry.ref;
  };

  /** The appearance XObject of a widget: the text appearance given, or one drawing an image. */
  const appearanceObject = (drawn: { text: Appearance } | { image: SealImage }, rect: PdfBox, rotate: Rotation): PdfRef => {
    const ref = allocator.allocate();
    const resources = pdfDict();
    let appearance: Appearance;
    if ('image' in drawn) {
      const { image } = drawn;
      const xobject = imageXObject(image.data, image.format);
      const maskRef = xobject.mask ? allocator.allocate() : undefined;
      const imageRef = allocator.allocate();
      if (xobject.mask && maskRef) objects.push({ ref: maskRef, value: xobject.mask.dict, stream: xobject.mask.data });
      objects.push({ ref: imageRef, value: withSoftMask(xobject.image.dict, maskRef), stream: xobject.image.data });
      appearance = imageAppearance({ ...shownSizeOfRect(rect, rotate), rotate, image: xobject });
      resources.entries.set('XObject', pdfDict([[APPEARANCE_IMAGE_KEY, imageRef]]));
    } else {
      appearance = drawn.text;
      const fonts: Array<[string, PdfValue]> = [];
      if (appearance.usesFont) fonts.push([APPEARANCE_FONT_KEY, font()]);
      for (const use of appearance.unicodeFonts ?? []) fonts.push([use.face.resourceKey, unicodeFont(use)]);
      if (fonts.length) resources.entries.set('Font', pdfDict(fonts));
    }
    objects.push({
      ref,
      value: pdfDict([
        ['Type', pdfName('XObject')],
        ['Subtype', pdfName('Form')],
        ['BBox', pdfArray(appearance.bbox.map((n) => pdfNumber(n)))],
        ['Matrix', pdfArray(appearance.matrix.map((n) => pdfNumber(n)))],
        ['Resources', resources],
        ['Filter', pdfName('FlateDecode')],
      ]),
      stream: zlib.deflateSync(appearance.content),
    });
    return ref;
  };

  const pageOf = (index: number) => {
    const found = file.page(index);
    if (!found) throw new SealError(`The document has no page ${index + 1}.`);
    return found;
  };
  const annotsByPage = new Map<number, PdfRef[]>();
  const annotate = (pageIndex: number, ref: PdfRef) => annotsByPage.set(pageIndex, [...(annotsByPage.get(pageIndex) ?? []), ref]);
  // A form that asks viewers to rebuild its fields' looks (/NeedAppearances true): poppler (Evince,
  // Okular, pdftoppm) then draws every signature, text and image field from its value and /DA
  // alone, so Pakt's would show blank. There each value is drawn by a stamp annotation, which no
  // viewer rebuilds, with the appearance the signer approved; the field keeps the value in a
  // widget of no size (an invisible signature, for the signature).
  const rebuilt = needsAppearances(file);
  const addWidget = (pageIndex: number, entries: Array<[string, PdfValue]>, rect: PdfBox, appearance: PdfRef, rotate: Rotation, text: string): PdfRef => {
    const ref = allocator.allocate();
    const target = pageOf(pageIndex);
    const placed = (box: PdfBox): Array<[string, PdfValue]> => [
      // Print (4) and Locked (128): shown on paper, and not to be moved or deleted.
      ['F', pdfNumber(132)],
      ['P', target.ref],
      ['Rect', pdfArray(box.map((n) => pdfNumber(n)))],
      ['AP', pdfDict([['N', appearance]])],
    ];
    objects.push({
      ref,
      value: pdfDict([
        ['Type', pdfName('Annot')],
        ['Subtype', pdfName('Widget')],
        ...entries,
        ...placed(rebuilt ? [0, 0, 0, 0] : rect),
        ['MK', pdfDict([['R', pdfNumber(rotate)]])],
        ['DA', FIELD_DA],
      ]),
    });
    annotate(pageIndex, ref);
    if (rebuilt) {
      const stamp = allocator.allocate();
      objects.push({ ref: stamp, value: pdfDict([['Type', pdfName('Annot')], ['Subtype', pdfName('Stamp')], ...placed(rect), ['Contents', pdfTextString(text)]]) });
      annotate(pageIndex, stamp);
    }
    return ref;
  };

  // The signature: its dictionary (exact bytes, patched below) and its widget, which is the field.
  const signatureRef = allocator.allocate();
  const security = file.security;
  const sigDict = signatureDictionary(request, options.cmsMaxSize, (bytes) =>
    security ? security.encrypt(bytes, signatureRef.num, signatureRef.gen, 'string') : bytes,
  );
  objects.push({ ref: signatureRef, value: pdfDict(), raw: sigDict.raw });
  const signaturePage = pageOf(request.pageIndex);
  const added: PdfRef[] = [
    addWidget(
      request.pageIndex,
      [
        ['FT', pdfName('Sig')],
        ['T', pdfTextString(request.fieldName)],
        ['V', signatureRef],
      ],
      request.rect,
      appearanceObject(request.image ? { image: request.image } : { text: request.appearance }, request.rect, signaturePage.rotate),
      signaturePage.rotate,
      `Signed by ${request.signerName}`,
    ),
  ];
  for (const field of fields) {
    const rotate = pageOf(field.pageIndex).rotate;
    const isText = field.kind === 'text';
    const appearance = appearanceObject(isText ? { text: field.appearance } : { image: field.image }, field.rect, rotate);
    added.push(
      addWidget(
        field.pageIndex,
        isText
          ? [
              ['FT', pdfName('Tx')],
              ['T', pdfTextString(field.fieldName)],
              ['V', pdfTextString(field.value)],
              // Read only: the value is what the signer signed.
              ['Ff', pdfNumber(1)],
            ]
          : [
              // A push button is the form's way of showing an image; read only as well.
              ['FT', pdfName('Btn')],
              ['T', pdfTextString(field.fieldName)],
              ['Ff', pdfNumber(65536 + 1)],
            ],
        field.rect,
        appearance,
        rotate,
        isText ? field.value : field.fieldName,
      ),
    );
  }
  for (const [face, { ref, glyphs }] of unicodeFonts) objects.push(...embeddedFontObjects(face, glyphs, ref, () => allocator.allocate()));
  for (const [pageIndex, annots] of annotsByPage) objects.push(addAnnotations(file, pageOf(pageIndex), annots));
  objects.push(...addFields(file, allocator, added, font()));

  const { tail, offsets } = appendRevision({ file, source: options.source, objects, allocator });
  const total = options.source.length + tail.length;
  const objectStart = offsets.get(signatureRef.num)!;
  const rawStart = objectStart + `${signatureRef.num} ${signatureRef.gen} obj\n`.length;
  const contentsStart = rawStart + sigDict.contentsAt;
  const contentsEnd = contentsStart + sigDict.contentsLength;
  const byteRange = [0, contentsStart, contentsEnd, total - contentsEnd] as const;
  const written = `[${byteRange.join(' ')}]`;
  if (written.length > BYTE_RANGE_PLACEHOLDER.length) throw new SealError('The document is too large to sign.');
  // The signature dictionary is in the tail, so all patching happens there.
  const inTail = (offset: number) => offset - options.source.length;
  tail.write(written.padEnd(BYTE_RANGE_PLACEHOLDER.length, ' '), inTail(rawStart + sigDict.byteRangeAt), 'latin1');

  const sourceHash = options.sourceHash?.copy() ?? crypto.createHash('sha256').update(options.source);
  const digest = sourceHash
    .copy()
    .update(tail.subarray(0, inTail(contentsStart)))
    .update(tail.subarray(inTail(contentsEnd)))
    .digest();
  const cms = await options.sign(digest);
  if (cms.length > options.cmsMaxSize) {
    throw new SealError(`The signature is ${cms.length} bytes, more than the ${options.cmsMaxSize} reserved for it.`);
  }
  tail.write(cms.toString('hex').toUpperCase(), inTail(contentsStart) + 1, 'latin1');
  const sha256 = sourceHash.update(tail).digest('hex');
  let whole: Buffer | undefined;
  const source = options.source;
  return {
    tail,
    get bytes() {
      whole ??= Buffer.concat([source, tail]);
      return whole;
    },
    byteRange,
    digest,
    sha256,
  };
}
