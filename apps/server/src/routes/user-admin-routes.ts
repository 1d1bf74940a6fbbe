import { cancelUserInvitation, filteredUsers, makeUserAdmin, reinviteUser, setUserEnabled, updateUserRoles } from '@pakt/domain';
import type { FastifyInstance } from 'fastify';
import { listFilteredUsers, makeAdmin, setEnabled, updateRoles } from '../admin/users';
import type { AppContext } from '../app-context';
import { cancelInvitation, reinviteMember } from '../identity/invitations';
import { actorOf } from '../http/auth-guard';
import { route } from '../http/route';

/** User administration of a tenant (issue 7); the work is in admin/users.ts. */
export function registerUserAdminRoutes(app: FastifyInstance, ctx: AppContext) {
  const db = ctx.database.db;
  const tenantActor = (auth: Parameters<typeof actorOf>[0] & { tenant: { id: string } }) => ({ ...actorOf(auth), tenantId: auth.tenant.id });

  route(app, ctx, filteredUsers, async ({ auth, query }) => listFilteredUsers({ db, tenantId: auth.tenant.id, query }));
  route(app, ctx, updateUserRoles, async ({ auth, body }) => updateRoles({ db, actor: tenantActor(auth), changes: body.users }));
  route(app, ctx, makeUserAdmin, async ({ auth, params }) => makeAdmin({ db, actor: tenantActor(auth), userId: params.userId }));
  route(app, ctx, reinviteUser, async ({ auth, params }) =>
    reinviteMember({ db, tenant: auth.tenant, userId: params.userId, invitedBy: auth.user.id, publicUrl: ctx.config.publicUrl }),
  );
  route(app, ctx, cancelUserInvitation, async ({ auth, params }) => cancelInvitation({ db, tenantId: auth.tenant.id, userId: params.userId, cancelledBy: auth.user.id }));
  route(app, ctx, setUserEnabled, async ({ auth, params, body }) => setEnabled({ db, actor: tenantActor(auth), userId: params.userId, enabled: body.enabled }));
}
