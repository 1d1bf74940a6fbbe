import {
  type AdminUser,
  cancelUserInvitation,
  csvInvite,
  csvInviteTemplate,
  type Endpoint,
  type EndpointInput,
  filteredUsers,
  invitationDetails,
  inviteUsers,
  listAdminAudit,
  listEpaks,
  makeUserAdmin,
  registerSuperadmin,
  reinviteUser,
  resetPassword,
  resetUserPassword,
  setUserEnabled,
  updateUserRoles,
} from '@pakt/domain';
import { randomUUID } from 'node:crypto';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminAuditLog, epakRecipients, epaks, epakSteps, memberships, outbox, users } from '../../platform/db/schema';
import { GOOD_PASSWORD, makeMember } from '../../test/factories';
import { inject } from '../../test/inject';
import { bearer, signIn } from '../../test/sign-in';
import { buildTestApp, type TestApp } from '../../test/test-app';

/**
 * User administration (issue 7): the admin folders, role changes one by one and in bulk (-226),
 * making an admin, disabling. Another tenant's admin reaches none of it (404, nothing changed);
 * anonymous callers, outsiders and wrong roles are walked by http/guarded-endpoints.test.ts.
 */
let t: TestApp;
type Who = { headers: Record<string, string>; user: { id: string; email: string }; tenant: { id: string } };
type Role = 'admin' | 'custodian' | 'signer' | 'submitter' | 'super_admin';

async function member(role: Role, tenant?: { id: string }, user: { firstName?: string; lastName?: string; email?: string } = {}): Promise<Who> {
  const made = await makeMember(t.database.db, { role, ...(tenant ? { tenant } : {}), user });
  const grant = await signIn(t.app, made.user.email, GOOD_PASSWORD);
  return { ...made, headers: { ...bearer(grant), 'x-tenant-id': made.tenant.id } };
}

async function ok<E extends Endpoint>(endpoint: E, who: Who, input: EndpointInput<E> = {} as EndpointInput<E>) {
  const res = await inject(t.app, endpoint, { ...input, as: who });
  expect(res.statusCode, `${endpoint.method} ${endpoint.path}: ${res.body}`).toBe(200);
  return res.data;
}

async function state(tenantId: string): Promise<string> {
  const rows = await Promise.all([
    t.database.db.select().from(memberships).where(eq(memberships.tenantId, tenantId)).orderBy(memberships.userId),
    t.database.db.select().from(adminAuditLog).where(eq(adminAuditLog.tenantId, tenantId)).orderBy(adminAuditLog.id),
  ]);
  return JSON.stringify(rows);
}

let A: Who, Sig: Who, Sub: Who, Cus: Who, Cus2: Who, Super: Who, Other: Who;

beforeAll(async () => {
  t = await buildTestApp();
  A = await member('admin', undefined, { firstName: 'Ada', lastName: 'Admin', email: `ada-${Date.now()}@example.test` });
  Sig = await member('signer', A.tenant, { firstName: 'Sam', lastName: 'Signer' });
  Sub = await member('submitter', A.tenant, { firstName: 'Sue', lastName: 'Submitter' });
  Cus = await member('custodian', A.tenant, { firstName: 'Cal', lastName: 'Custodian' });
  Cus2 = await member('custodian', A.tenant, { firstName: 'Cora', lastName: 'Keeper' });
  Super = await member('super_admin', A.tenant, { firstName: 'Sol', lastName: 'Super' });
  Other = await member('admin', undefined, { firstName: 'Otto', lastName: 'Other' });
});
afterAll(() => t.close());

