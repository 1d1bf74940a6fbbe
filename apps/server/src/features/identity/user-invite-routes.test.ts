import { accessibilities, ErrorEnvelope, invitationDetails, type Invitee, inviteUsers, registerUserTenant, TokenGrant } from '@pakt/domain';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invitations, memberships, outbox, tenantSettings, users } from '../../platform/db/schema';
import { GOOD_PASSWORD, makeMember, makeRoot, makeTenant, makeUser } from '../../test/factories';
import { inject } from '../../test/inject';
import { bearer, signIn } from '../../test/sign-in';
import { buildTestApp, type TestApp } from '../../test/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const db = () => t.database.db;

/** An admin of a fresh tenant, signed in, with the headers to act there. */
async function signedInAdmin() {
  const tenant = await makeTenant(db());
  const admin = await makeMember(db(), { role: 'admin', tenant });
  const grant = await signIn(t.app, admin.user.email, GOOD_PASSWORD);
  return { ...admin, tenant, headers: { ...bearer(grant), 'x-tenant-id': tenant.id } };
}

const person = (email: string, role: Invitee['role'] = 'signer', names: { firstName?: string; middleName?: string; lastName?: string } = {}) => ({
  email,
  firstName: 'Neha',
  lastName: 'Kapoor',
  role,
  ...names,
});

const invite = (headers: Record<string, string>, people: Invitee[]) => inject(t.app, inviteUsers, { body: { users: people }, headers });

/** Every row the command could write, so "nothing stored" means nothing, not "the same counts". */
async function stored(): Promise<string> {
  return JSON.stringify([
    await db().select().from(users).orderBy(asc(users.id)),
    await db().select().from(memberships).orderBy(asc(memberships.tenantId), asc(memberships.userId)),
    await db().select().from(invitations).orderBy(asc(invitations.id)),
    await db().select().from(outbox).orderBy(asc(outbox.id)),
  ]);
}

async function invitationMails(tenantId: string) {
  return db().select().from(outbox).where(and(eq(outbox.tenantId, tenantId), eq(outbox.kind, 'invitation'))).orderBy(asc(outbox.recipient));
}

const linkIn = (body: string) => new URL(/https?:\/\/\S+/.exec(body)![0]);

