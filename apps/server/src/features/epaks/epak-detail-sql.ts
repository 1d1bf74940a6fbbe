import type { BuiltInReasonKey, EpakViewer, SigningReason } from '@pakt/domain';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database';
import { epaks, memberships, rubberStamps, tenantSettings, users } from '../../platform/db/schema';
import { parseTenantSettings } from '../identity';
import { presentCeremonyStamps, stampsAvailableTo } from '../rubber-stamps';
import { type EpakActor, type EpakRow, noCeremonyStamps, presentViewer, type ViewerOptions, type ViewerPlace, viewerCanAct, viewerPlace } from './access';
import { presentVerification, type VerificationPlace } from './recipient-verification';

/**
 * The ePak detail (GET /msbapi/v2/epaks/{id}) in one prepared statement: the ePak, its documents,
 * steps and recipients, and every fact its viewer needs, with the lists built as JSON by
 * PostgreSQL. It used to be fourteen queries, each built by drizzle, planned and sent on its own,
 * and their fixed cost was most of the request (bench/src/epak-detail.ts). What the answer means
 * is decided in TypeScript as before: the visibility policy (access.ts enforceOnEpak), the viewer's
 * rules (presentViewer) and the stamp chooser's (presentCeremonyStamps).
 *
 * Timestamps inside the JSON are the text PostgreSQL sends for a timestamptz column, turned into a
 * Date exactly as drizzle turns a column (new Date(text)), so every ISO string is the one the
 * separate queries gave. Lists are arrays rather than objects: shorter to write and to parse.
 */

/** [documentId, sourceDocumentId, name, pageCount, pages, signatureState, revisions], by position. */
export type DocumentJson = [string, string | null, string, number, unknown, unknown, number];
/** [recipientId, userId, email, firstName, lastName, userType, status, verificationRequired, signedName], by position. */
export type RecipientJson = [string, string, string, string, string, string, string, boolean, string | null];
/** [order, workflowStateId, name, type, recipients], by order. */
export type StepJson = [number, string, string, string, RecipientJson[]];
/**
 * One of the caller's places: [id, order, type, status, signedName, verificationRequired, verifiedAt,
 * codeHash, codeSentAt, codeExpiresAt, attempts, lockedUntil, signedDocumentIds (by position)].
 */
export type PlaceJson = [string, number, string, string, string | null, boolean, string | null, string | null, string | null, string | null, number, string | null, string[]];
/** The caller's state of the ePak: [starred, read, viewedDocumentIds]. */
export type StateJson = [boolean, boolean, unknown];
/** The caller's record: [email, firstName, lastName, type, phone]. */
export type MeJson = [string, string, string, string, string | null];
/** The tenant's enabled reasons, the default first: [id, key, text, position, enabled, isDefault]. */
export type ReasonJson = [string, string | null, string, number, boolean, boolean];
/** A stamp the caller may apply: [id, name, width, height, ownerId]. */
export type StampJson = [string, string, number, number, string];

const EPAK_ID = sql.placeholder('epakId');
const TENANT_ID = sql.placeholder('tenantId');
const USER_ID = sql.placeholder('userId');

/** The statement's one value, built by PostgreSQL: the ePak's columns (timestamps as text) and every list. */
export interface DetailJson {
  id: string;
  tenantId: string;
  ownerId: string;
  subject: string;
  message: string | null;
  status: string;
  signingPolicy: string;
  workflowId: string | null;
  currentStep: number | null;
  viewEnforced: boolean;
  expiresAt: string | null;
  notificationStartAt: string | null;
  deletedAt: string | null;
  archivedAt: string | null;
  createdAt: string;
  updatedAt: string;
  /** Null only if the owner's record were gone. */
  ownerFirstName: string | null;
  ownerLastName: string | null;
  documents: DocumentJson[];
  steps: StepJson[];
  places: PlaceJson[];
  state: StateJson | null;
  me: MeJson | null;
  /** The ePak's tenant's stored settings (tenant_settings.settings), null when it has none. */
  settings: unknown;
  reasons: ReasonJson[];
  /** The caller's passcode flag in the tenant, an active membership's; null without a membership. */
  passcodeFlag: boolean | null;
  /** Null when not read (see below). */
  stamps: StampJson[] | null;
}

/**
 * The statement, before it is prepared: exported so a bench can EXPLAIN exactly this text. One
 * row of one JSON value, so the driver describes, parses and maps one column rather than forty
 * (the row description comes back at every execution). The ePak's tenant's settings and the
 * caller's membership are joined once, and the stamp chooser's condition reads them from there.
 */
