import { DomainError, type EpakStatus, notFound, ResponseCode, transition } from '@pakt/domain';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../http/app-context';
import type { Db } from '../../platform/db/database';
import { epakRecipients } from '../../platform/db/schema';
import { assertActionable, assertNotOverdue, type EpakActor, loadVisibleEpak } from './access';
import { recordEpakActivity } from './activity';
import { loadEngineState, storeEngineState } from './engine-store';
import { queueEngineEffects } from './notify';

/**
 * A recipient rejects an ePak (spec §7 POST …/reject). The domain engine decides; this loads the
 * ePak under its row lock, finds the caller among the recipients, and stores the answer with its
 * activity record (the comment included) and the owner's mail in one transaction. Someone who is
 * neither its owner nor one of its recipients is told it does not exist.
 */
export async function rejectEpak(options: {
  ctx: Pick<AppContext, 'config'> & { database: { db: Db } };
  actor: EpakActor;
  epakId: string;
  comment: string;
  ip?: string | null;
  now?: Date;
}): Promise<{ status: EpakStatus }> {
  const { ctx } = options;
  const at = options.now ?? new Date();
  return ctx.database.db.transaction(async (tx) => {
    const { epak } = await loadVisibleEpak(tx, options.actor, options.epakId, { forUpdate: true });
    assertActionable(epak);
    assertNotOverdue(epak, at);
    const stored = await loadEngineState(tx, epak);
    const mine = stored.recipients.filter((r) => r.userId === options.actor.userId);
    if (mine.length === 0 && epak.ownerId !== options.actor.userId) throw notFound('No such ePak.');
    // The caller's place in the step under way if they have one; otherwise any of theirs, which
    // the engine refuses with the reason that fits (-28 not pending, -23 rejected, -72 completed).
    const current = mine.find((r) => stored.stepOrderById.get(r.stepId) === epak.currentStep) ?? mine[0];
    const result = transition(stored.state, { type: 'reject', recipientId: current?.id ?? '' });
    if (!result.ok) throw new DomainError(ResponseCode[result.code], result.reason);
    await storeEngineState(tx, epak.id, stored, result, { endedAt: at });
    await tx.update(epakRecipients).set({ actedAt: at }).where(eq(epakRecipients.id, current!.id));
    await recordEpakActivity(tx, {
      epakId: epak.id,
      actorId: options.actor.userId,
      action: 'rejected',
      details: { comment: options.comment, effects: result.effects },
      ip: options.ip ?? null,
    });
    await queueEngineEffects(tx, {
      epakId: epak.id,
      effects: result.effects,
      publicUrl: ctx.config.publicUrl,
      linkDays: ctx.config.signingLinkDays,
      now: at,
      actorId: options.actor.userId,
      comment: options.comment,
    });
    return { status: result.state.status };
  });
}
