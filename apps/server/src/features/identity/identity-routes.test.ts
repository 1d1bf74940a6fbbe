import {
  authenticate,
  checkSession,
  completeSetup,
  createTenant,
  ErrorEnvelope,
  invitationDetails,
  joinWithInvitation,
  listTenants,
  logout,
  refreshToken,
  registerUserTenant,
  setupStatus,
  TokenGrant,
  usersValid,
} from '@pakt/domain';
import { count, eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { invitations, loginThrottles, memberships, outbox, sessions, systemSettings, tenants, users } from '../../platform/db/schema';
import { prepareFirstRun } from './first-run';
import { makeMember, makeRoot, makeTenant, makeUser, GOOD_PASSWORD } from '../../test/factories';
import { inject } from '../../test/inject';
import { bearer, signIn } from '../../test/sign-in';
import { buildTestApp, type TestApp } from '../../test/test-app';

let t: TestApp;
beforeEach(async () => {
  t = await buildTestApp({ captureLogs: true });
});
afterEach(() => t.close());

const db = () => t.database.db;
const form = (fields: Record<string, string>) => ({
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  payload: new URLSearchParams(fields).toString(),
});
async function rowCount(table: typeof users | typeof tenants | typeof sessions | typeof memberships | typeof outbox) {
  const [row] = await db().select({ n: count() }).from(table);
  return row!.n;
}

describe('first-run setup', () => {
  it('creates the root account once, with the one-time token, and signs it in', async () => {
    const link = await prepareFirstRun({ db: db(), publicUrl: 'http://pakt.test', configuredToken: 'x'.repeat(40) });
    expect(link).toBe(`http://pakt.test/root?setup=${'x'.repeat(40)}`);
    expect((await inject(t.app, setupStatus, {})).data).toEqual({ required: true });

    const body = { email: 'Root@Example.test', firstName: 'Ravi', lastName: 'Iyer', password: GOOD_PASSWORD };
    const wrong = await inject(t.app, completeSetup, { body: { ...body, token: 'y'.repeat(40) } });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.code).toBe(-11);
    expect(await rowCount(users)).toBe(0);

    const weak = await inject(t.app, completeSetup, { body: { ...body, token: 'x'.repeat(40), password: 'short' } });
    expect(weak.statusCode).toBe(400);
    expect(weak.json()).toMatchObject({ code: -16, message: 'passwordInvalid' });
    expect(weak.json().issues.map((i: { message: string }) => i.message)).toEqual(['minLength', 'uppercase', 'digit']);

    const ok = await inject(t.app, completeSetup, { body: { ...body, token: 'x'.repeat(40) } });
    expect(ok.statusCode).toBe(200);
    const grant = TokenGrant.parse(ok.data);
    expect(grant.user).toMatchObject({ email: 'root@example.test', isRoot: true, tenants: [] });

    const again = await inject(t.app, completeSetup, { body: { ...body, email: 'b@example.test', token: 'x'.repeat(40) } });
    expect(again.statusCode).toBe(403);
    expect(await rowCount(users)).toBe(1);
    expect((await inject(t.app, setupStatus, {})).data).toEqual({ required: false });
    expect(await prepareFirstRun({ db: db(), publicUrl: 'http://pakt.test' })).toBeUndefined();
  });

  it('makes a new random token at each start until setup is done', async () => {
    const first = await prepareFirstRun({ db: db(), publicUrl: 'http://pakt.test' });
    const second = await prepareFirstRun({ db: db(), publicUrl: 'http://pakt.test' });
    expect(first).toMatch(/^http:\/\/pakt\.test\/root\?setup=pks_[A-Za-z0-9_-]{43}$/);
    expect(second).not.toBe(first);
    const stored = await db().select().from(systemSettings).where(eq(systemSettings.key, 'setup'));
    expect(JSON.stringify(stored)).not.toContain(new URL(second!).searchParams.get('setup'));
  });
});

