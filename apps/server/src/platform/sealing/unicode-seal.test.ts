import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PdfBox } from '../pdf/pdf-file';
import { openPdfFile } from '../pdf/pdf-file';
import { maxCmsSize, signDigest } from '../signing/cms';
import { createSealFixture, nssDatabaseTrusting, run, type SealFixture } from '../../test/signing-support';
import { shownSizeOfRect, textAppearance, type Rotation } from './appearance';
import { sealRevision, type SealedRevision } from './seal';
import { CORPUS } from '../../test/corpus';

/**
 * Values in Hindi, Arabic and Latin drawn into a signer's revision with embedded, subset Noto
 * faces: the signatures stay valid, the file stays sound, the fonts are embedded subsets with a
 * /ToUnicode, the text copies out as typed, and poppler draws it inside the boxes (on a page
 * turned by 90 degrees too, and in an AES-256 encrypted file, where the font streams are
 * encrypted like every other stream of the revision).
 */

const HINDI = 'श्रीमती प्रिया शर्मा';
const ARABIC = 'مُحَمَّد علي';
const LATIN = 'Signed 22 Nov 2026';

let fixture: SealFixture;
let nssdir: string;
beforeAll(async () => {
  fixture = await createSealFixture('ecdsa-p256');
  nssdir = nssDatabaseTrusting(fixture.dir, fixture.caPem);
});
afterAll(() => fixture?.cleanup());

function write(bytes: Buffer, name: string): string {
  const file = path.join(fixture.dir, name);
  fs.writeFileSync(file, bytes);
  return file;
}

/** A box `width` x `height` as the person sees it, `left`/`top` points from the shown page's top-left. */
function shownBox(source: Buffer, pageIndex: number, box: { left: number; top: number; width: number; height: number }): { rect: PdfBox; rotate: Rotation } {
  const page = openPdfFile(source).page(pageIndex)!;
  const rotate = page.rotate as Rotation;
  const [x0, y0, , y1] = page.cropBox;
  const { left, top, width, height } = box;
  // Page space from shown space: /Rotate 90 shows the page turned clockwise, so the shown top
  // edge is the page's left edge and the shown left edge its bottom edge.
  if (rotate === 90) return { rect: [x0 + top, y0 + left, x0 + top + height, y0 + left + width], rotate };
  if (rotate === 0) return { rect: [x0 + left, y1 - top - height, x0 + left + width, y1 - top], rotate };
  throw new Error(`not needed here: /Rotate ${rotate}`);
}

async function sealValues(source: Buffer, signer: string, slot: number): Promise<SealedRevision> {
  const signatureBox = shownBox(source, 0, { left: 36, top: 36 + slot * 150, width: 180, height: 40 });
  const fieldBox = shownBox(source, 0, { left: 36, top: 80 + slot * 150, width: 220, height: 60 });
  const chain = [fixture.ca.certificatePem];
  return sealRevision({
    source,
    signature: {
      pageIndex: 0,
      rect: signatureBox.rect,
      appearance: textAppearance({ ...shownSizeOfRect(signatureBox.rect, signatureBox.rotate), rotate: signatureBox.rotate, lines: [signer, LATIN], border: true }),
      fieldName: `Signature of ${signer}`,
      signerName: signer,
      signedAt: new Date('2026-11-22T10:00:00Z'),
    },
    fields: [
      {
        kind: 'text',
        pageIndex: 0,
        rect: fieldBox.rect,
        fieldName: `Values of ${signer}`,
        value: [HINDI, ARABIC, LATIN].join('\n'),
        appearance: textAppearance({ ...shownSizeOfRect(fieldBox.rect, fieldBox.rotate), rotate: fieldBox.rotate, lines: [HINDI, ARABIC, LATIN] }),
      },
    ],
    cmsMaxSize: maxCmsSize({ certificate: fixture.seal.certificatePem, chain }),
    sign: (digest) => signDigest({ digest, key: fixture.seal.privateKeyPkcs8Pem, certificate: fixture.seal.certificatePem, chain }),
  });
}

