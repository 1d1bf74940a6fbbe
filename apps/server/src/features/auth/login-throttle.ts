import { createHash } from 'node:crypto';
import { DEFAULT_PASSWORD_CONFIG, DomainError, ResponseCode } from '@pakt/domain';
import { and, eq, gte, lt, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../../platform/db/database';
import { loginThrottles } from '../../platform/db/schema';

/**
 * Sign-in throttling per (typed address, client address). The numbers are the install's defaults,
 * not the account's tenants' password rules: a limit that depended on the account would tell a
 * prober which addresses have one (and in which kind of tenant).
 */
export const SIGN_IN_THROTTLE = {
  maxFailures: DEFAULT_PASSWORD_CONFIG.maxFailedAttempts,
  lockoutMinutes: DEFAULT_PASSWORD_CONFIG.lockoutMinutes,
} as const;

/** No wait grows past a day, however often someone is locked out: the owner is never locked out for good. */
export const MAX_LOCKOUT_MINUTES = 24 * 60;
const STALE_AFTER_MS = 24 * 3600_000;

/** A digest of both, so the table holds no addresses in clear. */
export function signInThrottleKey(email: string, clientAddress: string): string {
  return createHash('sha256').update(`${email.trim().toLowerCase()}\n${clientAddress}`).digest('hex');
}

/**
 * When a lock that starts now ends: lockoutMinutes for the first, doubling with each lockout
 * already counted in `lockouts`, at most a day. The exponent is capped so power() cannot overflow.
 */
export function progressiveLockEnd(now: Date, lockouts: AnyPgColumn, lockoutMinutes: number): SQL {
  return sql`${now.toISOString()}::timestamptz + least(${MAX_LOCKOUT_MINUTES}, ${lockoutMinutes} * power(2, least(${lockouts}, 16))) * interval '1 minute'`;
}

export const secondsUntil = (until: Date, now: Date) => Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000));

/** -14 with the wait in the message and in data.retryAfter (the error handler turns it into Retry-After). */
export function lockedFor(retryAfter: number, what: string): DomainError {
  const minutes = Math.ceil(retryAfter / 60);
  return new DomainError(ResponseCode.USER_LOCKED, `${what} Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`, {
    data: { retryAfter },
  });
}

const lockedHere = (retryAfter: number) => lockedFor(retryAfter, 'Too many failed sign-ins from here.');

/**
 * Takes one try from the budget before the password is checked, in one statement: concurrent
 * guesses each get their own count, so a burst cannot slip more tries past the limit than a
 * sequence. A try beyond the budget (only possible when racing) starts the lock itself. Throws
 * -14 while locked; otherwise answers how many tries this one makes.
 */
export async function claimSignInAttempt(options: { db: Db; key: string; now: Date }): Promise<number> {
  const { db, now } = options;
  const { maxFailures, lockoutMinutes } = SIGN_IN_THROTTLE;
  const locked = sql`coalesce(${loginThrottles.lockedUntil} > ${now.toISOString()}::timestamptz, false)`;
  const over = sql`${loginThrottles.failures} + 1 > ${maxFailures}`;
  // A day without a try, and not locked: start afresh, so a typo now and then never adds up.
  await db
    .delete(loginThrottles)
    .where(
      and(
        eq(loginThrottles.key, options.key),
        lt(loginThrottles.updatedAt, new Date(now.getTime() - STALE_AFTER_MS)),
        sql`coalesce(${loginThrottles.lockedUntil} <= ${now.toISOString()}::timestamptz, true)`,
      ),
    );
  const [row] = await db
    .insert(loginThrottles)
    .values({ key: options.key, failures: 1, updatedAt: now })
    .onConflictDoUpdate({
      target: loginThrottles.key,
      set: {
        failures: sql`case when ${locked} then ${loginThrottles.failures} when ${over} then 0 else ${loginThrottles.failures} + 1 end`,
        lockouts: sql`case when ${locked} then ${loginThrottles.lockouts} when ${over} then ${loginThrottles.lockouts} + 1 else ${loginThrottles.lockouts} end`,
        lockedUntil: sql`case when ${locked} then ${loginThrottles.lockedUntil} when ${over} then ${progressiveLockEnd(now, loginThrottles.lockouts, lockoutMinutes)} else ${loginThrottles.lockedUntil} end`,
        updatedAt: now,
      },
    })
    .returning();
  if (row!.lockedUntil && row!.lockedUntil > now) throw lockedHere(secondsUntil(row!.lockedUntil, now));
  return row!.failures;
}

/**
 * After a wrong password: the try was counted already; the last one of the budget starts the
 * lock, each one twice as long as the one before. Throws -14 when the client is locked now.
 */
export async function recordFailedSignIn(options: { db: Db; key: string; failures: number; now: Date }): Promise<void> {
  const { db, now } = options;
  if (options.failures < SIGN_IN_THROTTLE.maxFailures) return;
  // Conditional, so a racing try that already started the lock does not start a second one.
  await db
    .update(loginThrottles)
    .set({
      failures: 0,
      lockouts: sql`${loginThrottles.lockouts} + 1`,
      lockedUntil: progressiveLockEnd(now, loginThrottles.lockouts, SIGN_IN_THROTTLE.lockoutMinutes),
      updatedAt: now,
    })
    .where(
      and(
        eq(loginThrottles.key, options.key),
        gte(loginThrottles.failures, SIGN_IN_THROTTLE.maxFailures),
        sql`coalesce(${loginThrottles.lockedUntil} <= ${now.toISOString()}::timestamptz, true)`,
      ),
    );
  const [row] = await db.select({ lockedUntil: loginThrottles.lockedUntil }).from(loginThrottles).where(eq(loginThrottles.key, options.key));
  if (row?.lockedUntil && row.lockedUntil > now) throw lockedHere(secondsUntil(row.lockedUntil, now));
}

/** The right password: this client starts afresh for this address. */
export async function clearSignInThrottle(options: { db: Db; key: string }): Promise<void> {
  await options.db.delete(loginThrottles).where(eq(loginThrottles.key, options.key));
}
