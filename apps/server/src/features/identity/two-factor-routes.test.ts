import {
  authenticate,
  confirmTotpEnrolment,
  disableTotp,
  ErrorEnvelope,
  generateOtp,
  maskedInfo,
  recoveryCodeStatus,
  regenerateRecoveryCodes,
  startTotpEnrolment,
  TokenGrant,
  TwoFactorChallenge,
  validateOtp,
  verifyOtp,
} from '@pakt/domain';
import { and, eq, isNotNull } from 'drizzle-orm';
import { generate } from 'otplib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { otpChallenges, outbox, sessions, tenants, twoFactorRecoveryCodes, users } from '../../platform/db/schema';
import { GOOD_PASSWORD, makeMember } from '../../test/factories';
import { inject } from '../../test/inject';
import { bearer, signIn } from '../../test/sign-in';
import { buildTestApp, type TestApp } from '../../test/test-app';

let t: TestApp;
beforeEach(async () => {
  t = await buildTestApp({ captureLogs: true });
});
afterEach(() => t.close());
const db = () => t.database.db;

const login = (email: string, password = GOOD_PASSWORD) => inject(t.app, authenticate, { body: { username: email, password } });
const verify = (otpId: string, code: string) => inject(t.app, verifyOtp, { body: { otpId, code } });
const sendCode = (otpId: string, channel?: 'sms') => inject(t.app, generateOtp, { body: { otpId, ...(channel ? { channel } : {}) } });

/**
 * A code from the next 30-second step: the enrolment code's step is spent, and a code is good
 * once, so signing in straight after enrolling needs the app's next code (the tolerance allows it).
 */
const nextCode = (secret: string) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 });

async function enrolledUser() {
  const { user } = await makeMember(db());
  const grant = await signIn(t.app, user.email, GOOD_PASSWORD);
  const start = await inject(t.app, startTotpEnrolment, { body: { password: GOOD_PASSWORD }, headers: bearer(grant) });
  const { secret, otpauthUri } = start.data;
  expect(otpauthUri).toMatch(/^otpauth:\/\/totp\/Pakt:.+\?.*secret=/);
  const confirm = await inject(t.app, confirmTotpEnrolment, { body: { code: await generate({ secret }) }, headers: bearer(grant) });
  expect(confirm.data.user.totpEnabled).toBe(true);
  return { user, secret, grant, recoveryCodes: confirm.data.recoveryCodes };
}

async function challengeFor(email: string) {
  const res = await login(email);
  expect(res.statusCode).toBe(401);
  const body = ErrorEnvelope.parse(res.json());
  expect(body.code).toBe(-200);
  return TwoFactorChallenge.parse(body.data);
}

describe('authenticator-app enrolment', () => {
  it('needs the password to start and a right code to finish', async () => {
    const { user } = await makeMember(db());
    const grant = await signIn(t.app, user.email, GOOD_PASSWORD);
    const wrongPassword = await inject(t.app, startTotpEnrolment, { body: { password: 'Not-It-123' }, headers: bearer(grant) });
    expect(wrongPassword.code).toBe(-1004);
    await inject(t.app, startTotpEnrolment, { body: { password: GOOD_PASSWORD }, headers: bearer(grant) });
    const wrongCode = await inject(t.app, confirmTotpEnrolment, { body: { code: '000000' }, headers: bearer(grant) });
    expect(wrongCode.code).toBe(-138);
    // Not enrolled: sign-in still needs no code.
    await signIn(t.app, user.email, GOOD_PASSWORD);
  });
});

