import { type Notification, NotificationType } from '@pakt/domain';
import { and, count, desc, eq, gte, inArray, isNull } from 'drizzle-orm';
import type { Db } from '../../platform/db/database';
import { epaks, notifications } from '../../platform/db/schema';

/**
 * Reading notifications: always one person's in one tenant, so no query here can reach anyone
 * else's, whatever ids it is given.
 */

type NotificationRow = { notification: typeof notifications.$inferSelect; subject: string | null };

export interface NotificationOwner {
  readonly userId: string;
  readonly tenantId: string;
}

const ownedBy = (owner: NotificationOwner) => and(eq(notifications.userId, owner.userId), eq(notifications.tenantId, owner.tenantId));

export function presentNotification({ notification: row, subject }: NotificationRow): Notification {
  return {
    id: row.id,
    // Rows are written from NotificationType only (record.ts); a type unknown here would be a bug.
    notificationType: NotificationType.parse(row.type),
    epak: row.epakId && subject !== null ? { id: row.epakId, subject } : null,
    title: row.title,
    body: row.body,
    createdOn: row.createdAt.toISOString(),
    isRead: row.readAt !== null,
  };
}

/** Notifications with their ePak's subject as it is now. */
const withSubject = (db: Db) => db.select({ notification: notifications, subject: epaks.subject }).from(notifications).leftJoin(epaks, eq(epaks.id, notifications.epakId));

/** One notification of this person in this tenant, or undefined. */
export async function loadNotification(db: Db, owner: NotificationOwner, id: string): Promise<Notification | undefined> {
  const [row] = await withSubject(db).where(and(eq(notifications.id, id), ownedBy(owner)));
  return row ? presentNotification(row) : undefined;
}

/** The newest `limit`, and how many are unread in all. */
export async function listNotifications(db: Db, owner: NotificationOwner & { limit: number }): Promise<{ items: Notification[]; unread: number }> {
  const rows = await withSubject(db).where(ownedBy(owner)).orderBy(desc(notifications.createdAt), desc(notifications.id)).limit(owner.limit);
  const [unread] = await db.select({ n: count() }).from(notifications).where(and(ownedBy(owner), isNull(notifications.readAt)));
  return { items: rows.map(presentNotification), unread: unread?.n ?? 0 };
}

/** Created at or after `since`, oldest first: what a listener that lost its connection missed. */
export async function notificationsSince(db: Db, owner: NotificationOwner, since: Date): Promise<Notification[]> {
  const rows = await withSubject(db)
    .where(and(ownedBy(owner), gte(notifications.createdAt, since)))
    .orderBy(notifications.createdAt, notifications.id)
    .limit(100);
  return rows.map(presentNotification);
}

/** Marks the ones named (all when `ids` is absent) read; ids of anyone else's are left alone. */
export async function markNotificationsRead(db: Db, options: NotificationOwner & { ids?: readonly string[] | undefined; now?: Date }): Promise<{ updated: number }> {
  if (options.ids && options.ids.length === 0) return { updated: 0 };
  const rows = await db
    .update(notifications)
    .set({ readAt: options.now ?? new Date() })
    .where(and(ownedBy(options), isNull(notifications.readAt), ...(options.ids ? [inArray(notifications.id, [...options.ids])] : [])))
    .returning({ id: notifications.id });
  return { updated: rows.length };
}
