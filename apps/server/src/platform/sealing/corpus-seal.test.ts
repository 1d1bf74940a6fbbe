import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPdfFile } from '../pdf/pdf-file';
import { maxCmsSize, signDigest } from '../signing/cms';
import { createSealFixture, run, type SealFixture } from '../../test/signing-support';
import { shownSizeOfRect, textAppearance, type Rotation } from './appearance';
import { prepareForSealing } from './repair';
import { sealRevision } from './seal';
import { CORPUS } from '../../test/corpus';
import { type Box, changedPixels, renderPage } from '../../test/render-support';

/** Pixels per point of the renders compared (36 dpi). */
const RENDER_SCALE = 0.5;

/**
 * Two signers' steps on every file of the shared corpus (issue 5, Done when): each new signature
 * valid in pdfsig, every signature that was valid before still valid, and qpdf --check no worse
 * than it was. Files that cannot take a signature are refused with a reason instead. And judged
 * as a person sees them (issue 20): poppler's rendering of the signed page has ink in each of the
 * two signers' boxes and is unchanged everywhere else.
 */

/** What cannot be signed, and the reason it is refused with. */
const REFUSED: Record<string, RegExp> = {
  'bad-header-only-44b.pdf': /damaged beyond repair/,
  'not-a-pdf-png.pdf': /damaged beyond repair/,
  'not-a-pdf-text.pdf': /damaged beyond repair/,
  'enc-userpw-aes256-view.pdf': /password/,
  'enc-userpw-rc4-openpassword.pdf': /password/,
  'signed-certified-p1-encrypted.pdf': /no changes allowed/,
  'signed-pades-certified-p1-16p.pdf': /no changes allowed/,
};

/** Read by poppler only after rebuilding their cross-reference: rewritten before the first seal. */
const REPAIRED = ['broken-no-xref-no-trailer.pdf', 'broken-xref-offset-word.pdf', 'leading-junk-pdf20.pdf'];

let fixture: SealFixture;
beforeAll(async () => {
  fixture = await createSealFixture('ecdsa-p256');
});
afterAll(() => fixture?.cleanup());

/** Where signer `slot` signs: side by side along the page's bottom edge, small enough for the 4 pt page too. */
function boxOf(source: Buffer, slot: number): Box {
  const page = openPdfFile(source).pages()[0]!;
  const [x0, y0, x1, y1] = page.cropBox;
  const turned = page.rotate === 90 || page.rotate === 270;
  const w = Math.min(turned ? 20 : 60, (x1 - x0) / 2);
  const h = Math.min(turned ? 60 : 20, (y1 - y0) / 2);
  return turned ? [x0, y0 + slot * h, x0 + w, y0 + (slot + 1) * h] : [x0 + slot * w, y0, x0 + (slot + 1) * w, y0 + h];
}

async function signStep(source: Buffer, signer: string, slot: number) {
  const page = openPdfFile(source).pages()[0]!;
  const rotate = page.rotate as Rotation;
  const rect = boxOf(source, slot);
  const chain = [fixture.ca.certificatePem];
  return sealRevision({
    source,
    signature: {
      pageIndex: 0,
      rect,
      appearance: textAppearance({ ...shownSizeOfRect(rect, rotate), rotate, lines: [signer] }),
      fieldName: `Pakt signature ${slot + 1}`,
      signerName: signer,
      signedAt: new Date('2026-11-22T10:00:00Z'),
    },
    cmsMaxSize: maxCmsSize({ certificate: fixture.seal.certificatePem, chain }),
    sign: (digest) => signDigest({ digest, key: fixture.seal.privateKeyPkcs8Pem, certificate: fixture.seal.certificatePem, chain }),
  });
}

function judge(file: string) {
  const sig = run('pdfsig', [file]);
  const qpdf = run('qpdf', ['--check', file]);
  return {
    signatures: (sig.stdout.match(/^Signature #\d+:/gm) ?? []).length,
    valid: (sig.stdout.match(/Signature Validation: Signature is Valid\./g) ?? []).length,
    // 0 clean, 3 warnings only, 2 errors.
    qpdf: qpdf.status,
    report: `${sig.stdout}${qpdf.stdout}${qpdf.stderr}`,
  };
}

/**
 * The first page rendered before and after both signers: ink in each signer's box (where a box is
 * at least two pixels each way at this scale: the 4 pt page's are not), and no other pixel changed.
 */
function expectInkOnlyInBoxes(name: string, source: Buffer, signed: Buffer) {
  const page = openPdfFile(source).pages()[0]!;
  const boxes = [boxOf(source, 0), boxOf(source, 1)];
  const stem = name.replace(/\.pdf$/, '');
  const { changedIn, changedOutside } = changedPixels(renderPage(source, 1, fixture.dir, `${stem}-before`, RENDER_SCALE), renderPage(signed, 1, fixture.dir, `${stem}-after`, RENDER_SCALE), boxes, {
    cropBox: page.cropBox,
    rotate: page.rotate,
  });
  expect(changedOutside, `${name}: pixels changed outside the signers' boxes`).toBe(0);
  boxes.forEach(([x0, y0, x1, y1], index) => {
    if (Math.min(x1 - x0, y1 - y0) * RENDER_SCALE >= 2) expect(changedIn[index], `${name}: no ink in signer ${index + 1}'s box`).toBeGreaterThan(0);
  });
}

const files = fs.readdirSync(CORPUS).filter((name) => name.endsWith('.pdf')).sort();

describe('two signers on every file of the corpus', () => {
  it('covers the whole corpus', () => {
    expect(files.length).toBeGreaterThanOrEqual(45);
  });

  it.each(files)('%s', async (name) => {
    const original = fs.readFileSync(path.join(CORPUS, name));
    const refusal = REFUSED[name];
    if (refusal) {
      await expect(prepareForSealing(original).then(({ source }) => signStep(source, 'Asha Rao', 0))).rejects.toThrow(refusal);
      return;
    }
    // A file whose cross-reference is broken is rewritten once, before its first signature.
    const { source, repaired } = await prepareForSealing(original);
    expect(repaired).toBe(REPAIRED.includes(name));
    const before = judge(path.join(CORPUS, name));
    const first = await signStep(source, 'Asha Rao', 0);
    const second = await signStep(first.bytes, 'Ravi Iyer', 1);
    expect(second.bytes.subarray(0, source.length).equals(source)).toBe(true);
    if (repaired) {
      // poppler could not count this file's signatures before; it counts the two new ones now.
      const out = path.join(fixture.dir, name);
      fs.writeFileSync(out, second.bytes);
      const after = judge(out);
      expect([after.signatures, after.valid], after.report).toEqual([2, 2]);
      expect(after.qpdf, after.report).toBe(0);
      expectInkOnlyInBoxes(name, source, second.bytes);
      return;
    }
    const out = path.join(fixture.dir, name);
    fs.writeFileSync(out, second.bytes);
    const after = judge(out);
    expect(after.signatures, after.report).toBe(before.signatures + 2);
    expect(after.valid, after.report).toBe(before.valid + 2);
    expect(after.qpdf === 0 || after.qpdf === before.qpdf, after.report).toBe(true);
    expectInkOnlyInBoxes(name, source, second.bytes);
  });
});
