import { type Readable, Transform } from 'node:stream';
import {
  ALLOWED_DOCUMENT_FORMATS,
  DomainError,
  enforce,
  EPAK_ATTACHMENT_MAX_BYTES,
  type EpakAttachment,
  fileNameProblem,
  flattenTags,
  invalidInput,
  notFound,
  ResponseCode,
  type Tag,
} from '@pakt/domain';
import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/database';
import { epakAttachments, epakDocuments, users } from '../../platform/db/schema';
import type { FileStorage } from '../../platform/storage/file-storage';
import { assertActionable, assertNotOverdue, type EpakActor, loadViewer, loadVisibleEpak } from './access';
import { recordEpakActivity } from './activity';

/** Tag types a signer attaches a file to. */
export const ATTACHMENT_TAG_TYPES: readonly Tag['type'][] = ['attachment', 'selfSignAttachment'];

type AttachmentRow = typeof epakAttachments.$inferSelect;

export function presentAttachment(row: AttachmentRow): EpakAttachment {
  return {
    attachmentId: row.id,
    name: row.name,
    size: row.size,
    documentId: row.epakDocumentId,
    tagUuid: row.tagUuid,
    uploadedBy: row.uploadedBy,
    createdOn: row.createdAt.toISOString(),
  };
}

function checkName(name: string): void {
  const problem = fileNameProblem(name);
  if (problem) throw new DomainError(ResponseCode.INVALID_CHARACTER_IN_FILENAME, 'The file name has characters that are not allowed.', { issues: [{ path: 'file', message: problem }] });
  const extension = /\.([A-Za-z0-9]+)$/.exec(name)?.[1]?.toLowerCase();
  if (!extension || !(ALLOWED_DOCUMENT_FORMATS as readonly string[]).includes(extension)) {
    throw invalidInput(`Attach a file of an allowed kind: ${ALLOWED_DOCUMENT_FORMATS.join(', ')}.`, [{ path: 'file', message: extension ?? 'no extension' }]);
  }
}

/** Stops the upload as soon as it passes the limit, with our own message. */
function sizeLimit(maxBytes: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      seen += chunk.length;
      if (seen > maxBytes) callback(invalidInput(`The file may be at most ${Math.round(maxBytes / 1024)} KB.`, [{ path: 'file', message: 'maxSizeExceeded' }]));
      else callback(null, chunk);
    },
  });
}

/**
 * Stores a file for an attachment tag of the caller's, or for the ePak as a whole. The blob is
 * written first; the row (replacing an earlier upload to the same tag), the tag's shown title and
 * the activity record then commit together under the ePak's row lock.
 */
