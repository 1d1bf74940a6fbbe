import {
  createRubberStamp,
  deleteRubberStamp,
  downloadRubberStampImage,
  invalidInput,
  listRubberStamps,
  RUBBER_STAMP_MAX_SIZE_BYTES,
  RubberStampName,
  shareRubberStamp,
  updateRubberStamp,
} from '@pakt/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../http/app-context';
import { tenantActorOf } from '../../http/auth-guard';
import { route } from '../../http/route';
import {
  createStamp,
  deleteStamp,
  listStamps,
  loadStampForImage,
  shareStamp,
  stampNameOf,
  stampTooLarge,
  updateStamp,
} from './rubber-stamps';

/** What a stamp's multipart form carries: its text fields and, at most, one image. */
interface StampForm {
  readonly fields: Readonly<Record<string, string>>;
  readonly file?: { readonly name: string | undefined; readonly bytes: Buffer };
}

/**
 * Reads the whole form: small text fields and one file of at most the stamp limit (one byte
 * more is enough to know it is too large; busboy stops reading there).
 */
async function readStampForm(request: FastifyRequest): Promise<StampForm> {
  if (!request.isMultipart()) throw invalidInput('Send the rubber stamp as multipart/form-data.');
  const fields: Record<string, string> = {};
  let file: StampForm['file'];
  for await (const part of request.parts({ limits: { fileSize: RUBBER_STAMP_MAX_SIZE_BYTES + 1, files: 1, fields: 5, fieldSize: 1024 } })) {
    if (part.type === 'file') {
      if (part.fieldname !== 'file') {
        part.file.resume();
        continue;
      }
      const bytes = await part.toBuffer().catch(() => undefined);
      if (!bytes || part.file.truncated) throw stampTooLarge();
      file = { name: part.filename, bytes };
    } else if (typeof part.value === 'string') {
      fields[part.fieldname] = part.value;
    }
  }
  return { fields, ...(file ? { file } : {}) };
}

function nameField(value: string | undefined): string | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const parsed = RubberStampName.safeParse(value);
  if (!parsed.success) throw invalidInput('A stamp name has 1 to 100 characters.', [{ path: 'name', message: 'invalid name' }]);
  return parsed.data;
}

/** Rubber stamps (issue 8, spec §7); the work is in rubber-stamps/. */
export function registerRubberStampRoutes(app: FastifyInstance, ctx: AppContext) {
  const db = ctx.database.db;

  route(app, ctx, listRubberStamps, async ({ auth }) => listStamps({ db, actor: tenantActorOf(auth) }));

  route(app, ctx, createRubberStamp, async ({ auth, request }) => {
    const form = await readStampForm(request);
    if (!form.file) throw invalidInput('Send the stamp image as the multipart field "file".', [{ path: 'file', message: 'required' }]);
    const name = stampNameOf(nameField(form.fields.name), form.file.name);
    return createStamp({ db, storage: ctx.storage, actor: tenantActorOf(auth), name, bytes: form.file.bytes });
  });

  route(app, ctx, updateRubberStamp, async ({ auth, request }) => {
    const form = await readStampForm(request);
    const id = z.uuid().safeParse(form.fields.rubberStampId);
    if (!id.success) throw invalidInput('Name the stamp to change in the field "rubberStampId".', [{ path: 'rubberStampId', message: 'required' }]);
    const name = nameField(form.fields.name);
    if (!name && !form.file) throw invalidInput('Send a new name, a new image, or both.', [{ path: 'name', message: 'nothing to change' }]);
    return updateStamp({ db, storage: ctx.storage, actor: tenantActorOf(auth), stampId: id.data, ...(name ? { name } : {}), ...(form.file ? { bytes: form.file.bytes } : {}) });
  });

  route(app, ctx, deleteRubberStamp, async ({ auth, params }) => {
    await deleteStamp({ db, actor: tenantActorOf(auth), stampId: params.rubberStampId });
    return { deleted: true as const };
  });

  route(app, ctx, shareRubberStamp, async ({ auth, body }) => shareStamp({ db, actor: tenantActorOf(auth), body }));

  route(app, ctx, downloadRubberStampImage, async ({ auth, params, reply }) => {
    const row = await loadStampForImage({ db, actor: tenantActorOf(auth), stampId: params.rubberStampId });
    // Content-addressed: an edited image is another sha, so the ETag tells the versions apart.
    reply.header('etag', `"${row.sha256}"`);
    return { contentType: row.contentType, size: row.size, stream: await ctx.storage.get(row.sha256) };
  });

}