describe('the admin user folders', () => {
  it('list each folder with its counts, searched, sorted and paged', async () => {
    const all = await ok(filteredUsers, A);
    expect(all.counts).toEqual({ Signers: 1, Submitters: 1, Custodians: 2, Admin: 1, RetentionAdmin: 0, All: 6 });
    expect(all.total).toBe(6);
    const custodians = await ok(filteredUsers, A, { query: { filter: 'Custodians', sort: 'name', order: 'desc' } });
    expect(custodians.users.map((u: AdminUser) => u.firstName)).toEqual(['Cora', 'Cal']);
    expect((await ok(filteredUsers, A, { query: { q: 'KEEP' } })).users.map((u: AdminUser) => u.email)).toEqual([Cus2.user.email]);
    expect((await ok(filteredUsers, A, { query: { q: 'sam sig' } })).users.map((u: AdminUser) => u.userId)).toEqual([Sig.user.id]);
    const page = await ok(filteredUsers, A, { query: { size: '10', pg: '1' } });
    expect([page.total, page.users]).toEqual([6, []]);
    expect(all.users.find((u: AdminUser) => u.userId === Sig.user.id)).toMatchObject({ role: 'signer', type: 'internal', status: 'enabled', enabled: true, retentionAdmin: false });
    // Another tenant's admin sees only their own.
    expect((await ok(filteredUsers, Other)).counts.All).toBe(1);
  });
});

describe('role changes', () => {
  it('are made one by one and recorded; refusals come back as -226 with what was done', async () => {
    const res = await inject(t.app, updateUserRoles, {
      body: {
        users: [
          { userId: Sig.user.id, role: 'custodian' },
          { userId: A.user.id, role: 'signer' }, // oneself: refused
          { userId: Super.user.id, role: 'signer' }, // a super admin: refused
          { userId: Other.user.id, role: 'signer' }, // another tenant's: no such member
        ],
      },
      as: A,
    });
    expect([res.statusCode, res.code]).toEqual([422, -226]);
    const data = res.data;
    expect(data.updated.map((u) => [u.userId, u.role])).toEqual([[Sig.user.id, 'custodian']]);
    expect(data.failed.map((f) => [f.userId, f.code])).toEqual([
      [A.user.id, -11],
      [Super.user.id, -11],
      [Other.user.id, -3],
    ]);
    const [row] = await t.database.db.select().from(memberships).where(and(eq(memberships.tenantId, Other.tenant.id), eq(memberships.userId, Other.user.id)));
    expect(row!.role).toBe('admin');

    // All allowed: success, and the retention privilege only for an admin.
    const done = await ok(updateUserRoles, A, {
      body: {
        users: [
          { userId: Sig.user.id, role: 'admin', retentionAdmin: true },
          { userId: Sub.user.id, role: 'custodian', retentionAdmin: true },
        ],
      },
    });
    expect(done.updated.map((u: AdminUser) => [u.role, u.retentionAdmin])).toEqual([
      ['admin', true],
      ['custodian', false],
    ]);
    expect((await ok(filteredUsers, A, { query: { filter: 'RetentionAdmin' } })).users.map((u: AdminUser) => u.userId)).toEqual([Sig.user.id]);
    const log = (await ok(listAdminAudit, A, { query: { action: 'user_role_changed' } })).items;
    expect(log.map((e) => [e.targetLabel, e.details])).toEqual([
      [Sub.user.email, { from: 'submitter', to: 'custodian' }],
      [Sig.user.email, { from: 'custodian', to: 'admin', retentionAdmin: true }],
      [Sig.user.email, { from: 'signer', to: 'custodian' }],
    ]);
    // Put back.
    await ok(updateUserRoles, A, { body: { users: [{ userId: Sig.user.id, role: 'signer' }, { userId: Sub.user.id, role: 'submitter' }] } });
  });

  it('make an admin, and change what the person may reach at their next request', async () => {
    const made = await ok(makeUserAdmin, A, { params: { userId: Cus2.user.id } });
    expect(made).toMatchObject({ userId: Cus2.user.id, role: 'admin' });
    expect((await inject(t.app, filteredUsers, { as: Cus2 })).statusCode).toBe(200);
    await ok(updateUserRoles, A, { body: { users: [{ userId: Cus2.user.id, role: 'custodian' }] } });
    expect((await inject(t.app, filteredUsers, { as: Cus2 })).code).toBe(-11);
  });

  it("refuse another tenant's admin with 404 and change nothing", async () => {
    const before = await state(A.tenant.id);
    for (const call of [
      () => inject(t.app, makeUserAdmin, { params: { userId: Cus.user.id }, as: Other }),
      () => inject(t.app, setUserEnabled, { params: { userId: Cus.user.id }, body: { enabled: false }, as: Other }),
    ]) {
      const res = await call();
      expect([res.statusCode, res.code]).toEqual([404, -1]);
    }
    const bulk = await inject(t.app, updateUserRoles, { body: { users: [{ userId: Cus.user.id, role: 'signer' }] }, as: Other });
    expect([bulk.statusCode, bulk.code, bulk.data.failed[0]!.code]).toEqual([422, -226, -3]);
    expect(await state(A.tenant.id)).toBe(before);
  });
});