describe('POST /msbapi/v1/authenticate', () => {
  it('signs in with the form-encoded email and password, case-insensitively', async () => {
    const { user } = await makeMember(db(), { role: 'custodian' });
    const res = await inject(t.app, authenticate, { body: { username: user.email.toUpperCase(), password: GOOD_PASSWORD } });
    expect(res.statusCode).toBe(200);
    const grant = TokenGrant.parse(res.data);
    expect(grant.expiresIn).toBe(900);
    expect(grant.user.tenants).toEqual([expect.objectContaining({ userRole: 'custodian', userLoginType: 'Email' })]);
  });

  it('gives one answer for an unknown address and a wrong password', async () => {
    const { user } = await makeMember(db());
    const unknown = await inject(t.app, authenticate, { body: { username: 'nobody@example.test', password: 'x' } });
    const wrong = await inject(t.app, authenticate, { body: { username: user.email, password: 'Wrong-password-1' } });
    expect(unknown.statusCode).toBe(401);
    expect(wrong.statusCode).toBe(401);
    expect(unknown.json()).toEqual(wrong.json());
    expect(wrong.code).toBe(-16);
  });

  it('throttles repeated wrong passwords per address and client (-14, progressive), never the owner elsewhere', async () => {
    const { user } = await makeMember(db());
    // Raw: the typed helper cannot set the client's address, which the throttle keys on.
    const attempt = (password: string, remoteAddress = '203.0.113.9') =>
      t.app.inject({ method: 'POST', url: '/msbapi/v1/authenticate', ...form({ username: user.email, password }), remoteAddress });
    for (let i = 0; i < 4; i++) expect((await attempt(`Wrong-${i}-Password`)).json().code).toBe(-16);
    const fifth = await attempt('Wrong-5-Password');
    expect(fifth.statusCode).toBe(403);
    expect(fifth.json()).toMatchObject({ code: -14, data: { retryAfter: 15 * 60 }, message: expect.stringContaining('15 minutes') });
    expect(fifth.headers['retry-after']).toBe('900');
    // From this client, even the right password is not looked at while the lock lasts.
    expect((await attempt(GOOD_PASSWORD)).json().code).toBe(-14);
    expect(await rowCount(sessions)).toBe(0);
    // The owner on another address is not affected, and the account row holds no lock.
    expect((await attempt(GOOD_PASSWORD, '198.51.100.3')).statusCode).toBe(200);
    const [row] = await db().select().from(users).where(eq(users.id, user.id));
    expect(row).toMatchObject({ failedLoginCount: 0, lockedUntil: null });

    // Once the lock has run out, five more wrong ones lock twice as long.
    await db().update(loginThrottles).set({ lockedUntil: new Date(Date.now() - 1000) });
    for (let i = 0; i < 4; i++) expect((await attempt(`Wrong-${i}-Again`)).json().code).toBe(-16);
    expect((await attempt('Wrong-5-Again')).json().data.retryAfter).toBe(30 * 60);
    // The right password after the lock resets the count: the row is gone.
    await db().update(loginThrottles).set({ lockedUntil: new Date(Date.now() - 1000) });
    expect((await attempt(GOOD_PASSWORD)).statusCode).toBe(200);
    expect(await db().select().from(loginThrottles)).toEqual([]);
  });

  it('refuses disabled (-13), invited (-73) and tenant-less users, but only with the right password', async () => {
    const disabled = await makeMember(db(), { user: { disabledAt: new Date() } });
    const reset = await makeMember(db(), { user: { status: 'admininvited' } });
    const orphan = await makeUser(db());
    const attempt = (email: string, password = GOOD_PASSWORD) =>
      inject(t.app, authenticate, { body: { username: email, password } });
    expect((await attempt(disabled.user.email)).code).toBe(-13);
    expect((await attempt(disabled.user.email, 'Wrong-password-9')).code).toBe(-16);
    expect((await attempt(reset.user.email)).code).toBe(-73);
    expect((await attempt(orphan.email)).code).toBe(-13);
    expect(await rowCount(sessions)).toBe(0);
  });

  it('rejects a missing field with -6', async () => {
    // Raw: the contract's type would not let the password be left out.
    const res = await t.app.inject({ method: 'POST', url: '/msbapi/v1/authenticate', ...form({ username: 'a@example.test' }) });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe(-6);
  });
});

