import { DomainError, ResponseCode } from '@pakt/domain';
import { and, eq, gt } from 'drizzle-orm';
import { recordAdminAction } from '../../platform/audit-log';
import type { Db } from '../../platform/db/database';
import { adminAuditLog, memberships, users } from '../../platform/db/schema';
import { queueEmail } from '../../platform/mail/outbox';
import { FileNotFoundError, type FileStorage } from '../../platform/storage/file-storage';
import { readCurrentDocument, StoredDocumentMismatch, verifyCurrentDocument, type RevisionRow } from './revisions';

/** One alert per document and day: every refused download is not news to the administrators. */
const ALERT_INTERVAL_MS = 24 * 3600_000;

/**
 * A stored document does not hash to what was recorded when it was written (a flipped bit on
 * disk, a blob replaced behind Pakt's back), or a part of it is gone from the store. It is not served: the log of the tenant's
 * administration records it and its administrators are mailed, once a day per document, in one
 * transaction; the caller gets -228 with a message that says why. Nothing secret is in the mail.
 */
export async function refuseTamperedDocument(options: {
  db: Db;
  tenantId: string;
  actorId: string;
  epak: { id: string; subject: string };
  document: { id: string; name: string };
  now?: Date;
}): Promise<DomainError> {
  const { db, tenantId, epak, document } = options;
  const now = options.now ?? new Date();
  await db.transaction(async (tx) => {
    const [recent] = await tx
      .select({ id: adminAuditLog.id })
      .from(adminAuditLog)
      .where(
        and(
          eq(adminAuditLog.tenantId, tenantId),
          eq(adminAuditLog.action, 'document_integrity_failed'),
          eq(adminAuditLog.targetId, document.id),
          gt(adminAuditLog.createdAt, new Date(now.getTime() - ALERT_INTERVAL_MS)),
        ),
      )
      .limit(1);
    if (recent) return;
    await recordAdminAction({
      db: tx,
      tenantId,
      actorId: options.actorId,
      action: 'document_integrity_failed',
      target: { type: 'document', id: document.id, label: document.name },
      details: { epakId: epak.id, subject: epak.subject },
    });
    const admins = await tx
      .select({ email: users.email, firstName: users.firstName })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(and(eq(memberships.tenantId, tenantId), eq(memberships.role, 'admin'), eq(memberships.status, 'active')));
    for (const admin of admins) {
      await queueEmail({
        db: tx,
        tenantId,
        to: admin.email,
        subject: `A stored document failed its integrity check: ${document.name}`,
        body: [
          `Hello ${admin.firstName},`,
          '',
          `The stored file of "${document.name}" in the ePak "${epak.subject}" no longer matches the fingerprint (SHA-256) Pakt recorded when it was written.`,
          'Pakt refused to serve it, so nobody received the altered file. Restore the file store from a backup, or ask whoever runs this Pakt install to look into it.',
          '',
          'The audit log (Administration, Audit) has the details.',
        ].join('\n'),
        kind: 'document-integrity',
      });
    }
  });
  return new DomainError(
    ResponseCode.DOCUMENT_NOT_AVAILABLE,
    `The stored file of "${document.name}" does not match the fingerprint recorded when it was written, so it is not served. Your administrators have been told.`,
    { httpStatus: 500 },
  );
}

interface ServeOptions {
  db: Db;
  storage: FileStorage;
  tenantId: string;
  /** Who asked for it: recorded as the one who came upon the damage. */
  actorId: string;
  epak: { id: string; subject: string };
  doc: { id: string; name: string; sha256: string; size: number };
  revisions: readonly RevisionRow[];
}

/** Runs a read of the stored document; a mismatch becomes the refusal and the alert above. */
async function servable<T>(options: ServeOptions, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    // A part gone from the store is as unservable as a changed one, and as much the admins' concern.
    if (!(error instanceof StoredDocumentMismatch || error instanceof FileNotFoundError)) throw error;
    const { db, tenantId, actorId, epak, doc } = options;
    throw await refuseTamperedDocument({ db, tenantId, actorId, epak, document: { id: doc.id, name: doc.name } });
  }
}

/** The document's current file, whole and verified, before a byte of it is sent. */
export function readServableDocument(options: ServeOptions): Promise<Buffer> {
  return servable(options, () => readCurrentDocument(options.storage, options.doc, options.revisions));
}

/** Verifies the document's current file without keeping it (a zip streams it afterwards). */
export function assertServableDocument(options: ServeOptions): Promise<void> {
  return servable(options, () => verifyCurrentDocument(options.storage, options.doc, options.revisions));
}
