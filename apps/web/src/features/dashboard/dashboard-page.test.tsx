import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { sessionStore } from '../../api/session-store';
import en from '../../i18n/en.json';
import { epakSummary, folderCounts, inboxPage, inboxRoutes, OWNER_ID, userStatistics, wideScreen } from '../../test/inbox-fixtures';
import { adminUser, jsonResponse, signedInSession, stubApi, TENANT_GLOBEX } from '../../test/fake-api';
import { renderApp } from '../../test/render-app';

// These render the whole app with its queries; on a busy machine the first answer can take more
// than Testing Library's default second (this file's modules, so its setting, are its own).
configure({ asyncUtilTimeout: 3000 });

const LIST = '/msbapi/v2/epaks';
let restore: (() => void) | null = null;
afterEach(() => {
  restore?.();
  restore = null;
});

const queryOf = (url: string) => Object.fromEntries(new URLSearchParams(url.split('?')[1]));
const lease = epakSummary({ subject: 'Office lease' });

function stubDashboard(extra: Parameters<typeof stubApi>[0] = {}) {
  return stubApi({ ...extra, ...inboxRoutes(() => inboxPage([lease]), userStatistics({ awaitingMe: 4, awaitingOthers: 2, expiringSoon: 1 })) });
}

async function openDashboard(path: string) {
  const rendered = renderApp(path);
  await screen.findByRole('heading', { level: 1, name: 'Welcome, Asha' }, { timeout: 3000 });
  return rendered;
}

