import { randomInt } from 'node:crypto';
import { DomainError, invalidInput, ResponseCode, type SecondFactorMethod, type TwoFactorChallenge } from '@pakt/domain';
import { and, eq, gte, isNull, lt, or, sql } from 'drizzle-orm';
import { generateSecret as generateTotpSecret, generateURI, verify as verifyTotp } from 'otplib';
import type { Db } from '../../platform/db/database';
import { memberships, otpChallenges, tenants, users } from '../../platform/db/schema';
import { queueEmail, queueSms } from '../../platform/mail/outbox';
import { lockedFor, progressiveLockEnd, secondsUntil } from './login-throttle';
import { loadStrictestPasswordConfig } from './password-config';
import { countUnusedRecoveryCodes, deleteRecoveryCodes, replaceRecoveryCodes, spendRecoveryCode } from './recovery-codes';
import { digestSecret, secretsEqual, verifyPassword } from './secrets';

export const CHALLENGE_MINUTES = 10;
export const MAX_OTP_ATTEMPTS = 5;
export const OTP_RESEND_SECONDS = 30;
/**
 * Wrong codes in a row, across challenges, before the second factor locks. Twice a challenge's
 * tries, so someone who mistypes through one challenge can sign in again and try once more (what
 * the app tells them), yet guessing across sign-ins stops soon: a code has only a million values,
 * three of them accepted at a time. A fixed number rather than the tenant's maxFailedAttempts,
 * which may be as high as 100 (meant for passwords) or as low as a challenge's own five.
 */
export const MAX_OTP_FAILURES = 2 * MAX_OTP_ATTEMPTS;
/** One step either side, for phones whose clocks drift. */
const TOTP_TOLERANCE_SECONDS = 30;

type UserRow = typeof users.$inferSelect;

/** Last four digits only, enough to recognise one's own phone. */
export function maskPhone(phone: string | null): string | null {
  if (!phone) return null;
  const digits = phone.replace(/\D/g, '');
  return `${'*'.repeat(Math.max(0, digits.length - 4))}${digits.slice(-4)}`;
}

export function maskEmail(email: string): string {
  const [local = '', domain = ''] = email.split('@');
  const dot = domain.lastIndexOf('.');
  const host = dot > 0 ? domain.slice(0, dot) : domain;
  const tld = dot > 0 ? domain.slice(dot) : '';
  return `${local.slice(0, 2)}***@${host.slice(0, 2)}***${tld}`;
}

/** Which second factor sign-in needs: the authenticator app once enrolled, else email when a tenant requires it. */
export async function secondFactorFor(db: Db, user: UserRow): Promise<SecondFactorMethod | undefined> {
  if (user.totpEnabledAt && user.totpSecret) return 'totp';
  const [required] = await db
    .select({ id: tenants.id })
    .from(memberships)
    .innerJoin(tenants, eq(tenants.id, memberships.tenantId))
    .where(and(eq(memberships.userId, user.id), eq(memberships.status, 'active'), eq(tenants.requireEmailOtp, true)))
    .limit(1);
  return required ? 'email' : undefined;
}

/** Password accepted, second factor pending: answered as -200 with what /authenticate needs. */
/**
 * The phone a code challenge may text, masked: only when the person has one and texts can reach
 * it (an SMS relay is configured, or nothing is delivered at all and admins relay the outbox).
 */
function textablePhone(user: UserRow, method: SecondFactorMethod, smsAvailable: boolean): string | null {
  return method === 'email' && smsAvailable ? maskPhone(user.phone) : null;
}

const secondFactorLocked = (until: Date, now: Date) =>
  lockedFor(secondsUntil(until, now), 'Too many wrong codes: signing in with this account is paused.');

/**
 * While the second factor is locked nothing opens a fresh challenge or checks a code, not even a
 * right one: otherwise every sign-in would bring new tries. Only the password holder gets here.
 */
