/**
 * Browser (desktop) notifications through the Notification API. Permission is asked only when
 * the person clicks "Enable desktop notifications", never on page load: browsers block or
 * quieten sites that ask unprompted, and people refuse what they did not ask for.
 */

export type DesktopPermission = NotificationPermission | 'unsupported';

/** Spec §8: logged only, never shown. */
export const SHOW_FAILED_LOG = 'Unable to show notification';

function api(): typeof Notification | undefined {
  return typeof window !== 'undefined' && 'Notification' in window ? window.Notification : undefined;
}

export function desktopPermission(): DesktopPermission {
  return api()?.permission ?? 'unsupported';
}

/** Asks the browser; call from a click handler. Resolves with the answer. */
export async function requestDesktopPermission(): Promise<DesktopPermission> {
  const notificationApi = api();
  if (!notificationApi) return 'unsupported';
  try {
    return await notificationApi.requestPermission();
  } catch {
    return notificationApi.permission;
  }
}

/**
 * Whether the page is out of sight: then a desktop notification is what reaches the person.
 * In view, the in-app toast says the same, and both at once would say it twice.
 */
export function pageOutOfSight(doc: Document = document): boolean {
  return doc.visibilityState === 'hidden' || !doc.hasFocus();
}

/** Shows one, when permitted; a click brings the tab forward and runs `onClick`. */
export function showDesktopNotification(options: { title: string; body: string; tag: string; onClick: () => void; log?: (message: string) => void }): boolean {
  const notificationApi = api();
  if (!notificationApi || notificationApi.permission !== 'granted') return false;
  try {
    const shown = new notificationApi(options.title, { body: options.body, tag: options.tag });
    shown.onclick = () => {
      window.focus();
      options.onClick();
      shown.close();
    };
    return true;
  } catch {
    // Some browsers allow notifications only from a service worker (Chrome on Android).
    (options.log ?? ((message: string) => console.error(message)))(SHOW_FAILED_LOG);
    return false;
  }
}
