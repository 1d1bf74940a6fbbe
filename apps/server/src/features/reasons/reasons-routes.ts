import {
  reasonApi,
} from '@pakt/domain';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../http/app-context';
import { createReason, listReasons, updateReason } from './reasons';
import { route } from '../../http/route';

export function registerReasonsRoutes(app: FastifyInstance, ctx: AppContext) {
  const db = ctx.database.db;

  route(app, ctx, reasonApi.listReasons, async ({ auth }) => ({ reasons: await listReasons(db, auth.tenant.id) }));

  route(app, ctx, reasonApi.createReason, async ({ auth, body }) => createReason({ db, tenantId: auth.tenant.id, actorId: auth.user.id, text: body.text }));

  route(app, ctx, reasonApi.updateReason, async ({ auth, body }) => ({
    reasons: await updateReason({ db, tenantId: auth.tenant.id, actorId: auth.user.id, ...body }),
  }));
}
