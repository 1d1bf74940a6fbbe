import { can, enforce, inboxApi, SUCCESS_CODE } from '@pakt/domain';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../http/app-context';
import { actorOf, tenantActorOf } from '../../http/auth-guard';
import { route, SerializedAnswer } from '../../http/route';
import { changesByClockAt, keptInboxPage, type KeptPage } from './kept-pages';
import { listInbox } from './list-inbox';
import { PageCache } from './page-cache';
import { markEpakRead } from './mark-read';
import { loadStatistics, loadUserStatistics } from './statistics';

/** How long a kept page may be used at most: bounds how late a renamed person shows in it. */
const PAGE_CACHE_MAX_AGE_MS = 30_000;

/** The inbox, its read marks and the dashboard's statistics (issue 6); the work is in inbox/. */
export function registerInboxRoutes(app: FastifyInstance, ctx: AppContext) {
  const db = ctx.database.db;

  // Each process keeps its own recently answered pages, checked against the database's inbox
  // version at every request (inbox/page-cache.ts).
  const cache = new PageCache<KeptPage<SerializedAnswer>>({ maxEntries: ctx.config.inboxPageCacheEntries, maxAgeMs: PAGE_CACHE_MAX_AGE_MS });
  route(app, ctx, inboxApi.listEpaks, async ({ auth, query }) => {
    const actor = tenantActorOf(auth);
    return keptInboxPage({
      database: ctx.database,
      actor,
      query,
      cache,
      read: async () => {
        const now = new Date();
        const page = await listInbox({ database: ctx.database, actor, query, now });
        // Written once and sent as it is (kept as sent when the cache is on). Not parsed by the
        // response schema again at each request: for a 50-row page that took twice as long as
        // writing it (0.19 against 0.09 ms, about a tenth of the server's CPU per request), for an
        // answer listInbox builds field by field from the contract's types; the route tests parse
        // every answer with InboxPage and check that nothing changes.
        return { value: new SerializedAnswer(JSON.stringify({ code: SUCCESS_CODE, data: page })), validUntil: changesByClockAt(page, now.getTime()) };
      },
    });
  });

  route(app, ctx, inboxApi.markEpakRead, async ({ auth, params, body }) => markEpakRead({ db, actor: tenantActorOf(auth), epakId: params.ePakId, isRead: body.isRead }));

  route(app, ctx, inboxApi.getStatistics, async ({ auth, query }) => {
    // The tenant's numbers are for its administrators; everyone with an inbox sees their own.
    if (query.scope === 'all') enforce(actorOf(auth), 'statistics.tenant');
    // A group's manager reads their members' numbers (scope groupuser); the tenant's admins anyone's.
    return loadStatistics({ db, actor: tenantActorOf(auth), query, anyMember: can(actorOf(auth), 'statistics.tenant') });
  });

  route(app, ctx, inboxApi.getUserStatistics, async ({ auth }) => loadUserStatistics({ db, actor: tenantActorOf(auth) }));
}
