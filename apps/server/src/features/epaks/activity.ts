import { createHash } from 'node:crypto';
import { type ActivityDetails, type ActivityDocumentHashes, type EpakActivity, EpakStatus, SignerStatus } from '@pakt/domain';
import { asc, desc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../platform/db/database';
import { epakActivities, users } from '../../platform/db/schema';
import { type EpakActor, loadVisibleEpak } from './access';

/**
 * What happened to an ePak. The commands record these; the list is open to new ones (a record
 * is hashed and shown by whatever name it has), but a name used somewhere belongs here.
 */
export type EpakActivityAction =
  | 'composed'
  | 'started'
  | 'viewed'
  | 'reviewed'
  | 'signed'
  | 'documentSigned'
  | 'rejected'
  | 'stopped'
  | 'expired'
  | 'completed'
  | 'delegated'
  | 'delegationCancelled'
  | 'reminded'
  | 'signerRemoved'
  | 'attached'
  | 'edited'
  | 'archived'
  | 'deleted'
  // The owner was shown, or mailed, a recipient's signing link (issue 21).
  | 'linkShown'
  | 'linkResent'
  // The owner gave a recipient's place to someone else (issue 21, replace-recipient.ts).
  | 'recipientReplaced'
  // Signer verification (issue 22): a code sent to a place, confirmed, or a wrong one tried.
  | 'verificationCodeSent'
  | 'signerVerified'
  | 'verificationFailed';

/** The previous hash of an ePak's first entry. */
export const GENESIS_HASH = '0'.repeat(64);

/** What one entry's hash covers: every column but its id and the hashes. */
export interface HashedActivity {
  epakId: string;
  seq: number;
  actorId: string | null;
  action: string;
  details: unknown;
  ip: string | null;
  at: Date;
}

/**
 * JSON with object keys sorted at every level and nothing but JSON values: the same value always
 * gives the same text, whatever order PostgreSQL's jsonb hands the keys back in.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    const text = JSON.stringify(value);
    // undefined, functions and symbols have no JSON form; a stored entry never holds them.
    if (text === undefined) throw new TypeError(`not a JSON value: ${String(value)}`);
    return text;
  }
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item === undefined ? null : item)).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, item]) => item !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
}

/** SHA-256 (hex) of the previous entry's hash followed by this entry's canonical JSON. */
export function activityHash(prevHash: string, entry: HashedActivity): string {
  const body = canonicalJson({
    epakId: entry.epakId,
    seq: entry.seq,
    actorId: entry.actorId,
    action: entry.action,
    details: entry.details,
    ip: entry.ip,
    at: entry.at.toISOString(),
  });
  return createHash('sha256').update(prevHash, 'utf8').update(body, 'utf8').digest('hex');
}

/**
 * Rows written before the log was chained have no hash. They are not left out: the chain runs
 * through them, each counted with the hash it would have had (the same formula over its stored
 * columns), so the first chained entry after them commits to what they said at that moment, and
 * an edit of one of them afterwards shows as a break just as for any other entry. What nothing
 * can prove is an edit made before that first chained entry was written. A row without a hash
 * after a chained one is always a break: from here on every entry gets its hash when written.
 */
function chainedHashOf(row: typeof epakActivities.$inferSelect, prevHash: string): string {
  return activityHash(prevHash, row);
}

/** The hash the next entry chains to: the last entry's, worked out through unchained rows. */
async function lastHash(tx: Db, epakId: string): Promise<{ seq: number; hash: string }> {
  const [last] = await tx
    .select({ seq: epakActivities.seq, hash: epakActivities.hash })
    .from(epakActivities)
    .where(eq(epakActivities.epakId, epakId))
    .orderBy(desc(epakActivities.seq))
    .limit(1);
  if (!last) return { seq: 0, hash: GENESIS_HASH };
  if (last.hash) return { seq: last.seq, hash: last.hash };
  // Only unchained rows so far (written before chaining): fold them once, in order.
  const rows = await tx.select().from(epakActivities).where(eq(epakActivities.epakId, epakId)).orderBy(asc(epakActivities.seq));
  let hash = GENESIS_HASH;
  for (const row of rows) hash = row.hash ?? chainedHashOf(row, hash);
  return { seq: last.seq, hash };
}

/**
 * Appends one entry to an ePak's activity, inside the caller's transaction so the change and its
 * record commit together. The caller holds the ePak's row lock (SELECT … FOR UPDATE), which is
 * what keeps `seq` gapless and the chain a line; the unique index on (epak_id, seq) backs that up.
 *
 * Each entry carries the previous one's hash and its own (activityHash), so any later edit,
 * removal or reordering of an entry before the last shows in verifyActivityChain. `details` is
 * stored as its JSON form (what jsonb keeps), and `at` is set here to the millisecond, so the
 * stored row hashes to exactly the stored hash.
 */
export async function recordEpakActivity(
  tx: Db,
  entry: { epakId: string; actorId: string | null; action: EpakActivityAction; details?: Record<string, unknown>; ip?: string | null },
): Promise<void> {
  const previous = await lastHash(tx, entry.epakId);
  const row: HashedActivity = {
    epakId: entry.epakId,
    seq: previous.seq + 1,
    actorId: entry.actorId,
    action: entry.action,
    details: JSON.parse(JSON.stringify(entry.details ?? {})) as unknown,
    ip: entry.ip ?? null,
    at: new Date(),
  };
  await tx.insert(epakActivities).values({ ...row, prevHash: previous.hash, hash: activityHash(previous.hash, row) });
}

export interface ChainVerification {
  ok: boolean;
  /** The seq of the first entry that does not fit the chain. */
  brokenAt?: number;
  /** How many entries were checked (the last one's hash is what a certificate quotes). */
  entries: number;
  lastHash: string;
}

/** Checks an ePak's chain from its first entry: numbering, links and every hash. */
export function verifyActivityRows(rows: readonly (typeof epakActivities.$inferSelect)[]): ChainVerification {
  let previous = GENESIS_HASH;
  let chained = false;
  for (const [index, row] of rows.entries()) {
    const broken = { ok: false, brokenAt: row.seq, entries: rows.length, lastHash: previous };
    if (row.seq !== index + 1) return broken;
    if (row.hash === null) {
      // Unchained rows may only come before the first chained one (see chainedHashOf).
      if (chained || row.prevHash !== null) return broken;
      previous = chainedHashOf(row, previous);
      continue;
    }
    chained = true;
    if (row.prevHash !== previous || activityHash(previous, row) !== row.hash) return broken;
    previous = row.hash;
  }
  return { ok: true, entries: rows.length, lastHash: previous };
}

export async function loadActivity(db: Db, epakId: string) {
  return db.select().from(epakActivities).where(eq(epakActivities.epakId, epakId)).orderBy(asc(epakActivities.seq));
}

/** Verifies the stored chain of one ePak (see verifyActivityRows). */
export async function verifyActivityChain(db: Db, epakId: string): Promise<ChainVerification> {
  return verifyActivityRows(await loadActivity(db, epakId));
}

const SHA256_HEX = /^[0-9a-f]{64}$/;
const asSha = (value: unknown) => (typeof value === 'string' && SHA256_HEX.test(value) ? value : null);
const asText = (value: unknown) => (typeof value === 'string' && value.length > 0 ? value : undefined);

/** The ePak status an engine answer's effects end it in, if they end it. */
const ENDING_EFFECTS: Record<string, EpakStatus> = { completed: 'Completed', rejected: 'Rejected', stopped: 'Stopped', expired: 'Expired' };

/**
 * What an entry may show of its stored details: comments and reasons, document hashes before
 * and after, and status changes. Anything else (engine effects naming recipients, links, counts)
 * is left out by construction: only these keys are read.
 */
export function publicDetails(action: string, stored: unknown): ActivityDetails {
  const details = (stored && typeof stored === 'object' && !Array.isArray(stored) ? stored : {}) as Record<string, unknown>;
  const out: ActivityDetails = {};
  const comment = asText(details['comment']);
  if (comment !== undefined) out.comment = comment;
  const reason = asText(details['reason']);
  if (reason !== undefined) out.reason = reason;
  const documents: ActivityDocumentHashes[] = [];
  const documentOf = (value: Record<string, unknown>) => {
    const documentId = asText(value['documentId']);
    const before = asSha(value['before']);
    const after = asSha(value['after']);
    if (documentId !== undefined && (before || after)) documents.push({ documentId, name: asText(value['documentName']) ?? asText(value['name']) ?? null, before, after });
  };
  documentOf(details);
  if (Array.isArray(details['documents'])) {
    for (const item of details['documents']) if (item && typeof item === 'object') documentOf(item as Record<string, unknown>);
  }
  if (documents.length > 0) out.documents = documents;
  const ending = Array.isArray(details['effects'])
    ? (details['effects'] as unknown[]).map((effect) => ENDING_EFFECTS[(effect as { type?: string } | null)?.type ?? '']).find(Boolean)
    : undefined;
  const status = EpakStatus.safeParse(details['status'] ?? details['epakStatus']);
  if (ending) out.status = ending;
  else if (status.success) out.status = status.data;
  else if (action === 'started') out.status = 'InProgress';
  const signerStatus = SignerStatus.safeParse(details['signerStatus']);
  if (signerStatus.success) out.signerStatus = signerStatus.data;
  return out;
}

export type ActivityRow = typeof epakActivities.$inferSelect;

/** The people an ePak's entries name, by id. */
export async function actorsOf(db: Db, rows: readonly ActivityRow[]) {
  const ids = [...new Set(rows.map((row) => row.actorId).filter((id): id is string => id !== null))];
  const people = ids.length
    ? await db.select({ id: users.id, email: users.email, firstName: users.firstName, middleName: users.middleName, lastName: users.lastName }).from(users).where(inArray(users.id, ids))
    : [];
  return new Map(people.map((p) => [p.id, { userId: p.id, email: p.email, name: [p.firstName, p.middleName, p.lastName].filter(Boolean).join(' ') }]));
}

/**
 * An entry of a signature names its signer as they typed their name then (issue 22): an external
 * signer's record may say otherwise, or later something else.
 */
export function withTypedName<T extends { name: string }>(actor: T | null, details: unknown): T | null {
  const typed = (details as { signerName?: unknown } | null)?.signerName;
  return actor && typeof typed === 'string' && typed ? { ...actor, name: typed } : actor;
}

/**
 * GET …/activity: an ePak's log as its owner or a recipient may see it (anyone else: 404),
 * verified as it is read. The owner sees where each action came from; others do not.
 */
export async function loadEpakActivity(db: Db, actor: EpakActor, epakId: string): Promise<EpakActivity> {
  const { epak, isOwner } = await loadVisibleEpak(db, actor, epakId);
  const rows = await loadActivity(db, epak.id);
  const people = await actorsOf(db, rows);
  return {
    entries: rows.map((row) => ({
      seq: row.seq,
      at: row.at.toISOString(),
      action: row.action,
      actor: withTypedName((row.actorId && people.get(row.actorId)) || null, row.details),
      details: publicDetails(row.action, row.details),
      ip: isOwner ? row.ip : null,
      hash: row.hash,
      prevHash: row.prevHash,
    })),
    chainValid: verifyActivityRows(rows).ok,
  };
}
