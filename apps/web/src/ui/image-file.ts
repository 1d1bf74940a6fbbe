/**
 * The one check of an image picked for a tag (letterhead and image tags, spec §5): the kind of
 * file, its size, then its content, answering a data URL to keep in the tag's value.
 *
 * The kind is judged three ways, each able to refuse: the name's extension must be one the tag
 * accepts; the type the browser declares, when it declares one, must be that extension's; and
 * the first bytes must be a PNG or JPEG signature of that same kind. Some systems declare no
 * type at all, so the bytes are what finally decides: a PDF renamed to .png is refused however
 * it was declared.
 */

/** The two image formats tags take. */
export type ImageFormat = 'png' | 'jpeg';

// A Map, not an object: a name ending in .constructor must not find Object's own properties.
const FORMAT_OF_EXTENSION: ReadonlyMap<string, ImageFormat> = new Map([
  ['png', 'png'],
  ['jpg', 'jpeg'],
  ['jpeg', 'jpeg'],
]);
const MIME_OF_FORMAT: Readonly<Record<ImageFormat, string>> = { png: 'image/png', jpeg: 'image/jpeg' };

export interface ImageFileRule {
  /**
   * Accepted extensions, lower-case without the dot (LETTERHEAD_IMAGE_TYPES, IMAGE_TAG_FILE_TYPES).
   * `jpg` also admits `.jpeg`: it is the same format under its other usual name (spec §5 lists
   * jpg for image tags; a JPEG saved as .jpeg is still one).
   */
  readonly types: readonly string[];
  readonly maxBytes: number;
}

export type ImageFileProblem = 'wrongType' | 'tooLarge' | 'unreadable';

export type ImageFileCheck = { readonly ok: true; readonly dataUrl: string; readonly format: ImageFormat } | { readonly ok: false; readonly problem: ImageFileProblem };

/** The format a file name's extension says the file is in. */
function formatOfName(name: string): ImageFormat | undefined {
  return FORMAT_OF_EXTENSION.get(/\.([^.]+)$/.exec(name)?.[1]?.toLowerCase() ?? '');
}

/** The format an extension list admits (see ImageFileRule.types). */
function admittedFormats(types: readonly string[]): Set<ImageFormat> {
  const formats = new Set<ImageFormat>();
  for (const type of types) {
    const format = FORMAT_OF_EXTENSION.get(type.toLowerCase());
    if (format) formats.add(format);
  }
  return formats;
}

/** The file picker's `accept`: the extensions and their types, so the dialog offers only those. */
export function acceptOf(rule: Pick<ImageFileRule, 'types'>): string {
  const formats = admittedFormats(rule.types);
  const extensions = [...FORMAT_OF_EXTENSION].filter(([, format]) => formats.has(format)).map(([extension]) => `.${extension}`);
  // In a fixed order whatever order the rule lists them in.
  const types = (['png', 'jpeg'] as const).filter((format) => formats.has(format)).map((format) => MIME_OF_FORMAT[format]);
  return [...types, ...extensions].join(',');
}

/**
 * What can be told without reading the file: its kind by name and declared type, then its size
 * (a wrong kind is the more useful thing to hear about a file that is also too large).
 */
export function imageFileProblem(file: Pick<File, 'name' | 'type' | 'size'>, rule: ImageFileRule): Exclude<ImageFileProblem, 'unreadable'> | null {
  const format = formatOfName(file.name);
  if (!format || !admittedFormats(rule.types).has(format)) return 'wrongType';
  // Some browsers say image/jpg or image/pjpeg for a JPEG; any declared type of another kind refuses.
  const declared = file.type.toLowerCase();
  if (declared !== '' && declared !== MIME_OF_FORMAT[format] && !(format === 'jpeg' && (declared === 'image/jpg' || declared === 'image/pjpeg'))) {
    return 'wrongType';
  }
  if (file.size > rule.maxBytes) return 'tooLarge';
  return null;
}

/** The format the first bytes announce, if PNG or JPEG. */
export function sniffImageFormat(bytes: Uint8Array): ImageFormat | null {
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (bytes.length >= png.length && png.every((byte, index) => bytes[index] === byte)) return 'png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  return null;
}

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  // In slices: spreading half a megabyte into one call would overflow the argument stack.
  for (let offset = 0; offset < bytes.length; offset += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(offset, offset + 0x8000));
  }
  return btoa(binary);
}

function readBytes(file: Blob): Promise<Uint8Array> {
  // FileReader rather than Blob.arrayBuffer: every browser and jsdom has it.
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.onerror = () => reject(reader.error ?? new Error('unreadable'));
    reader.readAsArrayBuffer(file);
  });
}

/**
 * Check a picked file and read it. The data URL names the format the bytes are in (never what
 * the browser claimed), so what is stored is always a PNG or JPEG data URL.
 */
export async function readImageFile(file: File, rule: ImageFileRule): Promise<ImageFileCheck> {
  const problem = imageFileProblem(file, rule);
  if (problem) return { ok: false, problem };
  let bytes: Uint8Array;
  try {
    bytes = await readBytes(file);
  } catch {
    return { ok: false, problem: 'unreadable' };
  }
  const format = sniffImageFormat(bytes);
  if (!format || format !== formatOfName(file.name)) return { ok: false, problem: 'wrongType' };
  // The declared size was checked; this guards a file that grew between pick and read.
  if (bytes.length > rule.maxBytes) return { ok: false, problem: 'tooLarge' };
  return { ok: true, format, dataUrl: `data:${MIME_OF_FORMAT[format]};base64,${toBase64(bytes)}` };
}

/** KB as the spec counts them (1 KB = 1024 bytes, as LETTERHEAD_MAX_SIZE_BYTES assumes). */
export function kilobytes(kb: number): number {
  return kb * 1024;
}
