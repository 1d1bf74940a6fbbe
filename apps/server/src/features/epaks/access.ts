import { DomainError, enforce, type EpakResource, type EpakViewer, invalidInput, notFound, ResponseCode, type SignerStatus, type WorkflowStateType } from '@pakt/domain';
import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../platform/db/database';
import { epakDocumentRevisions, epakDocuments, epakRecipients, epakSteps, epaks, epakUserStates, users } from '../../platform/db/schema';
import { listCeremonyReasons } from '../reasons';
import { loadTenantSettings } from '../identity';
import { ceremonyStamps } from '../rubber-stamps';
import { loadViewerVerification } from './recipient-verification';
import { nameRequiredFor, recordedName } from './signer-name';

/** Who is asking, inside which tenant. */
export interface EpakActor {
  tenantId: string;
  userId: string;
}

export type EpakRow = typeof epaks.$inferSelect;

/** The ePak rules a loader applies after loading (packages/domain/src/policies). */
export type EpakAction = 'epak.view' | 'epak.manage' | 'epak.respond';

export interface LoadedEpak {
  epak: EpakRow;
  isOwner: boolean;
  /** The ePak as its policies see it, for rules asked later with more facts (recallDelegation). */
  resource: EpakResource;
}

/**
 * An ePak the caller may see: theirs, or one they are a recipient of; with `action`, one the
 * caller may also do that to (the owner manages, a recipient responds). Anyone else, inside the
 * tenant or not, is told it does not exist (404), so ids cannot be probed; a recipient asking for
 * the owner's action gets 403. `forUpdate` takes the ePak's row lock, which every change of a
 * started ePak holds.
 */
export async function loadVisibleEpak(db: Db, actor: EpakActor, epakId: string, options: { forUpdate?: boolean; action?: EpakAction } = {}): Promise<LoadedEpak> {
  const query = db.select().from(epaks).where(and(eq(epaks.id, epakId), eq(epaks.tenantId, actor.tenantId)));
  const [epak] = options.forUpdate ? await query.for('update') : await query;
  if (!epak) throw notFound('No such ePak.');
  const isOwner = epak.ownerId === actor.userId;
  // The owner sees and manages without being a recipient: the lookup is spared unless it matters.
  const needsRecipient = !isOwner || options.action === 'epak.respond';
  const [mine] = needsRecipient
    ? await db
        .select({ id: epakRecipients.id })
        .from(epakRecipients)
        .where(and(eq(epakRecipients.epakId, epak.id), eq(epakRecipients.userId, actor.userId)))
        .limit(1)
    : [];
  const resource: EpakResource = { tenantId: epak.tenantId, ownerId: epak.ownerId, status: epak.status, actorIsRecipient: mine !== undefined };
  enforce(actor, options.action ?? 'epak.view', resource);
  return { epak, isOwner, resource };
}

/** Refuses any action on an ePak its owner deleted (-46) or archived (-47). */
export function assertActionable(epak: EpakRow): void {
  if (epak.deletedAt) throw new DomainError(ResponseCode.EPAK_DELETED, 'This ePak was deleted.');
  if (epak.archivedAt) throw new DomainError(ResponseCode.EPAK_ARCHIVED, 'This ePak is archived.');
}

/**
 * Refuses a recipient's action on an ePak past its expiry that the expiry job (every minute) has
 * not closed yet: the deadline holds to the second, not to the job's next run.
 */
export function assertNotOverdue(epak: EpakRow, now: Date = new Date()): void {
  if (epak.status === 'InProgress' && epak.expiresAt && epak.expiresAt.getTime() <= now.getTime()) {
    throw invalidInput(`This ePak expired on ${epak.expiresAt.toISOString()}: nothing more can be done on it.`, [{ path: 'expiresOn', message: 'expired' }]);
  }
}

/**
 * What the viewer's answer depends on beyond the ePak: whether texts can reach people (signer
 * verification offers a code by text only then; recipient-verification.ts smsAvailableOn).
 */
