import {
  createRubberStamp,
  deleteRubberStamp,
  downloadRubberStampImage,
  type EndpointInput,
  filteredUsers,
  listRubberStamps,
  readProfile,
  RUBBER_STAMP_MAX_SIZE_BYTES,
  RubberStamp,
  setUserPasscodeFlag,
  shareRubberStamp,
  updateRubberStamp,
} from '@pakt/domain';
import { and, eq } from 'drizzle-orm';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminAuditLog, groupMembers, groups, memberships, rubberStamps, rubberStampShares, tenantSettings } from '../../platform/db/schema';
import { inject } from '../../test/inject';
import { buildTestApp, type TestApp } from '../../test/test-app';
import { signedInMember } from '../../test/app-factories';
import { multipartForm, type MultipartFile } from '../../test/multipart';

/**
 * Rubber stamps (issue 8, spec §6 and §7): kept by members while the tenant's flag is on, shared
 * with members and groups of the tenant, edited and shared by their owner only, deleted by the
 * owner or an admin. Anonymous callers, outsiders and wrong roles are walked by
 * http/guarded-endpoints.test.ts; the passcode flag that applying a stamp needs is set by an admin.
 */
let t: TestApp;
type Who = { headers: Record<string, string>; user: { id: string; email: string }; tenant: { id: string } };
type Role = 'admin' | 'custodian' | 'signer' | 'submitter';

const member = (role: Role, tenant?: { id: string }) => signedInMember(t, { role, ...(tenant ? { tenant } : {}) });

async function enableStamps(tenantId: string, on = true) {
  await t.database.db
    .insert(tenantSettings)
    .values({ tenantId, settings: { rubberStampEnabled: on } })
    .onConflictDoUpdate({ target: tenantSettings.tenantId, set: { settings: { rubberStampEnabled: on } } });
}

function png(width: number, height: number, shade = 0x80): Buffer {
  const image = new PNG({ width, height });
  image.data.fill(shade);
  return PNG.sync.write(image);
}

const uploadStamp = (who: Who, body: EndpointInput<typeof createRubberStamp>['body'], file: MultipartFile) => inject(t.app, createRubberStamp, { as: who, body, file });
const editStamp = (who: Who, body: EndpointInput<typeof updateRubberStamp>['body'], file?: MultipartFile) => inject(t.app, updateRubberStamp, { as: who, body, file });
async function create(who: Who, name: string, bytes = png(120, 120)) {
  const res = await uploadStamp(who, { name }, { bytes, name: 'stamp.png' });
  expect(res.statusCode, res.body).toBe(200);
  return RubberStamp.parse(res.json().data);
}
const list = async (who: Who) => {
  const res = await inject(t.app, listRubberStamps, { as: who });
  expect(res.statusCode, res.body).toBe(200);
  return res.data;
};
const share = (who: Who, body: EndpointInput<typeof shareRubberStamp>['body']) => inject(t.app, shareRubberStamp, { body, as: who });
const image = (who: Who, id: string) => inject(t.app, downloadRubberStampImage, { params: { rubberStampId: id }, as: who });
const remove = (who: Who, id: string) => inject(t.app, deleteRubberStamp, { params: { rubberStampId: id }, as: who });

async function snapshot(tenantId: string) {
  const db = t.database.db;
  return JSON.stringify([
    await db.select().from(rubberStamps).where(eq(rubberStamps.tenantId, tenantId)).orderBy(rubberStamps.id),
    await db.select().from(rubberStampShares).where(eq(rubberStampShares.tenantId, tenantId)).orderBy(rubberStampShares.id),
  ]);
}

let Admin: Who, Owner: Who, A: Who, B: Who, Loner: Who, Other: Who, OtherGroupId: string, GroupId: string;

