import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/database';
import type { epakDocuments } from '../db/schema';
import { epakDocumentRevisions } from '../db/schema';
import type { FileStorage } from '../storage/file-storage';

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

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The current file in memory (sealing needs it whole to find objects by offset). */
export async function readCurrentDocument(storage: FileStorage, doc: Pick<EpakDocumentRow, 'sha256' | 'size'>, revisions: readonly RevisionRow[]): Promise<Buffer> {
  const parts = [await readAll(await storage.get(doc.sha256))];
  for (const revision of revisions) parts.push(await readAll(await storage.get(revision.tailSha256)));
  const bytes = Buffer.concat(parts);
  const expected = currentVersion(doc, revisions).sha256;
  // A missing or damaged tail would silently produce a file that is not what was signed.
  if (createHash('sha256').update(bytes).digest('hex') !== expected) throw new Error(`document ${expected} does not match its stored revisions`);
  return bytes;
}

/** The current file as a stream, for downloads: the composed file, then each tail. */
export function streamCurrentDocument(storage: FileStorage, doc: Pick<EpakDocumentRow, 'sha256'>, revisions: readonly RevisionRow[]): Readable {
  const keys = [doc.sha256, ...revisions.map((revision) => revision.tailSha256)];
  return Readable.from(
    (async function* () {
      for (const key of keys) yield* await storage.get(key);
    })(),
  );
}