export interface ViewerOptions {
  readonly smsAvailable?: boolean;
}

/** What the caller may do with an ePak (EpakDetail.viewer). */
export async function loadViewer(db: Db, actor: EpakActor, epak: EpakRow, options: ViewerOptions = {}): Promise<EpakViewer> {
  const mine = await db
    .select({ id: epakRecipients.id, status: epakRecipients.status, order: epakSteps.position, type: epakSteps.type, signedName: epakRecipients.signedName })
    .from(epakRecipients)
    .innerJoin(epakSteps, eq(epakSteps.id, epakRecipients.stepId))
    .where(and(eq(epakRecipients.epakId, epak.id), eq(epakRecipients.userId, actor.userId)));
  const current = mine.find((r) => r.order === epak.currentStep) ?? [...mine].sort((a, b) => b.order - a.order)[0];
  const [state] = await db
    .select()
    .from(epakUserStates)
    .where(and(eq(epakUserStates.epakId, epak.id), eq(epakUserStates.userId, actor.userId)));
  const documentIds = (await db.select({ id: epakDocuments.id }).from(epakDocuments).where(eq(epakDocuments.epakId, epak.id))).map((d) => d.id);
  const viewed = ((state?.viewedDocumentIds as string[] | undefined) ?? []).filter((id) => documentIds.includes(id));
  const isRead = Boolean(state?.readAt) || (documentIds.length > 0 && documentIds.every((id) => viewed.includes(id)));
  const signed = current
    ? (
        await db
          .select({ documentId: epakDocumentRevisions.epakDocumentId })
          .from(epakDocumentRevisions)
          .where(and(eq(epakDocumentRevisions.recipientId, current.id), inArray(epakDocumentRevisions.epakDocumentId, documentIds.length ? documentIds : ['00000000-0000-0000-0000-000000000000'])))
      ).map((r) => r.documentId)
    : [];
  const canAct =
    epak.status === 'InProgress' &&
    !epak.deletedAt &&
    !epak.archivedAt &&
    current !== undefined &&
    current.order === epak.currentStep &&
    (current.status === 'Pending' || current.status === 'DelegatePending');
  // Read from the ePak's tenant, not the caller's session: a signing-link session cannot read it.
  // OFF when unset, as resolveTenantSettings fills it in.
  const { geolocationType } = await loadTenantSettings(db, epak.tenantId);
  const [me] = await db.select({ email: users.email, firstName: users.firstName, lastName: users.lastName, type: users.type }).from(users).where(eq(users.id, actor.userId));
  const signedName = current?.signedName ?? null;
  return {
    isOwner: epak.ownerId === actor.userId,
    recipientId: current?.id ?? null,
    stepOrder: current?.order ?? null,
    stepType: (current?.type as WorkflowStateType | undefined) ?? null,
    status: (current?.status as SignerStatus | undefined) ?? null,
    canAct,
    isRead,
    // Spec §5: eligible when the ePak is not view-enforced, or the caller has read it.
    eligibleForAction: !epak.viewEnforced || isRead,
    viewedDocumentIds: viewed,
    signedDocumentIds: signed,
    starred: state?.starred ?? false,
    geolocation: geolocationType ?? 'OFF',
    reasons: await listCeremonyReasons(db, epak.tenantId),
    // Only asked while the caller can sign: the chooser serves nothing else.
    rubberStamps: canAct ? await ceremonyStamps({ db, tenantId: epak.tenantId, userId: actor.userId }) : { available: false, stamps: [] },
    // Signer verification (issue 22): where the caller's place stands; masked addresses, never the code.
    verification: await loadViewerVerification(db, current?.id ?? null, { smsAvailable: options.smsAvailable ?? false }),
    signerName: signedName ?? (me ? recordedName(me) : null),
    nameRequired: canAct && me !== undefined && nameRequiredFor(me, signedName),
  };
}
