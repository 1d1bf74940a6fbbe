import {
  DEFAULT_INVITATION_VALIDITY_DAYS,
  DomainError,
  enforce,
  invalidInput,
  type Invitee,
  notFound,
  passwordProblems,
  passwordRejected,
  type ResourceActor,
  ResponseCode,
  type Role,
} from '@pakt/domain';
import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { Db } from '../../platform/db/database';
import { epakRecipients, epaks, invitations, memberships, passwordHistory, tenants, users } from '../../platform/db/schema';
import { loadPasswordConfig, digestSecret, generateSecret, hashPassword } from '../auth';
import { queueEmail } from '../../platform/mail/outbox';
import { loadTenantSettings } from './tenant-configuration';
import { recordAdminAction } from '../../platform/audit-log';

export const INVITATION_DAYS = DEFAULT_INVITATION_VALIDITY_DAYS;

/**
 * Invites a person into a tenant with a role: creates the user when the address is new
 * (status admininvited, no password), a pending membership, a single-use code stored as a
 * digest, and the invitation mail in the outbox. Runs inside the caller's transaction.
 */
export async function createInvitation(options: {
  db: Db;
  tenant: { id: string; name: string };
  role: Role;
  person: { email: string; firstName: string; middleName?: string | undefined; lastName: string };
  invitedBy: string;
  publicUrl: string;
  /** How long the link works; the tenant's USER_INVITE_CONFIG says, for admin invitations. */
  validityDays?: number;
}) {
  const { db, tenant } = options;
  const days = options.validityDays ?? INVITATION_DAYS;
  const email = options.person.email;
  let [user] = await db.select().from(users).where(eq(users.email, email));
  // The instance administrator belongs to no tenant (SessionUser.isRoot); an account disabled
  // install-wide is refused as compose refuses it as a recipient (-13).
  if (user?.isRoot) throw new DomainError(ResponseCode.INVALID_INPUT, `${email} is the instance administrator, who belongs to no tenant.`, { data: { email } });
  if (user?.disabledAt) throw new DomainError(ResponseCode.USER_DISABLED, `${email} is disabled: contact your administrator.`, { data: { email } });
  if (!user) {
    [user] = await db
      .insert(users)
      .values({
        email: options.person.email,
        firstName: options.person.firstName,
        middleName: options.person.middleName ?? null,
        lastName: options.person.lastName,
        status: 'admininvited',
      })
      .returning();
  }
  const [member] = await db
    .select()
    .from(memberships)
    .where(and(eq(memberships.tenantId, tenant.id), eq(memberships.userId, user!.id)));
  if (member) throw new DomainError(ResponseCode.USER_WITH_TENANT, `${email} is already a member of the tenant.`, { data: { email } });
  await db.insert(memberships).values({ tenantId: tenant.id, userId: user!.id, role: options.role, status: 'invited' });
  const link = await issueInvitation({ db, tenant, userId: user!.id, email: user!.email, firstName: options.person.firstName, role: options.role, invitedBy: options.invitedBy, publicUrl: options.publicUrl, days });
  return { link, userId: user!.id };
}

/** A new single-use code for a pending membership, stored as a digest, and its mail in the outbox. */
async function issueInvitation(options: {
  db: Db;
  tenant: { id: string; name: string };
  userId: string;
  email: string;
  firstName: string;
  role: Role;
  invitedBy: string;
  publicUrl: string;
  days: number;
}): Promise<string> {
  const { db, tenant, days } = options;
  const code = generateSecret('pki');
  await db.insert(invitations).values({
    tenantId: tenant.id,
    userId: options.userId,
    role: options.role,
    codeHash: digestSecret(code),
    invitedBy: options.invitedBy,
    expiresAt: new Date(Date.now() + days * 24 * 3600_000),
  });
  const link = `${options.publicUrl}/register?invite=${encodeURIComponent(code)}&tenant=${tenant.id}`;
  await queueEmail({
    db,
    tenantId: tenant.id,
    to: options.email,
    subject: `You are invited to ${tenant.name} on Pakt`,
    body: [
      `Hello ${options.firstName},`,
      '',
      `You have been invited to join ${tenant.name} on Pakt as ${options.role}.`,
      `Open this link within ${days} days to choose your password:`,
      link,
    ].join('\n'),
    kind: 'invitation',
  });
  return link;
}

