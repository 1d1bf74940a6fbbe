import type { DocumentFormat } from '@pakt/domain';

/** What a file's first bytes say it is, whatever its name claims. */
export type ContentFamily = 'pdf' | 'png' | 'jpeg' | 'gif' | 'bmp' | 'tiff' | 'jpeg2000' | 'ole' | 'zip' | 'xml' | 'rtf' | 'unknown';

/** How many leading bytes sniffing needs: PDF allows junk before its header (we allow 1 KiB). */
export const SNIFF_BYTES = 1024;

const startsWith = (head: Buffer, bytes: number[], at = 0) => head.length >= at + bytes.length && bytes.every((b, i) => head[at + i] === b);

export function sniffContent(head: Buffer): ContentFamily {
  if (head.subarray(0, SNIFF_BYTES).includes('%PDF-')) return 'pdf';
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith(head, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (head.toString('latin1', 0, 6) === 'GIF87a' || head.toString('latin1', 0, 6) === 'GIF89a') return 'gif';
  if (head.toString('latin1', 0, 2) === 'BM') return 'bmp';
  if (startsWith(head, [0x49, 0x49, 0x2a, 0x00]) || startsWith(head, [0x4d, 0x4d, 0x00, 0x2a])) return 'tiff';
  if (startsWith(head, [0x00, 0x00, 0x00, 0x0c, 0x6a, 0x50, 0x20, 0x20]) || startsWith(head, [0xff, 0x4f, 0xff, 0x51])) return 'jpeg2000';
  if (startsWith(head, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return 'ole';
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04])) return 'zip';
  if (head.toString('latin1', 0, 5) === '{\\rtf') return 'rtf';
  const text = head.toString('utf8').replace(/^\uFEFF/, '').trimStart();
  if (text.startsWith('<')) return 'xml';
  return 'unknown';
}

const EXPECTED: Record<DocumentFormat, readonly ContentFamily[]> = {
  pdf: ['pdf'],
  jpg: ['jpeg'],
  jpeg: ['jpeg'],
  png: ['png'],
  gif: ['gif'],
  bmp: ['bmp'],
  tiff: ['tiff'],
  tif: ['tiff'],
  jpeg2000: ['jpeg2000'],
  // Office files come in the old binary (OLE) or the new zipped XML form whatever their extension
  // says, and Word saves RTF as .doc; LibreOffice tells them apart itself.
  doc: ['ole', 'zip', 'rtf', 'xml'],
  docx: ['zip', 'ole'],
  xls: ['ole', 'zip', 'xml'],
  xlsx: ['zip', 'ole'],
  ppt: ['ole', 'zip'],
  pptx: ['zip', 'ole'],
  xml: ['xml'],
};

/** Whether the content is what the extension claims. */
export function contentMatches(format: DocumentFormat, family: ContentFamily): boolean {
  return EXPECTED[format].includes(family);
}

const FAMILY_NAMES: Record<ContentFamily, string> = {
  pdf: 'a PDF',
  png: 'a PNG image',
  jpeg: 'a JPEG image',
  gif: 'a GIF image',
  bmp: 'a BMP image',
  tiff: 'a TIFF image',
  jpeg2000: 'a JPEG 2000 image',
  ole: 'an old-style Office file',
  zip: 'a ZIP archive',
  xml: 'an XML or HTML file',
  rtf: 'an RTF document',
  unknown: 'of no known kind',
};

export function describeFamily(family: ContentFamily): string {
  return FAMILY_NAMES[family];
}
