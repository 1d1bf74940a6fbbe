import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusPdf } from '../../test/corpus';
import { createSealFixture, type SealFixture } from '../../test/signing-support';
import { textAppearance } from '../sealing/appearance';
import { sealRevision } from '../sealing/seal';
import { maxCmsSize, signDigest } from '../signing/cms';
import { appendRevision, ObjectAllocator, type RevisionObject } from './incremental-writer';
import { type PdfDict, pdfArray, pdfName, pdfNumber, type PdfRef, pdfString, type PdfValue } from './objects';
import { openPdfFile, type PdfFile } from './pdf-file';
import { analysePdf, revisionEnds } from './verify-pdf';

/**
 * Issue 20, /verify: the verifier reads each revision and says what it changed after a signature,
 * and names the known forgery classes. Each attack is made here from a file signed the way Pakt
 * signs (a signature and a filled field in one incremental revision), by appending what an
 * attacker would append, or by editing the signature itself.
 */
let fixture: SealFixture;
let signed: Buffer;

beforeAll(async () => {
  fixture = await createSealFixture('ecdsa-p256');
  const chain = [fixture.ca.certificatePem];
  const sealed = await sealRevision({
    source: corpusPdf('plain-1p-pdftex.pdf'),
    signature: {
      pageIndex: 0,
      rect: [40, 40, 190, 90],
      appearance: textAppearance({ width: 150, height: 50, rotate: 0, lines: ['Signed by Asha Rao'] }),
      fieldName: 'Signature of Asha',
      signerName: 'Asha Rao',
      signedAt: new Date('2026-11-22T10:00:00Z'),
    },
    fields: [{ kind: 'text', pageIndex: 0, rect: [40, 100, 190, 120], fieldName: 'Name of Asha', value: 'Asha Rao', appearance: textAppearance({ width: 150, height: 20, rotate: 0, lines: ['Asha Rao'] }) }],
    cmsMaxSize: maxCmsSize({ certificate: fixture.seal.certificatePem, chain }),
    sign: (digest) => signDigest({ digest, key: fixture.seal.privateKeyPkcs8Pem, certificate: fixture.seal.certificatePem, chain }),
  });
  signed = Buffer.from(sealed.bytes);
});
afterAll(() => fixture.cleanup());

/** `bytes` with one unsigned revision appended, made of the objects `write` returns. */
function appended(bytes: Buffer, write: (file: PdfFile, allocator: ObjectAllocator) => RevisionObject[]): Buffer {
  const file = openPdfFile(bytes);
  const allocator = new ObjectAllocator(file);
  const { tail } = appendRevision({ file, source: bytes, objects: write(file, allocator), allocator });
  return Buffer.concat([bytes, tail]);
}

const withEntry = (dict: PdfDict, key: string, value: PdfValue): PdfDict => ({ kind: 'dict', entries: new Map([...dict.entries, [key, value]]) });
const kinds = (bytes: Buffer) => analysePdf(bytes).warnings.map((warning) => warning.kind);