describe('disabling', () => {
  it('stops every request of the member with -13 until enabled again, and is recorded', async () => {
    const off = await ok(setUserEnabled, A, { params: { userId: Cus.user.id }, body: { enabled: false } });
    expect(off).toMatchObject({ enabled: false });
    const refused = await inject(t.app, listEpaks, { as: Cus });
    expect(refused.code).toBe(-13);
    await ok(setUserEnabled, A, { params: { userId: Cus.user.id }, body: { enabled: true } });
    expect((await inject(t.app, listEpaks, { as: Cus })).statusCode).toBe(200);
    const log = (await ok(listAdminAudit, A, { query: { target: Cus.user.email } })).items;
    expect(log.map((e) => e.action)).toEqual(['user_enabled', 'user_disabled']);
  });

  it('refuses oneself and a super admin (-11), changing nothing', async () => {
    const before = await state(A.tenant.id);
    for (const target of [A, Super]) {
      const res = await inject(t.app, setUserEnabled, { params: { userId: target.user.id }, body: { enabled: false }, as: A });
      expect([res.statusCode, res.code]).toEqual([403, -11]);
    }
    expect(await state(A.tenant.id)).toBe(before);
  });
});

/** The invitation codes mailed to an address, oldest first. */
const invitationMails = async (email: string) =>
  (await t.database.db.select().from(outbox).where(and(eq(outbox.recipient, email), eq(outbox.kind, 'invitation'))).orderBy(asc(outbox.createdAt))).map(
    (mail) => new URL(/https?:\/\/\S+/.exec(mail.body)![0]).searchParams.get('invite')!,
  );

