import { DEFAULT_PASSWORD_CONFIG, DomainError, passwordProblems, passwordRejected, ResponseCode } from '@pakt/domain';
import { eq, gt, isNull, and, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database';
import { memberships, outbox, passwordHistory, tenants, users } from '../../platform/db/schema';
import { hashPassword, consumeOneTimeToken, issueOneTimeToken, lastIssuedAt } from '../auth';
import { queueEmail } from '../../platform/mail/outbox';

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
      db: tx,
      purpose: 'verify_email',
      userId: user.id,
      seconds: VERIFICATION_LINK_HOURS * 3600,
    });
    await queueEmail({
      db: tx,
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

/** At most one "someone tried to sign up with your address" mail per address in this time. */
export const EXISTING_OWNER_NOTICE_MINUTES = 60;

/**
 * Someone signed up with an address that has an account. The form's answer must not say so (it
 * would tell anyone which addresses have accounts), so the owner hears of it by mail instead, with
 * where to go if it was them: no link that signs in or resets anything, just the public pages.
 */
async function noticeExistingOwner(options: { db: Db; user: UserRow; publicUrl: string }) {
  const { db, user } = options;
  const since = new Date(Date.now() - EXISTING_OWNER_NOTICE_MINUTES * 60_000);
  const [recent] = await db
    .select({ id: outbox.id })
    .from(outbox)
    .where(and(eq(outbox.recipient, user.email), eq(outbox.kind, 'signup-existing'), gt(outbox.createdAt, since)))
    .limit(1);
  // Repeated sign-ups must not turn the form into a way to flood someone's mailbox.
  if (recent) return;
  await queueEmail({
    db,
    tenantId: null,
    to: user.email,
    subject: 'Someone tried to sign up for Pakt with your address',
    body: [
      `Hello ${user.firstName},`,
      '',
      'Someone, perhaps you, tried to create a new Pakt account with this address. You already have an account, so nothing was created or changed.',
      '',
      `If it was you, sign in at ${options.publicUrl}/login. If you forgot your password, reset it at ${options.publicUrl}/forgetpassword.`,
      '',
      'If it was not you, you need not do anything: your account is as it was.',
    ].join('\n'),
    kind: 'signup-existing',
  });
}

/**
 * Self-service sign-up: a new organisation (tenant) with the person as its admin. Nobody can
 * sign in to it until the address is confirmed from the mailed link, so an account cannot be
 * opened in someone else's name.
 *
 * An address that has an account gets exactly the answer a new one gets ("check your mail"), and
 * nothing is created: a sign-up still waiting for confirmation has its link mailed again (at most
 * once a minute, the first registration stands), any other account's owner is told by mail.
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
}): Promise<{ email: string }> {
  const problems = passwordProblems(options.password, DEFAULT_PASSWORD_CONFIG);
  if (problems.length > 0) {
    throw passwordRejected(problems, 'newPassword');
  }
  const passwordHash = await hashPassword(options.password);
  const created = await options.db.transaction(async (tx) => {
    // The organisation name first: a taken one is refused whoever signs up, so this answer says
    // nothing about the address either.
    const [clash] = await tx.select({ id: tenants.id }).from(tenants).where(sql`lower(${tenants.name}) = lower(${options.orgName})`);
    if (clash) throw new DomainError(ResponseCode.TENANT_ALREADY_EXISTS, 'An organisation with this name exists already.');
    const [taken] = await tx.select().from(users).where(eq(users.email, options.email));
    // A self sign-up not yet confirmed has a password; an invited person who never joined has none.
    if (taken && !taken.emailVerifiedAt && taken.passwordHash) return { kind: 'pending' as const, user: taken };
    if (taken) return { kind: 'existing' as const, user: taken };
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
    return { kind: 'created' as const, user: user! };
  });
  if (created.kind === 'pending') {
    // Signing up again before confirming: the first registration stands; the link goes out again.
    await sendVerificationLink({ db: options.db, user: created.user, publicUrl: options.publicUrl });
    return { email: created.user.email };
  }
  if (created.kind === 'existing') {
    await noticeExistingOwner({ db: options.db, user: created.user, publicUrl: options.publicUrl });
    return { email: created.user.email };
  }
  await sendVerificationLink({ db: options.db, user: created.user, publicUrl: options.publicUrl });
  return { email: created.user.email };
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
