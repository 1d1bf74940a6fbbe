import { act, fireEvent, render, screen } from '@testing-library/react';
import { ANNOUNCEMENT_TIMER_MAX_MS, type Announcement } from '@pakt/domain';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../api/query-client';
import { sessionStore } from '../../api/session-store';
import en from '../../i18n/en.json';
import { AppProviders } from '../../app/providers';
import { jsonResponse, signedInSession, stubApi, TENANT_ACME } from '../../test/fake-api';
import { renderApp } from '../../test/render-app';
import { AnnouncementBannerView } from './announcement-banner';
import { bannerState, delayUntil, isBannerRoute } from './banner-schedule';

const T0 = Date.parse('2025-03-10T09:00:00.000Z');
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

const announcement = (overrides: Partial<Announcement> & { start: number; end: number }): Announcement => {
  const { start, end, ...rest } = overrides;
  return {
    id: '6f1d2c3b-4a5e-4f60-8172-93a4b5c6d7e8',
    text: 'Scheduled maintenance tonight',
    startTime: new Date(start).toISOString(),
    endTime: new Date(end).toISOString(),
    tenantId: null,
    ...rest,
  };
};

function renderView(announcements: Announcement[]) {
  return render(
    <AppProviders queryClient={createQueryClient()} env="test">
      <AnnouncementBannerView announcements={announcements} />
    </AppProviders>,
  );
}

const shown = (text = 'Scheduled maintenance tonight') => screen.queryByText(text) !== null;
const advance = (ms: number) => act(() => vi.advanceTimersByTime(ms));

describe('the banner schedule', () => {
  it('shows from the start (inclusive) to the end (exclusive) and names the next change', () => {
    const a = announcement({ start: T0 + MINUTE, end: T0 + 2 * MINUTE });
    expect(bannerState([a], T0)).toEqual({ visible: [], nextChangeAt: T0 + MINUTE });
    expect(bannerState([a], T0 + MINUTE)).toEqual({ visible: [a], nextChangeAt: T0 + 2 * MINUTE });
    expect(bannerState([a], T0 + 2 * MINUTE)).toEqual({ visible: [], nextChangeAt: null });
    expect(bannerState([a], T0 + MINUTE, new Set([a.id]))).toEqual({ visible: [], nextChangeAt: null });
  });

  it('never waits longer than a browser timer can (spec §9 cap)', () => {
    expect(delayUntil(T0 + 30 * DAY, T0)).toBe(ANNOUNCEMENT_TIMER_MAX_MS);
    expect(delayUntil(T0 + MINUTE, T0)).toBe(MINUTE);
    expect(delayUntil(T0 - MINUTE, T0)).toBe(0);
  });

  it('belongs to the login, dashboard and two-factor routes only', () => {
    expect(['/login', '/dashboard', '/authenticate', '/login?next=/x'].map(isBannerRoute)).toEqual([true, true, true, true]);
    expect(['/', '/admin', '/profile', '/loginx', '/epaks'].map(isBannerRoute)).toEqual([false, false, false, false, false]);
  });
});