describe('invitations', () => {
  const invite = async (email: string) =>
    (await ok(inviteUsers, A, { body: { users: [{ email, firstName: 'New', lastName: 'Person', role: 'signer' }] } })).users[0]!.userId;
  const describeCode = (code: string) => inject(t.app, invitationDetails, { params: { inviteCode: code } });

  it('are sent again with a new link that replaces the old (admin_reinvite)', async () => {
    const email = `reinvite-${Date.now()}@example.test`;
    const userId = await invite(email);
    expect(await ok(reinviteUser, A, { params: { userId } })).toEqual({ userId, email, status: 'invited' });
    const [first, second] = await invitationMails(email);
    expect((await describeCode(first!)).code).toBe(-173);
    expect((await describeCode(second!)).statusCode).toBe(200);
    expect(((await ok(listAdminAudit, A, { query: { action: 'admin_reinvite' } })).items)[0]).toMatchObject({ targetLabel: email });
  });

  it('are cancelled: the link stops working, the membership goes, the account is marked (admin_invite_cancel)', async () => {
    const email = `cancel-${Date.now()}@example.test`;
    const userId = await invite(email);
    expect(await ok(cancelUserInvitation, A, { params: { userId } })).toEqual({ userId, email, status: 'cancelled' });
    const [code] = await invitationMails(email);
    expect((await describeCode(code!)).code).toBe(-173);
    expect(await t.database.db.select().from(memberships).where(eq(memberships.userId, userId))).toEqual([]);
    const [user] = await t.database.db.select().from(users).where(eq(users.id, userId));
    expect(user!.status).toBe('cancelInvitation');
    expect(((await ok(listAdminAudit, A, { query: { action: 'admin_invite_cancel' } })).items)[0]).toMatchObject({ targetLabel: email });
  });

  it('are not cancelled while an ePak under way waits for the person (-34) or was delegated to them (-35)', async () => {
    const db = t.database.db;
    for (const [status, code] of [
      ['Pending', -34],
      ['DelegatePending', -35],
    ] as const) {
      const email = `blocked-${status}-${Date.now()}@example.test`;
      const userId = await invite(email);
      const [epak] = await db.insert(epaks).values({ tenantId: A.tenant.id, ownerId: A.user.id, subject: 'Waiting', signingPolicy: 'ESIGNATURE', status: 'InProgress', currentStep: 1, startedAt: new Date() }).returning();
      const [step] = await db.insert(epakSteps).values({ epakId: epak!.id, position: 1, workflowStateId: randomUUID(), name: 'Sign', type: 'SIGN' }).returning();
      await db.insert(epakRecipients).values({ epakId: epak!.id, stepId: step!.id, userId, position: 1, status });
      const before = await state(A.tenant.id);
      const res = await inject(t.app, cancelUserInvitation, { params: { userId }, as: A });
      expect([res.statusCode, res.code]).toEqual([409, code]);
      expect(await state(A.tenant.id)).toBe(before);
    }
  });

  it('are only for people who have not joined (-6), and not for another tenant (404)', async () => {
    const joined = await inject(t.app, reinviteUser, { params: { userId: Sig.user.id }, as: A });
    expect([joined.statusCode, joined.code]).toEqual([400, -6]);
    const email = `theirs-${Date.now()}@example.test`;
    const userId = await invite(email);
    const before = await state(A.tenant.id);
    for (const endpoint of [reinviteUser, cancelUserInvitation]) {
      const res = await inject(t.app, endpoint, { params: { userId }, as: Other });
      expect([res.statusCode, res.code]).toEqual([404, -1]);
    }
    expect(await state(A.tenant.id)).toBe(before);
  });

  it("are not an admin's to send again or withdraw for a super admin (-11)", async () => {
    const email = `super-${Date.now()}@example.test`;
    const invited = await inject(t.app, registerSuperadmin, { body: { email, firstName: 'Sita', lastName: 'Rao' }, as: Super });
    expect(invited.statusCode, invited.body).toBe(200);
    const userId = invited.data.userId;
    const before = await state(A.tenant.id);
    for (const endpoint of [reinviteUser, cancelUserInvitation]) {
      const res = await inject(t.app, endpoint, { params: { userId }, as: A });
      expect([res.statusCode, res.code], res.body).toEqual([403, -11]);
    }
    expect(await state(A.tenant.id)).toBe(before);
  });
});

