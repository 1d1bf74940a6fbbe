import {
  authenticate,
  changePassword,
  defineEndpoint,
  DEFAULT_PASSWORD_CONFIG,
  type EndpointInput,
  forgotPassword,
  PasswordConfig,
  passwordConfiguration,
  resetPassword,
  usersValid,
  userTenants,
} from '@pakt/domain';
import { count, eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { outbox, passwordConfigs, passwordResets, sessions, users } from '../../platform/db/schema';
import { route } from '../../http/route';
import { GOOD_PASSWORD, makeMember, makeTenant } from '../../test/factories';
import { inject } from '../../test/inject';
import { bearer, signIn } from '../../test/sign-in';
import { buildTestApp, type TestApp } from '../../test/test-app';

const NEW_PASSWORD = 'Brand-New-Pass-77';

// Any tenant endpoint: a session due a password change must not reach it.
const tenantPing = defineEndpoint({
  method: 'GET',
  path: '/msbapi/test/tenant/ping',
  access: 'tenant',
  summary: 'test',
  response: z.object({ ok: z.literal(true) }),
});

let t: TestApp;
beforeEach(async () => {
  t = await buildTestApp({
    captureLogs: true,
    beforeReady(app, context) {
      route(app, context, tenantPing, async () => ({ ok: true as const }));
    },
  });
});
afterEach(() => t.close());
const db = () => t.database.db;

const change = (grant: { accessToken: string }, body: EndpointInput<typeof changePassword>['body']) => inject(t.app, changePassword, { body, headers: bearer(grant) });
const valid = (grant: { accessToken: string }) => inject(t.app, usersValid, { headers: bearer(grant) });

describe('changing one\'s password', () => {
  it('needs the current password (-17), matching confirmation and acceptable rules (-16)', async () => {
    const { user } = await makeMember(db());
    const grant = await signIn(t.app, user.email, GOOD_PASSWORD);
    const wrongOld = await change(grant, { oldPassword: 'Nope-Nope-123', newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD });
    expect(wrongOld.code).toBe(-17);
    const mismatch = await change(grant, { oldPassword: GOOD_PASSWORD, newPassword: NEW_PASSWORD, confirmPassword: 'x' });
    expect(mismatch.json().issues[0]).toEqual({ path: 'body.confirmPassword', message: 'passwordMissMatch' });
    const weak = await change(grant, { oldPassword: GOOD_PASSWORD, newPassword: 'abc', confirmPassword: 'abc' });
    expect(weak.json()).toMatchObject({ code: -16, message: 'passwordInvalid' });
    const reused = await change(grant, { oldPassword: GOOD_PASSWORD, newPassword: GOOD_PASSWORD, confirmPassword: GOOD_PASSWORD });
    expect(reused.json().issues).toEqual([{ path: 'newPassword', message: 'history' }]);
    const [unchanged] = await db().select().from(users).where(eq(users.id, user.id));
    expect(unchanged!.passwordHash).toBe(user.passwordHash);
  });

  it('changes it, keeps this session and ends the others', async () => {
    const { user } = await makeMember(db());
    const here = await signIn(t.app, user.email, GOOD_PASSWORD);
    const elsewhere = await signIn(t.app, user.email, GOOD_PASSWORD);
    const res = await change(here, { oldPassword: GOOD_PASSWORD, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD });
    expect(res.statusCode).toBe(200);
    expect((await valid(here)).statusCode).toBe(200);
    expect((await valid(elsewhere)).code).toBe(-5);
    await signIn(t.app, user.email, NEW_PASSWORD);
  });

  it('applies the strictest rules of the user\'s tenants', async () => {
    const strict = await makeTenant(db());
    await db().insert(passwordConfigs).values({ tenantId: strict.id, config: { ...DEFAULT_PASSWORD_CONFIG, minLength: 20, requireSpecial: true } });
    const { user } = await makeMember(db(), { tenant: strict });
    const grant = await signIn(t.app, user.email, GOOD_PASSWORD);
    const res = await change(grant, { oldPassword: GOOD_PASSWORD, newPassword: 'Abcdefghij123', confirmPassword: 'Abcdefghij123' });
    expect(res.json().issues.map((i: { message: string }) => i.message)).toEqual(['minLength', 'special']);
    const config = await inject(t.app, passwordConfiguration, { params: { tenantUuid: strict.id } });
    expect(PasswordConfig.parse(config.data)).toMatchObject({ minLength: 20, requireSpecial: true });
    expect((await inject(t.app, passwordConfiguration, { params: { tenantUuid: '00000000-0000-4000-8000-000000000000' } })).statusCode).toBe(404);
  });
});

describe('a session due a password change', () => {
  it.each(['resetpassword', 'expired'] as const)('(%s) signs in, reaches only its own account, and is freed by changing the password', async (status) => {
    const { user, tenant } = await makeMember(db(), { user: { status } });
    const grant = await signIn(t.app, user.email, GOOD_PASSWORD);
    expect(grant.user.status).toBe(status);
    const blocked = await inject(t.app, tenantPing, { headers: { ...bearer(grant), 'x-tenant-id': tenant.id } });
    expect(blocked.statusCode).toBe(403);
    expect(blocked.code).toBe(-73);
    const changed = await change(grant, { oldPassword: GOOD_PASSWORD, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD });
    expect(changed.data.status).toBe('enabled');
    const open = await inject(t.app, tenantPing, { headers: { ...bearer(grant), 'x-tenant-id': tenant.id } });
    expect(open.json()).toEqual({ code: 1, data: { ok: true } });
  });

  it('is what a password older than the tenant\'s expiry becomes at sign-in', async () => {
    const { user, tenant } = await makeMember(db(), { user: { passwordChangedAt: new Date(Date.now() - 40 * 24 * 3600_000) } });
    await db().insert(passwordConfigs).values({ tenantId: tenant.id, config: { ...DEFAULT_PASSWORD_CONFIG, expiryDays: 30 } });
    const grant = await signIn(t.app, user.email, GOOD_PASSWORD);
    expect(grant.user.status).toBe('expired');
  });
});

describe('forgot and reset password', () => {
  const forgot = (email: string) => inject(t.app, forgotPassword, { body: { email } });
  const reset = (token: string, password = NEW_PASSWORD) => inject(t.app, resetPassword, { body: { token, newPassword: password, confirmPassword: password } });
  async function mailedToken() {
    const [mail] = await db().select().from(outbox).where(eq(outbox.kind, 'password-reset'));
    return new URL(/http\S+/.exec(mail!.body)![0]).searchParams.get('token')!;
  }

  it('answers alike for known and unknown addresses, mailing only the known one', async () => {
    const { user } = await makeMember(db());
    const known = await forgot(user.email);
    const unknown = await forgot('nobody@example.test');
    expect(known.json()).toEqual(unknown.json());
    expect(known.json()).toEqual({ code: 1, data: { sent: true } });
    const mails = await db().select().from(outbox);
    expect(mails.map((m) => m.recipient)).toEqual([user.email]);
  });

  it('resets with the mailed link once, lifts the resetting client\'s sign-in lock and ends every session', async () => {
    const { user } = await makeMember(db());
    const session = await signIn(t.app, user.email, GOOD_PASSWORD);
    // The owner forgot the password and guessed until this client was locked out (-14).
    const guess = (password: string) => inject(t.app, authenticate, { body: { username: user.email, password } });
    for (let i = 0; i < DEFAULT_PASSWORD_CONFIG.maxFailedAttempts; i++) await guess(`Forgotten-${i}-Pass`);
    expect((await guess(GOOD_PASSWORD)).code).toBe(-14);
    await forgot(user.email);
    const token = await mailedToken();
    expect(JSON.stringify(await db().select().from(passwordResets))).not.toContain(token);

    expect((await reset(token, 'weak')).code).toBe(-16);
    const ok = await reset(token);
    expect(ok.json()).toEqual({ code: 1, data: { reset: true } });
    expect((await valid(session)).code).toBe(-5);
    await signIn(t.app, user.email, NEW_PASSWORD);
    const again = await reset(token, 'Another-Pass-88');
    expect(again.statusCode).toBe(404);
    expect(again.code).toBe(-42);
    expect(t.logs.join('\n')).not.toContain(token);
  });

  it('refuses an expired link (-120) and stops mailing after the daily limit (-227)', async () => {
    const { user } = await makeMember(db());
    await forgot(user.email);
    const token = await mailedToken();
    await db().update(passwordResets).set({ expiresAt: new Date(Date.now() - 1000) });
    expect((await reset(token)).code).toBe(-120);
    for (let i = 0; i < 4; i++) expect((await forgot(user.email)).statusCode).toBe(200);
    const sixth = await forgot(user.email);
    expect(sixth.statusCode).toBe(429);
    expect(sixth.code).toBe(-227);
    const [mails] = await db().select({ n: count() }).from(outbox);
    expect(mails!.n).toBe(5);
    const [live] = await db().select({ n: count() }).from(sessions);
    expect(live!.n).toBe(0);
  });
});

describe('GET /msbapi/v2/users/:userId/tenants', () => {
  it("lists one's own tenants and answers 404 for anyone else's", async () => {
    const { user, tenant } = await makeMember(db(), { role: 'admin' });
    const other = await makeMember(db());
    const grant = await signIn(t.app, user.email, GOOD_PASSWORD);
    const mine = await inject(t.app, userTenants, { params: { userId: user.id }, headers: bearer(grant) });
    expect(mine.data.tenants).toEqual([expect.objectContaining({ tenantUuid: tenant.id, userRole: 'admin' })]);
    const theirs = await inject(t.app, userTenants, { params: { userId: other.user.id }, headers: bearer(grant) });
    expect(theirs.statusCode).toBe(404);
  });
});
