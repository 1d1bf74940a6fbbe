import { exchangeEasyToken, previewEpakDocumentPage, signEpakDocument } from '@pakt/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outbox } from '../../platform/db/schema';
import { signatureValues, signedInMember, startedEpak } from '../../test/app-factories';
import { inject } from '../../test/inject';
import { buildTestApp, type TestApp } from '../../test/test-app';
import { clearPagePreviews } from './page-preview';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

/** A PNG's size from its IHDR chunk (bytes 16–23). */
function pngSize(png: Buffer): { width: number; height: number } {
  expect(png.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe(true);
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

describe('a page picture of an ePak document', () => {
  it('is a PNG of the asked width and the page’s shape, for the owner and a signer through their link; anyone else gets 404', async () => {
    const external = `outside-${Date.now()}@example.com`;
    const signer = await signedInMember(t, { role: 'signer' });
    const owner = await signedInMember(t, { tenant: signer.tenant });
    const { epak } = await startedEpak(t, { owner, files: ['landscape-letter-1p.pdf'], steps: [{ type: 'SIGN', recipients: [external, signer] }] });
    const params = { ePakId: epak.ePakId, documentId: epak.documents[0]!.documentId, page: 1 };

    const picture = await inject(t.app, previewEpakDocumentPage, { as: owner, params, query: { width: 480 } });
    expect(picture.statusCode, picture.body).toBe(200);
    expect(picture.headers['content-type']).toBe('image/png');
    expect(picture.headers['content-disposition']).toBeUndefined();
    const size = pngSize(picture.rawPayload);
    const page = epak.documents[0]!.pages[0]!;
    expect(size.width).toBe(480);
    // Letter landscape: 792 × 612 points.
    expect(size.height).toBe(Math.round((480 * page.height) / page.width));
    expect(size.height).toBeLessThan(size.width);

    const link = /\/emailsign\?token=([A-Za-z0-9_-]+)/.exec((await t.database.db.select().from(outbox).where(eq(outbox.recipient, external)))[0]!.body)![1]!;
    const exchanged = await inject(t.app, exchangeEasyToken, { params: { easytoken: link } });
    const throughLink = await inject(t.app, previewEpakDocumentPage, { headers: { authorization: `Bearer ${exchanged.data.accessToken}` }, params, query: { width: 800 } });
    expect(throughLink.statusCode, throughLink.body).toBe(200);
    expect(pngSize(throughLink.rawPayload).width).toBe(800);

    const colleague = await signedInMember(t, { tenant: owner.tenant });
    const outsider = await signedInMember(t);
    for (const who of [colleague, outsider]) {
      const refused = await inject(t.app, previewEpakDocumentPage, { as: who, params, query: { width: 480 } });
      expect(refused.statusCode, refused.body).toBe(404);
      expect(refused.rawPayload.includes(Buffer.from('PNG'))).toBe(false);
    }
  });

  it('refuses a page the document does not have and a width not offered (-6)', async () => {
    const { owner, epak } = await startedEpak(t);
    const params = { ePakId: epak.ePakId, documentId: epak.documents[0]!.documentId };
    const beyond = await inject(t.app, previewEpakDocumentPage, { as: owner, params: { ...params, page: 2 }, query: { width: 480 } });
    expect(beyond.statusCode).toBe(400);
    expect(beyond.json()).toMatchObject({ code: -6, issues: [{ path: 'page' }], message: expect.stringMatching(/has 1 page/) });
    for (const width of [0, 481, 5000]) {
      const odd = await inject(t.app, previewEpakDocumentPage, { as: owner, params: { ...params, page: 1 }, query: { width: width as 480 } });
      expect(odd.statusCode, String(width)).toBe(400);
      expect(odd.json().code).toBe(-6);
    }
    const zero = await inject(t.app, previewEpakDocumentPage, { as: owner, params: { ...params, page: 0 }, query: { width: 480 } });
    expect(zero.json().code).toBe(-6);
  });

  it('shows each signature once it is made: a new revision is a new picture', async () => {
    clearPagePreviews();
    const { owner, epak, placed, steps } = await startedEpak(t);
    const signer = steps[0]!.recipients[0] as Awaited<ReturnType<typeof signedInMember>>;
    const documentId = epak.documents[0]!.documentId;
    const picture = async () => (await inject(t.app, previewEpakDocumentPage, { as: owner, params: { ePakId: epak.ePakId, documentId, page: 1 }, query: { width: 640 } })).rawPayload;
    const before = await picture();
    expect((await picture()).equals(before)).toBe(true);
    const signed = await inject(t.app, signEpakDocument, { as: signer, params: { ePakId: epak.ePakId, documentId }, body: { values: signatureValues(placed, documentId, signer.user.email, 'Lata Signer') } });
    expect(signed.statusCode, signed.body).toBe(200);
    const after = await picture();
    pngSize(after);
    expect(after.equals(before)).toBe(false);
  });
});
