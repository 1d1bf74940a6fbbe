import {
  type Actor,
  type AdminUser,
  authorize,
  DomainError,
  enforce,
  type FilteredUsersQuery,
  notFound,
  REFUSAL_RESPONSES,
  ResponseCode,
  type Role,
  type RoleChange,
  USER_FOLDERS,
  type UserFolder,
  type UserStatus,
} from '@pakt/domain';
import { and, asc, count, desc, eq, ilike, inArray, ne, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database';
import { memberships, users } from '../../platform/db/schema';
import { mailResetLink } from '../identity';
import { switchOffAuthenticator } from '../auth';
import { queueEmail } from '../../platform/mail/outbox';
import { containing } from '../../platform/db/sql';
import { recordAdminAction } from '../../platform/audit-log';

/**
 * User administration of one tenant (issue 7): the admin folders, role changes, making an
 * admin, disabling and enabling. Every change is checked by the permissions module against the
 * person it is aimed at (not oneself, not a super admin or root, only assignable roles) and
 * recorded in the audit log in its own transaction.
 */

const ROLE_OF_FOLDER: Partial<Record<UserFolder, Role>> = { Signers: 'signer', Submitters: 'submitter', Custodians: 'custodian', Admin: 'admin' };

function folderCondition(folder: UserFolder): SQL | undefined {
  if (folder === 'All') return undefined;
  if (folder === 'RetentionAdmin') return and(eq(memberships.role, 'admin'), eq(memberships.retentionAdmin, true));
  return eq(memberships.role, ROLE_OF_FOLDER[folder]!);
}

const SORTS = {
  name: [sql`lower(${users.firstName})`, sql`lower(${users.lastName})`],
  email: [users.email],
  role: [memberships.role],
  createdOn: [memberships.createdAt],
  lastLoginOn: [users.lastLoginAt],
} as const;

const selection = { user: users, membership: memberships };
type Row = { user: typeof users.$inferSelect; membership: typeof memberships.$inferSelect };

function present({ user, membership }: Row): AdminUser {
  return {
    userId: user.id,
    email: user.email,
    firstName: user.firstName,
    middleName: user.middleName,
    lastName: user.lastName,
    role: membership.role as Role,
    type: user.type,
    // Invited here but not yet joined reads as the invitation it is, whatever the account elsewhere.
    status: (membership.status === 'invited' && user.status === 'enabled' ? 'admininvited' : user.status) as UserStatus,
    enabled: membership.status !== 'disabled',
    retentionAdmin: membership.retentionAdmin,
    passcodeFlag: membership.passcodeFlag,
    hasPhoto: user.photoSha256 !== null,
    twoFactorEnabled: user.totpEnabledAt !== null,
    createdOn: membership.createdAt.toISOString(),
    lastLoginOn: user.lastLoginAt?.toISOString() ?? null,
  };
}

/** GET /msbapi/v1/filteredusers: a page of one folder, and every folder's count. */
export async function listFilteredUsers(options: { db: Db; tenantId: string; query: FilteredUsersQuery }) {
  const { db, tenantId, query } = options;
  const search = query.q
    ? or(
        ilike(users.email, containing(query.q)),
        ilike(sql`${users.firstName} || ' ' || ${users.lastName}`, containing(query.q)),
        ilike(sql`${users.firstName} || ' ' || coalesce(${users.middleName} || ' ', '') || ${users.lastName}`, containing(query.q)),
      )
    : undefined;
  const base = and(eq(memberships.tenantId, tenantId), query.type ? eq(users.type, query.type) : undefined, search);
  const where = and(base, folderCondition(query.filter));
  const direction = query.order === 'desc' ? desc : asc;
  const [rows, [total], folderRows] = await Promise.all([
    db
      .select(selection)
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(where)
      .orderBy(...SORTS[query.sort].map((column) => direction(column)), asc(users.email))
      .limit(query.size)
      .offset(query.pg * query.size),
    db.select({ n: count() }).from(memberships).innerJoin(users, eq(users.id, memberships.userId)).where(where),
    db
      .select({ role: memberships.role, retentionAdmin: memberships.retentionAdmin, n: count() })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(base)
      .groupBy(memberships.role, memberships.retentionAdmin),
  ]);
  const counts = Object.fromEntries(USER_FOLDERS.map((folder) => [folder, 0])) as Record<UserFolder, number>;
  for (const row of folderRows) {
    counts.All += row.n;
    const folder = (Object.entries(ROLE_OF_FOLDER) as Array<[UserFolder, Role]>).find(([, role]) => role === row.role)?.[0];
    if (folder) counts[folder] += row.n;
    if (row.role === 'admin' && row.retentionAdmin) counts.RetentionAdmin += row.n;
  }
  return { filter: query.filter, total: total?.n ?? 0, pg: query.pg, size: query.size, users: rows.map(present), counts };
}

/**
 * PUT /msbapi/v2/users/roles: each change is checked and made on its own; the refused ones are
 * reported. All allowed changes commit together, with one audit record each.
 */
export async function updateRoles(options: { db: Db; actor: Actor & { tenantId: string }; changes: readonly RoleChange[] }) {
  const { actor } = options;
  const failed: Array<{ userId: string; code: number; message: string }> = [];
  const updated = await options.db.transaction(async (db) => {
    const rows = await memberRows(db, actor.tenantId, options.changes.map((c) => c.userId), true);
    const done: AdminUser[] = [];
    for (const change of options.changes) {
      const row = rows.get(change.userId);
      if (!row) {
        failed.push({ userId: change.userId, code: ResponseCode.USER_DOES_NOT_EXIST.code, message: 'No member of this tenant has this id.' });
        continue;
      }
      const decision = authorize(actor, 'user.updateRole', { targetUserId: change.userId, targetRole: row.membership.role as Role, newRole: change.role });
      if (!decision.allowed) {
        failed.push({ userId: change.userId, code: REFUSAL_RESPONSES[decision.reason].code, message: 'You may not change this person’s role.' });
        continue;
      }
      done.push(await applyRole(db, actor, row, change.role, change.retentionAdmin));
    }
    return done;
  });
  if (failed.length > 0) {
    throw new DomainError(ResponseCode.BULK_ROLE_UPDATE_ERROR, `${failed.length} of ${options.changes.length} role changes were refused; the others were made.`, {
      data: { updated, failed },
    });
  }
  return { updated, failed };
}

/** POST /msbapi/v1/users/:userId/admin. */
export async function makeAdmin(options: { db: Db; actor: Actor & { tenantId: string }; userId: string }): Promise<AdminUser> {
  const { actor } = options;
  return options.db.transaction(async (db) => {
    const row = (await memberRows(db, actor.tenantId, [options.userId], true)).get(options.userId);
    if (!row) throw notFound();
    enforce(actor, 'user.updateRole', { targetUserId: options.userId, targetRole: row.membership.role as Role, newRole: 'admin' });
    return applyRole(db, actor, row, 'admin', undefined);
  });
}

/**
 * Whether an account reaches beyond this tenant: a membership or invitation of any other tenant,
 * or root. Such an account is not this tenant's admin's to act on as a whole (accountWide
 * actions in the permissions module).
 */
async function isInOtherTenants(db: Db, user: { id: string; isRoot: boolean }, tenantId: string): Promise<boolean> {
  if (user.isRoot) return true;
  const [elsewhere] = await db
    .select({ tenantId: memberships.tenantId })
    .from(memberships)
    .where(and(eq(memberships.userId, user.id), ne(memberships.tenantId, tenantId)))
    .limit(1);
  return elsewhere !== undefined;
}

/**
 * POST /msbapi/v1/users/:userId/password/reset: mails the member a link to choose a new password
 * (their current one keeps working until they do). Only for a member who has joined and signs in
 * with a password, and whose account is this tenant's alone. The link goes to the member only:
 * the answer never carries it, and admins never read mail texts in the outbox.
 */
export async function resetMemberPassword(options: { db: Db; actor: Actor & { tenantId: string }; userId: string; publicUrl: string }) {
  const { db, actor } = options;
  const row = (await memberRows(db, actor.tenantId, [options.userId], false)).get(options.userId);
  if (!row) throw notFound();
  enforce(actor, 'user.resetPassword', {
    targetUserId: options.userId,
    targetRole: row.membership.role as Role,
    targetInOtherTenants: await isInOtherTenants(db, row.user, actor.tenantId),
  });
  if (row.membership.status === 'invited' || !row.user.passwordHash) {
    throw new DomainError(ResponseCode.INVALID_INPUT, `${row.user.email} has no password yet: re-invite them instead.`, { issues: [{ path: 'userId', message: 'no password to reset' }] });
  }
  await mailResetLink({
    db,
    user: row.user,
    publicUrl: options.publicUrl,
    byAdministrator: true,
    tenantId: actor.tenantId,
    onCommit: (tx) =>
      recordAdminAction({ db: tx, tenantId: actor.tenantId, actorId: actor.userId, action: 'user_password_reset', target: { type: 'user', id: row.user.id, label: row.user.email } }),
  });
  return { userId: row.user.id, email: row.user.email, mailed: true as const };
}

/**
 * POST /msbapi/v2/users/:userId/twofactor/reset: a member who lost their authenticator (and their
 * recovery codes) signs in with the password alone again. Like a password reset it acts on the
 * account, so only on one this tenant has alone (user.resetTwoFactor is accountWide). The
 * change, its audit record and the member's mail commit together.
 */
export async function resetMemberTwoFactor(options: { db: Db; actor: Actor & { tenantId: string }; tenantName: string; userId: string }): Promise<AdminUser> {
  const { actor } = options;
  return options.db.transaction(async (db) => {
    const row = (await memberRows(db, actor.tenantId, [options.userId], true)).get(options.userId);
    if (!row) throw notFound();
    enforce(actor, 'user.resetTwoFactor', {
      targetUserId: options.userId,
      targetRole: row.membership.role as Role,
      targetInOtherTenants: await isInOtherTenants(db, row.user, actor.tenantId),
    });
    if (!row.user.totpEnabledAt) {
      throw new DomainError(ResponseCode.INVALID_INPUT, `${row.user.email} does not sign in with an authenticator app: there is nothing to reset.`, {
        issues: [{ path: 'userId', message: 'two-factor is off' }],
      });
    }
    const user = await switchOffAuthenticator(db, row.user.id);
    await recordAdminAction({
      db,
      tenantId: actor.tenantId,
      actorId: actor.userId,
      action: 'user_two_factor_reset',
      target: { type: 'user', id: row.user.id, label: row.user.email },
    });
    await queueEmail({
      db,
      tenantId: actor.tenantId,
      to: row.user.email,
      subject: 'Two-factor sign-in was switched off on your Pakt account',
      body:
        `An administrator of ${options.tenantName} switched off two-factor sign-in on your Pakt account, and your recovery codes no longer work. ` +
        'Until you switch it on again on your profile, signing in asks for your password alone. If you did not ask for this, tell your administrator.',
      kind: 'two-factor-reset',
    });
    return present({ user, membership: row.membership });
  });
}

/** PUT /msbapi/v2/users/:userId/status: disabled members answer -13 at every request. */
export async function setEnabled(options: { db: Db; actor: Actor & { tenantId: string }; userId: string; enabled: boolean }): Promise<AdminUser> {
  const { actor } = options;
  return options.db.transaction(async (db) => {
    const row = (await memberRows(db, actor.tenantId, [options.userId], true)).get(options.userId);
    if (!row) throw notFound();
    enforce(actor, 'user.disable', { targetUserId: options.userId, targetRole: row.membership.role as Role });
    if (row.membership.status === 'invited') {
      throw new DomainError(ResponseCode.INVALID_INPUT, 'An invitation not yet accepted is cancelled, not disabled.', { issues: [{ path: 'enabled', message: 'invitation pending' }] });
    }
    const status = options.enabled ? 'active' : 'disabled';
    if (row.membership.status === status) return present(row);
    const [membership] = await db
      .update(memberships)
      .set({ status })
      .where(and(eq(memberships.tenantId, actor.tenantId), eq(memberships.userId, options.userId)))
      .returning();
    await recordAdminAction({
      db,
      tenantId: actor.tenantId,
      actorId: actor.userId,
      action: options.enabled ? 'user_enabled' : 'user_disabled',
      target: { type: 'user', id: options.userId, label: row.user.email },
    });
    return present({ user: row.user, membership: membership! });
  });
}

/**
 * PUT /msbapi/v2/users/:userId/passcodeflag: the flag that, with the tenant's rubber-stamp
 * setting, lets a member apply a rubber stamp when they sign (spec §6). Granted like a role: the
 * permissions module refuses it on oneself and on those above the tenant's administration.
 */
export async function setPasscodeFlag(options: { db: Db; actor: Actor & { tenantId: string }; userId: string; passcodeFlag: boolean }): Promise<AdminUser> {
  const { actor } = options;
  return options.db.transaction(async (db) => {
    const row = (await memberRows(db, actor.tenantId, [options.userId], true)).get(options.userId);
    if (!row) throw notFound();
    enforce(actor, 'user.passcodeFlag', { targetUserId: options.userId, targetRole: row.membership.role as Role });
    if (row.membership.passcodeFlag === options.passcodeFlag) return present(row);
    const [membership] = await db
      .update(memberships)
      .set({ passcodeFlag: options.passcodeFlag })
      .where(and(eq(memberships.tenantId, actor.tenantId), eq(memberships.userId, options.userId)))
      .returning();
    await recordAdminAction({
      db,
      tenantId: actor.tenantId,
      actorId: actor.userId,
      action: 'user_passcode_flag_changed',
      target: { type: 'user', id: options.userId, label: row.user.email },
      details: { passcodeFlag: options.passcodeFlag },
    });
    return present({ user: row.user, membership: membership! });
  });
}

async function applyRole(db: Db, actor: Actor & { tenantId: string }, row: Row, role: Role, retentionAdmin: boolean | undefined): Promise<AdminUser> {
  // The retention privilege belongs to administrators only: another role drops it.
  const retention = role === 'admin' ? (retentionAdmin ?? row.membership.retentionAdmin) : false;
  if (row.membership.role === role && row.membership.retentionAdmin === retention) return present(row);
  const [membership] = await db
    .update(memberships)
    .set({ role, retentionAdmin: retention })
    .where(and(eq(memberships.tenantId, actor.tenantId), eq(memberships.userId, row.user.id)))
    .returning();
  await recordAdminAction({
    db,
    tenantId: actor.tenantId,
    actorId: actor.userId,
    action: 'user_role_changed',
    target: { type: 'user', id: row.user.id, label: row.user.email },
    details: { from: row.membership.role, to: role, ...(retention !== row.membership.retentionAdmin ? { retentionAdmin: retention } : {}) },
  });
  return present({ user: row.user, membership: membership! });
}

/** The members among `userIds` with their accounts, locked for the change when asked. */
async function memberRows(db: Db, tenantId: string, userIds: readonly string[], lock: boolean): Promise<Map<string, Row>> {
  if (userIds.length === 0) return new Map();
  const query = db
    .select(selection)
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.tenantId, tenantId), inArray(memberships.userId, [...userIds])))
    .orderBy(asc(memberships.userId));
  const rows = lock ? await query.for('update', { of: memberships }) : await query;
  return new Map(rows.map((row) => [row.user.id, row]));
}
