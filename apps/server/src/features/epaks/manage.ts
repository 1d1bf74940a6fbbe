import {
  type BulkSignResult,
  displayName,
  DomainError,
  type EngineResult,
  type EpakDeleteResult,
  type EpakStatus,
  flattenTags,
  invalidInput,
  isSignatureFamilyTag,
  isTagFor,
  notFound,
  REMINDER_INTERVAL_MINUTES,
  ResponseCode,
  type SignerStatus,
  type Tag,
  transition,
} from '@pakt/domain';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { AppContext } from '../../http/app-context';
import type { Db } from '../../platform/db/database';
import { epakDocumentRevisions, epakDocuments, epakRecipients, epakSteps, epaks, epakUserStates, users } from '../../platform/db/schema';
import { assertActionable, type EpakAction, type EpakActor, type EpakRow, type LoadedEpak, loadViewer, loadVisibleEpak } from './access';
import { recordEpakActivity } from './activity';
import { loadEngineState, type StoredEngineState, storeEngineState } from './engine-store';
import { reachedUserIds, recordNotifications } from '../notifications';
import { notifyRecipients, queueEngineEffects } from './notify';
import { fillSignerTags, signDocument } from './sign';

/**
 * The management actions of an ePak once sent (issue 5): star, delete, archive, notification
 * date, archival period, reminders, removing a recipient, editing, bulk sign. Delegation is in
 * delegate.ts, replacing a recipient in replace-recipient.ts. Every change holds the ePak's row
 * lock and commits with its activity record and the mail it calls for; owner-only actions answer
 * a recipient 403 and anyone else 404.
 */

/** What the mail an action queues needs to know (notify.ts). */
export interface MailSettings {
  readonly publicUrl: string;
  readonly linkDays: number;
}

export type EngineAnswer = Extract<EngineResult, { ok: true }>;

export const ENDED_STATUSES: readonly EpakStatus[] = ['Completed', 'Rejected', 'Stopped', 'Expired'];
const isEnded = (status: string) => (ENDED_STATUSES as readonly string[]).includes(status);
const isWaiting = (status: string) => status === 'Pending' || status === 'DelegatePending';

/**
 * One transaction holding the ePak's row lock, for an ePak the caller may see (else 404) and, with
 * `action`, may do that to (the policy's answer, else 403).
 */
export function withLockedEpak<T>(db: Db, actor: EpakActor, epakId: string, work: (tx: Db, loaded: LoadedEpak) => Promise<T>, action: EpakAction = 'epak.view'): Promise<T> {
  return db.transaction(async (tx) => {
    return work(tx, await loadVisibleEpak(tx, actor, epakId, { forUpdate: true, action }));
  });
}

export function engineRefusal(result: Extract<EngineResult, { ok: false }>): DomainError {
  return new DomainError(ResponseCode[result.code], result.reason);
}

/** Why an ePak that has ended refuses a change of its course (-72, -23, else -6). */
export function assertNotEnded(epak: EpakRow, what: string): void {
  if (!isEnded(epak.status)) return;
  if (epak.status === 'Completed') throw new DomainError(ResponseCode.EPAK_ALREADY_COMPLETED, `The ePak is already completed: ${what} no longer applies.`);
  if (epak.status === 'Rejected') throw new DomainError(ResponseCode.EPAK_REJECTED, `The ePak was rejected: ${what} no longer applies.`);
  throw invalidInput(`The ePak is ${epak.status}: ${what} no longer applies.`, [{ path: 'status', message: epak.status }]);
}

/** A place the engine made that needs its row: who, in which step, delegated from whom. */
export interface AddedRecipient {
  readonly recipientId: string;
  readonly userId: string;
  readonly delegatedFromId: string | null;
  /** The new place confirms a one-time code before acting (inherited from the place it replaces). */
  readonly verificationRequired?: boolean;
}

/**
 * Stores an engine answer: places the engine dropped lose their row, places it made get one
 * (at the end of their step), every status that changed is written, and an ePak that has just
 * ended gets its end time.
 */
