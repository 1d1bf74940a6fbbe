import type { SessionUser, UserTenant } from '@pakt/domain';
import { and, asc, eq, ne } from 'drizzle-orm';
import type { Db } from '../db/database';
import { memberships, tenants, type users } from '../db/schema';

type UserRow = typeof users.$inferSelect;

/** The tenants a user may act in: disabled and not-yet-accepted memberships are left out. */
export async function loadUserTenants(db: Db, userId: string): Promise<UserTenant[]> {
  const rows = await db
    .select({ tenantUuid: tenants.id, tenantName: tenants.name, userRole: memberships.role, userLoginType: memberships.loginType })
    .from(memberships)
    .innerJoin(tenants, eq(tenants.id, memberships.tenantId))
    .where(and(eq(memberships.userId, userId), eq(memberships.status, 'active'), ne(memberships.role, 'root')))
    .orderBy(asc(tenants.name));
  return rows as UserTenant[];
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
