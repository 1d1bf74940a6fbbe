import {
  superadminApi,
} from '@pakt/domain';
import type { FastifyInstance } from 'fastify';
import { inviteSuperadmin, inviteTenantSuperadmin, listSuperadmins, setSuperadminStatus } from './superadmins';
import type { AppContext } from '../../http/app-context';
import { actorOf } from '../../http/auth-guard';
import { route } from '../../http/route';

/** Super admins of a tenant (spec §7 Superadmins) and root's first one; the work is in admin/superadmins.ts. */
export function registerSuperadminRoutes(app: FastifyInstance, ctx: AppContext) {
  const db = ctx.database.db;

  route(app, ctx, superadminApi.listSuperadmins, async ({ auth }) => listSuperadmins({ db, tenantId: auth.tenant.id, actorId: auth.user.id }));

  route(app, ctx, superadminApi.registerSuperadmin, async ({ auth, body }) => {
    const { superadmin } = await inviteSuperadmin({ db, tenant: auth.tenant, person: body, invitedBy: auth.user.id, selfId: auth.user.id, publicUrl: ctx.config.publicUrl });
    // The link goes out by mail only: a super admin has no outbox to copy it from, unlike root.
    return superadmin;
  });

  route(app, ctx, superadminApi.updateSuperadminStatus, async ({ auth, body }) =>
    setSuperadminStatus({ db, actor: { ...actorOf(auth), tenantId: auth.tenant.id }, change: body }),
  );

  route(app, ctx, superadminApi.inviteTenantSuperadmin, async ({ auth, params, body }) => {
    const invited = await inviteTenantSuperadmin({ db, tenantId: params.tenantId, person: body, invitedBy: auth.user.id, publicUrl: ctx.config.publicUrl });
    return invited;
  });
}