describe('two-factor sign-in with the authenticator app', () => {
  it('answers the password with -200 and an otpId, and the right code with tokens', async () => {
    const { user, secret } = await enrolledUser();
    const sessionsBefore = (await db().select().from(sessions)).length;
    const challenge = await challengeFor(user.email);
    expect(challenge).toMatchObject({ method: 'totp', expiresIn: 600 });
    expect(challenge.maskedEmail).toMatch(/^us\*\*\*@ex\*\*\*\.test$/);
    expect((await db().select().from(sessions)).length).toBe(sessionsBefore);

    const ok = await verify(challenge.otpId, await nextCode(secret));
    expect(ok.statusCode).toBe(200);
    expect(TokenGrant.parse(ok.data).user.email).toBe(user.email);
    // The challenge is spent.
    expect((await verify(challenge.otpId, await nextCode(secret))).code).toBe(-196);
  });

  it('accepts a code once: the enrolment code, or one that finished a sign-in, cannot open another session', async () => {
    const { user, secret } = await enrolledUser();
    const first = await challengeFor(user.email);
    const enrolmentStep = await verify(first.otpId, await generate({ secret }));
    expect(enrolmentStep.json()).toMatchObject({ code: -138, message: expect.stringMatching(/used already/) });

    const code = await nextCode(secret);
    expect((await verify(first.otpId, code)).statusCode).toBe(200);
    const second = await challengeFor(user.email);
    const replay = await verify(second.otpId, code);
    expect(replay.json()).toMatchObject({ code: -138, message: expect.stringMatching(/used already/) });
  });

  it('ends the challenge after five wrong codes (-138 then -217)', async () => {
    const { user, secret } = await enrolledUser();
    const challenge = await challengeFor(user.email);
    for (let i = 0; i < 4; i++) expect((await verify(challenge.otpId, '111111')).code).toBe(-138);
    expect((await verify(challenge.otpId, '111111')).code).toBe(-217);
    expect((await verify(challenge.otpId, await generate({ secret }))).code).toBe(-217);
    // A new sign-in starts a new challenge.
    const next = await challengeFor(user.email);
    expect((await verify(next.otpId, await nextCode(secret))).statusCode).toBe(200);
    // The right code clears the account's count of wrong ones across challenges.
    const [after] = await db().select().from(users).where(eq(users.id, user.id));
    expect(after).toMatchObject({ failedOtpCount: 0, otpLockouts: 0, otpLockedUntil: null });
  });

  it('refuses unknown and expired challenges (-196), and mailing a code for an app challenge (-6)', async () => {
    const { user, secret } = await enrolledUser();
    expect((await verify('00000000-0000-4000-8000-000000000000', '123456')).code).toBe(-196);
    const challenge = await challengeFor(user.email);
    const mail = await sendCode(challenge.otpId);
    expect(mail.code).toBe(-6);
    await db().update(otpChallenges).set({ expiresAt: new Date(Date.now() - 1000) });
    expect((await verify(challenge.otpId, await generate({ secret }))).code).toBe(-196);
  });

  it('can be switched off with the password', async () => {
    const { user, grant } = await enrolledUser();
    const wrong = await inject(t.app, disableTotp, { body: { password: 'Nope-Nope-99' }, headers: bearer(grant) });
    expect(wrong.code).toBe(-1004);
    const off = await inject(t.app, disableTotp, { body: { password: GOOD_PASSWORD }, headers: bearer(grant) });
    expect(off.data.totpEnabled).toBe(false);
    await signIn(t.app, user.email, GOOD_PASSWORD);
  });
});

describe('two-factor sign-in by email code', () => {
  it('mails a code when the tenant requires it, limits resends (-198) and accepts the code', async () => {
    const { user, tenant } = await makeMember(db());
    await db().update(tenants).set({ requireEmailOtp: true }).where(eq(tenants.id, tenant.id));
    const challenge = await challengeFor(user.email);
    expect(challenge.method).toBe('email');
    const sent = await sendCode(challenge.otpId);
    expect(sent.data).toEqual({ channel: 'email', sentTo: challenge.maskedEmail, resendAfter: 30 });
    const again = await sendCode(challenge.otpId);
    expect(again.statusCode).toBe(429);
    expect(again.code).toBe(-198);
    expect(again.data.resendAfter).toBeGreaterThan(0);

    const [mail] = await db().select().from(outbox).where(eq(outbox.kind, 'otp'));
    const code = /\b(\d{6})\b/.exec(mail!.body)![1]!;
    expect(mail!.recipient).toBe(user.email);
    expect(JSON.stringify(await db().select().from(otpChallenges))).not.toContain(code);
    expect((await verify(challenge.otpId, code === '000000' ? '000001' : '000000')).code).toBe(-138);
    expect((await verify(challenge.otpId, code)).statusCode).toBe(200);
    expect(t.logs.join('\n')).not.toContain(code);
  });
});

describe('GET /msbapi/v2/getMaskedInfo', () => {
  it('masks the address and phone', async () => {
    const { user } = await makeMember(db(), { user: { email: 'asha.rao@example.test', phone: '+91 98450 12345' } });
    const grant = await signIn(t.app, user.email, GOOD_PASSWORD);
    const res = await inject(t.app, maskedInfo, { headers: bearer(grant) });
    expect(res.data).toEqual({ email: 'as***@ex***.test', phone: '********2345' });
  });
});

