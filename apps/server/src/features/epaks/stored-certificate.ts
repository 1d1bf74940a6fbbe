import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { CERTIFICATE_FILE_NAME } from '@pakt/domain';
import { and, asc, eq, gt, isNotNull, isNull } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../platform/db/database';
import { epakCertificates, epaks } from '../../platform/db/schema';
import { defineJob } from '../../platform/jobs/job-queue';
import type { SealKeyAlgorithm } from '../../platform/signing/algorithms';
import type { KeyVault } from '../../platform/signing/key-vault';
import { FileNotFoundError, type FileStorage } from '../../platform/storage/file-storage';
import { buildCompletionCertificate } from './certificate';
import { refuseTamperedDocument } from './integrity';

/**
 * The certificate of completion is built and sealed once, when the ePak has ended, and kept
 * (issue 20, defect 7). A job builds it soon after the end; a download that comes first builds
 * it then. Either way one certificate wins: the first row stored for the ePak, whose bytes every
 * later download serves after checking them against the recorded SHA-256.
 */

interface CertificateStore {
  db: Db;
  storage: FileStorage;
  vault: KeyVault;
  keyAlgorithm?: SealKeyAlgorithm;
  /** The install's public address, for the certificate's QR code (none without it). */
  publicUrl?: string;
}

const certificateRow = async (db: Db, epakId: string) => (await db.select().from(epakCertificates).where(eq(epakCertificates.epakId, epakId)))[0];

/**
 * Builds, seals and stores the certificate of an ended ePak unless one is stored already; answers
 * the stored row. Two builders at once both seal one, and the first row stored wins (the other's
 * file is left to the orphan sweep).
 */
export async function ensureCompletionCertificate(options: CertificateStore & { epakId: string; now: Date }) {
  const existing = await certificateRow(options.db, options.epakId);
  if (existing) return { row: existing, bytes: null };
  const bytes = await buildCompletionCertificate({
    db: options.db,
    storage: options.storage,
    vault: options.vault,
    ...(options.keyAlgorithm ? { keyAlgorithm: options.keyAlgorithm } : {}),
    ...(options.publicUrl ? { publicUrl: options.publicUrl } : {}),
    epakId: options.epakId,
    now: options.now,
  });
  const stored = await options.storage.put(Readable.from([bytes]));
  await options.db.insert(epakCertificates).values({ epakId: options.epakId, sha256: stored.sha256, size: stored.size }).onConflictDoNothing();
  const row = (await certificateRow(options.db, options.epakId))!;
  // Ours, unless another builder stored theirs first: then theirs is the certificate.
  return { row, bytes: row.sha256 === stored.sha256 ? bytes : null };
}

/**
 * The stored certificate's bytes for a download, built first if the job has not got to it yet.
 * Bytes that no longer hash to the recorded SHA-256, or a file gone from the store, are refused
 * (-228), recorded in the tenant's audit log and told to its administrators, as for documents.
 */
export async function servableCompletionCertificate(
  options: CertificateStore & { tenantId: string; actorId: string; epak: { id: string; subject: string }; now: Date },
): Promise<Buffer> {
  const { row, bytes } = await ensureCompletionCertificate({ ...options, epakId: options.epak.id });
  if (bytes) return bytes;
  let stored: Buffer | null = null;
  try {
    stored = await buffer(await options.storage.get(row.sha256));
  } catch (error) {
    if (!(error instanceof FileNotFoundError)) throw error;
  }
  if (stored && stored.length === row.size && createHash('sha256').update(stored).digest('hex') === row.sha256) return stored;
  throw await refuseTamperedDocument({
    db: options.db,
    tenantId: options.tenantId,
    actorId: options.actorId,
    epak: options.epak,
    // The certificate has no document row: it is named, and found, by its ePak.
    document: { id: options.epak.id, name: CERTIFICATE_FILE_NAME },
  });
}

/** Every minute: the certificates of ePaks that ended lately and have none stored yet. */
export const BUILD_CERTIFICATES_CRON = '* * * * *';

/** How far back the job looks; an ePak that ended before that gets its certificate at its first download. */
const LOOK_BACK_MS = 2 * 24 * 3600_000;

/** Builds the missing certificates of ePaks ended in the last two days, oldest first; answers their ids. */
export async function buildMissingCertificates(options: CertificateStore & { now?: Date; limit?: number; onError?: (epakId: string, error: unknown) => void }): Promise<string[]> {
  const now = options.now ?? new Date();
  const due = await options.db
    .select({ id: epaks.id })
    .from(epaks)
    .leftJoin(epakCertificates, eq(epakCertificates.epakId, epaks.id))
    .where(and(isNotNull(epaks.endedAt), gt(epaks.endedAt, new Date(now.getTime() - LOOK_BACK_MS)), isNull(epakCertificates.epakId)))
    .orderBy(asc(epaks.endedAt))
    .limit(options.limit ?? 50);
  const built: string[] = [];
  for (const { id } of due) {
    try {
      await ensureCompletionCertificate({ ...options, epakId: id, now });
      built.push(id);
    } catch (error) {
      // One ePak that cannot be sealed (its tenant's seal unreadable) must not hold up the rest.
      options.onError?.(id, error);
    }
  }
  return built;
}

export function buildCertificatesJob(options: CertificateStore & { onBuilt?: (epakIds: string[]) => void; onError?: (epakId: string, error: unknown) => void }) {
  return defineJob({
    name: 'epaks.build-certificates',
    payload: z.object({}),
    retryLimit: 0,
    async run() {
      options.onBuilt?.(await buildMissingCertificates(options));
    },
  });
}
