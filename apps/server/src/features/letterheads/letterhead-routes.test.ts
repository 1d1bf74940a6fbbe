import { LETTERHEAD_MAX_SIZE_BYTES, deleteLetterheadTemplate, downloadLetterheadTemplate, listLetterheadTemplates, uploadLetterheadTemplate } from '@pakt/domain';
import { eq } from 'drizzle-orm';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { letterheadTemplates } from '../../platform/db/schema';
import { buildTestApp, type TestApp } from '../../test/test-app';
import { signedInMember } from '../../test/app-factories';
import { inject } from '../../test/inject';

/**
 * Letterhead templates (issue 8, spec §5 and §7): PNG or JPEG by their bytes, 500 KB at most,
 * shared within the tenant, deleted by their uploader or an admin. Anonymous callers, outsiders
 * and wrong roles are walked by http/guarded-endpoints.test.ts.
 */
let t: TestApp;
type Who = { headers: Record<string, string>; user: { id: string }; tenant: { id: string } };
type Role = 'admin' | 'custodian' | 'signer' | 'submitter';

const member = (role: Role, tenant?: { id: string }) => signedInMember(t, { role, ...(tenant ? { tenant } : {}) });

function png(width: number, height: number): Buffer {
  const image = new PNG({ width, height });
  image.data.fill(0x80);
  return PNG.sync.write(image);
}

/** A JPEG header of the given frame size, padded with comment segments to exactly `total` bytes. */
function jpeg(width: number, height: number, total: number): Buffer {
  const sof = Buffer.from([0xff, 0xc0, 0x00, 0x11, 0x08, height >> 8, height & 0xff, width >> 8, width & 0xff, 0x03, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]);
  const head = Buffer.from([0xff, 0xd8]);
  const tail = Buffer.from([0xff, 0xd9]);
  const parts: Buffer[] = [head, sof];
  let left = total - head.length - sof.length - tail.length;
  while (left > 0) {
    // A comment segment is 4 bytes of marker and length plus up to 65533 of text.
    const body = Math.min(65533, left - 4);
    if (body < 0) throw new Error('cannot pad by fewer than 4 bytes');
    const segment = Buffer.alloc(4 + body, 0x20);
    segment.writeUInt16BE(0xfffe, 0);
    segment.writeUInt16BE(body + 2, 2);
    parts.push(segment);
    left -= segment.length;
  }
  parts.push(tail);
  return Buffer.concat(parts);
}