function assertSecondFactorOpen(user: UserRow, now = new Date()) {
  if (user.otpLockedUntil && user.otpLockedUntil > now) throw secondFactorLocked(user.otpLockedUntil, now);
}

export async function openChallenge(options: {
  db: Db;
  user: UserRow;
  method: SecondFactorMethod;
  clientId: string;
  smsAvailable: boolean;
}): Promise<never> {
  assertSecondFactorOpen(options.user);
  const [challenge] = await options.db
    .insert(otpChallenges)
    .values({
      userId: options.user.id,
      method: options.method,
      clientId: options.clientId,
      expiresAt: new Date(Date.now() + CHALLENGE_MINUTES * 60_000),
    })
    .returning();
  const data: TwoFactorChallenge = {
    otpId: challenge!.id,
    method: options.method,
    maskedEmail: maskEmail(options.user.email),
    maskedPhone: textablePhone(options.user, options.method, options.smsAvailable),
    expiresIn: CHALLENGE_MINUTES * 60,
  };
  throw new DomainError(ResponseCode.TWO_FACTOR_REQUIRED, 'Enter the code to finish signing in.', { data });
}

/**
 * Challenges that confirm an in-person signer's identity (epaks/in-person.ts) carry a client id
 * with this prefix. They are never a way to sign in: the host who started one knows its otpId,
 * and must not be able to trade the signer's code for a session of the signer's own.
 */
export const IN_PERSON_CHALLENGE_PREFIX = 'inperson:';

/** What to do after a refused code: sign in again, or, in person, ask for a new code. */
const AGAIN = { signIn: 'sign in again', inPerson: 'send a new code' } as const;
const againFor = (inPerson: boolean | undefined) => (inPerson ? AGAIN.inPerson : AGAIN.signIn);
const expiredFor = (inPerson: boolean | undefined) => (inPerson ? 'This code has expired or was used' : 'This sign-in has expired');

export async function loadLiveChallenge(db: Db, otpId: string, options: { inPerson?: boolean } = {}) {
  const [row] = await db
    .select({ challenge: otpChallenges, user: users })
    .from(otpChallenges)
    .innerJoin(users, eq(users.id, otpChallenges.userId))
    .where(eq(otpChallenges.id, otpId));
  const inPerson = row?.challenge.clientId.startsWith(IN_PERSON_CHALLENGE_PREFIX) ?? false;
  if (!row || inPerson !== (options.inPerson ?? false) || row.challenge.consumedAt || row.challenge.expiresAt.getTime() <= Date.now()) {
    throw new DomainError(ResponseCode.INVALID_OTP_ID, `${expiredFor(options.inPerson)}: ${againFor(options.inPerson)}.`);
  }
  if (row.challenge.attempts >= MAX_OTP_ATTEMPTS) {
    throw new DomainError(ResponseCode.MAXIMUM_OTP_ATTEMPTS, `Too many wrong codes: ${againFor(options.inPerson)}.`);
  }
  return row;
}

/** What /authenticate needs after a reload: is the challenge still open, and how is it answered (-196, -217). */
export async function describeChallenge(options: { db: Db; otpId: string; smsAvailable: boolean }) {
  const { challenge, user } = await loadLiveChallenge(options.db, options.otpId);
  return {
    otpId: challenge.id,
    method: challenge.method,
    maskedEmail: maskEmail(user.email),
    maskedPhone: textablePhone(user, challenge.method, options.smsAvailable),
    expiresIn: Math.max(1, Math.floor((challenge.expiresAt.getTime() - Date.now()) / 1000)),
    attemptsLeft: MAX_OTP_ATTEMPTS - challenge.attempts,
  };
}

/**
 * Sends a fresh code for a one-time-code challenge, by mail or, when the person has a phone on
 * their profile, by SMS; at most once every 30 seconds (-198). Either way it goes through the
 * outbox, where administrators can read it.
 */
