import { displayName } from '@pakt/domain';
import type { EngineEffect, NotificationType } from '@pakt/domain';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../platform/db/database';
import { epakRecipients, epakSteps, epaks, memberships, notifications, users } from '../../platform/db/schema';

/**
 * Writing notifications (spec §4 "Notification handling by type", §7 WebSocket). Each is a row
 * written in the transaction of the change it is about, plus a NOTIFY on NOTIFICATION_CHANNEL
 * carrying its id: PostgreSQL delivers NOTIFY at commit only, so a rolled-back change announces
 * nothing, and every server process LISTENing (hub.ts) hears it, whichever process made it.
 */

export const NOTIFICATION_CHANNEL = 'pakt_notifications';

/** The NOTIFY payload: small (PostgreSQL's limit is 8000 bytes); the hub reads the row itself. */
export const NotificationSignal = z.object({ id: z.uuid(), userId: z.uuid(), tenantId: z.uuid() });
export type NotificationSignal = z.infer<typeof NotificationSignal>;

/** A comment quoted in a notification is cut here: the full text is in the ePak's activity. */
const QUOTED_COMMENT_MAX = 500;

/** Notifications a command decides itself, outside what the workflow engine answered. */
export type DirectNotification =
  /** Someone's place was handed to these people (delegate.ts). */
  | { readonly type: 'epakDelegated'; readonly userIds: readonly string[]; readonly note?: string | undefined }
  /** These people's place is gone: a delegation taken back, or the owner removed them. */
  | { readonly type: 'epakReassignment'; readonly userIds: readonly string[]; readonly because: 'delegationCancelled' | 'removed' }
  /** The owner deleted the ePak these people had been asked about. */
  | { readonly type: 'epakDeleted'; readonly userIds: readonly string[] };

export interface RecordNotificationsOptions {
  readonly epakId: string;
  /** What the engine answered: notifyStep (sign or review request), completed, rejected. */
  readonly effects?: readonly EngineEffect[] | undefined;
  readonly direct?: readonly DirectNotification[] | undefined;
  /** Who caused it: named in the text, and not told of their own rejection, comment or removal. */
  readonly actorId?: string | undefined;
  readonly actorName?: string | undefined;
  /** A rejection's comment, a signer's reason or a reviewer's comment. */
  readonly comment?: string | undefined;
  /** Whose comment it is when it is not a rejection's: the owner is told (signerComments / reviewerComments). */
  readonly commentBy?: 'signer' | 'reviewer' | undefined;
}

interface Draft {
  readonly userId: string;
  readonly type: NotificationType;
  readonly title: string;
  readonly body: string;
}

/** Told even when they caused it themselves: new work, or the end of their own ePak. */
const TOLD_OF_OWN_ACTION: ReadonlySet<NotificationType> = new Set(['signRequest', 'reviewRequest', 'epakDelegated', 'signCompleted']);


const quote = (text: string) => (text.length > QUOTED_COMMENT_MAX ? `${text.slice(0, QUOTED_COMMENT_MAX - 1)}…` : text);

async function userIdsOfRecipients(tx: Db, recipientIds: readonly string[]): Promise<string[]> {
  if (recipientIds.length === 0) return [];
  const rows = await tx.select({ userId: epakRecipients.userId }).from(epakRecipients).where(inArray(epakRecipients.id, [...recipientIds]));
  return [...new Set(rows.map((row) => row.userId))];
}

async function namesOf(tx: Db, userIds: readonly string[]): Promise<Map<string, string>> {
  if (userIds.length === 0) return new Map();
  const rows = await tx.select().from(users).where(inArray(users.id, [...new Set(userIds)]));
  return new Map(rows.map((row) => [row.id, displayName(row)]));
}

/** The notification asking a step's people to act; also written in batches by bulk compose. */
export function stepRequestNotification(stepType: 'SIGN' | 'REVIEW', owner: string, subject: string): { type: NotificationType; title: string; body: string } {
  return stepType === 'REVIEW'
    ? { type: 'reviewRequest', title: `Please review: ${subject}`, body: `${owner} asks you to review "${subject}".` }
    : { type: 'signRequest', title: `Please sign: ${subject}`, body: `${owner} asks you to sign "${subject}".` };
}

/**
 * Writes the notifications an ePak change calls for, in the caller's transaction, and
 * announces each with NOTIFY. Only people with a membership of the ePak's tenant get one: a
 * notification is read in the app, inside that tenant (an external recipient is mailed instead).
 * An invited member gets theirs too, and finds it once they have registered.
 */
