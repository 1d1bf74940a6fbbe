import {
  EPAK_ATTACHMENT_MAX_BYTES,
  epakApi,
  epakSigningApi,
  invalidInput,
} from '@pakt/domain';
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../http/app-context';
import { composeEpak, loadEpakDetail, loadEpakDocument, readTags, saveTags, searchDirectory } from './compose';
import { startEpak } from './start';
import { rejectEpak } from './act';
import { tenantActorOf } from '../../http/auth-guard';
import { route } from '../../http/route';
import { attachFile, listAttachments, loadAttachment } from './attachments';
import { authorizeInPersonSigner, IN_PERSON_CLIENT_ID } from './in-person';
import { exchangeSigningLink } from './links';
import { readServableDocument } from './integrity';
import { revisionsOf } from './revisions';
import { signDocument } from './sign';
import { smsAvailableOn } from './recipient-verification';
import { recordDocumentView, setEpakStatus } from './status';
import { rangedFile } from '../../platform/storage/file-storage';
import { parserQueueOf } from '../documents';
import { renderPagePreview } from './page-preview';
import { clientGoneSignal } from '../../http/client-gone';

export function registerEpakRoutes(app: FastifyInstance, ctx: AppContext) {
  const db = ctx.database.db;
  const scopeOf = (auth: { tenant: { id: string }; user: { id: string } }) => ({ tenantId: auth.tenant.id, ownerId: auth.user.id });
  // Whether signer verification may offer a code by text (the viewer's maskedPhone).
  const smsAvailable = smsAvailableOn(ctx.config);

  route(app, ctx, epakApi.createEpak, async ({ auth, body, request, tenantSettings }) => {
    const settings = await tenantSettings();
    const id = await composeEpak({
      db,
      scope: scopeOf(auth),
      input: body,
      skipNewUsers: settings.skipNewUsers ?? false,
      filters: settings,
      ...(settings.viewEnforceOption ? { viewEnforceOption: settings.viewEnforceOption } : {}),
      ...(settings.verificationMode ? { verificationMode: settings.verificationMode } : {}),
    });
    request.log.info({ ePakId: id }, 'ePak composed as a draft');
    return loadEpakDetail(db, scopeOf(auth), id);
  });

  route(app, ctx, epakApi.searchDirectory, async ({ auth, query, tenantSettings }) => ({
    users: await searchDirectory(db, auth.tenant.id, query.q, query.limit, await tenantSettings()),
  }));

  route(app, ctx, epakApi.getEpak, async ({ auth, params }) => loadEpakDetail(db, scopeOf(auth), params.ePakId, { smsAvailable }));

  route(app, ctx, epakApi.getSignatureBlocks, async ({ auth, params }) => ({ tags: await readTags(db, scopeOf(auth), params.ePakId, params.documentId) }));

  route(app, ctx, epakApi.downloadEpakDocument, async ({ auth, params }) => {
    const { epak, doc } = await loadEpakDocument(db, scopeOf(auth), params.ePakId, params.documentId);
    const fileName = /\.pdf$/i.test(doc.name) ? doc.name : `${doc.name.replace(/\.[^.]*$/, '')}.pdf`;
    // The file as composed followed by every signer's revision: what pdfsig verifies, checked
    // against its recorded SHA-256 before a byte goes out.
    const revisions = await revisionsOf(db, doc.id);
    const bytes = await readServableDocument({ db, storage: ctx.storage, tenantId: auth.tenant.id, actorId: auth.user.id, epak, doc, revisions });
    return { contentType: 'application/pdf', size: bytes.length, fileName, stream: Readable.from([bytes]) };
  });


  route(app, ctx, epakApi.previewEpakDocumentPage, async ({ auth, params, query, reply }) => {
    const { epak, doc } = await loadEpakDocument(db, scopeOf(auth), params.ePakId, params.documentId);
    if (params.page > doc.pageCount) throw invalidInput(`The document has ${doc.pageCount} page(s); there is no page ${params.page}.`, [{ path: 'page', message: 'outOfRange' }]);
    const revisions = await revisionsOf(db, doc.id);
    const png = await renderPagePreview({
      documentId: doc.id,
      revisions: revisions.length,
      page: params.page,
      width: query.width,
      // Checked against its recorded SHA-256 like a download: a picture of a tampered file is never drawn.
      read: () => readServableDocument({ db, storage: ctx.storage, tenantId: auth.tenant.id, actorId: auth.user.id, epak, doc, revisions }),
      parsers: parserQueueOf(ctx),
      signal: clientGoneSignal(reply),
    });
    return { contentType: 'image/png', size: png.length, stream: Readable.from([png]) };
  });

  route(app, ctx, epakSigningApi.signEpakDocument, async ({ auth, params, body, request }) => {
    const result = await signDocument({
      ctx,
      actor: tenantActorOf(auth),
      epakId: params.ePakId,
      documentId: params.documentId,
      body,
      ip: request.ip,
      inPerson: auth.session.clientId === IN_PERSON_CLIENT_ID,
    });
    request.log.info({ ePakId: params.ePakId, documentId: params.documentId, revision: result.revision }, 'document signed');
    return result;
  });

  route(app, ctx, epakSigningApi.setEpakStatus, async ({ auth, body, request }) => {
    const result = await setEpakStatus({ ctx, actor: tenantActorOf(auth), epakId: body.ePakId, status: body.status, comment: body.comment, ip: request.ip });
    return result;
  });

  route(app, ctx, epakSigningApi.actOnEpakDocument, async ({ auth, params }) =>
    recordDocumentView({ db, actor: tenantActorOf(auth), epakId: params.epakId, documentId: params.documentId, smsAvailable }),
  );

  route(app, ctx, epakSigningApi.authorizeInPersonSigner, async ({ auth, body, request }) => {
    const result = await authorizeInPersonSigner({
      db,
      actor: tenantActorOf(auth),
      epakId: body.ePakId,
      recipientId: body.recipientId,
      otpId: body.otpId,
      code: body.code,
      client: { ipAddress: request.ip, ...(request.headers['user-agent'] ? { userAgent: request.headers['user-agent'] } : {}) },
    });
    return result;
  });

  const uploadOf = async (request: FastifyRequest) => {
    // Our own size check runs inside attachFile; busboy only stops a runaway stream.
    const file = await request.file({ limits: { fileSize: EPAK_ATTACHMENT_MAX_BYTES + 1, files: 1 } });
    if (!file) throw invalidInput('Send the file as the multipart field "file".');
    return file;
  };

  route(app, ctx, epakSigningApi.attachToTag, async ({ auth, params, request }) => {
    const file = await uploadOf(request);
    return attachFile({
      db,
      storage: ctx.storage,
      actor: tenantActorOf(auth),
      epakId: params.ePakId,
      target: { documentId: params.docId, tagUuid: params.tagId },
      fileName: file.filename,
      stream: file.file,
      ip: request.ip,
    });
  });

  route(app, ctx, epakSigningApi.attachToEpak, async ({ auth, params, request }) => {
    const file = await uploadOf(request);
    return attachFile({ db, storage: ctx.storage, actor: tenantActorOf(auth), epakId: params.ePakId, target: null, fileName: file.filename, stream: file.file, ip: request.ip });
  });

  route(app, ctx, epakSigningApi.listEpakAttachments, async ({ auth, params }) => ({ attachments: await listAttachments(db, tenantActorOf(auth), params.ePakId) }));

  route(app, ctx, epakSigningApi.downloadEpakAttachment, async ({ auth, params }) => {
    const row = await loadAttachment(db, tenantActorOf(auth), params.ePakId, params.attachmentId);
    return { contentType: 'application/octet-stream', size: row.size, fileName: row.name, ranged: rangedFile(ctx.storage, row.sha256) };
  });

  route(app, ctx, epakSigningApi.exchangeEasyToken, async ({ params, request }) =>
    exchangeSigningLink({ db, token: params.easytoken, client: { ipAddress: request.ip, userAgent: request.headers['user-agent'] } }),
  );

  route(app, ctx, epakApi.startEpak, async ({ auth, params, request, tenantSettings }) => {
    const settings = await tenantSettings();
    await startEpak({
      db,
      scope: scopeOf(auth),
      epakId: params.ePakId,
      ip: request.ip,
      notify: { publicUrl: ctx.config.publicUrl, linkDays: ctx.config.signingLinkDays },
      defaultExpiryDays: settings.ePakExpiryDays,
      defaultRetentionDays: settings.ePakRetentionDays,
    });
    request.log.info({ ePakId: params.ePakId }, 'ePak started');
    return loadEpakDetail(db, scopeOf(auth), params.ePakId);
  });

  route(app, ctx, epakApi.rejectEpak, async ({ auth, params, body, request }) => {
    const { status } = await rejectEpak({ ctx, actor: tenantActorOf(auth), epakId: params.ePakId, comment: body.comment, ip: request.ip });
    request.log.info({ ePakId: params.ePakId }, 'ePak rejected');
    return { ePakId: params.ePakId, status };
  });

  for (const endpoint of [epakApi.createSignatureBlocks, epakApi.updateSignatureBlocks]) {
    route(app, ctx, endpoint, async ({ auth, params, body }) => ({
      tags: await saveTags({ db, scope: scopeOf(auth), epakId: params.ePakId, documentId: params.documentId, tags: body.tags }),
    }));
  }
}