export async function sendChallengeCode(options: { db: Db; otpId: string; channel: 'email' | 'sms'; smsAvailable: boolean }) {
  const { db } = options;
  const { challenge, user } = await loadLiveChallenge(db, options.otpId);
  assertSecondFactorOpen(user);
  if (challenge.method !== 'email') {
    throw invalidInput('This sign-in uses your authenticator app, not a sent code.');
  }
  if (options.channel === 'sms' && !textablePhone(user, challenge.method, options.smsAvailable)) {
    throw invalidInput(
      user.phone ? 'Text messages are not set up on this install: have the code mailed instead.' : 'There is no phone number on this account: have the code mailed instead.',
    );
  }
  const waited = challenge.sentAt ? (Date.now() - challenge.sentAt.getTime()) / 1000 : Infinity;
  if (waited < OTP_RESEND_SECONDS) {
    const resendAfter = Math.ceil(OTP_RESEND_SECONDS - waited);
    throw new DomainError(ResponseCode.OTP_RETRY_TIMEOUT, `Wait ${resendAfter} seconds before asking for another code.`, { data: { resendAfter } });
  }
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  await db.transaction(async (tx) => {
    await tx.update(otpChallenges).set({ codeHash: digestSecret(`${challenge.id}:${code}`), sentAt: new Date() }).where(eq(otpChallenges.id, challenge.id));
    if (options.channel === 'sms') {
      await queueSms({
        db: tx,
        tenantId: null,
        to: user.phone!,
        body: `Pakt sign-in code: ${code}. Valid ${CHALLENGE_MINUTES} min. Not you? Change your password.`,
        kind: 'otp',
      });
    } else {
      await queueEmail({
        db: tx,
        tenantId: null,
        to: user.email,
        subject: 'Your Pakt sign-in code',
        body: `Your sign-in code is ${code}. It works for ${CHALLENGE_MINUTES} minutes. If you did not try to sign in, change your password.`,
        kind: 'otp',
      });
    }
  });
  return {
    channel: options.channel,
    sentTo: options.channel === 'sms' ? maskPhone(user.phone)! : maskEmail(user.email),
    resendAfter: OTP_RESEND_SECONDS,
  };
}

/**
 * An authenticator code is good once: its 30-second step must be later than the last one
 * accepted, and recording it is conditional, so two sign-ins racing with one code cannot both win.
 */
async function acceptAuthenticatorCode(db: Db, user: UserRow, code: string): Promise<'accepted' | 'wrong' | 'reused'> {
  if (!user.totpSecret) return 'wrong';
  const result = await verifyTotp({ secret: user.totpSecret, token: code, epochTolerance: TOTP_TOLERANCE_SECONDS });
  if (!result.valid || !('timeStep' in result)) return 'wrong';
  const recorded = await db
    .update(users)
    .set({ totpLastStep: result.timeStep })
    .where(and(eq(users.id, user.id), or(isNull(users.totpLastStep), lt(users.totpLastStep, result.timeStep))))
    .returning({ id: users.id });
  return recorded.length > 0 ? 'accepted' : 'reused';
}

/** How long the lock lasts follows the person's strictest tenant, as for passwords (15 minutes by default). */
async function secondFactorLimits(db: Db, userId: string) {
  const rules = await loadStrictestPasswordConfig(db, userId);
  return { maxFailures: MAX_OTP_FAILURES, lockoutMinutes: rules.lockoutMinutes };
}

type Limits = Awaited<ReturnType<typeof secondFactorLimits>>;

const notLockedAt = (now: Date) => sql`coalesce(${users.otpLockedUntil} <= ${now.toISOString()}::timestamptz, true)`;

async function throwIfSecondFactorLocked(db: Db, userId: string, now: Date) {
  const [row] = await db.select().from(users).where(eq(users.id, userId));
  if (row) assertSecondFactorOpen(row, now);
}

/**
 * Takes one try from the account's budget before the code is checked, in one statement, so
 * concurrent guesses cannot all pass a count read beforehand. A try beyond the budget (only
 * when racing) starts the lock itself. Answers how many tries in a row this one makes.
 */