export async function recordNotifications(tx: Db, options: RecordNotificationsOptions): Promise<void> {
  const [epak] = await tx
    .select({ id: epaks.id, tenantId: epaks.tenantId, ownerId: epaks.ownerId, subject: epaks.subject })
    .from(epaks)
    .where(eq(epaks.id, options.epakId));
  if (!epak) return;
  const names = await namesOf(tx, [epak.ownerId, ...(options.actorId ? [options.actorId] : [])]);
  const owner = names.get(epak.ownerId) ?? 'Someone';
  const actor = options.actorName ?? (options.actorId ? names.get(options.actorId) : undefined) ?? 'Someone';
  const subject = epak.subject;
  const drafts: Draft[] = [];
  const add = (userIds: readonly string[], type: NotificationType, title: string, body: string) => {
    for (const userId of new Set(userIds)) drafts.push({ userId, type, title, body });
  };

  const effects = options.effects ?? [];
  for (const effect of effects) {
    switch (effect.type) {
      case 'notifyStep': {
        if (effect.stepType === 'INPERSONSIGN') {
          // Signed on the host's device only (in-person.ts): the owner is the one to act, as the mail says.
          const people = await namesOf(tx, await userIdsOfRecipients(tx, effect.recipientIds));
          add([epak.ownerId], 'signRequest', `Sign in person: ${subject}`, `"${subject}" now waits for ${[...people.values()].join(', ')} to sign in person with you.`);
        } else if (effect.stepType === 'REVIEW' || effect.stepType === 'SIGN') {
          const request = stepRequestNotification(effect.stepType, owner, subject);
          add(await userIdsOfRecipients(tx, effect.recipientIds), request.type, request.title, request.body);
        }
        break;
      }
      case 'completed':
        add([epak.ownerId], 'signCompleted', `Completed: ${subject}`, `Everyone has acted on "${subject}". The signed documents are ready.`);
        break;
      case 'rejected':
        add(
          [epak.ownerId],
          'signDeclined',
          `Rejected: ${subject}`,
          `${actor} rejected "${subject}".${options.comment ? ` Comment: ${quote(options.comment)}` : ''}`,
        );
        break;
      default:
        // mailDocuments, stopped, expired: no notification type of the spec is about them.
        break;
    }
  }

  // A rejection's comment is in its signDeclined; any other comment is one of its own.
  if (options.comment && options.commentBy && !effects.some((effect) => effect.type === 'rejected')) {
    const reviewer = options.commentBy === 'reviewer';
    add(
      [epak.ownerId],
      reviewer ? 'reviewerComments' : 'signerComments',
      `${reviewer ? 'Review' : 'Signer'} comment: ${subject}`,
      `${actor} ${reviewer ? 'reviewed' : 'signed'} "${subject}": ${quote(options.comment)}`,
    );
  }

  for (const entry of options.direct ?? []) {
    switch (entry.type) {
      case 'epakDelegated':
        add(entry.userIds, 'epakDelegated', `Delegated to you: ${subject}`, `${actor} handed their place in "${subject}" over to you.${entry.note ? ` ${quote(entry.note)}` : ''}`);
        break;
      case 'epakReassignment':
        add(
          entry.userIds,
          'epakReassignment',
          `No longer yours: ${subject}`,
          entry.because === 'removed'
            ? `${actor} removed you from "${subject}": nothing more is needed from you.`
            : `${actor} took back the place in "${subject}" that was handed over to you: nothing more is needed from you.`,
        );
        break;
      case 'epakDeleted':
        add(entry.userIds, 'epakDeleted', `Deleted: ${subject}`, `${actor} deleted "${subject}": nothing more is needed from you.`);
        break;
    }
  }

  const wanted = drafts.filter((draft) => draft.userId !== options.actorId || TOLD_OF_OWN_ACTION.has(draft.type));
  if (wanted.length === 0) return;
  const members = new Set(
    (
      await tx
        .select({ userId: memberships.userId })
        .from(memberships)
        .where(and(eq(memberships.tenantId, epak.tenantId), inArray(memberships.userId, [...new Set(wanted.map((draft) => draft.userId))])))
    ).map((row) => row.userId),
  );
  const rows = wanted
    .filter((draft) => members.has(draft.userId))
    .map((draft) => ({ tenantId: epak.tenantId, userId: draft.userId, type: draft.type, epakId: epak.id, title: draft.title, body: draft.body }));
  if (rows.length === 0) return;
  const inserted = await tx.insert(notifications).values(rows).returning({ id: notifications.id, userId: notifications.userId, tenantId: notifications.tenantId });
  for (const row of inserted) {
    const signal: NotificationSignal = { id: row.id, userId: row.userId, tenantId: row.tenantId };
    await tx.execute(sql`select pg_notify(${NOTIFICATION_CHANNEL}, ${JSON.stringify(signal)})`);
  }
}

/**
 * The people an ePak has reached so far, who are told when it is deleted: a place that was
 * acted on, or that waits in the step under way (the inbox's rule, 0017_inbox_triggers.sql).
 * Read before the delete stops the ePak, which marks open places Skipped.
 */
export async function reachedUserIds(tx: Db, epak: { id: string; status: string; currentStep: number | null }): Promise<string[]> {
  const places = await tx
    .select({ userId: epakRecipients.userId, status: epakRecipients.status, order: epakSteps.position })
    .from(epakRecipients)
    .innerJoin(epakSteps, eq(epakSteps.id, epakRecipients.stepId))
    .where(eq(epakRecipients.epakId, epak.id));
  const reached = places.filter((place) =>
    place.status === 'Pending' || place.status === 'DelegatePending'
      ? epak.status === 'InProgress' && epak.currentStep !== null && place.order <= epak.currentStep
      : place.status !== 'NotRequired' && place.status !== 'Skipped',
  );
  return [...new Set(reached.map((place) => place.userId))];
}