beforeAll(async () => {
  t = await buildTestApp();
  Admin = await member('admin');
  Owner = await member('custodian', Admin.tenant);
  A = await member('signer', Admin.tenant);
  B = await member('signer', Admin.tenant);
  Loner = await member('signer', Admin.tenant);
  Other = await member('custodian');
  await enableStamps(Admin.tenant.id);
  await enableStamps(Other.tenant.id);
  const db = t.database.db;
  const [group] = await db.insert(groups).values({ tenantId: Admin.tenant.id, name: 'Notaries' }).returning();
  GroupId = group!.id;
  await db.insert(groupMembers).values([
    { groupId: GroupId, tenantId: Admin.tenant.id, userId: A.user.id },
    { groupId: GroupId, tenantId: Admin.tenant.id, userId: B.user.id },
  ]);
  const [otherGroup] = await db.insert(groups).values({ tenantId: Other.tenant.id, name: 'Elsewhere' }).returning();
  OtherGroupId = otherGroup!.id;
});
afterAll(() => t.close());

describe('the tenant flag', () => {
  it('closes every rubber-stamp call while it is off (-11), and opens them when on', async () => {
    const off = await member('custodian');
    const refused = await inject(t.app, listRubberStamps, { as: off });
    expect(refused.statusCode).toBe(403);
    expect(refused.code).toBe(-11);
    const upload = await uploadStamp(off, { name: 'x' }, { bytes: png(50, 50), name: 'x.png' });
    expect(upload.json().code).toBe(-11);
    expect(await t.database.db.select().from(rubberStamps).where(eq(rubberStamps.tenantId, off.tenant.id))).toEqual([]);
    await enableStamps(off.tenant.id);
    expect((await list(off)).stamps).toEqual([]);
  });
});