describe('AnnouncementBannerView with timers', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    vi.setSystemTime(T0);
  });
  afterEach(() => vi.useRealTimers());

  it('is hidden before the start, shown at the start and hidden at the end', () => {
    renderView([announcement({ start: T0 + 10 * MINUTE, end: T0 + 70 * MINUTE })]);
    expect(shown()).toBe(false);
    advance(10 * MINUTE - 1);
    expect(shown()).toBe(false);
    advance(1);
    expect(shown()).toBe(true);
    expect(screen.getByRole('region', { name: en.announcements.region })).toBeTruthy();
    advance(60 * MINUTE - 1);
    expect(shown()).toBe(true);
    advance(1);
    expect(shown()).toBe(false);
  });

  it('does not fire at once for a start 30 days ahead: the capped timer fires early and waits again', () => {
    // The fake clock behaves like a browser here: a delay above 2^31 - 1 ms overflows and the
    // timer runs at once (and, looked at again, again: a busy loop until the start).
    renderView([announcement({ start: T0 + 30 * DAY, end: T0 + 31 * DAY })]);
    const nextTimer = () => act(() => vi.advanceTimersToNextTimer());
    nextTimer();
    expect(Date.now() - T0).toBe(ANNOUNCEMENT_TIMER_MAX_MS);
    // The capped timer fired about 24.9 days in: still hidden, and waiting for the rest.
    expect(shown()).toBe(false);
    expect(vi.getTimerCount()).toBe(1);
    nextTimer();
    expect(Date.now() - T0).toBe(30 * DAY);
    expect(shown()).toBe(true);
    nextTimer();
    expect(Date.now() - T0).toBe(31 * DAY);
    expect(shown()).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('shows several in order and closes one for the rest of the session', () => {
    const first = announcement({ start: T0 - MINUTE, end: T0 + DAY, text: 'First notice' });
    const second = announcement({ id: '0a1b2c3d-4e5f-4a6b-8c7d-8e9fa0b1c2d3', start: T0 - MINUTE, end: T0 + DAY, text: 'Second notice' });
    const { unmount } = renderView([first, second]);
    expect(screen.getAllByRole('status').map((alert) => alert.textContent)).toEqual(['First notice', 'Second notice']);
    fireEvent.click(screen.getAllByRole('button', { name: en.announcements.dismiss })[0]!);
    expect(shown('First notice')).toBe(false);
    expect(shown('Second notice')).toBe(true);
    unmount();
    // Coming back in the same session keeps it closed.
    renderView([first, second]);
    expect(shown('First notice')).toBe(false);
    expect(JSON.parse(sessionStorage.getItem('pakt.dismissedAnnouncements') ?? '[]')).toEqual([first.id]);
  });
});

describe('the banner in the app', () => {
  const live = {
    id: '1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f',
    text: 'Pakt is upgraded on Sunday from 22:00',
    startTime: new Date(Date.now() - DAY).toISOString(),
    endTime: new Date(Date.now() + DAY).toISOString(),
    tenantId: null,
  };

  it('is checked on the login page and shown above it', async () => {
    const { requestsTo } = stubApi({ 'GET /msbapi/public/announcements': () => jsonResponse({ code: 1, data: { items: [live] } }) });
    renderApp('/login');
    expect(await screen.findByText(live.text)).toBeTruthy();
    expect(requestsTo('GET', '/msbapi/public/announcements')).toHaveLength(1);
  });

  it("sends a member's session and tenant so their tenant's own are included", async () => {
    sessionStore.set(signedInSession());
    const { requestsTo } = stubApi({ 'GET /msbapi/public/announcements': () => jsonResponse({ code: 1, data: { items: [live] } }) });
    renderApp('/authenticate');
    expect(await screen.findByText(live.text)).toBeTruthy();
    const [request] = requestsTo('GET', '/msbapi/public/announcements');
    expect(request?.headers.get('x-tenant-id')).toBe(TENANT_ACME);
    expect(request?.headers.get('authorization')).toBe('Bearer access-1');
  });

  it('is not checked elsewhere, and a failed check shows nothing and sends nobody away', async () => {
    // The default fake answers the banner's call with a 404.
    const { requestsTo } = stubApi();
    const { router } = renderApp('/forgetpassword');
    expect(await screen.findByRole('heading', { level: 1 })).toBeTruthy();
    expect(requestsTo('GET', '/msbapi/public/announcements')).toHaveLength(0);

    await act(() => router.navigate('/login'));
    await vi.waitFor(() => expect(requestsTo('GET', '/msbapi/public/announcements')).toHaveLength(1));
    expect(screen.queryByRole('region', { name: en.announcements.region })).toBeNull();
    expect(router.state.location.pathname).toBe('/login');
  });
});