export function epakDetailStatement(db: Db) {
  return db
    .select({
      detail: sql<DetailJson>`json_build_object(
        'id', ${epaks.id}, 'tenantId', ${epaks.tenantId}, 'ownerId', ${epaks.ownerId}, 'subject', ${epaks.subject}, 'message', ${epaks.message},
        'status', ${epaks.status}, 'signingPolicy', ${epaks.signingPolicy}, 'workflowId', ${epaks.workflowId}, 'currentStep', ${epaks.currentStep},
        'viewEnforced', ${epaks.viewEnforced}, 'expiresAt', ${epaks.expiresAt}::text, 'notificationStartAt', ${epaks.notificationStartAt}::text,
        'deletedAt', ${epaks.deletedAt}::text, 'archivedAt', ${epaks.archivedAt}::text, 'createdAt', ${epaks.createdAt}::text, 'updatedAt', ${epaks.updatedAt}::text,
        'ownerFirstName', ${users.firstName}, 'ownerLastName', ${users.lastName},
        'documents', (
          select coalesce(json_agg(json_build_array(d.id, d.source_document_id, d.name, d.page_count, d.pages, d.signature_state,
                   (select count(*)::int from epak_document_revisions v where v.epak_document_id = d.id)) order by d.position), '[]'::json)
          from epak_documents d where d.epak_id = ${epaks.id}),
        'steps', (
          select coalesce(json_agg(json_build_array(s.position, s.workflow_state_id, s.name, s.type,
                   (select coalesce(json_agg(json_build_array(r.id, u.id, u.email, u.first_name, u.last_name, u.type, r.status, r.verification_required, r.signed_name)
                                             order by r.position), '[]'::json)
                    from epak_recipients r join users u on u.id = r.user_id
                    where r.epak_id = s.epak_id and r.step_id = s.id)) order by s.position), '[]'::json)
          from epak_steps s where s.epak_id = ${epaks.id}),
        -- The caller's places (one per step at most), with what the viewer asks of them: the
        -- documents signed there and where verification stands. Their existence is also the
        -- "actorIsRecipient" fact of the visibility policy. The caller is picked by FILTER, not in
        -- WHERE: the generic plan must not AND in the index by person, whose range is the whole
        -- inbox of someone who signs everything (100,000 entries for the bench's signer).
        'places', (
          select coalesce(json_agg(json_build_array(r.id, s.position, s.type, r.status, r.signed_name,
                   r.verification_required, r.verified_at::text, r.verification_code_hash, r.verification_code_sent_at::text,
                   r.verification_code_expires_at::text, r.verification_attempts, r.verification_locked_until::text,
                   (select coalesce(json_agg(d.id order by d.position), '[]'::json)
                    from epak_documents d join epak_document_revisions v on v.epak_document_id = d.id and v.recipient_id = r.id
                    where d.epak_id = r.epak_id)) order by s.position) filter (where r.user_id = ${USER_ID}), '[]'::json)
          from epak_recipients r join epak_steps s on s.id = r.step_id
          where r.epak_id = ${epaks.id}),
        'state', (
          select json_build_array(st.starred, st.read_at is not null, st.viewed_document_ids)
          from epak_user_states st where st.epak_id = ${epaks.id} and st.user_id = ${USER_ID}),
        'me', (select json_build_array(u.email, u.first_name, u.last_name, u.type, u.phone) from users u where u.id = ${USER_ID}),
        -- The ePak's tenant's, not the session's: a signing-link session has none of its own.
        'settings', ${tenantSettings.settings},
        'reasons', (
          select coalesce(json_agg(json_build_array(x.id, x.key, x.text, x.position, x.enabled, x.is_default) order by x.is_default desc, x.position), '[]'::json)
          from reasons x where x.tenant_id = ${epaks.tenantId} and x.enabled),
        'passcodeFlag', ${memberships.status} = 'active' and ${memberships.passcodeFlag},
        -- Read only when the chooser could offer them (a superset of what presentCeremonyStamps
        -- asks: the ePak under way, the tenant's flag set, the caller's passcode flag); otherwise
        -- the subquery is not run at all.
        'stamps', case
          when ${epaks.status} = 'InProgress' and ${tenantSettings.settings} @> '{"rubberStampEnabled": true}'::jsonb
               and ${memberships.status} = 'active' and ${memberships.passcodeFlag}
          then (select coalesce(json_agg(json_build_array(${rubberStamps.id}, ${rubberStamps.name}, ${rubberStamps.width}, ${rubberStamps.height}, ${rubberStamps.ownerId})), '[]'::json)
                from ${rubberStamps} where ${stampsAvailableTo(db, TENANT_ID, USER_ID)})
        end)`,
    })
    .from(epaks)
    .leftJoin(users, eq(users.id, epaks.ownerId))
    .leftJoin(tenantSettings, eq(tenantSettings.tenantId, epaks.tenantId))
    .leftJoin(memberships, and(eq(memberships.tenantId, epaks.tenantId), eq(memberships.userId, USER_ID)))
    .where(and(eq(epaks.id, EPAK_ID), eq(epaks.tenantId, TENANT_ID)));
}

const prepareEpakDetail = (db: Db) => epakDetailStatement(db).prepare('epak_detail');

