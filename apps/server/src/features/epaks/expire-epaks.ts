import { DomainError, ResponseCode, transition } from '@pakt/domain';
import { and, asc, eq, isNull, lte } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../platform/db/database';
import { epaks } from '../../platform/db/schema';
import { recordEpakActivity } from './activity';
import { loadEngineState } from './engine-store';
import { applyEngineAnswer, type MailSettings } from './manage';
import { queueEngineEffects } from './notify';
import { defineJob } from '../../platform/jobs/job-queue';

/** Every minute: an ePak is not signed long after its expiry just because the sweep was asleep. */
export const EXPIRE_EPAKS_CRON = '* * * * *';

/** ePaks handled per run; a backlog larger than this is finished by the next runs. */
const BATCH = 200;

/**
 * Ends every ePak under way whose expiry has passed, through the engine's 'expire' event (open
 * places become Skipped), one transaction per ePak under its row lock, with its activity record
 * and the owner's mail. The row is read again under the lock, so an ePak completed, stopped or
 * given a later expiry meanwhile is left alone. One ePak failing does not hold up the others.
 */
export async function expireDueEpaks(options: { db: Db; mail: MailSettings; now?: Date; onError?: (epakId: string, error: unknown) => void }): Promise<string[]> {
  const { db } = options;
  const now = options.now ?? new Date();
  const due = await db
    .select({ id: epaks.id })
    .from(epaks)
    .where(and(eq(epaks.status, 'InProgress'), lte(epaks.expiresAt, now), isNull(epaks.deletedAt), isNull(epaks.archivedAt)))
    .orderBy(asc(epaks.expiresAt))
    .limit(BATCH);
  const expired: string[] = [];
  for (const { id } of due) {
    try {
      const done = await db.transaction(async (tx) => {
        const [epak] = await tx.select().from(epaks).where(eq(epaks.id, id)).for('update');
        if (!epak || epak.status !== 'InProgress' || !epak.expiresAt || epak.expiresAt.getTime() > now.getTime() || epak.deletedAt || epak.archivedAt) return false;
        const stored = await loadEngineState(tx, epak);
        const result = transition(stored.state, { type: 'expire' });
        if (!result.ok) throw new DomainError(ResponseCode[result.code], result.reason);
        await applyEngineAnswer(tx, epak, stored, result, { now });
        await recordEpakActivity(tx, {
          epakId: epak.id,
          actorId: null,
          action: 'expired',
          details: { expiresOn: epak.expiresAt.toISOString(), effects: result.effects },
        });
        await queueEngineEffects(tx, { epakId: epak.id, effects: result.effects, publicUrl: options.mail.publicUrl, linkDays: options.mail.linkDays, now });
        return true;
      });
      if (done) expired.push(id);
    } catch (error) {
      options.onError?.(id, error);
    }
  }
  return expired;
}

export function expireEpaksJob(options: { db: Db; mail: MailSettings; onExpired?: (epakIds: string[]) => void; onError?: (epakId: string, error: unknown) => void }) {
  return defineJob({
    name: 'epaks.expire',
    payload: z.object({}),
    retryLimit: 0,
    async run() {
      const expired = await expireDueEpaks({ db: options.db, mail: options.mail, ...(options.onError ? { onError: options.onError } : {}) });
      options.onExpired?.(expired);
    },
  });
}