describe('sessions', () => {
  it('guards user endpoints: no token 401/-5, garbage 401/-37, unknown 401/-5, expired 401/-27', async () => {
    const { user } = await makeMember(db());
    expect((await inject(t.app, usersValid, {})).code).toBe(-5);
    const garbage = await inject(t.app, usersValid, { headers: { authorization: 'Bearer pka_not-a-real-token' } });
    expect(garbage.statusCode).toBe(401);
    expect(garbage.code).toBe(-37);
    const unknown = await inject(t.app, usersValid, { headers: { authorization: `Bearer pka_${'a'.repeat(43)}` } });
    expect(unknown.statusCode).toBe(401);
    expect(unknown.code).toBe(-5);
    const grant = await signIn(t.app, user.email, GOOD_PASSWORD);
    const valid = await inject(t.app, usersValid, { headers: bearer(grant) });
    expect(valid.data.email).toBe(user.email);
    await db().update(sessions).set({ accessExpiresAt: new Date(Date.now() - 1000) });
    const expired = await inject(t.app, usersValid, { headers: bearer(grant) });
    expect(expired.statusCode).toBe(401);
    expect(expired.code).toBe(-27);
  });

  it('rotates refresh tokens, and a replayed one revokes the whole family', async () => {
    const { user } = await makeMember(db());
    const first = await signIn(t.app, user.email, GOOD_PASSWORD);
    const refresh = (token: string, clientId = 'MSB3') =>
      inject(t.app, refreshToken, { body: { clientId, refreshToken: token } });

    const second = TokenGrant.parse((await refresh(first.refreshToken!)).data);
    expect(second.refreshToken).not.toBe(first.refreshToken);
    // The old access token went with its refresh token; the new one works.
    expect((await inject(t.app, checkSession, { headers: bearer(first) })).code).toBe(-5);
    expect((await inject(t.app, checkSession, { headers: bearer(second) })).data.active).toBe(true);

    const replay = await refresh(first.refreshToken!);
    expect(replay.statusCode).toBe(401);
    expect(replay.code).toBe(-5);
    // The thief's replay also signed out whoever held the current tokens.
    expect((await inject(t.app, checkSession, { headers: bearer(second) })).code).toBe(-5);
    expect((await refresh(second.refreshToken!)).code).toBe(-5);
  });

  it('refuses to refresh an account disabled since sign-in (-13) and ends its session', async () => {
    const { user } = await makeMember(db());
    const grant = await signIn(t.app, user.email, GOOD_PASSWORD);
    await db().update(users).set({ disabledAt: new Date() }).where(eq(users.id, user.id));
    const res = await inject(t.app, refreshToken, { body: { clientId: 'MSB3', refreshToken: grant.refreshToken } });
    expect(res.statusCode).toBe(403);
    expect(res.code).toBe(-13);
    const live = (await db().select().from(sessions)).filter((s) => !s.revokedAt);
    expect(live).toEqual([]);
  });

  it('binds a refresh token to its client (-7)', async () => {
    const { user } = await makeMember(db());
    const grant = await signIn(t.app, user.email, GOOD_PASSWORD);
    const res = await inject(t.app, refreshToken, { body: { clientId: 'other-app', refreshToken: grant.refreshToken } });
    expect(res.statusCode).toBe(401);
    expect(res.code).toBe(-7);
  });

  it('logs out: both tokens stop working', async () => {
    const { user } = await makeMember(db());
    const grant = await signIn(t.app, user.email, GOOD_PASSWORD);
    expect((await inject(t.app, logout, { headers: bearer(grant) })).data).toEqual({ loggedOut: true });
    expect((await inject(t.app, usersValid, { headers: bearer(grant) })).code).toBe(-5);
    const refresh = await inject(t.app, refreshToken, { body: { clientId: 'MSB3', refreshToken: grant.refreshToken } });
    expect(refresh.code).toBe(-5);
  });

  it('stores tokens only as digests and never logs a token or password', async () => {
    const { user } = await makeMember(db());
    const grant = await signIn(t.app, user.email, GOOD_PASSWORD);
    const rotated = (await inject(t.app, refreshToken, { body: { clientId: 'MSB3', refreshToken: grant.refreshToken } })).data;
    await inject(t.app, usersValid, { headers: bearer(rotated) });
    const stored = JSON.stringify(await db().select().from(sessions));
    const logged = t.logs.join('\n');
    expect(t.logs.length).toBeGreaterThan(4);
    for (const secret of [grant.accessToken, grant.refreshToken, rotated.accessToken, rotated.refreshToken, GOOD_PASSWORD]) {
      expect(stored).not.toContain(secret);
      expect(logged).not.toContain(secret);
    }
  });
});

