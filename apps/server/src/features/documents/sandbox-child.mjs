// @ts-check
/**
 * Runs in a child process of its own (documents/sandbox.ts starts it), because everything here
 * parses a stranger's file: pdf.js and the image decoders may be led to allocate without end or
 * loop for long. The parent bounds this process's heap, resident memory and time, and kills it
 * when it goes over; the server itself never parses an untrusted document.
 *
 * Plain JavaScript (type-checked through JSDoc) on purpose: a child starts for every upload, and
 * under the TypeScript loader pdf.js alone takes seconds to load instead of a fraction of one.
 * For the same reason each mode loads only the libraries it needs.
 *
 * Inspection never holds the file whole: pdf.js reads it by ranges, from the file on disk, only
 * the parts it parses (the cross-reference, the catalog, the page tree, the pages and their
 * annotations), and the look for /Encrypt passes over it 1 MB at a time, so a 100 MB file costs
 * this process what its structure costs, not its size.
 * Conversions and merges still read their inputs whole: pdf-lib needs every byte in memory.
 *
 * Input: the job as JSON in argv[2]. Output: one JSON line on stdout (sandbox-protocol.ts).
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';

/** @typedef {import('./sandbox-protocol').SandboxFailure} SandboxFailure */
/** @typedef {import('./sandbox-protocol').InspectResult} InspectResult */
/** @typedef {import('./sandbox-protocol').WriteResult} WriteResult */
/** @typedef {import('./sandbox-protocol').SandboxJob} SandboxJob */
/** @typedef {import('@pakt/domain').PageGeometry} PageGeometry */
/** @typedef {import('@pakt/domain').PreconfiguredTag} PreconfiguredTag */
/** @typedef {{ width: number, height: number }} Size */
/** @typedef {{ width: number, height: number, rgba: Uint8Array }} Raster */
/** @typedef {import('pdfjs-dist/types/src/display/api').DocumentInitParameters} DocumentSource */

/** Images beyond this many pixels are refused before decoding: a few bytes can claim gigapixels. */
const MAX_IMAGE_PIXELS = 80_000_000;
/** An image larger than A4 at 72 dpi is scaled down to fit it; smaller ones keep their size. */
const A4 = { short: 595.28, long: 841.89 };
/**
 * pdf.js asks for the file in slices of this size and keeps only the slices it asked for: small
 * enough that a page tree or a cross-reference table costs little more than its own bytes, large
 * enough that a table spread over a few hundred KB is not asked for in hundreds of round trips.
 */
const RANGE_CHUNK_BYTES = 128 * 1024;
/** The scan for /Encrypt reads the file this much at a time. */
const SCAN_BYTES = 1024 * 1024;
const NOT_A_PDF = 'The file is not a readable PDF: it is damaged or not a PDF at all.';

/**
 * @param {SandboxFailure['reason']} reason
 * @param {string} message
 * @returns {SandboxFailure}
 */
const fail = (reason, message) => ({ ok: false, reason, message });

/**
 * /Rotate may be any multiple of 90, negative too (the domain's normalizeRotation, kept local).
 * @param {number} rotate
 * @returns {PageGeometry['rotate']}
 */
function quarterTurns(rotate) {
  return /** @type {PageGeometry['rotate']} */ ((((Math.round(rotate / 90) % 4) + 4) % 4) * 90);
}

/** @type {Record<string, PreconfiguredTag['fieldType']>} */
const FIELD_TYPES = { Tx: 'text', Ch: 'choice', Sig: 'signature' };

/**
 * @typedef {{ fieldType?: string, fieldName?: string, rect?: number[], readOnly?: boolean, required?: boolean,
 *   fieldValue?: unknown, checkBox?: boolean, radioButton?: boolean }} Annotation
 */

/**
 * @param {Annotation} annotation
 * @returns {PreconfiguredTag['fieldType'] | undefined}
 */
function fieldTypeOf(annotation) {
  if (annotation.fieldType === 'Btn') {
    if (annotation.checkBox) return 'checkbox';
    if (annotation.radioButton) return 'radio';
    return 'button';
  }
  return annotation.fieldType ? FIELD_TYPES[annotation.fieldType] : undefined;
}

/**
 * Whether the file holds `needle` anywhere, read one slice at a time: the last bytes of each slice
 * are carried into the next, so a match across two slices is found too. Memory: one slice.
 * @param {number} fd
 * @param {string} needle
 */
