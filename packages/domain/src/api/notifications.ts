import { z } from 'zod';
import { NotificationType } from '../constants/notifications';
import { defineEndpoint } from './contract';

/**
 * Realtime notifications and announcements (issue 6; spec §3, §4, §7 "Usage insights and
 * notifications").
 *
 * The WebSocket at /notification speaks small JSON frames. The client authenticates with its
 * access token and tenant, then subscribes to its own topic /topic/message/{userId}/{tenantId};
 * any other topic is refused and the socket stays as it was.
 */

export const NOTIFICATION_SOCKET_PATH = '/notification';

export function notificationTopic(userId: string, tenantId: string): string {
  return `/topic/message/${userId}/${tenantId}`;
}

export const Notification = z.object({
  id: z.uuid(),
  notificationType: NotificationType,
  /**
   * The ePak it is about (spec §3 epak.id); null when the ePak is gone. Its subject as it is now,
   * for the types whose click searches the dashboard for the ePak (NOTIFICATION_TARGET_BY_TYPE).
   */
  epak: z.object({ id: z.uuid(), subject: z.string() }).nullable(),
  title: z.string(),
  body: z.string(),
  createdOn: z.iso.datetime(),
  isRead: z.boolean(),
});
export type Notification = z.infer<typeof Notification>;

/** Client → server frames. */
export const SocketClientFrame = z.discriminatedUnion('type', [
  z.object({ type: z.literal('connect'), accessToken: z.string().min(1).max(4096), tenantId: z.uuid() }),
  z.object({ type: z.literal('subscribe'), topic: z.string().min(1).max(300) }),
  z.object({ type: z.literal('unsubscribe'), topic: z.string().min(1).max(300) }),
  z.object({ type: z.literal('ping') }),
]);
export type SocketClientFrame = z.infer<typeof SocketClientFrame>;

/** Server → client frames. `error` carries a response code of the catalogue and a message. */
export const SocketServerFrame = z.discriminatedUnion('type', [
  z.object({ type: z.literal('connected'), userId: z.uuid(), tenantId: z.uuid() }),
  z.object({ type: z.literal('subscribed'), topic: z.string() }),
  z.object({ type: z.literal('message'), topic: z.string(), notification: Notification }),
  z.object({ type: z.literal('error'), code: z.number().int(), message: z.string() }),
  z.object({ type: z.literal('pong') }),
]);
export type SocketServerFrame = z.infer<typeof SocketServerFrame>;

/**
 * Why the server closed a notification socket (WebSocket close codes 4000-4999 are the
 * application's). authFailed: the connect frame was refused, or the session ended (logout,
 * expiry, membership gone): connect again with a fresh token. tooManySockets: the user has the
 * most sockets allowed open already. connectTimeout: no connect frame came in time.
 */
export const SOCKET_CLOSE_CODES = { authFailed: 4401, connectTimeout: 4408, tooManySockets: 4429 } as const;

export const listNotifications = defineEndpoint({
  method: 'GET',
  path: '/msbapi/v2/notifications',
  access: 'tenant',
  action: 'epak.act',
  summary: "The caller's latest notifications in this tenant (newest first), to show what arrived while the app was closed.",
  query: z.object({ limit: z.coerce.number().int().min(1).max(100).default(20) }),
  response: z.object({ items: z.array(Notification), unread: z.number().int().min(0) }),
});

export const markNotificationsRead = defineEndpoint({
  method: 'PUT',
  path: '/msbapi/v2/notifications/read',
  access: 'tenant',
  action: 'epak.act',
  summary: "Marks the caller's notifications read: the ids given, or all of them.",
  body: z.object({ ids: z.array(z.uuid()).max(100).optional() }),
  response: z.object({ updated: z.number().int().min(0) }),
});

export const Announcement = z.object({
  id: z.uuid(),
  text: z.string(),
  startTime: z.iso.datetime(),
  endTime: z.iso.datetime(),
  /** null: instance-wide, made by root; otherwise the tenant's own. */
  tenantId: z.uuid().nullable(),
});
export type Announcement = z.infer<typeof Announcement>;

