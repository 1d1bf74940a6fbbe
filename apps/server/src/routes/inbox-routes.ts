import { getStatistics, getUserStatistics, listEpaks, markEpakRead } from '@pakt/domain';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../app-context';
import { actorOf as authActorOf, authorizeOrThrow } from '../http/auth-guard';
import { route } from '../http/route';
import { listInbox } from '../inbox/list-inbox';
import { markEpakRead as markRead } from '../inbox/mark-read';
import { loadStatistics, loadUserStatistics } from '../inbox/statistics';

/** The inbox, its read marks and the dashboard's statistics (issue 6); the work is in inbox/. */
export function registerInboxRoutes(app: FastifyInstance, ctx: AppContext) {
  const db = ctx.database.db;
  const actorOf = (auth: { tenant: { id: string }; user: { id: string } }) => ({ tenantId: auth.tenant.id, userId: auth.user.id });

  route(app, ctx, listEpaks, async ({ auth, query }) => listInbox({ db, actor: actorOf(auth), query }));

  route(app, ctx, markEpakRead, async ({ auth, params, body }) => markRead({ db, actor: actorOf(auth), epakId: params.ePakId, isRead: body.isRead }));

  route(app, ctx, getStatistics, async ({ auth, query }) => {
    // The tenant's numbers are for its administrators; everyone with an inbox sees their own.
    if (query.scope === 'all') authorizeOrThrow(authActorOf(auth), 'statistics.tenant');
    return loadStatistics({ db, actor: actorOf(auth), query });
  });

  route(app, ctx, getUserStatistics, async ({ auth }) => loadUserStatistics({ db, actor: actorOf(auth) }));
}
