import { DomainError, PASSWORD_CHANGE_REQUIRED_USER_STATUSES, type PasswordConfig, passwordProblems, passwordRejected, ResponseCode } from '@pakt/domain';
import { and, desc, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database';
import { passwordHistory, passwordResets, sessions, users } from '../../platform/db/schema';
import { clearSignInThrottle, signInThrottleKey, loadStrictestPasswordConfig, digestSecret, generateSecret, hashPassword, verifyPassword } from '../auth';
import { queueEmail } from '../../platform/mail/outbox';

export const RESET_LINK_MINUTES = 60;
/** Reset mails per address per day; beyond it -227 (spec: maximum password reset attempts). */
export const MAX_RESET_REQUESTS_PER_DAY = 5;

type UserRow = typeof users.$inferSelect;

/** Checks a new password against the rules and the user's recent passwords; throws -16 with the rules broken. */
async function assertAcceptable(db: Db, user: UserRow, password: string, config: PasswordConfig, field: string) {
  const problems: string[] = passwordProblems(password, config);
  if (problems.length === 0 && config.historyCount > 0) {
    const recent = await db
      .select({ hash: passwordHistory.passwordHash })
      .from(passwordHistory)
      .where(eq(passwordHistory.userId, user.id))
      .orderBy(desc(passwordHistory.createdAt))
      .limit(config.historyCount);
    // The current password counts too, whether or not history was recorded when it was set.
    for (const hash of [user.passwordHash, ...recent.map((r) => r.hash)]) {
      if (!hash) continue;
      if (await verifyPassword(hash, password)) {
        problems.push('history');
        break;
      }
    }
  }
  if (problems.length > 0) {
    throw passwordRejected(problems, field);
  }
}

async function storeNewPassword(tx: Db, userId: string, password: string) {
  const passwordHash = await hashPassword(password);
  await tx
    .update(users)
    .set({
      passwordHash,
      passwordChangedAt: new Date(),
      // Changing the password is the way out of these statuses (spec section 4).
      status: sql`case when ${users.status} in ('expired', 'resetpassword') then 'enabled' else ${users.status} end`,
    })
    .where(eq(users.id, userId));
  await tx.insert(passwordHistory).values({ userId, passwordHash });
}

/** A signed-in user changes their password; their other sessions end (a thief's included). */
export async function changeOwnPassword(options: {
  db: Db;
  user: UserRow;
  keepFamilyId: string;
  oldPassword: string;
  newPassword: string;
}) {
  const { db, user } = options;
  if (!(await verifyPassword(user.passwordHash, options.oldPassword))) {
    throw new DomainError(ResponseCode.WRONG_OLD_PASSWORD, 'The current password is not correct.');
  }
  await assertAcceptable(db, user, options.newPassword, await loadStrictestPasswordConfig(db, user.id), 'newPassword');
  await db.transaction(async (tx) => {
    await storeNewPassword(tx, user.id, options.newPassword);
    await tx
      .update(sessions)
      .set({ revokedAt: new Date() })
      .where(and(eq(sessions.userId, user.id), ne(sessions.familyId, options.keepFamilyId), isNull(sessions.revokedAt)));
  });
  const [updated] = await db.select().from(users).where(eq(users.id, user.id));
  return updated!;
}

/**
 * Mails a reset link when the address belongs to an account that can sign in with a password.
 * The answer never says whether it does, except past the daily limit (-227).
 */
export async function requestPasswordReset(options: { db: Db; email: string; publicUrl: string }) {
  const { db } = options;
  const [user] = await db.select().from(users).where(eq(users.email, options.email));
  if (!user || !user.passwordHash || user.disabledAt) return;
  await mailResetLink({ db, user, publicUrl: options.publicUrl, byAdministrator: false });
}

/**
 * A reset link in the outbox for an account, within the daily limit (-227). `onCommit` runs in
 * the same transaction (an administrator's audit record). Nothing changes until the link is used.
 */
export async function mailResetLink(options: {
  db: Db;
  user: typeof users.$inferSelect;
  publicUrl: string;
  byAdministrator: boolean;
  tenantId?: string | null;
  onCommit?: (tx: Db) => Promise<void>;
}) {
  const { db, user } = options;
  const [recent] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(passwordResets)
    .where(and(eq(passwordResets.userId, user.id), gt(passwordResets.createdAt, new Date(Date.now() - 24 * 3600_000))));
  if ((recent?.n ?? 0) >= MAX_RESET_REQUESTS_PER_DAY) {
    throw new DomainError(ResponseCode.MAXIMUM_PASSWORD_RESET_ATTEMPTS, 'Too many reset requests today: try again tomorrow.');
  }
  const token = generateSecret('pkp');
  await db.transaction(async (tx) => {
    await tx.insert(passwordResets).values({
      userId: user.id,
      tokenHash: digestSecret(token),
      expiresAt: new Date(Date.now() + RESET_LINK_MINUTES * 60_000),
    });
    const link = `${options.publicUrl}/resetpassword?token=${encodeURIComponent(token)}`;
    await queueEmail({
      db: tx,
      tenantId: options.tenantId ?? null,
      to: user.email,
      subject: 'Reset your Pakt password',
      body: [
        `Hello ${user.firstName},`,
        '',
        options.byAdministrator
          ? `Your administrator asked for your Pakt password to be reset. Open this link within ${RESET_LINK_MINUTES} minutes to choose a new one:`
          : `Someone asked to reset the password of your Pakt account. Open this link within ${RESET_LINK_MINUTES} minutes to choose a new one:`,
        link,
        '',
        options.byAdministrator ? 'Until you do, your current password keeps working.' : 'If it was not you, ignore this mail: your password stays as it is.',
      ].join('\n'),
      kind: 'password-reset',
    });
    await options.onCommit?.(tx);
  });
}

/** Sets a new password from a reset link; every session of the account ends. */
export async function resetPasswordWithToken(options: {
  db: Db;
  token: string;
  newPassword: string;
  /** Where the link was opened: that client's sign-in throttle for the address ends with it. */
  clientAddress?: string;
}) {
  const { db } = options;
  const [row] = await db
    .select({ reset: passwordResets, user: users })
    .from(passwordResets)
    .innerJoin(users, eq(users.id, passwordResets.userId))
    .where(eq(passwordResets.tokenHash, digestSecret(options.token)));
  if (!row || row.reset.usedAt) {
    throw new DomainError(ResponseCode.INVALID_EASY_SIGN_LINK, 'This reset link is not valid (it may have been used already).', { httpStatus: 404 });
  }
  if (row.reset.expiresAt.getTime() <= Date.now()) {
    throw new DomainError(ResponseCode.REGISTRATION_LINK_EXPIRED, 'This reset link has expired: ask for a new one.');
  }
  await assertAcceptable(db, row.user, options.newPassword, await loadStrictestPasswordConfig(db, row.user.id), 'newPassword');
  await db.transaction(async (tx) => {
    // Marked used under a condition, so two simultaneous uses cannot both succeed.
    const used = await tx
      .update(passwordResets)
      .set({ usedAt: new Date() })
      .where(and(eq(passwordResets.id, row.reset.id), isNull(passwordResets.usedAt)))
      .returning({ id: passwordResets.id });
    if (used.length === 0) throw new DomainError(ResponseCode.INVALID_EASY_SIGN_LINK, 'This reset link was already used.', { httpStatus: 404 });
    await storeNewPassword(tx, row.user.id, options.newPassword);
    // The link came by mail, so the address is proven (a pending sign-up can finish this way too).
    await tx.update(users).set({ emailVerifiedAt: new Date() }).where(and(eq(users.id, row.user.id), isNull(users.emailVerifiedAt)));
    await tx.update(sessions).set({ revokedAt: new Date() }).where(and(eq(sessions.userId, row.user.id), isNull(sessions.revokedAt)));
    // Whoever forgot the password and locked themselves out guessing can sign in with the new one
    // at once, from where they reset it. Other clients' throttles stay (they guessed the old one).
    // The second-factor lock stays too: the mailed link proves the mailbox, not the authenticator.
    if (options.clientAddress) {
      await clearSignInThrottle({ db: tx, key: signInThrottleKey(row.user.email, options.clientAddress) });
    }
  });
}

export function mustChangePassword(status: string): boolean {
  return (PASSWORD_CHANGE_REQUIRED_USER_STATUSES as readonly string[]).includes(status);
}
