import type { AdminAuditEntry, AdminUser } from '@pakt/domain';
import { randomUUID } from 'node:crypto';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminAuditLog, epakRecipients, epaks, epakSteps, memberships, outbox, users } from '../../platform/db/schema';
import { GOOD_PASSWORD, makeMember } from '../../test/factories';
import { multipart } from '../../test/multipart';
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

const inject = (method: 'GET' | 'POST' | 'PUT', url: string, who: Who, payload?: unknown) =>
  t.app.inject({ method, url, headers: who.headers, ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) });

async function ok(method: 'GET' | 'POST' | 'PUT', url: string, who: Who, payload?: unknown) {
  const res = await inject(method, url, who, payload);
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(200);
  return res.json().data;
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
    const all = await ok('GET', '/msbapi/v1/filteredusers', A);
    expect(all.counts).toEqual({ Signers: 1, Submitters: 1, Custodians: 2, Admin: 1, RetentionAdmin: 0, All: 6 });
    expect(all.total).toBe(6);
    const custodians = await ok('GET', '/msbapi/v1/filteredusers?filter=Custodians&sort=name&order=desc', A);
    expect(custodians.users.map((u: AdminUser) => u.firstName)).toEqual(['Cora', 'Cal']);
    expect((await ok('GET', '/msbapi/v1/filteredusers?q=KEEP', A)).users.map((u: AdminUser) => u.email)).toEqual([Cus2.user.email]);
    expect((await ok('GET', '/msbapi/v1/filteredusers?q=sam%20sig', A)).users.map((u: AdminUser) => u.userId)).toEqual([Sig.user.id]);
    const page = await ok('GET', '/msbapi/v1/filteredusers?size=10&pg=1', A);
    expect([page.total, page.users]).toEqual([6, []]);
    expect(all.users.find((u: AdminUser) => u.userId === Sig.user.id)).toMatchObject({ role: 'signer', type: 'internal', status: 'enabled', enabled: true, retentionAdmin: false });
    // Another tenant's admin sees only their own.
    expect((await ok('GET', '/msbapi/v1/filteredusers', Other)).counts.All).toBe(1);
  });
});

describe('role changes', () => {
  it('are made one by one and recorded; refusals come back as -226 with what was done', async () => {
    const res = await inject('PUT', '/msbapi/v2/users/roles', A, {
      users: [
        { userId: Sig.user.id, role: 'custodian' },
        { userId: A.user.id, role: 'signer' }, // oneself: refused
        { userId: Super.user.id, role: 'signer' }, // a super admin: refused
        { userId: Other.user.id, role: 'signer' }, // another tenant's: no such member
      ],
    });
    expect([res.statusCode, res.json().code]).toEqual([422, -226]);
    const data = res.json().data as { updated: AdminUser[]; failed: Array<{ userId: string; code: number }> };
    expect(data.updated.map((u) => [u.userId, u.role])).toEqual([[Sig.user.id, 'custodian']]);
    expect(data.failed.map((f) => [f.userId, f.code])).toEqual([
      [A.user.id, -11],
      [Super.user.id, -11],
      [Other.user.id, -3],
    ]);
    const [row] = await t.database.db.select().from(memberships).where(and(eq(memberships.tenantId, Other.tenant.id), eq(memberships.userId, Other.user.id)));
    expect(row!.role).toBe('admin');

    // All allowed: success, and the retention privilege only for an admin.
    const done = await ok('PUT', '/msbapi/v2/users/roles', A, {
      users: [
        { userId: Sig.user.id, role: 'admin', retentionAdmin: true },
        { userId: Sub.user.id, role: 'custodian', retentionAdmin: true },
      ],
    });
    expect(done.updated.map((u: AdminUser) => [u.role, u.retentionAdmin])).toEqual([
      ['admin', true],
      ['custodian', false],
    ]);
    expect((await ok('GET', '/msbapi/v1/filteredusers?filter=RetentionAdmin', A)).users.map((u: AdminUser) => u.userId)).toEqual([Sig.user.id]);
    const log = (await ok('GET', '/msbapi/v2/admin/audit?action=user_role_changed', A)).items as AdminAuditEntry[];
    expect(log.map((e) => [e.targetLabel, e.details])).toEqual([
      [Sub.user.email, { from: 'submitter', to: 'custodian' }],
      [Sig.user.email, { from: 'custodian', to: 'admin', retentionAdmin: true }],
      [Sig.user.email, { from: 'signer', to: 'custodian' }],
    ]);
    // Put back.
    await ok('PUT', '/msbapi/v2/users/roles', A, { users: [{ userId: Sig.user.id, role: 'signer' }, { userId: Sub.user.id, role: 'submitter' }] });
  });

  it('make an admin, and change what the person may reach at their next request', async () => {
    const made = await ok('POST', `/msbapi/v1/users/${Cus2.user.id}/admin`, A);
    expect(made).toMatchObject({ userId: Cus2.user.id, role: 'admin' });
    expect((await inject('GET', '/msbapi/v1/filteredusers', Cus2)).statusCode).toBe(200);
    await ok('PUT', '/msbapi/v2/users/roles', A, { users: [{ userId: Cus2.user.id, role: 'custodian' }] });
    expect((await inject('GET', '/msbapi/v1/filteredusers', Cus2)).json().code).toBe(-11);
  });

  it("refuse another tenant's admin with 404 and change nothing", async () => {
    const before = await state(A.tenant.id);
    for (const [method, url, payload] of [
      ['POST', `/msbapi/v1/users/${Cus.user.id}/admin`, undefined],
      ['PUT', `/msbapi/v2/users/${Cus.user.id}/status`, { enabled: false }],
    ] as const) {
      const res = await inject(method, url, Other, payload);
      expect([res.statusCode, res.json().code]).toEqual([404, -1]);
    }
    const bulk = await inject('PUT', '/msbapi/v2/users/roles', Other, { users: [{ userId: Cus.user.id, role: 'signer' }] });
    expect([bulk.statusCode, bulk.json().code, bulk.json().data.failed[0].code]).toEqual([422, -226, -3]);
    expect(await state(A.tenant.id)).toBe(before);
  });
});

