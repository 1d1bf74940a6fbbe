import {
  can,
  DomainError,
  enforce,
  fullName,
  LETTERHEAD_MAX_SIDE_PX,
  LETTERHEAD_MAX_SIZE_BYTES,
  LETTERHEAD_MAX_SIZE_KB,
  type LetterheadTemplate,
  notFound,
  ResponseCode,
  type Role,
} from '@pakt/domain';
import { and, desc, eq } from 'drizzle-orm';
import { Readable } from 'node:stream';
import type { Db } from '../../platform/db/database';
import { letterheadTemplates, users } from '../../platform/db/schema';
import type { FileStorage } from '../../platform/storage/file-storage';
import { readImageSize } from './image-size';

/** Who acts: the caller inside their tenant, with their role there. */
export interface LetterheadActor {
  readonly tenantId: string;
  readonly userId: string;
  readonly role: Role;
}

// Spec §5 words both refusals; the size one is the catalogue's upload-size code (as for photos),
// with the message key the web client shows (maxSizeExceeded).
export const letterheadTooLarge = () =>
  new DomainError(ResponseCode.SIGNATURE_UPLOAD_SIZE, `The letterhead is larger than ${LETTERHEAD_MAX_SIZE_KB} KB.`, {
    httpStatus: 413,
    issues: [{ path: 'file', message: 'maxSizeExceeded' }],
  });
export const notALetterheadImage = () =>
  new DomainError(ResponseCode.INVALID_INPUT, 'Please select image in jpg/png/jpeg', { issues: [{ path: 'file', message: 'imageTypeNotAllowed' }] });

type Row = typeof letterheadTemplates.$inferSelect;


function present(actor: LetterheadActor, row: Row, owner: { firstName: string; lastName: string } | null): LetterheadTemplate {
  return {
    letterHeadDocId: row.id,
    name: row.name,
    contentType: row.contentType,
    size: row.size,
    width: row.width,
    height: row.height,
    ownerId: row.ownerId,
    ownerName: owner ? fullName(owner) : null,
    deletable: can(actor, 'letterhead.delete', row),
    createdOn: row.createdAt.toISOString(),
  };
}

/** A name to show: the uploaded file's, tidied, or a neutral one when it had none. */
function nameOf(fileName: string | undefined): string {
  const base = (fileName ?? '').split(/[\\/]/).pop()!.replace(/[\p{Cc}]/gu, '').trim();
  return (base === '' ? 'letterhead' : base).slice(0, 200);
}

/**
 * Stores an uploaded letterhead. The whole file is at most 500 KB, so it is read into memory and
 * judged by its bytes before anything is written: a refused file stores nothing.
 */
export async function uploadLetterhead(options: {
  db: Db;
  storage: FileStorage;
  actor: LetterheadActor;
  fileName: string | undefined;
  bytes: Buffer;
}): Promise<LetterheadTemplate> {
  const { actor, bytes } = options;
  if (bytes.length > LETTERHEAD_MAX_SIZE_BYTES) throw letterheadTooLarge();
  const image = readImageSize(bytes, LETTERHEAD_MAX_SIDE_PX);
  if (!image) throw notALetterheadImage();
  const stored = await options.storage.put(Readable.from([bytes]));
  const [row] = await options.db
    .insert(letterheadTemplates)
    .values({
      tenantId: actor.tenantId,
      ownerId: actor.userId,
      name: nameOf(options.fileName),
      contentType: image.contentType,
      sha256: stored.sha256,
      size: stored.size,
      width: image.width,
      height: image.height,
    })
    .returning();
  const [owner] = await options.db.select({ firstName: users.firstName, lastName: users.lastName }).from(users).where(eq(users.id, actor.userId));
  return present(actor, row!, owner ?? null);
}

/** The tenant's templates, newest first (a tenant keeps a handful; no paging needed). */
export async function listLetterheads(options: { db: Db; actor: LetterheadActor }): Promise<LetterheadTemplate[]> {
  const rows = await options.db
    .select({ row: letterheadTemplates, firstName: users.firstName, lastName: users.lastName })
    .from(letterheadTemplates)
    .leftJoin(users, eq(users.id, letterheadTemplates.ownerId))
    .where(eq(letterheadTemplates.tenantId, options.actor.tenantId))
    .orderBy(desc(letterheadTemplates.createdAt), desc(letterheadTemplates.id));
  return rows.map(({ row, firstName, lastName }) =>
    present(options.actor, row, firstName !== null && lastName !== null ? { firstName, lastName } : null),
  );
}

/** One of the tenant's templates; another tenant's, or none, is 404. */
export async function loadLetterhead(options: { db: Db; tenantId: string; letterHeadDocId: string }): Promise<Row> {
  const [row] = await options.db
    .select()
    .from(letterheadTemplates)
    .where(and(eq(letterheadTemplates.tenantId, options.tenantId), eq(letterheadTemplates.id, options.letterHeadDocId)));
  if (!row) throw notFound('No such letterhead template.');
  return row;
}

/**
 * Deletes a template: its uploader's, or any for an admin (-11 otherwise). The bytes stay: the
 * storage is content-addressed and may share them, and ePaks that used the letterhead hold their
 * own copy in their tags.
 */
export async function deleteLetterhead(options: { db: Db; actor: LetterheadActor; letterHeadDocId: string }): Promise<void> {
  const { actor } = options;
  await options.db.transaction(async (db) => {
    const [row] = await db
      .select()
      .from(letterheadTemplates)
      .where(and(eq(letterheadTemplates.tenantId, actor.tenantId), eq(letterheadTemplates.id, options.letterHeadDocId)))
      .for('update');
    if (!row) throw notFound('No such letterhead template.');
    enforce(actor, 'letterhead.delete', row);
    await db.delete(letterheadTemplates).where(eq(letterheadTemplates.id, row.id));
  });
}
