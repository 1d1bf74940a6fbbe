import { authenticate, forgotPassword, publicAlive, setupStatus, verifyOtp } from '@pakt/domain';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../app/app';
import { rateLimitCounters } from '../platform/db/schema';
import { GOOD_PASSWORD, makeMember } from '../test/factories';
import { buildTestApp, type TestApp } from '../test/test-app';
import { purgeRateLimitCounters, rateLimitGroupOf } from './rate-limit';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** A clock the test moves: the window ends without waiting for it. */
function testClock() {
  let now = Date.parse('2030-01-01T00:00:00Z');
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

const signIn = (app: TestApp['app'], from: string, email: string, password = 'Wrong-Password-1') =>
  app.inject({
    method: 'POST',
    url: '/msbapi/v1/authenticate',
    remoteAddress: from,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ username: email, password }).toString(),
  });

describe('rate limits per client address', { timeout: 90_000 }, () => {
  it('puts the credential checks in the strict group, other public calls in the loose one, signed-in calls and files in none', () => {
    expect(rateLimitGroupOf(authenticate.method, authenticate.path)).toBe('sign-in');
    expect(rateLimitGroupOf(verifyOtp.method, verifyOtp.path)).toBe('sign-in');
    expect(rateLimitGroupOf(forgotPassword.method, forgotPassword.path)).toBe('sign-in');
    expect(rateLimitGroupOf(publicAlive.method, publicAlive.path)).toBe('public');
    expect(rateLimitGroupOf('HEAD', setupStatus.path)).toBe('public');
    expect(rateLimitGroupOf('GET', '/msbapi/v2/inbox')).toBeUndefined();
    expect(rateLimitGroupOf('GET', '/assets/*')).toBeUndefined();
  });

  it('answers the 21st sign-in from one address in a minute with 429 and Retry-After, while another address still gets through', { timeout: 120_000 }, async () => {
    const clock = testClock();
    t = await buildTestApp({ env: { RATE_LIMIT_SIGN_IN_PER_MINUTE: '20' }, now: clock.now });
    const { user } = await makeMember(t.database.db);
    for (let i = 0; i < 20; i++) {
      // Different accounts each time, as a password sprayer would: no lockout of one account helps.
      const res = await signIn(t.app, '203.0.113.7', `person${i}@example.com`);
      expect(res.statusCode).toBe(401);
      expect(res.headers['x-ratelimit-remaining']).toBe(String(19 - i));
    }
    clock.advance(15_000);
    const refused = await signIn(t.app, '203.0.113.7', user.email, GOOD_PASSWORD);
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe('45');
    expect(refused.json()).toEqual({ code: -1, message: 'Too many requests: try again in 45 seconds.', data: { retryAfter: 45 } });

    // Another client is not held back, and the right password still works for it.
    expect((await signIn(t.app, '198.51.100.9', user.email, GOOD_PASSWORD)).statusCode).toBe(200);
  });

  it('starts a fresh window once the last one has ended', async () => {
    const clock = testClock();
    t = await buildTestApp({ env: { RATE_LIMIT_SIGN_IN_PER_MINUTE: '2' }, now: clock.now });
    const { user } = await makeMember(t.database.db);
    await signIn(t.app, '203.0.113.7', user.email);
    await signIn(t.app, '203.0.113.7', user.email);
    expect((await signIn(t.app, '203.0.113.7', user.email)).statusCode).toBe(429);
    clock.advance(59_999);
    expect((await signIn(t.app, '203.0.113.7', user.email)).headers['retry-after']).toBe('1');
    clock.advance(1);
    expect((await signIn(t.app, '203.0.113.7', user.email, GOOD_PASSWORD)).statusCode).toBe(200);

    // The sweep removes counters whose window has ended, and only those.
    clock.advance(60_000);
    await t.app.inject({ method: 'GET', url: '/msbapi/public/alive', remoteAddress: '203.0.113.8' });
    expect(await purgeRateLimitCounters({ executor: t.database, now: new Date(clock.now()) })).toBe(1);
    expect((await t.database.db.select().from(rateLimitCounters)).map((row) => row.key)).toEqual(['public|203.0.113.8']);
  });

  it('keeps separate budgets: spending the sign-in one leaves the public calls open', async () => {
    t = await buildTestApp({ env: { RATE_LIMIT_SIGN_IN_PER_MINUTE: '1', RATE_LIMIT_PUBLIC_PER_MINUTE: '3' } });
    await signIn(t.app, '203.0.113.7', 'nobody@example.com');
    expect((await signIn(t.app, '203.0.113.7', 'nobody@example.com')).statusCode).toBe(429);
    const alive = () => t!.app.inject({ method: 'GET', url: '/msbapi/public/alive', remoteAddress: '203.0.113.7' });
    for (let i = 0; i < 3; i++) expect((await alive()).statusCode).toBe(200);
    const refused = await alive();
    expect(refused.statusCode).toBe(429);
    expect(refused.json().code).toBe(-1);
  });

  it('refuses before reading the body or checking a token', async () => {
    t = await buildTestApp({ env: { RATE_LIMIT_SIGN_IN_PER_MINUTE: '1' } });
    await signIn(t.app, '203.0.113.7', 'nobody@example.com');
    // A malformed body would be 400 if it were read; the limit answers first.
    const res = await t.app.inject({ method: 'POST', url: '/msbapi/v2/authentication/otp/verify', remoteAddress: '203.0.113.7', headers: { 'content-type': 'application/json' }, payload: '{not json' });
    expect(res.statusCode).toBe(429);
  });

  it('does not limit signed-in calls', async () => {
    t = await buildTestApp({ env: { RATE_LIMIT_SIGN_IN_PER_MINUTE: '1', RATE_LIMIT_PUBLIC_PER_MINUTE: '1' } });
    for (let i = 0; i < 3; i++) {
      const res = await t.app.inject({ method: 'POST', url: '/msbapi/v1/checksession', remoteAddress: '203.0.113.7' });
      expect(res.statusCode).toBe(401);
      expect(res.headers['x-ratelimit-limit']).toBeUndefined();
    }
  });

  it('limits nothing when set to 0', async () => {
    t = await buildTestApp({ env: { RATE_LIMIT_SIGN_IN_PER_MINUTE: '0' } });
    // (Not 429; what the sign-in itself answers is the account throttling's business.)
    for (let i = 0; i < 5; i++) expect((await signIn(t.app, '203.0.113.7', `nobody${i}@example.com`)).statusCode).not.toBe(429);
    expect(await t.database.db.select().from(rateLimitCounters)).toEqual([]);
  });

  it('shares one budget between two app instances on one database', async () => {
    t = await buildTestApp({ env: { RATE_LIMIT_SIGN_IN_PER_MINUTE: '4' } });
    // A second server on the same database (what a second process is to the counters).
    const other = await buildApp({ context: t.context, logger: false });
    try {
      for (const [i, app] of [t.app, other, t.app, other].entries()) expect((await signIn(app, '203.0.113.7', `nobody${i}@example.com`)).statusCode).toBe(401);
      expect((await signIn(other, '203.0.113.7', 'nobody@example.com')).statusCode).toBe(429);
      expect((await signIn(t.app, '203.0.113.7', 'nobody@example.com')).statusCode).toBe(429);
    } finally {
      await other.close();
    }
  });
});
