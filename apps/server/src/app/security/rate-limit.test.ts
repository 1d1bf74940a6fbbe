import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hashPassword } from '../../features/auth/secrets';
import { GOOD_PASSWORD, makeMember, makeTenant } from '../../test/factories';
import { buildTestApp, type TestApp } from '../../test/test-app';

/**
 * Issue 17, item 4, end to end on an install with two tenants and the shipped limits: 60
 * parallel sign-in attempts from one address against 60 different accounts (a password spray,
 * which no per-account lockout sees) all got 401 before. Now at most the sign-in budget of one
 * address is checked, and the rest are refused with 429 and the wait, before any password is
 * looked at. The accounts' owners, elsewhere, still sign in.
 */
let t: TestApp;
beforeEach(async () => {
  // undefined: the shipped default (20 a minute), not the test apps' high limits.
  t = await buildTestApp({ env: { RATE_LIMIT_SIGN_IN_PER_MINUTE: undefined } });
});
afterEach(() => t.close());

const ATTACKER = '203.0.113.7';
const OWNER = '198.51.100.20';

const authenticate = (email: string, password: string, remoteAddress: string) =>
  t.app.inject({
    method: 'POST',
    url: '/msbapi/v1/authenticate',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ username: email, password }).toString(),
    remoteAddress,
  });

describe('issue 17 item 4: sign-in is rate-limited per client address', () => {
  it('lets at most the limit of 60 parallel sign-ins against different accounts be checked; the rest get 429 with Retry-After', { timeout: 120_000 }, async () => {
    expect(t.context.config.rateLimits.signInPerMinute).toBe(20);
    const db = t.database.db;
    const [tenantA, tenantB] = [await makeTenant(db), await makeTenant(db)];
    // One hash for all: the accounts differ, the cost of making them need not.
    const passwordHash = await hashPassword(GOOD_PASSWORD);
    const victims = [];
    for (let i = 0; i < 60; i++) {
      victims.push((await makeMember(db, { tenant: i % 2 === 0 ? tenantA : tenantB, role: i < 2 ? 'admin' : 'signer', user: { password: null, passwordHash } })).user);
    }

    const answers = await Promise.all(victims.map((victim, i) => authenticate(victim.email, `Guess-${i}-Password`, ATTACKER)));
    const checked = answers.filter((res) => res.statusCode !== 429);
    const refused = answers.filter((res) => res.statusCode === 429);
    expect(checked.length).toBeLessThanOrEqual(20);
    for (const res of checked) expect(res.statusCode).toBe(401);
    expect(refused.length).toBe(60 - checked.length);
    for (const res of refused) {
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(60);
      expect(res.json()).toMatchObject({ code: -1, data: { retryAfter: Number(res.headers['retry-after']) } });
    }

    // Even the right password is not checked from that address until the window ends...
    expect((await authenticate(victims[0]!.email, GOOD_PASSWORD, ATTACKER)).statusCode).toBe(429);
    // ...while the owner, from their own address, signs in.
    expect((await authenticate(victims[0]!.email, GOOD_PASSWORD, OWNER)).statusCode).toBe(200);
  });
});
