import { ErrorEnvelope, TwoFactorChallenge } from '@pakt/domain';
import { count, eq } from 'drizzle-orm';
import { generate, generateSecret } from 'otplib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { memberships, otpChallenges, outbox, sessions, tenants, users } from '../../platform/db/schema';
import { GOOD_PASSWORD, makeMember, makeRoot } from '../../test/factories';
import { buildTestApp, type TestApp } from '../../test/test-app';

/**
 * Issue 17, items 5 and 6, end to end on an install with two tenants: a stranger cannot lock
 * anyone out (root included), sign-in and sign-up reveal nothing about which addresses have
 * accounts, and the password holder cannot guess the second factor across sign-ins.
 */
let t: TestApp;
beforeEach(async () => {
  t = await buildTestApp();
});
afterEach(() => t.close());
const db = () => t.database.db;

const STRANGER = '203.0.113.7';
const OWNER = '198.51.100.20';

const authenticate = (email: string, password: string, remoteAddress = STRANGER) =>
  t.app.inject({
    method: 'POST',
    url: '/msbapi/v1/authenticate',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ username: email, password }).toString(),
    remoteAddress,
  });
const verifyOtp = (otpId: string, code: string) =>
  t.app.inject({ method: 'POST', url: '/msbapi/v2/authentication/otp/verify', payload: { otpId, code }, remoteAddress: OWNER });
/**
 * Everything a client sees of an answer: status, the envelope and the wait it is told. The wait
 * counts down with the clock, and the two locks began a request apart, so its seconds are
 * compared for presence only.
 */
const answerOf = (res: Awaited<ReturnType<typeof authenticate>>) => ({
  status: res.statusCode,
  body: res.body.replace(/"retryAfter":\d+/, '"retryAfter":N'),
  retryAfter: res.headers['retry-after'] === undefined ? undefined : 'N',
});

async function twoTenants() {
  const a = await makeMember(db(), { role: 'admin' });
  const b = await makeMember(db(), { role: 'admin' });
  const root = await makeRoot(db());
  return { a, b, root };
}

describe('a stranger guessing passwords', () => {
  it('locks only their own client out: the owners, root included, still sign in from elsewhere', async () => {
    const { b, root } = await twoTenants();
    for (const victim of [b.user.email, root.email]) {
      const codes = new Set<number>();
      for (let i = 0; i < 50; i++) codes.add((await authenticate(victim, `Wrong-guess-${i}`)).json().code);
      expect(codes).toEqual(new Set([-16, -14]));
      // Locked from this client, the right password is not even looked at.
      const right = await authenticate(victim, GOOD_PASSWORD);
      expect(right.json().code).toBe(-14);
      expect(right.json().data.retryAfter).toBeGreaterThan(0);
      expect(right.headers['retry-after']).toBe(String(right.json().data.retryAfter));
      // The owner, on another address, is not affected.
      expect((await authenticate(victim, GOOD_PASSWORD, OWNER)).statusCode).toBe(200);
    }
    expect(await db().select({ n: count() }).from(sessions)).toEqual([{ n: 2 }]);
  });

  it('gets the same answers for an existing and a non-existing address, through the lockout', async () => {
    const { b } = await twoTenants();
    for (let i = 0; i < 12; i++) {
      const known = await authenticate(b.user.email, `Wrong-guess-${i}`);
      const unknown = await authenticate('nobody-here@example.test', `Wrong-guess-${i}`);
      expect(answerOf(unknown)).toEqual(answerOf(known));
    }
    // Both are locked now: the owner's right password from this client answers the same too.
    const known = await authenticate(b.user.email, GOOD_PASSWORD);
    const unknown = await authenticate('nobody-here@example.test', GOOD_PASSWORD);
    expect(known.json().code).toBe(-14);
    expect(answerOf(unknown)).toEqual(answerOf(known));
  });
});

