import { displayName, invalidInput, REMINDER_INTERVAL_MINUTES } from '@pakt/domain';
import { eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/database';
import { epakRecipients, users } from '../../platform/db/schema';
import { queueEmail } from '../../platform/mail/outbox';
import type { EpakActor } from './access';
import { recordEpakActivity } from './activity';
import { linkPlaceOf } from './link-place';
import { type MailSettings, withLockedEpak } from './manage';
import { createSigningLink } from './notify';

/**
 * The owner mails a recipient who is sent links a fresh one (issue 21), for a lost or expired
 * link. It is a nudge like a reminder and shares its budget: one an hour per recipient. The mail
 * goes to the outbox in the same transaction as the link and the activity record, so it leaves
 * (after commit, by the outbox job) only if both are stored; a refusal stores and sends nothing.
 */
export async function resendSigningLink(options: { db: Db; actor: EpakActor; epakId: string; recipientId: string; mail: MailSettings; ip?: string | null; now?: Date }) {
  const now = options.now ?? new Date();
  return withLockedEpak(
    options.db,
    options.actor,
    options.epakId,
    async (tx, { epak }) => {
      const place = await linkPlaceOf(tx, epak, options.recipientId);
      const next = place.lastRemindedAt && new Date(place.lastRemindedAt.getTime() + REMINDER_INTERVAL_MINUTES * 60_000);
      if (next && next.getTime() > now.getTime()) {
        throw invalidInput(
          `${place.email} was sent a reminder or link at ${place.lastRemindedAt!.toISOString()}; one an hour at most, so the next can go at ${next.toISOString()}.`,
          [{ path: 'recipientId', message: 'reminded recently' }],
        );
      }
      const link = await createSigningLink(tx, { epakId: epak.id, recipientId: place.recipientId, publicUrl: options.mail.publicUrl, linkDays: options.mail.linkDays, now });
      const [owner] = await tx.select().from(users).where(eq(users.id, epak.ownerId));
      const sender = owner ? displayName(owner) : 'The sender';
      await queueEmail({
        db: tx,
        tenantId: epak.tenantId,
        to: place.email,
        subject: `Your link: ${epak.subject}`,
        body: [
          `Hello ${displayName(place)},`,
          '',
          `${sender} sends you a new link to "${epak.subject}".`,
          '',
          `Open it here: ${link}`,
          '',
          `The link is good for ${options.mail.linkDays} days.`,
          '',
          'Pakt',
        ].join('\n'),
        kind: 'epak_link_resent',
      });
      await tx.update(epakRecipients).set({ lastRemindedAt: now }).where(eq(epakRecipients.id, place.recipientId));
      await recordEpakActivity(tx, {
        epakId: epak.id,
        actorId: options.actor.userId,
        action: 'linkResent',
        details: { recipientId: place.recipientId, userId: place.userId, email: place.email, step: place.order },
        ip: options.ip ?? null,
      });
      return { ePakId: epak.id, recipientId: place.recipientId, email: place.email, sentOn: now.toISOString() };
    },
    'epak.manage',
  );
}
