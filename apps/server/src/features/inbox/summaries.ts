import {
  type EngineState,
  type EpakStatus,
  type EpakSummary,
  inboxFolders,
  progressPercent,
  type SignerStatus,
  type SigningPolicy,
  type WorkflowStateType,
  fullName,
} from '@pakt/domain';
import { type Placeholder, type SQL, sql } from 'drizzle-orm';

const WAITING: readonly string[] = ['Pending', 'DelegatePending'];
const DAY_MS = 86_400_000;

/**
 * One ePak of a page as pageSummaries reads it: values only, in this order (no keys to write,
 * send and parse fifty times), timestamps as epoch milliseconds (cut as JavaScript would cut
 * PostgreSQL's microseconds, and turned into the API's strings without parsing any).
 */
export type SummaryRow = [
  id: string,
  subject: string,
  status: string,
  signingPolicy: string,
  startedAt: number | null,
  updatedAt: number,
  expiresAt: number | null,
  endedAt: number | null,
  archivalPeriodDays: number | null,
  notificationStartAt: number | null,
  deletedAt: number | null,
  archived: boolean,
  ownerId: string,
  viewEnforced: boolean,
  currentStep: number | null,
  ownerFirstName: string,
  ownerMiddleName: string | null,
  ownerLastName: string,
  ownerEmail: string,
  starred: boolean,
  isRead: boolean,
];

/**
 * A place of a page's ePak: which ePak (its place on the page, from 1), the step's order and
 * type, the place (none for a step without places) and its person; names and e-mail only in the
 * step under way (no other place's person is shown). The page's places come in page order, then
 * step order, then place order.
 */
export type PlaceRow = [
  item: number,
  step: number,
  type: string,
  recipientId: string | null,
  userId: string | null,
  status: string | null,
  firstName: string | null,
  lastName: string | null,
  email: string | null,
];

/** Epoch milliseconds of a timestamp, cut (not rounded) to the millisecond as Date cuts ISO strings. */
const epochMs = (column: SQL) => sql`floor(extract(epoch from ${column}) * 1000)::bigint`;

/**
 * The summaries of a page, for the page's one statement (list-inbox.ts): `ctes` follow a CTE
 * named page (epak_id, ord) of the caller's own inbox rows (which are the visibility check);
 * `items` is then the page's ePaks (SummaryRow) as one JSON array in page order, and `places`
 * the places of all of them (PlaceRow) as another.
 *
 * Set-based: each table is read once for the whole page (the ePaks, their steps and places, the
 * names of the step under way, the owners, the caller's star and read marks) and aggregated once
 * for the page, not per ePak; no subquery runs per ePak, and each ePak row is read once. The
 * folders an ePak is in for the caller are not read back from the inbox rows (one more lookup per
 * ePak): they follow from the places read here by the rules the inbox trigger itself follows
 * (inboxFolders), in toEpakSummaries.
 */
export function pageSummaries(options: { userId: string | Placeholder; tenantId: string | Placeholder }): { ctes: SQL; items: SQL; places: SQL } {
  const { userId, tenantId } = options;
  return {
    ctes: sql`
    pe as (
      select page.ord, e.id, e.subject, e.status, e.signing_policy, e.started_at, e.updated_at, e.expires_at, e.ended_at,
             e.archival_period_days, e.notification_start_at, e.deleted_at, e.archived_at, e.owner_id, e.view_enforced, e.current_step
      from page join epaks e on e.id = page.epak_id and e.tenant_id = ${tenantId}
    )`,
    items: sql`(
      select coalesce(json_agg(json_build_array(
               pe.id, pe.subject, pe.status, pe.signing_policy, ${epochMs(sql`pe.started_at`)}, ${epochMs(sql`pe.updated_at`)},
               ${epochMs(sql`pe.expires_at`)}, ${epochMs(sql`pe.ended_at`)}, pe.archival_period_days, ${epochMs(sql`pe.notification_start_at`)},
               ${epochMs(sql`pe.deleted_at`)}, pe.archived_at is not null, pe.owner_id, pe.view_enforced, pe.current_step,
               o.first_name, o.middle_name, o.last_name, o.email, coalesce(us.starred, false), us.read_at is not null) order by pe.ord), '[]'::json)
      from pe
      join users o on o.id = pe.owner_id
      left join epak_user_states us on us.epak_id = pe.id and us.user_id = ${userId})`,
    places: sql`(
      -- The ePak id on the places too: epak_recipients is indexed by ePak, not by step. A person
      -- is looked up only for a place of the step under way.
      select coalesce(json_agg(json_build_array(pe.ord, s.position, s.type, r.id, r.user_id, r.status, u.first_name, u.last_name, u.email)
                      order by pe.ord, s.position, r.position), '[]'::json)
      from pe
      join epak_steps s on s.epak_id = pe.id
      left join epak_recipients r on r.step_id = s.id and r.epak_id = pe.id
      left join users u on u.id = (case when s.position = pe.current_step then r.user_id end))`,
  };
}

