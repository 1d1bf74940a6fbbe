import {
  deleteLetterheadTemplate,
  downloadLetterheadTemplate,
  invalidInput,
  LETTERHEAD_MAX_SIZE_BYTES,
  listLetterheadTemplates,
  uploadLetterheadTemplate,
} from '@pakt/domain';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../http/app-context';
import { tenantActorOf } from '../../http/auth-guard';
import { route } from '../../http/route';
import { deleteLetterhead, letterheadTooLarge, listLetterheads, loadLetterhead, uploadLetterhead } from './letterheads';

/** Letterhead templates (issue 8, spec §7); the work is in letterheads/. */
export function registerLetterheadRoutes(app: FastifyInstance, ctx: AppContext) {
  const db = ctx.database.db;

  route(app, ctx, listLetterheadTemplates, async ({ auth }) => ({ letterheads: await listLetterheads({ db, actor: tenantActorOf(auth) }) }));

  route(app, ctx, uploadLetterheadTemplate, async ({ auth, request }) => {
    // One byte over the limit is enough to know it is too large; busboy stops reading there.
    const file = await request.file({ limits: { fileSize: LETTERHEAD_MAX_SIZE_BYTES + 1, files: 1 } });
    if (!file) throw invalidInput('Send the letterhead as the multipart field "file".');
    const bytes = await file.toBuffer().catch(() => undefined);
    if (!bytes || file.file.truncated) throw letterheadTooLarge();
    return uploadLetterhead({ db, storage: ctx.storage, actor: tenantActorOf(auth), fileName: file.filename, bytes });
  });

  route(app, ctx, deleteLetterheadTemplate, async ({ auth, params }) => {
    await deleteLetterhead({ db, actor: tenantActorOf(auth), letterHeadDocId: params.letterHeadDocId });
    return { deleted: true as const };
  });

  route(app, ctx, downloadLetterheadTemplate, async ({ auth, params, reply }) => {
    const row = await loadLetterhead({ db, tenantId: auth.tenant.id, letterHeadDocId: params.letterHeadDocId });
    // Content-addressed: the bytes under this id never change, so the browser may keep them.
    reply.header('cache-control', 'private, max-age=86400, immutable');
    return { contentType: row.contentType, size: row.size, stream: await ctx.storage.get(row.sha256) };
  });
}
