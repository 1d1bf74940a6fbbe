import { createHash, type Hash } from 'node:crypto';
import { Readable } from 'node:stream';
import { asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../platform/db/database';
import type { epakDocuments } from '../../platform/db/schema';
import { epakDocumentRevisions } from '../../platform/db/schema';
import type { FileStorage } from '../../platform/storage/file-storage';

/**
 * A document's current file is the file as composed followed by each signer's revision tail,
 * in order (an incremental update only ever appends). Tails are blobs of their own, so a 20 MB
 * file signed by five people costs 20 MB plus five small tails, not 100 MB.
 */

type EpakDocumentRow = typeof epakDocuments.$inferSelect;
export type RevisionRow = typeof epakDocumentRevisions.$inferSelect;

export async function revisionsOf(db: Db, documentId: string): Promise<RevisionRow[]> {
  return db.select().from(epakDocumentRevisions).where(eq(epakDocumentRevisions.epakDocumentId, documentId)).orderBy(asc(epakDocumentRevisions.seq));
}

/** Revisions of several documents at once, grouped by document id. */
export async function revisionsByDocument(db: Db, documentIds: readonly string[]): Promise<Map<string, RevisionRow[]>> {
  const grouped = new Map<string, RevisionRow[]>(documentIds.map((id) => [id, []]));
  if (documentIds.length === 0) return grouped;
  const rows = await db
    .select()
    .from(epakDocumentRevisions)
    .where(inArray(epakDocumentRevisions.epakDocumentId, [...documentIds]))
    .orderBy(asc(epakDocumentRevisions.seq));
  for (const row of rows) grouped.get(row.epakDocumentId)?.push(row);
  return grouped;
}

/** The current file's SHA-256 and size (the composed file's when nobody has signed yet). */
export function currentVersion(doc: Pick<EpakDocumentRow, 'sha256' | 'size'>, revisions: readonly RevisionRow[]): { sha256: string; size: number } {
  const last = revisions.at(-1);
  return last ? { sha256: last.sha256, size: last.size } : { sha256: doc.sha256, size: doc.size };
}

/** The stored parts of a document no longer hash to what was recorded when they were written. */
export class StoredDocumentMismatch extends Error {
  constructor(readonly sha256: string) {
    super(`document ${sha256} does not match its stored revisions`);
    this.name = 'StoredDocumentMismatch';
  }
}

/**
 * The current file in memory (sealing needs it whole to find objects by offset), checked against
 * the recorded SHA-256 as it is read. `hash` has taken in exactly these bytes: sealing goes on
 * from a copy of it for the signed byte ranges and the new file's digest, so a 20 MB file is
 * hashed once per signer, not three times.
 */
export async function readCurrentDocumentHashed(
  storage: FileStorage,
  doc: Pick<EpakDocumentRow, 'sha256' | 'size'>,
  revisions: readonly RevisionRow[],
): Promise<{ bytes: Buffer; hash: Hash }> {
  const expected = currentVersion(doc, revisions);
  // Filled in place as the parts stream in: one copy of the file, not chunks plus a concatenation.
  const bytes = Buffer.allocUnsafe(expected.size);
  const hash = createHash('sha256');
  let filled = 0;
  for (const key of [doc.sha256, ...revisions.map((revision) => revision.tailSha256)]) {
    if (storage.readInto) {
      // Local disk: each part read straight into place. As a stream a 20 MB file was 320 reads of
      // 64 KB through the thread pool, each chunk copied here and left to the collector (issue 23).
      const read = await storage.readInto(key, bytes, filled).catch((error: unknown) => {
        if (error instanceof RangeError) throw new StoredDocumentMismatch(expected.sha256);
        throw error;
      });
      hash.update(bytes.subarray(filled, filled + read));
      filled += read;
      continue;
    }
    for await (const chunk of await storage.get(key)) {
      const part = chunk as Buffer;
      if (filled + part.length > bytes.length) throw new StoredDocumentMismatch(expected.sha256);
      part.copy(bytes, filled);
      hash.update(part);
      filled += part.length;
    }
  }
  // A missing or damaged tail would silently produce a file that is not what was signed.
  if (filled !== bytes.length || hash.copy().digest('hex') !== expected.sha256) throw new StoredDocumentMismatch(expected.sha256);
  return { bytes, hash };
}

/** The current file in memory, checked against its recorded SHA-256. */
export async function readCurrentDocument(storage: FileStorage, doc: Pick<EpakDocumentRow, 'sha256' | 'size'>, revisions: readonly RevisionRow[]): Promise<Buffer> {
  return (await readCurrentDocumentHashed(storage, doc, revisions)).bytes;
}

/**
 * Reads the current file through once without keeping it, and throws StoredDocumentMismatch unless
 * it is exactly the bytes recorded (its SHA-256 and size): a download checks every document of a
 * zip before the first byte goes out, so a damaged one is never served, not even in part.
 */
export async function verifyCurrentDocument(storage: FileStorage, doc: Pick<EpakDocumentRow, 'sha256' | 'size'>, revisions: readonly RevisionRow[]): Promise<void> {
  const expected = currentVersion(doc, revisions);
  const hash = createHash('sha256');
  let size = 0;
  for (const key of [doc.sha256, ...revisions.map((revision) => revision.tailSha256)]) {
    for await (const chunk of await storage.get(key)) {
      hash.update(chunk as Buffer);
      size += (chunk as Buffer).length;
    }
  }
  if (size !== expected.size || hash.digest('hex') !== expected.sha256) throw new StoredDocumentMismatch(expected.sha256);
}

/** The current file as a stream, for downloads: the composed file, then each tail (verified first: verifyCurrentDocument). */
export function streamCurrentDocument(storage: FileStorage, doc: Pick<EpakDocumentRow, 'sha256'>, revisions: readonly RevisionRow[]): Readable {
  const keys = [doc.sha256, ...revisions.map((revision) => revision.tailSha256)];
  return Readable.from(
    (async function* () {
      for (const key of keys) yield* await storage.get(key);
    })(),
  );
}
