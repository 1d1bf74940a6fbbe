import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PNG } from 'pngjs';
import { decodeTextString, type PdfString } from '../pdf/objects';
import { openPdfFile, type PdfFile } from '../pdf/pdf-file';
import { certifiedPdf } from '../../test/test-pdf-builder';
import { maxCmsSize, signDigest } from '../signing/cms';
import { createSealFixture, nssDatabaseTrusting, run, type SealFixture } from '../../test/signing-support';
import { shownSizeOfRect, textAppearance, type Rotation } from './appearance';
import { prepareForSealing } from './repair';
import { sealRevision } from './seal';
import { CORPUS } from '../../test/corpus';
import { type Box, changedPixels, renderPage } from '../../test/render-support';

let fixture: SealFixture;
let nssdir: string;
beforeAll(async () => {
  // ECDSA keys are made in milliseconds; RSA is covered by signing/pades.test.ts.
  fixture = await createSealFixture('ecdsa-p256');
  nssdir = nssDatabaseTrusting(fixture.dir, fixture.caPem);
});
afterAll(() => fixture?.cleanup());

/** A signer's step on page `pageIndex`: a 150 x 50 box (as shown) near the page's top-left corner. */
async function signStep(source: Buffer, signer: string, pageIndex = 0, sourceHash?: crypto.Hash, opened?: PdfFile) {
  const file = openPdfFile(source);
  const page = file.pages()[pageIndex]!;
  const rotate = page.rotate as Rotation;
  const [x0, y0, x1, y1] = page.cropBox;
  const turned = rotate === 90 || rotate === 270;
  const w = turned ? 50 : 150;
  const h = turned ? 150 : 50;
  const left = x0 + Math.min(36, (x1 - x0 - w) / 2);
  const bottom = y1 - Math.min(36, (y1 - y0 - h) / 2) - h;
  const rect = [left, bottom, left + w, bottom + h] as const;
  const shown = shownSizeOfRect(rect, rotate);
  const chain = [fixture.ca.certificatePem];
  return sealRevision({
    source,
    signature: {
      pageIndex,
      rect,
      appearance: textAppearance({ ...shown, rotate, lines: [`Signed by ${signer}`, '2026-11-22 10:00 UTC'], border: true }),
      fieldName: `Signature of ${signer}`,
      signerName: signer,
      reason: 'I approve this document',
      signedAt: new Date('2026-11-22T10:00:00Z'),
    },
    cmsMaxSize: maxCmsSize({ certificate: fixture.seal.certificatePem, chain }),
    sign: (digest) => signDigest({ digest, key: fixture.seal.privateKeyPkcs8Pem, certificate: fixture.seal.certificatePem, chain }),
    ...(sourceHash ? { sourceHash } : {}),
    ...(opened ? { file: opened } : {}),
  });
}

interface PdfsigResult {
  readonly signatures: number;
  readonly valid: number;
  readonly output: string;
}

