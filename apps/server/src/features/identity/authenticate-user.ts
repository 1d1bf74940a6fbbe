import { DomainError, PASSWORD_CHANGE_REQUIRED_USER_STATUSES, ResponseCode } from '@pakt/domain';
import { eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/database';
import { users } from '../../platform/db/schema';
import { refuseUnverified } from './signup';
import { hasEndedTemporaryAccess, loadUserTenants } from './session-user';
import { claimSignInAttempt, clearSignInThrottle, recordFailedSignIn, signInThrottleKey, loadStrictestPasswordConfig, verifyPassword } from '../auth';

const wrongCredentials = () =>
  // One answer for "no such user" and "wrong password": the login form must not reveal accounts.
  new DomainError(ResponseCode.INVALID_PASSWORD, 'The email or password is not correct.', { httpStatus: 401 });

/**
 * Checks an email and password. Order matters: a client locked out for this address is refused
 * before the password is even looked at (so the lock really stops guessing), and account states
 * are revealed only to someone who knows the password.
 *
 * Failures are counted per typed address and client (login-throttle.ts), not per account: a
 * stranger's guesses lock only the stranger's client out, never the owner elsewhere, and an
 * unknown address goes through exactly the same steps and answers as a known one.
 */
export async function authenticateUser(options: {
  db: Db;
  email: string;
  password: string;
  /** The client's address (request.ip; TRUST_PROXY decides whether a proxy's header is believed). */
  clientAddress: string;
  publicUrl: string;
  now?: Date;
}) {
  const { db } = options;
  const now = options.now ?? new Date();
  const key = signInThrottleKey(options.email, options.clientAddress);
  let failures: number;
  try {
    failures = await claimSignInAttempt({ db, key, now });
  } catch (locked) {
    // As slow as a checked password, so a locked client cannot tell it apart by timing either.
    await verifyPassword(null, options.password);
    throw locked;
  }
  const [user] = await db.select().from(users).where(eq(users.email, options.email.toLowerCase()));
  // No user, or one without a password (invited), costs the same dummy verification.
  if (!(await verifyPassword(user?.passwordHash ?? null, options.password)) || !user) {
    await recordFailedSignIn({ db, key, failures, now });
    throw wrongCredentials();
  }
  await clearSignInThrottle({ db, key });

  if (user.disabledAt) throw new DomainError(ResponseCode.USER_DISABLED, 'This account is disabled. Contact your administrator.');
  if (!user.emailVerifiedAt) await refuseUnverified({ db, user, publicUrl: options.publicUrl });
  // expired and resetpassword users do sign in, to a session that can only change the password:
  // every other call answers -73, which the app turns into /changepassword (spec sections 4, 8).
  const mustChange = (PASSWORD_CHANGE_REQUIRED_USER_STATUSES as readonly string[]).includes(user.status);
  if (!mustChange && user.status !== 'enabled') {
    throw new DomainError(ResponseCode.USER_NOT_ENABLED, 'This account is not enabled.');
  }
  if (!user.isRoot && (await loadUserTenants(db, user.id)).length === 0) {
    if (await hasEndedTemporaryAccess(db, user.id)) {
      throw new DomainError(ResponseCode.USER_EXPIRED, 'Your access has expired. Contact your administrator to extend it.');
    }
    // Every membership is disabled (or none was ever accepted): nothing to sign in to.
    throw new DomainError(ResponseCode.USER_DISABLED, 'This account is disabled. Contact your administrator.');
  }
  const { expiryDays } = await loadStrictestPasswordConfig(db, user.id);
  const passwordExpired =
    expiryDays > 0 && (!user.passwordChangedAt || user.passwordChangedAt.getTime() + expiryDays * 24 * 3600_000 <= now.getTime());
  const [signedIn] = await db
    .update(users)
    .set({ lastLoginAt: now, ...(passwordExpired && !mustChange ? { status: 'expired' } : {}) })
    .where(eq(users.id, user.id))
    .returning();
  return signedIn!;
}
