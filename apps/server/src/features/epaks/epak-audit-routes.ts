import { downloadEpak, getEpakActivity } from '@pakt/domain';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../http/app-context';
import { loadEpakActivity } from './activity';
import { prepareEpakDownload } from './download';
import { tenantActorOf } from '../../http/auth-guard';
import { route } from '../../http/route';

/** An ePak's audit trail: its hash-chained activity, and its download with the certificate. */
export function registerEpakAuditRoutes(app: FastifyInstance, ctx: AppContext) {
  const db = ctx.database.db;

  route(app, ctx, getEpakActivity, async ({ auth, params }) => loadEpakActivity(db, tenantActorOf(auth), params.ePakId));

  route(app, ctx, downloadEpak, async ({ auth, params, request }) => {
    const download = await prepareEpakDownload({
      db,
      storage: ctx.storage,
      vault: ctx.vault,
      keyAlgorithm: ctx.config.sealKeyAlgorithm,
      publicUrl: ctx.config.publicUrl,
      actor: tenantActorOf(auth),
      epakId: params.ePakId,
      now: new Date(),
    });
    request.log.info({ ePakId: params.ePakId, contentType: download.contentType, size: download.size }, 'ePak downloaded');
    return download;
  });
}