function judge(file: string) {
  const sig = run('pdfsig', ['-nssdir', nssdir, file]);
  const qpdf = run('qpdf', ['--check', file]);
  return {
    signatures: (sig.stdout.match(/^Signature #\d+:/gm) ?? []).length,
    valid: (sig.stdout.match(/Signature Validation: Signature is Valid\./g) ?? []).length,
    qpdf: qpdf.status,
    report: `${sig.stdout}${sig.stderr}${qpdf.stdout}${qpdf.stderr}`,
  };
}

const SCALE = 1; // 72 dpi: one pixel per point

/** The page's pixels (grey) as poppler draws it, shown upright. */
function render(file: string, name: string) {
  const out = path.join(fixture.dir, `${name}-render`);
  const rendered = run('pdftoppm', ['-r', String(72 * SCALE), '-gray', '-f', '1', '-l', '1', '-singlefile', file, out]);
  expect(rendered.status, rendered.stderr).toBe(0);
  const pgm = fs.readFileSync(`${out}.pgm`);
  const header = /^P5\s+(\d+)\s+(\d+)\s+255\s/.exec(pgm.subarray(0, 64).toString('latin1'))!;
  return { width: Number(header[1]), height: Number(header[2]), pixels: pgm.subarray(header[0].length) };
}

/** The shown pixels a page-space rect covers on a page turned by `rotate` (0 or 90). */
function pixelBox(rect: PdfBox, rotate: Rotation, cropBox: PdfBox) {
  const [x0, y0, x1, y1] = rect;
  const [cx0, cy0, , cy1] = cropBox;
  return rotate === 90
    ? { left: (y0 - cy0) * SCALE, right: (y1 - cy0) * SCALE, top: (x0 - cx0) * SCALE, bottom: (x1 - cx0) * SCALE }
    : { left: (x0 - cx0) * SCALE, right: (x1 - cx0) * SCALE, top: (cy1 - y1) * SCALE, bottom: (cy1 - y0) * SCALE };
}

describe('values in Hindi, Arabic and Latin sealed with embedded fonts', () => {
  it.each([
    ['plain-1p-pdftex.pdf', 0],
    ['enc-no-userpw-aes256.pdf', 0],
    ['rotate-0-90-180-270-arabic.pdf', 90],
  ] as const)('%s', async (name, rotation) => {
    const source = fs.readFileSync(path.join(CORPUS, name));
    const page = openPdfFile(source).page(0)!;
    expect(page.rotate).toBe(rotation);
    const before = judge(path.join(CORPUS, name));
    const sealed = await sealValues(source, HINDI, 0);
    const file = write(sealed.bytes, name);

    const after = judge(file);
    expect(after.signatures, after.report).toBe(before.signatures + 1);
    expect(after.valid, after.report).toBe(before.valid + 1);
    expect(after.qpdf === 0 || after.qpdf === before.qpdf, after.report).toBe(true);

    // One subset per face for the whole revision, though two appearances use Devanagari.
    const fonts = run('pdffonts', [file]).stdout;
    const embedded = (family: string) => fonts.match(new RegExp(`^[A-Z]{6}\\+${family}-Regular +CID TrueType +Identity-H +yes yes yes`, 'gm')) ?? [];
    expect(embedded('NotoSansDevanagari'), fonts).toHaveLength(1);
    expect(embedded('NotoSansArabic'), fonts).toHaveLength(1);
    expect(fonts).toMatch(/^Helvetica +Type 1 +WinAnsi/m);

    const text = run('pdftotext', [file, '-']).stdout;
    expect(text).toContain(HINDI);
    expect(text).toContain(LATIN);
    // pdftotext writes right-to-left text in shown order, characters reversed (the corpus file's
    // own Arabic comes out the same way).
    expect(text).toContain([...ARABIC].reverse().join(''));

    // Drawn where the boxes are and nowhere else.
    const unsigned = render(path.join(CORPUS, name), `${name}-before`);
    const signed = render(file, `${name}-after`);
    expect([signed.width, signed.height]).toEqual([unsigned.width, unsigned.height]);
    const signatureBox = shownBox(source, 0, { left: 36, top: 36, width: 180, height: 40 });
    const fieldBox = shownBox(source, 0, { left: 36, top: 80, width: 220, height: 60 });
    const boxes = [signatureBox, fieldBox].map((box) => pixelBox(box.rect, box.rotate, page.cropBox));
    const changedIn = boxes.map(() => 0);
    let changedOutside = 0;
    for (let y = 0; y < signed.height; y++) {
      for (let x = 0; x < signed.width; x++) {
        if (signed.pixels[y * signed.width + x] === unsigned.pixels[y * unsigned.width + x]) continue;
        const hit = boxes.findIndex((box) => x >= box.left - 1 && x <= box.right + 1 && y >= box.top - 1 && y <= box.bottom + 1);
        if (hit < 0) changedOutside++;
        else changedIn[hit]!++;
      }
    }
    expect(changedOutside).toBe(0);
    expect(changedIn.every((count) => count > 50), `changed pixels per box: ${changedIn.join(', ')}`).toBe(true);
  });

  it('keeps the first signature valid under a second signer writing Hindi again, and costs a few KB per revision', async () => {
    const source = fs.readFileSync(path.join(CORPUS, 'plain-1p-pdftex.pdf'));
    const first = await sealValues(source, HINDI, 0);
    const second = await sealValues(first.bytes, 'राजेश कुमार', 1);
    const checked = judge(write(second.bytes, 'two-hindi.pdf'));
    expect([checked.signatures, checked.valid], checked.report).toEqual([2, 2]);
    // Each revision embeds its own subsets: 2 Devanagari, 2 Arabic.
    const fonts = run('pdffonts', [write(second.bytes, 'two-hindi-fonts.pdf')]).stdout;
    expect(fonts.match(/\+NotoSansDevanagari-Regular/g)).toHaveLength(2);

    // What the fonts add to a revision: a Hindi name in the signature box, against a Latin one.
    const chain = [fixture.ca.certificatePem];
    const signOnly = async (name: string) =>
      (
        await sealRevision({
          source,
          signature: {
            pageIndex: 0,
            rect: [36, 700, 216, 740],
            appearance: textAppearance({ width: 180, height: 40, rotate: 0, lines: [name, LATIN], border: true }),
            fieldName: 'Signature',
            signerName: name,
            signedAt: new Date('2026-11-22T10:00:00Z'),
          },
          cmsMaxSize: maxCmsSize({ certificate: fixture.seal.certificatePem, chain }),
          sign: (digest) => signDigest({ digest, key: fixture.seal.privateKeyPkcs8Pem, certificate: fixture.seal.certificatePem, chain }),
        })
      ).tail.length;
    const added = (await signOnly(HINDI)) - (await signOnly('Priya Sharma'));
    console.log(`A Hindi name (${HINDI}) adds ${added} bytes to the revision.`);
    expect(added).toBeGreaterThan(0);
    expect(added).toBeLessThan(12_000);
  });
  it('draws Hebrew and Thai with their own embedded faces, and the text copies out', async () => {
    const source = fs.readFileSync(path.join(CORPUS, 'plain-1p-pdftex.pdf'));
    const [hebrew, thai] = ['דוד כהן', 'สมชาย ใจดี'];
    const chain = [fixture.ca.certificatePem];
    const sealed = await sealRevision({
      source,
      signature: {
        pageIndex: 0,
        rect: [36, 680, 256, 740],
        appearance: textAppearance({ width: 220, height: 60, rotate: 0, lines: [hebrew, thai, LATIN], border: true }),
        fieldName: 'Signature',
        signerName: hebrew,
        signedAt: new Date('2026-11-22T10:00:00Z'),
      },
      cmsMaxSize: maxCmsSize({ certificate: fixture.seal.certificatePem, chain }),
      sign: (digest) => signDigest({ digest, key: fixture.seal.privateKeyPkcs8Pem, certificate: fixture.seal.certificatePem, chain }),
    });
    const file = write(sealed.bytes, 'hebrew-thai.pdf');
    const checked = judge(file);
    expect([checked.signatures, checked.valid, checked.qpdf], checked.report).toEqual([1, 1, 0]);
    const fonts = run('pdffonts', [file]).stdout;
    expect(fonts).toMatch(/^[A-Z]{6}\+NotoSansHebrew-Regular +CID TrueType +Identity-H +yes yes yes/m);
    expect(fonts).toMatch(/^[A-Z]{6}\+NotoSansThai-Regular +CID TrueType +Identity-H +yes yes yes/m);
    const text = run('pdftotext', [file, '-']).stdout;
    expect(text).toContain(thai);
    expect(text).toContain([...hebrew].reverse().join(''));
  });
});
