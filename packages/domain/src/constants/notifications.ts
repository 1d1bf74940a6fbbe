import { z } from 'zod';

// Push notification types and where each one takes the user (spec §4).
export const NOTIFICATION_TYPES = [
  'signRequest',
  'reviewRequest',
  'epakDelegated',
  'signCompleted',
  'signDeclined',
  'epakReassignment',
  'signerComments',
  'reviewerComments',
  'epakDeleted',
] as const;
export const NotificationType = z.enum(NOTIFICATION_TYPES);
export type NotificationType = z.infer<typeof NotificationType>;

// openEpak: dashboard on that ePak; searchEpak: dashboard searching for it; dashboard: plain dashboard.
export const NOTIFICATION_TARGETS = ['openEpak', 'searchEpak', 'dashboard'] as const;
export const NotificationTarget = z.enum(NOTIFICATION_TARGETS);
export type NotificationTarget = z.infer<typeof NotificationTarget>;

export const NOTIFICATION_TARGET_BY_TYPE = {
  signRequest: 'openEpak',
  reviewRequest: 'openEpak',
  epakDelegated: 'openEpak',
  signCompleted: 'searchEpak',
  signDeclined: 'searchEpak',
  epakReassignment: 'searchEpak',
  signerComments: 'searchEpak',
  reviewerComments: 'searchEpak',
  // The ePak is gone, so there is nothing to open or search for.
  epakDeleted: 'dashboard',
} as const satisfies Record<NotificationType, NotificationTarget>;
