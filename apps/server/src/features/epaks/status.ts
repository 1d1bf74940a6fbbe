import { DomainError, type EpakStatus, invalidInput, ResponseCode, type SignerStatus, transition } from '@pakt/domain';
import { and, eq } from 'drizzle-orm';
import type { AppContext } from '../../http/app-context';
import type { Db } from '../../platform/db/database';
import { epakDocuments, epakRecipients, epakSteps, epakUserStates, epaks } from '../../platform/db/schema';
import { assertActionable, assertNotOverdue, type EpakActor, loadViewer, loadVisibleEpak } from './access';
import { recordEpakActivity } from './activity';
import { loadEngineState, storeEngineState } from './engine-store';
import { queueEngineEffects } from './notify';

type Ctx = Pick<AppContext, 'config'> & { database: { db: Db } };

/**
 * POST epak/status. Reviewed: a reviewer of the step under way has read the documents (view
 * enforcement applies) and lets the ePak move on. Stopped: its owner ends an ePak under way.
 * Each is one engine event stored with its activity record and its mail in one transaction.
 */
export async function setEpakStatus(options: {
  ctx: Ctx;
  actor: EpakActor;
  epakId: string;
  status: 'Reviewed' | 'Stopped';
  comment?: string | undefined;
  ip?: string | null;
  now?: Date;
}): Promise<{ ePakId: string; status: EpakStatus; signerStatus: SignerStatus | null }> {
  const { ctx, actor } = options;
  const db = ctx.database.db;
  const at = options.now ?? new Date();
  return db.transaction(async (tx) => {
    // Stopping is the owner's; marking reviewed a recipient's (the policies of packages/domain).
    const { epak } = await loadVisibleEpak(tx, actor, options.epakId, { forUpdate: true, action: options.status === 'Stopped' ? 'epak.manage' : 'epak.respond' });
    assertActionable(epak);
    const stored = await loadEngineState(tx, epak);
    let recipientId: string | null = null;
    let result;
    if (options.status === 'Stopped') {
      result = transition(stored.state, { type: 'stop' });
    } else {
      const mine = await tx
        .select({ id: epakRecipients.id, order: epakSteps.position, type: epakSteps.type })
        .from(epakRecipients)
        .innerJoin(epakSteps, eq(epakSteps.id, epakRecipients.stepId))
        .where(and(eq(epakRecipients.epakId, epak.id), eq(epakRecipients.userId, actor.userId)));
      const place = mine.find((r) => r.order === epak.currentStep) ?? mine[0];
      if (!place) throw new Error('epak.respond admitted someone with no place in the ePak');
      recipientId = place.id;
      if (place.order === epak.currentStep && place.type !== 'REVIEW') {
        throw invalidInput('This step asks for a signature, not a review.', [{ path: 'status', message: place.type }]);
      }
      const viewer = await loadViewer(tx, actor, epak);
      if (epak.status === 'InProgress' && place.order === epak.currentStep && !viewer.eligibleForAction) {
        throw invalidInput('This ePak must be read before you act: open every document first.', [{ path: 'viewEnforced', message: 'notRead' }]);
      }
      assertNotOverdue(epak, at);
      result = transition(stored.state, { type: 'review', recipientId: place.id });
    }
    if (!result.ok) throw new DomainError(ResponseCode[result.code], result.reason);
    await storeEngineState(tx, epak.id, stored, result, result.state.status === 'InProgress' ? {} : { endedAt: at });
    if (recipientId) await tx.update(epakRecipients).set({ actedAt: at }).where(eq(epakRecipients.id, recipientId));
    await recordEpakActivity(tx, {
      epakId: epak.id,
      actorId: actor.userId,
      action: options.status === 'Stopped' ? 'stopped' : 'reviewed',
      details: { ...(options.comment ? { comment: options.comment } : {}), status: result.state.status, effects: result.effects },
      ip: options.ip ?? null,
    });
    await queueEngineEffects(tx, {
      epakId: epak.id,
      effects: result.effects,
      publicUrl: ctx.config.publicUrl,
      linkDays: ctx.config.signingLinkDays,
      now: at,
      actorId: actor.userId,
      // A reviewer's comment reaches the owner as a reviewerComments notification.
      ...(options.status === 'Reviewed' ? { comment: options.comment, commentBy: 'reviewer' as const } : {}),
    });
    const after = recipientId ? result.state.steps.flatMap((s) => s.recipients).find((r) => r.recipientId === recipientId) : undefined;
    return { ePakId: epak.id, status: result.state.status, signerStatus: after?.status ?? null };
  });
}

/**
 * PUT …/document/{documentId}/view: the caller opened a document. Once every document of the
 * ePak is opened, it is read (isRead), which view enforcement waits for. Recording a view is not
 * an action on the ePak, so it works on any ePak the caller may see, ended ones included.
 */
export async function recordDocumentView(options: { db: Db; actor: EpakActor; epakId: string; documentId: string; now?: Date; smsAvailable?: boolean }) {
  const { db, actor } = options;
  const { epak } = await loadVisibleEpak(db, actor, options.epakId);
  const documentIds = (await db.select({ id: epakDocuments.id }).from(epakDocuments).where(eq(epakDocuments.epakId, epak.id))).map((d) => d.id);
  if (!documentIds.includes(options.documentId)) throw new DomainError(ResponseCode.DOCUMENT_DOES_NOT_EXIST, 'No such document in this ePak.');
  await db.transaction(async (tx) => {
    await tx.insert(epakUserStates).values({ epakId: epak.id, userId: actor.userId }).onConflictDoNothing();
    const [state] = await tx.select().from(epakUserStates).where(eqPair(epak.id, actor.userId)).for('update');
    const viewed = new Set([...((state?.viewedDocumentIds as string[]) ?? []), options.documentId]);
    const allRead = documentIds.every((id) => viewed.has(id));
    await tx
      .update(epakUserStates)
      .set({ viewedDocumentIds: [...viewed], ...(allRead && !state?.readAt ? { readAt: options.now ?? new Date() } : {}) })
      .where(eqPair(epak.id, actor.userId));
  });
  const [fresh] = await db.select().from(epaks).where(eq(epaks.id, epak.id));
  return loadViewer(db, actor, fresh!, { smsAvailable: options.smsAvailable ?? false });
}

const eqPair = (epakId: string, userId: string) => and(eq(epakUserStates.epakId, epakId), eq(epakUserStates.userId, userId));
