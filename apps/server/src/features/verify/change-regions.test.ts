import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendRevision, ObjectAllocator } from '../../platform/pdf/incremental-writer';
import { pdfNumber, type PdfValue } from '../../platform/pdf/objects';
import { openPdfFile } from '../../platform/pdf/pdf-file';
import { analysePdf } from '../../platform/pdf/verify-pdf';
import { textAppearance } from '../../platform/sealing/appearance';
import { sealRevision } from '../../platform/sealing/seal';
import { maxCmsSize, signDigest } from '../../platform/signing/cms';
import { corpusPdf } from '../../test/corpus';
import { createSealFixture, type SealFixture } from '../../test/signing-support';
import { withChangedRegions } from './change-regions';

/**
 * Issue 20: the verifier shows where each revision changed a page, as rendered: the box of the
 * changed pixels in page points, and the area before and after.
 */
let fixture: SealFixture;
let dir: string;
let signed: Buffer;

beforeAll(async () => {
  fixture = await createSealFixture('ecdsa-p256');
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pakt-regions-'));
  const chain = [fixture.ca.certificatePem];
  const sealed = await sealRevision({
    source: corpusPdf('plain-1p-pdftex.pdf'),
    signature: { pageIndex: 0, rect: [40, 40, 190, 90], appearance: textAppearance({ width: 150, height: 50, rotate: 0, lines: ['Signed by Asha Rao'], border: true }), fieldName: 'Signature of Asha', signerName: 'Asha Rao', signedAt: new Date('2026-11-22T10:00:00Z') },
    cmsMaxSize: maxCmsSize({ certificate: fixture.seal.certificatePem, chain }),
    sign: (digest) => signDigest({ digest, key: fixture.seal.privateKeyPkcs8Pem, certificate: fixture.seal.certificatePem, chain }),
  });
  signed = Buffer.from(sealed.bytes);
});
afterAll(() => {
  fixture.cleanup();
  fs.rmSync(dir, { recursive: true, force: true });
});

const imageSize = (dataUrl: string | null) => {
  const png = PNG.sync.read(Buffer.from(dataUrl!.replace('data:image/png;base64,', ''), 'base64'));
  return [png.width, png.height];
};

describe('the regions a revision changed', () => {
  it('are the signature’s box for a signing revision, with the area before and after', () => {
    const revisions = withChangedRegions(signed, analysePdf(signed).revisions, dir);
    expect(revisions[0]!.regions).toEqual([]);
    const [region] = revisions[1]!.regions;
    expect(revisions[1]!.regions).toHaveLength(1);
    expect(region!.page).toBe(1);
    const [x0, y0, x1, y1] = region!.box;
    // Inside the signature's box, give or take a pixel (2 pt at this scale), and most of it.
    expect(x0).toBeGreaterThanOrEqual(38);
    expect(y0).toBeGreaterThanOrEqual(38);
    expect(x1).toBeLessThanOrEqual(192);
    expect(y1).toBeLessThanOrEqual(92);
    expect(x1 - x0).toBeGreaterThan(100);
    expect(imageSize(region!.before)).toEqual(imageSize(region!.after));
  });

  it('show where an unsigned revision rewrote the page after the signature', () => {
    const file = openPdfFile(signed);
    const allocator = new ObjectAllocator(file);
    const page = file.pages()[0]!;
    const content = allocator.allocate();
    const data = Buffer.from('BT /F1 24 Tf 300 700 Td (PAID IN FULL) Tj ET', 'latin1');
    const { tail } = appendRevision({
      file,
      source: signed,
      objects: [
        { ref: content, value: { kind: 'dict', entries: new Map<string, PdfValue>([['Length', pdfNumber(data.length)]]) }, stream: data },
        { ref: page.ref, value: { kind: 'dict', entries: new Map([...page.dict.entries, ['Contents', content]]) } },
      ],
      allocator,
    });
    const attacked = Buffer.concat([signed, tail]);
    const revisions = withChangedRegions(attacked, analysePdf(attacked).revisions, dir);
    const regions = revisions[2]!.regions;
    expect(regions).toHaveLength(1);
    // The whole original text is gone and the new line drawn: the region spans the page's text.
    const [x0, , x1] = regions[0]!.box;
    expect(x1 - x0).toBeGreaterThan(200);
    expect(regions[0]!.before).toMatch(/^data:image\/png;base64,/);
  });
});
