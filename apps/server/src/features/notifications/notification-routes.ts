import websocket from '@fastify/websocket';
import {
  NOTIFICATION_SOCKET_PATH,
  notificationApi,
} from '@pakt/domain';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../http/app-context';
import { route } from '../../http/route';
import { type HubLimits, MAX_CLIENT_FRAME_BYTES, NotificationHub } from './hub';
import { authenticateSocket } from './socket-auth';
import { listNotifications, markNotificationsRead } from './store';

/**
 * Notifications (spec §7): the WebSocket at /notification (the hub does the work; see hub.ts)
 * and the caller's own list, to show what arrived while the app was closed.
 */
export async function registerNotificationRoutes(app: FastifyInstance, ctx: AppContext, options: { limits?: Partial<HubLimits> } = {}): Promise<NotificationHub> {
  const db = ctx.database.db;
  const hub = new NotificationHub({
    database: ctx.database,
    authenticate: (frame, peer) => authenticateSocket(ctx, frame, peer),
    log: app.log,
    ...(options.limits ? { limits: options.limits } : {}),
  });
  app.addHook('onClose', () => hub.close());
  await app.register(websocket, { options: { maxPayload: MAX_CLIENT_FRAME_BYTES } });
  app.get(NOTIFICATION_SOCKET_PATH, { websocket: true }, (socket, request) => hub.accept(socket, { ip: request.ip }));

  route(app, ctx, notificationApi.listNotifications, async ({ auth, query }) => listNotifications(db, { userId: auth.user.id, tenantId: auth.tenant.id, limit: query.limit }));
  route(app, ctx, notificationApi.markNotificationsRead, async ({ auth, body }) => markNotificationsRead(db, { userId: auth.user.id, tenantId: auth.tenant.id, ids: body.ids }));
  return hub;
}