describe('the verifier', () => {
  it('reads a Pakt-signed file as two revisions: the original, then a signature and a filled field, allowed, with no warning', () => {
    const analysis = analysePdf(signed);
    expect(revisionEnds(signed)).toHaveLength(2);
    expect(analysis.signatures.map((s) => [s.fieldName, s.integrity, s.coversWholeFile, s.revision])).toEqual([['Signature of Asha', 'intact', true, 2]]);
    expect(analysis.signatures[0]!.subject).toContain('Acme Ltd');
    expect(analysis.signatures[0]!.certificate).toBe(Buffer.from(fixture.seal.certificatePem.replace(/-----[^-]+-----|\s/g, ''), 'base64').toString('base64'));
    expect(analysis.revisions.map((r) => [r.number, r.signedBy, r.changes.map((c) => [c.kind, c.allowed])])).toEqual([
      [1, null, []],
      [2, 'Signature of Asha', [['signatureAdded', true], ['formFieldFilled', true]]],
    ]);
    expect(analysis.warnings).toEqual([]);
  });

  it('names an incremental saving attack: the page content replaced after the signature, not allowed', () => {
    const attacked = appended(signed, (file, allocator) => {
      const page = file.pages()[0]!;
      const content = allocator.allocate();
      const data = Buffer.from('BT /F1 24 Tf 72 700 Td (Pay 1,000,000 to Mallory) Tj ET', 'latin1');
      return [
        { ref: content, value: { kind: 'dict', entries: new Map<string, PdfValue>([['Length', pdfNumber(data.length)]]) }, stream: data },
        { ref: page.ref, value: withEntry(page.dict, 'Contents', content) },
      ];
    });
    const analysis = analysePdf(attacked);
    expect(analysis.signatures[0]).toMatchObject({ integrity: 'intact', coversWholeFile: false, revisionsAfter: 1 });
    expect(analysis.revisions[2]!.changes).toContainEqual(expect.objectContaining({ kind: 'pageContent', page: 1, allowed: false }));
    expect(kinds(attacked)).toEqual(['incrementalSaving']);
  });

  it('names a shadow "hide": an annotation drawn over the signed page afterwards', () => {
    const attacked = appended(signed, (file, allocator) => {
      const page = file.pages()[0]!;
      const annotation = allocator.allocate();
      const annots = file.get(page.dict, 'Annots');
      return [
        { ref: annotation, value: { kind: 'dict', entries: new Map<string, PdfValue>([['Type', pdfName('Annot')], ['Subtype', pdfName('Square')], ['Rect', pdfArray([pdfNumber(0), pdfNumber(0), pdfNumber(600), pdfNumber(800)])], ['IC', pdfArray([pdfNumber(1), pdfNumber(1), pdfNumber(1)])]]) } },
        { ref: page.ref, value: withEntry(page.dict, 'Annots', pdfArray([...(annots.kind === 'array' ? annots.items : []), annotation])) },
      ];
    });
    const analysis = analysePdf(attacked);
    // Commenting is allowed after an approval signature; what it may cover is still told.
    expect(analysis.revisions[2]!.changes).toEqual([expect.objectContaining({ kind: 'annotationAdded', page: 1, name: 'Square', allowed: true })]);
    expect(kinds(attacked)).toEqual(['shadowHide']);
  });

  it('names a shadow "replace": the value of a field filled before the signature swapped after it', () => {
    const attacked = appended(signed, (file) => {
      const field = file.acroForm()!.fields.map((ref) => [ref, file.lookup(ref)] as const).find(([, dict]) => dict.kind === 'dict' && file.get(dict, 'FT').kind === 'name' && (file.get(dict, 'FT') as { value: string }).value === 'Tx');
      const [ref, dict] = field! as [PdfRef, PdfDict];
      return [{ ref, value: withEntry(dict, 'V', pdfString(Buffer.from('Mallory', 'latin1'))) }];
    });
    const analysis = analysePdf(attacked);
    expect(analysis.revisions[2]!.changes).toContainEqual(expect.objectContaining({ kind: 'formFieldChanged', name: 'Name of Asha' }));
    expect(kinds(attacked)).toContain('shadowReplace');
  });

  it('names a shadow "hide and replace": an object the signed page draws with replaced afterwards', () => {
    const attacked = appended(signed, (file) => {
      const page = file.pages()[0]!;
      const fonts = file.get(page.resources!, 'Font') as PdfDict;
      const [, fontRef] = [...fonts.entries].find(([, value]) => value.kind === 'ref')! as [string, PdfRef];
      return [{ ref: fontRef, value: withEntry(file.lookup(fontRef) as PdfDict, 'BaseFont', pdfName('Mallory-Regular')) }];
    });
    expect(analysePdf(attacked).revisions[2]!.changes).toEqual([expect.objectContaining({ kind: 'pageResources', page: 1, allowed: false })]);
    expect(kinds(attacked)).toEqual(['shadowHideAndReplace']);
  });

  it('names signature wrapping: a byte range moved to leave bytes before the value unsigned', () => {
    const text = signed.toString('latin1');
    const match = /\/ByteRange \[0 (\d+) (\d+) (\d+)\]/.exec(text)!;
    const wrapped = Buffer.from(text.replace(match[0], `/ByteRange [0 ${String(Number(match[1]) - 100).padStart(match[1]!.length, '0')} ${match[2]} ${match[3]}]`), 'latin1');
    const analysis = analysePdf(wrapped);
    expect(analysis.signatures[0]).toMatchObject({ integrity: 'broken', problem: 'its byte range leaves out more than its own signature value' });
    expect(kinds(wrapped)).toEqual(['signatureWrapping']);
  });

  it('names a universal forgery: a signature whose value is empty signs nothing', () => {
    const text = signed.toString('latin1');
    const match = /\/Contents <([0-9a-fA-F]+)>/.exec(text)!;
    const emptied = Buffer.from(text.replace(match[0], `/Contents <${'0'.repeat(match[1]!.length)}>`), 'latin1');
    const analysis = analysePdf(emptied);
    expect(analysis.signatures[0]).toMatchObject({ integrity: 'broken', problem: 'the signature has no value' });
    expect(kinds(emptied)).toEqual(['universalForgery']);
  });

  it('reads the corpus’s signed files without a warning, each signature in the revision it ends', () => {
    for (const name of ['signed-pades-b.pdf', 'signed-pkcs7-2sigs.pdf', 'signed-pades-lta.pdf']) {
      const analysis = analysePdf(corpusPdf(name));
      expect(analysis.warnings, name).toEqual([]);
      expect(analysis.signatures.every((s) => s.integrity === 'intact' && s.revision !== null), name).toBe(true);
    }
  });
});