describe('keeping stamps', () => {
  it('creates a stamp from a PNG, lists it as the owner\'s, and serves its image to the owner', async () => {
    const bytes = png(150, 100);
    const made = await create(Owner, '  Company seal  ', bytes);
    expect(made).toMatchObject({ name: 'Company seal', contentType: 'image/png', width: 150, height: 100, owned: true, deletable: true, ownerId: Owner.user.id });
    expect(made.sharedWith).toEqual({ users: [], groups: [] });
    const mine = await list(Owner);
    expect(mine.stamps.map((s) => s.rubberStampId)).toContain(made.rubberStampId);
    expect(mine.passcodeFlag).toBe(false);
    expect(mine.groups).toEqual([{ groupId: GroupId, groupName: 'Notaries' }]);
    const served = await image(Owner, made.rubberStampId);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.rawPayload.equals(bytes)).toBe(true);
  });

  it('takes the file name when no name is given, and refuses what is not a PNG or JPEG, or too large, storing nothing', async () => {
    const named = await uploadStamp(Owner, {}, { bytes: png(60, 60), name: 'round-seal.png' });
    expect(named.json().data.name).toBe('round-seal');
    const before = await snapshot(Admin.tenant.id);
    const text = await uploadStamp(Owner, { name: 'fake' }, { bytes: Buffer.from('not an image at all'), name: 'fake.png' });
    expect(text.json()).toMatchObject({ code: -6, issues: [{ path: 'file', message: 'imageTypeNotAllowed' }] });
    const big = await uploadStamp(Owner, { name: 'big' }, { bytes: Buffer.concat([png(10, 10), Buffer.alloc(RUBBER_STAMP_MAX_SIZE_BYTES)]), name: 'big.png' });
    expect(big.statusCode).toBe(413);
    expect(big.json()).toMatchObject({ code: -142, issues: [{ path: 'file', message: 'maxSizeExceeded' }] });
    // Raw: a form with no file part, on purpose.
    const form = multipartForm({ name: 'no file' });
    const none = await t.app.inject({ method: 'POST', url: '/msbapi/v2/rubberstamp', headers: { ...Owner.headers, ...form.headers }, payload: form.payload });
    expect(none.json()).toMatchObject({ code: -6, issues: [{ path: 'file' }] });
    expect(await snapshot(Admin.tenant.id)).toBe(before);
  });

  it('lets the owner rename it and replace its image; anyone else is refused and nothing changes', async () => {
    const made = await create(Owner, 'Draft seal');
    const renamed = await editStamp(Owner, { rubberStampId: made.rubberStampId, name: 'Final seal' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json().data).toMatchObject({ name: 'Final seal', width: 120 });
    const replaced = await editStamp(Owner, { rubberStampId: made.rubberStampId }, { bytes: png(200, 80), name: 'new.png' });
    expect(replaced.json().data).toMatchObject({ name: 'Final seal', width: 200, height: 80 });

    const before = await snapshot(Admin.tenant.id);
    // Shared with A, A sees it but may not change it (-11); B, who cannot see it, is told it does not exist.
    expect((await share(Owner, { rubberStampId: made.rubberStampId, userIds: [A.user.id] })).statusCode).toBe(200);
    const afterShare = await snapshot(Admin.tenant.id);
    expect(afterShare).not.toBe(before);
    const byA = await editStamp(A, { rubberStampId: made.rubberStampId, name: 'Mine now' });
    expect(byA.statusCode).toBe(403);
    expect(byA.json().code).toBe(-11);
    const byB = await editStamp(B, { rubberStampId: made.rubberStampId, name: 'Mine now' });
    expect(byB.statusCode).toBe(404);
    const byOther = await editStamp(Other, { rubberStampId: made.rubberStampId, name: 'Mine now' });
    expect(byOther.statusCode).toBe(404);
    const shareByA = await share(A, { rubberStampId: made.rubberStampId, userIds: [B.user.id] });
    expect(shareByA.code).toBe(-11);
    const nothing = await editStamp(Owner, { rubberStampId: made.rubberStampId });
    expect(nothing.json().code).toBe(-6);
    expect(await snapshot(Admin.tenant.id)).toBe(afterShare);
  });

  it('is deleted by its owner or an admin, not by someone it is shared with', async () => {
    const first = await create(Owner, 'To delete');
    const second = await create(Owner, 'Admin removes');
    await share(Owner, { rubberStampId: first.rubberStampId, userIds: [A.user.id] });
    const byA = await remove(A, first.rubberStampId);
    expect(byA.code).toBe(-11);
    expect((await remove(Other, first.rubberStampId)).statusCode).toBe(404);
    expect((await remove(Owner, first.rubberStampId)).json()).toEqual({ code: 1, data: { deleted: true } });
    expect(await t.database.db.select().from(rubberStampShares).where(eq(rubberStampShares.stampId, first.rubberStampId))).toEqual([]);
    expect((await remove(Admin, second.rubberStampId)).data).toEqual({ deleted: true });
    expect((await list(Owner)).stamps.map((s) => s.rubberStampId)).not.toContain(second.rubberStampId);
  });
});

