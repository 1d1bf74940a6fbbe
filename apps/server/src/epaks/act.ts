import { DomainError, type EpakStatus, notFound, ResponseCode, transition } from '@pakt/domain';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/database';
import { epaks } from '../db/schema';
import { recordEpakActivity } from './activity';
import { loadEngineState, storeEngineState } from './engine-store';

type Actor = { tenantId: string; userId: string };

/**
 * A recipient rejects an ePak (spec §7 POST …/reject). The domain engine decides; this loads the
 * ePak under its row lock, finds the caller among the recipients, and stores the answer with its
 * activity record (the comment included) in one transaction. Someone who is neither its owner
 * nor one of its recipients is told it does not exist.
 */
export async function rejectEpak(options: { db: Db; actor: Actor; epakId: string; comment: string; ip?: string | null }): Promise<{ status: EpakStatus }> {
  return options.db.transaction(async (txRaw) => {
    const tx = txRaw as unknown as Db;
    const [epak] = await tx
      .select()
      .from(epaks)
      .where(and(eq(epaks.id, options.epakId), eq(epaks.tenantId, options.actor.tenantId)))
      .for('update');
    if (!epak) throw notFound('No such ePak.');
    const stored = await loadEngineState(tx, epak);
    const mine = stored.recipients.filter((r) => r.userId === options.actor.userId);
    if (mine.length === 0 && epak.ownerId !== options.actor.userId) throw notFound('No such ePak.');
    // The caller's place in the step under way if they have one; otherwise any of theirs, which
    // the engine refuses with the reason that fits (-28 not pending, -23 rejected, -72 completed).
    const current = mine.find((r) => stored.stepOrderById.get(r.stepId) === epak.currentStep) ?? mine[0];
    const result = transition(stored.state, { type: 'reject', recipientId: current?.id ?? '' });
    if (!result.ok) throw new DomainError(ResponseCode[result.code], result.reason);
    await storeEngineState(tx, epak.id, stored, result);
    await recordEpakActivity(tx, {
      epakId: epak.id,
      actorId: options.actor.userId,
      action: 'rejected',
      details: { comment: options.comment, effects: result.effects },
      ip: options.ip ?? null,
    });
    return { status: result.state.status };
  });
}
