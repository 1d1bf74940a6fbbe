import type { SessionUser, UserTenant } from '@pakt/domain';
import { and, asc, eq, gt, isNull, lte, ne, or, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database';
import { memberships, tenants, type users } from '../../platform/db/schema';

type UserRow = typeof users.$inferSelect;

/** The tenants a user may act in: disabled, expired and not-yet-accepted memberships are left out. */
export async function loadUserTenants(db: Db, userId: string): Promise<UserTenant[]> {
  const rows = await db
    .select({
      tenantUuid: tenants.id,
      tenantName: tenants.name,
      userRole: memberships.role,
      userLoginType: memberships.loginType,
      expiresAt: memberships.expiresAt,
    })
    .from(memberships)
    .innerJoin(tenants, eq(tenants.id, memberships.tenantId))
    .where(
      and(
        eq(memberships.userId, userId),
        eq(memberships.status, 'active'),
        ne(memberships.role, 'root'),
        // Temporary access that has ended is not offered (answered -15 if asked for directly).
        or(isNull(memberships.expiresAt), gt(memberships.expiresAt, sql`now()`)),
      ),
    )
    .orderBy(asc(tenants.name));
  return rows.map((row) => ({ ...row, expiresAt: row.expiresAt?.toISOString() ?? null })) as UserTenant[];
}

/** Whether some active membership of the user is temporary access that has run out (-15). */
export async function hasEndedTemporaryAccess(db: Db, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ tenantId: memberships.tenantId })
    .from(memberships)
    .where(and(eq(memberships.userId, userId), eq(memberships.status, 'active'), lte(memberships.expiresAt, sql`now()`)))
    .limit(1);
  return !!row;
}

export async function presentSessionUser(db: Db, user: UserRow): Promise<SessionUser> {
  return {
    id: user.id,
    email: user.email,
    firstName: user.firstName,
    middleName: user.middleName,
    lastName: user.lastName,
    type: user.type,
    status: user.status as SessionUser['status'],
    isRoot: user.isRoot,
    totpEnabled: !!user.totpEnabledAt,
    locale: user.locale,
    tenants: await loadUserTenants(db, user.id),
  };
}
