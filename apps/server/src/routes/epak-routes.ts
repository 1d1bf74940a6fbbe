import {
  createEpak,
  createSignatureBlocks,
  downloadEpakDocument,
  getEpak,
  getSignatureBlocks,
  rejectEpak,
  searchDirectory,
  startEpak,
  updateSignatureBlocks,
} from '@pakt/domain';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../app-context';
import { composeEpak, loadEpakDetail, loadEpakDocument, readTags, saveTags, searchDirectory as findPeople } from '../epaks/compose';
import { startEpak as sendEpak } from '../epaks/start';
import { rejectEpak as reject } from '../epaks/act';
import { route } from '../http/route';

export function registerEpakRoutes(app: FastifyInstance, ctx: AppContext) {
  const db = ctx.database.db;
  const scopeOf = (auth: { tenant: { id: string }; user: { id: string } }) => ({ tenantId: auth.tenant.id, ownerId: auth.user.id });

  route(app, ctx, createEpak, async ({ auth, body, request, tenantSettings }) => {
    const settings = await tenantSettings();
    const id = await composeEpak({
      db,
      scope: scopeOf(auth),
      input: body,
      skipNewUsers: settings.skipNewUsers ?? false,
      filters: settings,
      ...(settings.viewEnforceOption ? { viewEnforceOption: settings.viewEnforceOption } : {}),
    });
    request.log.info({ ePakId: id }, 'ePak composed as a draft');
    return loadEpakDetail(db, scopeOf(auth), id);
  });

  route(app, ctx, searchDirectory, async ({ auth, query, tenantSettings }) => ({
    users: await findPeople(db, auth.tenant.id, query.q, query.limit, await tenantSettings()),
  }));

  route(app, ctx, getEpak, async ({ auth, params }) => loadEpakDetail(db, scopeOf(auth), params.ePakId));

  route(app, ctx, getSignatureBlocks, async ({ auth, params }) => ({ tags: await readTags(db, scopeOf(auth), params.ePakId, params.documentId) }));

  route(app, ctx, downloadEpakDocument, async ({ auth, params }) => {
    const { doc } = await loadEpakDocument(db, scopeOf(auth), params.ePakId, params.documentId);
    const fileName = /\.pdf$/i.test(doc.name) ? doc.name : `${doc.name.replace(/\.[^.]*$/, '')}.pdf`;
    return { contentType: 'application/pdf', size: doc.size, fileName, stream: await ctx.storage.get(doc.sha256) };
  });

  route(app, ctx, startEpak, async ({ auth, params, request }) => {
    await sendEpak({ db, scope: scopeOf(auth), epakId: params.ePakId, ip: request.ip });
    request.log.info({ ePakId: params.ePakId }, 'ePak started');
    return loadEpakDetail(db, scopeOf(auth), params.ePakId);
  });

  route(app, ctx, rejectEpak, async ({ auth, params, body, request }) => {
    const { status } = await reject({ db, actor: { tenantId: auth.tenant.id, userId: auth.user.id }, epakId: params.ePakId, comment: body.comment, ip: request.ip });
    request.log.info({ ePakId: params.ePakId }, 'ePak rejected');
    return { ePakId: params.ePakId, status };
  });

  for (const endpoint of [createSignatureBlocks, updateSignatureBlocks]) {
    route(app, ctx, endpoint, async ({ auth, params, body }) => ({
      tags: await saveTags({ db, scope: scopeOf(auth), epakId: params.ePakId, documentId: params.documentId, tags: body.tags }),
    }));
  }
}
