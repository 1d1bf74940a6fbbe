import { randomUUID } from 'node:crypto';
import {
  displayName,
  DomainError,
  type EpakRecipient,
  type EpakStatus,
  failedRecipientFilter,
  invalidInput,
  isTagFor,
  notFound,
  REGISTRATION_PENDING_USER_STATUSES,
  ResponseCode,
  type Role,
  type Tag,
  type TenantSettings,
  transition,
  type UserType,
  type WorkflowStateType,
} from '@pakt/domain';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/database';
import { epakDocumentRevisions, epakDocuments, epakLinks, epakRecipients, epakSteps, epaks, memberships, users } from '../../platform/db/schema';
import { queueEmail } from '../../platform/mail/outbox';
import { recordNotifications } from '../notifications';
import { assertActionable, assertNotOverdue, type EpakActor, type EpakRow } from './access';
import { recordEpakActivity } from './activity';
import { reassignTags } from './delegate';
import { loadEngineState } from './engine-store';
import { assertNotEnded, assertUnchangedSince, engineRefusal, type MailSettings, withLockedEpak } from './manage';
import { queueEngineEffects } from './notify';

/**
 * The owner replaces a recipient (issue 21): a mistyped address, the wrong colleague. The place
 * (a recipient who has not acted, in a step not yet finished) is given to another person, found
 * by address as compose finds recipients, or invited as a new external person with the names the
 * owner gave.
 *
 * The contract is a call of its own (POST …/recipients/:recipientId/replace, with the modifiedOn
 * the owner's view loaded) rather than a list of recipients in editEpak's body: everything about
 * it is one person's (the refusals -28, -13, -173, -3 name them; their fields, links, inbox and
 * mail change), like the other per-place calls of the management view (the link calls), while
 * editEpak stays an edit of the ePak's own fields. Both ask the same -306 check.
 *
 * The old place is removed and a new one, with a new id, takes its position in the step. Its
 * signing links go with it (epak_links cascade: the token then answers -42 like any unknown
 * link), and so does everything else that names the old id: a signature the old recipient was
 * sealing when the owner replaced them finds no place of theirs under the row lock (sign.ts) and
 * is refused, where a place kept with another person behind it would have taken it as the new
 * person's. The old person has no place left, so the ePak is hidden from them (404), a session
 * their link opened included. Their inbox rows go and the new person's come by the inbox
 * triggers (0017_inbox_triggers.sql), which sync everyone in the ePak at commit.
 *
 * The engine has no event for a change of person (the statuses do not change); it is asked
 * whether the place could be removed, which is exactly whether it may change hands, and the
 * stored state is written here.
 */

type UserRow = typeof users.$inferSelect;
type RecipientFilters = Pick<TenantSettings, 'recipientDomains' | 'recipientsVerifiedOnly' | 'recipientRoles'>;

export interface ReplaceRecipientInput {
  readonly modifiedOn: string;
  readonly email: string;
  readonly firstName?: string | undefined;
  readonly lastName?: string | undefined;
}

export interface ReplaceRecipientResult {
  ePakId: string;
  status: EpakStatus;
  currentStep: number | null;
  modifiedOn: string;
  replacedRecipientId: string;
  recipient: EpakRecipient;
}

const isWaiting = (status: string) => status === 'Pending' || status === 'DelegatePending';

/**
 * The person an address names, as compose resolves recipients: disabled (-13) and cancelled
 * invitations (-173) are refused, and so is anyone the tenant's recipient filters leave out (-6);
 * an unknown address becomes an invited external user with the names given (the address's local
 * part without them), unless the tenant invites nobody new (-3). A known person keeps their names.
 */
