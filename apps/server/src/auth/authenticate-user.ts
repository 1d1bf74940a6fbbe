import { DomainError, PASSWORD_CHANGE_REQUIRED_USER_STATUSES, ResponseCode } from '@pakt/domain';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/database';
import { users } from '../db/schema';
import { loadUserTenants } from '../identity/session-user';
import { loadLockoutRules } from './password-config';
import { verifyPassword } from './secrets';

const wrongCredentials = () =>
  // One answer for "no such user" and "wrong password": the login form must not reveal accounts.
  new DomainError(ResponseCode.INVALID_PASSWORD, 'The email or password is not correct.', { httpStatus: 401 });

/**
 * Checks an email and password. Order matters: a locked account is refused before the password
 * is even looked at (so lockout really stops guessing), and account states are revealed only
 * to someone who knows the password.
 */
export async function authenticateUser(options: { db: Db; email: string; password: string; now?: Date }) {
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
    const rules = await loadLockoutRules(db, user.id);
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
  if ((PASSWORD_CHANGE_REQUIRED_USER_STATUSES as readonly string[]).includes(user.status)) {
    throw new DomainError(ResponseCode.USER_NOT_ENABLED, 'The password must be changed before signing in.');
  }
  if (user.status !== 'enabled') {
    throw new DomainError(ResponseCode.USER_NOT_ENABLED, 'This account is not enabled.');
  }
  if (!user.isRoot && (await loadUserTenants(db, user.id)).length === 0) {
    // Every membership is disabled (or none was ever accepted): nothing to sign in to.
    throw new DomainError(ResponseCode.USER_DISABLED, 'This account is disabled. Contact your administrator.');
  }
  await db.update(users).set({ lastLoginAt: now }).where(eq(users.id, user.id));
  return user;
}
