import type { AdminAuditEntry, GroupSummary } from '@pakt/domain';
import { Group } from '@pakt/domain';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminAuditLog, groupMembers, groups } from '../platform/db/schema';
import { GOOD_PASSWORD, makeMember, makeTenant } from '../test/factories';
import { bearer, signIn } from '../test/sign-in';
import { buildTestApp, type TestApp } from '../test/test-app';

/**
 * Groups and the administration audit log (issue 7). Tenancy: an admin of another tenant, or of
 * this one asking about another tenant's group or people, learns nothing and changes nothing.
 * (Anonymous callers, outsiders of the tenant and wrong roles are walked for every endpoint by
 * http/guarded-endpoints.test.ts.)
 */
let t: TestApp;
type Who = { headers: Record<string, string>; user: { id: string; email: string }; tenant: { id: string } };

async function member(role: 'admin' | 'custodian' | 'signer', tenant?: { id: string }, firstName = 'Asha'): Promise<Who> {
  const made = await makeMember(t.database.db, { role, ...(tenant ? { tenant } : {}), user: { firstName } });
  const grant = await signIn(t.app, made.user.email, GOOD_PASSWORD);
  return { ...made, headers: { ...bearer(grant), 'x-tenant-id': made.tenant.id } };
}

const inject = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, who: Who, payload?: unknown) =>
  t.app.inject({ method, url, headers: who.headers, ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) });

async function ok(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, who: Who, payload?: unknown) {
  const res = await inject(method, url, who, payload);
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(200);
  return res.json().data;
}

async function refused(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, who: Who, payload: unknown, expected: [number, number]) {
  const res = await inject(method, url, who, payload);
  expect([res.statusCode, res.json().code], res.body).toEqual(expected);
  return res.json();
}

/** Groups, their members and the audit log, whole: "unchanged" means every row the same. */
async function state(): Promise<string> {
  const rows = await Promise.all([
    t.database.db.select().from(groups).orderBy(groups.id),
    t.database.db.select().from(groupMembers).orderBy(groupMembers.groupId, groupMembers.userId),
    t.database.db.select().from(adminAuditLog).orderBy(adminAuditLog.id),
  ]);
  return JSON.stringify(rows);
}

let A: Who, B1: Who, B2: Who, B3: Who, C: Who, Other: Who, OtherMember: Who;

beforeAll(async () => {
  t = await buildTestApp();
  A = await member('admin', undefined, 'Ada');
  B1 = await member('signer', A.tenant, 'Bea');
  B2 = await member('custodian', A.tenant, 'Ben');
  B3 = await member('signer', A.tenant, 'Bo');
  C = await member('custodian', A.tenant, 'Cy');
  Other = await member('admin', undefined, 'Otto');
  OtherMember = await member('signer', Other.tenant, 'Oona');
});
afterAll(() => t.close());