describe('two-factor sign-in by SMS code', () => {
  it('texts the code to the phone on the profile, through the outbox', async () => {
    const { user, tenant } = await makeMember(db(), { user: { phone: '+91 98450 12345' } });
    await db().update(tenants).set({ requireEmailOtp: true }).where(eq(tenants.id, tenant.id));
    const challenge = await challengeFor(user.email);
    expect(challenge).toMatchObject({ method: 'email', maskedPhone: '********2345' });
    const sent = await sendCode(challenge.otpId, 'sms');
    expect(sent.data).toEqual({ channel: 'sms', sentTo: '********2345', resendAfter: 30 });
    const [sms] = await db().select().from(outbox).where(eq(outbox.kind, 'otp'));
    expect(sms).toMatchObject({ channel: 'sms', recipient: '+91 98450 12345', tenantId: null });
    const code = /\b(\d{6})\b/.exec(sms!.body)![1]!;
    expect((await verify(challenge.otpId, code)).statusCode).toBe(200);
    expect(t.logs.join('\n')).not.toContain(code);
  });

  it('refuses SMS for an account without a phone (-6)', async () => {
    const { user, tenant } = await makeMember(db());
    await db().update(tenants).set({ requireEmailOtp: true }).where(eq(tenants.id, tenant.id));
    const challenge = await challengeFor(user.email);
    expect(challenge.maskedPhone).toBeNull();
    const sent = await sendCode(challenge.otpId, 'sms');
    expect(sent.code).toBe(-6);
    expect(await db().select().from(outbox).where(eq(outbox.kind, 'otp'))).toEqual([]);
  });
});

describe('SMS offered only where texts can arrive', () => {
  it.each([
    { env: { SMTP_URL: 'smtp://127.0.0.1:1' }, offered: false },
    { env: { SMTP_URL: 'smtp://127.0.0.1:1', SMS_WEBHOOK_URL: 'http://127.0.0.1:1/sms' }, offered: true },
  ])('with $env', async ({ env, offered }) => {
    await t.close();
    t = await buildTestApp({ env });
    const { user, tenant } = await makeMember(db(), { user: { phone: '+91 98450 12345' } });
    await db().update(tenants).set({ requireEmailOtp: true }).where(eq(tenants.id, tenant.id));
    const challenge = await challengeFor(user.email);
    expect(challenge.maskedPhone).toBe(offered ? '********2345' : null);
    const sent = await sendCode(challenge.otpId, 'sms');
    expect(sent.code).toBe(offered ? 1 : -6);
  });
});

describe('POST /msbapi/v2/auth/otp/validate', () => {
  const validate = (otpId: string) => inject(t.app, validateOtp, { body: { otpId } });

  it('describes an open challenge with the attempts left, and refuses it once spent or unknown (-196)', async () => {
    const { user, secret } = await enrolledUser();
    const challenge = await challengeFor(user.email);
    const open = await validate(challenge.otpId);
    expect(open.data).toMatchObject({ otpId: challenge.otpId, method: 'totp', maskedEmail: challenge.maskedEmail, attemptsLeft: 5 });
    await verify(challenge.otpId, '111111');
    expect((await validate(challenge.otpId)).data.attemptsLeft).toBe(4);
    await verify(challenge.otpId, await nextCode(secret));
    expect((await validate(challenge.otpId)).code).toBe(-196);
    expect((await validate('00000000-0000-4000-8000-000000000000')).code).toBe(-196);
  });

  it('answers -217 once the attempts are used up', async () => {
    const { user } = await enrolledUser();
    const challenge = await challengeFor(user.email);
    for (let i = 0; i < 5; i++) await verify(challenge.otpId, '111111');
    expect((await validate(challenge.otpId)).code).toBe(-217);
  });
});