async function claimCodeAttempt(db: Db, userId: string, limits: Limits, now: Date): Promise<number> {
  const over = sql`${users.failedOtpCount} + 1 > ${limits.maxFailures}`;
  const [row] = await db
    .update(users)
    .set({
      failedOtpCount: sql`case when ${over} then 0 else ${users.failedOtpCount} + 1 end`,
      otpLockouts: sql`case when ${over} then ${users.otpLockouts} + 1 else ${users.otpLockouts} end`,
      otpLockedUntil: sql`case when ${over} then ${progressiveLockEnd(now, users.otpLockouts, limits.lockoutMinutes)} else ${users.otpLockedUntil} end`,
    })
    .where(and(eq(users.id, userId), notLockedAt(now)))
    .returning({ failures: users.failedOtpCount });
  await throwIfSecondFactorLocked(db, userId, now);
  return row?.failures ?? limits.maxFailures;
}

/** A wrong code used up the budget: the second factor locks, each time twice as long as the last. */
async function recordWrongCode(db: Db, userId: string, failures: number, limits: Limits, now: Date) {
  if (failures < limits.maxFailures) return;
  // Conditional, so a racing try that already started the lock does not start a second one.
  await db
    .update(users)
    .set({
      failedOtpCount: 0,
      otpLockouts: sql`${users.otpLockouts} + 1`,
      otpLockedUntil: progressiveLockEnd(now, users.otpLockouts, limits.lockoutMinutes),
    })
    .where(and(eq(users.id, userId), gte(users.failedOtpCount, limits.maxFailures), notLockedAt(now)));
  await throwIfSecondFactorLocked(db, userId, now);
}

type Challenge = typeof otpChallenges.$inferSelect;
const tooManyCodes = (inPerson: boolean | undefined) => new DomainError(ResponseCode.MAXIMUM_OTP_ATTEMPTS, `Too many wrong codes: ${againFor(inPerson)}.`);

/**
 * Takes one try from the challenge and one from the account before a code is checked: a burst of
 * guesses gets no more tries than a sequence.
 */
async function claimTries(db: Db, challenge: Challenge, user: UserRow, inPerson: boolean | undefined, now: Date) {
  const limits = await secondFactorLimits(db, user.id);
  const [claimed] = await db
    .update(otpChallenges)
    .set({ attempts: sql`${otpChallenges.attempts} + 1` })
    .where(and(eq(otpChallenges.id, challenge.id), lt(otpChallenges.attempts, MAX_OTP_ATTEMPTS)))
    .returning({ attempts: otpChallenges.attempts });
  if (!claimed) throw tooManyCodes(inPerson);
  const failures = await claimCodeAttempt(db, user.id, limits, now);
  return { attempts: claimed.attempts, failures, limits };
}

/** A wrong code: it counts towards the lock, and the challenge's fifth ends it (-217), else -138. */
async function refuseWrongCode(db: Db, userId: string, tries: Awaited<ReturnType<typeof claimTries>>, inPerson: boolean | undefined, now: Date, message: string): Promise<never> {
  await recordWrongCode(db, userId, tries.failures, tries.limits, now);
  if (tries.attempts >= MAX_OTP_ATTEMPTS) throw tooManyCodes(inPerson);
  throw new DomainError(ResponseCode.WRONG_OTP, message);
}

/** Consumed under a condition: the same code cannot finish two sign-ins. */
async function consumeChallenge(db: Db, challengeId: string, inPerson: boolean | undefined) {
  const consumed = await db
    .update(otpChallenges)
    .set({ consumedAt: new Date() })
    .where(and(eq(otpChallenges.id, challengeId), sql`${otpChallenges.consumedAt} is null`))
    .returning({ id: otpChallenges.id });
  if (consumed.length === 0) throw new DomainError(ResponseCode.INVALID_OTP_ID, `${expiredFor(inPerson)}: ${againFor(inPerson)}.`);
}