/** A page's summaries (spec §3), as the caller sees them, from the rows pageSummaries read. */
export function toEpakSummaries(rows: readonly SummaryRow[], places: readonly PlaceRow[], callerId: string, now: Date): EpakSummary[] {
  const placesOf: PlaceRow[][] = rows.map(() => []);
  for (const place of places) placesOf[place[0] - 1]?.push(place);
  return rows.map((row, i) => toEpakSummary(row, placesOf[i]!, callerId, now));
}

/** An ePak summary (spec §3) from its row and its places (in step order, then place order), as the caller sees it. */
export function toEpakSummary(row: SummaryRow, places: readonly PlaceRow[], callerId: string, now: Date): EpakSummary {
  const [id, subject, status, signingPolicy, startedAt, updatedAt, expiresAt, endedAt, archivalPeriodDays, notificationStartAt, deletedAt, archived, ownerId, viewEnforced, currentStep] = row;
  // One pass over the places: the steps for the progress, the step under way, the caller's own places.
  const steps: Array<{ order: number; type: WorkflowStateType; recipients: Array<{ recipientId: string; status: SignerStatus }> }> = [];
  const current: PlaceRow[] = [];
  const callerPlaces: Array<{ status: SignerStatus; stepOrder: number }> = [];
  let callerPlace: PlaceRow | undefined;
  for (const place of places) {
    const [, order, type, recipientId, userId, placeStatus] = place;
    let step = steps.at(-1);
    if (step?.order !== order) {
      step = { order, type: type as WorkflowStateType, recipients: [] };
      steps.push(step);
    }
    if (order === currentStep) current.push(place);
    if (recipientId === null) continue;
    step.recipients.push({ recipientId, status: placeStatus as SignerStatus });
    if (userId === callerId) {
      callerPlaces.push({ status: placeStatus as SignerStatus, stepOrder: order });
      // Their place in the step under way, else their last one (as the ePak's viewer says).
      if (callerPlace?.[1] !== currentStep) callerPlace = place;
    }
  }
  const state: EngineState = { status: status as EngineState['status'], currentStep, steps };
  const retention = endedAt !== null && archivalPeriodDays !== null ? endedAt + archivalPeriodDays * DAY_MS : null;
  return {
    id,
    subject,
    ePakName: subject,
    status: status as EpakStatus,
    signingPolicy: signingPolicy as SigningPolicy,
    starred: row[19],
    isRead: row[20],
    sentOn: iso(startedAt),
    modifiedOn: new Date(updatedAt).toISOString(),
    expiredOn: iso(expiresAt),
    retentionDate: iso(retention),
    notificationStartDate: iso(notificationStartAt),
    deletedOn: iso(deletedAt),
    archivalPeriodOver: retention !== null && retention <= now.getTime(),
    ownerId,
    ownerFirstName: row[15],
    ownerMiddleName: row[16],
    ownerLastName: row[17],
    ownerUserName: row[18],
    progressPercent: progressPercent(state),
    currentWorkflowStateId: current.length > 0 ? currentStep : null,
    currentWorkflowStateAction: (current[0]?.[2] as WorkflowStateType | undefined) ?? null,
    currentStatePendingSigners: current
      .filter((p) => p[4] !== null && WAITING.includes(p[5]!))
      .map((p) => ({ userId: p[4]!, name: fullName({ firstName: p[6], lastName: p[7] }), email: p[8]!, status: p[5] as SignerStatus })),
    signerStatus: (callerPlace?.[5] as SignerStatus | undefined) ?? null,
    viewEnforced,
    // The inbox trigger's own rules over the same rows (read in the same snapshot): the folders its rows say.
    folders: inboxFolders({ status: status as EpakStatus, currentStep, deleted: deletedAt !== null, archived, isOwner: ownerId === callerId, places: callerPlaces }),
  };
}

/** Epoch milliseconds as the API writes a moment (UTC, milliseconds). */
function iso(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}
