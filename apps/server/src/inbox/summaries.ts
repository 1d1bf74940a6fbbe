import {
  type EngineState,
  type EpakStatus,
  type EpakSummary,
  type Folder,
  progressPercent,
  type SignerStatus,
  type SigningPolicy,
  type WorkflowStateType,
} from '@pakt/domain';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/database';
import { epakInbox, epakRecipients, epaks, epakSteps, users } from '../db/schema';
import type { EpakActor } from '../epaks/access';

const WAITING: readonly string[] = ['Pending', 'DelegatePending'];
const DAY_MS = 86_400_000;

/**
 * The ePak summaries (spec §3) of a page of the caller's inbox, in three queries whatever the
 * page size: the ePaks with their owners, their steps with every place and its person, and the
 * caller's inbox rows for them (folders, star, read state). Ids outside the caller's tenant, or
 * of ePaks they do not see, are left out.
 */
export async function loadEpakSummaries(db: Db, actor: EpakActor, epakIds: readonly string[], now: Date = new Date()): Promise<Map<string, EpakSummary>> {
  const summaries = new Map<string, EpakSummary>();
  if (epakIds.length === 0) return summaries;
  const ids = [...epakIds];
  const [heads, places, mine] = await Promise.all([
    db
      .select({ epak: epaks, owner: { firstName: users.firstName, middleName: users.middleName, lastName: users.lastName, email: users.email } })
      .from(epaks)
      .innerJoin(users, eq(users.id, epaks.ownerId))
      .where(and(inArray(epaks.id, ids), eq(epaks.tenantId, actor.tenantId))),
    db
      .select({
        epakId: epakSteps.epakId,
        order: epakSteps.position,
        type: epakSteps.type,
        recipientId: epakRecipients.id,
        userId: epakRecipients.userId,
        status: epakRecipients.status,
        firstName: users.firstName,
        lastName: users.lastName,
        email: users.email,
      })
      .from(epakSteps)
      // The ePak ids as well: epak_recipients is indexed by ePak, not by step (bench/inbox: without
      // them PostgreSQL scans every recipient row of the database for each page).
      .leftJoin(epakRecipients, and(eq(epakRecipients.stepId, epakSteps.id), inArray(epakRecipients.epakId, ids)))
      .leftJoin(users, eq(users.id, epakRecipients.userId))
      .where(inArray(epakSteps.epakId, ids))
      .orderBy(asc(epakSteps.epakId), asc(epakSteps.position), asc(epakRecipients.position)),
    db
      .select({ epakId: epakInbox.epakId, folder: epakInbox.folder, starred: epakInbox.starred, isRead: epakInbox.isRead })
      .from(epakInbox)
      .where(and(inArray(epakInbox.epakId, ids), eq(epakInbox.userId, actor.userId), eq(epakInbox.tenantId, actor.tenantId))),
  ]);

  const placesOf = groupBy(places, (p) => p.epakId);
  const rowsOf = groupBy(mine, (r) => r.epakId);
  for (const { epak, owner } of heads) {
    const rows = rowsOf.get(epak.id) ?? [];
    if (rows.length === 0) continue;
    const stepsRows = placesOf.get(epak.id) ?? [];
    const state: EngineState = {
      status: epak.status as EngineState['status'],
      currentStep: epak.currentStep,
      steps: [...groupBy(stepsRows, (p) => p.order)].map(([order, stepPlaces]) => ({
        order,
        type: stepPlaces[0]!.type as WorkflowStateType,
        recipients: stepPlaces.filter((p) => p.recipientId !== null).map((p) => ({ recipientId: p.recipientId!, status: p.status as SignerStatus })),
      })),
    };
    const current = stepsRows.filter((p) => p.order === epak.currentStep);
    const callers = stepsRows.filter((p) => p.userId === actor.userId);
    // Their place in the step under way, else their last one (as the ePak's viewer says).
    const callerPlace = callers.find((p) => p.order === epak.currentStep) ?? callers.at(-1);
    const retention = epak.endedAt && epak.archivalPeriodDays !== null ? new Date(epak.endedAt.getTime() + epak.archivalPeriodDays * DAY_MS) : null;
    summaries.set(epak.id, {
      id: epak.id,
      subject: epak.subject,
      ePakName: epak.subject,
      status: epak.status as EpakStatus,
      signingPolicy: epak.signingPolicy as SigningPolicy,
      starred: rows[0]!.starred,
      isRead: rows[0]!.isRead,
      sentOn: epak.startedAt?.toISOString() ?? null,
      modifiedOn: epak.updatedAt.toISOString(),
      expiredOn: epak.expiresAt?.toISOString() ?? null,
      retentionDate: retention?.toISOString() ?? null,
      notificationStartDate: epak.notificationStartAt?.toISOString() ?? null,
      deletedOn: epak.deletedAt?.toISOString() ?? null,
      archivalPeriodOver: retention !== null && retention.getTime() <= now.getTime(),
      ownerId: epak.ownerId,
      ownerFirstName: owner.firstName,
      ownerMiddleName: owner.middleName,
      ownerLastName: owner.lastName,
      ownerUserName: owner.email,
      progressPercent: progressPercent(state),
      currentWorkflowStateId: current.length > 0 ? epak.currentStep : null,
      currentWorkflowStateAction: (current[0]?.type as WorkflowStateType | undefined) ?? null,
      currentStatePendingSigners: current
        .filter((p) => p.userId !== null && WAITING.includes(p.status!))
        .map((p) => ({ userId: p.userId!, name: `${p.firstName ?? ''} ${p.lastName ?? ''}`.trim(), email: p.email!, status: p.status as SignerStatus })),
      signerStatus: (callerPlace?.status as SignerStatus | undefined) ?? null,
      viewEnforced: epak.viewEnforced,
      folders: rows.map((r) => r.folder as Folder).sort(),
    });
  }
  return summaries;
}

function groupBy<T, K>(items: readonly T[], key: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}
