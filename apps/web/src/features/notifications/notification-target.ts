import { type Notification, NOTIFICATION_TARGET_BY_TYPE, type NotificationType, TOAST_DURATION_MS } from '@pakt/domain';

/**
 * Where clicking a notification leads (spec §4 "Notification handling by type"):
 * - openEpak: the dashboard on that ePak (?ePakId=…, which opens it);
 * - searchEpak: the dashboard searching for it by its subject, with a fresh timestamp so the
 *   search runs again even when the same one is on screen (spec §2 searchKey, searchVal, ts);
 * - dashboard, or an ePak that is gone: the plain dashboard.
 */
export function notificationTarget(notification: Pick<Notification, 'notificationType' | 'epak'>, now: number = Date.now()): string {
  const target = NOTIFICATION_TARGET_BY_TYPE[notification.notificationType];
  const epak = notification.epak;
  if (!epak || target === 'dashboard') return '/dashboard';
  if (target === 'openEpak') return `/dashboard?${new URLSearchParams({ ePakId: epak.id }).toString()}`;
  // A subject may be blank only in theory (compose requires one); the ePak is still found by its id then.
  if (epak.subject.trim() === '') return `/dashboard?${new URLSearchParams({ ePakId: epak.id }).toString()}`;
  return `/dashboard?${new URLSearchParams({ searchKey: 'subject', searchVal: epak.subject, ts: String(now) }).toString()}`;
}

export type ToastKind = keyof typeof TOAST_DURATION_MS;

/** How a notification is shown: an ePak done is good news, a rejection bad news, the rest information. */
const KIND_OF_TYPE: Partial<Record<NotificationType, ToastKind>> = {
  signCompleted: 'success',
  signDeclined: 'error',
};

export function toastKindOf(type: NotificationType): ToastKind {
  return KIND_OF_TYPE[type] ?? 'info';
}

/** Spec §9: 4000 ms for errors and information, 2500 ms for success. */
export function toastDurationOf(kind: ToastKind): number {
  return TOAST_DURATION_MS[kind];
}