async function resolvePerson(
  tx: Db,
  tenantId: string,
  input: ReplaceRecipientInput,
  options: { skipNewUsers: boolean; filters: RecipientFilters },
): Promise<{ user: UserRow; created: boolean }> {
  const email = input.email.trim().toLowerCase();
  const [existing] = await tx.select().from(users).where(eq(users.email, email));
  const [membership] = existing ? await tx.select().from(memberships).where(and(eq(memberships.tenantId, tenantId), eq(memberships.userId, existing.id))) : [];
  const failed = failedRecipientFilter(options.filters, { email, verified: existing?.emailVerifiedAt != null, role: (membership?.role as Role | undefined) ?? null });
  if (failed) throw invalidInput(`${email} cannot receive ePaks of this tenant.`, [{ path: 'email', message: `invalid filter: ${failed}` }]);
  if (existing) {
    if (existing.disabledAt || membership?.status === 'disabled') {
      throw new DomainError(ResponseCode.USER_DISABLED, `${email} is disabled: contact your administrator.`, { data: { email } });
    }
    if (existing.status === 'cancelInvitation') {
      throw new DomainError(ResponseCode.INVITATION_CANCELLED, `The invitation of ${email} was cancelled.`, { data: { email } });
    }
    return { user: existing, created: false };
  }
  if (options.skipNewUsers) {
    throw new DomainError(ResponseCode.USER_DOES_NOT_EXIST, `${email} is not a user here, and new users are not invited.`, { data: { email } });
  }
  const [created] = await tx
    .insert(users)
    .values({
      email,
      firstName: input.firstName?.trim() || email.split('@')[0]!,
      lastName: input.lastName?.trim() ?? '',
      type: 'external',
      status: 'admininvited',
      passwordHash: null,
    })
    .returning();
  return { user: created!, created: true };
}

/**
 * The fields of a place handed to another person (the place `from` held in step `order`): every
 * tag of theirs in that step becomes `to`'s, naming the step (reassignTags, as delegation moves
 * them). A tag of `to` naming no step is pinned to the one step `to` already had (`toOrder`),
 * since from now on it would also be theirs in `order`: the signer would fill another step's
 * field. With several places of `to` such a tag was ambiguous already, and is left as it was.
 */
export function handOverTags(
  tags: readonly Tag[],
  options: { from: { email: string; userId: string }; to: { email: string; userId: string }; order: number; fromOnlyPlace: boolean; toOrder: number | null },
): { tags: Tag[]; moved: number } {
  const { from, to, order, toOrder } = options;
  const pin = (tag: Tag): Tag => {
    const children = tag.children?.map(pin);
    const base = children ? { ...tag, children } : tag;
    return toOrder !== null && tag.wfsOrderId === undefined && isTagFor(tag, { email: to.email, stepOrder: null }) ? { ...base, wfsOrderId: toOrder } : base;
  };
  const pinned = tags.map(pin);
  return reassignTags(pinned, from, to, order, options.fromOnlyPlace);
}

