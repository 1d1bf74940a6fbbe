import {
  type AdminAuditEntry,
  authenticate,
  type Endpoint,
  type EndpointInput,
  inviteTenantSuperadmin,
  listSuperadmins,
  registerSuperadmin,
  registerUserTenant,
  TokenGrant,
  updateSuperadminStatus,
} from '@pakt/domain';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminAuditLog, invitations, memberships, outbox, users } from '../../platform/db/schema';
import { GOOD_PASSWORD, makeMember, makeRoot, makeTenant, makeUser } from '../../test/factories';
import { type Caller, inject } from '../../test/inject';
import { bearer, signIn } from '../../test/sign-in';
import { buildTestApp, type TestApp } from '../../test/test-app';

/**
 * Super admins (spec §6, §7 Superadmins): listing, inviting (registerAsSuperadmin), disabling and
 * enabling, and root inviting a tenant's first one. Another tenant's super admin reaches none of
 * it (404, nothing changed); the contract-wide checks (anonymous 401, outsiders 404, every other
 * role 403) are also walked by http/guarded-endpoints.test.ts.
 */
let t: TestApp;
type Who = { headers: Record<string, string>; user: { id: string; email: string }; tenant: { id: string } };
type Role = 'admin' | 'custodian' | 'signer' | 'submitter' | 'registrar' | 'super_admin';

async function member(role: Role, tenant?: { id: string }, user: { firstName?: string; lastName?: string; email?: string } = {}): Promise<Who> {
  const made = await makeMember(t.database.db, { role, ...(tenant ? { tenant } : {}), user });
  const grant = await signIn(t.app, made.user.email, GOOD_PASSWORD);
  return { ...made, headers: { ...bearer(grant), 'x-tenant-id': made.tenant.id } };
}

async function ok<E extends Endpoint>(endpoint: E, who: Caller, input: EndpointInput<E> = {} as EndpointInput<E>) {
  const res = await inject(t.app, endpoint, { ...input, as: who });
  expect(res.statusCode, `${endpoint.method} ${endpoint.path}: ${res.body}`).toBe(200);
  return res.data;
}

async function refused<E extends Endpoint>(endpoint: E, who: Caller, input: EndpointInput<E>, status: number, code: number) {
  const res = await inject(t.app, endpoint, { ...input, as: who });
  expect([res.statusCode, res.code], res.body).toEqual([status, code]);
  return res.json();
}


/** Everything these calls may touch, to prove a refusal left it all as it was. */
async function state(): Promise<string> {
  const db = t.database.db;
  const rows = await Promise.all([
    db.select().from(memberships).orderBy(memberships.tenantId, memberships.userId),
    db.select().from(users).orderBy(users.id),
    db.select().from(invitations).orderBy(invitations.id),
    db.select().from(outbox).orderBy(outbox.id),
    db.select().from(adminAuditLog).orderBy(adminAuditLog.id),
  ]);
  // Signing in touches last_login_at; the rest must not move.
  return JSON.stringify(rows, (key, value: unknown) => (key === 'lastLoginAt' ? undefined : value));
}

/** The newest invitation link mailed to an address. */
async function mailedInvitation(email: string): Promise<URL> {
  const mails = await t.database.db
    .select()
    .from(outbox)
    .where(and(eq(outbox.recipient, email), eq(outbox.kind, 'invitation')))
    .orderBy(asc(outbox.createdAt));
  expect(mails.length, `an invitation mailed to ${email}`).toBeGreaterThan(0);
  return new URL(/https?:\/\/\S+/.exec(mails.at(-1)!.body)![0]);
}

/** Registers from the mailed link as the register page does, and returns the session. */
async function registerFromMail(person: { email: string; firstName: string; lastName: string }, password = GOOD_PASSWORD) {
  const link = await mailedInvitation(person.email);
  const res = await inject(t.app, registerUserTenant, {
    body: {
      userEmail: person.email,
      firstName: person.firstName,
      lastName: person.lastName,
      newPassword: password,
      confirmPassword: password,
      inviteCode: link.searchParams.get('invite')!,
      tenantUuid: link.searchParams.get('tenant')!,
    },
  });
  expect(res.statusCode, res.body).toBe(200);
  return TokenGrant.parse(res.data);
}

