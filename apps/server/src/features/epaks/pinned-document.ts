import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/database';
import { epakDocuments } from '../../platform/db/schema';
import type { FileStorage } from '../../platform/storage/file-storage';
import { currentVersion, type RevisionRow, revisionsOf } from './revisions';

/**
 * A document as it stood at one revision (null: as composed), streamed for a mail that pinned it
 * then: the composed file and the tails up to that revision, not the ones signed since.
 *
 * Throws before the first byte when the document, the revision or a stored part is gone, so the
 * caller fails cleanly instead of sending half a file. The stream itself errors at its end if
 * the bytes are not the ones recorded for that revision (a damaged blob), which aborts the SMTP
 * transfer before the message is complete.
 */
export async function streamDocumentAt(db: Db, storage: FileStorage, at: { documentId: string; revisionId: string | null }): Promise<Readable> {
  const [doc] = await db.select().from(epakDocuments).where(eq(epakDocuments.id, at.documentId));
  if (!doc) throw new Error(`document ${at.documentId} no longer exists`);
  let revisions: RevisionRow[] = [];
  if (at.revisionId !== null) {
    const all = await revisionsOf(db, doc.id);
    const index = all.findIndex((revision) => revision.id === at.revisionId);
    if (index < 0) throw new Error(`revision ${at.revisionId} of document ${doc.id} no longer exists`);
    revisions = all.slice(0, index + 1);
  }
  const keys = [doc.sha256, ...revisions.map((revision) => revision.tailSha256)];
  for (const key of keys) {
    if (!(await storage.stat(key))) throw new Error(`stored file ${key} of document ${doc.id} is missing`);
  }
  const expected = currentVersion(doc, revisions).sha256;
  return Readable.from(
    (async function* () {
      const hash = createHash('sha256');
      for (const key of keys) {
        for await (const chunk of await storage.get(key)) {
          hash.update(chunk as Buffer);
          yield chunk as Buffer;
        }
      }
      if (hash.digest('hex') !== expected) throw new Error(`document ${doc.id} does not match its stored revisions`);
    })(),
    { objectMode: false },
  );
}

/** The mail outbox's attachment opener (platform/mail): a document as it stood at the revision the message names. */
export function pinnedDocumentOpener(db: Db, storage: FileStorage) {
  return (attachment: { documentId: string; revisionId: string | null }): Promise<Readable> => streamDocumentAt(db, storage, attachment);
}