function fileIncludes(fd, needle) {
  const pattern = Buffer.from(needle, 'latin1');
  const carry = pattern.length - 1;
  const buffer = Buffer.allocUnsafe(SCAN_BYTES + carry);
  let kept = 0;
  let position = 0;
  for (;;) {
    const read = fs.readSync(fd, buffer, kept, SCAN_BYTES, position);
    if (read === 0) return false;
    const filled = kept + read;
    if (buffer.subarray(0, filled).includes(pattern)) return true;
    kept = Math.min(carry, filled);
    buffer.copy(buffer, 0, filled - kept, filled);
    position += read;
  }
}

/**
 * @param {number} fd
 * @param {number} begin
 * @param {number} end
 */
function readRange(fd, begin, end) {
  // A Uint8Array of its own (not a slice of Node's pool): pdf.js takes its whole buffer.
  const bytes = new Uint8Array(end - begin);
  const read = fs.readSync(fd, bytes, 0, bytes.length, begin);
  if (read !== bytes.length) throw new Error(`short read at ${begin}`);
  return bytes;
}

/**
 * pdf.js's source for a file read by ranges: the first slice at once (the header is always
 * read), every other slice when pdf.js asks for it. disableAutoFetch keeps pdf.js from fetching
 * the rest in the background, disableStream from reading the file front to back.
 * @param {typeof import('pdfjs-dist/legacy/build/pdf.mjs')} pdfjs
 * @param {number} fd
 * @param {number} size
 * @param {{ closed: boolean }} state  set once the document is done with: a late read is dropped
 */
function rangeSource(pdfjs, fd, size, state) {
  const transport = new pdfjs.PDFDataRangeTransport(size, readRange(fd, 0, Math.min(size, RANGE_CHUNK_BYTES)));
  transport.requestDataRange = (begin, end) => {
    const chunk = new Uint8Array(end - begin);
    fs.read(fd, chunk, 0, chunk.length, begin, (error, read) => {
      if (state.closed) return;
      // The file is our own scratch copy and does not change; a failed read ends the job plainly
      // rather than leaving pdf.js to wait for the time limit.
      if (error || read !== chunk.length) answer(fail('invalid', 'The file could not be read.'));
      else transport.onDataRange(begin, chunk);
    });
  };
  return { range: transport, rangeChunkSize: RANGE_CHUNK_BYTES, disableAutoFetch: true, disableStream: true };
}

/**
 * pdf.js, by default without the canvas library it draws with. At import it requires
 * @napi-rs/canvas (Skia: some 40 MB resident in every child) and takes DOMMatrix, ImageData and
 * Path2D from it, but inspection draws nothing. Inert stand-ins are put where Node's require finds
 * them first (require.cache, which Node documents as writable) and on the global object, so a
 * drawing call would throw, never draw.
 * @param {{ canvas: boolean }} options  canvas: load it as before (the bench's whole-file side)
 */
async function loadPdfjs(options) {
  const module = 'pdfjs-dist/legacy/build/pdf.mjs';
  if (!options.canvas) {
    class Inert {}
    const standIns = { DOMMatrix: Inert, ImageData: Inert, Path2D: Inert };
    // Resolved from pdf.js's own place, as its require does.
    const fromPdfjs = createRequire(createRequire(import.meta.url).resolve(module));
    try {
      const filename = fromPdfjs.resolve('@napi-rs/canvas');
      fromPdfjs.cache[filename] = /** @type {NodeJS.Module} */ (/** @type {unknown} */ ({ id: filename, filename, loaded: true, exports: standIns, children: [], paths: [] }));
    } catch {
      // Not installed: pdf.js says so and goes on with the globals below.
    }
    for (const [name, value] of Object.entries(standIns)) if (!Reflect.has(globalThis, name)) Reflect.set(globalThis, name, value);
  }
  return import('pdfjs-dist/legacy/build/pdf.mjs');
}

/**
 * @param {string} input
 * @param {number} maxPages
 * @param {boolean} wholeFile  the former way, the file read into memory whole and pdf.js loaded
 *   with its canvas library (kept for the upload bench's side-by-side comparison, bench/src/upload.ts)
 * @returns {Promise<InspectResult>}
 */
