import { DomainError, PASSWORD_CHANGE_REQUIRED_USER_STATUSES, ResponseCode } from '@pakt/domain';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/database';
import { users } from '../db/schema';
import { refuseUnverified } from '../identity/signup';
import { hasEndedTemporaryAccess, loadUserTenants } from '../identity/session-user';
import { loadStrictestPasswordConfig } from './password-config';
import { verifyPassword } from './secrets';

const wrongCredentials = () =>
  // One answer for "no such user" and "wrong password": the login form must not reveal accounts.
  new DomainError(ResponseCode.INVALID_PASSWORD, 'The email or password is not correct.', { httpStatus: 401 });

/**
 * Checks an email and password. Order matters: a locked account is refused before the password
 * is even looked at (so lockout really stops guessing), and account states are revealed only
 * to someone who knows the password.
 */
export async function authenticateUser(options: { db: Db; email: string; password: string; publicUrl: string; now?: Date }) {
  const { db } = options;
  const now = options.now ?? new Date();
  const [user] = await db.select().from(users).where(eq(users.email, options.email.toLowerCase()));
  if (!user) {
    await verifyPassword(null, options.password);
    throw wrongCredentials();
  }
  if (user.lockedUntil && user.lockedUntil > now) {
    throw new DomainError(ResponseCode.USER_LOCKED, 'Too many wrong passwords: the account is locked for a while.');
  }
  if (!(await verifyPassword(user.passwordHash, options.password))) {
    const rules = await loadStrictestPasswordConfig(db, user.id);
    // Counted in SQL so concurrent guesses cannot each read the same old count.
    const [counted] = await db
      .update(users)
      .set({ failedLoginCount: sql`${users.failedLoginCount} + 1` })
      .where(eq(users.id, user.id))
      .returning({ failed: users.failedLoginCount });
    if ((counted?.failed ?? 0) >= rules.maxFailedAttempts) {
      await db
        .update(users)
        .set({ failedLoginCount: 0, lockedUntil: new Date(now.getTime() + rules.lockoutMinutes * 60_000) })
        .where(eq(users.id, user.id));
      throw new DomainError(ResponseCode.USER_LOCKED, 'Too many wrong passwords: the account is locked for a while.');
    }
    throw wrongCredentials();
  }
  await db.update(users).set({ failedLoginCount: 0, lockedUntil: null }).where(eq(users.id, user.id));

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
