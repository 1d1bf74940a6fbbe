import type { Db } from '../../platform/db/database';
import type { EpakActor } from './access';
import { recordEpakActivity } from './activity';
import { linkPlaceOf } from './link-place';
import { type MailSettings, withLockedEpak } from './manage';
import { createSigningLink } from './notify';

/**
 * The owner asks for a recipient's signing link to hand on themselves (issue 21): a fresh link
 * (earlier ones stay good until they expire), answered to the owner alone ('epak.manage'), and
 * its showing recorded in the ePak's activity in the same transaction, so whoever reads the log
 * knows the owner has held a link that opens the ePak as that recipient. The token itself is
 * never stored or logged, only its digest (createSigningLink).
 */
export async function showSigningLink(options: { db: Db; actor: EpakActor; epakId: string; recipientId: string; mail: MailSettings; ip?: string | null; now?: Date }) {
  const now = options.now ?? new Date();
  return withLockedEpak(
    options.db,
    options.actor,
    options.epakId,
    async (tx, { epak }) => {
      const place = await linkPlaceOf(tx, epak, options.recipientId);
      const link = await createSigningLink(tx, { epakId: epak.id, recipientId: place.recipientId, publicUrl: options.mail.publicUrl, linkDays: options.mail.linkDays, now });
      await recordEpakActivity(tx, {
        epakId: epak.id,
        actorId: options.actor.userId,
        action: 'linkShown',
        details: { recipientId: place.recipientId, userId: place.userId, email: place.email, step: place.order },
        ip: options.ip ?? null,
      });
      const expiresOn = new Date(now.getTime() + options.mail.linkDays * 24 * 3600 * 1000);
      return { ePakId: epak.id, recipientId: place.recipientId, email: place.email, link, expiresOn: expiresOn.toISOString() };
    },
    'epak.manage',
  );
}
