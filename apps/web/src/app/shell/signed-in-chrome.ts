/**
 * The parts of the app's frame that only a signed-in person sees: the main menu, the global
 * search, the tenant selector, the account menu, realtime notifications and the warning before an
 * idle sign-out. One chunk, fetched once someone is signed in (use-signed-in-chrome.ts): a
 * signed-out first visit (the sign-in page, a signing link) never downloads them, nor the menus,
 * dialogs, popovers and permission tables they bring.
 */
export { NotificationProvider } from '../../features/notifications/notification-provider';
export { GlobalSearch } from './global-search';
export { IdleSignOutWarning } from './idle-sign-out-warning';
export { MainMenu } from './main-menu';
export { TenantSelector } from './tenant-selector';
export { UserWidget } from './user-widget';