export async function applyEngineAnswer(
  tx: Db,
  epak: EpakRow,
  stored: StoredEngineState,
  result: EngineAnswer,
  options: { now: Date; added?: readonly AddedRecipient[]; extra?: Partial<typeof epaks.$inferInsert> },
): Promise<void> {
  const kept = new Set(result.state.steps.flatMap((step) => step.recipients.map((r) => r.recipientId)));
  const dropped = stored.recipients.filter((r) => !kept.has(r.id)).map((r) => r.id);
  if (dropped.length > 0) await tx.delete(epakRecipients).where(inArray(epakRecipients.id, dropped));
  const stepIdByOrder = new Map([...stored.stepOrderById].map(([id, order]) => [order, id]));
  for (const added of options.added ?? []) {
    const step = result.state.steps.find((candidate) => candidate.recipients.some((r) => r.recipientId === added.recipientId));
    const stepId = step && stepIdByOrder.get(step.order);
    if (!step || !stepId) throw new Error(`the engine placed ${added.recipientId} in no step`);
    const [last] = await tx
      .select({ position: sql<number>`coalesce(max(${epakRecipients.position}), 0)`.mapWith(Number) })
      .from(epakRecipients)
      .where(eq(epakRecipients.stepId, stepId));
    await tx.insert(epakRecipients).values({
      id: added.recipientId,
      epakId: epak.id,
      stepId,
      userId: added.userId,
      position: (last?.position ?? 0) + 1,
      status: step.recipients.find((r) => r.recipientId === added.recipientId)!.status,
      delegatedFromId: added.delegatedFromId,
      verificationRequired: added.verificationRequired ?? false,
    });
  }
  const ended = isEnded(result.state.status) && !isEnded(epak.status) ? { endedAt: options.now } : {};
  await storeEngineState(tx, epak.id, stored, result, { ...ended, ...options.extra });
}

// ---------------------------------------------------------------------------------------------
// Star

/** Flips the caller's own star: a personal mark, so the ePak's modification time stays. */
export async function toggleStar(db: Db, actor: EpakActor, epakId: string): Promise<{ starred: boolean }> {
  const { epak } = await loadVisibleEpak(db, actor, epakId);
  const [row] = await db
    .insert(epakUserStates)
    .values({ epakId: epak.id, userId: actor.userId, starred: true })
    .onConflictDoUpdate({ target: [epakUserStates.epakId, epakUserStates.userId], set: { starred: sql`not ${epakUserStates.starred}` } })
    .returning({ starred: epakUserStates.starred });
  return { starred: row!.starred };
}

// ---------------------------------------------------------------------------------------------
// Delete

/**
 * Moves the caller's ePaks to Deleted, one transaction each: an ePak under way is stopped first
 * through the engine (its open places become Skipped). An id that is not the caller's ePak, in
 * this tenant, is NOT_FOUND whether it exists or not.
 */
export async function deleteEpaks(options: { db: Db; actor: EpakActor; epakIds: readonly string[]; ip?: string | null; now?: Date }) {
  const { db, actor } = options;
  const results: Array<{ ePakId: string; result: EpakDeleteResult; status: EpakStatus | null }> = [];
  for (const epakId of [...new Set(options.epakIds)]) {
    results.push(
      await db.transaction(async (tx) => {
        const now = options.now ?? new Date();
        const [epak] = await tx
          .select()
          .from(epaks)
          .where(and(eq(epaks.id, epakId), eq(epaks.tenantId, actor.tenantId), eq(epaks.ownerId, actor.userId)))
          .for('update');
        if (!epak) return { ePakId: epakId, result: 'NOT_FOUND' as const, status: null };
        const status = epak.status as EpakStatus;
        if (epak.deletedAt) return { ePakId: epakId, result: 'ALREADY_DELETED' as const, status };
        if (epak.archivedAt) return { ePakId: epakId, result: 'ARCHIVED' as const, status };
        // Who had been asked, read before the stop below marks their open places Skipped.
        const reached = await reachedUserIds(tx, epak);
        let after = status;
        if (epak.status === 'InProgress') {
          const stored = await loadEngineState(tx, epak);
          const stopped = transition(stored.state, { type: 'stop' });
          if (!stopped.ok) throw engineRefusal(stopped);
          await applyEngineAnswer(tx, epak, stored, stopped, { now });
          await recordEpakActivity(tx, { epakId, actorId: actor.userId, action: 'stopped', details: { because: 'deleted', effects: stopped.effects }, ip: options.ip ?? null });
          after = stopped.state.status;
        }
        await tx.update(epaks).set({ deletedAt: now, deletedBy: actor.userId, updatedAt: now }).where(eq(epaks.id, epakId));
        await recordEpakActivity(tx, { epakId, actorId: actor.userId, action: 'deleted', details: { status: after }, ip: options.ip ?? null });
        await recordNotifications(tx, { epakId, actorId: actor.userId, direct: [{ type: 'epakDeleted', userIds: reached }] });
        return { ePakId: epakId, result: 'DELETED' as const, status: after };
      }),
    );
  }
  return { results };
}

