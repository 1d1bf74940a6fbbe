import {
  type CeremonyRubberStamps,
  DomainError,
  enforce,
  type EpakResource,
  type EpakViewer,
  type GeolocationType,
  invalidInput,
  notFound,
  type RecipientVerification,
  ResponseCode,
  type SignerStatus,
  type SigningReason,
  type WorkflowStateType,
} from '@pakt/domain';
import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../platform/db/database';
import { epakDocumentRevisions, epakDocuments, epakRecipients, epakSteps, epaks, epakUserStates, users } from '../../platform/db/schema';
import { listCeremonyReasons } from '../reasons';
import { loadTenantSettings } from '../identity';
import { ceremonyStamps } from '../rubber-stamps';
import { loadViewerVerification } from './recipient-verification';
import { nameRequiredFor, recordedName, type SignerRecord } from './signer-name';

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
  // The owner sees and manages without being a recipient: the lookup is spared unless it matters.
  const [mine] = needsRecipientFact(actor, epak, options.action)
    ? await db
        .select({ id: epakRecipients.id })
        .from(epakRecipients)
        .where(and(eq(epakRecipients.epakId, epak.id), eq(epakRecipients.userId, actor.userId)))
        .limit(1)
    : [];
  return enforceOnEpak(actor, epak, { actorIsRecipient: mine !== undefined, action: options.action });
}

/** Whether the rule for `action` needs to know if the caller is a recipient (the owner views and manages without). */
export const needsRecipientFact = (actor: EpakActor, epak: Pick<EpakRow, 'ownerId'>, action?: EpakAction): boolean =>
  epak.ownerId !== actor.userId || action === 'epak.respond';

/**
 * The rule loadVisibleEpak applies, for an ePak of the caller's tenant read elsewhere (the ePak
 * detail reads it in one statement with everything else): the domain policy decides, here in
 * TypeScript, never in SQL. `actorIsRecipient` counts only where needsRecipientFact says it does.
 */