describe('sharing', () => {
  it('reaches a member directly and every member of a group, and no one else', async () => {
    const stamp = await create(Owner, 'Group seal');
    const shared = await share(Owner, { rubberStampId: stamp.rubberStampId, userIds: [Loner.user.id, Owner.user.id], groupIds: [GroupId] });
    expect(shared.statusCode, shared.body).toBe(200);
    const answer = RubberStamp.parse(shared.data);
    // The owner is never listed: they have their stamp anyway.
    expect(answer.sharedWith.users.map((u) => u.userId)).toEqual([Loner.user.id]);
    expect(answer.sharedWith.groups).toEqual([{ groupId: GroupId, groupName: 'Notaries' }]);

    for (const who of [A, B, Loner]) {
      const seen = (await list(who)).stamps.find((s) => s.rubberStampId === stamp.rubberStampId);
      expect(seen).toMatchObject({ owned: false, deletable: false, ownerName: expect.any(String) });
      // Who else has it is the owner's business.
      expect(seen!.sharedWith).toEqual({ users: [], groups: [] });
      expect((await image(who, stamp.rubberStampId)).statusCode).toBe(200);
    }
    expect((await list(Admin)).stamps.map((s) => s.rubberStampId)).not.toContain(stamp.rubberStampId);
    expect((await image(Admin, stamp.rubberStampId)).statusCode).toBe(404);
    expect((await image(Other, stamp.rubberStampId)).statusCode).toBe(404);

    // The list is the whole list: the group alone stays, Loner loses it.
    await share(Owner, { rubberStampId: stamp.rubberStampId, groupIds: [GroupId] });
    expect((await list(Loner)).stamps.map((s) => s.rubberStampId)).not.toContain(stamp.rubberStampId);
    expect((await list(A)).stamps.map((s) => s.rubberStampId)).toContain(stamp.rubberStampId);
  });

  it("answers 404 for a person or group of another tenant, changing nothing", async () => {
    const stamp = await create(Owner, 'Careful seal');
    await share(Owner, { rubberStampId: stamp.rubberStampId, userIds: [A.user.id] });
    const before = await snapshot(Admin.tenant.id);
    const foreignUser = await share(Owner, { rubberStampId: stamp.rubberStampId, userIds: [B.user.id, Other.user.id] });
    expect(foreignUser.statusCode).toBe(404);
    const foreignGroup = await share(Owner, { rubberStampId: stamp.rubberStampId, groupIds: [GroupId, OtherGroupId] });
    expect(foreignGroup.statusCode).toBe(404);
    const foreignStamp = await share(Other, { rubberStampId: stamp.rubberStampId, userIds: [] });
    expect(foreignStamp.statusCode).toBe(404);
    const twice = await share(Owner, { rubberStampId: stamp.rubberStampId, userIds: [B.user.id, B.user.id] });
    expect(twice.code).toBe(-6);
    expect(await snapshot(Admin.tenant.id)).toBe(before);
  });
});

describe('the passcode flag', () => {
  const setFlag = (who: Who, userId: string, passcodeFlag: boolean) => inject(t.app, setUserPasscodeFlag, { params: { userId }, body: { passcodeFlag }, as: who });

  it('is set and cleared by an admin, shown in the users list and to the member, and audited', async () => {
    const set = await setFlag(Admin, A.user.id, true);
    expect(set.statusCode, set.body).toBe(200);
    expect(set.data).toMatchObject({ userId: A.user.id, passcodeFlag: true });
    expect((await list(A)).passcodeFlag).toBe(true);
    const users = await inject(t.app, filteredUsers, { query: { filter: 'All', size: 100 }, as: Admin });
    const listed = users.data.users.find((u) => u.userId === A.user.id);
    expect(listed?.passcodeFlag).toBe(true);
    // Setting it again changes nothing and records nothing more.
    await setFlag(Admin, A.user.id, true);
    const audit = await t.database.db
      .select()
      .from(adminAuditLog)
      .where(and(eq(adminAuditLog.tenantId, Admin.tenant.id), eq(adminAuditLog.action, 'user_passcode_flag_changed')));
    expect(audit.map((row) => [row.targetId, row.details])).toEqual([[A.user.id, { passcodeFlag: true }]]);
    // The profile tells it too (spec §3 user info), for the tenant the request names.
    const profile = await inject(t.app, readProfile, { as: A });
    expect(profile.data.passcodeFlag).toBe(true);
    const { 'x-tenant-id': _tenant, ...withoutTenant } = A.headers;
    const plain = await inject(t.app, readProfile, { headers: withoutTenant });
    expect(plain.data).not.toHaveProperty('passcodeFlag');
    await setFlag(Admin, A.user.id, false);
    expect((await list(A)).passcodeFlag).toBe(false);
  });

  it('is not an admin\'s to grant themself, nor anyone else\'s to grant', async () => {
    const own = await setFlag(Admin, Admin.user.id, true);
    expect(own.statusCode).toBe(403);
    const byCustodian = await setFlag(Owner, A.user.id, true);
    expect(byCustodian.statusCode).toBe(403);
    const outsider = await setFlag(Admin, Other.user.id, true);
    expect(outsider.statusCode).toBe(404);
    const flags = await t.database.db.select({ userId: memberships.userId, flag: memberships.passcodeFlag }).from(memberships).where(eq(memberships.passcodeFlag, true));
    expect(flags).toEqual([]);
  });
});