export async function replaceRecipient(options: {
  db: Db;
  actor: EpakActor;
  epakId: string;
  recipientId: string;
  input: ReplaceRecipientInput;
  skipNewUsers: boolean;
  filters?: RecipientFilters;
  mail: MailSettings;
  ip?: string | null;
  now?: Date;
}): Promise<ReplaceRecipientResult> {
  const now = options.now ?? new Date();
  const email = options.input.email.trim().toLowerCase();
  return withLockedEpak(
    options.db,
    options.actor,
    options.epakId,
    async (tx, { epak }) => {
      assertActionable(epak);
      assertNotEnded(epak, 'changing a recipient');
      if (epak.status === 'Draft') {
        throw invalidInput("A draft's recipients are changed where it is composed, before it is sent.", [{ path: 'status', message: epak.status }]);
      }
      assertNotOverdue(epak, now);
      assertUnchangedSince(epak, options.input.modifiedOn);

      const places = await tx
        .select({ recipient: epakRecipients, order: epakSteps.position, type: epakSteps.type, user: users })
        .from(epakRecipients)
        .innerJoin(epakSteps, eq(epakSteps.id, epakRecipients.stepId))
        .innerJoin(users, eq(users.id, epakRecipients.userId))
        .where(eq(epakRecipients.epakId, epak.id));
      const place = places.find((candidate) => candidate.recipient.id === options.recipientId);
      if (!place) throw notFound('No such recipient in this ePak.');
      const old = { ...place.recipient, email: place.user.email.toLowerCase(), name: displayName(place.user) };
      if (epak.currentStep !== null && place.order < epak.currentStep) {
        throw new DomainError(ResponseCode.USER_WORKFLOW_STATUS_NOT_PENDING, `Step ${place.order} is finished: who was in it stays as it was.`, { data: { email: old.email } });
      }
      if (!isWaiting(old.status)) {
        throw new DomainError(ResponseCode.USER_WORKFLOW_STATUS_NOT_PENDING, `${old.name} (${old.email}) has already acted (${old.status}): their place stays theirs.`, {
          data: { email: old.email, status: old.status },
        });
      }
      // The engine's own answer on whether this place may leave its step (the same -28, -72, -23).
      const stored = await loadEngineState(tx, epak);
      const probe = transition(stored.state, { type: 'removeRecipient', recipientId: old.id });
      if (!probe.ok) throw engineRefusal(probe);
      // Signing goes document by document: someone who signed some has acted, though still Pending.
      const signed = await tx.select({ id: epakDocumentRevisions.id }).from(epakDocumentRevisions).where(eq(epakDocumentRevisions.recipientId, old.id));
      if (signed.length > 0) {
        throw new DomainError(
          ResponseCode.USER_WORKFLOW_STATUS_NOT_PENDING,
          `${old.name} (${old.email}) has already signed ${signed.length} document(s) of this ePak: their place stays theirs.`,
          { data: { email: old.email, signedDocuments: signed.length } },
        );
      }
      const twice = places.find((candidate) => candidate.recipient.stepId === old.stepId && candidate.user.email.toLowerCase() === email);
      if (twice) {
        throw invalidInput(
          twice.recipient.id === old.id
            ? `${email} already holds this place: name the person who should take it.`
            : `${email} is already a recipient of this step: it would wait for one person twice. Name someone who is not in it.`,
          [{ path: 'email', message: 'already in this step' }],
        );
      }
      const { user, created } = await resolvePerson(tx, epak.tenantId, { ...options.input, email }, { skipNewUsers: options.skipNewUsers, filters: options.filters ?? {} });

      // A delegate's place stays a delegation (it can still be taken back); its holder may not have registered yet.
      const status = old.delegatedFromId && (REGISTRATION_PENDING_USER_STATUSES as readonly string[]).includes(user.status) ? 'DelegatePending' : 'Pending';
      const recipientId = randomUUID();
      const links = await tx.select({ id: epakLinks.id }).from(epakLinks).where(eq(epakLinks.recipientId, old.id));
      await tx.delete(epakRecipients).where(eq(epakRecipients.id, old.id));
      await tx.insert(epakRecipients).values({
        id: recipientId,
        epakId: epak.id,
        stepId: old.stepId,
        userId: user.id,
        position: old.position,
        status,
        delegatedFromId: old.delegatedFromId,
        // The place asks for verification as it did; the new person verifies afresh.
        verificationRequired: old.verificationRequired,
      });
      const fields = await handOverFields(tx, epak, {
        from: { email: old.email, userId: old.userId },
        to: { email: user.email.toLowerCase(), userId: user.id },
        order: place.order,
        fromOnlyPlace: places.filter((candidate) => candidate.recipient.userId === old.userId).length <= 1,
        toOrders: places.filter((candidate) => candidate.recipient.userId === user.id).map((candidate) => candidate.order),
      });
      const [row] = await tx.update(epaks).set({ updatedAt: now }).where(eq(epaks.id, epak.id)).returning();

      // Their step is under way: the new person is asked as a step's people are when it starts,
      // and the old one, who had been asked, is told they are no longer needed. A place in a step
      // still to come was nobody's to see yet. An in-person signer is not asked (the host is).
      const underWay = epak.status === 'InProgress' && epak.currentStep === place.order;
      const stepType = place.type as WorkflowStateType;
      if (underWay) {
        await queueEngineEffects(tx, {
          epakId: epak.id,
          effects: [{ type: 'notifyStep', order: place.order, recipientIds: [recipientId], stepType }],
          publicUrl: options.mail.publicUrl,
          linkDays: options.mail.linkDays,
          now,
          actorId: options.actor.userId,
        });
        if (stepType !== 'INPERSONSIGN') await tellNoLongerNeeded(tx, epak, { person: { ...place.user, email: old.email }, stepType, actorId: options.actor.userId });
      }
      await recordEpakActivity(tx, {
        epakId: epak.id,
        actorId: options.actor.userId,
        action: 'recipientReplaced',
        details: {
          recipientId: old.id,
          userId: old.userId,
          email: old.email,
          step: place.order,
          replacement: { recipientId, userId: user.id, email: user.email, status, invited: created },
          fields,
          linksRevoked: links.length,
          asked: underWay,
        },
        ip: options.ip ?? null,
      });
      return {
        ePakId: epak.id,
        status: epak.status as EpakStatus,
        currentStep: epak.currentStep,
        modifiedOn: row!.updatedAt.toISOString(),
        replacedRecipientId: old.id,
        recipient: { recipientId, userId: user.id, email: user.email, firstName: user.firstName, lastName: user.lastName, type: user.type as UserType, status, verificationRequired: old.verificationRequired },
      };
    },
    'epak.manage',
  );
}