describe('groups', () => {
  it('are created with members and a manager, listed, renamed and deleted, each step in the audit log', async () => {
    const created = Group.parse(await ok('POST', '/msbapi/v1/groups', A, { groupName: 'Finance', userIds: [B1.user.id, B2.user.id], managerId: B2.user.id }));
    expect(created.users.map((u) => [u.email, u.manager])).toEqual([
      [B2.user.email, true],
      [B1.user.email, false],
    ]);
    // Whoever composes lists groups (workflow recipients, stamp sharing).
    const listed = (await ok('GET', '/msbapi/v1/groups?q=fin', C)).groups as GroupSummary[];
    expect(listed).toEqual([expect.objectContaining({ groupId: created.groupId, groupName: 'Finance', memberCount: 2, manager: expect.objectContaining({ userId: B2.user.id }) })]);
    expect(Group.parse(await ok('GET', `/msbapi/v1/groups/${created.groupId}`, C)).users).toHaveLength(2);

    const renamed = Group.parse(await ok('PUT', '/msbapi/v1/groups', A, { groupId: created.groupId, groupName: 'Finance EU' }));
    expect(renamed.groupName).toBe('Finance EU');
    expect(await ok('DELETE', `/msbapi/v1/groups/${created.groupId}`, A)).toEqual({ groupId: created.groupId });
    expect((await ok('GET', '/msbapi/v1/groups', A)).groups).toEqual([]);

    const log = (await ok('GET', '/msbapi/v2/admin/audit?size=10', A)).items as AdminAuditEntry[];
    expect(log.map((e) => [e.action, e.targetLabel, e.actor?.userId])).toEqual([
      ['group_deleted', 'Finance EU', A.user.id],
      ['group_renamed', 'Finance EU', A.user.id],
      ['group_created', 'Finance', A.user.id],
    ]);
    expect(log[1]!.details).toEqual({ from: 'Finance', to: 'Finance EU' });
    expect(log[2]!.details).toEqual({ members: expect.arrayContaining([B1.user.email, B2.user.email]), manager: B2.user.email });
  });

  it('keep names unique in the tenant whatever their case, and at most 15 characters (-6)', async () => {
    const g = Group.parse(await ok('POST', '/msbapi/v1/groups', A, { groupName: 'Legal' }));
    try {
      const before = await state();
      expect((await refused('POST', '/msbapi/v1/groups', A, { groupName: 'LEGAL' }, [400, -6])).issues).toEqual([{ path: 'groupName', message: 'already used' }]);
      await refused('POST', '/msbapi/v1/groups', A, { groupName: 'A name too long!' }, [400, -6]);
      await refused('PUT', '/msbapi/v1/groups', A, { groupId: g.groupId, groupName: 'x'.repeat(16) }, [400, -6]);
      expect(await state()).toBe(before);
      // Another tenant may use the name.
      const theirs = Group.parse(await ok('POST', '/msbapi/v1/groups', Other, { groupName: 'legal' }));
      await ok('DELETE', `/msbapi/v1/groups/${theirs.groupId}`, Other);
    } finally {
      await ok('DELETE', `/msbapi/v1/groups/${g.groupId}`, A);
    }
  });

  it('follow the manager rules: one group each (-141), not twice (-172), not removed (-165)', async () => {
    const first = Group.parse(await ok('POST', '/msbapi/v1/groups', A, { groupName: 'Ops', userIds: [B1.user.id], managerId: B1.user.id }));
    const second = Group.parse(await ok('POST', '/msbapi/v1/groups', A, { groupName: 'Sales', userIds: [B2.user.id] }));
    try {
      const before = await state();
      await refused('POST', '/msbapi/v1/groups', A, { groupName: 'Support', managerId: B1.user.id }, [409, -141]);
      await refused('POST', `/msbapi/v1/groups/${second.groupId}/users`, A, { userIds: [B1.user.id], manager: true }, [409, -141]);
      await refused('POST', `/msbapi/v1/groups/${first.groupId}/users`, A, { userIds: [B1.user.id], manager: true }, [409, -172]);
      await refused('POST', `/msbapi/v1/groups/${first.groupId}/users`, A, { userIds: [B1.user.id, B3.user.id] }, [409, -172]);
      await refused('DELETE', `/msbapi/v1/groups/${first.groupId}/users`, A, { userIds: [B1.user.id] }, [409, -165]);
      await refused('POST', `/msbapi/v1/groups/${first.groupId}/users`, A, { userIds: [B2.user.id, B3.user.id], manager: true }, [400, -6]);
      expect(await state()).toBe(before);

      // The manager's place moves: the old manager stays a member and may then be removed.
      const moved = Group.parse(await ok('POST', `/msbapi/v1/groups/${first.groupId}/users`, A, { userIds: [B3.user.id], manager: true }));
      expect(moved.users.map((u) => [u.userId, u.manager])).toEqual([
        [B3.user.id, true],
        [B1.user.id, false],
      ]);
      const removed = Group.parse(await ok('DELETE', `/msbapi/v1/groups/${first.groupId}/users`, A, { userIds: [B1.user.id] }));
      expect(removed.users.map((u) => u.userId)).toEqual([B3.user.id]);
      // Adding someone already in changes nothing but is not an error.
      const again = Group.parse(await ok('POST', `/msbapi/v1/groups/${second.groupId}/users`, A, { userIds: [B2.user.id, C.user.id] }));
      expect(again.users.map((u) => u.userId).sort()).toEqual([B2.user.id, C.user.id].sort());
    } finally {
      await ok('DELETE', `/msbapi/v1/groups/${first.groupId}`, A);
      await ok('DELETE', `/msbapi/v1/groups/${second.groupId}`, A);
    }
  });

  it("are another tenant's business: 404 for its groups, -6 for its people, nothing changed", async () => {
    const mine = Group.parse(await ok('POST', '/msbapi/v1/groups', A, { groupName: 'Mine', userIds: [B1.user.id] }));
    try {
      const before = await state();
      const id = mine.groupId;
      const asOther: Array<['GET' | 'POST' | 'PUT' | 'DELETE', string, unknown]> = [
        ['GET', `/msbapi/v1/groups/${id}`, undefined],
        ['PUT', '/msbapi/v1/groups', { groupId: id, groupName: 'Taken over' }],
        ['DELETE', `/msbapi/v1/groups/${id}`, undefined],
        ['POST', `/msbapi/v1/groups/${id}/users`, { userIds: [OtherMember.user.id] }],
        ['DELETE', `/msbapi/v1/groups/${id}/users`, { userIds: [B1.user.id] }],
      ];
      for (const [method, url, payload] of asOther) await refused(method, url, Other, payload, [404, -1]);
      expect((await ok('GET', '/msbapi/v1/groups', Other)).groups).toEqual([]);
      // Nor can this tenant's admin pull in someone of the other tenant.
      await refused('POST', `/msbapi/v1/groups/${id}/users`, A, { userIds: [OtherMember.user.id] }, [400, -6]);
      await refused('POST', '/msbapi/v1/groups', A, { groupName: 'Mixed', userIds: [B1.user.id, OtherMember.user.id] }, [400, -6]);
      expect(await state()).toBe(before);
      // The other tenant's log shows none of this.
      expect((await ok('GET', '/msbapi/v2/admin/audit', Other)).items.filter((e: AdminAuditEntry) => e.targetId === id)).toEqual([]);
    } finally {
      await ok('DELETE', `/msbapi/v1/groups/${mine.groupId}`, A);
    }
  });

  it('lose a member who leaves the tenant', async () => {
    const leaving = await member('signer', A.tenant, 'Lee');
    const g = Group.parse(await ok('POST', '/msbapi/v1/groups', A, { groupName: 'Leavers', userIds: [leaving.user.id, B1.user.id] }));
    await t.database.db.execute(sql`delete from memberships where tenant_id = ${A.tenant.id} and user_id = ${leaving.user.id}`);
    expect(Group.parse(await ok('GET', `/msbapi/v1/groups/${g.groupId}`, A)).users.map((u) => u.userId)).toEqual([B1.user.id]);
    await ok('DELETE', `/msbapi/v1/groups/${g.groupId}`, A);
  });
});