describe('/dashboard', { timeout: 20_000 }, () => {
  it("greets the person, shows their numbers, their inbox and their own charts", async () => {
    restore = wideScreen();
    sessionStore.set(signedInSession());
    const { requestsTo } = stubDashboard();
    await openDashboard('/dashboard');
    expect(screen.getByTestId('current-tenant').textContent).toBe('Acme Legal');
    expect(screen.getByTestId('current-role').textContent).toBe(en.roles.admin);

    const waiting = await screen.findByTestId('tile-awaitingMe');
    await waitFor(() => expect(within(waiting).getByTestId('tile-value').textContent).toBe('4'));
    expect(within(waiting).getByText(en.inbox.tiles.awaitingMe)).toBeTruthy();
    expect(waiting.getAttribute('href')).toBe('/epaks');
    expect(within(screen.getByTestId('tile-completed')).getByTestId('tile-value').textContent).toBe('7');

    expect(await screen.findByRole('link', { name: 'Office lease' })).toBeTruthy();
    expect(queryOf(requestsTo('GET', LIST)[0]!.url)).toEqual({ folder: 'Inbox', pg: '0', size: '50', sort: 'sentOn', order: 'desc' });

    const summary = await screen.findByTestId('summary-chart');
    expect(within(within(summary).getByTestId('summary-Inbox')).getByText('3')).toBeTruthy();
    const weekly = await screen.findByRole('table', { name: en.inbox.charts.weeklyLabel.replace('{{scope}}', en.inbox.charts.scopes.user) });
    expect(within(weekly).getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual([
      en.inbox.charts.week,
      en.inbox.series.pending,
      en.inbox.series.created,
      en.inbox.series.stopped,
      en.inbox.series.completed,
    ]);
    const statistics = requestsTo('GET', '/msbapi/v2/statistics').map((request) => queryOf(request.url));
    expect(statistics).toEqual(expect.arrayContaining([{ type: 'summary', scope: 'user' }, { type: 'weekly', scope: 'user' }]));
  });

  it('lets an admin switch the charts to the whole organisation, with its seven weekly series', async () => {
    restore = wideScreen();
    sessionStore.set(signedInSession());
    const { requestsTo } = stubDashboard();
    await openDashboard('/dashboard');
    fireEvent.click(await screen.findByRole('radio', { name: en.inbox.charts.scopes.all }));
    const weekly = await screen.findByRole('table', { name: en.inbox.charts.weeklyLabel.replace('{{scope}}', en.inbox.charts.scopes.all) });
    expect(within(weekly).getAllByRole('columnheader')).toHaveLength(8);
    await waitFor(() => expect(within(screen.getByTestId('summary-Inbox')).getByText('40')).toBeTruthy());
    expect(requestsTo('GET', '/msbapi/v2/statistics').map((request) => queryOf(request.url))).toEqual(
      expect.arrayContaining([{ type: 'summary', scope: 'all' }, { type: 'weekly', scope: 'all' }]),
    );
  });

  it("keeps a signer's charts to their own (and their groups', see group-charts.test): the permission module refuses them 'statistics.tenant'", async () => {
    sessionStore.set(signedInSession(adminUser, { tenantUuid: TENANT_GLOBEX }));
    const { requestsTo } = stubDashboard();
    await openDashboard('/dashboard');
    await screen.findByTestId('summary-chart');
    expect(screen.queryByRole('radio', { name: en.inbox.charts.scopes.all })).toBeNull();
    expect(requestsTo('GET', '/msbapi/v2/statistics').every((request) => queryOf(request.url).scope === 'user')).toBe(true);
  });

  it('shows the inbox searched (searchKey, searchVal) as a removable chip', async () => {
    sessionStore.set(signedInSession());
    const { requestsTo } = stubDashboard();
    const { router } = await openDashboard('/dashboard?searchKey=subject&searchVal=lease&ts=1700000000000');
    expect(await screen.findByRole('heading', { level: 2, name: en.inbox.dashboard.searchHeading })).toBeTruthy();
    const chip = await screen.findByTestId('search-chip');
    expect(chip.textContent).toContain(`${en.inbox.searchTypes.subject}: lease`);
    await waitFor(() => expect(queryOf(requestsTo('GET', LIST)[0]!.url)).toMatchObject({ folder: 'Inbox', searchKey: 'subject', searchVal: 'lease' }));

    fireEvent.click(within(chip).getByRole('button', { name: en.inbox.search.remove }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(screen.queryByTestId('search-chip')).toBeNull();
    await waitFor(() => expect(queryOf(requestsTo('GET', LIST).at(-1)!.url).searchKey).toBeUndefined());
  });

  it('opens the folder where the search has hits, and points back at them from a folder without any', async () => {
    sessionStore.set(signedInSession());
    const done = epakSummary({ subject: 'Signed lease', status: 'Completed', folders: ['Completed'] });
    const counts = folderCounts({ Completed: [1, 0], Pending: [2, 0] });
    const searchHits = { ...Object.fromEntries(Object.keys(counts).map((folder) => [folder, 0])), Completed: 1 } as Record<keyof typeof counts, number>;
    const { requestsTo } = stubApi(
      inboxRoutes((query) => {
        const folder = query.get('folder') as keyof typeof counts;
        return inboxPage(folder === 'Completed' ? [done] : [], { folder, counts, searchHits });
      }),
    );
    await openDashboard('/dashboard?searchKey=subject&searchVal=signed&ts=1');
    // Issue 21: nothing matches in the Inbox, so the folder with the hits opens by itself.
    expect(await screen.findByRole('link', { name: 'Signed lease' })).toBeTruthy();
    expect(queryOf(requestsTo('GET', LIST)[0]!.url)).toMatchObject({ folder: 'Inbox', searchKey: 'subject', searchVal: 'signed' });
    expect(queryOf(requestsTo('GET', LIST).at(-1)!.url)).toMatchObject({ folder: 'Completed', searchKey: 'subject', searchVal: 'signed' });
    // Choosing a folder without hits stays there (Pending holds ePaks, none matching), and points at the folder with them.
    fireEvent.change(screen.getByRole('combobox', { name: en.inbox.folders.label }), { target: { value: 'Pending' } });
    expect(await screen.findByText(en.inbox.empty.searchTitle.replace('{{folder}}', en.inbox.folders.Pending))).toBeTruthy();
    const lookIn = screen.getByRole('group', { name: en.inbox.empty.lookIn });
    expect(within(lookIn).getAllByRole('button').map((button) => button.textContent)).toEqual([`${en.inbox.folders.Completed} (1)`]);
    fireEvent.click(within(lookIn).getByRole('button', { name: `${en.inbox.folders.Completed} (1)` }));
    expect(await screen.findByRole('link', { name: 'Signed lease' })).toBeTruthy();
  });

  it('offers "Compose your first ePak" to someone who may compose and has no ePak anywhere; not to a signer', async () => {
    sessionStore.set(signedInSession());
    stubApi(inboxRoutes(() => inboxPage([])));
    const { unmount } = await openDashboard('/dashboard');
    const start = await screen.findByTestId('compose-first');
    expect(start.textContent).toBe(en.inbox.empty.composeFirst);
    expect(start.getAttribute('href')).toBe('/compose');
    expect(screen.getByText(en.inbox.empty.firstTimeText)).toBeTruthy();
    unmount();

    const signer = { ...adminUser, tenants: adminUser.tenants.map((tenant) => ({ ...tenant, userRole: 'signer' as const })) };
    sessionStore.set(signedInSession(signer));
    stubApi(inboxRoutes(() => inboxPage([])));
    await openDashboard('/dashboard');
    expect(await screen.findByText(en.inbox.empty.text.Inbox)).toBeTruthy();
    expect(screen.queryByTestId('compose-first')).toBeNull();
  });

  it('does not offer it once there are ePaks elsewhere', async () => {
    sessionStore.set(signedInSession());
    stubApi(inboxRoutes(() => inboxPage([], { counts: folderCounts({ Draft: [1, 0] }) })));
    await openDashboard('/dashboard');
    expect(await screen.findByText(en.inbox.empty.text.Inbox)).toBeTruthy();
    expect(screen.queryByTestId('compose-first')).toBeNull();
  });

  it('runs the same search again when a new timestamp arrives', async () => {
    sessionStore.set(signedInSession());
    const { requestsTo } = stubDashboard();
    const { router } = await openDashboard('/dashboard?searchKey=subject&searchVal=lease&ts=1');
    await waitFor(() => expect(requestsTo('GET', LIST)).toHaveLength(1));
    await router.navigate('/dashboard?searchKey=subject&searchVal=lease&ts=2');
    await waitFor(() => expect(requestsTo('GET', LIST)).toHaveLength(2));
  });

  it('names the person of a from search, as the results show them', async () => {
    sessionStore.set(signedInSession());
    stubDashboard();
    await openDashboard(`/dashboard?searchKey=from&searchVal=${OWNER_ID}&ts=1`);
    await waitFor(() => expect(screen.getByTestId('search-chip').textContent).toContain(`${en.inbox.searchTypes.from}: Meera Shah`));
  });

  it('says so when the search cannot be run, and shows the plain inbox', async () => {
    sessionStore.set(signedInSession());
    const { requestsTo } = stubDashboard();
    await openDashboard('/dashboard?searchKey=createdOn&searchVal=yesterday');
    expect((await screen.findByTestId('dashboard-invalid')).textContent).toBe(en.inbox.dashboard.badSearch);
    expect(screen.queryByTestId('search-chip')).toBeNull();
    await waitFor(() => expect(queryOf(requestsTo('GET', LIST)[0]!.url).searchKey).toBeUndefined());
  });

  it('opens the ePak an ePakId names, marking it read, without leaving the dashboard address in history', async () => {
    sessionStore.set(signedInSession());
    const { requestsTo } = stubDashboard({
      [`PUT ${LIST}/${lease.id}/read`]: () => jsonResponse({ code: 1, data: { id: lease.id, isRead: true } }),
    });
    const { router } = renderApp(`/dashboard?ePakId=${lease.id}`);
    await waitFor(() => expect(`${router.state.location.pathname}${router.state.location.search}`).toBe(`/sign?ePakId=${lease.id}`));
    expect(router.state.historyAction).toBe('REPLACE');
    await waitFor(() => expect(requestsTo('PUT', `${LIST}/${lease.id}/read`)[0]?.body).toEqual({ isRead: true }));
  });

  it('is for signed-in people', async () => {
    stubApi();
    const { router } = renderApp('/dashboard');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
  });
});
