import {
  notificationApi,
} from '@pakt/domain';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../http/app-context';
import {
  type AnnouncementScope,
  createAnnouncement,
  deleteAnnouncement,
  listCurrentAnnouncements,
  listScopeAnnouncements,
  updateAnnouncement,
} from './announcements';
import { viewerTenantId } from './viewer-tenant';
import { route } from '../../http/route';

// No admin-action audit log exists (see identity-routes); each row keeps who created it and when
// it last changed.
export function registerAnnouncementRoutes(app: FastifyInstance, ctx: AppContext) {
  const db = ctx.database.db;
  const instance: AnnouncementScope = { instance: true };

  route(app, ctx, notificationApi.currentAnnouncements, async ({ request }) => ({
    items: await listCurrentAnnouncements({ db, tenantId: await viewerTenantId(db, request) }),
  }));

  // A tenant admin's own announcements.
  route(app, ctx, notificationApi.listAnnouncements, async ({ auth }) => ({
    items: await listScopeAnnouncements({ db, scope: { tenantId: auth.tenant.id } }),
  }));
  route(app, ctx, notificationApi.createAnnouncement, async ({ auth, body }) =>
    createAnnouncement({ db, scope: { tenantId: auth.tenant.id }, input: body, createdBy: auth.user.id }),
  );
  route(app, ctx, notificationApi.updateAnnouncement, async ({ auth, params, body }) =>
    updateAnnouncement({ db, scope: { tenantId: auth.tenant.id }, announcementId: params.announcementId, input: body }),
  );
  route(app, ctx, notificationApi.deleteAnnouncement, async ({ auth, params }) =>
    deleteAnnouncement({ db, scope: { tenantId: auth.tenant.id }, announcementId: params.announcementId }),
  );

  // Root's instance-wide announcements.
  route(app, ctx, notificationApi.listInstanceAnnouncements, async () => ({ items: await listScopeAnnouncements({ db, scope: instance }) }));
  route(app, ctx, notificationApi.createInstanceAnnouncement, async ({ auth, body }) =>
    createAnnouncement({ db, scope: instance, input: body, createdBy: auth.user.id }),
  );
  route(app, ctx, notificationApi.updateInstanceAnnouncement, async ({ params, body }) =>
    updateAnnouncement({ db, scope: instance, announcementId: params.announcementId, input: body }),
  );
  route(app, ctx, notificationApi.deleteInstanceAnnouncement, async ({ params }) =>
    deleteAnnouncement({ db, scope: instance, announcementId: params.announcementId }),
  );
}