describe('root: tenants and their first admin', () => {
  async function rootGrant() {
    const root = await makeRoot(db());
    return signIn(t.app, root.email, GOOD_PASSWORD);
  }

  it('creates a tenant with an invited admin and an invitation mail in the outbox', async () => {
    const grant = await rootGrant();
    const res = await inject(t.app, createTenant, { body: { tenantName: 'Acme Legal', admin: { email: 'Priya@Acme.test', firstName: 'Priya', lastName: 'Nair' } }, headers: bearer(grant) });
    expect(res.statusCode).toBe(200);
    const { tenant, inviteLink } = res.data;
    expect(tenant).toMatchObject({ tenantName: 'Acme Legal', userCount: 1, admins: [{ email: 'priya@acme.test', status: 'invited' }] });
    expect(inviteLink).toMatch(new RegExp(`^http://localhost:3000/register\\?invite=pki_[A-Za-z0-9_-]+&tenant=${tenant.tenantUuid}$`));
    const [mail] = await db().select().from(outbox);
    expect(mail).toMatchObject({ recipient: 'priya@acme.test', kind: 'invitation', tenantId: tenant.tenantUuid });
    expect(mail!.body).toContain(inviteLink);
    const [invitation] = await db().select().from(invitations);
    expect(JSON.stringify(invitation)).not.toContain(new URL(inviteLink).searchParams.get('invite'));

    const list = await inject(t.app, listTenants, { headers: bearer(grant) });
    expect(list.data.tenants).toHaveLength(1);

    const clash = await inject(t.app, createTenant, { body: { tenantName: 'acme legal', admin: { email: 'x@acme.test', firstName: 'X', lastName: 'Y' } }, headers: bearer(grant) });
    expect(clash.statusCode).toBe(409);
    expect(clash.code).toBe(-87);
    expect(await rowCount(tenants)).toBe(1);
  });

  it.each(['admin', 'custodian', 'signer', 'super_admin'] as const)('refuses a tenant %s with 403 and changes nothing', async (role) => {
    await rootGrant();
    const { user } = await makeMember(db(), { role });
    const grant = await signIn(t.app, user.email, GOOD_PASSWORD);
    const before = [await rowCount(tenants), await rowCount(users), await rowCount(memberships), await rowCount(outbox)];
    const create = await inject(t.app, createTenant, { body: { tenantName: 'Sneaky', admin: { email: 'x@sneaky.test', firstName: 'X', lastName: 'Y' } }, headers: bearer(grant) });
    expect(create.statusCode).toBe(403);
    expect(ErrorEnvelope.parse(create.json()).code).toBe(-11);
    expect((await inject(t.app, listTenants, { headers: bearer(grant) })).statusCode).toBe(403);
    expect([await rowCount(tenants), await rowCount(users), await rowCount(memberships), await rowCount(outbox)]).toEqual(before);
  });

  it('refuses anonymous callers with 401 before looking at the body', async () => {
    // Raw: a body the contract would refuse, to show the guard answers before validation.
    const res = await t.app.inject({ method: 'POST', url: '/msbapi/v1/root/tenants', payload: { nonsense: true } });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe(-5);
  });
});

