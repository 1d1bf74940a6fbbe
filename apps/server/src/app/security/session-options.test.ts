import { type TokenGrant, WEB_CLIENT_ID } from '@pakt/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memberships } from '../../platform/db/schema';
import { GOOD_PASSWORD, makeMember, makeTenant } from '../../test/factories';
import { buildTestApp, type TestApp } from '../../test/test-app';

/**
 * Issue 17 item 9, end to end through the HTTP API on an install with two tenants: tenant A asks
 * for one session per person and for sessions tied to their address, tenant B asks for neither.
 * A second sign-in ends the first session (-32, on its calls and on its refresh); a token from
 * another address is refused (-26) and still works from its own; a malformed bearer is -37. A
 * person only in B is untouched by A's rules.
 */
let t: TestApp;
const HOME = '198.51.100.7';
const ELSEWHERE = '203.0.113.9';

async function signInFrom(email: string, remoteAddress: string): Promise<TokenGrant> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/msbapi/v1/authenticate',
    remoteAddress,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ username: email, password: GOOD_PASSWORD }).toString(),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as TokenGrant;
}

const whoAmI = (authorization: string, remoteAddress = HOME) =>
  t.app.inject({ method: 'GET', url: '/msbapi/v1/users/valid', remoteAddress, headers: { authorization } });
const bearerOf = (grant: TokenGrant) => `Bearer ${grant.accessToken}`;

const refresh = (grant: TokenGrant, remoteAddress = HOME) =>
  t.app.inject({
    method: 'POST',
    url: '/msbapi/public/token/refresh',
    remoteAddress,
    payload: { clientId: WEB_CLIENT_ID, refreshToken: grant.refreshToken! },
  });

function expectRefusal(res: { statusCode: number; json: () => { code: number } }, code: number) {
  expect(res.statusCode).toBe(401);
  expect(res.json().code).toBe(code);
}

let tenantA: { id: string };
let tenantB: { id: string };
beforeAll(async () => {
  t = await buildTestApp();
  tenantA = await makeTenant(t.database.db);
  tenantB = await makeTenant(t.database.db);
  // A's super admin switches both rules on through the settings screen's endpoint.
  const superA = await makeMember(t.database.db, { role: 'super_admin', tenant: tenantA });
  const grant = await signInFrom(superA.user.email, HOME);
  const saved = await t.app.inject({
    method: 'PUT',
    url: '/msbapi/v2/settings',
    remoteAddress: HOME,
    headers: { authorization: bearerOf(grant), 'x-tenant-id': tenantA.id },
    payload: { settings: { singleSession: true, bindSessionToAddress: true } },
  });
  expect(saved.statusCode, saved.body).toBe(200);
});
afterAll(() => t.close());

describe('session options of tenant A, on an install with tenant B', () => {
  it('leave a person who is only in tenant B alone: two sessions, from any address', async () => {
    const { user } = await makeMember(t.database.db, { tenant: tenantB });
    const first = await signInFrom(user.email, HOME);
    const second = await signInFrom(user.email, ELSEWHERE);
    expect((await whoAmI(bearerOf(first), ELSEWHERE)).statusCode).toBe(200);
    expect((await whoAmI(bearerOf(second), HOME)).statusCode).toBe(200);
    expect((await refresh(first, ELSEWHERE)).statusCode).toBe(200);
  });

  it('end the first session of a member of A when they sign in again: -32 on its calls and on its refresh', async () => {
    const { user } = await makeMember(t.database.db, { tenant: tenantA });
    const first = await signInFrom(user.email, HOME);
    expect((await whoAmI(bearerOf(first))).statusCode).toBe(200);
    const second = await signInFrom(user.email, HOME);

    expectRefusal(await whoAmI(bearerOf(first)), -32);
    expectRefusal(await refresh(first), -32);
    // Asking again changes nothing: the later session is the one that lives.
    expectRefusal(await refresh(first), -32);
    expect((await whoAmI(bearerOf(second))).statusCode).toBe(200);
    const renewed = await refresh(second);
    expect(renewed.statusCode).toBe(200);
    expect((await whoAmI(`Bearer ${renewed.json().data.accessToken}`)).statusCode).toBe(200);
  });

  it('apply to someone in both tenants (the strictest wins), but not through a mere invitation to A', async () => {
    const both = await makeMember(t.database.db, { tenant: tenantB });
    await t.database.db.insert(memberships).values({ tenantId: tenantA.id, userId: both.user.id, role: 'signer', status: 'active' });
    const first = await signInFrom(both.user.email, HOME);
    await signInFrom(both.user.email, HOME);
    expectRefusal(await whoAmI(bearerOf(first)), -32);

    const invited = await makeMember(t.database.db, { tenant: tenantB });
    await t.database.db.insert(memberships).values({ tenantId: tenantA.id, userId: invited.user.id, role: 'signer', status: 'invited' });
    const kept = await signInFrom(invited.user.email, HOME);
    await signInFrom(invited.user.email, ELSEWHERE);
    expect((await whoAmI(bearerOf(kept), ELSEWHERE)).statusCode).toBe(200);
  });

  it('refuse a token of a member of A from another address (-26), on calls and refresh, and keep it working from its own', async () => {
    const { user } = await makeMember(t.database.db, { tenant: tenantA });
    const grant = await signInFrom(user.email, HOME);
    expectRefusal(await whoAmI(bearerOf(grant), ELSEWHERE), -26);
    expect((await whoAmI(bearerOf(grant), HOME)).statusCode).toBe(200);
    expectRefusal(await refresh(grant, ELSEWHERE), -26);
    // The refusal did not spend the refresh token: its owner still renews it, and the binding stays.
    const renewed = await refresh(grant, HOME);
    expect(renewed.statusCode, renewed.body).toBe(200);
    const next = renewed.json().data as TokenGrant;
    expectRefusal(await whoAmI(bearerOf(next), ELSEWHERE), -26);
    expectRefusal(await refresh(next, ELSEWHERE), -26);
    expect((await whoAmI(bearerOf(next), HOME)).statusCode).toBe(200);
  });

  it('answer a malformed bearer header -37, an unknown well-formed token -5, and no header -5', async () => {
    const { user } = await makeMember(t.database.db, { tenant: tenantA });
    const grant = await signInFrom(user.email, HOME);
    const malformed = [
      'Bearer not-a-token',
      `Basic ${grant.accessToken}`,
      `bearer${grant.accessToken}`,
      `Bearer ${grant.accessToken}x`,
      `Bearer ${grant.accessToken.slice(0, -1)}!`,
      `Bearer ${grant.refreshToken!}`,
      `Bearer ${grant.accessToken} ${grant.accessToken}`,
    ];
    for (const authorization of malformed) {
      const res = await whoAmI(authorization);
      expect(res.statusCode, authorization).toBe(401);
      expect(res.json().code, authorization).toBe(-37);
    }
    expectRefusal(await whoAmI(`Bearer pka_${'A'.repeat(43)}`), -5);
    expectRefusal(await t.app.inject({ method: 'GET', url: '/msbapi/v1/users/valid', remoteAddress: HOME }), -5);
    // The real token, well formed, still works.
    expect((await whoAmI(bearerOf(grant))).statusCode).toBe(200);
  });
});
