import { DomainError, ResponseCode, type TenantSummary } from '@pakt/domain';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
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
  const admins = await db
    .select({ tenantId: memberships.tenantId, email: users.email, status: memberships.status })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.role, 'admin'), inArray(memberships.tenantId, rows.map((r) => r.id))))
    .orderBy(asc(users.email));
  return rows.map((r) => ({
    tenantUuid: r.id,
    tenantName: r.name,
    tenantCreatedOn: r.createdAt.toISOString(),
    userCount: r.userCount,
    admins: admins
      .filter((a) => a.tenantId === r.id && a.status !== 'disabled')
      .map((a) => ({ email: a.email, status: a.status === 'active' ? ('active' as const) : ('invited' as const) })),
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
