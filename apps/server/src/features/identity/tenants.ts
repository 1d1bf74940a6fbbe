import { DomainError, ResponseCode, type TenantSummary } from '@pakt/domain';
import { and, asc, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database';
import { memberships, tenants, users } from '../../platform/db/schema';
import { createInvitation } from './invitations';

export async function listTenantSummaries(db: Db, onlyIds?: string[]): Promise<TenantSummary[]> {
  const rows = await db
    .select({
      id: tenants.id,
      name: tenants.name,
      createdAt: tenants.createdAt,
      userCount: sql<number>`(select count(*)::int from ${memberships} m where m.tenant_id = ${tenants.id})`,
    })
    .from(tenants)
    .where(onlyIds ? inArray(tenants.id, onlyIds) : undefined)
    .orderBy(asc(tenants.name));
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const admins = await db
    .select({ tenantId: memberships.tenantId, email: users.email, status: memberships.status, verifiedAt: users.emailVerifiedAt })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.role, 'admin'), inArray(memberships.tenantId, ids)))
    .orderBy(asc(users.email));
  // A self sign-up makes its tenant with an active membership of an account whose address is not
  // confirmed yet: until someone confirmed is an active member, nobody can work in it.
  const working = await db
    .selectDistinct({ tenantId: memberships.tenantId })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(inArray(memberships.tenantId, ids), eq(memberships.status, 'active'), isNotNull(users.emailVerifiedAt)));
  const unconfirmed = await db
    .selectDistinct({ tenantId: memberships.tenantId })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(inArray(memberships.tenantId, ids), eq(memberships.status, 'active'), isNull(users.emailVerifiedAt)));
  const isWorking = new Set(working.map((w) => w.tenantId));
  const awaitsConfirmation = new Set(unconfirmed.map((w) => w.tenantId));
  return rows.map((r) => ({
    tenantUuid: r.id,
    tenantName: r.name,
    tenantCreatedOn: r.createdAt.toISOString(),
    status: awaitsConfirmation.has(r.id) && !isWorking.has(r.id) ? ('PENDING' as const) : ('ACTIVE' as const),
    userCount: r.userCount,
    admins: admins
      .filter((a) => a.tenantId === r.id && a.status !== 'disabled')
      .map((a) => ({ email: a.email, status: a.status !== 'active' ? ('invited' as const) : a.verifiedAt ? ('active' as const) : ('unconfirmed' as const) })),
  }));
}

/** Root's command: a new tenant and an invitation for its first admin, in one transaction. */
export async function createTenantWithAdmin(options: {
  db: Db;
  tenantName: string;
  admin: { email: string; firstName: string; middleName?: string | undefined; lastName: string };
  invitedBy: string;
  publicUrl: string;
}) {
  const result = await options.db.transaction(async (db) => {
    const [clash] = await db
      .select({ id: tenants.id })
      .from(tenants)
      .where(sql`lower(${tenants.name}) = lower(${options.tenantName})`);
    if (clash) throw new DomainError(ResponseCode.TENANT_ALREADY_EXISTS, 'A tenant with this name already exists.');
    const [tenant] = await db.insert(tenants).values({ name: options.tenantName }).returning();
    const invitation = await createInvitation({
      db,
      tenant: tenant!,
      role: 'admin',
      person: options.admin,
      invitedBy: options.invitedBy,
      publicUrl: options.publicUrl,
    });
    return { tenantId: tenant!.id, inviteLink: invitation.link };
  });
  const [summary] = await listTenantSummaries(options.db, [result.tenantId]);
  return { tenant: summary!, inviteLink: result.inviteLink };
}