// Prepared once per database (drizzle keeps the text; pg prepares it once per connection under its
// name, planned generically: database.ts sets plan_cache_mode).
const statements = new WeakMap<Db, ReturnType<typeof prepareEpakDetail>>();

/** What the ePak detail reads of the ePak itself (its columns the answer and the rules use). */
export type DetailEpak = Pick<
  EpakRow,
  | 'id'
  | 'tenantId'
  | 'ownerId'
  | 'subject'
  | 'message'
  | 'status'
  | 'signingPolicy'
  | 'workflowId'
  | 'currentStep'
  | 'viewEnforced'
  | 'expiresAt'
  | 'notificationStartAt'
  | 'deletedAt'
  | 'archivedAt'
  | 'createdAt'
  | 'updatedAt'
>;

/** The ePak `epakId` of the caller's tenant with all the detail and viewer facts, or undefined when the tenant has no such ePak. */
export async function readEpakDetail(db: Db, actor: EpakActor, epakId: string): Promise<{ epak: DetailEpak; detail: DetailJson } | undefined> {
  let statement = statements.get(db);
  if (!statement) {
    statement = prepareEpakDetail(db);
    statements.set(db, statement);
  }
  const [row] = await statement.execute({ epakId, tenantId: actor.tenantId, userId: actor.userId });
  if (!row) return undefined;
  const { detail } = row;
  return {
    epak: {
      id: detail.id,
      tenantId: detail.tenantId,
      ownerId: detail.ownerId,
      subject: detail.subject,
      message: detail.message,
      status: detail.status,
      signingPolicy: detail.signingPolicy,
      workflowId: detail.workflowId,
      currentStep: detail.currentStep,
      viewEnforced: detail.viewEnforced,
      expiresAt: timestamp(detail.expiresAt),
      notificationStartAt: timestamp(detail.notificationStartAt),
      deletedAt: timestamp(detail.deletedAt),
      archivedAt: timestamp(detail.archivedAt),
      createdAt: timestamp(detail.createdAt)!,
      updatedAt: timestamp(detail.updatedAt)!,
    },
    detail,
  };
}

/** A timestamptz as PostgreSQL writes it, as drizzle reads a column. */
function timestamp(text: string | null): Date | null {
  return text === null ? null : new Date(text);
}

/** One of the caller's places as the statement reads it. */
interface DetailPlace extends ViewerPlace {
  readonly verification: VerificationPlace;
  readonly signedDocumentIds: string[];
}

/** The viewer (EpakDetail.viewer) from the statement's row, by the rules loadViewer applies (access.ts presentViewer). */
export function viewerOfDetailRow(actor: EpakActor, epak: DetailEpak, row: DetailJson, options: ViewerOptions = {}): EpakViewer {
  const places = row.places.map(
    ([id, order, type, status, signedName, verificationRequired, verifiedAt, codeHash, codeSentAt, codeExpiresAt, attempts, lockedUntil, signedDocumentIds]): DetailPlace => ({
      id,
      order,
      type,
      status,
      signedName,
      verification: {
        verificationRequired,
        verifiedAt: timestamp(verifiedAt),
        verificationCodeHash: codeHash,
        verificationCodeSentAt: timestamp(codeSentAt),
        verificationCodeExpiresAt: timestamp(codeExpiresAt),
        verificationAttempts: attempts,
        verificationLockedUntil: timestamp(lockedUntil),
      },
      signedDocumentIds,
    }),
  );
  const place = viewerPlace(places, epak.currentStep);
  const canAct = viewerCanAct(epak, place);
  const settings = parseTenantSettings(row.settings);
  const me = row.me ? { email: row.me[0], firstName: row.me[1], lastName: row.me[2], type: row.me[3], phone: row.me[4] } : undefined;
  return presentViewer(actor, epak, {
    place,
    canAct,
    state: row.state ? { starred: row.state[0], read: row.state[1], viewedDocumentIds: row.state[2] } : undefined,
    documentIds: row.documents.map(([id]) => id),
    signedDocumentIds: place?.signedDocumentIds ?? [],
    geolocation: settings.geolocationType,
    me,
    reasons: row.reasons.map(
      ([reasonId, key, text, position, enabled, isDefault]): SigningReason => ({ reasonId, key: key as BuiltInReasonKey | null, text, position, enabled, isDefault }),
    ),
    rubberStamps: canAct
      ? presentCeremonyStamps({
          rubberStampEnabled: settings.rubberStampEnabled === true,
          passcodeFlag: row.passcodeFlag === true,
          userId: actor.userId,
          rows: row.stamps?.map(([id, name, width, height, ownerId]) => ({ id, name, width, height, ownerId })) ?? null,
        })
      : noCeremonyStamps(),
    // Signer verification (issue 22): the place's user is the caller, so their record gives the addresses.
    verification: place && me ? presentVerification(place.verification, me, { smsAvailable: options.smsAvailable ?? false, now: new Date() }) : undefined,
  });
}
