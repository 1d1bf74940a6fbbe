import { publicAlive, publicConfiguration } from '@pakt/domain';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../http/app-context';
import { route } from '../../http/route';
import { readPublicConfiguration } from './public-settings';

export function registerPublicRoutes(app: FastifyInstance, ctx: AppContext) {
  route(app, ctx, publicAlive, async () => {
    // Alive means able to serve: a server whose database is gone answers 500 here.
    await ctx.database.ping();
    return {
      status: 'UP' as const,
      version: ctx.version,
      database: ctx.database.kind,
      serverTime: new Date().toISOString(),
    };
  });

  route(app, ctx, publicConfiguration, async ({ request }) =>
    readPublicConfiguration({
      db: ctx.database.db,
      config: ctx.config,
      version: ctx.version,
      onInvalidStored: (error) => request.log.warn({ err: error }, 'stored public settings are invalid; using defaults'),
    }),
  );
}