// ---------------------------------------------------------------------------------------------
// Archive, notification date, archival period

export async function archiveEpak(options: { db: Db; actor: EpakActor; epakId: string; ip?: string | null; now?: Date }) {
  return withLockedEpak(options.db, options.actor, options.epakId, async (tx, loaded) => {
    const { epak } = loaded;
    assertActionable(epak);
    if (!isEnded(epak.status)) {
      throw invalidInput(`Only an ePak that has ended (completed, rejected, stopped or expired) is archived; this one is ${epak.status}.`, [
        { path: 'status', message: epak.status },
      ]);
    }
    const now = options.now ?? new Date();
    await tx.update(epaks).set({ archivedAt: now, updatedAt: now }).where(eq(epaks.id, epak.id));
    await recordEpakActivity(tx, { epakId: epak.id, actorId: options.actor.userId, action: 'archived', details: { status: epak.status }, ip: options.ip ?? null });
    return { ePakId: epak.id, status: epak.status as EpakStatus, archivedOn: now.toISOString() };
  }, 'epak.manage');
}

export async function setNotificationStartDate(options: { db: Db; actor: EpakActor; epakId: string; date: string | null; ip?: string | null }) {
  return withLockedEpak(options.db, options.actor, options.epakId, async (tx, loaded) => {
    const { epak } = loaded;
    assertActionable(epak);
    assertNotEnded(epak, 'a notification date');
    const date = options.date === null ? null : new Date(options.date);
    if (date && epak.expiresAt && date.getTime() >= epak.expiresAt.getTime()) {
      throw invalidInput(`Notifications must start before the ePak expires (${epak.expiresAt.toISOString()}).`, [
        { path: 'notificationStartDate', message: 'after expiry' },
      ]);
    }
    await tx.update(epaks).set({ notificationStartAt: date, updatedAt: new Date() }).where(eq(epaks.id, epak.id));
    await recordEpakActivity(tx, {
      epakId: epak.id,
      actorId: options.actor.userId,
      action: 'edited',
      details: { changes: { notificationStartDate: { from: epak.notificationStartAt?.toISOString() ?? null, to: date?.toISOString() ?? null } } },
      ip: options.ip ?? null,
    });
    return { ePakId: epak.id, notificationStartDate: date?.toISOString() ?? null };
  }, 'epak.manage');
}

export async function setArchivalPeriod(options: { db: Db; actor: EpakActor; epakId: string; days: number; ip?: string | null }) {
  return withLockedEpak(options.db, options.actor, options.epakId, async (tx, loaded) => {
    const { epak } = loaded;
    assertActionable(epak);
    await tx.update(epaks).set({ archivalPeriodDays: options.days, updatedAt: new Date() }).where(eq(epaks.id, epak.id));
    await recordEpakActivity(tx, {
      epakId: epak.id,
      actorId: options.actor.userId,
      action: 'edited',
      details: { changes: { archivalPeriodDays: { from: epak.archivalPeriodDays, to: options.days } } },
      ip: options.ip ?? null,
    });
    return { ePakId: epak.id, archivalPeriodDays: options.days };
  }, 'epak.manage');
}