/** A right code: the person is who they say, and starts afresh. */
async function clearCodeFailures(db: Db, userId: string) {
  await db.update(users).set({ failedOtpCount: 0, otpLockouts: 0, otpLockedUntil: null }).where(eq(users.id, userId));
}

/**
 * Checks a code. Wrong ones count twice: per challenge (the fifth ends it, -217) and per account
 * across challenges (users.failedOtpCount), since each sign-in opens a fresh challenge and would
 * otherwise bring five new tries. Past the account's budget the second factor locks (-14) for
 * lockoutMinutes, doubling with each further lockout, until a right code resets it. In-person
 * codes count too: they are the same person's codes. Returns the signed-in user.
 */
export async function verifyChallenge(options: { db: Db; otpId: string; code: string; inPerson?: boolean }): Promise<{ user: UserRow; clientId: string }> {
  const { db } = options;
  const now = new Date();
  const { challenge, user } = await loadLiveChallenge(db, options.otpId, { inPerson: options.inPerson ?? false });
  assertSecondFactorOpen(user, now);
  const tries = await claimTries(db, challenge, user, options.inPerson, now);
  const outcome =
    challenge.method === 'totp'
      ? await acceptAuthenticatorCode(db, user, options.code)
      : challenge.codeHash && secretsEqual(challenge.codeHash, digestSecret(`${challenge.id}:${options.code}`))
        ? 'accepted'
        : 'wrong';
  if (outcome !== 'accepted') {
    await refuseWrongCode(
      db,
      user.id,
      tries,
      options.inPerson,
      now,
      outcome === 'reused' ? 'This code was used already: wait for the next one from the app.' : 'The code is not correct.',
    );
  }
  await consumeChallenge(db, challenge.id, options.inPerson);
  await clearCodeFailures(db, user.id);
  return { user, clientId: challenge.clientId };
}

/**
 * Finishes an authenticator sign-in with a recovery code instead of a code from the app (a lost
 * phone). A wrong one counts like a wrong code, towards the same lock. A right one is spent, the
 * challenge consumed, the person mailed and the session opened (`openSession`) in one
 * transaction: if anything fails the code stays unused, and two sign-ins racing with one code
 * cannot both open a session (spendRecoveryCode is conditional). Never for in-person challenges:
 * those confirm a signer, and recovery codes are for signing in.
 */
export async function verifyRecoveryCode<T>(options: {
  db: Db;
  otpId: string;
  recoveryCode: string;
  openSession: (tx: Db, user: UserRow, clientId: string) => Promise<T>;
}): Promise<{ opened: T; user: UserRow; remaining: number }> {
  const { db } = options;
  const now = new Date();
  const { challenge, user } = await loadLiveChallenge(db, options.otpId);
  assertSecondFactorOpen(user, now);
  if (challenge.method !== 'totp') throw invalidInput('Recovery codes finish authenticator sign-ins: enter the code that was sent to you.');
  const tries = await claimTries(db, challenge, user, false, now);
  const done = await db.transaction(async (tx) => {
    if (!(await spendRecoveryCode(tx, user.id, options.recoveryCode, now))) return null;
    await consumeChallenge(tx, challenge.id, false);
    await clearCodeFailures(tx, user.id);
    const remaining = await countUnusedRecoveryCodes(tx, user.id);
    await queueEmail({
      db: tx,
      tenantId: null,
      to: user.email,
      subject: 'A recovery code was used to sign in to Pakt',
      body:
        `Someone signed in to your Pakt account at ${now.toISOString()} (UTC) with one of your two-factor recovery codes instead of a code from your authenticator app. ` +
        `That code no longer works; ${remaining} of your recovery codes are left (make new ones on your profile). ` +
        'If this was not you, change your password at once and tell your administrator.',
      kind: 'recovery-code-used',
    });
    return { opened: await options.openSession(tx, user, challenge.clientId), remaining };
  });
  if (!done) return refuseWrongCode(db, user.id, tries, false, now, 'The recovery code is not correct, or was used already.');
  return { ...done, user };
}

