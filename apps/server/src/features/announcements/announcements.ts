import { type Announcement, type AnnouncementInput, notFound } from '@pakt/domain';
import { and, asc, desc, eq, gt, isNull, or, type SQL } from 'drizzle-orm';
import type { Db } from '../../platform/db/database';
import { announcements } from '../../platform/db/schema';

/**
 * Whose announcements a call is about: one tenant's own, or the instance-wide ones (tenant_id
 * null, root's). Every query below is scoped by it, so an admin can never reach another
 * tenant's rows, nor root's, and root never reaches a tenant's.
 */
export type AnnouncementScope = { readonly tenantId: string } | { readonly instance: true };

function inScope(scope: AnnouncementScope): SQL {
  return 'tenantId' in scope ? eq(announcements.tenantId, scope.tenantId) : isNull(announcements.tenantId);
}

function scopeTenantId(scope: AnnouncementScope): string | null {
  return 'tenantId' in scope ? scope.tenantId : null;
}

function present(row: typeof announcements.$inferSelect): Announcement {
  return {
    id: row.id,
    text: row.text,
    startTime: row.startTime.toISOString(),
    endTime: row.endTime.toISOString(),
    tenantId: row.tenantId,
  };
}

// The public banner call is unauthenticated; a tenant with runaway announcements must not make it
// heavy. Nobody reads more than a handful at once.
const CURRENT_LIMIT = 50;
// The admin list keeps past announcements; the newest few hundred are all anyone will page through.
const ADMIN_LIST_LIMIT = 500;

/**
 * What the banner needs: announcements whose end is still ahead (the banner itself waits for the
 * start), instance-wide ones plus, for a member, their tenant's own, earliest start first.
 */
export async function listCurrentAnnouncements(options: { db: Db; tenantId: string | null; now?: Date }): Promise<Announcement[]> {
  const { db, tenantId } = options;
  const now = options.now ?? new Date();
  const whose = tenantId ? or(isNull(announcements.tenantId), eq(announcements.tenantId, tenantId)) : isNull(announcements.tenantId);
  const rows = await db
    .select()
    .from(announcements)
    .where(and(gt(announcements.endTime, now), whose))
    .orderBy(asc(announcements.startTime), asc(announcements.id))
    .limit(CURRENT_LIMIT);
  return rows.map(present);
}

/** An administrator's list: every announcement of the scope, past ones too, latest start first. */
export async function listScopeAnnouncements(options: { db: Db; scope: AnnouncementScope }): Promise<Announcement[]> {
  const rows = await options.db
    .select()
    .from(announcements)
    .where(inScope(options.scope))
    .orderBy(desc(announcements.startTime), asc(announcements.id))
    .limit(ADMIN_LIST_LIMIT);
  return rows.map(present);
}

export async function createAnnouncement(options: {
  db: Db;
  scope: AnnouncementScope;
  input: AnnouncementInput;
  createdBy: string;
}): Promise<Announcement> {
  const { db, scope, input } = options;
  const [row] = await db
    .insert(announcements)
    .values({
      tenantId: scopeTenantId(scope),
      text: input.text,
      startTime: new Date(input.startTime),
      endTime: new Date(input.endTime),
      createdBy: options.createdBy,
    })
    .returning();
  return present(row!);
}

/** Changes one announcement of the scope; one outside it (another tenant's, root's) is 404. */
export async function updateAnnouncement(options: {
  db: Db;
  scope: AnnouncementScope;
  announcementId: string;
  input: AnnouncementInput;
}): Promise<Announcement> {
  const { db, scope, input } = options;
  const [row] = await db
    .update(announcements)
    .set({ text: input.text, startTime: new Date(input.startTime), endTime: new Date(input.endTime), updatedAt: new Date() })
    .where(and(eq(announcements.id, options.announcementId), inScope(scope)))
    .returning();
  if (!row) throw notFound();
  return present(row);
}

/** Removes one announcement of the scope; one outside it is 404 and stays. */
export async function deleteAnnouncement(options: { db: Db; scope: AnnouncementScope; announcementId: string }): Promise<{ id: string }> {
  const [row] = await options.db
    .delete(announcements)
    .where(and(eq(announcements.id, options.announcementId), inScope(options.scope)))
    .returning({ id: announcements.id });
  if (!row) throw notFound();
  return row;
}