async function inspect(input, maxPages, wholeFile) {
  // The legacy build runs on Node 20; eval stays off whatever the file asks for.
  const pdfjs = await loadPdfjs({ canvas: wholeFile });
  const state = { closed: false };
  const fd = fs.openSync(input, 'r');
  try {
    /** @type {DocumentSource} */
    let source;
    /** An /Encrypt entry in a trailer: pdf.js decrypts empty-password files without saying so. */
    let encrypted;
    if (wholeFile) {
      const bytes = fs.readFileSync(fd);
      encrypted = bytes.includes('/Encrypt');
      source = { data: new Uint8Array(bytes) };
    } else {
      const { size } = fs.fstatSync(fd);
      if (size === 0) return fail('invalid', NOT_A_PDF);
      // One pass front to back, a slice at a time, as hashing is: the file is never held whole.
      encrypted = fileIncludes(fd, '/Encrypt');
      source = rangeSource(pdfjs, fd, size, state);
    }
    return await inspectDocument(pdfjs, source, maxPages, encrypted);
  } finally {
    state.closed = true;
    fs.closeSync(fd);
  }
}

/**
 * @param {typeof import('pdfjs-dist/legacy/build/pdf.mjs')} pdfjs
 * @param {DocumentSource} source
 * @param {number} maxPages
 * @param {boolean} encrypted
 * @returns {Promise<InspectResult>}
 */
async function inspectDocument(pdfjs, source, maxPages, encrypted) {
  let document;
  try {
    document = await pdfjs.getDocument({
      ...source,
      isEvalSupported: false,
      disableFontFace: true,
      useSystemFonts: false,
      verbosity: 0,
    }).promise;
  } catch (error) {
    if (error instanceof Error && error.name === 'PasswordException') {
      return fail('password', 'The PDF is protected by a password, so it cannot be opened to be signed. Upload it without the password.');
    }
    return fail('invalid', NOT_A_PDF);
  }
  try {
    if (document.numPages < 1) return fail('invalid', 'The PDF has no pages.');
    if (document.numPages > maxPages) {
      return fail('tooManyPages', `The PDF has ${document.numPages} pages; at most ${maxPages} are accepted.`);
    }
    /** @type {PageGeometry[]} */
    const pages = [];
    /** @type {PreconfiguredTag[]} */
    const formFields = [];
    for (let number = 1; number <= document.numPages; number++) {
      const page = await document.getPage(number);
      const [x0 = 0, y0 = 0, x1 = 0, y1 = 0] = page.view;
      /** @type {PageGeometry} */
      const geometry = {
        x: Math.min(x0, x1),
        y: Math.min(y0, y1),
        width: Math.abs(x1 - x0),
        height: Math.abs(y1 - y0),
        rotate: quarterTurns(page.rotate),
      };
      if (!(geometry.width > 0 && geometry.height > 0)) return fail('invalid', `Page ${number} has no area.`);
      pages.push(geometry);
      for (const annotation of /** @type {Annotation[]} */ (await page.getAnnotations())) {
        const fieldType = fieldTypeOf(annotation);
        if (!fieldType || !annotation.rect || annotation.rect.length !== 4) continue;
        const [ax0 = 0, ay0 = 0, ax1 = 0, ay1 = 0] = annotation.rect;
        const value = annotation.fieldValue;
        formFields.push({
          name: String(annotation.fieldName ?? ''),
          fieldType,
          pageNumber: number,
          positionX: Math.min(ax0, ax1) - geometry.x,
          // Tags measure from the top of the visible box; PDF space measures from the bottom.
          positionY: geometry.y + geometry.height - Math.max(ay0, ay1),
          blockWidth: Math.abs(ax1 - ax0),
          blockHeight: Math.abs(ay1 - ay0),
          value: typeof value === 'string' ? value : Array.isArray(value) ? value.join(', ') : null,
          required: !!annotation.required,
          readOnly: !!annotation.readOnly,
        });
      }
      page.cleanup();
    }
    return { ok: true, pageCount: document.numPages, pages, encrypted, formFields };
  } finally {
    await document.destroy();
  }
}

/**
 * @param {number} width
 * @param {number} height
 * @returns {SandboxFailure | null}
 */
function checkPixels(width, height) {
  if (!(width > 0 && height > 0)) return fail('invalid', 'The image has no pixels.');
  if (width * height > MAX_IMAGE_PIXELS) {
    return fail('tooLarge', `The image is ${width} x ${height} pixels; at most ${MAX_IMAGE_PIXELS / 1_000_000} megapixels are accepted.`);
  }
  return null;
}

/**
 * @param {Buffer} bytes
 * @returns {Size | null}
 */
