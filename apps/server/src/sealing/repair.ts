import { PDFDocument, PDFName, PDFDict } from 'pdf-lib';
import { PdfStructureError } from '../pdf/errors';
import { openPdfFile } from '../pdf/pdf-file';
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
}

function carriesSignature(doc: PDFDocument): boolean {
  const form = doc.catalog.lookupMaybe(PDFName.of('AcroForm'), PDFDict);
  if (!form) return false;
  return doc.getForm().getFields().some((field) => {
    const dict = field.acroField.dict;
    return dict.get(PDFName.of('FT')) === PDFName.of('Sig') && dict.get(PDFName.of('V')) !== undefined;
  });
}

export async function prepareForSealing(source: Buffer): Promise<PreparedSource> {
  try {
    openPdfFile(source).pages();
    return { source, repaired: false };
  } catch (error) {
    if (!(error instanceof PdfStructureError)) throw error;
  }
  let doc: PDFDocument;
  try {
    doc = await PDFDocument.load(source, { updateMetadata: false, throwOnInvalidObject: false });
  } catch {
    throw new SealError('The document is damaged beyond repair and cannot be signed.');
  }
  let signed: boolean;
  let repaired: Buffer;
  try {
    signed = carriesSignature(doc);
    repaired = Buffer.from(await doc.save({ useObjectStreams: false, updateFieldAppearances: false }));
    // What we wrote must read with our own reader, or the repair failed.
    openPdfFile(repaired).pages();
  } catch {
    throw new SealError('The document is damaged beyond repair and cannot be signed.');
  }
  if (signed) {
    throw new SealError('The document is damaged and already signed: repairing it would break that signature, so it cannot be signed again.');
  }
  return { source: repaired, repaired: true };
}
