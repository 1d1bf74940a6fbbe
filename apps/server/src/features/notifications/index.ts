/**
 * What other features may use from notifications/: they import it from here, never from its files
 * (lint: pakt/feature-index).
 */
export { NOTIFICATION_CHANNEL, reachedUserIds, recordNotifications, stepRequestNotification } from './record';
export type { NotificationSignal } from './record';