/** A member still invited (not joined) of the tenant, locked; 404 for anyone else, -6 once joined. */
async function pendingMember(db: Db, tenantId: string, userId: string) {
  const [row] = await db
    .select({ membership: memberships, user: users })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.tenantId, tenantId), eq(memberships.userId, userId)))
    .for('update', { of: memberships });
  if (!row) throw notFound();
  if (row.membership.status !== 'invited') throw invalidInput(`${row.user.email} has joined already.`, [{ path: 'userId', message: 'not an open invitation' }]);
  return row;
}

/**
 * Invite type admin_reinvite: a new link for someone invited who has not joined, mailed again;
 * their earlier links stop working (-173), so only the newest mail counts.
 */
export async function reinviteMember(options: { db: Db; tenant: { id: string; name: string }; actor: ResourceActor; userId: string; publicUrl: string }) {
  const invitedBy = options.actor.userId;
  return options.db.transaction(async (db) => {
    const { membership, user } = await pendingMember(db, options.tenant.id, options.userId);
    enforce(options.actor, 'invitation.manage', { tenantId: options.tenant.id, userId: user.id, role: membership.role as Role });
    await db
      .update(invitations)
      .set({ status: 'cancelled' })
      .where(and(eq(invitations.tenantId, options.tenant.id), eq(invitations.userId, user.id), eq(invitations.status, 'pending')));
    const { invitationValidityDays } = await loadTenantSettings(db, options.tenant.id);
    await issueInvitation({
      db,
      tenant: options.tenant,
      userId: user.id,
      email: user.email,
      firstName: user.firstName,
      role: membership.role as Role,
      invitedBy,
      publicUrl: options.publicUrl,
      days: invitationValidityDays ?? INVITATION_DAYS,
    });
    await recordAdminAction({ db, tenantId: options.tenant.id, actorId: invitedBy, action: 'admin_reinvite', target: { type: 'user', id: user.id, label: user.email } });
    return { userId: user.id, email: user.email, status: 'invited' as const };
  });
}

/**
 * Invite type admin_invite_cancel: the invitation of someone who has not joined is withdrawn and
 * their membership goes. Refused while an ePak under way waits for them (-34) or was delegated to
 * them (-35): cancelling would strand it. An account that belongs nowhere else and never had a
 * password becomes cancelInvitation (compose then refuses it, spec §5).
 */
export async function cancelInvitation(options: { db: Db; actor: ResourceActor & { tenantId: string }; userId: string }) {
  const { tenantId } = options.actor;
  return options.db.transaction(async (db) => {
    const { membership, user } = await pendingMember(db, tenantId, options.userId);
    // A super admin's invitation is the super admins' to manage (the invitation.manage policy).
    enforce(options.actor, 'invitation.manage', { tenantId, userId: user.id, role: membership.role as Role });
    const waiting = await db
      .select({ status: epakRecipients.status })
      .from(epakRecipients)
      .innerJoin(epaks, eq(epaks.id, epakRecipients.epakId))
      .where(
        and(
          eq(epakRecipients.userId, user.id),
          eq(epaks.tenantId, tenantId),
          inArray(epaks.status, ['Draft', 'InProgress']),
          inArray(epakRecipients.status, ['Pending', 'DelegatePending']),
        ),
      );
    if (waiting.some((place) => place.status === 'DelegatePending')) {
      throw new DomainError(ResponseCode.INVITATION_CANCEL_BLOCKED_BY_DELEGATION, `An ePak was delegated to ${user.email}: it must be answered or taken back first.`);
    }
    if (waiting.length > 0) {
      throw new DomainError(ResponseCode.INVITATION_CANCEL_BLOCKED_BY_WORKFLOW, `${user.email} is a recipient of an ePak under way: it must end or be changed first.`);
    }
    await db
      .update(invitations)
      .set({ status: 'cancelled' })
      .where(and(eq(invitations.tenantId, tenantId), eq(invitations.userId, user.id), eq(invitations.status, 'pending')));
    await db.delete(memberships).where(and(eq(memberships.tenantId, tenantId), eq(memberships.userId, user.id)));
    const [elsewhere] = await db.select({ tenantId: memberships.tenantId }).from(memberships).where(eq(memberships.userId, user.id)).limit(1);
    if (!elsewhere && !user.passwordHash) await db.update(users).set({ status: 'cancelInvitation' }).where(eq(users.id, user.id));
    await recordAdminAction({ db, tenantId: tenantId, actorId: options.actor.userId, action: 'admin_invite_cancel', target: { type: 'user', id: user.id, label: user.email } });
    return { userId: user.id, email: user.email, status: 'cancelled' as const };
  });
}

