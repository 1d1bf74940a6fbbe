import { downloadCeremonyRubberStampImage, notFound } from '@pakt/domain';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../http/app-context';
import { route } from '../../http/route';
import { loadAvailableStamp, mayApplyStamps } from '../rubber-stamps';
import { loadVisibleEpak } from './access';

/**
 * The ceremony's rubber-stamp thumbnails: reached through the ePak, so a signing-link session of a
 * member sees the stamps it may apply there, and nothing of anyone else's. An ePak route, so the
 * stamps feature needs nothing of the ePaks'.
 */
export function registerCeremonyStampRoutes(app: FastifyInstance, ctx: AppContext) {
  const db = ctx.database.db;
  route(app, ctx, downloadCeremonyRubberStampImage, async ({ auth, params }) => {
    const actor = { tenantId: auth.tenant.id, userId: auth.user.id };
    const { epak } = await loadVisibleEpak(db, actor, params.ePakId);
    if (!(await mayApplyStamps(db, epak.tenantId, actor.userId))) throw notFound('No such rubber stamp.');
    const row = await loadAvailableStamp({ db, tenantId: epak.tenantId, userId: actor.userId, stampId: params.rubberStampId });
    if (!row) throw notFound('No such rubber stamp.');
    return { contentType: row.contentType, size: row.size, stream: await ctx.storage.get(row.sha256) };
  });
}