const upload = (who: Who, bytes: Buffer, name: string, type = 'application/octet-stream') => inject(t.app, uploadLetterheadTemplate, { as: who, file: { bytes, name, type } });
const list = async (who: Who) => {
  const res = await inject(t.app, listLetterheadTemplates, { headers: who.headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.letterheads as { letterHeadDocId: string; name: string; deletable: boolean; width: number; height: number }[];
};
const remove = (who: Who, id: string) => inject(t.app, deleteLetterheadTemplate, { params: { letterHeadDocId: id }, headers: who.headers });
const rows = (tenantId: string) => t.database.db.select().from(letterheadTemplates).where(eq(letterheadTemplates.tenantId, tenantId)).orderBy(letterheadTemplates.id);

let A: Who, Cus: Who, Cus2: Who, Sub: Who, Other: Who;

beforeAll(async () => {
  t = await buildTestApp();
  A = await member('admin');
  Cus = await member('custodian', A.tenant);
  Cus2 = await member('custodian', A.tenant);
  Sub = await member('submitter', A.tenant);
  Other = await member('custodian');
});
afterAll(() => t.close());

describe('uploading a letterhead', () => {
  it('stores a PNG and a JPEG with their sizes, whatever their names say, and serves the bytes back', async () => {
    const pngBytes = png(300, 60);
    const first = await upload(Cus, pngBytes, 'banner.jpg', 'image/jpeg');
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().data).toMatchObject({ name: 'banner.jpg', contentType: 'image/png', width: 300, height: 60, size: pngBytes.length, deletable: true });

    const jpegBytes = jpeg(1200, 200, 4096);
    const second = await upload(Cus, jpegBytes, 'logo', 'text/plain');
    expect(second.json().data).toMatchObject({ contentType: 'image/jpeg', width: 1200, height: 200, size: 4096 });

    const image = await inject(t.app, downloadLetterheadTemplate, { params: { letterHeadDocId: first.json().data.letterHeadDocId }, headers: Cus.headers });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.rawPayload.equals(pngBytes)).toBe(true);
  });

  it('accepts exactly 500 KB and refuses one byte more with the size code and maxSizeExceeded, storing nothing', async () => {
    const before = (await rows(A.tenant.id)).length;
    const exact = await upload(A, jpeg(800, 100, LETTERHEAD_MAX_SIZE_BYTES), 'exact.jpeg', 'image/jpeg');
    expect(exact.statusCode, exact.body).toBe(200);
    const over = await upload(A, jpeg(800, 100, LETTERHEAD_MAX_SIZE_BYTES + 1), 'over.jpeg', 'image/jpeg');
    expect(over.statusCode).toBe(413);
    expect(over.json()).toMatchObject({ code: -142, issues: [{ path: 'file', message: 'maxSizeExceeded' }] });
    const far = await upload(A, jpeg(800, 100, 3 * LETTERHEAD_MAX_SIZE_BYTES), 'far.jpeg', 'image/jpeg');
    expect(far.json().code).toBe(-142);
    expect((await rows(A.tenant.id)).length).toBe(before + 1);
  });

  it("refuses what is not a PNG or JPEG by its bytes with -6 'Please select image in jpg/png/jpeg'", async () => {
    const before = await rows(A.tenant.id);
    const pdf = Buffer.from('%PDF-1.7\n1 0 obj<<>>endobj\n%%EOF\n');
    const gif = Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1');
    const brokenPng = Buffer.concat([png(10, 10).subarray(0, 40)]);
    const hugeJpeg = jpeg(9000, 100, 2048);
    const noFrame = Buffer.from([0xff, 0xd8, 0xff, 0xd9]);
    for (const [bytes, name] of [
      [pdf, 'letterhead.png'],
      [gif, 'letterhead.gif'],
      [brokenPng, 'broken.png'],
      [hugeJpeg, 'wide.jpg'],
      [noFrame, 'empty.jpg'],
      [Buffer.alloc(0), 'nothing.png'],
    ] as const) {
      const res = await upload(A, bytes, name, 'image/png');
      expect(res.statusCode, name).toBe(400);
      expect(res.json(), name).toMatchObject({ code: -6, message: 'Please select image in jpg/png/jpeg' });
    }
    expect(await rows(A.tenant.id)).toEqual(before);
  });

  it('refuses a request without the file field', async () => {
    // Raw: a multipart body with no file in it, which the contract would not send.
    const res = await t.app.inject({
      method: 'POST',
      url: '/msbapi/v1/letterheadtemplate',
      headers: { ...A.headers, 'content-type': 'multipart/form-data; boundary=x' },
      payload: '--x--\r\n',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe(-6);
  });
});

describe('who sees and deletes letterheads', () => {
  it('lists the tenant’s letterheads to everyone in it who composes, newest first, and nobody else’s', async () => {
    const mine = (await upload(Cus2, png(40, 10), 'cus2.png')).json().data.letterHeadDocId as string;
    await upload(Other, png(40, 10), 'elsewhere.png');
    const seenBySub = await list(Sub);
    expect(seenBySub[0]!.letterHeadDocId).toBe(mine);
    expect(seenBySub.map((l) => l.name)).not.toContain('elsewhere.png');
    expect(seenBySub.length).toBe((await rows(A.tenant.id)).length);
    expect(seenBySub.every((l) => l.deletable === false)).toBe(true);
    expect((await list(A)).every((l) => l.deletable)).toBe(true);
    expect((await list(Other)).map((l) => l.name)).toEqual(['elsewhere.png']);
  });

  it('lets the uploader and an admin delete, refuses another composer with -11, and 404s another tenant with nothing changed', async () => {
    const id = (await upload(Cus, png(20, 5), 'to-delete.png')).json().data.letterHeadDocId as string;
    const before = await rows(A.tenant.id);

    const byColleague = await remove(Cus2, id);
    expect(byColleague.statusCode).toBe(403);
    expect(byColleague.json().code).toBe(-11);
    const byOutsider = await remove(Other, id);
    expect(byOutsider.statusCode).toBe(404);
    const outsiderImage = await inject(t.app, downloadLetterheadTemplate, { params: { letterHeadDocId: id }, headers: Other.headers });
    expect(outsiderImage.statusCode).toBe(404);
    expect(await rows(A.tenant.id)).toEqual(before);

    const byOwner = await remove(Cus, id);
    expect(byOwner.json()).toMatchObject({ code: 1, data: { deleted: true } });
    expect((await remove(Cus, id)).statusCode).toBe(404);

    const another = (await upload(Cus, png(20, 5), 'admin-deletes.png')).json().data.letterHeadDocId as string;
    expect((await remove(A, another)).statusCode).toBe(200);
    expect((await list(Cus)).map((l) => l.letterHeadDocId)).not.toContain(another);
  });
});
