import path from 'node:path';
import { anchorApi } from '@pakt/domain';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../http/app-context';
import { route } from '../../http/route';
import { parserQueueOf } from '../documents';
import { type AnchorServices, suggestForEpakDocument, suggestForStoredDocument } from './anchors';

export function registerAnchorRoutes(app: FastifyInstance, ctx: AppContext) {
  const services: AnchorServices = {
    db: ctx.database.db,
    storage: ctx.storage,
    // Scratch space beside the stored files, as uploads use.
    workRoot: path.join(ctx.config.dataDir, 'work'),
    parsers: parserQueueOf(ctx),
  };
  const scopeOf = (auth: { tenant: { id: string }; user: { id: string } }) => ({ tenantId: auth.tenant.id, ownerId: auth.user.id });

  route(app, ctx, anchorApi.findDocumentAnchors, async ({ auth, params, body, request }) => {
    const answer = await suggestForStoredDocument(services, scopeOf(auth), params.documentId, body);
    request.log.info({ documentId: params.documentId, find: body.find, suggestions: answer.suggestions.length, pagesScanned: answer.pagesScanned }, 'anchors found');
    return answer;
  });

  route(app, ctx, anchorApi.findEpakDocumentAnchors, async ({ auth, params, body, request }) => {
    const answer = await suggestForEpakDocument(services, scopeOf(auth), params.ePakId, params.documentId, body);
    request.log.info({ ePakId: params.ePakId, documentId: params.documentId, find: body.find, suggestions: answer.suggestions.length, pagesScanned: answer.pagesScanned }, 'anchors found');
    return answer;
  });
}