describe('POST /msbapi/v1/users/invite', () => {
  it('invites people with their roles, mails each a registration link, and answers without the links', async () => {
    const admin = await signedInAdmin();
    // Someone with an account in another tenant keeps it: no second user is made for them.
    const elsewhere = await makeMember(db(), { role: 'custodian', user: { email: 'dev.rao@firm.test' } });
    const res = await invite(admin.headers, [person('Neha.Kapoor@Firm.TEST', 'signer'), person('dev.rao@firm.test', 'custodian', { firstName: 'Dev', middleName: 'K', lastName: 'Rao' })]);

    expect(res.statusCode).toBe(200);
    const answer = res.json();
    expect(answer.code).toBe(1);
    expect(answer.data.users).toEqual([
      { email: 'neha.kapoor@firm.test', userId: expect.any(String), status: 'invited' },
      { email: 'dev.rao@firm.test', userId: elsewhere.user.id, status: 'invited' },
    ]);
    // The links go out by mail only: the admin's answer carries no code.
    expect(res.body).not.toMatch(/pki_|register\?invite/);

    const mails = await invitationMails(admin.tenant.id);
    expect(mails.map((m) => m.recipient)).toEqual(['dev.rao@firm.test', 'neha.kapoor@firm.test']);
    for (const mail of mails) {
      const link = linkIn(mail.body);
      expect(link.pathname).toBe('/register');
      expect(link.searchParams.get('invite')).toMatch(/^pki_[A-Za-z0-9_-]+$/);
      expect(link.searchParams.get('tenant')).toBe(admin.tenant.id);
      expect(mail.subject).toBe(`You are invited to ${admin.tenant.name} on Pakt`);
    }
    expect(mails[0]!.body).toContain('as custodian');
    expect(mails[1]!.body).toContain('as signer');

    const members = await db().select().from(memberships).where(eq(memberships.tenantId, admin.tenant.id)).orderBy(asc(memberships.role));
    expect(members.map((m) => [m.role, m.status])).toEqual([['admin', 'active'], ['custodian', 'invited'], ['signer', 'invited']]);
    const rows = await db().select().from(invitations).where(eq(invitations.tenantId, admin.tenant.id));
    expect(rows).toHaveLength(2);
    expect(rows.every((row) => row.invitedBy === admin.user.id && row.status === 'pending')).toBe(true);
    const [newcomer] = await db().select().from(users).where(eq(users.id, answer.data.users[0].userId));
    expect(newcomer).toMatchObject({ email: 'neha.kapoor@firm.test', status: 'admininvited', passwordHash: null, type: 'internal' });
    const [kept] = await db().select().from(users).where(eq(users.id, elsewhere.user.id));
    expect(kept!.passwordHash).toBe(elsewhere.user.passwordHash);
  });

  it('lets an invitee register from the mailed link, sign in, and act in the tenant with the role given', async () => {
    const admin = await signedInAdmin();
    await invite(admin.headers, [person('ines.costa@firm.test', 'custodian', { firstName: 'Ines', lastName: 'Costa' })]);
    const [mail] = await invitationMails(admin.tenant.id);
    const link = linkIn(mail!.body);

    const details = await inject(t.app, invitationDetails, { params: { inviteCode: link.searchParams.get('invite')! } });
    expect(details.data).toMatchObject({ email: 'ines.costa@firm.test', tenantUuid: admin.tenant.id, tenantName: admin.tenant.name, role: 'custodian' });
    const registered = await inject(t.app, registerUserTenant, {
      body: {
        userEmail: 'ines.costa@firm.test',
        firstName: 'Ines',
        lastName: 'Costa',
        newPassword: GOOD_PASSWORD,
        confirmPassword: GOOD_PASSWORD,
        inviteCode: link.searchParams.get('invite')!,
        tenantUuid: link.searchParams.get('tenant')!,
      },
    });
    expect(registered.statusCode).toBe(200);
    expect(TokenGrant.parse(registered.data).user.tenants).toEqual([expect.objectContaining({ tenantUuid: admin.tenant.id, userRole: 'custodian' })]);

    const grant = await signIn(t.app, 'ines.costa@firm.test', GOOD_PASSWORD);
    expect(grant.user).toMatchObject({ status: 'enabled', tenants: [expect.objectContaining({ tenantUuid: admin.tenant.id, tenantName: admin.tenant.name, userRole: 'custodian' })] });
    const [membership] = await db().select().from(memberships).where(and(eq(memberships.tenantId, admin.tenant.id), eq(memberships.userId, grant.user.id)));
    expect(membership!.status).toBe('active');
    const inside = await inject(t.app, accessibilities, { headers: { ...bearer(grant), 'x-tenant-id': admin.tenant.id } });
    expect(inside.statusCode).toBe(200);
    expect(inside.data.role).toBe('custodian');
  });

  it('makes someone who only signed by link an internal user once they join', async () => {
    const admin = await signedInAdmin();
    const outsider = await makeUser(db(), { email: 'omar.haddad@client.test', type: 'external', status: 'admininvited', password: null });
    await invite(admin.headers, [person(outsider.email, 'signer', { firstName: 'Omar', lastName: 'Haddad' })]);
    const link = linkIn((await invitationMails(admin.tenant.id))[0]!.body);
    const registered = await inject(t.app, registerUserTenant, {
      body: {
        userEmail: outsider.email,
        firstName: 'Omar',
        lastName: 'Haddad',
        newPassword: GOOD_PASSWORD,
        confirmPassword: GOOD_PASSWORD,
        inviteCode: link.searchParams.get('invite')!,
        tenantUuid: link.searchParams.get('tenant')!,
      },
    });
    expect(registered.statusCode, registered.body).toBe(200);
    const [after] = await db().select().from(users).where(eq(users.id, outsider.id));
    expect([after!.type, after!.status]).toEqual(['internal', 'enabled']);
  });

  it('keeps the link working for as long as the tenant says (USER_INVITE_CONFIG)', async () => {
    const admin = await signedInAdmin();
    await db().insert(tenantSettings).values({ tenantId: admin.tenant.id, settings: { invitationValidityDays: 30 } });
    const before = Date.now();
    await invite(admin.headers, [person('long.stay@firm.test')]);
    const [row] = await db().select().from(invitations).where(eq(invitations.tenantId, admin.tenant.id));
    const days = (row!.expiresAt.getTime() - before) / (24 * 3600_000);
    expect(days).toBeGreaterThanOrEqual(30);
    expect(days).toBeLessThan(30.01);
    expect((await invitationMails(admin.tenant.id))[0]!.body).toContain('within 30 days');
  });

  it('refuses a member (-85), someone already invited (-85), a disabled account (-13) and root (-6), storing nothing of the batch', async () => {
    const admin = await signedInAdmin();
    const member = await makeMember(db(), { role: 'signer', tenant: admin.tenant });
    const pending = await makeMember(db(), { role: 'signer', tenant: admin.tenant, status: 'invited', user: { status: 'admininvited', password: null } });
    const disabled = await makeUser(db(), { disabledAt: new Date() });
    const root = await makeRoot(db());
    for (const [email, code, status] of [
      [member.user.email, -85, 409],
      [pending.user.email, -85, 409],
      [disabled.email, -13, 403],
      [root.email, -6, 400],
    ] as const) {
      const before = await stored();
      // The newcomer first: their invitation is made, then rolled back with the refusal.
      const res = await invite(admin.headers, [person('first.in.line@firm.test'), person(email)]);
      expect(res.statusCode, email).toBe(status);
      expect(ErrorEnvelope.parse(res.json())).toMatchObject({ code, data: { email } });
      expect(await stored()).toBe(before);
    }
    expect(await db().select().from(users).where(eq(users.email, 'first.in.line@firm.test'))).toEqual([]);
  });

  it("answers an admin of another tenant with 404 and changes nothing", async () => {
    const admin = await signedInAdmin();
    const other = await makeTenant(db());
    const before = await stored();
    const res = await invite({ ...admin.headers, 'x-tenant-id': other.id }, [person('sneaky@firm.test')]);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ code: -1, data: null, message: 'Not found.' });
    expect(await stored()).toBe(before);
  });

  it.each(['custodian', 'signer', 'submitter', 'registrar', 'super_admin'] as const)('refuses a %s of the tenant with 403 and changes nothing', async (role) => {
    const admin = await signedInAdmin();
    const member = await makeMember(db(), { role, tenant: admin.tenant });
    const grant = await signIn(t.app, member.user.email, GOOD_PASSWORD);
    const before = await stored();
    const res = await invite({ ...bearer(grant), 'x-tenant-id': admin.tenant.id }, [person('friend@firm.test', 'admin')]);
    expect(res.statusCode).toBe(403);
    expect(res.code).toBe(-11);
    expect(await stored()).toBe(before);
  });

  it('rejects a bad payload with -6, pointing at the field, and changes nothing', async () => {
    const admin = await signedInAdmin();
    const before = await stored();
    const cases: [unknown[], string][] = [
      [[], 'body.users'],
      [Array.from({ length: 101 }, (_, i) => person(`p${i}@firm.test`)), 'body.users'],
      [[person('not-an-address')], 'body.users.0.email'],
      [[{ ...person('a@firm.test'), role: 'root' }], 'body.users.0.role'],
      [[{ ...person('a@firm.test'), role: 'super_admin' }], 'body.users.0.role'],
      [[person('a@firm.test'), { email: 'b@firm.test', firstName: 'B', role: 'signer' }], 'body.users.1.lastName'],
      [[person('a@firm.test'), person('A@Firm.test')], 'body.users.1.email'],
    ];
    for (const [people, path] of cases) {
      // Raw: some of these bodies are ones the contract's types refuse, to show the server's own validation.
      const res = await t.app.inject({ method: 'POST', url: '/msbapi/v1/users/invite', headers: admin.headers, payload: { users: people } });
      expect(res.statusCode, path).toBe(400);
      const error = ErrorEnvelope.parse(res.json());
      expect(error.code).toBe(-6);
      expect(error.issues?.map((issue) => issue.path)).toContain(path);
    }
    const duplicate = await invite(admin.headers, [person('a@firm.test'), person('A@Firm.test')]);
    expect(duplicate.json().issues).toEqual([{ path: 'body.users.1.email', message: 'already present' }]);
    expect(await stored()).toBe(before);
  });
});