describe('the password holder guessing the second factor', () => {
  /** A code the authenticator app would not show in the tolerated window (previous, current, next step). */
  async function wrongCode(secret: string, i: number) {
    const now = Math.floor(Date.now() / 1000);
    const window = await Promise.all([-30, 0, 30].map((shift) => generate({ secret, epoch: now + shift })));
    let code = String(i % 1_000_000).padStart(6, '0');
    while (window.includes(code)) code = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    return code;
  }

  it('locks the second factor after repeated wrong codes across sign-ins, against new sign-ins and right codes too', async () => {
    const { b } = await twoTenants();
    const secret = generateSecret();
    await db().update(users).set({ totpSecret: secret, totpEnabledAt: new Date() }).where(eq(users.id, b.user.id));

    const answers: number[] = [];
    let lastOtpId: string | undefined;
    for (let guesses = 0; guesses < 50; ) {
      const login = await authenticate(b.user.email, GOOD_PASSWORD, OWNER);
      const envelope = ErrorEnvelope.parse(login.json());
      if (envelope.code !== -200) {
        answers.push(envelope.code);
        guesses++;
        continue;
      }
      const { otpId } = TwoFactorChallenge.parse(envelope.data);
      lastOtpId = otpId;
      for (let i = 0; i < 5 && guesses < 50; i++, guesses++) {
        const code = (await verifyOtp(otpId, await wrongCode(secret, guesses))).json().code;
        answers.push(code);
        if (code !== -138) break;
      }
    }
    // Two challenges' worth of wrong codes (each challenge ends after five, -217), then the lock
    // (-14), and from then on every sign-in with the right password answers -14 too.
    const wrong = -138;
    expect(answers.slice(0, 10)).toEqual([wrong, wrong, wrong, wrong, -217, wrong, wrong, wrong, wrong, -14]);
    expect(new Set(answers.slice(10))).toEqual(new Set([-14]));

    // Locked: the right password opens no fresh challenge, and a right code is refused too.
    const challengesBefore = await db().select({ n: count() }).from(otpChallenges);
    const again = await authenticate(b.user.email, GOOD_PASSWORD, OWNER);
    expect(again.json().code).toBe(-14);
    expect(again.json().data.retryAfter).toBeGreaterThan(0);
    expect(await db().select({ n: count() }).from(otpChallenges)).toEqual(challengesBefore);
    await db().update(otpChallenges).set({ attempts: 0 }).where(eq(otpChallenges.id, lastOtpId!));
    const right = await verifyOtp(lastOtpId!, await generate({ secret }));
    expect(right.json().code).toBe(-14);
    expect(await db().select({ n: count() }).from(sessions)).toEqual([{ n: 0 }]);
  });
});

describe('sign-up with an address that has an account', () => {
  it('answers exactly as a new sign-up, creates nothing, and tells the owner by mail', async () => {
    const { b } = await twoTenants();
    const form = (email: string, orgName: string) => ({
      email,
      firstName: 'Mallory',
      lastName: 'Prober',
      orgName,
      newPassword: GOOD_PASSWORD,
      confirmPassword: GOOD_PASSWORD,
    });
    const fresh = await t.app.inject({ method: 'POST', url: '/msbapi/v1/user/signup', payload: form('brand-new@example.test', 'Fresh Co'), remoteAddress: STRANGER });
    const usersBefore = await db().select({ n: count() }).from(users);
    const tenantsBefore = await db().select({ n: count() }).from(tenants);
    const probe = await t.app.inject({ method: 'POST', url: '/msbapi/v1/user/signup', payload: form(b.user.email, 'Probe Co'), remoteAddress: STRANGER });

    expect(probe.statusCode).toBe(fresh.statusCode);
    expect(probe.body.replace(b.user.email, 'ADDRESS')).toBe(fresh.body.replace('brand-new@example.test', 'ADDRESS'));
    expect(await db().select({ n: count() }).from(users)).toEqual(usersBefore);
    expect(await db().select({ n: count() }).from(tenants)).toEqual(tenantsBefore);
    expect(await db().select().from(memberships).where(eq(memberships.userId, b.user.id))).toHaveLength(1);

    const [mail] = await db().select().from(outbox).where(eq(outbox.recipient, b.user.email));
    expect(mail).toMatchObject({ kind: 'signup-existing', tenantId: null });
    expect(mail!.body).toMatch(/sign in|reset/i);
    expect(mail!.body).not.toMatch(/pk[a-z]_/);
    // The owner's password still signs in; the prober's form changed nothing.
    expect((await authenticate(b.user.email, GOOD_PASSWORD, OWNER)).statusCode).toBe(200);
  });
});
