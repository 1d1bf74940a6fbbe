import {
  authenticate,
  checkSession,
  exchangeToken,
  refreshToken,
  stopSessionTimer,
  tenantConfiguration,
  TokenGrant,
  uisAuthCode,
  userType,
  WEB_CLIENT_ID,
} from '@pakt/domain';
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { memberships, oneTimeTokens, sessions, users } from '../../platform/db/schema';
import { GOOD_PASSWORD, makeMember, makeTenant } from '../../test/factories';
import { inject } from '../../test/inject';
import { bearer, signIn } from '../../test/sign-in';
import { buildTestApp, type TestApp } from '../../test/test-app';

let t: TestApp;
beforeEach(async () => {
  t = await buildTestApp({ captureLogs: true });
});
afterEach(() => t.close());
const db = () => t.database.db;

const passwordSignIn = (email: string) => inject(t.app, authenticate, { body: { username: email, password: GOOD_PASSWORD } });
const sessionCheck = (grant: TokenGrant) => inject(t.app, checkSession, { headers: bearer(grant) });

describe('POST /msbapi/v1/logout/stoptimer', () => {
  it('ends the session when the user-session timer runs out, refresh token included', async () => {
    const { user } = await makeMember(db());
    const grant = await signIn(t.app, user.email, GOOD_PASSWORD);
    const res = await inject(t.app, stopSessionTimer, { headers: bearer(grant) });
    expect(res.json()).toMatchObject({ code: 1, data: { loggedOut: true } });
    expect((await sessionCheck(grant)).statusCode).toBe(401);
    const refresh = await inject(t.app, refreshToken, { body: { clientId: WEB_CLIENT_ID, refreshToken: grant.refreshToken } });
    expect(refresh.code).toBe(-5);
    expect(t.logs.join('\n')).toContain('session ended by the user-session timer');
  });
});

describe('uisauthcode and public/token/exchange', () => {
  const exchange = (code: string, clientId = 'PAKT_MOBILE') => inject(t.app, exchangeToken, { body: { code, clientId } });

  it('hands the session to another client once, as a session of its own', async () => {
    const { user } = await makeMember(db());
    const grant = await signIn(t.app, user.email, GOOD_PASSWORD);
    const issued = await inject(t.app, uisAuthCode, { query: { clientId: 'PAKT_MOBILE' }, headers: bearer(grant) });
    const { code, expiresIn } = issued.data;
    expect(code).toMatch(/^pku_/);
    expect(expiresIn).toBe(60);
    // Stored only as a digest.
    expect(JSON.stringify(await db().select().from(oneTimeTokens))).not.toContain(code);

    const traded = await exchange(code);
    expect(traded.statusCode).toBe(200);
    const second = TokenGrant.parse(traded.data);
    expect(second.user.id).toBe(user.id);
    expect(second.accessToken).not.toBe(grant.accessToken);
    // Both sessions live independently; the new one is bound to the new client.
    expect((await sessionCheck(grant)).statusCode).toBe(200);
    expect((await sessionCheck(second)).statusCode).toBe(200);
    const [row] = await db().select().from(sessions).where(eq(sessions.clientId, 'PAKT_MOBILE'));
    expect(row!.familyId).not.toBe((await db().select().from(sessions).where(eq(sessions.clientId, WEB_CLIENT_ID)))[0]!.familyId);

    const again = await exchange(code);
    expect(again.statusCode).toBe(401);
    expect(again.code).toBe(-45);
    expect(t.logs.join('\n')).not.toContain(code);
  });

  it('refuses unknown and expired codes (-45), another client (-7), and a disabled account (-13)', async () => {
    const { user } = await makeMember(db());
    const grant = await signIn(t.app, user.email, GOOD_PASSWORD);
    const codeFor = async () => (await inject(t.app, uisAuthCode, { query: { clientId: 'PAKT_MOBILE' }, headers: bearer(grant) })).data.code;
    expect((await exchange('pku_nothing')).code).toBe(-45);

    const expired = await codeFor();
    await db().update(oneTimeTokens).set({ expiresAt: new Date(Date.now() - 1000) });
    expect((await exchange(expired)).code).toBe(-45);

    expect((await exchange(await codeFor(), 'SOMEONE_ELSE')).code).toBe(-7);

    const disabled = await codeFor();
    await db().update(users).set({ disabledAt: new Date() }).where(eq(users.id, user.id));
    expect((await exchange(disabled)).code).toBe(-13);
  });

  it('needs a signed-in caller to issue a code', async () => {
    const res = await inject(t.app, uisAuthCode, {});
    expect(res.statusCode).toBe(401);
    expect(await db().select().from(oneTimeTokens)).toEqual([]);
  });
});

describe('GET /msbapi/public/usertype', () => {
  const loginTypeOf = (email: string) => inject(t.app, userType, { query: { email } });

  it('says SSO for single-sign-on members and Email otherwise, unknown addresses included', async () => {
    const { user: sso, tenant } = await makeMember(db());
    await db().update(memberships).set({ loginType: 'SSO' }).where(eq(memberships.userId, sso.id));
    const { user: password } = await makeMember(db(), { tenant });
    expect((await loginTypeOf(sso.email.toUpperCase())).data).toEqual({ userLoginType: 'SSO' });
    expect((await loginTypeOf(password.email)).data).toEqual({ userLoginType: 'Email' });
    expect((await loginTypeOf('nobody@example.test')).data).toEqual({ userLoginType: 'Email' });
    expect((await loginTypeOf('not an address')).code).toBe(-6);
  });
});

describe('temporary access (-15)', () => {
  it('leaves an expired membership out, refuses its tenant with -15, and refuses sign-in when nothing else is left', async () => {
    const past = new Date(Date.now() - 60_000);
    const { user, tenant: ended } = await makeMember(db(), { expiresAt: new Date(Date.now() + 3_600_000) });
    const other = await makeTenant(db());
    await db().insert(memberships).values({ tenantId: other.id, userId: user.id, role: 'signer', status: 'active' });

    const grant = await signIn(t.app, user.email, GOOD_PASSWORD);
    expect(grant.user.tenants.map((x) => x.tenantUuid).sort()).toEqual([ended.id, other.id].sort());
    expect(grant.user.tenants.find((x) => x.tenantUuid === ended.id)!.expiresAt).not.toBeNull();

    await db().update(memberships).set({ expiresAt: past }).where(eq(memberships.tenantId, ended.id));
    const refused = await inject(t.app, tenantConfiguration, { headers: { ...bearer(grant), 'x-tenant-id': ended.id } });
    expect(refused.statusCode).toBe(403);
    expect(refused.code).toBe(-15);
    const again = await signIn(t.app, user.email, GOOD_PASSWORD);
    expect(again.user.tenants.map((x) => x.tenantUuid)).toEqual([other.id]);

    await db().delete(memberships).where(eq(memberships.tenantId, other.id));
    const last = await passwordSignIn(user.email);
    expect(last.statusCode).toBe(403);
    expect(last.code).toBe(-15);
  });
});
