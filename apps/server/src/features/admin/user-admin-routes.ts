import { Readable } from 'node:stream';
import {
  cancelUserInvitation,
  csvInvite,
  csvInviteTemplate,
  filteredUsers,
  invalidInput,
  INVITE_CSV_MAX_BYTES,
  makeUserAdmin,
  reinviteUser,
  resetUserPassword,
  resetUserTwoFactor,
  setUserEnabled,
  setUserPasscodeFlag,
  updateUserRoles,
} from '@pakt/domain';
import type { FastifyInstance } from 'fastify';
import { inviteCsvTemplate, inviteFromCsv } from './csv-invite';
import { listFilteredUsers, makeAdmin, resetMemberPassword, resetMemberTwoFactor, setEnabled, setPasscodeFlag, updateRoles } from './users';
import type { AppContext } from '../../http/app-context';
import { cancelInvitation, reinviteMember } from '../identity';
import { actorOf } from '../../http/auth-guard';
import { route } from '../../http/route';

/** User administration of a tenant (issue 7); the work is in admin/users.ts. */
export function registerUserAdminRoutes(app: FastifyInstance, ctx: AppContext) {
  const db = ctx.database.db;
  const tenantActor = (auth: Parameters<typeof actorOf>[0] & { tenant: { id: string } }) => ({ ...actorOf(auth), tenantId: auth.tenant.id });

  route(app, ctx, filteredUsers, async ({ auth, query }) => listFilteredUsers({ db, tenantId: auth.tenant.id, query }));
  route(app, ctx, updateUserRoles, async ({ auth, body }) => updateRoles({ db, actor: tenantActor(auth), changes: body.users }));
  route(app, ctx, makeUserAdmin, async ({ auth, params }) => makeAdmin({ db, actor: tenantActor(auth), userId: params.userId }));
  route(app, ctx, reinviteUser, async ({ auth, params }) =>
    reinviteMember({ db, tenant: auth.tenant, actor: actorOf(auth), userId: params.userId, publicUrl: ctx.config.publicUrl }),
  );
  route(app, ctx, cancelUserInvitation, async ({ auth, params }) => cancelInvitation({ db, actor: tenantActor(auth), userId: params.userId }));
  route(app, ctx, csvInviteTemplate, async () => {
    const bytes = Buffer.from(inviteCsvTemplate(), 'utf8');
    return { contentType: 'text/csv; charset=utf-8', size: bytes.length, fileName: 'pakt-invitations.csv', stream: Readable.from([bytes]) };
  });
  route(app, ctx, csvInvite, async ({ auth, request }) => {
    const file = await request.file({ limits: { fileSize: INVITE_CSV_MAX_BYTES, files: 1 } });
    if (!file) throw invalidInput('Send the CSV file as the multipart field "file".');
    const bytes = await file.toBuffer().catch(() => undefined);
    if (!bytes || file.file.truncated) throw invalidInput(`The file is larger than ${INVITE_CSV_MAX_BYTES / 1024} KB.`, [{ path: 'file', message: 'too large' }]);
    return inviteFromCsv({ db, tenant: auth.tenant, text: bytes.toString('utf8'), invitedBy: auth.user.id, publicUrl: ctx.config.publicUrl });
  });
  route(app, ctx, resetUserPassword, async ({ auth, params }) => resetMemberPassword({ db, actor: tenantActor(auth), userId: params.userId, publicUrl: ctx.config.publicUrl }));
  route(app, ctx, resetUserTwoFactor, async ({ auth, params }) =>
    resetMemberTwoFactor({ db, actor: tenantActor(auth), tenantName: auth.tenant.name, userId: params.userId }),
  );
  route(app, ctx, setUserEnabled, async ({ auth, params, body }) => setEnabled({ db, actor: tenantActor(auth), userId: params.userId, enabled: body.enabled }));
  route(app, ctx, setUserPasscodeFlag, async ({ auth, params, body }) =>
    setPasscodeFlag({ db, actor: tenantActor(auth), userId: params.userId, passcodeFlag: body.passcodeFlag }),
  );
}
