import { PDFDocument } from 'pdf-lib';
import { PdfStructureError } from '../pdf/errors';
import { openPdfFile, type PdfFile } from '../pdf/pdf-file';
import { SealError } from './seal-error';

/**
 * A document whose cross-reference is broken cannot take an incremental update: the update must
 * point back to a section a reader can follow. Viewers show such files by rebuilding the table
 * themselves, so we do the same once, before the first signature: pdf-lib reads objects by
 * scanning, not through the table, and writes a clean file. That is a re-save, which is harmless
 * exactly when nobody has signed yet; a broken file that carries a signature is refused instead,
 * since rewriting it would destroy that signature.
 */
export interface PreparedSource {
  readonly source: Buffer;
  /** True when the bytes were rewritten: store them as the document's new base revision. */
  readonly repaired: boolean;
  /**
   * `source` as opened here, its page tree read: sealRevision goes on from it rather than
   * parsing the file a second time (issue 23: on a 500-page file the second parse was about a
   * tenth of the first signer's CPU).
   */
  readonly file?: PdfFile;
}

/**
 * Whether the bytes hold a signature. Every signature dictionary has a /ByteRange, so looking
 * for it in the raw file is the cautious test: it cannot miss a signature hidden in a broken
 * form tree (an inherited /FT, a field pdf-lib cannot read) the way a form walk could. Object
 * streams are compressed, but a signature dictionary is never inside one: its byte offsets must
 * be readable in the file (PDF 32000-1 12.8.1).
 */
function carriesSignature(source: Buffer): boolean {
  return source.includes('/ByteRange');
}

export async function prepareForSealing(source: Buffer): Promise<PreparedSource> {
  try {
    const file = openPdfFile(source);
    file.pages();
    return { source, repaired: false, file };
  } catch (error) {
    if (!(error instanceof PdfStructureError)) throw error;
  }
  if (carriesSignature(source)) {
    throw new SealError('The document is damaged and already signed: repairing it would break that signature, so it cannot be signed again.');
  }
  let doc: PDFDocument;
  try {
    doc = await PDFDocument.load(source, { updateMetadata: false, throwOnInvalidObject: false });
  } catch {
    throw new SealError('The document is damaged beyond repair and cannot be signed.');
  }
  let repaired: Buffer;
  let file: PdfFile;
  try {
    repaired = Buffer.from(await doc.save({ useObjectStreams: false, updateFieldAppearances: false }));
    // What we wrote must read with our own reader, or the repair failed.
    file = openPdfFile(repaired);
    file.pages();
  } catch {
    throw new SealError('The document is damaged beyond repair and cannot be signed.');
  }
  return { source: repaired, repaired: true, file };
}