function pdfsig(bytes: Buffer, name: string): PdfsigResult {
  const file = path.join(fixture.dir, name);
  fs.writeFileSync(file, bytes);
  const { stdout, stderr } = run('pdfsig', ['-nssdir', nssdir, file]);
  const output = `${stdout}${stderr}`;
  return {
    signatures: (output.match(/^Signature #\d+:/gm) ?? []).length,
    valid: (output.match(/Signature Validation: Signature is Valid\./g) ?? []).length,
    output,
  };
}

function qpdfCheck(bytes: Buffer, name: string): { ok: boolean; output: string } {
  const file = path.join(fixture.dir, name);
  fs.writeFileSync(file, bytes);
  const { status, stdout, stderr } = run('qpdf', ['--check', file]);
  // 0: fine; 3: warnings only (qpdf still read everything). Errors are status 2.
  return { ok: status === 0 || status === 3, output: `${stdout}${stderr}` };
}

describe('a signer step sealed as an incremental update', () => {
  it('appends to the file without changing a byte of it, and pdfsig finds the signature valid and trusted', async () => {
    const source = fs.readFileSync(path.join(CORPUS, 'plain-1p-pdftex.pdf'));
    const sealed = await signStep(source, 'Asha Rao');
    expect(sealed.bytes.subarray(0, source.length).equals(source)).toBe(true);
    expect(sealed.byteRange[0]).toBe(0);
    expect(sealed.byteRange[1] + (sealed.byteRange[3] + (sealed.byteRange[2] - sealed.byteRange[1]))).toBe(sealed.bytes.length);
    const checked = pdfsig(sealed.bytes, 'one.pdf');
    expect(checked.output).toContain('Signature Type: ETSI.CAdES.detached');
    expect(checked.output).toContain('Total document signed');
    expect(checked.output).toContain('Certificate Validation: Certificate is Trusted.');
    expect([checked.signatures, checked.valid]).toEqual([1, 1]);
    expect(qpdfCheck(sealed.bytes, 'one-qpdf.pdf').ok).toBe(true);
  });

  it('keeps the first signature valid when a second signer signs', async () => {
    const source = fs.readFileSync(path.join(CORPUS, 'plain-1p-pdftex.pdf'));
    const first = await signStep(source, 'Asha Rao');
    const second = await signStep(first.bytes, 'Ravi Iyer');
    const checked = pdfsig(second.bytes, 'two.pdf');
    expect([checked.signatures, checked.valid], checked.output).toEqual([2, 2]);
    expect(checked.output).toContain('Total document signed');
    expect(checked.output).not.toContain('Digest Mismatch');
    expect(qpdfCheck(second.bytes, 'two-qpdf.pdf').ok).toBe(true);
  });

  it("goes on from the caller's hash of the source instead of hashing it again, and leaves that hash as it was", async () => {
    const source = fs.readFileSync(path.join(CORPUS, 'plain-1p-pdftex.pdf'));
    const first = await signStep(source, 'Asha Rao');
    expect(first.sha256).toBe(crypto.createHash('sha256').update(first.bytes).digest('hex'));
    const read = crypto.createHash('sha256').update(first.bytes);
    const second = await signStep(first.bytes, 'Ravi Iyer', 0, read);
    expect(second.sha256).toBe(crypto.createHash('sha256').update(second.bytes).digest('hex'));
    expect(read.digest('hex')).toBe(first.sha256);
    const checked = pdfsig(second.bytes, 'two-hashed.pdf');
    expect([checked.signatures, checked.valid], checked.output).toEqual([2, 2]);
  });

  it('goes on from the file opened before the first signature, sealing what it seals from the bytes, and refuses a file of other bytes', async () => {
    const source = fs.readFileSync(path.join(CORPUS, 'plain-1p-pdftex.pdf'));
    const prepared = await prepareForSealing(source);
    expect(prepared.file?.buffer).toBe(source);
    const fromFile = await signStep(source, 'Asha Rao', 0, undefined, prepared.file);
    const fromBytes = await signStep(source, 'Asha Rao');
    // The same revision but for the signature value itself (ECDSA signs with a fresh nonce).
    expect(fromFile.byteRange).toEqual(fromBytes.byteRange);
    const [, contentsStart, contentsEnd] = fromFile.byteRange.map((n) => n - source.length);
    expect(fromFile.tail.subarray(0, contentsStart)).toEqual(fromBytes.tail.subarray(0, contentsStart));
    expect(fromFile.tail.subarray(contentsEnd)).toEqual(fromBytes.tail.subarray(contentsEnd));
    const checked = pdfsig(fromFile.bytes, 'from-opened.pdf');
    expect([checked.signatures, checked.valid], checked.output).toEqual([1, 1]);
    await expect(signStep(Buffer.from(source), 'Asha Rao', 0, undefined, prepared.file)).rejects.toThrow(/not the source/);
  });

  it("draws the signer's other values as read-only fields in the same revision: text, a transparent PNG, a JPEG", async () => {
    const source = fs.readFileSync(path.join(CORPUS, 'rotate-0-90-180-270-arabic.pdf'));
    const png = new PNG({ width: 40, height: 20 });
    for (let i = 0; i < 40 * 20; i++) png.data.set([20, 40, 160, i % 3 === 0 ? 255 : 0], i * 4);
    const jpeg = fs.readFileSync(fileURLToPath(new URL('../../features/documents/fixtures/page.jpg', import.meta.url)));
    const chain = [fixture.ca.certificatePem];
    const turned = openPdfFile(source).page(0)!;
    const sealed = await sealRevision({
      source,
      signature: {
        pageIndex: 3,
        rect: [40, 40, 190, 90],
        appearance: textAppearance({ width: 150, height: 50, rotate: 0, lines: ['ignored'] }),
        image: { data: PNG.sync.write(png), format: 'png' },
        fieldName: 'Signature of Asha',
        signerName: 'Asha Rao',
        signedAt: new Date('2026-11-22T10:00:00Z'),
      },
      fields: [
        { kind: 'text', pageIndex: 0, rect: [40, 40, 60, 160], fieldName: 'Date of Asha', value: '22 Nov 2026', appearance: textAppearance({ width: 120, height: 20, rotate: turned.rotate as Rotation, lines: ['22 Nov 2026'] }) },
        { kind: 'text', pageIndex: 3, rect: [40, 100, 190, 120], fieldName: 'Name of Asha', value: 'Asha Rao', appearance: textAppearance({ width: 150, height: 20, rotate: 0, lines: ['Asha Rao'] }) },
        { kind: 'image', pageIndex: 3, rect: [220, 40, 320, 140], fieldName: 'Photo of Asha', image: { data: jpeg, format: 'jpeg' } },
      ],
      cmsMaxSize: maxCmsSize({ certificate: fixture.seal.certificatePem, chain }),
      sign: (digest) => signDigest({ digest, key: fixture.seal.privateKeyPkcs8Pem, certificate: fixture.seal.certificatePem, chain }),
    });
    const checked = pdfsig(sealed.bytes, 'fields.pdf');
    expect([checked.signatures, checked.valid], checked.output).toEqual([1, 1]);
    expect(qpdfCheck(sealed.bytes, 'fields-qpdf.pdf').ok).toBe(true);
    const reopened = openPdfFile(sealed.bytes);
    const form = reopened.acroForm()!;
    const names = form.fields.map((ref) => reopened.lookup(ref)).map((field) => (field.kind === 'dict' ? decodeTextString(reopened.get(field, 'T') as PdfString) : ''));
    expect(names).toEqual(['Signature of Asha', 'Date of Asha', 'Name of Asha', 'Photo of Asha']);
    // Page 1 gained one widget, page 4 three; the others none.
    const annotCount = (index: number) => {
      const annots = reopened.get(reopened.page(index)!.dict, 'Annots');
      return annots.kind === 'array' ? annots.items.length : 0;
    };
    expect([0, 1, 2, 3].map(annotCount)).toEqual([1, 0, 0, 3]);
    // Drawn as a person sees it: rendered by poppler, page 4 differs from the unsigned page in
    // each of the three boxes and nowhere else.
    const before = renderPage(source, 4, fixture.dir, 'unsigned');
    const after = renderPage(sealed.bytes, 4, fixture.dir, 'fields');
    const boxes: Array<readonly [number, number, number, number]> = [
      [40, 40, 190, 90],
      [40, 100, 190, 120],
      [220, 40, 320, 140],
    ];
    const { changedIn, changedOutside } = changedPixels(before, after, boxes);
    expect(changedOutside).toBe(0);
    expect(changedIn.every((count) => count > 0), `changed pixels per box: ${changedIn.join(', ')}`).toBe(true);
  });

  it('refuses an image that is not what it says, and a field named twice, changing nothing', async () => {
    const source = fs.readFileSync(path.join(CORPUS, 'plain-1p-pdftex.pdf'));
    const chain = [fixture.ca.certificatePem];
    const base = {
      source,
      cmsMaxSize: maxCmsSize({ certificate: fixture.seal.certificatePem, chain }),
      sign: (digest: Buffer) => signDigest({ digest, key: fixture.seal.privateKeyPkcs8Pem, certificate: fixture.seal.certificatePem, chain }),
    };
    const signature = {
      pageIndex: 0,
      rect: [40, 40, 190, 90] as const,
      appearance: textAppearance({ width: 150, height: 50, rotate: 0, lines: ['x'] }),
      fieldName: 'S',
      signerName: 'S',
      signedAt: new Date(),
    };
    await expect(sealRevision({ ...base, signature: { ...signature, image: { data: Buffer.from('not a png'), format: 'png' } } })).rejects.toThrow(/not a readable PNG/);
    await expect(
      sealRevision({ ...base, signature, fields: [{ kind: 'image', pageIndex: 0, rect: [0, 0, 10, 10], fieldName: 'S', image: { data: Buffer.from([0xff, 0xd8]), format: 'jpeg' } }] }),
    ).rejects.toThrow(/named S/);
    await expect(
      sealRevision({ ...base, signature, fields: [{ kind: 'image', pageIndex: 0, rect: [0, 0, 10, 10], fieldName: 'I', image: { data: Buffer.from([0xff, 0xd8, 0xff, 0xd9]), format: 'jpeg' } }] }),
    ).rejects.toThrow(/JPEG/);
    await expect(sealRevision({ ...base, signature: { ...signature, pageIndex: 5 } })).rejects.toThrow(/no page 6/);
  });
});

describe('repair before the first signature', () => {
  it('never rewrites a damaged file that already carries a signature', async () => {
    const signed = fs.readFileSync(path.join(CORPUS, 'signed-pkcs7-1sig.pdf'));
    // Point startxref at nothing: our reader refuses the file, so only a rewrite could read it.
    const text = signed.toString('latin1');
    const at = text.lastIndexOf('startxref');
    const damaged = Buffer.from(`${text.slice(0, at)}startxref\n7\n%%EOF\n`, 'latin1');
    expect(() => openPdfFile(damaged)).toThrow();
    await expect(prepareForSealing(damaged)).rejects.toThrow(/already signed/);
    // The same damage on an unsigned file is repaired.
    const plain = fs.readFileSync(path.join(CORPUS, 'plain-1p-pdftex.pdf')).toString('latin1');
    const unsigned = Buffer.from(`${plain.slice(0, plain.lastIndexOf('startxref'))}startxref\n7\n%%EOF\n`, 'latin1');
    expect((await prepareForSealing(unsigned)).repaired).toBe(true);
  });
});

describe('a certified document', () => {
  it('is refused at every level, saying why, since the fields a signing adds would break the certification', async () => {
    await expect(signStep(certifiedPdf(1), 'Asha Rao')).rejects.toThrow(/"no changes allowed"/);
    await expect(signStep(certifiedPdf(2), 'Asha Rao')).rejects.toThrow(/allow only filling and signing its own fields/);
    await expect(signStep(certifiedPdf(3), 'Asha Rao')).rejects.toThrow(/allow only filling and signing its own fields/);
  });
});

describe('what every viewer shows after sealing is what the signer saw', () => {
  /** One revision of a signer: a drawn signature, a text value and an image value in the boxes given. */
  async function signWithFields(source: Buffer, signer: string, boxes: { signature: Box; text: Box; image: Box }) {
    const png = new PNG({ width: 40, height: 40 });
    for (let i = 0; i < 40 * 40; i++) png.data.set([20, 40, 160, 255], i * 4);
    const chain = [fixture.ca.certificatePem];
    const size = (box: Box) => ({ width: box[2] - box[0], height: box[3] - box[1], rotate: 0 as Rotation });
    return sealRevision({
      source,
      signature: {
        pageIndex: 0,
        rect: boxes.signature,
        appearance: textAppearance({ ...size(boxes.signature), lines: [`Signed by ${signer}`], border: true }),
        fieldName: `Signature of ${signer}`,
        signerName: signer,
        signedAt: new Date('2026-11-22T10:00:00Z'),
      },
      fields: [
        { kind: 'text', pageIndex: 0, rect: boxes.text, fieldName: `Name of ${signer}`, value: signer, appearance: textAppearance({ ...size(boxes.text), lines: [signer] }) },
        { kind: 'image', pageIndex: 0, rect: boxes.image, fieldName: `Photo of ${signer}`, image: { data: PNG.sync.write(png), format: 'png' } },
      ],
      cmsMaxSize: maxCmsSize({ certificate: fixture.seal.certificatePem, chain }),
      sign: (digest) => signDigest({ digest, key: fixture.seal.privateKeyPkcs8Pem, certificate: fixture.seal.certificatePem, chain }),
    });
  }

  it('draws every value on a form that asks viewers to rebuild appearances (/NeedAppearances true), ink in each box and nowhere else', async () => {
    // LibreOffice writes /NeedAppearances true; poppler (Evince, Okular, pdftoppm) then rebuilds
    // every field's look from its /DA, and drew Pakt's values blank when the flag was carried on.
    const source = fs.readFileSync(path.join(CORPUS, 'form-libreoffice.pdf'));
    const first = { signature: [60, 300, 260, 350], text: [60, 260, 260, 280], image: [300, 260, 400, 350] } as const;
    const second = { signature: [60, 150, 260, 200], text: [60, 110, 260, 130], image: [300, 110, 400, 200] } as const;
    const once = await signWithFields(source, 'Asha Rao', first);
    const twice = await signWithFields(once.bytes, 'Ravi Iyer', second);
    const checked = pdfsig(twice.bytes, 'rebuilt.pdf');
    expect([checked.signatures, checked.valid], checked.output).toEqual([2, 2]);
    expect(qpdfCheck(twice.bytes, 'rebuilt-qpdf.pdf').ok).toBe(true);
    const boxes = [first.signature, first.text, first.image, second.signature, second.text, second.image];
    const { changedIn, changedOutside } = changedPixels(renderPage(source, 1, fixture.dir, 'form-unsigned'), renderPage(twice.bytes, 1, fixture.dir, 'form-signed'), boxes);
    expect(changedIn.every((count) => count > 0), `changed pixels per box: ${changedIn.join(', ')}`).toBe(true);
    expect(changedOutside).toBe(0);
    // Every field Pakt writes says how its text is drawn (/DA), for whichever viewer rebuilds it.
    const reopened = openPdfFile(twice.bytes);
    const ours = reopened
      .acroForm()!
      .fields.map((ref) => reopened.lookup(ref))
      .filter((field) => field.kind === 'dict' && /of (Asha|Ravi)/.test(decodeTextString(reopened.get(field, 'T') as PdfString)));
    expect(ours).toHaveLength(6);
    for (const field of ours) expect(field.kind === 'dict' && reopened.get(field, 'DA').kind).toBe('string');
  });

  it('reads a repeated dictionary key as poppler, qpdf and pdf.js do (the last one counts), so a page shows the same contents before and after', async () => {
    // A shadow-attack file: /Contents twice on its page. Viewers read the second; a reader that
    // took the first would write that one back into the sealed page, changing what it shows.
    const source = pageWithTwoContents();
    const text = (bytes: Buffer, name: string) => {
      const file = path.join(fixture.dir, name);
      fs.writeFileSync(file, bytes);
      return run('pdftotext', [file, '-']).stdout;
    };
    expect(text(source, 'twice-unsigned.pdf')).toContain('SHOWN');
    const sealed = await signStep(source, 'Asha Rao');
    const shown = text(sealed.bytes, 'twice-sealed.pdf');
    expect(shown).toContain('SHOWN');
    expect(shown).not.toContain('HIDDEN');
    expect([pdfsig(sealed.bytes, 'twice-sig.pdf').valid]).toEqual([1]);
  });
});

/** A one-page PDF whose page dictionary names /Contents twice: HIDDEN first, SHOWN second. */
function pageWithTwoContents(): Buffer {
  const stream = (content: string) => `<< /Length ${content.length} >>\nstream\n${content}\nendstream`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 400 300] /Contents 4 0 R /Resources << /Font << /F1 6 0 R >> >> /Contents 5 0 R >>',
    stream('BT /F1 24 Tf 40 60 Td (HIDDEN) Tj ET'),
    stream('BT /F1 24 Tf 40 60 Td (SHOWN) Tj ET'),
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let body = '%PDF-1.7\n';
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(body.length);
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('')}`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}