/**
 * An admin's command (invite type admin_invite): invitations for several people at once, all or
 * nothing, so a refusal (-85 already a member, -13 disabled) leaves no half-invited batch behind.
 * The links go out by mail only: unlike root's first-admin invitation, the admin has the outbox.
 */
export async function inviteMembers(options: {
  db: Db;
  tenant: { id: string; name: string };
  users: readonly Invitee[];
  invitedBy: string;
  publicUrl: string;
}) {
  return options.db.transaction(async (db) => {
    const { invitationValidityDays } = await loadTenantSettings(db, options.tenant.id);
    const invited: { email: string; userId: string; status: 'invited' }[] = [];
    for (const person of options.users) {
      const { userId } = await createInvitation({
        db,
        tenant: options.tenant,
        role: person.role,
        person,
        invitedBy: options.invitedBy,
        publicUrl: options.publicUrl,
        validityDays: invitationValidityDays,
      });
      invited.push({ email: person.email, userId, status: 'invited' });
      await recordAdminAction({
        db,
        tenantId: options.tenant.id,
        actorId: options.invitedBy,
        action: 'admin_invite',
        target: { type: 'user', id: userId, label: person.email },
        details: { role: person.role },
      });
    }
    return invited;
  });
}

/** The invitation behind a code, with the checks every use of it needs. */
async function loadUsableInvitation(db: Db, code: string, lock = false) {
  const query = db
    .select({ invitation: invitations, user: users, tenant: tenants })
    .from(invitations)
    .innerJoin(users, eq(users.id, invitations.userId))
    .innerJoin(tenants, eq(tenants.id, invitations.tenantId))
    .where(eq(invitations.codeHash, digestSecret(code)));
  const [row] = lock ? await query.for('update', { of: invitations }) : await query;
  if (!row) throw new DomainError(ResponseCode.INVALID_EASY_SIGN_LINK, 'This invitation link is not valid.', { httpStatus: 404 });
  if (row.invitation.status === 'cancelled') throw new DomainError(ResponseCode.INVITATION_CANCELLED, 'This invitation was cancelled.');
  if (row.invitation.status === 'accepted') throw new DomainError(ResponseCode.USER_ALREADY_EXISTS, 'This invitation was already used: sign in instead.');
  if (row.invitation.expiresAt.getTime() <= Date.now()) {
    throw new DomainError(ResponseCode.REGISTRATION_LINK_EXPIRED, 'This invitation has expired: ask for a new one.');
  }
  return row;
}

export async function describeInvitation(db: Db, code: string) {
  const { user, tenant, invitation } = await loadUsableInvitation(db, code);
  return {
    // Told only to whoever holds the code, which came to this address: they know it already.
    hasAccount: user.passwordHash !== null,
    email: user.email,
    firstName: user.firstName,
    middleName: user.middleName,
    lastName: user.lastName,
    tenantUuid: tenant.id,
    tenantName: tenant.name,
    role: invitation.role as Role,
  };
}

