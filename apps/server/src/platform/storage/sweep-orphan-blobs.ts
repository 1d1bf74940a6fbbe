import { sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import type { Db } from '../db/database';
import {
  bulkComposeRuns,
  documents,
  documentTemplates,
  epakAttachments,
  epakCertificates,
  epakDocumentRevisions,
  epakDocuments,
  letterheadTemplates,
  rubberStamps,
  users,
} from '../db/schema';
import type { FileStorage } from './file-storage';
import { defineJob } from '../jobs/job-queue';

/** Daily, at a quiet hour (UTC). */
export const SWEEP_ORPHAN_BLOBS_CRON = '43 3 * * *';

/**
 * Every column that holds the SHA-256 of a stored file: a blob named in none of them is an
 * orphan. sweep-orphan-blobs.test.ts compares this list with the schema (every column whose name
 * ends in sha256), so a new one cannot be forgotten here.
 *
 * A revision's `sha256` and `predecessor_sha256` are digests of whole files assembled from a
 * stored file and tails, not always stored themselves; they count anyway (a repaired document's
 * predecessor is a stored file), since keeping a blob too many is harmless.
 */
export const BLOB_REFERENCES: readonly PgColumn[] = [
  users.photoSha256,
  documents.sha256,
  epakDocuments.sha256,
  epakDocumentRevisions.tailSha256,
  epakDocumentRevisions.predecessorSha256,
  epakDocumentRevisions.sha256,
  epakAttachments.sha256,
  epakCertificates.sha256,
  letterheadTemplates.sha256,
  documentTemplates.sha256,
  rubberStamps.sha256,
  bulkComposeRuns.fileSha256,
];

/** Which of `hashes` some row names, as of now: one query, one index or table scan per column. */
async function referencedAmong(db: Db, hashes: string[]): Promise<Set<string>> {
  if (hashes.length === 0) return new Set();
  const wanted = sql`${sql.param(hashes)}::text[]`;
  const selects = BLOB_REFERENCES.map((column) => sql`select ${column} as sha256 from ${column.table} where ${column} = any(${wanted})`);
  const { rows } = (await db.execute(sql.join(selects, sql` union `))) as unknown as { rows: { sha256: string }[] };
  return new Set(rows.map((row) => row.sha256));
}

/**
 * Waits until every transaction that was open at the moment of the call has ended, so that
 * whatever they were writing is committed (or gone). False when `timeoutMs` passed first.
 *
 * Why: a row may get a blob's name copied from another row (an ePak composed from a template or
 * a document) in a transaction that read the source row just before the source was deleted. A
 * check made in between sees neither row; once that transaction has ended, a check sees the copy.
 */
async function waitForOpenTransactions(db: Db, timeoutMs: number, pollMs: number): Promise<boolean> {
  const rowsOf = async <T>(query: ReturnType<typeof sql>) => ((await db.execute(query)) as unknown as { rows: T[] }).rows;
  const [{ now } = { now: '' }] = await rowsOf<{ now: string }>(sql`select clock_timestamp()::text as now`);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    // Sessions of other roles show no xact_start (unless ours may read all statistics); they do
    // not write Pakt's tables. Autovacuum and other background workers write no references.
    const [{ open } = { open: 0 }] = await rowsOf<{ open: number }>(sql`
      select count(*)::int as open from pg_stat_activity
      where datname = current_database() and backend_type = 'client backend'
        and pid <> pg_backend_pid() and xact_start < ${now}::timestamptz`);
    if (open === 0) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}

export interface SweepOrphanBlobsOptions {
  db: Db;
  storage: FileStorage;
  /**
   * Grace period: only blobs last written longer ago are considered. An upload stores its blob
   * before the row naming it commits (and storing the same content again writes it afresh), so
   * this must exceed the time from a put to its row's commit by far.
   */
  olderThanMs: number;
  /** How long to wait for transactions open at the first check to end; past it, nothing is deleted this time. */
  settleTimeoutMs?: number;
  /** Candidates checked per query, and at most this many held at once. */
  batchSize?: number;
  now?: () => number;
  onDeleted?: (sha256: string) => void;
  /** Called with the unreferenced blobs found, before waiting for open transactions to end (tests). */
  onSettling?: (candidates: number) => void;
  /** Transactions open too long kept this round's orphans (they are tried again next run). */
  onUnsettled?: (candidates: number) => void;
}

/**
 * Deletes stored files that no row names (BLOB_REFERENCES) and that were last written before the
 * grace period; returns how many it deleted.
 *
 * Never a blob still referenced: (1) blobs younger than the grace period are left alone; (2) the
 * unreferenced ones found are kept until every transaction open at that check has ended (one
 * copying a reference from a row being deleted is then visible); (3) each is checked again right
 * before deletion; (4) the deletion itself is conditional on the blob not having been written
 * since the cut-off, so a concurrent upload of the same content keeps it (atomically on disk,
 * within one request's round trip on S3).
 */
export async function sweepOrphanBlobs(options: SweepOrphanBlobsOptions): Promise<number> {
  const { db, storage } = options;
  const batchSize = options.batchSize ?? 1000;
  const cutoff = new Date((options.now?.() ?? Date.now()) - options.olderThanMs);
  let deleted = 0;
  let batch: string[] = [];
  let candidates: string[] = [];

  const checkBatch = async () => {
    const referenced = await referencedAmong(db, batch);
    candidates.push(...batch.filter((sha256) => !referenced.has(sha256)));
    batch = [];
  };
  const deleteCandidates = async () => {
    if (candidates.length === 0) return;
    const pending = candidates;
    candidates = [];
    options.onSettling?.(pending.length);
    if (!(await waitForOpenTransactions(db, options.settleTimeoutMs ?? 10 * 60_000, 250))) {
      options.onUnsettled?.(pending.length);
      return;
    }
    for (const sha256 of pending) {
      if ((await referencedAmong(db, [sha256])).size > 0) continue;
      if (await storage.deleteIfUnmodifiedSince(sha256, cutoff)) {
        deleted++;
        options.onDeleted?.(sha256);
      }
    }
  };

  for await (const blob of storage.list()) {
    if (blob.modifiedAt.getTime() >= cutoff.getTime()) continue;
    batch.push(blob.sha256);
    if (batch.length >= batchSize) await checkBatch();
    if (candidates.length >= batchSize) await deleteCandidates();
  }
  await checkBatch();
  await deleteCandidates();
  return deleted;
}

/** The daily sweep of stored files that nothing references any more (deleted documents, replaced photos...). */
export function sweepOrphanBlobsJob(options: { db: Db; storage: FileStorage; onSwept?: (deleted: number) => void; onUnsettled?: (candidates: number) => void }) {
  return defineJob({
    name: 'storage.sweep-orphan-blobs',
    payload: z.object({ olderThanMinutes: z.number().int().min(60).default(24 * 60) }),
    retryLimit: 1,
    expireInSeconds: 6 * 3600,
    async run({ olderThanMinutes }) {
      const deleted = await sweepOrphanBlobs({
        db: options.db,
        storage: options.storage,
        olderThanMs: olderThanMinutes * 60_000,
        ...(options.onUnsettled ? { onUnsettled: options.onUnsettled } : {}),
      });
      options.onSwept?.(deleted);
    },
  });
}
