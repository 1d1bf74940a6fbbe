import { sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database';
import { epakUserStates } from '../../platform/db/schema';
import { type EpakActor, loadVisibleEpak } from '../epaks';

/**
 * PUT /msbapi/v2/epaks/{ePakId}/read: the caller marks an ePak read or unread in their inbox.
 * Only their own read time changes (the inbox trigger copies it into their rows at commit); an
 * ePak already read keeps its first read time. Like the star, it is the person's own bookkeeping,
 * not an action on the ePak, so it works on deleted, archived and ended ePaks alike and records
 * no activity. Opening every document (recordDocumentView) still marks it read by itself, and the
 * documents opened stay opened: view enforcement does not start over when someone marks unread.
 */
export async function markEpakRead(options: { db: Db; actor: EpakActor; epakId: string; isRead: boolean; now?: Date }): Promise<{ id: string; isRead: boolean }> {
  const { db, actor } = options;
  const { epak } = await loadVisibleEpak(db, actor, options.epakId);
  const readAt = options.isRead ? (options.now ?? new Date()) : null;
  await db
    .insert(epakUserStates)
    .values({ epakId: epak.id, userId: actor.userId, readAt })
    .onConflictDoUpdate({
      target: [epakUserStates.epakId, epakUserStates.userId],
      set: { readAt: options.isRead ? sql`coalesce(${epakUserStates.readAt}, excluded.read_at)` : null },
    });
  return { id: epak.id, isRead: options.isRead };
}
