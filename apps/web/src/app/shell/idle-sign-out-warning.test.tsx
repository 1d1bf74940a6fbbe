import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ApiClient, RefreshOutcome } from '../../api/client';
import { createQueryClient } from '../../api/query-client';
import { IDLE_WARNING_MS, useSessionTimer } from '../../api/session-lifecycle';
import { createSessionStore, type SessionStore } from '../../api/session-store';
import en from '../../i18n/en.json';
import { jsonResponse, signedInSession, stubApi, tokenGrant } from '../../test/fake-api';
import { renderApp } from '../../test/render-app';
import { sessionStore } from '../../api/session-store';
import { AppProviders } from '../providers';
import { formatCountdown, IdleSignOutWarning } from './idle-sign-out-warning';

afterEach(() => {
  vi.useRealTimers();
});

// A 900 s token: the UIS session (spec §4) ends at 780 s, the warning comes at 720 s.
const TOKEN_MS = 900_000;
const UIS_MS = 780_000;
const WARN_AT = UIS_MS - IDLE_WARNING_MS;
const w = en.idleWarning;

const storeWithToken = () => createSessionStore({ initial: signedInSession(undefined, { expiresAt: Date.now() + TOKEN_MS }) });

/** New tokens, as a successful refresh stores them. */
const renewed = (store: SessionStore) => store.set({ ...store.get()!, accessToken: `access-${Date.now()}`, expiresAt: Date.now() + TOKEN_MS });

function fakeClient(refresh: () => Promise<RefreshOutcome>): ApiClient {
  return { callApi: vi.fn(), refreshSession: vi.fn(refresh), restoreSession: vi.fn(), setNavigationHandler: vi.fn() } as unknown as ApiClient;
}

function renderWarning(store: SessionStore, client: ApiClient, onSignOut = vi.fn(), onExpire = vi.fn()) {
  // The session timer runs beside it, as in the app layout, to show the warning changes none of its rules.
  function Harness() {
    useSessionTimer(onExpire, store);
    return <IdleSignOutWarning onSignOut={onSignOut} client={client} store={store} />;
  }
  render(
    <AppProviders queryClient={createQueryClient()} env="test">
      <Harness />
    </AppProviders>,
  );
  return { onSignOut, onExpire };
}

const dialog = () => screen.queryByRole('dialog', { name: w.title });
const body = (time: string) => w.body.replace('{{time}}', time);

describe('formatCountdown', () => {
  it.each([
    [60, '1:00'],
    [59.2, '1:00'],
    [59, '0:59'],
    [5, '0:05'],
    [0, '0:00'],
    [-3, '0:00'],
  ])('%s s reads %s', (seconds, text) => {
    expect(formatCountdown(seconds)).toBe(text);
  });
});

describe('IdleSignOutWarning', () => {
  it('warns a minute before with a live countdown, focused on staying', () => {
    vi.useFakeTimers();
    renderWarning(storeWithToken(), fakeClient(async () => 'refreshed'));
    act(() => vi.advanceTimersByTime(WARN_AT - 1000));
    expect(dialog()).toBeNull();
    act(() => vi.advanceTimersByTime(1000));
    const shown = dialog()!;
    expect(shown.textContent).toContain(body('1:00'));
    // Mantine's focus trap moves focus in on the next tick.
    act(() => vi.advanceTimersByTime(0));
    expect(document.activeElement?.textContent).toBe(w.stay);
    act(() => vi.advanceTimersByTime(1000));
    expect(shown.textContent).toContain(body('0:59'));
    act(() => vi.advanceTimersByTime(49_000));
    expect(shown.textContent).toContain(body('0:10'));
  });

  it('"Stay signed in" renews the session through the shared refresh, and the timer starts again from the new tokens', async () => {
    vi.useFakeTimers();
    const store = storeWithToken();
    const client = fakeClient(async () => {
      renewed(store);
      return 'refreshed';
    });
    const { onExpire, onSignOut } = renderWarning(store, client);
    act(() => vi.advanceTimersByTime(WARN_AT));
    fireEvent.click(screen.getByRole('button', { name: w.stay }));
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(client.refreshSession).toHaveBeenCalledOnce();
    expect(dialog()).toBeNull();
    // The old deadline passes without an ending: the new tokens' session runs its full length.
    act(() => vi.advanceTimersByTime(IDLE_WARNING_MS));
    expect(onExpire).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(UIS_MS - IDLE_WARNING_MS - 1));
    expect(onExpire).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1));
    expect(onExpire).toHaveBeenCalledOnce();
    expect(onSignOut).not.toHaveBeenCalled();
  });

  it('says so when the session cannot be renewed, and the timer still ends it', async () => {
    vi.useFakeTimers();
    const { onExpire } = renderWarning(storeWithToken(), fakeClient(async () => 'failed'));
    act(() => vi.advanceTimersByTime(WARN_AT));
    fireEvent.click(screen.getByRole('button', { name: w.stay }));
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(screen.getByRole('alert').textContent).toBe(w.failed);
    act(() => vi.advanceTimersByTime(IDLE_WARNING_MS));
    expect(onExpire).toHaveBeenCalledOnce();
  });

  it('"Sign out" signs out now; left alone, the session ends when the timer says', () => {
    vi.useFakeTimers();
    const client = fakeClient(async () => 'refreshed');
    const { onSignOut, onExpire } = renderWarning(storeWithToken(), client);
    act(() => vi.advanceTimersByTime(WARN_AT));
    fireEvent.click(screen.getByRole('button', { name: w.signOut }));
    expect(onSignOut).toHaveBeenCalledOnce();
    expect(client.refreshSession).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(IDLE_WARNING_MS - 1));
    expect(onExpire).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1));
    expect(onExpire).toHaveBeenCalledOnce();
  });
});

describe('the idle warning in the app', () => {
  it('shows a minute before the session runs out, then the session ends as before', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { requestsTo } = stubApi({ 'POST /msbapi/v1/logout/stoptimer': () => jsonResponse({ code: 1, data: { loggedOut: true } }) });
    sessionStore.set(signedInSession(undefined, { expiresAt: Date.now() + tokenGrant().expiresIn * 1000 }));
    renderApp('/');
    expect(await screen.findByRole('heading', { level: 1, name: en.home.welcome.replace('{{name}}', 'Asha') }, { timeout: 5000 })).toBeTruthy();

    await act(() => vi.advanceTimersByTimeAsync(WARN_AT));
    expect((await screen.findByRole('dialog', { name: w.title })).textContent).toContain(w.stay);

    await act(() => vi.advanceTimersByTimeAsync(IDLE_WARNING_MS));
    expect((await screen.findByRole('alert')).textContent).toBe(en.uisSessionExpired);
    expect(dialog()).toBeNull();
    expect(requestsTo('POST', '/msbapi/v1/logout/stoptimer')).toHaveLength(1);
  });
});
