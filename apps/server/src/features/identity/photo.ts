import { type Actor, DomainError, enforce, invalidInput, notFound, PHOTO_MAX_BYTES, ResponseCode, type Role } from '@pakt/domain';
import { and, eq } from 'drizzle-orm';
import { Transform, type Readable } from 'node:stream';
import { recordAdminAction } from '../../platform/audit-log';
import type { Db } from '../../platform/db/database';
import { memberships, users } from '../../platform/db/schema';
import type { FileStorage } from '../../platform/storage/file-storage';

const tooLarge = () => new DomainError(ResponseCode.SIGNATURE_UPLOAD_SIZE, `The photo is larger than ${PHOTO_MAX_BYTES / 1024 / 1024} MB.`, { httpStatus: 413 });
const notAnImage = () => invalidInput('The photo must be a PNG or JPEG image.');

/** PNG and JPEG by their first bytes: the name and the declared type are the sender's word only. */
function sniff(head: Buffer): 'image/png' | 'image/jpeg' | undefined {
  if (head.length >= 8 && head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'image/jpeg';
  return undefined;
}

/**
 * Streams an upload into storage while checking its type and size; a failing check aborts the
 * stream, so nothing is stored and nothing already stored changes.
 */
export async function storeOwnPhoto(options: { db: Db; storage: FileStorage; userId: string; file: Readable }) {
  let size = 0;
  let head = Buffer.alloc(0);
  let type: 'image/png' | 'image/jpeg' | undefined;
  const guard = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      size += chunk.length;
      if (size > PHOTO_MAX_BYTES) return callback(tooLarge());
      if (!type) {
        head = Buffer.concat([head, chunk]).subarray(0, 8);
        if (head.length >= 8) {
          type = sniff(head);
          if (!type) return callback(notAnImage());
        }
      }
      callback(null, chunk);
    },
    flush(callback) {
      if (!type) type = sniff(head);
      callback(type ? null : notAnImage());
    },
  });
  const stored = await options.storage.put(options.file, [guard]);
  const [updated] = await options.db
    .update(users)
    .set({ photoSha256: stored.sha256, photoType: type! })
    .where(eq(users.id, options.userId))
    .returning();
  return updated!;
}

export async function removeOwnPhoto(db: Db, userId: string) {
  // The bytes stay: content-addressed files may be shared, and a sweep removes unreferenced ones.
  const [updated] = await db.update(users).set({ photoSha256: null, photoType: null }).where(eq(users.id, userId)).returning();
  return updated!;
}

/**
 * An admin removes a member's photo (issue 7, user management: an inappropriate picture) without
 * waiting for them to. Only a member of the admin's own tenant can be named, anyone else is 404
 * as if they did not exist; whom an admin may act on is the permissions module's answer. The
 * change and its audit record commit together; a photo already gone changes and records nothing.
 */
export async function removeMemberPhoto(options: { db: Db; actor: Actor & { tenantId: string }; userId: string }) {
  const { actor, userId } = options;
  return options.db.transaction(async (db) => {
    const [row] = await db
      .select({ user: users, role: memberships.role })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(and(eq(memberships.tenantId, actor.tenantId), eq(memberships.userId, userId)))
      .for('update', { of: users });
    if (!row) throw notFound();
    enforce(actor, 'user.photo.delete', { targetUserId: userId, targetRole: row.role as Role, targetTenantId: actor.tenantId });
    if (!row.user.photoSha256) return row.user;
    const updated = await removeOwnPhoto(db, userId);
    await recordAdminAction({
      db,
      tenantId: actor.tenantId,
      actorId: actor.userId,
      action: 'user_photo_removed',
      target: { type: 'user', id: userId, label: row.user.email },
    });
    return updated;
  });
}

/** Whether `viewerId` may see `ownerId`'s photo: themselves, or someone active in a shared tenant. */
export async function maySeePhoto(db: Db, viewerId: string, ownerId: string): Promise<boolean> {
  if (viewerId === ownerId) return true;
  const viewerTenants = db
    .select({ tenantId: memberships.tenantId })
    .from(memberships)
    .where(and(eq(memberships.userId, viewerId), eq(memberships.status, 'active')));
  const [shared] = await db
    .select({ tenantId: memberships.tenantId })
    .from(memberships)
    .where(and(eq(memberships.userId, ownerId), eq(memberships.status, 'active')))
    .intersect(viewerTenants)
    .limit(1);
  return !!shared;
}