describe('disabling', () => {
  it('stops every request of the member with -13 until enabled again, and is recorded', async () => {
    const off = await ok('PUT', `/msbapi/v2/users/${Cus.user.id}/status`, A, { enabled: false });
    expect(off).toMatchObject({ enabled: false });
    const refused = await inject('GET', '/msbapi/v2/epaks', Cus);
    expect(refused.json().code).toBe(-13);
    await ok('PUT', `/msbapi/v2/users/${Cus.user.id}/status`, A, { enabled: true });
    expect((await inject('GET', '/msbapi/v2/epaks', Cus)).statusCode).toBe(200);
    const log = (await ok('GET', `/msbapi/v2/admin/audit?target=${encodeURIComponent(Cus.user.email)}`, A)).items as AdminAuditEntry[];
    expect(log.map((e) => e.action)).toEqual(['user_enabled', 'user_disabled']);
  });

  it('refuses oneself and a super admin (-11), changing nothing', async () => {
    const before = await state(A.tenant.id);
    for (const target of [A, Super]) {
      const res = await inject('PUT', `/msbapi/v2/users/${target.user.id}/status`, A, { enabled: false });
      expect([res.statusCode, res.json().code]).toEqual([403, -11]);
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
    ((await ok('POST', '/msbapi/v1/users/invite', A, { users: [{ email, firstName: 'New', lastName: 'Person', role: 'signer' }] })).users[0] as { userId: string }).userId;
  const describeCode = (code: string) => t.app.inject({ method: 'GET', url: `/msbapi/public/invitations/${encodeURIComponent(code)}` });

  it('are sent again with a new link that replaces the old (admin_reinvite)', async () => {
    const email = `reinvite-${Date.now()}@example.test`;
    const userId = await invite(email);
    expect(await ok('POST', `/msbapi/v2/users/${userId}/reinvite`, A)).toEqual({ userId, email, status: 'invited' });
    const [first, second] = await invitationMails(email);
    expect((await describeCode(first!)).json().code).toBe(-173);
    expect((await describeCode(second!)).statusCode).toBe(200);
    expect(((await ok('GET', '/msbapi/v2/admin/audit?action=admin_reinvite', A)).items as AdminAuditEntry[])[0]).toMatchObject({ targetLabel: email });
  });

  it('are cancelled: the link stops working, the membership goes, the account is marked (admin_invite_cancel)', async () => {
    const email = `cancel-${Date.now()}@example.test`;
    const userId = await invite(email);
    expect(await ok('POST', `/msbapi/v2/users/${userId}/cancelInvite`, A)).toEqual({ userId, email, status: 'cancelled' });
    const [code] = await invitationMails(email);
    expect((await describeCode(code!)).json().code).toBe(-173);
    expect(await t.database.db.select().from(memberships).where(eq(memberships.userId, userId))).toEqual([]);
    const [user] = await t.database.db.select().from(users).where(eq(users.id, userId));
    expect(user!.status).toBe('cancelInvitation');
    expect(((await ok('GET', '/msbapi/v2/admin/audit?action=admin_invite_cancel', A)).items as AdminAuditEntry[])[0]).toMatchObject({ targetLabel: email });
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
      const res = await inject('POST', `/msbapi/v2/users/${userId}/cancelInvite`, A);
      expect([res.statusCode, res.json().code]).toEqual([409, code]);
      expect(await state(A.tenant.id)).toBe(before);
    }
  });

  it('are only for people who have not joined (-6), and not for another tenant (404)', async () => {
    const joined = await inject('POST', `/msbapi/v2/users/${Sig.user.id}/reinvite`, A);
    expect([joined.statusCode, joined.json().code]).toEqual([400, -6]);
    const email = `theirs-${Date.now()}@example.test`;
    const userId = await invite(email);
    const before = await state(A.tenant.id);
    for (const action of ['reinvite', 'cancelInvite']) {
      const res = await inject('POST', `/msbapi/v2/users/${userId}/${action}`, Other);
      expect([res.statusCode, res.json().code]).toEqual([404, -1]);
    }
    expect(await state(A.tenant.id)).toBe(before);
  });

  it("are not an admin's to send again or withdraw for a super admin (-11)", async () => {
    const email = `super-${Date.now()}@example.test`;
    const invited = await inject('POST', '/msbapi/v2/user/registerAsSuperadmin', Super, { email, firstName: 'Sita', lastName: 'Rao' });
    expect(invited.statusCode, invited.body).toBe(200);
    const userId = invited.json().data.userId as string;
    const before = await state(A.tenant.id);
    for (const action of ['reinvite', 'cancelInvite']) {
      const res = await inject('POST', `/msbapi/v2/users/${userId}/${action}`, A);
      expect([res.statusCode, res.json().code], res.body).toEqual([403, -11]);
    }
    expect(await state(A.tenant.id)).toBe(before);
  });
});

describe('inviting from a CSV file', () => {
  const upload = (who: Who, text: string) => {
    const body = multipart(Buffer.from(text, 'utf8'), 'people.csv', 'text/csv');
    return t.app.inject({ method: 'POST', url: '/msbapi/v2/users/csvInvite', headers: { ...who.headers, ...body.headers }, payload: body.payload });
  };

  it('offers the template: the header line', async () => {
    const res = await inject('GET', '/msbapi/v2/users/csvInvite', A);
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
    const listed = await ok('GET', `/msbapi/v1/filteredusers?q=good2-${stamp}`, A);
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
    const res = await ok('POST', `/msbapi/v1/users/${Cus.user.id}/password/reset`, A);
    expect(res).toEqual({ userId: Cus.user.id, email: Cus.user.email, mailed: true });
    const [mail] = await t.database.db.select().from(outbox).where(and(eq(outbox.recipient, Cus.user.email), eq(outbox.kind, 'password-reset')));
    expect(mail!.body).toMatch(/Your administrator asked/);
    const token = new URL(/https?:\/\/\S+/.exec(mail!.body)![0]).searchParams.get('token')!;
    const reset = await t.app.inject({ method: 'POST', url: '/msbapi/public/users/password', payload: { token, newPassword: 'Another-Horse-77', confirmPassword: 'Another-Horse-77' } });
    expect(reset.statusCode, reset.body).toBe(200);
    expect(((await ok('GET', '/msbapi/v2/admin/audit?action=user_password_reset', A)).items as AdminAuditEntry[])[0]).toMatchObject({ targetLabel: Cus.user.email });

    const before = await state(A.tenant.id);
    for (const [who, target, expected] of [
      [A, A, [403, -11]],
      [A, Super, [403, -11]],
      [Other, Cus, [404, -1]],
    ] as const) {
      const refused = await inject('POST', `/msbapi/v1/users/${target.user.id}/password/reset`, who);
      expect([refused.statusCode, refused.json().code]).toEqual(expected);
    }
    expect(await state(A.tenant.id)).toBe(before);
  });
});
