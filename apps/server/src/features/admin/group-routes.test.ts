import {
  addGroupUsers,
  type AdminAuditEntry,
  createGroup,
  deleteGroup,
  type Endpoint,
  type EndpointInput,
  getGroup,
  Group,
  type GroupSummary,
  inviteUsers,
  listAdminAudit,
  listGroups,
  removeGroupUsers,
  renameGroup,
} from '@pakt/domain';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminAuditLog, groupMembers, groups } from '../../platform/db/schema';
import { GOOD_PASSWORD, makeMember, makeTenant } from '../../test/factories';
import { bearer, signIn } from '../../test/sign-in';
import { inject } from '../../test/inject';
import { buildTestApp, type TestApp } from '../../test/test-app';

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

async function ok<E extends Endpoint>(endpoint: E, who: Who, input: EndpointInput<E> = {} as EndpointInput<E>) {
  const res = await inject(t.app, endpoint, { ...input, as: who });
  expect(res.statusCode, `${endpoint.method} ${endpoint.path}: ${res.body}`).toBe(200);
  return res.data;
}

async function refused<E extends Endpoint>(endpoint: E, who: Who, input: EndpointInput<E>, expected: [number, number]) {
  const res = await inject(t.app, endpoint, { ...input, as: who });
  expect([res.statusCode, res.code], res.body).toEqual(expected);
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
    const created = Group.parse(await ok(createGroup, A, { body: { groupName: 'Finance', userIds: [B1.user.id, B2.user.id], managerId: B2.user.id } }));
    expect(created.users.map((u) => [u.email, u.manager])).toEqual([
      [B2.user.email, true],
      [B1.user.email, false],
    ]);
    // Whoever composes lists groups (workflow recipients, stamp sharing).
    const listed = (await ok(listGroups, C, { query: { q: 'fin' } })).groups as GroupSummary[];
    expect(listed).toEqual([expect.objectContaining({ groupId: created.groupId, groupName: 'Finance', memberCount: 2, manager: expect.objectContaining({ userId: B2.user.id }) })]);
    expect(Group.parse(await ok(getGroup, C, { params: { id: created.groupId } })).users).toHaveLength(2);

    const renamed = Group.parse(await ok(renameGroup, A, { body: { groupId: created.groupId, groupName: 'Finance EU' } }));
    expect(renamed.groupName).toBe('Finance EU');
    expect(await ok(deleteGroup, A, { params: { groupId: created.groupId } })).toEqual({ groupId: created.groupId });
    expect((await ok(listGroups, A)).groups).toEqual([]);

    const log = (await ok(listAdminAudit, A, { query: { size: '10' } })).items as AdminAuditEntry[];
    expect(log.map((e) => [e.action, e.targetLabel, e.actor?.userId])).toEqual([
      ['group_deleted', 'Finance EU', A.user.id],
      ['group_renamed', 'Finance EU', A.user.id],
      ['group_created', 'Finance', A.user.id],
    ]);
    expect(log[1]!.details).toEqual({ from: 'Finance', to: 'Finance EU' });
    expect(log[2]!.details).toEqual({ members: expect.arrayContaining([B1.user.email, B2.user.email]), manager: B2.user.email });
  });

  it('keep names unique in the tenant whatever their case, and at most 15 characters (-6)', async () => {
    const g = Group.parse(await ok(createGroup, A, { body: { groupName: 'Legal' } }));
    try {
      const before = await state();
      expect((await refused(createGroup, A, { body: { groupName: 'LEGAL' } }, [400, -6])).issues).toEqual([{ path: 'groupName', message: 'already used' }]);
      await refused(createGroup, A, { body: { groupName: 'A name too long!' } }, [400, -6]);
      await refused(renameGroup, A, { body: { groupId: g.groupId, groupName: 'x'.repeat(16) } }, [400, -6]);
      expect(await state()).toBe(before);
      // Another tenant may use the name.
      const theirs = Group.parse(await ok(createGroup, Other, { body: { groupName: 'legal' } }));
      await ok(deleteGroup, Other, { params: { groupId: theirs.groupId } });
    } finally {
      await ok(deleteGroup, A, { params: { groupId: g.groupId } });
    }
  });

  it('follow the manager rules: one group each (-141), not twice (-172), not removed (-165)', async () => {
    const first = Group.parse(await ok(createGroup, A, { body: { groupName: 'Ops', userIds: [B1.user.id], managerId: B1.user.id } }));
    const second = Group.parse(await ok(createGroup, A, { body: { groupName: 'Sales', userIds: [B2.user.id] } }));
    try {
      const before = await state();
      await refused(createGroup, A, { body: { groupName: 'Support', managerId: B1.user.id } }, [409, -141]);
      await refused(addGroupUsers, A, { params: { groupId: second.groupId }, body: { userIds: [B1.user.id], manager: true } }, [409, -141]);
      await refused(addGroupUsers, A, { params: { groupId: first.groupId }, body: { userIds: [B1.user.id], manager: true } }, [409, -172]);
      await refused(addGroupUsers, A, { params: { groupId: first.groupId }, body: { userIds: [B1.user.id, B3.user.id] } }, [409, -172]);
      await refused(removeGroupUsers, A, { params: { groupId: first.groupId }, body: { userIds: [B1.user.id] } }, [409, -165]);
      await refused(addGroupUsers, A, { params: { groupId: first.groupId }, body: { userIds: [B2.user.id, B3.user.id], manager: true } }, [400, -6]);
      expect(await state()).toBe(before);

      // The manager's place moves: the old manager stays a member and may then be removed.
      const moved = Group.parse(await ok(addGroupUsers, A, { params: { groupId: first.groupId }, body: { userIds: [B3.user.id], manager: true } }));
      expect(moved.users.map((u) => [u.userId, u.manager])).toEqual([
        [B3.user.id, true],
        [B1.user.id, false],
      ]);
      const removed = Group.parse(await ok(removeGroupUsers, A, { params: { groupId: first.groupId }, body: { userIds: [B1.user.id] } }));
      expect(removed.users.map((u) => u.userId)).toEqual([B3.user.id]);
      // Adding someone already in changes nothing but is not an error.
      const again = Group.parse(await ok(addGroupUsers, A, { params: { groupId: second.groupId }, body: { userIds: [B2.user.id, C.user.id] } }));
      expect(again.users.map((u) => u.userId).sort()).toEqual([B2.user.id, C.user.id].sort());
    } finally {
      await ok(deleteGroup, A, { params: { groupId: first.groupId } });
      await ok(deleteGroup, A, { params: { groupId: second.groupId } });
    }
  });

  it("are another tenant's business: 404 for its groups, -6 for its people, nothing changed", async () => {
    const mine = Group.parse(await ok(createGroup, A, { body: { groupName: 'Mine', userIds: [B1.user.id] } }));
    try {
      const before = await state();
      const id = mine.groupId;
      await refused(getGroup, Other, { params: { id } }, [404, -1]);
      await refused(renameGroup, Other, { body: { groupId: id, groupName: 'Taken over' } }, [404, -1]);
      await refused(deleteGroup, Other, { params: { groupId: id } }, [404, -1]);
      await refused(addGroupUsers, Other, { params: { groupId: id }, body: { userIds: [OtherMember.user.id] } }, [404, -1]);
      await refused(removeGroupUsers, Other, { params: { groupId: id }, body: { userIds: [B1.user.id] } }, [404, -1]);
      expect((await ok(listGroups, Other)).groups).toEqual([]);
      // Nor can this tenant's admin pull in someone of the other tenant.
      await refused(addGroupUsers, A, { params: { groupId: id }, body: { userIds: [OtherMember.user.id] } }, [400, -6]);
      await refused(createGroup, A, { body: { groupName: 'Mixed', userIds: [B1.user.id, OtherMember.user.id] } }, [400, -6]);
      expect(await state()).toBe(before);
      // The other tenant's log shows none of this.
      expect((await ok(listAdminAudit, Other)).items.filter((e: AdminAuditEntry) => e.targetId === id)).toEqual([]);
    } finally {
      await ok(deleteGroup, A, { params: { groupId: mine.groupId } });
    }
  });

  it('lose a member who leaves the tenant', async () => {
    const leaving = await member('signer', A.tenant, 'Lee');
    const g = Group.parse(await ok(createGroup, A, { body: { groupName: 'Leavers', userIds: [leaving.user.id, B1.user.id] } }));
    await t.database.db.execute(sql`delete from memberships where tenant_id = ${A.tenant.id} and user_id = ${leaving.user.id}`);
    expect(Group.parse(await ok(getGroup, A, { params: { id: g.groupId } })).users.map((u) => u.userId)).toEqual([B1.user.id]);
    await ok(deleteGroup, A, { params: { groupId: g.groupId } });
  });
});