// ---------------------------------------------------------------------------------------------
// Reminder

/** Refuses what the engine would for an ePak not under way (-72, -23, -28). */
function assertUnderWay(epak: EpakRow): void {
  if (epak.status === 'InProgress') return;
  assertNotEnded(epak, 'this');
  throw new DomainError(ResponseCode.USER_WORKFLOW_STATUS_NOT_PENDING, `The ePak is ${epak.status}: nothing is waiting for anyone.`);
}

export async function remindRecipient(options: {
  db: Db;
  actor: EpakActor;
  epakId: string;
  userId: string;
  state: SignerStatus;
  stepOrder: number;
  mail: MailSettings;
  ip?: string | null;
  now?: Date;
}) {
  const now = options.now ?? new Date();
  return withLockedEpak(options.db, options.actor, options.epakId, async (tx, loaded) => {
    const { epak } = loaded;
    assertActionable(epak);
    assertUnderWay(epak);
    const [place] = await tx
      .select({ recipient: epakRecipients, email: users.email })
      .from(epakRecipients)
      .innerJoin(epakSteps, eq(epakSteps.id, epakRecipients.stepId))
      .innerJoin(users, eq(users.id, epakRecipients.userId))
      .where(and(eq(epakRecipients.epakId, epak.id), eq(epakRecipients.userId, options.userId), eq(epakSteps.position, options.stepOrder)));
    if (!place) throw notFound('No such recipient in this step of the ePak.');
    const { recipient, email } = place;
    if (options.stepOrder !== epak.currentStep) {
      throw new DomainError(ResponseCode.USER_WORKFLOW_STATUS_NOT_PENDING, `Step ${options.stepOrder} is not under way: ${email} has nothing to do now.`);
    }
    if (!isWaiting(recipient.status)) {
      throw new DomainError(ResponseCode.USER_WORKFLOW_STATUS_NOT_PENDING, `${email} is not waiting to act: their status is ${recipient.status}.`);
    }
    if (recipient.status !== options.state) {
      throw new DomainError(ResponseCode.USER_WORKFLOW_STATUS_NOT_PENDING, `${email}'s status is now ${recipient.status}, not ${options.state}: reload the ePak.`);
    }
    const next = recipient.lastRemindedAt && new Date(recipient.lastRemindedAt.getTime() + REMINDER_INTERVAL_MINUTES * 60_000);
    if (next && next.getTime() > now.getTime()) {
      throw invalidInput(
        `${email} was reminded at ${recipient.lastRemindedAt!.toISOString()}; one reminder an hour at most, so the next can go at ${next.toISOString()}.`,
        [{ path: 'userId', message: 'reminded recently' }],
      );
    }
    await tx.update(epakRecipients).set({ lastRemindedAt: now }).where(eq(epakRecipients.id, recipient.id));
    await notifyRecipients(tx, { epakId: epak.id, publicUrl: options.mail.publicUrl, linkDays: options.mail.linkDays, now, recipientIds: [recipient.id], kind: 'reminder' });
    await recordEpakActivity(tx, {
      epakId: epak.id,
      actorId: options.actor.userId,
      action: 'reminded',
      details: { recipientId: recipient.id, userId: recipient.userId, email, step: options.stepOrder },
      ip: options.ip ?? null,
    });
    return { ePakId: epak.id, recipientId: recipient.id, remindedOn: now.toISOString() };
  }, 'epak.manage');
}

// ---------------------------------------------------------------------------------------------
// Removing a recipient

/**
 * A document's tags without the fields of one place (members of a group too; a group left with
 * no member goes as well). Fields naming no step are theirs only when they have no other place
 * (the rule delegation's reassignTags follows).
 */
