import { randomUUID } from 'node:crypto';
import {
  displayName,
  DomainError,
  enforce,
  type EpakStatus,
  failedRecipientFilter,
  invalidInput,
  isTagFor,
  notFound,
  REGISTRATION_PENDING_USER_STATUSES,
  ResponseCode,
  type Role,
  type SignerStatus,
  type Tag,
  type TenantSettings,
  transition,
} from '@pakt/domain';
import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../platform/db/database';
import { epakDocuments, epakLinks, epakRecipients, epakSteps, memberships, users } from '../../platform/db/schema';
import { assertActionable, assertNotOverdue, type EpakActor, type EpakRow } from './access';
import { recordEpakActivity } from './activity';
import { assertPlaceVerified } from './recipient-verification';
import { loadEngineState } from './engine-store';
import { applyEngineAnswer, engineRefusal, type MailSettings, withLockedEpak } from './manage';
import { recordNotifications } from '../notifications';
import { notifyRecipients, queueEngineEffects } from './notify';

/**
 * Delegation (spec §7 …/delegate and …/delegatecancel): a recipient of the step under way hands
 * their place to someone else, and takes it back (or the owner does) while the delegate has not
 * acted. The engine decides (events delegate and delegateCancel); this resolves the person,
 * moves the fields on the documents that were the place's, and stores the answer with its
 * activity record and the delegate's mail in one transaction under the ePak's row lock.
 */

type UserRow = typeof users.$inferSelect;
type RecipientFilters = Pick<TenantSettings, 'recipientDomains' | 'recipientsVerifiedOnly' | 'recipientRoles'>;

const isWaiting = (status: string) => status === 'Pending' || status === 'DelegatePending';

/**
 * The person an address names, as compose resolves recipients: refused when disabled (-13) or
 * their invitation was cancelled (-173), or when the tenant's recipient filters leave them out
 * (-6 'invalid filter'); an unknown address becomes an external user invited through this
 * delegation (invitewithdelegation), unless the tenant invites nobody new (-3).
 */
async function resolveDelegate(tx: Db, tenantId: string, email: string, options: { skipNewUsers: boolean; filters: RecipientFilters }): Promise<UserRow> {
  const [existing] = await tx.select().from(users).where(eq(users.email, email));
  const [membership] = existing
    ? await tx.select().from(memberships).where(and(eq(memberships.tenantId, tenantId), eq(memberships.userId, existing.id)))
    : [];
  const failed = failedRecipientFilter(options.filters, {
    email,
    verified: existing?.emailVerifiedAt != null,
    role: (membership?.role as Role | undefined) ?? null,
  });
  if (failed) throw invalidInput(`${email} cannot receive ePaks of this tenant.`, [{ path: 'email', message: `invalid filter: ${failed}` }]);
  if (existing) {
    if (existing.disabledAt || membership?.status === 'disabled') {
      throw new DomainError(ResponseCode.USER_DISABLED, `${email} is disabled: contact your administrator.`, { data: { email } });
    }
    if (existing.status === 'cancelInvitation') {
      throw new DomainError(ResponseCode.INVITATION_CANCELLED, `The invitation of ${email} was cancelled.`, { data: { email } });
    }
    return existing;
  }
  if (options.skipNewUsers) {
    throw new DomainError(ResponseCode.USER_DOES_NOT_EXIST, `${email} is not a user here, and new users are not invited.`, { data: { email } });
  }
  const [created] = await tx
    .insert(users)
    .values({ email, firstName: email.split('@')[0]!, lastName: '', type: 'external', status: 'invitewithdelegation', passwordHash: null })
    .returning();
  return created!;
}

/**
 * The fields of one place (person, step) given to another person: every tag of `from` in step
 * `order` becomes `to`'s, naming the step so it stays in it. A tag naming no step is the place's
 * only when the person has no other place in the ePak.
 */
export function reassignTags(tags: readonly Tag[], from: { email: string; userId: string }, to: { email: string; userId: string }, order: number, onlyPlace: boolean): { tags: Tag[]; moved: number } {
  let moved = 0;
  const visit = (tag: Tag): Tag => {
    const children = tag.children?.map(visit);
    const base = children ? { ...tag, children } : tag;
    if (!isTagFor(tag, { email: from.email, stepOrder: order }) || (tag.wfsOrderId === undefined && !onlyPlace)) return base;
    moved++;
    return { ...base, userEmail: to.email, wfsOrderId: order, ...(tag.userUuid ? { userUuid: tag.userUuid === from.userId ? to.userId : tag.userUuid } : {}) };
  };
  return { tags: tags.map(visit), moved };
}

async function moveFields(tx: Db, epak: EpakRow, from: { email: string; userId: string }, to: { email: string; userId: string }, order: number): Promise<number> {
  const places = await tx.select({ id: epakRecipients.id }).from(epakRecipients).where(and(eq(epakRecipients.epakId, epak.id), eq(epakRecipients.userId, from.userId)));
  let moved = 0;
  for (const doc of await tx.select().from(epakDocuments).where(eq(epakDocuments.epakId, epak.id))) {
    const result = reassignTags(doc.tags as Tag[], from, to, order, places.length <= 1);
    if (result.moved === 0) continue;
    moved += result.moved;
    await tx.update(epakDocuments).set({ tags: result.tags }).where(eq(epakDocuments.id, doc.id));
  }
  return moved;
}


