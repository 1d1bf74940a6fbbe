import { deleteUserPhoto, filteredUsers, getUserPhoto, PHOTO_MAX_BYTES, type Role, uploadUserPhoto } from '@pakt/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminAuditLog, users } from '../../platform/db/schema';
import { GOOD_PASSWORD, makeMember } from '../../test/factories';
import { bearer, signIn } from '../../test/sign-in';
import { buildTestApp, type TestApp } from '../../test/test-app';
import { inject } from '../../test/inject';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const getPhoto = (userId: string, headers: Record<string, string>) => inject(t.app, getUserPhoto, { params: { userId }, headers });
const removePhoto = (userId: string, headers: Record<string, string>) => inject(t.app, deleteUserPhoto, { params: { userId }, headers });

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('IHDR-and-the-rest')]);

/** Uploads `bytes` as the photo of `userId`, named and typed as a PNG whatever they are. */
const uploadPhoto = (userId: string, headers: Record<string, string>, bytes = PNG) =>
  inject(t.app, uploadUserPhoto, { params: { userId }, headers, file: { bytes, name: 'me.png', type: 'image/png' } });

describe('profile photo', () => {
  it('stores a PNG, serves it to its owner and co-members, and 404s to everyone else', async () => {
    const owner = await makeMember(t.database.db);
    const colleague = await makeMember(t.database.db, { tenant: owner.tenant });
    const stranger = await makeMember(t.database.db);
    const [mine, theirs, outsider] = await Promise.all([owner, colleague, stranger].map((m) => signIn(t.app, m.user.email, GOOD_PASSWORD)));
    const res = await uploadPhoto(owner.user.id, bearer(mine!));
    expect(res.statusCode).toBe(200);
    expect(res.json().data.hasPhoto).toBe(true);

    for (const grant of [mine!, theirs!]) {
      const got = await getPhoto(owner.user.id, bearer(grant));
      expect(got.statusCode).toBe(200);
      expect(got.headers['content-type']).toBe('image/png');
      expect(got.rawPayload.equals(PNG)).toBe(true);
    }
    expect((await getPhoto(owner.user.id, bearer(outsider!))).statusCode).toBe(404);

    // Nobody uploads or deletes someone else's photo.
    expect((await uploadPhoto(owner.user.id, bearer(theirs!))).statusCode).toBe(404);
    expect((await removePhoto(owner.user.id, bearer(theirs!))).statusCode).toBe(404);

    const deleted = await removePhoto(owner.user.id, bearer(mine!));
    expect(deleted.data.hasPhoto).toBe(false);
    expect((await getPhoto(owner.user.id, bearer(mine!))).statusCode).toBe(404);
  });

  it('refuses what is not a PNG or JPEG, whatever it claims, and anything over 1 MB, keeping the old photo', async () => {
    const owner = await makeMember(t.database.db);
    const grant = await signIn(t.app, owner.user.email, GOOD_PASSWORD);
    await uploadPhoto(owner.user.id, bearer(grant));
    const [before] = await t.database.db.select().from(users).where(eq(users.id, owner.user.id));

    const notImage = await uploadPhoto(owner.user.id, bearer(grant), Buffer.from('<svg onload="alert(1)"></svg>'));
    expect(notImage.statusCode).toBe(400);
    expect(notImage.json().code).toBe(-6);

    const tooBig = await uploadPhoto(owner.user.id, bearer(grant), Buffer.concat([PNG, Buffer.alloc(PHOTO_MAX_BYTES)]));
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json().code).toBe(-142);

    const [after] = await t.database.db.select().from(users).where(eq(users.id, owner.user.id));
    expect(after!.photoSha256).toBe(before!.photoSha256);
  });
});