export function withoutFieldsOf(tags: readonly Tag[], place: { email: string; order: number; onlyPlace: boolean }): { tags: Tag[]; removed: number } {
  let removed = 0;
  const theirs = (tag: Tag) => isTagFor(tag, { email: place.email, stepOrder: place.order }) && (tag.wfsOrderId !== undefined || place.onlyPlace);
  const keep = (list: readonly Tag[]): Tag[] =>
    list.flatMap((tag) => {
      if (tag.children?.length) {
        const children = keep(tag.children);
        if (children.length === 0) return [];
        return [{ ...tag, children }];
      }
      if (theirs(tag)) {
        removed++;
        return [];
      }
      return [tag];
    });
  return { tags: keep(tags), removed };
}

export async function removeRecipient(options: { db: Db; actor: EpakActor; epakId: string; recipientId: string; mail: MailSettings; ip?: string | null; now?: Date }) {
  const now = options.now ?? new Date();
  return withLockedEpak(options.db, options.actor, options.epakId, async (tx, loaded) => {
    const { epak } = loaded;
    assertActionable(epak);
    const [place] = await tx
      .select({ recipient: epakRecipients, email: users.email, firstName: users.firstName, lastName: users.lastName, order: epakSteps.position })
      .from(epakRecipients)
      .innerJoin(epakSteps, eq(epakSteps.id, epakRecipients.stepId))
      .innerJoin(users, eq(users.id, epakRecipients.userId))
      .where(and(eq(epakRecipients.id, options.recipientId), eq(epakRecipients.epakId, epak.id)));
    if (!place) throw notFound('No such recipient in this ePak.');
    const stored = await loadEngineState(tx, epak);
    const result = transition(stored.state, { type: 'removeRecipient', recipientId: place.recipient.id });
    if (!result.ok) throw engineRefusal(result);
    // Their fields go with them: nobody is left to fill them, and the ePak could not finish while
    // a signature field waits for nobody. Fields are not in the PDF before they are signed, so
    // nothing already sealed changes.
    const places = await tx.select({ id: epakRecipients.id }).from(epakRecipients).where(and(eq(epakRecipients.epakId, epak.id), eq(epakRecipients.userId, place.recipient.userId)));
    let fieldsRemoved = 0;
    for (const doc of await tx.select({ id: epakDocuments.id, tags: epakDocuments.tags }).from(epakDocuments).where(eq(epakDocuments.epakId, epak.id))) {
      const kept = withoutFieldsOf(doc.tags as Tag[], { email: place.email, order: place.order, onlyPlace: places.length <= 1 });
      if (kept.removed === 0) continue;
      fieldsRemoved += kept.removed;
      await tx.update(epakDocuments).set({ tags: kept.tags }).where(eq(epakDocuments.id, doc.id));
    }
    await applyEngineAnswer(tx, epak, stored, result, { now });
    await recordEpakActivity(tx, {
      epakId: epak.id,
      actorId: options.actor.userId,
      action: 'signerRemoved',
      details: { recipientId: place.recipient.id, userId: place.recipient.userId, email: place.email, step: place.order, status: result.state.status, effects: result.effects, fieldsRemoved },
      ip: options.ip ?? null,
    });
    await queueEngineEffects(tx, { epakId: epak.id, effects: result.effects, publicUrl: options.mail.publicUrl, linkDays: options.mail.linkDays, now });
    // Told only if they had been asked already: a place in a step not yet reached was never theirs to see.
    if (epak.currentStep !== null && place.order <= epak.currentStep) {
      await recordNotifications(tx, { epakId: epak.id, actorId: options.actor.userId, direct: [{ type: 'epakReassignment', userIds: [place.recipient.userId], because: 'removed' }] });
    }
    return { ePakId: epak.id, status: result.state.status, currentStep: result.state.currentStep };
  }, 'epak.manage');
}

// ---------------------------------------------------------------------------------------------
// Edit

/**
 * Refuses a change made against an ePak older than the stored one (-306): `modifiedOn` is the
 * ePak's modifiedOn as the owner's screen loaded it, and every change of the ePak (anyone acting,
 * an edit, a recipient changed) moves it on. Editing and replacing a recipient both ask it.
 */
export function assertUnchangedSince(epak: EpakRow, modifiedOn: string): void {
  if (new Date(modifiedOn).getTime() === epak.updatedAt.getTime()) return;
  throw new DomainError(
    ResponseCode.EPAK_MODIFIED,
    `This ePak was changed (at ${epak.updatedAt.toISOString()}) after you opened it: reload it and make your changes again.`,
    { data: { modifiedOn: epak.updatedAt.toISOString() } },
  );
}