describe('inviting from a CSV file', () => {
  const upload = (who: Who, text: string) => inject(t.app, csvInvite, { as: who, file: { bytes: Buffer.from(text, 'utf8'), name: 'people.csv', type: 'text/csv' } });

  it('offers the template: the header line', async () => {
    const res = await inject(t.app, csvInviteTemplate, { as: A });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['content-disposition']).toMatch(/pakt-invitations\.csv/);
    expect(res.body).toBe('email,firstName,middleName,lastName,role\r\n');
  });

  it('invites the good rows, mails them, and reports each bad row by line, field and code (-222)', async () => {
    const stamp = Date.now();
    const csv = [
      'email,firstName,middleName,lastName,role',
      `good1-${stamp}@example.test,Gita,,Gupta,signer`,
      `not-an-address,Bad,,Row,signer`,
      `good2-${stamp}@example.test,"Hari, Jr",K,Haran,custodian`,
      `noname-${stamp}@example.test,,,Nolast,signer`,
      `${Sig.user.email},Sam,,Signer,signer`,
      `good1-${stamp}@example.test,Gita,,Again,signer`,
      `role-${stamp}@example.test,Rita,,Role,root`,
      `short-${stamp}@example.test,Too,Few`,
    ].join('\r\n');
    const res = await upload(A, csv);
    expect(res.json().code, res.body).toBe(-222);
    const data = res.json().data as { invited: Array<{ line: number; email: string }>; failed: Array<{ line: number; field: string | null; code: number }> };
    expect(data.invited.map((i) => [i.line, i.email])).toEqual([
      [2, `good1-${stamp}@example.test`],
      [4, `good2-${stamp}@example.test`],
    ]);
    expect(data.failed.map((f) => [f.line, f.field, f.code])).toEqual([
      [3, 'email', -1],
      [5, 'firstName', -2],
      [6, 'email', -85],
      [7, 'email', -6],
      [8, 'role', -6],
      [9, null, -175],
    ]);
    expect(await invitationMails(`good2-${stamp}@example.test`)).toHaveLength(1);
    const listed = await ok(filteredUsers, A, { query: { q: `good2-${stamp}` } });
    expect(listed.users[0]).toMatchObject({ firstName: 'Hari, Jr', middleName: 'K', role: 'custodian', status: 'admininvited' });
  });

  it('refuses a file that cannot be read as the template, inviting nobody', async () => {
    const before = await state(A.tenant.id);
    const cases: Array<[string, number]> = [
      ['', -182],
      ['email,firstName,middleName,lastName,role\r\n', -182],
      ['email,firstName,lastName\r\nx@example.test,X,Y', -181],
      ['email,firstName,lastName,role,phone\r\nx@example.test,X,Y,signer,123', -175],
      [['email,firstName,lastName,role', ...Array.from({ length: 501 }, (_, i) => `bulk${i}@example.test,B,C,signer`)].join('\n'), -143],
      ['email,firstName,lastName,role\r\nnobody,X,Y,signer', -174],
    ];
    for (const [text, code] of cases) expect((await upload(A, text)).json().code).toBe(code);
    expect(await state(A.tenant.id)).toBe(before);
  });
});

describe('resetting a password', () => {
  it('mails the member a reset link that works, and records it; refused for oneself, a super admin, another tenant', async () => {
    const res = await ok(resetUserPassword, A, { params: { userId: Cus.user.id } });
    expect(res).toEqual({ userId: Cus.user.id, email: Cus.user.email, mailed: true });
    const [mail] = await t.database.db.select().from(outbox).where(and(eq(outbox.recipient, Cus.user.email), eq(outbox.kind, 'password-reset')));
    expect(mail!.body).toMatch(/Your administrator asked/);
    const token = new URL(/https?:\/\/\S+/.exec(mail!.body)![0]).searchParams.get('token')!;
    const reset = await inject(t.app, resetPassword, { body: { token, newPassword: 'Another-Horse-77', confirmPassword: 'Another-Horse-77' } });
    expect(reset.statusCode, reset.body).toBe(200);
    expect(((await ok(listAdminAudit, A, { query: { action: 'user_password_reset' } })).items)[0]).toMatchObject({ targetLabel: Cus.user.email });

    const before = await state(A.tenant.id);
    for (const [who, target, expected] of [
      [A, A, [403, -11]],
      [A, Super, [403, -11]],
      [Other, Cus, [404, -1]],
    ] as const) {
      const refused = await inject(t.app, resetUserPassword, { params: { userId: target.user.id }, as: who });
      expect([refused.statusCode, refused.code]).toEqual(expected);
    }
    expect(await state(A.tenant.id)).toBe(before);
  });
});