describe('an admin removing a member\'s photo', () => {
  type Member = Awaited<ReturnType<typeof makeMember>>;
  /** A member who has uploaded a photo themselves. */
  async function withPhoto(role: Role, tenant?: { id: string }) {
    const made = await makeMember(t.database.db, { role, ...(tenant ? { tenant } : {}) });
    const grant = await signIn(t.app, made.user.email, GOOD_PASSWORD);
    const res = await uploadPhoto(made.user.id, bearer(grant));
    expect(res.statusCode, res.body).toBe(200);
    return { ...made, grant };
  }

  async function signedIn(role: Role, tenant?: { id: string }) {
    const made = await makeMember(t.database.db, { role, ...(tenant ? { tenant } : {}) });
    const grant = await signIn(t.app, made.user.email, GOOD_PASSWORD);
    return { ...made, headers: { ...bearer(grant), 'x-tenant-id': made.tenant.id } };
  }

  const photoOf = async (who: Member) => (await t.database.db.select().from(users).where(eq(users.id, who.user.id)))[0]!.photoSha256;
  const auditOf = (tenantId: string) => t.database.db.select().from(adminAuditLog).where(eq(adminAuditLog.tenantId, tenantId));

  it('removes a member\'s photo, answers their updated info and records who did it', async () => {
    const admin = await signedIn('admin');
    const member = await withPhoto('custodian', admin.tenant);
    const res = await removePhoto(member.user.id, admin.headers);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.data).toMatchObject({ id: member.user.id, email: member.user.email, hasPhoto: false });
    expect(await photoOf(member)).toBeNull();
    expect((await getPhoto(member.user.id, bearer(member.grant))).statusCode).toBe(404);
    const audit = await auditOf(admin.tenant.id);
    expect(audit.map((e) => [e.action, e.actorId, e.targetType, e.targetId, e.targetLabel])).toEqual([
      ['user_photo_removed', admin.user.id, 'user', member.user.id, member.user.email],
    ]);

    // Gone already: the same answer, and nothing more to record.
    const again = await removePhoto(member.user.id, admin.headers);
    expect(again.statusCode).toBe(200);
    expect(again.data.hasPhoto).toBe(false);
    expect(await auditOf(admin.tenant.id)).toHaveLength(1);
  });

  it('shows in the admin user list which members have a photo', async () => {
    const admin = await signedIn('admin');
    const member = await withPhoto('signer', admin.tenant);
    const res = await inject(t.app, filteredUsers, { headers: admin.headers });
    const listed = new Map((res.json().data.users as { userId: string; hasPhoto: boolean }[]).map((u) => [u.userId, u.hasPhoto]));
    expect(listed.get(member.user.id)).toBe(true);
    expect(listed.get(admin.user.id)).toBe(false);
  });

  it('lets an admin remove their own with or without a tenant header, as anyone may, unrecorded', async () => {
    const admin = await withPhoto('admin');
    const res = await removePhoto(admin.user.id, { ...bearer(admin.grant), 'x-tenant-id': admin.tenant.id });
    expect(res.statusCode).toBe(200);
    expect(res.data.hasPhoto).toBe(false);
    expect(await auditOf(admin.tenant.id)).toEqual([]);
  });

  it('refuses a super admin\'s photo (403) and changes nothing', async () => {
    const admin = await signedIn('admin');
    const superAdmin = await withPhoto('super_admin', admin.tenant);
    const before = await photoOf(superAdmin);
    const res = await removePhoto(superAdmin.user.id, admin.headers);
    expect(res.statusCode).toBe(403);
    expect(res.code).toBe(-11);
    expect(await photoOf(superAdmin)).toBe(before);
    expect(await auditOf(admin.tenant.id)).toEqual([]);
  });

  it('never reaches a person of another tenant: 404 whichever tenant is named, and nothing changes', async () => {
    const admin = await signedIn('admin');
    const stranger = await withPhoto('signer');
    const before = await photoOf(stranger);
    // Named in the admin's own tenant, where the stranger is not a member.
    const own = await removePhoto(stranger.user.id, admin.headers);
    expect(own.statusCode).toBe(404);
    expect(own.json()).toEqual({ code: -1, data: null, message: 'Not found.' });
    // Named in the stranger's tenant, which the admin does not belong to.
    const theirs = await removePhoto(stranger.user.id, { ...admin.headers, 'x-tenant-id': stranger.tenant.id });
    expect(theirs.statusCode).toBe(404);
    expect(await photoOf(stranger)).toBe(before);
    expect(await auditOf(admin.tenant.id)).toEqual([]);
    expect(await auditOf(stranger.tenant.id)).toEqual([]);
  });

  it('refuses a member who is not an admin (403 in their tenant, 404 without one) and changes nothing', async () => {
    const custodian = await signedIn('custodian');
    const colleague = await withPhoto('signer', custodian.tenant);
    const before = await photoOf(colleague);
    const inTenant = await removePhoto(colleague.user.id, custodian.headers);
    expect(inTenant.statusCode).toBe(403);
    expect(inTenant.code).toBe(-11);
    const { 'x-tenant-id': _, ...noTenant } = custodian.headers;
    expect((await removePhoto(colleague.user.id, noTenant)).statusCode).toBe(404);
    expect(await photoOf(colleague)).toBe(before);
    expect(await auditOf(custodian.tenant.id)).toEqual([]);
  });
});