export async function delegateEpak(options: {
  db: Db;
  actor: EpakActor;
  epakId: string;
  email: string;
  comment?: string | undefined;
  workflowStateId?: string | undefined;
  skipNewUsers: boolean;
  filters?: RecipientFilters;
  mail: MailSettings;
  ip?: string | null;
  now?: Date;
}): Promise<{ ePakId: string; status: EpakStatus; recipientId: string; delegate: { recipientId: string; userId: string; email: string; status: SignerStatus } }> {
  const now = options.now ?? new Date();
  const email = options.email.trim().toLowerCase();
  return withLockedEpak(options.db, options.actor, options.epakId, async (tx, { epak }) => {
    assertActionable(epak);
    assertNotOverdue(epak, now);
    const places = await tx
      .select({ recipient: epakRecipients, order: epakSteps.position, workflowStateId: epakSteps.workflowStateId, type: epakSteps.type })
      .from(epakRecipients)
      .innerJoin(epakSteps, eq(epakSteps.id, epakRecipients.stepId))
      .where(eq(epakRecipients.epakId, epak.id));
    const mine = places.filter((p) => p.recipient.userId === options.actor.userId);
    // The owner who is no recipient has no place to hand over; the engine says why (-28, -23, -72).
    const place = mine.find((p) => p.order === epak.currentStep && isWaiting(p.recipient.status)) ?? mine.find((p) => p.order === epak.currentStep) ?? mine[0];
    if (options.workflowStateId && place && place.workflowStateId !== options.workflowStateId) {
      throw new DomainError(ResponseCode.USER_WORKFLOW_STATUS_NOT_PENDING, 'Only your place in the step under way can be delegated, and that is not the step named.');
    }
    const stored = await loadEngineState(tx, epak);
    const delegateId = randomUUID();
    const probe = transition(stored.state, { type: 'delegate', recipientId: place?.recipient.id ?? '', delegateId });
    if (!probe.ok) throw engineRefusal(probe);
    const from = place!;
    // Signer verification (issue 22): handing on a place that must confirm a code is refused (-152)
    // until it has, so nobody passes a place on without proving who they are.
    assertPlaceVerified(from.recipient, 'delegate');

    const [me] = await tx.select().from(users).where(eq(users.id, options.actor.userId));
    if (email === me!.email.toLowerCase()) {
      throw new DomainError(ResponseCode.OUT_OF_OFFICE_DELEGATION_NOT_ALLOWED, 'You cannot delegate to yourself: name someone else to act in your place.');
    }
    const [already] = await tx
      .select({ email: users.email, status: epakRecipients.status })
      .from(epakRecipients)
      .innerJoin(users, eq(users.id, epakRecipients.userId))
      .where(and(eq(epakRecipients.stepId, from.recipient.stepId), eq(users.email, email)));
    if (already) {
      throw new DomainError(
        ResponseCode.OUT_OF_OFFICE_DELEGATION_NOT_ALLOWED,
        `${email} is already a recipient of this step (${already.status}): the step would wait for one person twice. Name someone who is not in it.`,
        { data: { email } },
      );
    }
    const delegate = await resolveDelegate(tx, epak.tenantId, email, { skipNewUsers: options.skipNewUsers, filters: options.filters ?? {} });
    const delegateStatus = (REGISTRATION_PENDING_USER_STATUSES as readonly string[]).includes(delegate.status) ? 'DelegatePending' : 'Pending';
    const result = transition(stored.state, { type: 'delegate', recipientId: from.recipient.id, delegateId, delegateStatus });
    if (!result.ok) throw engineRefusal(result);

    // The delegate's place asks for verification as the one it came from did (they verify afresh).
    await applyEngineAnswer(tx, epak, stored, result, {
      now,
      added: [{ recipientId: delegateId, userId: delegate.id, delegatedFromId: from.recipient.id, verificationRequired: from.recipient.verificationRequired }],
    });
    await tx.update(epakRecipients).set({ actedAt: now }).where(eq(epakRecipients.id, from.recipient.id));
    // The signing links mailed to the one who delegated are of no use any more.
    await tx.update(epakLinks).set({ revokedAt: now }).where(and(eq(epakLinks.recipientId, from.recipient.id), isNull(epakLinks.revokedAt)));
    const fields = await moveFields(tx, epak, { email: me!.email.toLowerCase(), userId: me!.id }, { email: delegate.email, userId: delegate.id }, from.order);
    await recordEpakActivity(tx, {
      epakId: epak.id,
      actorId: options.actor.userId,
      action: 'delegated',
      details: {
        recipientId: from.recipient.id,
        step: from.order,
        delegate: { recipientId: delegateId, userId: delegate.id, email: delegate.email, status: delegateStatus },
        fields,
        comment: options.comment ?? null,
        effects: result.effects,
      },
      ip: options.ip ?? null,
    });
    await notifyRecipients(tx, {
      epakId: epak.id,
      publicUrl: options.mail.publicUrl,
      linkDays: options.mail.linkDays,
      now,
      recipientIds: [delegateId],
      kind: 'delegated',
      note: `${displayName(me!)} handed their place over to you${options.comment ? `: ${options.comment}` : '.'}`,
    });
    await recordNotifications(tx, { epakId: epak.id, actorId: options.actor.userId, direct: [{ type: 'epakDelegated', userIds: [delegate.id], note: options.comment }] });
    return {
      ePakId: epak.id,
      status: result.state.status,
      recipientId: from.recipient.id,
      delegate: { recipientId: delegateId, userId: delegate.id, email: delegate.email, status: delegateStatus },
    };
  });
}

