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