const auditOf = async (who: Who, action: string) => {
  // Super admins do not read the admin audit log (audit.read is the admins'): read it as stored.
  const rows = await t.database.db
    .select()
    .from(adminAuditLog)
    .where(and(eq(adminAuditLog.tenantId, who.tenant.id), eq(adminAuditLog.action, action)))
    .orderBy(asc(adminAuditLog.createdAt));
  return rows.map((row) => ({ actorId: row.actorId, targetLabel: row.targetLabel, details: row.details })) as Array<Pick<AdminAuditEntry, 'targetLabel' | 'details'> & { actorId: string | null }>;
};

let S: Who, S2: Who, Admin: Who, Sig: Who, Other: Who;
let root: { email: string; id: string; headers: Record<string, string> };
const stamp = Date.now().toString(36);

beforeAll(async () => {
  t = await buildTestApp();
  S = await member('super_admin', undefined, { firstName: 'Sita', lastName: 'Sharma', email: `sita-${stamp}@example.test` });
  S2 = await member('super_admin', S.tenant, { firstName: 'Tara', lastName: 'Trivedi', email: `tara-${stamp}@example.test` });
  Admin = await member('admin', S.tenant, { firstName: 'Ajay', lastName: 'Admin' });
  Sig = await member('signer', S.tenant, { firstName: 'Sam', lastName: 'Signer' });
  Other = await member('super_admin', undefined, { firstName: 'Otto', lastName: 'Other' });
  const rootUser = await makeRoot(t.database.db);
  root = { email: rootUser.email, id: rootUser.id, headers: bearer(await signIn(t.app, rootUser.email, GOOD_PASSWORD)) };
});
afterAll(() => t.close());

describe('listing super admins', () => {
  it("lists this tenant's super admins only, by name, with the caller marked", async () => {
    const { superadmins } = await ok(listSuperadmins, S);
    expect(superadmins.map((s) => [s.email, s.status, s.isSelf])).toEqual([
      [S.user.email, 'active', true],
      [S2.user.email, 'active', false],
    ]);
    expect(superadmins[0]).toMatchObject({ firstName: 'Sita', middleName: null, lastName: 'Sharma', userId: S.user.id });
    expect(superadmins[0]!.lastLoginOn).not.toBeNull();
    expect((await ok(listSuperadmins, Other)).superadmins.map((s) => s.userId)).toEqual([Other.user.id]);
  });

  it('is refused to every other role of the tenant (403 -11)', async () => {
    for (const role of ['admin', 'custodian', 'submitter', 'signer', 'registrar'] as const) {
      const who = role === 'admin' ? Admin : role === 'signer' ? Sig : await member(role, S.tenant);
      const before = await state();
      await refused(listSuperadmins, who, {}, 403, -11);
      await refused(registerSuperadmin, who, { body: { email: `nobody-${role}-${stamp}@example.test`, firstName: 'No', lastName: 'Body' } }, 403, -11);
      await refused(updateSuperadminStatus, who, { body: { userId: S2.user.id, status: 'disabled' } }, 403, -11);
      expect(await state()).toBe(before);
    }
  });
});