export async function editEpak(options: {
  db: Db;
  actor: EpakActor;
  input: { ePakId: string; modifiedOn: string; subject?: string | undefined; message?: string | null | undefined; expiresOn?: string | null | undefined };
  ip?: string | null;
  now?: Date;
}) {
  const { input } = options;
  const now = options.now ?? new Date();
  return withLockedEpak(options.db, options.actor, input.ePakId, async (tx, loaded) => {
    const { epak } = loaded;
    assertActionable(epak);
    assertNotEnded(epak, 'editing');
    assertUnchangedSince(epak, input.modifiedOn);
    const changes: Record<string, { from: string | null; to: string | null }> = {};
    const set: Partial<typeof epaks.$inferInsert> = {};
    if (input.subject !== undefined && input.subject !== epak.subject) {
      changes['subject'] = { from: epak.subject, to: input.subject };
      set.subject = input.subject;
    }
    const message = input.message === '' ? null : input.message;
    if (message !== undefined && message !== epak.message) {
      changes['message'] = { from: epak.message, to: message };
      set.message = message;
    }
    if (input.expiresOn !== undefined) {
      const expiresAt = input.expiresOn === null ? null : new Date(input.expiresOn);
      if (expiresAt && expiresAt.getTime() <= now.getTime()) {
        throw invalidInput('The expiry must be in the future.', [{ path: 'expiresOn', message: 'in the past' }]);
      }
      if (expiresAt && epak.notificationStartAt && expiresAt.getTime() <= epak.notificationStartAt.getTime()) {
        throw invalidInput(`The expiry must come after notifications start (${epak.notificationStartAt.toISOString()}).`, [{ path: 'expiresOn', message: 'before notifications start' }]);
      }
      if ((expiresAt?.getTime() ?? null) !== (epak.expiresAt?.getTime() ?? null)) {
        changes['expiresOn'] = { from: epak.expiresAt?.toISOString() ?? null, to: expiresAt?.toISOString() ?? null };
        set.expiresAt = expiresAt;
      }
    }
    if (Object.keys(changes).length === 0) {
      return { ePakId: epak.id, subject: epak.subject, message: epak.message, expiresOn: epak.expiresAt?.toISOString() ?? null, modifiedOn: epak.updatedAt.toISOString() };
    }
    const [row] = await tx.update(epaks).set({ ...set, updatedAt: now }).where(eq(epaks.id, epak.id)).returning();
    await recordEpakActivity(tx, { epakId: epak.id, actorId: options.actor.userId, action: 'edited', details: { changes }, ip: options.ip ?? null });
    return { ePakId: row!.id, subject: row!.subject, message: row!.message, expiresOn: row!.expiresAt?.toISOString() ?? null, modifiedOn: row!.updatedAt.toISOString() };
  }, 'epak.manage');
}

// ---------------------------------------------------------------------------------------------
// Bulk sign

type BulkItem = { ePakId: string; result: BulkSignResult; reason: string | null; code: number | null };

const skipped = (ePakId: string, reason: string, code: number | null = null): BulkItem => ({ ePakId, result: 'SKIPPED', reason, code });

/**
 * Signs every document of each ePak the caller can sign now without filling anything in: their
 * signature fields take their name (what clicking a signature field applies, spec §4), the
 * server fills what it fills (time stamp, name, address, ids, the reason given), and any other
 * required field of theirs left empty skips the ePak. Each document is signed by the sign
 * command itself (sign.ts), so every rule of a single signature holds. The ePak is checked as a
 * whole before its first document is signed, so a skipped ePak is left untouched.
 */
