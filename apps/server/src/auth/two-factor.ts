import { randomInt } from 'node:crypto';
import { DomainError, invalidInput, ResponseCode, type SecondFactorMethod, type TwoFactorChallenge } from '@pakt/domain';
import { and, eq, sql } from 'drizzle-orm';
import { generateSecret as generateTotpSecret, generateURI, verify as verifyTotp } from 'otplib';
import type { Db } from '../db/database';
import { memberships, otpChallenges, tenants, users } from '../db/schema';
import { queueEmail } from '../identity/outbox';
import { digestSecret, secretsEqual, verifyPassword } from './secrets';

export const CHALLENGE_MINUTES = 10;
export const MAX_OTP_ATTEMPTS = 5;
export const OTP_RESEND_SECONDS = 30;
/** One step either side, for phones whose clocks drift. */
const TOTP_TOLERANCE_SECONDS = 30;

type UserRow = typeof users.$inferSelect;

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
export async function openChallenge(options: { db: Db; user: UserRow; method: SecondFactorMethod; clientId: string }): Promise<never> {
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
    expiresIn: CHALLENGE_MINUTES * 60,
  };
  throw new DomainError(ResponseCode.TWO_FACTOR_REQUIRED, 'Enter the code to finish signing in.', { data });
}

async function loadLiveChallenge(db: Db, otpId: string) {
  const [row] = await db
    .select({ challenge: otpChallenges, user: users })
    .from(otpChallenges)
    .innerJoin(users, eq(users.id, otpChallenges.userId))
    .where(eq(otpChallenges.id, otpId));
  if (!row || row.challenge.consumedAt || row.challenge.expiresAt.getTime() <= Date.now()) {
    throw new DomainError(ResponseCode.INVALID_OTP_ID, 'This sign-in has expired: sign in again.');
  }
  if (row.challenge.attempts >= MAX_OTP_ATTEMPTS) {
    throw new DomainError(ResponseCode.MAXIMUM_OTP_ATTEMPTS, 'Too many wrong codes: sign in again.');
  }
  return row;
}

/** Mails a fresh code for an email challenge, at most once every 30 seconds (-198). */
export async function sendEmailCode(options: { db: Db; otpId: string }) {
  const { db } = options;
  const { challenge, user } = await loadLiveChallenge(db, options.otpId);
  if (challenge.method !== 'email') {
    throw invalidInput('This sign-in uses your authenticator app, not a mailed code.');
  }
  const waited = challenge.sentAt ? (Date.now() - challenge.sentAt.getTime()) / 1000 : Infinity;
  if (waited < OTP_RESEND_SECONDS) {
    const resendAfter = Math.ceil(OTP_RESEND_SECONDS - waited);
    throw new DomainError(ResponseCode.OTP_RETRY_TIMEOUT, `Wait ${resendAfter} seconds before asking for another code.`, { data: { resendAfter } });
  }
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  await db.transaction(async (tx) => {
    await tx.update(otpChallenges).set({ codeHash: digestSecret(`${challenge.id}:${code}`), sentAt: new Date() }).where(eq(otpChallenges.id, challenge.id));
    await queueEmail({
      db: tx as unknown as Db,
      tenantId: null,
      to: user.email,
      subject: 'Your Pakt sign-in code',
      body: `Your sign-in code is ${code}. It works for ${CHALLENGE_MINUTES} minutes. If you did not try to sign in, change your password.`,
      kind: 'otp',
    });
  });
  return { sentTo: maskEmail(user.email), resendAfter: OTP_RESEND_SECONDS };
}

/** Checks a code; wrong ones count, and the fifth ends the challenge. Returns the signed-in user. */
export async function verifyChallenge(options: { db: Db; otpId: string; code: string }): Promise<{ user: UserRow; clientId: string }> {
  const { db } = options;
  const { challenge, user } = await loadLiveChallenge(db, options.otpId);
  const valid =
    challenge.method === 'totp'
      ? !!user.totpSecret && (await verifyTotp({ secret: user.totpSecret, token: options.code, epochTolerance: TOTP_TOLERANCE_SECONDS })).valid
      : !!challenge.codeHash && secretsEqual(challenge.codeHash, digestSecret(`${challenge.id}:${options.code}`));
  if (!valid) {
    const [counted] = await db
      .update(otpChallenges)
      .set({ attempts: sql`${otpChallenges.attempts} + 1` })
      .where(eq(otpChallenges.id, challenge.id))
      .returning({ attempts: otpChallenges.attempts });
    if ((counted?.attempts ?? MAX_OTP_ATTEMPTS) >= MAX_OTP_ATTEMPTS) {
      throw new DomainError(ResponseCode.MAXIMUM_OTP_ATTEMPTS, 'Too many wrong codes: sign in again.');
    }
    throw new DomainError(ResponseCode.WRONG_OTP, 'The code is not correct.');
  }
  // Consumed under a condition: the same code cannot finish two sign-ins.
  const consumed = await db
    .update(otpChallenges)
    .set({ consumedAt: new Date() })
    .where(and(eq(otpChallenges.id, challenge.id), sql`${otpChallenges.consumedAt} is null`))
    .returning({ id: otpChallenges.id });
  if (consumed.length === 0) throw new DomainError(ResponseCode.INVALID_OTP_ID, 'This sign-in has expired: sign in again.');
  return { user, clientId: challenge.clientId };
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
  const { valid } = await verifyTotp({ secret, token: options.code, epochTolerance: TOTP_TOLERANCE_SECONDS });
  if (!valid) throw new DomainError(ResponseCode.WRONG_OTP, 'The code is not correct: check the time on your phone.');
  const [updated] = await options.db
    .update(users)
    .set({ totpSecret: secret, totpPendingSecret: null, totpEnabledAt: new Date() })
    .where(eq(users.id, options.user.id))
    .returning();
  return updated!;
}

export async function disableSecondFactor(options: { db: Db; user: UserRow; password: string }) {
  if (!(await verifyPassword(options.user.passwordHash, options.password))) {
    throw new DomainError(ResponseCode.WRONG_PASSWORD, 'The password is not correct.');
  }
  const [updated] = await options.db
    .update(users)
    .set({ totpSecret: null, totpPendingSecret: null, totpEnabledAt: null })
    .where(eq(users.id, options.user.id))
    .returning();
  return updated!;
}
