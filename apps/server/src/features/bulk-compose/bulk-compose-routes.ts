import {
  bulkComposeHeaderCsv,
  downloadBulkComposeFailures,
  downloadBulkComposeHeader,
  getBulkComposeColumns,
  getBulkComposeRun,
  invalidInput,
  listBulkComposeRuns,
  uploadBulkCompose,
} from '@pakt/domain';
import type { FastifyInstance } from 'fastify';
import { Readable } from 'node:stream';
import { z } from 'zod';
import type { AppContext } from '../../http/app-context';
import { describeColumns, getBulkRun, listBulkRuns, loadBulkTemplate, streamBulkFailures, uploadBulkFile } from './bulk-compose';
import { tenantActorOf } from '../../http/auth-guard';
import { route } from '../../http/route';
import { bulkComposeJob } from './bulk-compose-job';

/** Bulk compose (issue 8, /bulkcompose); the work is in bulk-compose/, run by jobs/bulk-compose.ts. */
export function registerBulkComposeRoutes(app: FastifyInstance, ctx: AppContext) {
  const db = ctx.database.db;
  const job = bulkComposeJob(ctx);

  route(app, ctx, getBulkComposeColumns, async ({ auth, params }) => ({ columns: describeColumns(await loadBulkTemplate(db, auth.tenant.id, params.docTemplateId)) }));

  route(app, ctx, downloadBulkComposeHeader, async ({ auth, params }) => {
    const template = await loadBulkTemplate(db, auth.tenant.id, params.docTemplateId);
    const body = Buffer.from(bulkComposeHeaderCsv(template.layout));
    const base = template.row.name.replace(/[^\p{L}\p{N} _.-]+/gu, '_').trim() || 'template';
    return { contentType: 'text/csv; charset=utf-8', size: body.length, fileName: `${base}-bulk.csv`, stream: Readable.from([body]) };
  });

  route(app, ctx, uploadBulkCompose, async ({ auth, request }) => {
    const { maxBytes, maxRows } = ctx.config.bulkCompose;
    // The template id comes as a field before the file; the file is streamed, never buffered.
    const file = await request.file({ limits: { fileSize: maxBytes, files: 1, fields: 4 } });
    if (!file) throw invalidInput('Send the CSV as the multipart field "file", after the field "docTemplateId".');
    const field = file.fields['docTemplateId'];
    const raw = field && !Array.isArray(field) && field.type === 'field' ? String(field.value) : undefined;
    const docTemplateId = z.uuid().safeParse(raw);
    if (!docTemplateId.success) {
      file.file.resume();
      throw invalidInput('Name the document template: the field "docTemplateId", before the file.', [{ path: 'docTemplateId', message: 'a template id is needed' }]);
    }
    const result = await uploadBulkFile({
      db,
      storage: ctx.storage,
      actor: tenantActorOf(auth),
      docTemplateId: docTemplateId.data,
      fileName: file.filename,
      content: file.file,
      maxRows,
      maxBytes,
      truncated: () => file.file.truncated,
    }).catch((error: unknown) => {
      // Whatever was left of the upload is drained, so the answer goes out at once.
      file.file.resume();
      throw error;
    });
    if (result.queued && ctx.jobs) {
      // After the commit. Without jobs in this process the run waits for a worker's sweep.
      await ctx.jobs.send(job, { runId: result.run.runId }).catch((error: unknown) => request.log.error({ err: error, runId: result.run.runId }, 'could not enqueue a bulk compose run; the sweep will'));
    }
    return { run: result.run, existing: result.existing };
  });

  route(app, ctx, listBulkComposeRuns, async ({ auth }) => ({ runs: await listBulkRuns(db, tenantActorOf(auth)) }));

  route(app, ctx, getBulkComposeRun, async ({ auth, params, query }) => getBulkRun({ db, storage: ctx.storage, actor: tenantActorOf(auth), runId: params.runId, page: query.page }));

  route(app, ctx, downloadBulkComposeFailures, async ({ auth, params }) => {
    const { body, fileName } = await streamBulkFailures({ db, storage: ctx.storage, actor: tenantActorOf(auth), runId: params.runId });
    return { contentType: 'text/csv; charset=utf-8', size: body.length, fileName, stream: Readable.from([body]) };
  });
}