function pngDimensions(bytes) {
  if (bytes.length < 24 || bytes.toString('ascii', 12, 16) !== 'IHDR') return null;
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/**
 * JPEG 2000 goes into the PDF as it is (JPXDecode); only its size is read, from the JP2 ihdr box
 * or the codestream's SIZ marker.
 * @param {Buffer} bytes
 * @returns {Size | null}
 */
function jpeg2000Dimensions(bytes) {
  const ihdr = bytes.indexOf('ihdr');
  if (ihdr >= 4 && ihdr + 12 <= bytes.length) return { height: bytes.readUInt32BE(ihdr + 4), width: bytes.readUInt32BE(ihdr + 8) };
  const siz = bytes.indexOf(Buffer.from([0xff, 0x51]));
  if (siz >= 0 && siz + 22 <= bytes.length) {
    return { width: bytes.readUInt32BE(siz + 6) - bytes.readUInt32BE(siz + 14), height: bytes.readUInt32BE(siz + 10) - bytes.readUInt32BE(siz + 18) };
  }
  return null;
}

/**
 * GIF, BMP and TIFF decoded to pixels (PNG and JPEG go into the PDF as they are).
 * @param {Buffer} bytes
 * @param {string} format
 * @returns {Promise<Raster[] | SandboxFailure>}
 */
async function decodeRasters(bytes, format) {
  if (format === 'gif') {
    const { GifReader } = await import('omggif');
    const reader = new GifReader(bytes);
    const problem = checkPixels(reader.width, reader.height);
    if (problem) return problem;
    const rgba = new Uint8Array(reader.width * reader.height * 4);
    // A document page shows one picture: the first frame of an animation.
    reader.decodeAndBlitFrameRGBA(0, rgba);
    return [{ width: reader.width, height: reader.height, rgba }];
  }
  if (format === 'bmp') {
    if (bytes.length < 26) return fail('invalid', 'The BMP image is damaged.');
    const problem = checkPixels(Math.abs(bytes.readInt32LE(18)), Math.abs(bytes.readInt32LE(22)));
    if (problem) return problem;
    const bmp = await import('bmp-js');
    const image = bmp.decode(bytes);
    // bmp-js gives ABGR; PNG wants RGBA.
    const rgba = new Uint8Array(image.width * image.height * 4);
    for (let i = 0; i < rgba.length; i += 4) {
      rgba[i] = image.data[i + 3] ?? 0;
      rgba[i + 1] = image.data[i + 2] ?? 0;
      rgba[i + 2] = image.data[i + 1] ?? 0;
      rgba[i + 3] = 255;
    }
    return [{ width: image.width, height: image.height, rgba }];
  }
  // TIFF: every page of a multi-page scan becomes a page.
  const UTIF = (await import('utif2')).default;
  const ifds = UTIF.decode(bytes).filter((ifd) => ifd['t256'] && ifd['t257']);
  if (ifds.length === 0) return fail('invalid', 'The TIFF image has no pictures in it.');
  /** @type {Raster[]} */
  const rasters = [];
  for (const ifd of ifds) {
    const width = Number(/** @type {number[]} */ (ifd['t256'])[0]);
    const height = Number(/** @type {number[]} */ (ifd['t257'])[0]);
    const problem = checkPixels(width, height);
    if (problem) return problem;
    UTIF.decodeImage(bytes, ifd);
    rasters.push({ width, height, rgba: UTIF.toRGBA8(ifd) });
  }
  return rasters;
}

/**
 * Page size for an image: its size at 72 dpi, scaled down to fit A4 (turned to match) when larger.
 * @param {Size} image
 * @returns {Size}
 */
function pageSizeFor(image) {
  const landscape = image.width > image.height;
  const box = landscape ? { width: A4.long, height: A4.short } : { width: A4.short, height: A4.long };
  const scale = Math.min(1, box.width / image.width, box.height / image.height);
  return { width: image.width * scale, height: image.height * scale };
}

/**
 * @param {string} input
 * @param {string} format
 * @param {string} output
 * @returns {Promise<WriteResult>}
 */
async function imageToPdf(input, format, output) {
  const { concatTransformationMatrix, drawObject, PDFDocument, popGraphicsState, pushGraphicsState } = await import('pdf-lib');
  const bytes = fs.readFileSync(input);
  const pdf = await PDFDocument.create();
  /** @param {Size} image */
  const addPage = (image) => {
    const size = pageSizeFor(image);
    return { page: pdf.addPage([size.width, size.height]), size };
  };
  try {
    if (format === 'jpg' || format === 'jpeg' || format === 'png') {
      if (format === 'png') {
        const dims = pngDimensions(bytes);
        if (!dims) return fail('invalid', 'The PNG image is damaged.');
        const problem = checkPixels(dims.width, dims.height);
        if (problem) return problem;
      }
      // A copy that starts at offset 0: pdf-lib reads through a DataView that ignores a Buffer's
      // offset into Node's shared pool.
      const own = new Uint8Array(bytes);
      const image = format === 'png' ? await pdf.embedPng(own) : await pdf.embedJpg(own);
      const problem = checkPixels(image.width, image.height);
      if (problem) return problem;
      const { page, size } = addPage(image);
      page.drawImage(image, { x: 0, y: 0, ...size });
    } else if (format === 'jpeg2000') {
      const dims = jpeg2000Dimensions(bytes);
      if (!dims) return fail('invalid', 'The JPEG 2000 image is damaged.');
      const problem = checkPixels(dims.width, dims.height);
      if (problem) return problem;
      const ref = pdf.context.register(
        pdf.context.stream(new Uint8Array(bytes), { Type: 'XObject', Subtype: 'Image', Width: dims.width, Height: dims.height, Filter: 'JPXDecode' }),
      );
      const { page, size } = addPage(dims);
      const name = page.node.newXObject('Im', ref);
      page.pushOperators(pushGraphicsState(), concatTransformationMatrix(size.width, 0, 0, size.height, 0, 0), drawObject(name), popGraphicsState());
    } else {
      const rasters = await decodeRasters(bytes, format);
      if (!Array.isArray(rasters)) return rasters;
      const { PNG } = await import('pngjs');
      for (const raster of rasters) {
        const png = new PNG({ width: raster.width, height: raster.height });
        png.data = Buffer.from(raster.rgba.buffer, raster.rgba.byteOffset, raster.rgba.byteLength);
        const image = await pdf.embedPng(new Uint8Array(PNG.sync.write(png)));
        const { page, size } = addPage(raster);
        page.drawImage(image, { x: 0, y: 0, ...size });
      }
    }
  } catch {
    return fail('invalid', `The ${format.toUpperCase()} image is damaged or is not really a ${format.toUpperCase()} file.`);
  }
  fs.writeFileSync(output, await pdf.save());
  return { ok: true };
}

/**
 * New content only: the merged PDF is a new document; the originals are not touched.
 * @param {string[]} inputs
 * @param {string} output
 * @returns {Promise<WriteResult>}
 */
async function merge(inputs, output) {
  const { PDFDocument } = await import('pdf-lib');
  const merged = await PDFDocument.create();
  for (const [index, input] of inputs.entries()) {
    const bytes = fs.readFileSync(input);
    // A merged copy is a re-save: a signature in it would no longer verify. Signed documents
    // travel as they are, so they are never merged.
    if (bytes.includes('/ByteRange')) {
      return fail('unsupported', `Document ${index + 1} is digitally signed, and merging would break its signatures. Send it as a separate document.`);
    }
    let source;
    try {
      source = await PDFDocument.load(new Uint8Array(bytes), { updateMetadata: false });
    } catch (error) {
      if (error instanceof Error && /encrypted/i.test(error.message)) {
        return fail('unsupported', `Document ${index + 1} is encrypted, and encrypted documents cannot be merged. Send them as separate documents.`);
      }
      return fail('invalid', `Document ${index + 1} could not be read for merging.`);
    }
    const pages = await merged.copyPages(source, source.getPageIndices());
    for (const page of pages) merged.addPage(page);
  }
  fs.writeFileSync(output, await merged.save());
  return { ok: true };
}

/**
 * @param {SandboxJob} job
 * @returns {Promise<InspectResult | WriteResult>}
 */
async function run(job) {
  switch (job.mode) {
    case 'inspect':
      return inspect(job.input, job.maxPages, job.wholeFile ?? false);
    case 'image':
      return imageToPdf(job.input, job.format, job.output);
    case 'merge':
      return merge(job.inputs, job.output);
  }
}

let answered = false;

/**
 * Writes the one answer and exits once it has gone out. Writes to a pipe are synchronous on Linux,
 * but not on every platform Node runs on, where exiting straight after write() can cut an answer
 * longer than the pipe's buffer (64 KB), as a PDF with thousands of form fields gives.
 * @param {InspectResult | WriteResult} result
 */
function answer(result) {
  if (answered) return;
  answered = true;
  process.stdout.write(`${JSON.stringify(result)}\n`, () => process.exit(0));
}

run(/** @type {SandboxJob} */ (JSON.parse(process.argv[2] ?? '{}')))
  .then(answer)
  .catch((/** @type {unknown} */ error) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    answer(fail('invalid', 'The file could not be read.'));
  });
