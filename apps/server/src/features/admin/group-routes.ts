import {
  auditApi,
  groupApi,
} from '@pakt/domain';
import type { FastifyInstance } from 'fastify';
import { listAdminAudit } from '../../platform/audit-log';
import * as groupCommands from './groups';
import type { AppContext } from '../../http/app-context';
import { tenantActorOf } from '../../http/auth-guard';
import { route } from '../../http/route';

/** Groups and the administration audit log (issue 7); the work is in admin/. */
export function registerGroupRoutes(app: FastifyInstance, ctx: AppContext) {
  const db = ctx.database.db;

  route(app, ctx, groupApi.listGroups, async ({ auth, query }) => ({ groups: await groupCommands.listGroups({ db, tenantId: auth.tenant.id, q: query.q }) }));
  route(app, ctx, groupApi.getGroup, async ({ auth, params }) => groupCommands.loadGroup({ db, tenantId: auth.tenant.id, groupId: params.id }));
  route(app, ctx, groupApi.createGroup, async ({ auth, body }) =>
    groupCommands.createGroup({ db, actor: tenantActorOf(auth), name: body.groupName, userIds: body.userIds, managerId: body.managerId }),
  );
  route(app, ctx, groupApi.renameGroup, async ({ auth, body }) => groupCommands.renameGroup({ db, actor: tenantActorOf(auth), groupId: body.groupId, name: body.groupName }));
  route(app, ctx, groupApi.deleteGroup, async ({ auth, params }) => groupCommands.deleteGroup({ db, actor: tenantActorOf(auth), groupId: params.groupId }));
  route(app, ctx, groupApi.addGroupUsers, async ({ auth, params, body }) =>
    groupCommands.addGroupUsers({ db, actor: tenantActorOf(auth), groupId: params.groupId, userIds: body.userIds, manager: body.manager }),
  );
  route(app, ctx, groupApi.removeGroupUsers, async ({ auth, params, body }) =>
    groupCommands.removeGroupUsers({ db, actor: tenantActorOf(auth), groupId: params.groupId, userIds: body.userIds }),
  );

  route(app, ctx, auditApi.listAdminAudit, async ({ auth, query }) => listAdminAudit({ db, tenantId: auth.tenant.id, query }));
}
