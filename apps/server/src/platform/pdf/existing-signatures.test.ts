import { describe, expect, it } from 'vitest';
import { corpusPdf } from '../../test/corpus';
import { inspectExistingSignatures, pdfDateToIso } from './existing-signatures';
import { appendRevision, ObjectAllocator } from './incremental-writer';
import { openPdfFile } from './pdf-file';

/**
 * Issue 20, defect 5: the signatures a file carries at upload are checked, so a broken or
 * partial one is told instead of sealed over. The corpus's signed files are signed by others
 * (poppler's pdfsig calls each of them valid); the damaged ones are made from them here.
 */
const inspect = (bytes: Buffer) => inspectExistingSignatures(openPdfFile(bytes));

/** The file with one byte changed at `offset`. */
function flipped(bytes: Buffer, offset: number): Buffer {
  const copy = Buffer.from(bytes);
  copy[offset]! ^= 0x01;
  return copy;
}

/** The file with an unsigned incremental update appended: its catalog written again, unchanged. */
function withUnsignedUpdate(bytes: Buffer): Buffer {
  const file = openPdfFile(bytes);
  const { tail } = appendRevision({ file, source: bytes, objects: [{ ref: file.catalog.ref, value: file.catalog.dict }], allocator: new ObjectAllocator(file) });
  return Buffer.concat([bytes, tail]);
}

describe('the signatures a file carries at upload', () => {
  it('finds none in an unsigned file, nor in an empty signature field', () => {
    expect(inspect(corpusPdf('plain-1p-pdftex.pdf'))).toEqual({ status: 'unsigned', signatures: [] });
    expect(inspect(corpusPdf('form-empty-signature-field.pdf'))).toEqual({ status: 'unsigned', signatures: [] });
  });

  it('calls every signature of the corpus intact, whatever its kind, as poppler does', () => {
    const pades = inspect(corpusPdf('signed-pades-b.pdf'));
    expect(pades.status).toBe('intact');
    expect(pades.signatures).toHaveLength(1);
    expect(pades.signatures[0]).toMatchObject({ signerName: 'good-user', subFilter: 'ETSI.CAdES.detached', integrity: 'intact', problem: null, coversWholeFile: true });

    const two = inspect(corpusPdf('signed-pkcs7-2sigs.pdf'));
    expect(two.status).toBe('intact');
    // In the order they cover the file: the first covers an earlier revision only, which is normal.
    expect(two.signatures.map((s) => [s.signerName, s.integrity, s.coversWholeFile, s.revisionsAfter])).toEqual([
      ['signpdf', 'intact', false, 1],
      ['SignPdf', 'intact', true, 0],
    ]);

    // A signature then two document timestamps (RFC 3161): the timestamps' imprints are checked.
    const lta = inspect(corpusPdf('signed-pades-lta.pdf'));
    expect(lta.status).toBe('intact');
    expect(lta.signatures.map((s) => [s.subFilter, s.integrity])).toEqual([
      ['ETSI.CAdES.detached', 'intact'],
      ['ETSI.RFC3161', 'intact'],
      ['ETSI.RFC3161', 'intact'],
    ]);
  });

  it('calls a signature broken when a byte it covers was changed', () => {
    // The byte is in the header's binary comment: the file still opens, only the signed bytes differ.
    const state = inspect(flipped(corpusPdf('signed-pades-b.pdf'), 11));
    expect(state.status).toBe('broken');
    expect(state.signatures[0]).toMatchObject({ integrity: 'broken', problem: 'the signed bytes were changed after signing' });
  });

  it('calls a signature broken when its byte range leaves out more than its value', () => {
    const bytes = corpusPdf('signed-pkcs7-1sig.pdf');
    const text = bytes.toString('latin1');
    // [0 13403 18599 811] becomes [0 13303 18599 811]: 100 bytes before /Contents are no longer signed.
    const widened = Buffer.from(text.replace('/ByteRange [0 13403 18599 811', '/ByteRange [0 13303 18599 811'), 'latin1');
    expect(widened.equals(bytes)).toBe(false);
    const state = inspect(widened);
    expect(state.status).toBe('broken');
    expect(state.signatures[0]!.problem).toBe('its byte range leaves out more than its own signature value');
  });

  it('says when the file was changed after its last signature, and by how much', () => {
    const bytes = corpusPdf('signed-pades-b.pdf');
    const updated = withUnsignedUpdate(bytes);
    const state = inspect(updated);
    expect(state.status).toBe('changedAfterSigning');
    expect(state.signatures[0]).toMatchObject({ integrity: 'intact', coversWholeFile: false, unsignedBytesAfter: updated.length - bytes.length, revisionsAfter: 1 });
  });

  it('reads PDF dates with and without their time zone', () => {
    expect(pdfDateToIso("D:20240131235959+05'30'")).toBe('2024-01-31T18:29:59.000Z');
    expect(pdfDateToIso('D:20240131120000Z')).toBe('2024-01-31T12:00:00.000Z');
    expect(pdfDateToIso('D:2024')).toBe('2024-01-01T00:00:00.000Z');
    expect(pdfDateToIso('yesterday')).toBeNull();
  });
});