/**
 * Takes a delegation back: `userEmail` names the delegate or the original recipient of a step
 * (`workflowStateId`). The original recipient and the owner may; the delegate's place is removed
 * and the original is Pending again, with their fields back.
 */
export async function cancelDelegation(options: {
  db: Db;
  actor: EpakActor;
  epakId: string;
  userEmail: string;
  workflowStateId: string;
  mail: MailSettings;
  ip?: string | null;
  now?: Date;
}): Promise<{ ePakId: string; status: EpakStatus; recipientId: string; recipientStatus: SignerStatus }> {
  const now = options.now ?? new Date();
  const email = options.userEmail.trim().toLowerCase();
  return withLockedEpak(options.db, options.actor, options.epakId, async (tx, { epak, isOwner, resource }) => {
    const places = await tx
      .select({ recipient: epakRecipients, order: epakSteps.position, workflowStateId: epakSteps.workflowStateId, email: users.email })
      .from(epakRecipients)
      .innerJoin(epakSteps, eq(epakSteps.id, epakRecipients.stepId))
      .innerJoin(users, eq(users.id, epakRecipients.userId))
      .where(eq(epakRecipients.epakId, epak.id));
    const inStep = places.filter((p) => p.workflowStateId === options.workflowStateId);
    // Every delegation of the step: a delegate's place and the place it was made from.
    const pairs = inStep.flatMap((delegate) => {
      const original = inStep.find((p) => p.recipient.id === delegate.recipient.delegatedFromId);
      return original ? [{ delegate, original }] : [];
    });
    const mine = pairs.filter((pair) => pair.original.recipient.userId === options.actor.userId);
    enforce(options.actor, 'epak.recallDelegation', { ...resource, actorDelegated: mine.length > 0 });
    assertActionable(epak);
    const named = (isOwner ? pairs : mine).filter((pair) => pair.delegate.email.toLowerCase() === email || pair.original.email.toLowerCase() === email);
    // A chain (A to B, B to C) names B twice: the delegation still open is the one meant.
    const pair = named.find((candidate) => isWaiting(candidate.delegate.recipient.status)) ?? named[0];
    if (!pair) throw notFound('No delegation of this person in this step.');
    const { delegate: delegatePlace, original } = pair;
    const stored = await loadEngineState(tx, epak);
    const result = transition(stored.state, { type: 'delegateCancel', delegateId: delegatePlace.recipient.id, originalId: original.recipient.id });
    if (!result.ok) throw engineRefusal(result);
    await applyEngineAnswer(tx, epak, stored, result, { now });
    await tx.update(epakRecipients).set({ actedAt: null }).where(eq(epakRecipients.id, original.recipient.id));
    const fields = await moveFields(
      tx,
      epak,
      { email: delegatePlace.email.toLowerCase(), userId: delegatePlace.recipient.userId },
      { email: original.email.toLowerCase(), userId: original.recipient.userId },
      original.order,
    );
    await recordEpakActivity(tx, {
      epakId: epak.id,
      actorId: options.actor.userId,
      action: 'delegationCancelled',
      details: {
        recipientId: original.recipient.id,
        step: original.order,
        delegate: { recipientId: delegatePlace.recipient.id, userId: delegatePlace.recipient.userId, email: delegatePlace.email },
        fields,
        effects: result.effects,
      },
      ip: options.ip ?? null,
    });
    // The delegate's place is gone: they are told, unless they gave it back themselves.
    await recordNotifications(tx, {
      epakId: epak.id,
      actorId: options.actor.userId,
      direct: [{ type: 'epakReassignment', userIds: [delegatePlace.recipient.userId], because: 'delegationCancelled' }],
    });
    // The original is told their place is back, unless they took it back themselves.
    if (original.recipient.userId !== options.actor.userId) {
      await queueEngineEffects(tx, { epakId: epak.id, effects: result.effects, publicUrl: options.mail.publicUrl, linkDays: options.mail.linkDays, now });
    }
    return { ePakId: epak.id, status: result.state.status, recipientId: original.recipient.id, recipientStatus: 'Pending' };
  });
}
