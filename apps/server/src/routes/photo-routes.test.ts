import { PHOTO_MAX_BYTES } from '@pakt/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../db/schema';
import { GOOD_PASSWORD, makeMember } from '../test/factories';
import { bearer, signIn } from '../test/sign-in';
import { multipart } from '../test/multipart';
import { buildTestApp, type TestApp } from '../test/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('IHDR-and-the-rest')]);

describe('profile photo', () => {
  it('stores a PNG, serves it to its owner and co-members, and 404s to everyone else', async () => {
    const owner = await makeMember(t.database.db);
    const colleague = await makeMember(t.database.db, { tenant: owner.tenant });
    const stranger = await makeMember(t.database.db);
    const [mine, theirs, outsider] = await Promise.all([owner, colleague, stranger].map((m) => signIn(t.app, m.user.email, GOOD_PASSWORD)));
    const url = `/msbapi/v1/users/${owner.user.id}/photo`;

    const up = multipart(PNG, 'me.png', 'image/png');
    const res = await t.app.inject({ method: 'POST', url, headers: { ...bearer(mine!), ...up.headers }, payload: up.payload });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.hasPhoto).toBe(true);

    for (const grant of [mine!, theirs!]) {
      const got = await t.app.inject({ method: 'GET', url, headers: bearer(grant) });
      expect(got.statusCode).toBe(200);
      expect(got.headers['content-type']).toBe('image/png');
      expect(got.rawPayload.equals(PNG)).toBe(true);
    }
    expect((await t.app.inject({ method: 'GET', url, headers: bearer(outsider!) })).statusCode).toBe(404);

    // Nobody uploads or deletes someone else's photo.
    const other = multipart(PNG, 'me.png', 'image/png');
    expect((await t.app.inject({ method: 'POST', url, headers: { ...bearer(theirs!), ...other.headers }, payload: other.payload })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'DELETE', url, headers: bearer(theirs!) })).statusCode).toBe(404);

    const deleted = await t.app.inject({ method: 'DELETE', url, headers: bearer(mine!) });
    expect(deleted.json().data.hasPhoto).toBe(false);
    expect((await t.app.inject({ method: 'GET', url, headers: bearer(mine!) })).statusCode).toBe(404);
  });

  it('refuses what is not a PNG or JPEG, whatever it claims, and anything over 1 MB, keeping the old photo', async () => {
    const owner = await makeMember(t.database.db);
    const grant = await signIn(t.app, owner.user.email, GOOD_PASSWORD);
    const url = `/msbapi/v1/users/${owner.user.id}/photo`;
    const first = multipart(PNG, 'me.png', 'image/png');
    await t.app.inject({ method: 'POST', url, headers: { ...bearer(grant), ...first.headers }, payload: first.payload });
    const [before] = await t.database.db.select().from(users).where(eq(users.id, owner.user.id));

    const fake = multipart(Buffer.from('<svg onload="alert(1)"></svg>'), 'me.png', 'image/png');
    const notImage = await t.app.inject({ method: 'POST', url, headers: { ...bearer(grant), ...fake.headers }, payload: fake.payload });
    expect(notImage.statusCode).toBe(400);
    expect(notImage.json().code).toBe(-6);

    const big = multipart(Buffer.concat([PNG, Buffer.alloc(PHOTO_MAX_BYTES)]), 'me.png', 'image/png');
    const tooBig = await t.app.inject({ method: 'POST', url, headers: { ...bearer(grant), ...big.headers }, payload: big.payload });
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json().code).toBe(-142);

    const [after] = await t.database.db.select().from(users).where(eq(users.id, owner.user.id));
    expect(after!.photoSha256).toBe(before!.photoSha256);
  });
});