export const AnnouncementInput = z
  .object({
    text: z.string().trim().min(1).max(1000),
    startTime: z.iso.datetime(),
    endTime: z.iso.datetime(),
  })
  // zod runs an object's refinement even when a field already failed; a start that is not a date
  // is its own issue, not also a misplaced end.
  .refine((a) => !(Date.parse(a.endTime) <= Date.parse(a.startTime)), { path: ['endTime'], message: 'endTime must be after startTime' });
export type AnnouncementInput = z.infer<typeof AnnouncementInput>;

/**
 * Announcements not yet over for the caller's tenant and the instance: the banner shows each
 * between its start and end (timers capped at ANNOUNCEMENT_TIMER_MAX_MS). Public, because the
 * login page shows the banner too; with a tenant header from a signed-in member, the tenant's own
 * are included.
 */
export const currentAnnouncements = defineEndpoint({
  method: 'GET',
  path: '/msbapi/public/announcements',
  access: 'public',
  summary: 'Announcements that have not ended yet (instance-wide, plus the tenant’s own for a signed-in member).',
  response: z.object({ items: z.array(Announcement) }),
});

export const listAnnouncements = defineEndpoint({
  method: 'GET',
  path: '/msbapi/v2/announcements',
  access: 'tenant',
  action: 'announcement.manage',
  summary: "The tenant's announcements, past ones included, for administrators.",
  response: z.object({ items: z.array(Announcement) }),
});

export const createAnnouncement = defineEndpoint({
  method: 'POST',
  path: '/msbapi/v2/announcements',
  access: 'tenant',
  action: 'announcement.manage',
  summary: 'Creates an announcement for the tenant.',
  body: AnnouncementInput,
  response: Announcement,
});

export const updateAnnouncement = defineEndpoint({
  method: 'PUT',
  path: '/msbapi/v2/announcements/:announcementId',
  access: 'tenant',
  action: 'announcement.manage',
  summary: 'Changes an announcement of the tenant.',
  params: z.object({ announcementId: z.uuid() }),
  body: AnnouncementInput,
  response: Announcement,
});

export const deleteAnnouncement = defineEndpoint({
  method: 'DELETE',
  path: '/msbapi/v2/announcements/:announcementId',
  access: 'tenant',
  action: 'announcement.manage',
  summary: 'Removes an announcement of the tenant.',
  params: z.object({ announcementId: z.uuid() }),
  response: z.object({ id: z.uuid() }),
});

/*
 * Root's instance-wide announcements (tenant null): the banner of every tenant and of the login
 * page. Root belongs to no tenant, so these live under /root like the other root endpoints.
 */

export const listInstanceAnnouncements = defineEndpoint({
  method: 'GET',
  path: '/msbapi/v2/root/announcements',
  access: 'root',
  action: 'announcement.manage',
  summary: 'Root: the instance-wide announcements, past ones included.',
  response: z.object({ items: z.array(Announcement) }),
});

export const createInstanceAnnouncement = defineEndpoint({
  method: 'POST',
  path: '/msbapi/v2/root/announcements',
  access: 'root',
  action: 'announcement.manage',
  summary: 'Root: creates an instance-wide announcement.',
  body: AnnouncementInput,
  response: Announcement,
});

export const updateInstanceAnnouncement = defineEndpoint({
  method: 'PUT',
  path: '/msbapi/v2/root/announcements/:announcementId',
  access: 'root',
  action: 'announcement.manage',
  summary: 'Root: changes an instance-wide announcement.',
  params: z.object({ announcementId: z.uuid() }),
  body: AnnouncementInput,
  response: Announcement,
});

export const deleteInstanceAnnouncement = defineEndpoint({
  method: 'DELETE',
  path: '/msbapi/v2/root/announcements/:announcementId',
  access: 'root',
  action: 'announcement.manage',
  summary: 'Root: removes an instance-wide announcement.',
  params: z.object({ announcementId: z.uuid() }),
  response: z.object({ id: z.uuid() }),
});