export function enforceOnEpak<E extends Pick<EpakRow, 'tenantId' | 'ownerId' | 'status'>>(
  actor: EpakActor,
  epak: E,
  facts: { actorIsRecipient: boolean; action?: EpakAction | undefined },
): { epak: E; isOwner: boolean; resource: EpakResource } {
  const isOwner = epak.ownerId === actor.userId;
  const actorIsRecipient = needsRecipientFact(actor, epak, facts.action) && facts.actorIsRecipient;
  const resource: EpakResource = { tenantId: epak.tenantId, ownerId: epak.ownerId, status: epak.status, actorIsRecipient };
  enforce(actor, facts.action ?? 'epak.view', resource);
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

/** One of the caller's places in an ePak, as the viewer reads it. */
export interface ViewerPlace {
  readonly id: string;
  readonly status: string;
  /** Its step's order. */
  readonly order: number;
  readonly type: string;
  readonly signedName: string | null;
}

/** The place the viewer speaks of: the caller's in the step under way, else their latest (one place per step at most). */
export function viewerPlace<P extends Pick<ViewerPlace, 'order'>>(places: readonly P[], currentStep: number | null): P | undefined {
  return places.find((p) => p.order === currentStep) ?? [...places].sort((a, b) => b.order - a.order)[0];
}

/** Something waits for the caller now: their place in the step under way is open, on an ePak still under way. */
export function viewerCanAct(epak: Pick<EpakRow, 'status' | 'deletedAt' | 'archivedAt' | 'currentStep'>, place: Pick<ViewerPlace, 'order' | 'status'> | undefined): boolean {
  return (
    epak.status === 'InProgress' &&
    !epak.deletedAt &&
    !epak.archivedAt &&
    place !== undefined &&
    place.order === epak.currentStep &&
    (place.status === 'Pending' || place.status === 'DelegatePending')
  );
}

/** What the viewer is made of, however it was read (loadViewer's queries, or the ePak detail's one statement). */
export interface ViewerFacts {
  /** viewerPlace of the caller's places. */
  readonly place: ViewerPlace | undefined;
  /** viewerCanAct for that place. */
  readonly canAct: boolean;
  /** The caller's star and read state of the ePak, when they have one. */
  readonly state: { readonly starred: boolean; readonly read: boolean; readonly viewedDocumentIds: unknown } | undefined;
  /** The ePak's documents. */
  readonly documentIds: readonly string[];
  /** The documents signed in `place`. */
  readonly signedDocumentIds: string[];
  /** The ePak's tenant's geolocation setting, unset when it has none. */
  readonly geolocation: GeolocationType | undefined;
  /** The caller's record. */
  readonly me: SignerRecord | undefined;
  readonly reasons: SigningReason[];
  readonly rubberStamps: CeremonyRubberStamps;
  readonly verification: RecipientVerification | undefined;
}

/** The viewer from its facts: the rules of EpakDetail.viewer, in one place for both ways of reading them. */
export function presentViewer(actor: EpakActor, epak: Pick<EpakRow, 'ownerId' | 'viewEnforced'>, facts: ViewerFacts): EpakViewer {
  const { place, state, documentIds, canAct, me } = facts;
  const viewed = ((state?.viewedDocumentIds as string[] | undefined) ?? []).filter((id) => documentIds.includes(id));
  const isRead = Boolean(state?.read) || (documentIds.length > 0 && documentIds.every((id) => viewed.includes(id)));
  const signedName = place?.signedName ?? null;
  return {
    isOwner: epak.ownerId === actor.userId,
    recipientId: place?.id ?? null,
    stepOrder: place?.order ?? null,
    stepType: (place?.type as WorkflowStateType | undefined) ?? null,
    status: (place?.status as SignerStatus | undefined) ?? null,
    canAct,
    isRead,
    // Spec §5: eligible when the ePak is not view-enforced, or the caller has read it.
    eligibleForAction: !epak.viewEnforced || isRead,
    viewedDocumentIds: viewed,
    signedDocumentIds: facts.signedDocumentIds,
    starred: state?.starred ?? false,
    // OFF when unset, as resolveTenantSettings fills it in.
    geolocation: facts.geolocation ?? 'OFF',
    reasons: facts.reasons,
    rubberStamps: facts.rubberStamps,
    verification: facts.verification,
    signerName: signedName ?? (me ? recordedName(me) : null),
    nameRequired: canAct && me !== undefined && nameRequiredFor(me, signedName),
  };
}

/** The rubber-stamp chooser of a caller who cannot act (only asked while the caller can sign). */
export const noCeremonyStamps = (): CeremonyRubberStamps => ({ available: false, stamps: [] });

/**
 * What the caller may do with an ePak (EpakDetail.viewer), read with one query per fact: for the
 * commands that answer a viewer inside their transaction. The ePak detail reads the same facts in
 * one statement (epak-detail-sql.ts).
 */
export async function loadViewer(db: Db, actor: EpakActor, epak: EpakRow, options: ViewerOptions = {}): Promise<EpakViewer> {
  const mine = await db
    .select({ id: epakRecipients.id, status: epakRecipients.status, order: epakSteps.position, type: epakSteps.type, signedName: epakRecipients.signedName })
    .from(epakRecipients)
    .innerJoin(epakSteps, eq(epakSteps.id, epakRecipients.stepId))
    .where(and(eq(epakRecipients.epakId, epak.id), eq(epakRecipients.userId, actor.userId)));
  const place = viewerPlace(mine, epak.currentStep);
  const [state] = await db
    .select()
    .from(epakUserStates)
    .where(and(eq(epakUserStates.epakId, epak.id), eq(epakUserStates.userId, actor.userId)));
  const documentIds = (await db.select({ id: epakDocuments.id }).from(epakDocuments).where(eq(epakDocuments.epakId, epak.id))).map((d) => d.id);
  const signed = place
    ? (
        await db
          .select({ documentId: epakDocumentRevisions.epakDocumentId })
          .from(epakDocumentRevisions)
          .where(and(eq(epakDocumentRevisions.recipientId, place.id), inArray(epakDocumentRevisions.epakDocumentId, documentIds.length ? documentIds : ['00000000-0000-0000-0000-000000000000'])))
      ).map((r) => r.documentId)
    : [];
  const canAct = viewerCanAct(epak, place);
  // Read from the ePak's tenant, not the caller's session: a signing-link session cannot read it.
  const { geolocationType } = await loadTenantSettings(db, epak.tenantId);
  const [me] = await db.select({ email: users.email, firstName: users.firstName, lastName: users.lastName, type: users.type }).from(users).where(eq(users.id, actor.userId));
  return presentViewer(actor, epak, {
    place,
    canAct,
    state: state && { starred: state.starred, read: Boolean(state.readAt), viewedDocumentIds: state.viewedDocumentIds },
    documentIds,
    signedDocumentIds: signed,
    geolocation: geolocationType,
    me,
    reasons: await listCeremonyReasons(db, epak.tenantId),
    rubberStamps: canAct ? await ceremonyStamps({ db, tenantId: epak.tenantId, userId: actor.userId }) : noCeremonyStamps(),
    // Signer verification (issue 22): where the caller's place stands; masked addresses, never the code.
    verification: await loadViewerVerification(db, place?.id ?? null, { smsAvailable: options.smsAvailable ?? false }),
  });
}