describe('the audit log', () => {
  it('filters by action, target and days, pages newest first, and shows only its own tenant', async () => {
    const tenant = await makeTenant(t.database.db);
    const admin = await member('admin', tenant, 'Ida');
    const other = await member('signer', tenant, 'Ivo');
    const g1 = Group.parse(await ok(createGroup, admin, { body: { groupName: 'Alpha' } }));
    await ok(addGroupUsers, admin, { params: { groupId: g1.groupId }, body: { userIds: [other.user.id] } });
    const g2 = Group.parse(await ok(createGroup, admin, { body: { groupName: 'Beta' } }));
    // An entry of last year, written as the command would.
    await t.database.db.insert(adminAuditLog).values({ tenantId: tenant.id, actorId: admin.user.id, action: 'group_created', targetType: 'group', targetId: g2.groupId, targetLabel: 'Old', createdAt: new Date('2025-06-01T10:00:00Z') });

    const page = async (query: Record<string, string> = {}) => (await ok(listAdminAudit, admin, { query })) as { total: number; items: AdminAuditEntry[] };
    expect((await page()).items.map((e) => [e.action, e.targetLabel])).toEqual([
      ['group_created', 'Beta'],
      ['group_members_added', 'Alpha'],
      ['group_created', 'Alpha'],
      ['group_created', 'Old'],
    ]);
    expect((await page({ action: 'group_created' })).total).toBe(3);
    expect((await page({ target: 'alp' })).items.map((e) => e.action)).toEqual(['group_members_added', 'group_created']);
    expect((await page({ from: '2025-06-01', to: '2025-06-01' })).items.map((e) => e.targetLabel)).toEqual(['Old']);
    expect((await page({ to: '2025-05-31' })).total).toBe(0);
    expect((await page({ actorId: other.user.id })).total).toBe(0);
    const first = await page({ size: '10', pg: '0' });
    expect(first.total).toBe(4);
    expect((await page({ size: '10', pg: '1' })).items).toEqual([]);
    expect((await refused(listAdminAudit, admin, { query: { size: '7' } }, [400, -6])).code).toBe(-6);
    // Not an action the contract knows: sent anyway, as a hand-made request would.
    expect((await refused(listAdminAudit, admin, { query: { action: 'made_up' as never } }, [400, -6])).code).toBe(-6);

    // Another tenant's admin sees none of it.
    expect((await ok(listAdminAudit, Other, { query: { target: 'Alpha' } })).total).toBe(0);
    await t.database.db.delete(groups).where(eq(groups.tenantId, tenant.id));
  });

  it('records each invitation of a member', async () => {
    const tenant = await makeTenant(t.database.db);
    const admin = await member('admin', tenant, 'Ines');
    await ok(inviteUsers, admin, { body: { users: [{ email: 'invitee-audit@example.test', firstName: 'In', lastName: 'Vitee', role: 'custodian' }] } });
    const [entry] = ((await ok(listAdminAudit, admin, { query: { action: 'admin_invite' } })).items as AdminAuditEntry[]);
    expect(entry).toMatchObject({ action: 'admin_invite', targetType: 'user', targetLabel: 'invitee-audit@example.test', details: { role: 'custodian' }, actor: { userId: admin.user.id } });
  });
});