describe('registering through an invitation', () => {
  async function invite() {
    const root = await makeRoot(db());
    const grant = await signIn(t.app, root.email, GOOD_PASSWORD);
    const res = await inject(t.app, createTenant, { body: { tenantName: `Firm ${Math.random()}`, admin: { email: 'meera@firm.test', firstName: 'Meera', lastName: 'Das' } }, headers: bearer(grant) });
    const link = new URL(res.data.inviteLink);
    return { code: link.searchParams.get('invite')!, tenantUuid: link.searchParams.get('tenant')! };
  }
  const registration = (code: string, tenantUuid: string, overrides: Record<string, unknown> = {}) => ({
    userEmail: 'meera@firm.test',
    firstName: 'Meera',
    lastName: 'Das',
    newPassword: GOOD_PASSWORD,
    confirmPassword: GOOD_PASSWORD,
    inviteCode: code,
    tenantUuid,
    ...overrides,
  });

  it('shows the invitation, then registers, activates the admin and signs them in', async () => {
    const { code, tenantUuid } = await invite();
    const details = await inject(t.app, invitationDetails, { params: { inviteCode: code } });
    expect(details.data).toMatchObject({ email: 'meera@firm.test', tenantUuid, role: 'admin' });

    const res = await inject(t.app, registerUserTenant, { body: registration(code, tenantUuid) });
    expect(res.statusCode).toBe(200);
    const grant = TokenGrant.parse(res.data);
    expect(grant.user.tenants).toEqual([expect.objectContaining({ tenantUuid, userRole: 'admin' })]);
    expect(grant.user.status).toBe('enabled');
    await signIn(t.app, 'meera@firm.test', GOOD_PASSWORD);

    const reuse = await inject(t.app, registerUserTenant, { body: registration(code, tenantUuid) });
    expect(reuse.code).toBe(-81);
  });

  it('refuses mismatched passwords, weak passwords, another address, expired and cancelled invitations', async () => {
    const { code, tenantUuid } = await invite();
    const post = (overrides: Record<string, unknown>) =>
      inject(t.app, registerUserTenant, { body: registration(code, tenantUuid, overrides) });

    const mismatch = await post({ confirmPassword: 'Other-Password-1' });
    expect(mismatch.json()).toMatchObject({ code: -6, issues: [{ path: 'body.confirmPassword', message: 'passwordMissMatch' }] });
    const weak = await post({ newPassword: 'weakpassword', confirmPassword: 'weakpassword' });
    expect(weak.json()).toMatchObject({ code: -16, message: 'passwordInvalid' });
    expect((await post({ userEmail: 'someone@else.test' })).code).toBe(-6);

    await db().update(invitations).set({ expiresAt: new Date(Date.now() - 1000) });
    expect((await post({})).code).toBe(-120);
    await db().update(invitations).set({ status: 'cancelled', expiresAt: new Date(Date.now() + 3600_000) });
    expect((await post({})).code).toBe(-173);
    const [member] = await db().select().from(memberships);
    expect(member!.status).toBe('invited');
  });

  it('answers an unknown invitation code with 404', async () => {
    const res = await inject(t.app, invitationDetails, { params: { inviteCode: 'pki_unknown' } });
    expect(res.statusCode).toBe(404);
    expect(res.code).toBe(-42);
  });

  it('lets a person with an account join another tenant from a signed-in session, never with a password typed here', async () => {
    const other = await makeTenant(db());
    await makeMember(db(), { tenant: other, user: { email: 'meera@firm.test' } });
    const { code, tenantUuid } = await invite();
    // The public registration checks no password of an existing account: one answer, no session.
    for (const password of ['Brand-New-Pass-9', GOOD_PASSWORD]) {
      const refused = await inject(t.app, registerUserTenant, { body: registration(code, tenantUuid, { newPassword: password, confirmPassword: password }) });
      expect([refused.statusCode, refused.code]).toEqual([409, -81]);
    }
    const grant = await signIn(t.app, 'meera@firm.test', GOOD_PASSWORD);
    const joined = await inject(t.app, joinWithInvitation, { body: { inviteCode: code, tenantUuid }, headers: bearer(grant) });
    expect(joined.statusCode, joined.body).toBe(200);
    const after = await inject(t.app, usersValid, { headers: bearer(grant) });
    expect(after.data.tenants).toHaveLength(2);
  });
});