export async function attachFile(options: {
  db: Db;
  storage: FileStorage;
  actor: EpakActor;
  epakId: string;
  target: { documentId: string; tagUuid: string } | null;
  fileName: string;
  stream: Readable;
  ip?: string | null;
}): Promise<EpakAttachment> {
  const { db, actor, target } = options;
  const { epak, isOwner } = await loadVisibleEpak(db, actor, options.epakId);
  assertActionable(epak);
  if (epak.status !== 'InProgress') throw invalidInput('Files are attached while the ePak is under way.', [{ path: 'status', message: epak.status }]);
  checkName(options.fileName);
  const viewer = await loadViewer(db, actor, epak);
  let maxBytes = EPAK_ATTACHMENT_MAX_BYTES;
  if (target) {
    if (!viewer.canAct) throw new DomainError(ResponseCode.USER_WORKFLOW_STATUS_NOT_PENDING, 'Nothing of this ePak is waiting for you now.');
    const [doc] = await db.select().from(epakDocuments).where(and(eq(epakDocuments.id, target.documentId), eq(epakDocuments.epakId, epak.id)));
    if (!doc) throw new DomainError(ResponseCode.DOCUMENT_DOES_NOT_EXIST, 'No such document in this ePak.');
    const tag = flattenTags(doc.tags as Tag[]).find((candidate) => candidate.uuid === target.tagUuid);
    if (!tag || !ATTACHMENT_TAG_TYPES.includes(tag.type)) throw invalidInput('No such attachment field on this document.', [{ path: 'tagId', message: 'unknown' }]);
    const [me] = await db.select({ email: users.email }).from(users).where(eq(users.id, actor.userId));
    if (!me) throw notFound('No such user.');
    enforce(actor, 'epakTag.fill', { tag, filler: { email: me.email, stepOrder: viewer.stepOrder } });
    if (viewer.signedDocumentIds.includes(doc.id)) throw new DomainError(ResponseCode.USER_WORKFLOW_STATUS_NOT_PENDING, 'You have signed this document already.');
    if (tag.maxUpload) maxBytes = tag.maxUpload * 1024;
  } else if (!isOwner && !viewer.canAct) {
    throw new DomainError(ResponseCode.USER_WORKFLOW_STATUS_NOT_PENDING, 'Files are attached by the owner or by someone whose turn it is.');
  }

  const stored = await options.storage.put(options.stream, [sizeLimit(maxBytes)]);
  const row = await db.transaction(async (tx) => {
    const { epak: locked } = await loadVisibleEpak(tx, actor, epak.id, { forUpdate: true });
    assertActionable(locked);
    assertNotOverdue(locked);
    if (locked.status !== 'InProgress') throw invalidInput('Files are attached while the ePak is under way.', [{ path: 'status', message: locked.status }]);
    if (target) {
      await tx.delete(epakAttachments).where(and(eq(epakAttachments.epakDocumentId, target.documentId), eq(epakAttachments.tagUuid, target.tagUuid)));
      const [doc] = await tx.select().from(epakDocuments).where(eq(epakDocuments.id, target.documentId));
      // The tag shows the file's name (spec §4: a done tag shows its attachment title), which is
      // also what is drawn into the PDF when the signer signs.
      const titled = (tags: Tag[]): Tag[] =>
        tags.map((tag) => ({ ...tag, ...(tag.uuid === target.tagUuid ? { value: options.fileName } : {}), ...(tag.children ? { children: titled(tag.children) } : {}) }));
      await tx.update(epakDocuments).set({ tags: titled(doc!.tags as Tag[]) }).where(eq(epakDocuments.id, target.documentId));
    }
    const [inserted] = await tx
      .insert(epakAttachments)
      .values({
        epakId: epak.id,
        epakDocumentId: target?.documentId ?? null,
        tagUuid: target?.tagUuid ?? null,
        uploadedBy: actor.userId,
        name: options.fileName,
        sha256: stored.sha256,
        size: stored.size,
      })
      .returning();
    await recordEpakActivity(tx, {
      epakId: epak.id,
      actorId: actor.userId,
      action: 'attached',
      details: { documentId: target?.documentId ?? null, name: options.fileName, sha256: stored.sha256, size: stored.size },
      ip: options.ip ?? null,
    });
    return inserted!;
  });
  return presentAttachment(row);
}

export async function listAttachments(db: Db, actor: EpakActor, epakId: string): Promise<EpakAttachment[]> {
  const { epak } = await loadVisibleEpak(db, actor, epakId);
  const rows = await db.select().from(epakAttachments).where(eq(epakAttachments.epakId, epak.id)).orderBy(asc(epakAttachments.createdAt));
  return rows.map(presentAttachment);
}

export async function loadAttachment(db: Db, actor: EpakActor, epakId: string, attachmentId: string): Promise<AttachmentRow> {
  const { epak } = await loadVisibleEpak(db, actor, epakId);
  const [row] = await db.select().from(epakAttachments).where(and(eq(epakAttachments.id, attachmentId), eq(epakAttachments.epakId, epak.id)));
  if (!row) throw new DomainError(ResponseCode.DOCUMENT_DOES_NOT_EXIST, 'No such attachment in this ePak.');
  return row;
}
