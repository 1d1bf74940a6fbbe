import { DomainError, invalidInput, notFound, ResponseCode } from '@pakt/domain';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/database';
import { epakRecipients, epakSteps, memberships, users } from '../../platform/db/schema';
import { assertActionable, type EpakRow } from './access';

/**
 * The recipient a signing link is shown or resent for (issue 21), checked under the ePak's row
 * lock by both commands alike. A link opens the ePak as that recipient, so it is handed out only
 * for a place that is theirs to open now, and only to people who are sent links at all: an
 * active member of the ePak's tenant signs in instead (notify.ts makes the same choice).
 */
export interface LinkPlace {
  readonly recipientId: string;
  readonly userId: string;
  readonly email: string;
  readonly firstName: string;
  readonly lastName: string;
  readonly order: number;
  readonly status: string;
  readonly lastRemindedAt: Date | null;
}

/** Statuses of a place that is no longer its holder's: handed on, or never reached. */
const NO_PART = ['Delegated', 'Skipped', 'NotRequired'];
/** Statuses of someone who has acted: their link still opens the ePak to read and download. */
const ACTED = ['Signed', 'Reviewed', 'Rejected', 'Emailed'];

export async function linkPlaceOf(tx: Db, epak: EpakRow, recipientId: string): Promise<LinkPlace> {
  assertActionable(epak);
  if (epak.status === 'Draft') throw invalidInput('This ePak has not been sent: nobody has a link to it yet.', [{ path: 'status', message: epak.status }]);
  const [place] = await tx
    .select({ recipient: epakRecipients, order: epakSteps.position, user: users })
    .from(epakRecipients)
    .innerJoin(epakSteps, eq(epakSteps.id, epakRecipients.stepId))
    .innerJoin(users, eq(users.id, epakRecipients.userId))
    .where(and(eq(epakRecipients.id, recipientId), eq(epakRecipients.epakId, epak.id)));
  if (!place) throw notFound('No such recipient in this ePak.');
  const { recipient, user } = place;
  const reached = ACTED.includes(recipient.status) || (epak.status === 'InProgress' && epak.currentStep !== null && place.order <= epak.currentStep);
  if (NO_PART.includes(recipient.status) || !reached) {
    throw new DomainError(ResponseCode.USER_WORKFLOW_STATUS_NOT_PENDING, `${user.email} has no part of this ePak to open now (${recipient.status}).`, { data: { email: user.email } });
  }
  const [membership] = await tx
    .select({ status: memberships.status })
    .from(memberships)
    .where(and(eq(memberships.tenantId, epak.tenantId), eq(memberships.userId, user.id)));
  if (membership?.status === 'active') {
    throw invalidInput(`${user.email} is a member of this organisation and opens the ePak by signing in: send a reminder instead.`, [{ path: 'recipientId', message: 'member' }]);
  }
  if (user.disabledAt) throw new DomainError(ResponseCode.USER_DISABLED, `${user.email} is disabled: contact your administrator.`, { data: { email: user.email } });
  return {
    recipientId: recipient.id,
    userId: user.id,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    order: place.order,
    status: recipient.status,
    lastRemindedAt: recipient.lastRemindedAt,
  };
}
