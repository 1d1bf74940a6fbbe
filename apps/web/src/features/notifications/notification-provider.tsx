import { markNotificationsRead, type Notification } from '@pakt/domain';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { apiClient, callApi } from '../../api/client';
import { sessionStore, useSession } from '../../api/session-store';
import { INBOX_QUERY_SCOPE } from '../inbox';
import { pageOutOfSight, showDesktopNotification } from './desktop-notifications';
import { DesktopNotificationPrompt } from './desktop-prompt';
import { NotificationSocket, notificationSocketUrl, type SocketLike, type SocketSession } from './notification-socket';
import { notificationTarget, toastKindOf } from './notification-target';
import { MAX_TOASTS, type ToastItem, ToastStack } from './toast-stack';

/** Where the desktop-notifications prompt is offered: the pages that list ePaks. */
const PROMPT_PAGES: readonly string[] = ['dashboard', 'epaks'];

function socketSession(): SocketSession | null {
  const session = sessionStore.get();
  if (!session?.tenantUuid) return null;
  return { accessToken: session.accessToken, userId: session.user.id, tenantId: session.tenantUuid };
}

/**
 * Realtime notifications of the signed-in person in their tenant (spec §4, §7), mounted once in
 * the app layout: the socket (notification-socket.ts), and for each notification an in-app
 * toast, a desktop notification when allowed and the page is out of sight, and a refresh of
 * every ePak list and count (the inbox's query scope), so the inbox changes without a reload.
 * Clicking either goes where the notification's type says (notification-target.ts).
 */
export function NotificationProvider({ createSocket }: { readonly createSocket?: (url: string) => SocketLike } = {}) {
  const session = useSession();
  const userId = session?.user.id ?? null;
  const tenantId = session?.tenantUuid ?? null;
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const location = useLocation();
  const { t } = useTranslation();
  const [toasts, setToasts] = useState<ToastItem[]>([]);
  // The socket lives as long as the person and tenant do; these change more often.
  const latest = useRef({ navigate, t });
  latest.current = { navigate, t };

  const dismiss = useCallback((id: string) => setToasts((current) => current.filter((toast) => toast.id !== id)), []);

  useEffect(() => {
    if (!userId || !tenantId) return undefined;
    const open = (notification: Notification) => {
      latest.current.navigate(notificationTarget(notification));
      // Seen now; the list of notifications shows it read. A failure changes nothing visible.
      callApi(markNotificationsRead, { body: { ids: [notification.id] } }, { failures: 'caller' }).catch(() => {});
    };
    let subscriptions = 0;
    const socket = new NotificationSocket({
      url: notificationSocketUrl(typeof window === 'undefined' ? undefined : window.location),
      session: socketSession,
      refreshSession: (staleAccessToken) => apiClient.refreshSession(staleAccessToken),
      ...(createSocket ? { createSocket } : {}),
      // Subscribed again after a lost connection: what happened meanwhile is fetched now.
      onSubscribed: () => {
        if (subscriptions++ > 0) void queryClient.invalidateQueries({ queryKey: [INBOX_QUERY_SCOPE] });
      },
      onNotification: (notification) => {
        void queryClient.invalidateQueries({ queryKey: [INBOX_QUERY_SCOPE] });
        const title = latest.current.t(`notifications.types.${notification.notificationType}`);
        setToasts((current) =>
          [...current.filter((toast) => toast.id !== notification.id), { id: notification.id, kind: toastKindOf(notification.notificationType), title, message: notification.body, onOpen: () => open(notification) }].slice(-MAX_TOASTS),
        );
        if (pageOutOfSight()) showDesktopNotification({ title, body: notification.body, tag: notification.id, onClick: () => open(notification) });
      },
    });
    socket.start();
    const unsubscribe = sessionStore.subscribe(() => socket.renew());
    return () => {
      unsubscribe();
      socket.stop();
      setToasts([]);
    };
  }, [userId, tenantId, queryClient, createSocket]);

  if (!userId || !tenantId) return null;
  const firstSegment = location.pathname.split('/')[1] ?? '';
  return (
    <>
      <ToastStack toasts={toasts} onDismiss={dismiss} />
      {PROMPT_PAGES.includes(firstSegment) && <DesktopNotificationPrompt />}
    </>
  );
}