describe('registering a super admin', () => {
  it('invites a new person: a pending membership, the mailed link and an audit record; they register and land as super admin', async () => {
    const person = { email: `neha-${stamp}@example.test`, firstName: 'Neha', middleName: 'K', lastName: 'Nair' };
    const invited = await ok(registerSuperadmin, S, { body: { ...person, email: `  ${person.email.toUpperCase()} ` } });
    expect(invited).toMatchObject({ email: person.email, firstName: 'Neha', middleName: 'K', lastName: 'Nair', status: 'invited', isSelf: false, lastLoginOn: null });
    expect(await auditOf(S, 'admin_invite')).toContainEqual({ actorId: S.user.id, targetLabel: person.email, details: { role: 'super_admin' } });
    const link = await mailedInvitation(person.email);
    expect(link.searchParams.get('tenant')).toBe(S.tenant.id);

    const listed = (await ok(listSuperadmins, S)).superadmins.find((s) => s.email === person.email);
    expect(listed?.status).toBe('invited');
    // Not a member until they accept: the tenant answers them 404.
    const grant = await registerFromMail(person);
    expect(grant.user.tenants).toEqual([expect.objectContaining({ tenantUuid: S.tenant.id, userRole: 'super_admin' })]);
    const joined = { headers: { ...bearer(grant), 'x-tenant-id': S.tenant.id } };
    const own = (await ok(listSuperadmins, joined)).superadmins.find((s) => s.isSelf);
    expect(own).toMatchObject({ email: person.email, status: 'active' });
  });

  it('invites someone who has an account in another tenant, without a second account', async () => {
    const elsewhere = await member('custodian', undefined, { firstName: 'Esha', lastName: 'Else' });
    const invited = await ok(registerSuperadmin, S, { body: { email: elsewhere.user.email, firstName: 'Esha', lastName: 'Else' } });
    expect(invited).toMatchObject({ userId: elsewhere.user.id, status: 'invited' });
    expect(await t.database.db.select().from(users).where(eq(users.email, elsewhere.user.email))).toHaveLength(1);
  });

  it('refuses a member of the tenant in any role (-85), oneself included, a disabled account (-13) and the instance administrator (-6), storing nothing', async () => {
    const disabled = await makeUser(t.database.db, { disabledAt: new Date() });
    const before = await state();
    for (const who of [Sig, Admin, S2, S]) {
      const body = await refused(registerSuperadmin, S, { body: { email: who.user.email, firstName: 'A', lastName: 'B' } }, 409, -85);
      expect(body.message).toMatch(/already a member/);
    }
    await refused(registerSuperadmin, S, { body: { email: disabled.email, firstName: 'Dee', lastName: 'Abled' } }, 403, -13);
    await refused(registerSuperadmin, S, { body: { email: root.email, firstName: 'Ravi', lastName: 'Root' } }, 400, -6);
    expect(await state()).toBe(before);
  });

  it('answers bad fields with -6 naming each field, storing nothing', async () => {
    const before = await state();
    const body = await refused(registerSuperadmin, S, { body: { email: 'not-an-address', firstName: ' ', lastName: 'x'.repeat(101) } }, 400, -6);
    expect((body.issues as Array<{ path: string }>).map((issue) => issue.path).sort()).toEqual(['body.email', 'body.firstName', 'body.lastName']);
    expect(await state()).toBe(before);
  });
});

describe('updating a super admin’s status', () => {
  it('disables (every request of theirs then -13, and signing in to it too) and enables again; recorded once each', async () => {
    const off = await ok(updateSuperadminStatus, S, { body: { userId: S2.user.id, status: 'disabled' } });
    expect(off).toMatchObject({ userId: S2.user.id, status: 'disabled', isSelf: false });
    await refused(listSuperadmins, S2, {}, 403, -13);
    // This tenant was their only one: signing in finds nothing to sign in to.
    const again = await inject(t.app, authenticate, { body: { username: S2.user.email, password: GOOD_PASSWORD } });
    expect([again.statusCode, again.code]).toEqual([403, -13]);

    // Asking for the state they are in changes and records nothing.
    const before = await state();
    expect(await ok(updateSuperadminStatus, S, { body: { userId: S2.user.id, status: 'disabled' } })).toMatchObject({ status: 'disabled' });
    expect(await state()).toBe(before);

    expect(await ok(updateSuperadminStatus, S, { body: { userId: S2.user.id, status: 'enabled' } })).toMatchObject({ status: 'active' });
    expect((await inject(t.app, listSuperadmins, { as: S2 })).statusCode).toBe(200);
    expect(await auditOf(S, 'superadmin_status_changed')).toEqual([
      { actorId: S.user.id, targetLabel: S2.user.email, details: { from: 'active', to: 'disabled' } },
      { actorId: S.user.id, targetLabel: S2.user.email, details: { from: 'disabled', to: 'active' } },
    ]);
  });

  it('keeps someone disabled before accepting out: they join disabled, and enabling then makes them active', async () => {
    const person = { email: `ira-${stamp}@example.test`, firstName: 'Ira', lastName: 'Iyer' };
    const { userId } = await ok(registerSuperadmin, S, { body: person });
    // Enabling an invitation not yet accepted leaves it one.
    expect(await ok(updateSuperadminStatus, S, { body: { userId, status: 'enabled' } })).toMatchObject({ status: 'invited' });
    expect(await ok(updateSuperadminStatus, S, { body: { userId, status: 'disabled' } })).toMatchObject({ status: 'disabled' });
    expect(await ok(updateSuperadminStatus, S, { body: { userId, status: 'enabled' } })).toMatchObject({ status: 'invited' });
    expect(await ok(updateSuperadminStatus, S, { body: { userId, status: 'disabled' } })).toMatchObject({ status: 'disabled' });

    const grant = await registerFromMail(person);
    expect(grant.user.tenants).toEqual([]);
    await refused(listSuperadmins, { headers: { ...bearer(grant), 'x-tenant-id': S.tenant.id } }, {}, 403, -13);
    expect(await ok(updateSuperadminStatus, S, { body: { userId, status: 'enabled' } })).toMatchObject({ status: 'active' });
  });

  it('refuses one’s own status (-11) and names nobody but a super admin of this tenant (404), changing nothing', async () => {
    const before = await state();
    await refused(updateSuperadminStatus, S, { body: { userId: S.user.id, status: 'disabled' } }, 403, -11);
    for (const userId of [Sig.user.id, Admin.user.id, Other.user.id, '00000000-0000-4000-8000-000000000000']) {
      const body = await refused(updateSuperadminStatus, S, { body: { userId, status: 'disabled' } }, 404, -1);
      expect(body.message).toBe('Not found.');
    }
    // Raw: a status the contract's type does not allow, to show the server refuses it.
    const off = await t.app.inject({ method: 'PUT', url: '/msbapi/v2/user/updateSuperadminStatus', headers: S.headers, payload: { userId: S2.user.id, status: 'off' } });
    expect([off.statusCode, off.json().code], off.body).toEqual([400, -6]);
    expect(await state()).toBe(before);
  });

  it("answers another tenant's super admin with 404 for ours, whatever header they send, changing nothing", async () => {
    const before = await state();
    await refused(updateSuperadminStatus, Other, { body: { userId: S2.user.id, status: 'disabled' } }, 404, -1);
    const intruder = { headers: { ...Other.headers, 'x-tenant-id': S.tenant.id } };
    await refused(listSuperadmins, intruder, {}, 404, -1);
    await refused(updateSuperadminStatus, intruder, { body: { userId: S2.user.id, status: 'disabled' } }, 404, -1);
    await refused(registerSuperadmin, intruder, { body: { email: `sneak-${stamp}@example.test`, firstName: 'Sn', lastName: 'Eak' } }, 404, -1);
    expect(await state()).toBe(before);
  });
});

