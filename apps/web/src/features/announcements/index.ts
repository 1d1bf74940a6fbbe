/**
 * What other features may use from announcements/: they import it from here, never from its files
 * (lint: pakt/feature-index).
 */
export { AnnouncementManager, useCanManageAnnouncements } from './announcement-manager';