describe('two-factor recovery codes', () => {
  const recover = (otpId: string, recoveryCode: string) => inject(t.app, verifyOtp, { body: { otpId, recoveryCode } });
  const codesOf = (userId: string) => db().select().from(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, userId));
  const remaining = async (grant: TokenGrant) => (await inject(t.app, recoveryCodeStatus, { headers: bearer(grant) })).data.remaining;
  const mailsOf = (email: string, kind: string) => db().select().from(outbox).where(and(eq(outbox.recipient, email), eq(outbox.kind, kind)));

  it('are ten, answered once at enrolment, and stored only as digests', async () => {
    const { user, grant, recoveryCodes } = await enrolledUser();
    expect(recoveryCodes).toHaveLength(10);
    for (const code of recoveryCodes) expect(code).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}$/);
    expect(new Set(recoveryCodes).size).toBe(10);
    const stored = await codesOf(user.id);
    expect(stored).toHaveLength(10);
    const table = JSON.stringify(stored);
    for (const code of recoveryCodes) {
      expect(table).not.toContain(code);
      expect(table).not.toContain(code.replace('-', ''));
    }
    // Only how many are left is told afterwards, never the codes.
    const status = await inject(t.app, recoveryCodeStatus, { headers: bearer(grant) });
    expect(status.data).toEqual({ remaining: 10 });
    expect(t.logs.join('\n')).not.toContain(recoveryCodes[0]!.replace('-', ''));
  });

  it('finish a sign-in in place of an app code, once: the code never works again, and the person is mailed', async () => {
    const { user, recoveryCodes, grant } = await enrolledUser();
    const [code] = recoveryCodes as [string];
    const sessionsBefore = (await db().select().from(sessions)).length;
    const challenge = await challengeFor(user.email);
    // Typed as people do: capitals, no hyphen, spaces around.
    const ok = await recover(challenge.otpId, `  ${code.replace('-', '').toUpperCase()} `);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(TokenGrant.parse(ok.data).user.email).toBe(user.email);
    expect((await db().select().from(sessions)).length).toBe(sessionsBefore + 1);
    expect(await db().select().from(twoFactorRecoveryCodes).where(and(eq(twoFactorRecoveryCodes.userId, user.id), isNotNull(twoFactorRecoveryCodes.usedAt)))).toHaveLength(1);
    expect(await remaining(grant)).toBe(9);

    const [mail] = await mailsOf(user.email, 'recovery-code-used');
    expect(mail!.body).toMatch(/recovery codes/);
    expect(mail!.body).toContain('9 of your recovery codes are left');
    expect(mail!.body).not.toContain(code);
    expect(t.logs.join('\n')).toContain('signed in with a two-factor recovery code');
    expect(t.logs.join('\n')).not.toContain(code.replace('-', ''));

    // The challenge is spent, and the code is spent on a new one too.
    expect((await recover(challenge.otpId, code)).code).toBe(-196);
    const again = await challengeFor(user.email);
    const replay = await recover(again.otpId, code);
    expect(replay.json()).toMatchObject({ code: -138, message: expect.stringMatching(/not correct, or was used already/) });
    expect((await db().select().from(sessions)).length).toBe(sessionsBefore + 1);
    // Another of the codes still works.
    expect((await recover(again.otpId, recoveryCodes[1]!)).statusCode).toBe(200);
  });

  it('open one session only when two sign-ins race with the same code', async () => {
    const { user, recoveryCodes } = await enrolledUser();
    const first = await challengeFor(user.email);
    const second = await challengeFor(user.email);
    const sessionsBefore = (await db().select().from(sessions)).length;
    const answers = await Promise.all([recover(first.otpId, recoveryCodes[0]!), recover(second.otpId, recoveryCodes[0]!)]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 400]);
    expect(answers.map((a) => a.code).sort()).toEqual([-138, 1]);
    expect((await db().select().from(sessions)).length).toBe(sessionsBefore + 1);
    expect(await mailsOf(user.email, 'recovery-code-used')).toHaveLength(1);
  });

  it('count wrong ones as wrong codes: the challenge ends after five, and the second factor locks after ten', async () => {
    const { user, secret, recoveryCodes } = await enrolledUser();
    const challenge = await challengeFor(user.email);
    for (let i = 0; i < 4; i++) expect((await recover(challenge.otpId, 'aaaaa-aaaaa')).code).toBe(-138);
    expect((await recover(challenge.otpId, 'aaaaa-aaaaa')).code).toBe(-217);
    // Even a right code gets nowhere on an ended challenge.
    expect((await recover(challenge.otpId, recoveryCodes[0]!)).code).toBe(-217);
    const [counted] = await db().select().from(users).where(eq(users.id, user.id));
    expect(counted!.failedOtpCount).toBe(5);

    // Wrong app codes and wrong recovery codes share one budget across sign-ins.
    const next = await challengeFor(user.email);
    for (let i = 0; i < 4; i++) expect((await verify(next.otpId, '111111')).code).toBe(-138);
    const locked = await recover(next.otpId, 'bbbbb-bbbbb');
    expect(locked.code).toBe(-14);
    // Locked: neither a right recovery code nor a right app code gets through, and no code was spent.
    const [lockedRow] = await db().select().from(users).where(eq(users.id, user.id));
    expect(lockedRow!.otpLockedUntil!.getTime()).toBeGreaterThan(Date.now());
    expect((await login(user.email)).json().code).toBe(-14);
    await db().update(otpChallenges).set({ attempts: 0 }).where(eq(otpChallenges.id, next.otpId));
    expect((await recover(next.otpId, recoveryCodes[0]!)).code).toBe(-14);
    expect((await verify(next.otpId, await nextCode(secret))).code).toBe(-14);
    expect(await db().select().from(twoFactorRecoveryCodes).where(and(eq(twoFactorRecoveryCodes.userId, user.id), isNotNull(twoFactorRecoveryCodes.usedAt)))).toEqual([]);
  });

  it('are refused for a mailed-code sign-in, and the body must name exactly one kind of code (-6)', async () => {
    const { user, tenant } = await makeMember(db());
    await db().update(tenants).set({ requireEmailOtp: true }).where(eq(tenants.id, tenant.id));
    const challenge = await challengeFor(user.email);
    expect((await recover(challenge.otpId, 'aaaaa-aaaaa')).code).toBe(-6);
    const both = await t.app.inject({ method: 'POST', url: verifyOtp.path, payload: { otpId: challenge.otpId, code: '123456', recoveryCode: 'aaaaa-aaaaa' } });
    expect(both.json().code).toBe(-6);
    const neither = await t.app.inject({ method: 'POST', url: verifyOtp.path, payload: { otpId: challenge.otpId } });
    expect(neither.json().code).toBe(-6);
    expect((await recover(challenge.otpId, 'not a code!')).code).toBe(-6);
    const [row] = await db().select().from(otpChallenges).where(eq(otpChallenges.id, challenge.otpId));
    expect(row!.attempts).toBe(0);
  });

  it('are made anew with the password: the old ones stop working and the new ones work', async () => {
    const { user, grant, recoveryCodes } = await enrolledUser();
    const digestsBefore = JSON.stringify(await codesOf(user.id));
    const wrong = await inject(t.app, regenerateRecoveryCodes, { body: { password: 'Not-It-123' }, headers: bearer(grant) });
    expect(wrong.code).toBe(-1004);
    expect(JSON.stringify(await codesOf(user.id))).toBe(digestsBefore);

    const fresh = await inject(t.app, regenerateRecoveryCodes, { body: { password: GOOD_PASSWORD }, headers: bearer(grant) });
    expect(fresh.statusCode).toBe(200);
    expect(fresh.data.recoveryCodes).toHaveLength(10);
    expect(fresh.data.recoveryCodes.filter((code) => recoveryCodes.includes(code))).toEqual([]);
    expect(await codesOf(user.id)).toHaveLength(10);
    expect(await remaining(grant)).toBe(10);
    expect(await mailsOf(user.email, 'recovery-codes-replaced')).toHaveLength(1);

    const challenge = await challengeFor(user.email);
    expect((await recover(challenge.otpId, recoveryCodes[0]!)).code).toBe(-138);
    expect((await recover(challenge.otpId, fresh.data.recoveryCodes[0]!)).statusCode).toBe(200);
  });

  it('cannot be made without authenticator sign-in (-6), and go when it is switched off', async () => {
    const { user: plain } = await makeMember(db());
    const plainGrant = await signIn(t.app, plain.email, GOOD_PASSWORD);
    expect((await inject(t.app, regenerateRecoveryCodes, { body: { password: GOOD_PASSWORD }, headers: bearer(plainGrant) })).code).toBe(-6);
    expect(await codesOf(plain.id)).toEqual([]);

    const { user, grant } = await enrolledUser();
    expect(await codesOf(user.id)).toHaveLength(10);
    const off = await inject(t.app, disableTotp, { body: { password: GOOD_PASSWORD }, headers: bearer(grant) });
    expect(off.statusCode).toBe(200);
    expect(await codesOf(user.id)).toEqual([]);
    expect(await remaining(grant)).toBe(0);
  });
});
