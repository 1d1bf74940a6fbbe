import { DEFAULT_PASSWORD_CONFIG, DomainError, passwordProblems, passwordRejected, ResponseCode } from '@pakt/domain';
import { eq, isNull, and, sql } from 'drizzle-orm';
import type { Db } from '../db/database';
import { memberships, passwordHistory, tenants, users } from '../db/schema';
import { hashPassword } from '../auth/secrets';
import { consumeOneTimeToken, issueOneTimeToken, lastIssuedAt } from '../auth/one-time-tokens';
import { queueEmail } from './outbox';

/** How long a verification link works, and how often one may be sent again. */
export const VERIFICATION_LINK_HOURS = 48;
export const VERIFICATION_RESEND_SECONDS = 60;

type UserRow = typeof users.$inferSelect;

const pending = (email: string) =>
  new DomainError(
    ResponseCode.REGISTRATION_PENDING,
    `Registration is not finished: open the link we mailed to ${email} to confirm the address.`,
  );

/** Mails a fresh verification link, unless one went out within the last minute. */
export async function sendVerificationLink(options: { db: Db; user: UserRow; publicUrl: string }): Promise<boolean> {
  const { db, user } = options;
  const last = await lastIssuedAt({ db, purpose: 'verify_email', userId: user.id });
  if (last && Date.now() - last.getTime() < VERIFICATION_RESEND_SECONDS * 1000) return false;
  await db.transaction(async (tx) => {
    const token = await issueOneTimeToken({
      db: tx as unknown as Db,
      purpose: 'verify_email',
      userId: user.id,
      seconds: VERIFICATION_LINK_HOURS * 3600,
    });
    await queueEmail({
      db: tx as unknown as Db,
      tenantId: null,
      to: user.email,
      subject: 'Confirm your email address for Pakt',
      body: [
        `Hello ${user.firstName},`,
        '',
        `Open this link within ${VERIFICATION_LINK_HOURS} hours to confirm your address and finish creating your Pakt account:`,
        `${options.publicUrl}/thanks?verify=${encodeURIComponent(token)}`,
        '',
        'If you did not sign up, ignore this mail: nothing happens without the link.',
      ].join('\n'),
      kind: 'verify-email',
    });
  });
  return true;
}

/**
 * An unverified sign-up cannot sign in: -164, with the link mailed again (at most once a minute)
 * in case the first one was lost.
 */
export async function refuseUnverified(options: { db: Db; user: UserRow; publicUrl: string }): Promise<never> {
  await sendVerificationLink(options);
  throw pending(options.user.email);
}

/**
 * Self-service sign-up: a new organisation (tenant) with the person as its admin. Nobody can
 * sign in to it until the address is confirmed from the mailed link, so an account cannot be
 * opened in someone else's name.
 */
export async function signUp(options: {
  db: Db;
  email: string;
  firstName: string;
  middleName?: string | undefined;
  lastName: string;
  orgName: string;
  jobTitle?: string | undefined;
  password: string;
  publicUrl: string;
}): Promise<UserRow> {
  const problems = passwordProblems(options.password, DEFAULT_PASSWORD_CONFIG);
  if (problems.length > 0) {
    throw passwordRejected(problems, 'newPassword');
  }
  const passwordHash = await hashPassword(options.password);
  const created = await options.db.transaction(async (tx) => {
    const [taken] = await tx.select().from(users).where(eq(users.email, options.email));
    if (taken && !taken.emailVerifiedAt) return { pendingUser: taken };
    if (taken) throw new DomainError(ResponseCode.USER_ALREADY_EXISTS, 'An account with this email exists: sign in instead.');
    const [clash] = await tx.select({ id: tenants.id }).from(tenants).where(sql`lower(${tenants.name}) = lower(${options.orgName})`);
    if (clash) throw new DomainError(ResponseCode.TENANT_ALREADY_EXISTS, 'An organisation with this name exists already.');
    const [tenant] = await tx.insert(tenants).values({ name: options.orgName }).returning();
    const [user] = await tx
      .insert(users)
      .values({
        email: options.email,
        firstName: options.firstName,
        middleName: options.middleName ?? null,
        lastName: options.lastName,
        title: options.jobTitle ?? null,
        status: 'enabled',
        passwordHash,
        passwordChangedAt: new Date(),
      })
      .returning();
    await tx.insert(memberships).values({ tenantId: tenant!.id, userId: user!.id, role: 'admin', status: 'active' });
    await tx.insert(passwordHistory).values({ userId: user!.id, passwordHash });
    return { user: user! };
  });
  if (created.pendingUser) {
    // Signing up again before confirming: the first registration stands; the link goes out again.
    return refuseUnverified({ db: options.db, user: created.pendingUser, publicUrl: options.publicUrl });
  }
  await sendVerificationLink({ db: options.db, user: created.user, publicUrl: options.publicUrl });
  return created.user;
}

/** The mailed link: confirms the address (once) and answers the now usable account. */
export async function verifyEmail(options: { db: Db; token: string }): Promise<UserRow> {
  const spent = await consumeOneTimeToken({ db: options.db, purpose: 'verify_email', token: options.token });
  if (!spent) {
    throw new DomainError(
      ResponseCode.REGISTRATION_LINK_EXPIRED,
      'This confirmation link has expired or was used already: sign in to have a new one mailed.',
    );
  }
  await options.db
    .update(users)
    .set({ emailVerifiedAt: new Date() })
    .where(and(eq(users.id, spent.userId), isNull(users.emailVerifiedAt)));
  const [user] = await options.db.select().from(users).where(eq(users.id, spent.userId));
  return user!;
}
