import type { UserInfo } from '@pakt/domain';
import { eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/database';
import { users } from '../../platform/db/schema';

type UserRow = typeof users.$inferSelect;

export function presentUserInfo(user: UserRow): UserInfo {
  return {
    id: user.id,
    email: user.email,
    status: user.status as UserInfo['status'],
    type: user.type,
    title: user.title,
    firstName: user.firstName,
    middleName: user.middleName,
    lastName: user.lastName,
    phone: user.phone,
    company: user.company,
    department: user.department,
    timeZone: user.timeZone,
    locale: user.locale,
    createdOn: user.createdAt.toISOString(),
    totpEnabled: !!user.totpEnabledAt,
    hasPhoto: !!user.photoSha256,
  };
}

type ProfileChanges = Partial<Pick<UserRow, 'title' | 'firstName' | 'middleName' | 'lastName' | 'phone' | 'company' | 'department' | 'timeZone' | 'locale'>>;

export async function updateOwnProfile(options: { db: Db; userId: string; changes: ProfileChanges }): Promise<UserRow> {
  // Only the fields sent change; undefined means "left out", null means "clear it".
  const changes = Object.fromEntries(Object.entries(options.changes).filter(([, v]) => v !== undefined));
  const [updated] =
    Object.keys(changes).length > 0
      ? await options.db.update(users).set(changes).where(eq(users.id, options.userId)).returning()
      : await options.db.select().from(users).where(eq(users.id, options.userId));
  return updated!;
}
