import { type Actor, enforce, notFound, type Superadmin, type SuperadminInvitee, type SuperadminStatusChange } from '@pakt/domain';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database';
import { invitations, memberships, tenants, users } from '../../platform/db/schema';
import { createInvitation, INVITATION_DAYS, loadTenantSettings } from '../identity';
import { recordAdminAction } from '../../platform/audit-log';

/**
 * The super admins of one tenant (spec §6, §7 Superadmins). super_admin is granted only here:
 * by a super admin of the tenant, or by root for a tenant's first one. Each change is recorded
 * in the admin audit log in the transaction that makes it; its mail goes out after the commit.
 */

type Row = { user: typeof users.$inferSelect; membership: typeof memberships.$inferSelect };

function present({ user, membership }: Row, selfId: string | null): Superadmin {
  return {
    userId: user.id,
    email: user.email,
    firstName: user.firstName,
    middleName: user.middleName,
    lastName: user.lastName,
    status: membership.status,
    createdOn: membership.createdAt.toISOString(),
    lastLoginOn: user.lastLoginAt?.toISOString() ?? null,
    isSelf: user.id === selfId,
  };
}

const superadminOf = (tenantId: string) => and(eq(memberships.tenantId, tenantId), eq(memberships.role, 'super_admin'));

/** GET /msbapi/v2/user/getAllSuperadmins. */
export async function listSuperadmins(options: { db: Db; tenantId: string; actorId: string }): Promise<{ superadmins: Superadmin[] }> {
  const rows = await options.db
    .select({ user: users, membership: memberships })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(superadminOf(options.tenantId))
    .orderBy(sql`lower(${users.firstName})`, sql`lower(${users.lastName})`, asc(users.email));
  return { superadmins: rows.map((row) => present(row, options.actorId)) };
}

/**
 * Invites a person as a super admin of the tenant through the ordinary invitation: a new
 * account or one that belongs elsewhere gets a pending membership and the mailed link. The
 * invitation's own refusals stand (-85 already a member in any role: super_admin is not a role
 * to be changed into; -13 disabled; -6 the instance administrator).
 */
export async function inviteSuperadmin(options: {
  db: Db;
  tenant: { id: string; name: string };
  person: SuperadminInvitee;
  invitedBy: string;
  /** The caller, for isSelf; root is nobody's self here. */
  selfId: string | null;
  publicUrl: string;
}): Promise<{ superadmin: Superadmin; inviteLink: string }> {
  const { tenant, person } = options;
  return options.db.transaction(async (db) => {
    const { invitationValidityDays } = await loadTenantSettings(db, tenant.id);
    const { userId, link } = await createInvitation({
      db,
      tenant,
      role: 'super_admin',
      person,
      invitedBy: options.invitedBy,
      publicUrl: options.publicUrl,
      validityDays: invitationValidityDays ?? INVITATION_DAYS,
    });
    await recordAdminAction({
      db,
      tenantId: tenant.id,
      actorId: options.invitedBy,
      action: 'admin_invite',
      target: { type: 'user', id: userId, label: person.email },
      details: { role: 'super_admin' },
    });
    const row = await superadminRow(db, tenant.id, userId, false);
    return { superadmin: present(row!, options.selfId), inviteLink: link };
  });
}

/** Root's bootstrap: the tenant named in the path, or 404. */
export async function inviteTenantSuperadmin(options: { db: Db; tenantId: string; person: SuperadminInvitee; invitedBy: string; publicUrl: string }) {
  const [tenant] = await options.db.select({ id: tenants.id, name: tenants.name }).from(tenants).where(eq(tenants.id, options.tenantId));
  if (!tenant) throw notFound();
  return inviteSuperadmin({ db: options.db, tenant, person: options.person, invitedBy: options.invitedBy, selfId: null, publicUrl: options.publicUrl });
}

/**
 * PUT /msbapi/v2/user/updateSuperadminStatus. Only a super admin of this tenant may be named
 * (anyone else, here or in another tenant, is 404), never oneself (-11). Asking for the state
 * they are in changes and records nothing.
 */
export async function setSuperadminStatus(options: { db: Db; actor: Actor & { tenantId: string }; change: SuperadminStatusChange }): Promise<Superadmin> {
  const { actor, change } = options;
  return options.db.transaction(async (db) => {
    const row = await superadminRow(db, actor.tenantId, change.userId, true);
    if (!row) throw notFound();
    enforce(actor, 'superadmin.updateStatus', { targetUserId: change.userId, targetRole: 'super_admin', targetTenantId: actor.tenantId });
    const current = row.membership.status;
    let next: Superadmin['status'];
    if (change.status === 'disabled') next = 'disabled';
    else if (current !== 'disabled') next = current;
    // Enabling someone disabled before they accepted their invitation makes them invited again:
    // their link (if still good) is how they join, and joining is what makes them active.
    else next = (await hasJoined(db, actor.tenantId, change.userId)) ? 'active' : 'invited';
    if (next === current) return present(row, actor.userId);
    const [membership] = await db
      .update(memberships)
      .set({ status: next })
      .where(and(eq(memberships.tenantId, actor.tenantId), eq(memberships.userId, change.userId)))
      .returning();
    await recordAdminAction({
      db,
      tenantId: actor.tenantId,
      actorId: actor.userId,
      action: 'superadmin_status_changed',
      target: { type: 'user', id: change.userId, label: row.user.email },
      details: { from: current, to: next },
    });
    return present({ user: row.user, membership: membership! }, actor.userId);
  });
}

/**
 * Whether the person ever became a member rather than only being invited: an accepted
 * invitation, or no invitation still waiting (members made otherwise, e.g. by a demo seed).
 */
async function hasJoined(db: Db, tenantId: string, userId: string): Promise<boolean> {
  const rows = await db
    .select({ status: invitations.status })
    .from(invitations)
    .where(and(eq(invitations.tenantId, tenantId), eq(invitations.userId, userId)));
  return rows.some((r) => r.status === 'accepted') || !rows.some((r) => r.status === 'pending');
}

async function superadminRow(db: Db, tenantId: string, userId: string, lock: boolean): Promise<Row | undefined> {
  const query = db
    .select({ user: users, membership: memberships })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(superadminOf(tenantId), eq(memberships.userId, userId)));
  const [row] = lock ? await query.for('update', { of: memberships }) : await query;
  return row;
}
