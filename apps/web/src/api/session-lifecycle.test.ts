import { logout, SESSION_CORRECTION } from '@pakt/domain';
import { act, fireEvent, renderHook, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import en from '../i18n/en.json';
import { adminUser, jsonResponse, signedInSession, stubApi, tokenGrant } from '../test/fake-api';
import { renderApp } from '../test/render-app';
import { createApiClient, type ApiClient } from './client';
import { endSession, IDLE_WARNING_MS, shouldRenewSoon, uisTimeoutMs, useIdleWarning, useSessionKeepAlive, useSessionTimer, useSessionUserRefresh } from './session-lifecycle';
import { createSessionStore, sessionStore } from './session-store';
import { STORAGE_KEYS } from './storage-keys';

afterEach(() => {
  vi.useRealTimers();
});

describe('UIS session length (spec section 4)', () => {
  it('is the token expiry minus the 120 s correction', () => {
    expect(SESSION_CORRECTION).toBe(120);
    expect(uisTimeoutMs(900_000, 0)).toBe(780_000);
  });

  it.each([
    { remaining: 121_000, expected: 1_000 },
    { remaining: 122_000, expected: 2_000 },
    { remaining: 120_000, expected: 1_000 },
    { remaining: 30_000, expected: 1_000 },
    // A session reloaded long after its token died still gets its one second, then ends.
    { remaining: -3_600_000, expected: 1_000 },
  ])('is at least 1 s: $remaining ms left gives $expected ms', ({ remaining, expected }) => {
    expect(uisTimeoutMs(10_000_000 + remaining, 10_000_000)).toBe(expected);
  });

  it('counts whole seconds of what is left, so a reload mid-session gets only the rest', () => {
    expect(uisTimeoutMs(1_000_000 + 500_999, 1_000_000)).toBe(380_000);
  });

  it('renews ahead of expiry only in the last 300 s of a token', () => {
    expect(shouldRenewSoon(1_000_000, 1_000_000 - 301_000)).toBe(false);
    expect(shouldRenewSoon(1_000_000, 1_000_000 - 300_000)).toBe(true);
  });
});

describe('useSessionTimer', () => {
  it('fires once when the UIS session of the current tokens ends, not before', () => {
    vi.useFakeTimers();
    const store = createSessionStore({ initial: signedInSession(undefined, { expiresAt: Date.now() + 900_000 }) });
    const onExpire = vi.fn();
    renderHook(() => useSessionTimer(onExpire, store));

    vi.advanceTimersByTime(779_999);
    expect(onExpire).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(onExpire).toHaveBeenCalledOnce();
  });

  it('starts again from new tokens after a refresh', () => {
    vi.useFakeTimers();
    const store = createSessionStore({ initial: signedInSession(undefined, { expiresAt: Date.now() + 900_000 }) });
    const onExpire = vi.fn();
    renderHook(() => useSessionTimer(onExpire, store));

    vi.advanceTimersByTime(700_000);
    act(() => store.set({ ...store.get()!, accessToken: 'access-2', expiresAt: Date.now() + 900_000 }));
    vi.advanceTimersByTime(779_999);
    expect(onExpire).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(onExpire).toHaveBeenCalledOnce();
  });

  it('stops when the session ends some other way', () => {
    vi.useFakeTimers();
    const store = createSessionStore({ initial: signedInSession(undefined, { expiresAt: Date.now() + 900_000 }) });
    const onExpire = vi.fn();
    renderHook(() => useSessionTimer(onExpire, store));
    act(() => store.clear());
    vi.advanceTimersByTime(3_600_000);
    expect(onExpire).not.toHaveBeenCalled();
  });
});

describe('useIdleWarning', () => {
  it('says when the session ends from a minute before it, and forgets it with new tokens', () => {
    vi.useFakeTimers();
    const store = createSessionStore({ initial: signedInSession(undefined, { expiresAt: Date.now() + 900_000 }) });
    // A 900 s token: its UIS session ends at 780 s, so the warning comes at 720 s.
    const endsAt = Date.now() + 780_000;
    const { result } = renderHook(() => useIdleWarning(store));
    act(() => vi.advanceTimersByTime(720_000 - 1));
    expect(result.current).toBeNull();
    act(() => vi.advanceTimersByTime(1));
    expect(result.current).toBe(endsAt);
    act(() => store.set({ ...store.get()!, accessToken: 'access-2', expiresAt: Date.now() + 900_000 }));
    expect(result.current).toBeNull();
    act(() => vi.advanceTimersByTime(720_000));
    expect(result.current).toBe(Date.now() + IDLE_WARNING_MS);
  });

  it('warns at once when less than a minute is left, and not at all once signed out', () => {
    vi.useFakeTimers();
    const store = createSessionStore({ initial: signedInSession(undefined, { expiresAt: Date.now() + 150_000 }) });
    const { result } = renderHook(() => useIdleWarning(store));
    act(() => vi.advanceTimersByTime(0));
    expect(result.current).toBe(Date.now() + 30_000);
    act(() => store.clear());
    expect(result.current).toBeNull();
  });
});

describe('useSessionKeepAlive', () => {
  function setup(expiresInMs: number) {
    vi.useFakeTimers();
    const store = createSessionStore({ initial: signedInSession(undefined, { expiresAt: Date.now() + expiresInMs }) });
    const refreshSession = vi.fn<ApiClient['refreshSession']>(async () => 'refreshed');
    const client: ApiClient = { callApi: vi.fn(), refreshSession, restoreSession: vi.fn(), setNavigationHandler: vi.fn() };
    renderHook(() => useSessionKeepAlive(client, store));
    return { refreshSession };
  }

  it('renews the tokens when the person is active near their expiry', () => {
    const { refreshSession } = setup(200_000);
    fireEvent.keyDown(window, { key: 'a' });
    expect(refreshSession).toHaveBeenCalledOnce();
  });

  it('leaves young tokens alone', () => {
    const { refreshSession } = setup(800_000);
    fireEvent.pointerDown(window);
    expect(refreshSession).not.toHaveBeenCalled();
  });
});

describe('endSession (logout)', () => {
  it('ends the session on the server, then clears storage by the logout rule', async () => {
    const store = createSessionStore({ storage: localStorage, initial: signedInSession() });
    localStorage.setItem(STORAGE_KEYS.username, 'asha@example.com');
    localStorage.setItem(STORAGE_KEYS.language, 'hi');
    const fetchMock = vi.fn<typeof fetch>(async () => jsonResponse({ code: 1, data: { loggedOut: true } }));
    const client = createApiClient({ fetch: fetchMock, session: store, navigate: vi.fn() });

    await endSession(client, store);

    expect(fetchMock).toHaveBeenCalledOnce();
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(String(url)).toBe(logout.path);
    expect(new Headers(init?.headers).get('Authorization')).toBe('Bearer access-1');
    expect(store.get()).toBeNull();
    expect(Object.fromEntries(Object.entries(localStorage))).toEqual({ [STORAGE_KEYS.username]: 'asha@example.com' });
  });

  it('signs out locally even when the server cannot be told', async () => {
    const store = createSessionStore({ initial: signedInSession() });
    const navigate = vi.fn();
    const client = createApiClient({
      fetch: async () => {
        throw new TypeError('Failed to fetch');
      },
      session: store,
      navigate,
    });
    await endSession(client, store);
    expect(store.get()).toBeNull();
    expect(navigate).not.toHaveBeenCalled();
  });
});

describe('the session running out in the app', () => {
  it('ends the session and alerts the user on the login page with uisSessionExpired', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { requestsTo } = stubApi({ 'POST /msbapi/v1/logout/stoptimer': () => jsonResponse({ code: 1, data: { loggedOut: true } }) });
    sessionStore.set(signedInSession(undefined, { expiresAt: Date.now() + tokenGrant().expiresIn * 1000 }));
    renderApp('/');
    // The first render of the whole app is slow on a busy machine.
    expect(await screen.findByRole('heading', { level: 1, name: en.home.welcome.replace('{{name}}', 'Asha') }, { timeout: 5000 })).toBeTruthy();

    await act(() => vi.advanceTimersByTimeAsync(780_000));

    expect((await screen.findByRole('alert')).textContent).toBe(en.uisSessionExpired);
    expect(screen.getByRole('heading', { level: 1, name: en.login.title })).toBeTruthy();
    // Told apart from a chosen logout: the timer's own call.
    expect(requestsTo('POST', '/msbapi/v1/logout/stoptimer')).toHaveLength(1);
    expect(requestsTo('POST', '/msbapi/v1/logout')).toHaveLength(0);
    expect(sessionStore.get()).toBeNull();
  });
});

describe('useSessionUserRefresh', () => {
  it('stores who the server says the user is now, once per load, without redirecting on failure', async () => {
    const store = createSessionStore({ initial: signedInSession(adminUser) });
    const demoted = { ...adminUser, tenants: adminUser.tenants.map((tenant) => ({ ...tenant, userRole: 'signer' as const })) };
    const callApi = vi.fn(async () => demoted);
    const client = { callApi, refreshSession: vi.fn(), setNavigationHandler: vi.fn() } as unknown as ApiClient;
    renderHook(() => useSessionUserRefresh(client, store));
    await vi.waitFor(() => expect(store.get()!.user).toEqual(demoted));
    expect(callApi).toHaveBeenCalledTimes(1);
    expect(callApi).toHaveBeenCalledWith(expect.objectContaining({ path: '/msbapi/v1/users/valid' }), {}, { failures: 'caller' });
  });
});