async function handOverFields(
  tx: Db,
  epak: EpakRow,
  options: { from: { email: string; userId: string }; to: { email: string; userId: string }; order: number; fromOnlyPlace: boolean; toOrders: readonly number[] },
): Promise<number> {
  const toOrder = options.toOrders.length === 1 ? options.toOrders[0]! : null;
  let moved = 0;
  for (const doc of await tx.select({ id: epakDocuments.id, tags: epakDocuments.tags }).from(epakDocuments).where(eq(epakDocuments.epakId, epak.id))) {
    const before = doc.tags as Tag[];
    const result = handOverTags(before, { ...options, toOrder });
    moved += result.moved;
    if (JSON.stringify(result.tags) !== JSON.stringify(before)) await tx.update(epakDocuments).set({ tags: result.tags }).where(eq(epakDocuments.id, doc.id));
  }
  return moved;
}

/**
 * The replaced person had been asked to act: an in-app notification (as removing a recipient
 * sends), and a mail, since the request reached them by mail and an outsider has no other news
 * of it (their link now answers that it is not valid any more). Queued in the transaction, so
 * it leaves after commit or not at all.
 */
async function tellNoLongerNeeded(tx: Db, epak: EpakRow, options: { person: UserRow; stepType: WorkflowStateType; actorId: string }): Promise<void> {
  await recordNotifications(tx, { epakId: epak.id, actorId: options.actorId, direct: [{ type: 'epakReassignment', userIds: [options.person.id], because: 'removed' }] });
  const [owner] = await tx.select().from(users).where(eq(users.id, epak.ownerId));
  const sender = owner ? displayName(owner) : 'The sender';
  const verb = options.stepType === 'REVIEW' ? 'review' : 'sign';
  await queueEmail({
    db: tx,
    tenantId: epak.tenantId,
    to: options.person.email,
    subject: `No longer needed: ${epak.subject}`,
    body: [
      `Hello ${displayName(options.person)},`,
      '',
      `${sender} has asked someone else to ${verb} "${epak.subject}": nothing more is needed from you.`,
      'The link you were sent for it no longer opens it.',
      '',
      'Pakt',
    ].join('\n'),
    kind: 'epak_recipient_replaced',
  });
}
