import { z } from 'zod';
import { ALLOWED_DOCUMENT_FORMATS, type DocumentFormat } from './constants/ui';

/**
 * Characters no file name may hold (spec §5: -67): path separators, the ones Windows refuses,
 * and control characters. A name travels into archives, downloads and mail, so it must be safe
 * everywhere it lands.
 */
// eslint-disable-next-line no-control-regex
const INVALID_FILE_NAME = /[\\/:*?"<>|\u0000-\u001f\u007f]/;
export const FILE_NAME_MAX_LENGTH = 200;

export type FileNameProblem = 'empty' | 'tooLong' | 'invalidCharacter' | 'dotsOnly';

export function fileNameProblem(name: string): FileNameProblem | null {
  const trimmed = name.trim();
  if (trimmed.length === 0) return 'empty';
  if (trimmed.length > FILE_NAME_MAX_LENGTH) return 'tooLong';
  if (INVALID_FILE_NAME.test(trimmed)) return 'invalidCharacter';
  if (/^\.+$/.test(trimmed)) return 'dotsOnly';
  return null;
}

/** A document name: trimmed, with no character of the -67 rule, at most 200 characters. */
export const DocumentName = z
  .string()
  .trim()
  .min(1)
  .max(FILE_NAME_MAX_LENGTH)
  .refine((name) => fileNameProblem(name) === null, { message: 'invalid character in file name' });

/** File extensions that mean a format of spec §5 other than by name (JPEG 2000 has several). */
const EXTENSION_ALIASES: Record<string, DocumentFormat> = { jp2: 'jpeg2000', j2k: 'jpeg2000', jpf: 'jpeg2000', jpx: 'jpeg2000', j2c: 'jpeg2000' };

/** The format a file name claims, or null when its extension is none of spec §5's. */
export function documentFormatOf(fileName: string): DocumentFormat | null {
  const dot = fileName.lastIndexOf('.');
  if (dot <= 0 || dot === fileName.length - 1) return null;
  const extension = fileName.slice(dot + 1).toLowerCase();
  if ((ALLOWED_DOCUMENT_FORMATS as readonly string[]).includes(extension)) return extension as DocumentFormat;
  return EXTENSION_ALIASES[extension] ?? null;
}

export const IMAGE_DOCUMENT_FORMATS = ['jpg', 'jpeg', 'jpeg2000', 'png', 'bmp', 'tiff', 'tif', 'gif'] as const satisfies readonly DocumentFormat[];
/** Converted by LibreOffice when it is installed (the server answers -48 otherwise). */
export const OFFICE_DOCUMENT_FORMATS = ['doc', 'docx', 'xls', 'xlsx', 'ppt', 'pptx', 'xml'] as const satisfies readonly DocumentFormat[];

export type DocumentKind = 'pdf' | 'image' | 'office';

export function documentKindOf(format: DocumentFormat): DocumentKind {
  if (format === 'pdf') return 'pdf';
  if ((IMAGE_DOCUMENT_FORMATS as readonly string[]).includes(format)) return 'image';
  return 'office';
}

/**
 * One page as a person sees it before rotation: the visible box (the crop box within the media
 * box) in PDF points, its origin, and the page's /Rotate. Tags are placed relative to this box.
 */
export const PageGeometry = z.object({
  width: z.number().positive(),
  height: z.number().positive(),
  /** Lower-left corner of the visible box in PDF user space (non-zero when a crop box moves it). */
  x: z.number(),
  y: z.number(),
  rotate: z.union([z.literal(0), z.literal(90), z.literal(180), z.literal(270)]),
});
export type PageGeometry = z.infer<typeof PageGeometry>;

/** The size a page shows at, rotation applied: what the viewer draws. */
export function displayedSize(page: Pick<PageGeometry, 'width' | 'height' | 'rotate'>): { width: number; height: number } {
  return page.rotate === 90 || page.rotate === 270 ? { width: page.height, height: page.width } : { width: page.width, height: page.height };
}

/** /Rotate may be any multiple of 90, negative too; the page shows one of four ways. */
export function normalizeRotation(rotate: number): PageGeometry['rotate'] {
  const quarter = ((Math.round(rotate / 90) % 4) + 4) % 4;
  return (quarter * 90) as PageGeometry['rotate'];
}

/**
 * A signature a PDF already carried when it was uploaded (issue 20, defect 5). `integrity`:
 * intact (the bytes it covers are the bytes that were signed, and it verifies with its own
 * certificate), broken, or unverifiable (a kind Pakt cannot check). `problem` says why it is not
 * intact. Trust in the certificate is not judged here: only the bytes.
 */
export const ExistingSignature = z.object({
  fieldName: z.string(),
  signerName: z.string().nullable(),
  signedAt: z.iso.datetime().nullable(),
  reason: z.string().nullable(),
  subFilter: z.string().nullable(),
  integrity: z.enum(['intact', 'broken', 'unverifiable']),
  problem: z.string().nullable(),
  /** It covers the file to its end: nothing was added after it. */
  coversWholeFile: z.boolean(),
  /** Bytes added after it without a signature, and the revisions they make. */
  unsignedBytesAfter: z.number().int().nonnegative(),
  revisionsAfter: z.number().int().nonnegative(),
});
export type ExistingSignature = z.infer<typeof ExistingSignature>;

/**
 * The signatures of an uploaded PDF and the verdict on them: unsigned; intact (each checks out
 * and the last covers the whole file); changedAfterSigning (each checks out, but the file was
 * changed after the last without a signature); broken (one does not check out, or its byte range
 * leaves out more than its own value); unverifiable (one is of a kind Pakt cannot check).
 */
export const DocumentSignatureState = z.object({
  status: z.enum(['unsigned', 'intact', 'changedAfterSigning', 'broken', 'unverifiable']),
  signatures: z.array(ExistingSignature),
});
export type DocumentSignatureState = z.infer<typeof DocumentSignatureState>;

/** Whether signing over this state would seal a file whose earlier signatures do not hold: told to people, refused by a tenant that asks. */
export const signatureStateIsDoubtful = (state: DocumentSignatureState | null | undefined): boolean =>
  state !== null && state !== undefined && (state.status === 'broken' || state.status === 'changedAfterSigning');
