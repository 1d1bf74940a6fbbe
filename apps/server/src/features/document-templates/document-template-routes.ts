import path from 'node:path';
import {
  composeFromDocumentTemplate,
  createDocumentTemplate,
  deleteDocumentTemplates,
  DocumentTemplateUploadFields,
  downloadDocumentTemplate,
  exportDocumentTemplate,
  invalidInput,
  listDocumentTemplates,
  updateDocumentTemplate,
  uploadDocumentTemplate,
} from '@pakt/domain';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../http/app-context';
import {
  composeFromTemplate,
  createTemplateFromEpak,
  deleteTemplates,
  exportTemplate,
  listTemplates,
  templateDocument,
  updateTemplate,
  uploadTemplate,
} from './document-templates';
import type { DocumentLimits } from '../documents';
import { findLibreOffice, parserQueueOf } from '../documents';
import { loadEpakDetail } from '../epaks';
import { tenantActorOf } from '../../http/auth-guard';
import { clientGoneSignal } from '../../http/client-gone';
import { route } from '../../http/route';

/** Document templates (issue 8, spec §7 and the compose tab docTemplates); the work is in document-templates/. */
export function registerDocumentTemplateRoutes(app: FastifyInstance, ctx: AppContext) {
  const db = ctx.database.db;
  const limits: DocumentLimits = {
    maxBytes: ctx.config.documents.maxBytes,
    maxPages: ctx.config.documents.maxPages,
    libreOffice: findLibreOffice(ctx.config.documents.libreOfficePath),
    parsers: parserQueueOf(ctx),
  };
  const workRoot = path.join(ctx.config.dataDir, 'work');

  route(app, ctx, listDocumentTemplates, async ({ auth }) => ({ templates: await listTemplates({ db, actor: tenantActorOf(auth) }) }));

  route(app, ctx, createDocumentTemplate, async ({ auth, body }) =>
    createTemplateFromEpak({ db, actor: tenantActorOf(auth), ePakId: body.ePakId, documentId: body.documentId, name: body.name, description: body.description }),
  );

  route(app, ctx, uploadDocumentTemplate, async ({ auth, request, reply, tenantSettings }) => {
    // The size limit is the document pipeline's, with its own message; busboy only stops runaways.
    const file = await request.file({ limits: { fileSize: limits.maxBytes + 1, files: 1 } });
    if (!file) throw invalidInput('Send the document as the multipart field "file".');
    // Fields sent before the file arrive with it.
    const fields = Object.fromEntries(
      Object.values(file.fields).flatMap((field) => {
        const one = Array.isArray(field) ? field[0] : field;
        return one && one.type === 'field' && one.fieldname !== 'file' ? [[one.fieldname, String(one.value)]] : [];
      }),
    );
    const parsed = DocumentTemplateUploadFields.safeParse(fields);
    if (!parsed.success) {
      file.file.resume();
      throw invalidInput('Some of the template is not valid.', parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })));
    }
    return uploadTemplate({
      db,
      storage: ctx.storage,
      workRoot,
      actor: tenantActorOf(auth),
      fileName: file.filename,
      stream: file.file,
      disabledFormats: (await tenantSettings()).disabledDocumentFormats ?? [],
      limits,
      signal: clientGoneSignal(reply),
      name: parsed.data.name,
      workflowId: parsed.data.workflowId,
    });
  });

  route(app, ctx, updateDocumentTemplate, async ({ auth, params, body }) =>
    updateTemplate({ db, actor: tenantActorOf(auth), docTemplateId: params.docTemplateId, changes: body }),
  );

  route(app, ctx, deleteDocumentTemplates, async ({ auth, body }) => ({
    deleted: await deleteTemplates({ db, actor: tenantActorOf(auth), docTemplateIds: body.docTemplateIds }),
  }));

  route(app, ctx, exportDocumentTemplate, async ({ auth, params }) =>
    exportTemplate({ db, storage: ctx.storage, actor: tenantActorOf(auth), docTemplateId: params.docTemplateId, workflowTemplateId: params.workflowTemplateId }),
  );

  route(app, ctx, downloadDocumentTemplate, async ({ auth, params }) =>
    templateDocument({ db, storage: ctx.storage, tenantId: auth.tenant.id, docTemplateId: params.docTemplateId }),
  );

  route(app, ctx, composeFromDocumentTemplate, async ({ auth, params, body, request, tenantSettings }) => {
    const scope = { tenantId: auth.tenant.id, ownerId: auth.user.id };
    const id = await composeFromTemplate({ db, scope, docTemplateId: params.docTemplateId, input: body, settings: await tenantSettings() });
    request.log.info({ ePakId: id, docTemplateId: params.docTemplateId }, 'ePak composed from a document template');
    return loadEpakDetail(db, scope, id);
  });
}
