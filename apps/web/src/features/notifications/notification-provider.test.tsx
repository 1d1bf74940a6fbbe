import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMemoryRouter, Outlet, RouterProvider, useLocation } from 'react-router';
import { createQueryClient } from '../../api/query-client';
import { sessionStore } from '../../api/session-store';
import { STORAGE_KEYS } from '../../api/storage-keys';
import { AppProviders } from '../../app/providers';
import { adminUser, jsonResponse, signedInSession, stubApi, TENANT_ACME } from '../../test/fake-api';
import { FakeSockets, notification } from '../../test/fake-socket';
import { NotificationProvider } from './notification-provider';

const EPAK = '1f2e3d4c-5b6a-4978-8a9b-0c1d2e3f4a5b';

function Where() {
  const location = useLocation();
  return <p data-testid="where">{location.pathname + location.search}</p>;
}

function renderWithProvider(path = '/compose') {
  const sockets = new FakeSockets();
  const Layout = () => (
    <>
      <NotificationProvider createSocket={sockets.create} />
      <Outlet />
    </>
  );
  const router = createMemoryRouter([{ element: <Layout />, children: [{ path: '*', element: <Where /> }] }], { initialEntries: [path] });
  const queryClient = createQueryClient();
  const invalidated = vi.spyOn(queryClient, 'invalidateQueries');
  render(
    <AppProviders queryClient={queryClient} env="test">
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { sockets, router, invalidated };
}

/** A Notification API stand-in: permission as given, each notification shown recorded. */
function stubDesktopApi(permission: NotificationPermission, answer: NotificationPermission = permission) {
  const shown: Array<{ title: string; options: NotificationOptions; onclick: (() => void) | null; close: () => void }> = [];
  class FakeNotification {
    static permission = permission;
    static requestPermission = vi.fn(async () => {
      FakeNotification.permission = answer;
      return answer;
    });
    onclick: (() => void) | null = null;
    close = vi.fn();
    constructor(title: string, options: NotificationOptions) {
      shown.push(this as unknown as (typeof shown)[number]);
      Object.assign(this, { title, options });
    }
  }
  vi.stubGlobal('Notification', FakeNotification);
  return { shown, api: FakeNotification };
}

let api: ReturnType<typeof stubApi>;
beforeEach(() => {
  api = stubApi({ 'PUT /msbapi/v2/notifications/read': () => jsonResponse({ code: 1, data: { updated: 1 } }) });
  stubDesktopApi('default');
});
afterEach(() => {
  vi.useRealTimers();
});

describe('NotificationProvider', () => {
  it('opens nothing for someone signed out', () => {
    const { sockets } = renderWithProvider();
    expect(sockets.all).toEqual([]);
  });

  it('shows a toast for each notification, refreshes the inbox, and opens the ePak when clicked', async () => {
    sessionStore.set(signedInSession());
    const { sockets, invalidated } = renderWithProvider();
    expect(sockets.last.url).toBe(`ws://${window.location.host}/notification`);
    const ws = sockets.accept(adminUser.id, TENANT_ACME);
    expect(ws.sent[0]).toEqual({ type: 'connect', accessToken: 'access-1', tenantId: TENANT_ACME });

    act(() => ws.receive({ type: 'message', topic: `/topic/message/${adminUser.id}/${TENANT_ACME}`, notification: notification() }));
    const toast = await screen.findByTestId('notification-toast');
    expect(toast.textContent).toContain('Signature requested');
    expect(toast.textContent).toContain('Owen Rao asks you to sign "Lease of flat 3B".');
    expect(invalidated).toHaveBeenCalledWith({ queryKey: ['epaks'] });

    fireEvent.click(screen.getByRole('button', { name: 'Open' }));
    expect(screen.getByTestId('where').textContent).toContain(`/dashboard?ePakId=${EPAK}`);
    expect(screen.queryByTestId('notification-toast')).toBeNull();
    // Opened is seen: it is marked read.
    await vi.waitFor(() => expect(api.requestsTo('PUT', '/msbapi/v2/notifications/read').map((r) => r.body)).toEqual([{ ids: [notification().id] }]));
  });

  it('searches the dashboard for a rejected ePak when its toast is clicked anywhere but the close button', async () => {
    sessionStore.set(signedInSession());
    const { sockets } = renderWithProvider();
    const ws = sockets.accept(adminUser.id, TENANT_ACME);
    act(() => ws.receive({ type: 'message', topic: `/topic/message/${adminUser.id}/${TENANT_ACME}`, notification: notification({ notificationType: 'signDeclined', body: 'Anil Rao rejected "Lease of flat 3B".' }) }));
    fireEvent.click(await screen.findByText('Anil Rao rejected "Lease of flat 3B".'));
    expect(screen.getByTestId('where').textContent).toMatch(/^\/dashboard\?searchKey=subject&searchVal=Lease\+of\+flat\+3B&ts=\d+$/);
  });

  it('lets a toast go after its time: 4000 ms for information, 2500 ms for success; the close button at once', async () => {
    sessionStore.set(signedInSession());
    const { sockets } = renderWithProvider();
    const ws = sockets.accept(adminUser.id, TENANT_ACME);
    vi.useFakeTimers();
    const topic = `/topic/message/${adminUser.id}/${TENANT_ACME}`;
    act(() => ws.receive({ type: 'message', topic, notification: notification() }));
    act(() => ws.receive({ type: 'message', topic, notification: notification({ id: '0b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e', notificationType: 'signCompleted', body: 'Everyone has acted.' }) }));
    expect(screen.getAllByTestId('notification-toast')).toHaveLength(2);
    act(() => vi.advanceTimersByTime(2500));
    expect(screen.getAllByTestId('notification-toast')).toHaveLength(1);
    expect(screen.queryByText('Everyone has acted.')).toBeNull();
    act(() => vi.advanceTimersByTime(1499));
    expect(screen.getAllByTestId('notification-toast')).toHaveLength(1);
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByTestId('notification-toast')).toBeNull();

    act(() => ws.receive({ type: 'message', topic, notification: notification({ id: '2c3d4e5f-6a7b-4c8d-9e0f-1a2b3c4d5e6f' }) }));
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByTestId('notification-toast')).toBeNull();
    expect(screen.getByTestId('where').textContent).toContain('/compose');
  });

  it('shows a desktop notification when allowed and the page is out of sight, which opens the ePak', async () => {
    const { shown } = stubDesktopApi('granted');
    sessionStore.set(signedInSession());
    const { sockets } = renderWithProvider();
    const ws = sockets.accept(adminUser.id, TENANT_ACME);
    const topic = `/topic/message/${adminUser.id}/${TENANT_ACME}`;
    // In sight: the toast says it; a desktop notification would say it twice.
    vi.spyOn(document, 'hasFocus').mockReturnValue(true);
    act(() => ws.receive({ type: 'message', topic, notification: notification() }));
    expect(shown).toHaveLength(0);
    vi.spyOn(document, 'hasFocus').mockReturnValue(false);
    act(() => ws.receive({ type: 'message', topic, notification: notification({ id: '2c3d4e5f-6a7b-4c8d-9e0f-1a2b3c4d5e6f', notificationType: 'reviewRequest' }) }));
    expect(shown).toHaveLength(1);
    expect(shown[0]).toMatchObject({ title: 'Review requested', options: { body: 'Owen Rao asks you to sign "Lease of flat 3B".', tag: '2c3d4e5f-6a7b-4c8d-9e0f-1a2b3c4d5e6f' } });
    vi.spyOn(window, 'focus').mockImplementation(() => {});
    act(() => shown[0]!.onclick!());
    expect(screen.getByTestId('where').textContent).toContain(`/dashboard?ePakId=${EPAK}`);
  });

  it('asks for desktop notifications only when the person clicks, and only where ePaks are listed', async () => {
    const { api } = stubDesktopApi('default', 'granted');
    sessionStore.set(signedInSession());
    const { router } = renderWithProvider('/dashboard');
    expect(api.requestPermission).not.toHaveBeenCalled();
    const prompt = screen.getByRole('region', { name: 'Desktop notifications' });
    expect(prompt).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Enable desktop notifications' }));
    expect(api.requestPermission).toHaveBeenCalledTimes(1);
    await vi.waitFor(() => expect(screen.queryByRole('region', { name: 'Desktop notifications' })).toBeNull());
    await act(() => router.navigate('/compose'));
    expect(screen.queryByRole('region', { name: 'Desktop notifications' })).toBeNull();
  });

  it('says so when the browser blocks them; a dismissed prompt stays away', async () => {
    stubDesktopApi('default', 'denied');
    sessionStore.set(signedInSession());
    renderWithProvider('/epaks');
    fireEvent.click(screen.getByRole('button', { name: 'Enable desktop notifications' }));
    expect(await screen.findByText(/Desktop notifications are blocked for this site/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('region', { name: 'Desktop notifications' })).toBeNull();
    expect(window.localStorage.getItem(STORAGE_KEYS.desktopNotificationsPromptDismissed)).toBe('true');
  });
});
