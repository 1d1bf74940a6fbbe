import fs from 'node:fs';
import path from 'node:path';
import {
  DOCUMENT_PAGE_SIZE,
  documentApi,
  invalidInput,
  type PreconfiguredTag,
} from '@pakt/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../http/app-context';
import {
  convertToPdf,
  deleteOwnDocuments,
  type DocumentLimits,
  listOwnDocuments,
  loadOwnDocument,
  mergeOwnDocuments,
  presentDocument,
  renameOwnDocument,
  uploadDocument,
} from './documents';
import { findLibreOffice } from './office';
import { parserQueueOf } from './parser-queue';
import { clientGoneSignal } from '../../http/client-gone';
import { route } from '../../http/route';
import { rangedFile } from '../../platform/storage/file-storage';

export function registerDocumentRoutes(app: FastifyInstance, ctx: AppContext) {
  const db = ctx.database.db;
  const limits: DocumentLimits = {
    maxBytes: ctx.config.documents.maxBytes,
    maxPages: ctx.config.documents.maxPages,
    libreOffice: findLibreOffice(ctx.config.documents.libreOfficePath),
    parsers: parserQueueOf(ctx),
  };
  // Scratch space next to the stored files: the same disk, so a large upload fits where it will live.
  const workRoot = path.join(ctx.config.dataDir, 'work');
  const scopeOf = (auth: { tenant: { id: string }; user: { id: string } }) => ({ tenantId: auth.tenant.id, ownerId: auth.user.id });

  const fileOf = async (request: FastifyRequest) => {
    // The size limit is ours to enforce with our own message; busboy only stops runaway streams.
    const file = await request.file({ limits: { fileSize: limits.maxBytes + 1, files: 1 } });
    if (!file) throw invalidInput('Send the document as the multipart field "file".');
    return file;
  };

  route(app, ctx, documentApi.uploadDocument, async ({ auth, request, reply, tenantSettings }) => {
    const file = await fileOf(request);
    const settings = await tenantSettings();
    const row = await uploadDocument({
      db,
      storage: ctx.storage,
      workRoot,
      tenantId: auth.tenant.id,
      ownerId: auth.user.id,
      fileName: file.filename,
      stream: file.file,
      disabledFormats: settings.disabledDocumentFormats ?? [],
      refuseDoubtfulSignatures: settings.refuseDoubtfulSignatures ?? false,
      limits,
      signal: clientGoneSignal(reply),
    });
    request.log.info({ documentId: row.id, pages: row.pageCount, size: row.size, signatures: (row.signatureState as { status?: string } | null)?.status ?? null }, 'document uploaded');
    return presentDocument(row);
  });

  route(app, ctx, documentApi.listDocuments, async ({ auth, query }) => {
    const { rows, total } = await listOwnDocuments(db, scopeOf(auth), query.page, DOCUMENT_PAGE_SIZE);
    return { documents: rows.map(presentDocument), total, pageSize: DOCUMENT_PAGE_SIZE };
  });

  route(app, ctx, documentApi.deleteDocuments, async ({ auth, body }) => ({ deleted: await deleteOwnDocuments(db, scopeOf(auth), body.documentIds) }));

  route(app, ctx, documentApi.renameDocument, async ({ auth, params, body }) =>
    presentDocument(await renameOwnDocument(db, scopeOf(auth), params.documentId, body.name)),
  );

  route(app, ctx, documentApi.mergeDocuments, async ({ auth, body, reply }) =>
    presentDocument(
      await mergeOwnDocuments({
        db,
        storage: ctx.storage,
        workRoot,
        scope: scopeOf(auth),
        documentIds: body.documentIds,
        name: body.name,
        limits,
        signal: clientGoneSignal(reply),
      }),
    ),
  );

  route(app, ctx, documentApi.convertDocument, async ({ request, reply, tenantSettings }) => {
    const file = await fileOf(request);
    return convertToPdf({
      workRoot,
      fileName: file.filename,
      stream: file.file,
      disabledFormats: (await tenantSettings()).disabledDocumentFormats ?? [],
      limits,
      signal: clientGoneSignal(reply),
      // Read whole before the scratch directory goes: a converted file is bounded by the limits.
      send: async (pdf) => {
        const bytes = await fs.promises.readFile(pdf.path);
        return { contentType: 'application/pdf', size: pdf.size, fileName: pdf.name, stream: bytes };
      },
    });
  });

  route(app, ctx, documentApi.downloadDocument, async ({ auth, params }) => {
    const row = await loadOwnDocument(db, scopeOf(auth), params.documentId);
    const fileName = /\.pdf$/i.test(row.name) ? row.name : `${path.parse(row.name).name}.pdf`;
    return { contentType: 'application/pdf', size: row.size, fileName, ranged: rangedFile(ctx.storage, row.sha256) };
  });

  route(app, ctx, documentApi.preconfiguredTags, async ({ auth, params }) => {
    const row = await loadOwnDocument(db, scopeOf(auth), params.documentId);
    return { tags: row.formFields as PreconfiguredTag[] };
  });
}
