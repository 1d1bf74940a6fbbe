import type { EpakManagement } from '@pakt/domain';
import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../platform/db/database';
import { epakRecipients, memberships } from '../../platform/db/schema';
import { type EpakActor, loadVisibleEpak } from './access';

/**
 * GET …/manage (issue 21): what the owner's management view needs besides the detail. Read
 * without the row lock (nothing changes); owner-only like every management action, so a
 * recipient is told 403 and anyone else 404. Deleted and archived ePaks answer too: their
 * owner still reads where everyone stood.
 */
export async function loadEpakManagement(options: { db: Db; actor: EpakActor; epakId: string }): Promise<EpakManagement> {
  const { db } = options;
  const { epak } = await loadVisibleEpak(db, options.actor, options.epakId, { action: 'epak.manage' });
  const places = await db.select().from(epakRecipients).where(eq(epakRecipients.epakId, epak.id));
  const userIds = [...new Set(places.map((place) => place.userId))];
  const members = userIds.length
    ? await db
        .select({ userId: memberships.userId })
        .from(memberships)
        .where(and(eq(memberships.tenantId, epak.tenantId), eq(memberships.status, 'active'), inArray(memberships.userId, userIds)))
    : [];
  const active = new Set(members.map((member) => member.userId));
  return {
    ePakId: epak.id,
    archivedOn: epak.archivedAt?.toISOString() ?? null,
    archivalPeriodDays: epak.archivalPeriodDays,
    recipients: places.map((place) => ({
      recipientId: place.id,
      actedOn: place.actedAt?.toISOString() ?? null,
      lastRemindedOn: place.lastRemindedAt?.toISOString() ?? null,
      // The same choice notify.ts makes when it mails them.
      receivesSigningLink: !active.has(place.userId),
      delegatedFromId: place.delegatedFromId,
    })),
  };
}