const alreadyHasAccount = () =>
  new DomainError(ResponseCode.USER_ALREADY_EXISTS, 'You already have a Pakt account: sign in with it, then accept the invitation.');

/** The invitation used, the address proven, the membership active: one transaction's writes. */
async function activateMembership(db: Db, invitation: typeof invitations.$inferSelect, user: typeof users.$inferSelect) {
  await db.update(invitations).set({ status: 'accepted', acceptedAt: new Date() }).where(eq(invitations.id, invitation.id));
  // The invite code came by mail: whoever holds it reads that address.
  await db.update(users).set({ emailVerifiedAt: new Date() }).where(and(eq(users.id, user.id), isNull(users.emailVerifiedAt)));
  await db
    .update(memberships)
    .set({ status: 'active' })
    // A super admin disabled before accepting (updateSuperadminStatus) joins still disabled.
    .where(and(eq(memberships.tenantId, invitation.tenantId), eq(memberships.userId, user.id), eq(memberships.status, 'invited')));
  // Someone who only ever signed by link (external) is a member now: their own folders, menus, login.
  await db.update(users).set({ type: 'internal' }).where(and(eq(users.id, user.id), eq(users.type, 'external')));
}

/**
 * POST /msbapi/v1/users/invitations/accept: someone who already has an account joins the
 * invitation's tenant from a session they opened by signing in, so the password was checked once,
 * with throttling and the second factor, at /authenticate. The invitation must be theirs.
 */
export async function joinWithInvitation(options: { db: Db; code: string; tenantUuid: string; userId: string }) {
  return options.db.transaction(async (db) => {
    const { invitation, user, tenant } = await loadUsableInvitation(db, options.code, true);
    if (tenant.id !== options.tenantUuid) throw invalidInput('The invitation is for another tenant.');
    enforce({ userId: options.userId }, 'invitation.accept', { tenantId: tenant.id, userId: user.id, role: invitation.role as Role });
    await activateMembership(db, invitation, user);
    return { tenantUuid: tenant.id, tenantName: tenant.name, role: invitation.role as Role };
  });
}

/** Accepting an invitation: the person's password and names, the membership turned active. */
export async function acceptInvitation(options: {
  db: Db;
  code: string;
  tenantUuid: string;
  email: string;
  firstName: string;
  middleName?: string | undefined;
  lastName: string;
  password: string;
}) {
  const { db } = options;
  const preview = await loadUsableInvitation(db, options.code);
  if (preview.tenant.id !== options.tenantUuid || preview.user.email !== options.email) {
    throw invalidInput('The invitation is for another address or tenant.');
  }
  // Someone with an account already joins from a signed-in session (joinWithInvitation), so
  // through /authenticate with its throttling and second factor. Checking the password here
  // made this a password oracle with no lockout and a way past two-factor (issue 17).
  if (preview.user.passwordHash) throw alreadyHasAccount();
  const config = await loadPasswordConfig(db, preview.tenant.id);
  const problems = passwordProblems(options.password, config);
  if (problems.length > 0) {
    throw passwordRejected(problems, 'newPassword');
  }
  const passwordHash = await hashPassword(options.password);
  return db.transaction(async (tx) => {
    const { invitation, user } = await loadUsableInvitation(tx, options.code, true);
    // Checked again under the lock: an account made meanwhile must not have its password replaced.
    if (user.passwordHash) throw alreadyHasAccount();
    await activateMembership(tx, invitation, user);
    await tx
      .update(users)
      .set({
        passwordHash,
        passwordChangedAt: new Date(),
        status: 'enabled',
        firstName: options.firstName,
        middleName: options.middleName ?? null,
        lastName: options.lastName,
      })
      .where(eq(users.id, user.id));
    await tx.insert(passwordHistory).values({ userId: user.id, passwordHash });
    const [updated] = await tx.select().from(users).where(eq(users.id, user.id));
    return updated!;
  });
}