export async function bulkSign(options: {
  ctx: Pick<AppContext, 'storage' | 'vault' | 'config'> & { database: { db: Db } };
  actor: EpakActor;
  epakIds: readonly string[];
  reason?: string | undefined;
  ip?: string | null;
}): Promise<{ results: BulkItem[] }> {
  const db = options.ctx.database.db;
  const results: BulkItem[] = [];
  for (const epakId of [...new Set(options.epakIds)]) {
    try {
      results.push(await bulkSignOne(db, options, epakId));
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      results.push(skipped(epakId, error.httpStatus === 404 ? 'No such ePak.' : error.message, error.httpStatus === 404 ? null : error.code));
    }
  }
  return { results };
}

async function bulkSignOne(db: Db, options: Parameters<typeof bulkSign>[0], epakId: string): Promise<BulkItem> {
  const { actor } = options;
  const { epak } = await loadVisibleEpak(db, actor, epakId);
  assertActionable(epak);
  const viewer = await loadViewer(db, actor, epak);
  if (!viewer.canAct || viewer.recipientId === null || viewer.stepOrder === null) {
    if (epak.status === 'InProgress') return skipped(epakId, 'Nothing of this ePak is waiting for you now.', ResponseCode.USER_WORKFLOW_STATUS_NOT_PENDING.code);
    assertNotEnded(epak, 'signing');
    return skipped(epakId, `The ePak is ${epak.status}: nothing is waiting for anyone.`, ResponseCode.USER_WORKFLOW_STATUS_NOT_PENDING.code);
  }
  if (viewer.stepType !== 'SIGN' && viewer.stepType !== 'INPERSONSIGN') return skipped(epakId, 'This step asks you for a review, not a signature.');
  if (!viewer.eligibleForAction) return skipped(epakId, 'This ePak must be read before you act: open every document first.');
  if (viewer.nameRequired) return skipped(epakId, 'Open it to sign: you are asked to type the name you sign under.');

  const [me] = await db.select().from(users).where(eq(users.id, actor.userId));
  const signer = {
    recipientId: viewer.recipientId,
    stepOrder: viewer.stepOrder,
    stepType: viewer.stepType,
    email: me!.email.toLowerCase(),
    name: displayName(me!),
    userId: actor.userId,
  };
  const docs = await db.select().from(epakDocuments).where(eq(epakDocuments.epakId, epak.id)).orderBy(epakDocuments.position);
  const signed = new Set(
    (await db.select({ id: epakDocumentRevisions.epakDocumentId }).from(epakDocumentRevisions).where(eq(epakDocumentRevisions.recipientId, signer.recipientId))).map((r) => r.id),
  );
  const plan: Array<{ documentId: string; values: Array<{ uuid: string; value: string }> }> = [];
  for (const doc of docs.filter((candidate) => !signed.has(candidate.id))) {
    const values = flattenTags(doc.tags as Tag[])
      .filter((tag) => isSignatureFamilyTag(tag) && isTagFor(tag, signer) && (tag.value === null || tag.value === ''))
      .map((tag) => ({ uuid: tag.uuid, value: signer.name }));
    const body = { action: 'SIGN' as const, values, ...(options.reason ? { reason: options.reason } : {}) };
    try {
      // A dry run of the sign command's own check of the caller's fields.
      fillSignerTags({ tags: doc.tags as Tag[], signer, body, documentId: doc.id, at: new Date() });
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      const fields = (error.issues ?? []).map((issue) => issue.path.replace(/^values\./, '')).join(', ');
      return skipped(epakId, `Fields of yours on ${doc.name} need filling in: ${fields || error.message}`, error.code);
    }
    plan.push({ documentId: doc.id, values });
  }
  let done = 0;
  for (const step of plan) {
    try {
      await signDocument({
        ctx: options.ctx,
        actor,
        epakId: epak.id,
        documentId: step.documentId,
        body: { action: 'SIGN', values: step.values, ...(options.reason ? { reason: options.reason } : {}) },
        ...(options.ip ? { ip: options.ip } : {}),
      });
      done++;
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      const partly = done > 0 ? ` (${done} of ${plan.length} documents were signed; sign the rest yourself)` : '';
      return skipped(epakId, `${error.message}${partly}`, error.code);
    }
  }
  return { ePakId: epakId, result: 'SIGNED', reason: null, code: null };
}
