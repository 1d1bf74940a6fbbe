/**
 * What other features may use from inbox/: they import it from here, never from its files
 * (lint: pakt/feature-index).
 */
export { FOLDER_DISPLAY_ORDER } from './folder-list';
export { CheckCircleIcon, ClockAlertIcon, InboxIcon, SearchIcon, SendIcon } from './inbox-icons';
export { INBOX_QUERY_SCOPE, inboxQueryKeys, useInboxPage, useStatistics, useUserStatistics } from './queries';
export { DEFAULT_INBOX_STATE, ownerName, pageCount } from './inbox-state';
export type { InboxSearch, InboxState } from './inbox-state';
export { InboxView, WIDE_LAYOUT_QUERY } from './inbox-view';