describe("root's first super admin of a tenant", () => {
  it('invites into the tenant named, shows the link once, mails it and records it; the person registers as super admin', async () => {
    const tenant = await makeTenant(t.database.db);
    const person = { email: `first-${stamp}@example.test`, firstName: 'Farah', lastName: 'First' };
    const data = await ok(inviteTenantSuperadmin, root, { params: { tenantId: tenant.id }, body: person });
    expect(data.superadmin).toMatchObject({ email: person.email, status: 'invited', isSelf: false });
    expect(new URL(data.inviteLink).searchParams.get('tenant')).toBe(tenant.id);
    expect((await mailedInvitation(person.email)).href).toBe(data.inviteLink);
    const [record] = await t.database.db.select().from(adminAuditLog).where(eq(adminAuditLog.tenantId, tenant.id));
    expect(record).toMatchObject({ actorId: root.id, action: 'admin_invite', targetLabel: person.email, details: { role: 'super_admin' } });

    const grant = await registerFromMail(person);
    expect(grant.user.tenants).toEqual([expect.objectContaining({ tenantUuid: tenant.id, userRole: 'super_admin' })]);
    const first = { headers: { ...bearer(grant), 'x-tenant-id': tenant.id } };
    expect((await ok(listSuperadmins, first)).superadmins).toEqual([expect.objectContaining({ email: person.email, status: 'active', isSelf: true })]);
  });

  it('answers an unknown tenant with 404 and a member of the tenant with -85, storing nothing', async () => {
    const before = await state();
    await refused(inviteTenantSuperadmin, root, { params: { tenantId: '00000000-0000-4000-8000-000000000000' }, body: { email: `ghost-${stamp}@example.test`, firstName: 'Gh', lastName: 'Ost' } }, 404, -1);
    await refused(inviteTenantSuperadmin, root, { params: { tenantId: S.tenant.id }, body: { email: Admin.user.email, firstName: 'Ajay', lastName: 'Admin' } }, 409, -85);
    expect(await state()).toBe(before);
  });

  it('is root’s alone (403 for a tenant’s super admin)', async () => {
    const before = await state();
    await refused(inviteTenantSuperadmin, { headers: bearer(await signIn(t.app, S.user.email, GOOD_PASSWORD)) }, { params: { tenantId: S.tenant.id }, body: { email: `x-${stamp}@example.test`, firstName: 'X', lastName: 'Y' } }, 403, -11);
    expect(await state()).toBe(before);
  });
});