describe('the audit log', () => {
  it('filters by action, target and days, pages newest first, and shows only its own tenant', async () => {
    const tenant = await makeTenant(t.database.db);
    const admin = await member('admin', tenant, 'Ida');
    const other = await member('signer', tenant, 'Ivo');
    const g1 = Group.parse(await ok('POST', '/msbapi/v1/groups', admin, { groupName: 'Alpha' }));
    await ok('POST', `/msbapi/v1/groups/${g1.groupId}/users`, admin, { userIds: [other.user.id] });
    const g2 = Group.parse(await ok('POST', '/msbapi/v1/groups', admin, { groupName: 'Beta' }));
    // An entry of last year, written as the command would.
    await t.database.db.insert(adminAuditLog).values({ tenantId: tenant.id, actorId: admin.user.id, action: 'group_created', targetType: 'group', targetId: g2.groupId, targetLabel: 'Old', createdAt: new Date('2025-06-01T10:00:00Z') });

    const page = async (query: string) => (await ok('GET', `/msbapi/v2/admin/audit?${query}`, admin)) as { total: number; items: AdminAuditEntry[] };
    expect((await page('')).items.map((e) => [e.action, e.targetLabel])).toEqual([
      ['group_created', 'Beta'],
      ['group_members_added', 'Alpha'],
      ['group_created', 'Alpha'],
      ['group_created', 'Old'],
    ]);
    expect((await page('action=group_created')).total).toBe(3);
    expect((await page('target=alp')).items.map((e) => e.action)).toEqual(['group_members_added', 'group_created']);
    expect((await page('from=2025-06-01&to=2025-06-01')).items.map((e) => e.targetLabel)).toEqual(['Old']);
    expect((await page('to=2025-05-31')).total).toBe(0);
    expect((await page(`actorId=${other.user.id}`)).total).toBe(0);
    const first = await page('size=10&pg=0');
    expect(first.total).toBe(4);
    expect((await page('size=10&pg=1')).items).toEqual([]);
    expect((await refused('GET', '/msbapi/v2/admin/audit?size=7', admin, undefined, [400, -6])).code).toBe(-6);
    expect((await refused('GET', '/msbapi/v2/admin/audit?action=made_up', admin, undefined, [400, -6])).code).toBe(-6);

    // Another tenant's admin sees none of it.
    expect((await ok('GET', '/msbapi/v2/admin/audit?target=Alpha', Other)).total).toBe(0);
    await t.database.db.delete(groups).where(eq(groups.tenantId, tenant.id));
  });

  it('records each invitation of a member', async () => {
    const tenant = await makeTenant(t.database.db);
    const admin = await member('admin', tenant, 'Ines');
    await ok('POST', '/msbapi/v1/users/invite', admin, { users: [{ email: 'invitee-audit@example.test', firstName: 'In', lastName: 'Vitee', role: 'custodian' }] });
    const [entry] = ((await ok('GET', '/msbapi/v2/admin/audit?action=admin_invite', admin)).items as AdminAuditEntry[]);
    expect(entry).toMatchObject({ action: 'admin_invite', targetType: 'user', targetLabel: 'invitee-audit@example.test', details: { role: 'custodian' }, actor: { userId: admin.user.id } });
  });
});