export async function startEnrolment(options: { db: Db; user: UserRow; password: string; issuer: string }) {
  if (!(await verifyPassword(options.user.passwordHash, options.password))) {
    throw new DomainError(ResponseCode.WRONG_PASSWORD, 'The password is not correct.');
  }
  const secret = generateTotpSecret();
  await options.db.update(users).set({ totpPendingSecret: secret }).where(eq(users.id, options.user.id));
  return { secret, otpauthUri: generateURI({ issuer: options.issuer, label: options.user.email, secret }) };
}

export async function confirmEnrolment(options: { db: Db; user: UserRow; code: string }) {
  const secret = options.user.totpPendingSecret;
  if (!secret) throw invalidInput('Start the enrolment first.');
  const result = await verifyTotp({ secret, token: options.code, epochTolerance: TOTP_TOLERANCE_SECONDS });
  if (!result.valid || !('timeStep' in result)) {
    throw new DomainError(ResponseCode.WRONG_OTP, 'The code is not correct: check the time on your phone.');
  }
  return options.db.transaction(async (tx) => {
    const [updated] = await tx
      .update(users)
      // The enrolment code counts as used: it cannot also finish a sign-in.
      .set({ totpSecret: secret, totpPendingSecret: null, totpEnabledAt: new Date(), totpLastStep: result.timeStep })
      .where(eq(users.id, options.user.id))
      .returning();
    // Made with the secret they stand in for, and answered this once (the caller shows them).
    return { user: updated!, recoveryCodes: await replaceRecoveryCodes(tx, options.user.id) };
  });
}

/**
 * Ten new recovery codes for someone who signs in with an authenticator app, answered once; the
 * earlier ones stop working. Asks for the password, as switching two-factor off does: whoever
 * holds a session alone must not mint a way past the second factor.
 */
export async function regenerateRecoveryCodes(options: { db: Db; user: UserRow; password: string }) {
  if (!(await verifyPassword(options.user.passwordHash, options.password))) {
    throw new DomainError(ResponseCode.WRONG_PASSWORD, 'The password is not correct.');
  }
  if (!options.user.totpEnabledAt || !options.user.totpSecret) {
    throw invalidInput('Recovery codes come with authenticator sign-in: switch it on first.');
  }
  return options.db.transaction(async (tx) => {
    const recoveryCodes = await replaceRecoveryCodes(tx, options.user.id);
    await queueEmail({
      db: tx,
      tenantId: null,
      to: options.user.email,
      subject: 'New two-factor recovery codes for Pakt',
      body: 'New recovery codes were made for your Pakt account; the earlier ones no longer work. If this was not you, change your password at once and tell your administrator.',
      kind: 'recovery-codes-replaced',
    });
    return { recoveryCodes };
  });
}

export function countRecoveryCodesLeft(db: Db, user: UserRow): Promise<number> {
  return countUnusedRecoveryCodes(db, user.id);
}

export async function disableSecondFactor(options: { db: Db; user: UserRow; password: string }) {
  if (!(await verifyPassword(options.user.passwordHash, options.password))) {
    throw new DomainError(ResponseCode.WRONG_PASSWORD, 'The password is not correct.');
  }
  return options.db.transaction((tx) => switchOffAuthenticator(tx, options.user.id));
}

/**
 * Sign-in stops asking for authenticator codes: the secret (and any enrolment under way) and the
 * recovery codes, which stand in for the authenticator, go together. Run it in the transaction of
 * the change (the owner's, with their password, or an administrator's reset).
 */
export async function switchOffAuthenticator(db: Db, userId: string): Promise<UserRow> {
  const [updated] = await db
    .update(users)
    .set({ totpSecret: null, totpPendingSecret: null, totpEnabledAt: null, totpLastStep: null })
    .where(eq(users.id, userId))
    .returning();
  await deleteRecoveryCodes(db, userId);
  return updated!;
}
