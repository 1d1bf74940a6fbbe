import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { EPAK_LIST_REFRESH_MS, type EpakSummary } from '@pakt/domain';
import { afterEach, describe, expect, it } from 'vitest';
import { sessionStore } from '../../api/session-store';
import en from '../../i18n/en.json';
import { adminUser, jsonResponse, signedInSession, stubApi, TENANT_GLOBEX } from '../../test/fake-api';
import { renderApp } from '../../test/render-app';
import { epakSummary, folderCounts, inboxPage, inboxRoutes, wideScreen } from '../../test/inbox-fixtures';
import { inboxQueryKeys, refreshInbox } from './queries';

// These render the whole app with its queries; on a busy machine the first answer can take more
// than Testing Library's default second (this file's modules, so its setting, are its own).
configure({ asyncUtilTimeout: 3000 });

const LIST = '/msbapi/v2/epaks';
let restore: (() => void) | null = null;
afterEach(() => {
  restore?.();
  restore = null;
});

const listQueries = (requestsTo: ReturnType<typeof stubApi>['requestsTo']) =>
  requestsTo('GET', LIST).map((request) => Object.fromEntries(new URLSearchParams(request.url.split('?')[1])));
const lastListQuery = (requestsTo: ReturnType<typeof stubApi>['requestsTo']) => listQueries(requestsTo).at(-1);

const lease = epakSummary({ subject: 'Office lease', isRead: false, expiredOn: '2099-01-01T00:00:00.000Z' });
const nda = epakSummary({
  subject: 'Mutual NDA',
  starred: true,
  progressPercent: 100,
  status: 'Completed',
  currentWorkflowStateAction: null,
  currentStatePendingSigners: [],
  folders: ['Signed', 'Completed'],
});
const counts = folderCounts({ Inbox: [2, 1], Signed: [5, 0], Pending: [3, 2], Draft: [1, 0] });

/** Opens /epaks signed in as an admin of Acme Legal, the list answering `items` (120 rows in all). */
async function openInbox(items: EpakSummary[] = [lease, nda], extra: Parameters<typeof stubApi>[0] = {}, total = items.length) {
  sessionStore.set(signedInSession());
  const api = stubApi({ ...extra, ...inboxRoutes((query) => inboxPage(items, { counts, total, folder: (query.get('folder') ?? 'Inbox') as never, pg: Number(query.get('pg') ?? 0) })) });
  const rendered = renderApp('/epaks');
  await screen.findByRole('heading', { level: 1, name: en.inbox.title }, { timeout: 3000 });
  return { ...api, ...rendered };
}

describe('/epaks on a desktop', { timeout: 20_000 }, () => {
  it('lists the folders with counts, unread in bold, and the Inbox as a table', async () => {
    restore = wideScreen();
    const { requestsTo } = await openInbox();
    const table = await screen.findByTestId('epak-table');
    const rows = within(table).getAllByTestId('epak-row');
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByRole('link', { name: /Office lease/ }).getAttribute('href')).toBe(`/sign?ePakId=${lease.id}`);
    expect(rows[0]!.getAttribute('data-unread')).toBe('true');
    expect(rows[1]!.hasAttribute('data-unread')).toBe(false);
    expect(within(rows[0]!).getByText('Meera Shah')).toBeTruthy();
    expect(within(rows[0]!).getByText(en.inbox.list.waitingFor.replace('{{names}}', 'Asha Rao'))).toBeTruthy();
    expect(within(rows[1]!).getByText(en.inbox.status.Completed)).toBeTruthy();
    expect(within(rows[1]!).getByRole('progressbar', { name: en.inbox.list.progressLabel.replace('{{percent}}', '100') })).toBeTruthy();

    const nav = screen.getByRole('navigation', { name: en.inbox.folders.label });
    const inbox = within(nav).getByRole('button', { name: en.inbox.folders.countUnread_other.replace('{{name}}', 'Inbox').replace('{{count}}', '2').replace('{{unread}}', '1') });
    expect(inbox.getAttribute('aria-current')).toBe('page');
    expect(inbox.hasAttribute('data-unread')).toBe(true);
    const signed = within(nav).getByRole('button', { name: en.inbox.folders.count_other.replace('{{name}}', 'Signed').replace('{{count}}', '5') });
    expect(signed.hasAttribute('data-unread')).toBe(false);
    expect(lastListQuery(requestsTo)).toEqual({ folder: 'Inbox', pg: '0', size: '50', sort: 'sentOn', order: 'desc' });
  });

  it('opens another folder, keeping it in the address', async () => {
    restore = wideScreen();
    const { requestsTo, router } = await openInbox();
    await screen.findByTestId('epak-table');
    fireEvent.click(screen.getByTestId('folder-Signed'));
    await waitFor(() => expect(lastListQuery(requestsTo)?.folder).toBe('Signed'));
    expect(router.state.location.search).toBe('?folder=Signed');
    expect(await screen.findByTestId('folder-heading')).toHaveProperty('textContent', en.inbox.folders.Signed);
  });

  it('sorts by a column, flipping the order on a second click, and by the sort menu', async () => {
    restore = wideScreen();
    const { requestsTo } = await openInbox();
    await screen.findByTestId('epak-table');
    const subject = screen.getByRole('button', { name: en.inbox.list.sortBy.replace('{{column}}', en.inbox.sorts.subject) });
    fireEvent.click(subject);
    await waitFor(() => expect(lastListQuery(requestsTo)).toMatchObject({ sort: 'subject', order: 'asc' }));
    expect(subject.closest('th')?.getAttribute('aria-sort')).toBe('ascending');
    fireEvent.click(subject);
    await waitFor(() => expect(lastListQuery(requestsTo)).toMatchObject({ sort: 'subject', order: 'desc' }));

    fireEvent.click(screen.getByTestId('sort-order'));
    await waitFor(() => expect(lastListQuery(requestsTo)).toMatchObject({ sort: 'subject', order: 'asc' }));
  });

  it('pages through a long folder, and a filter starts again at the first page', async () => {
    restore = wideScreen();
    const { requestsTo, router } = await openInbox([lease, nda], {}, 120);
    await screen.findByTestId('epak-table');
    expect(screen.getByTestId('page-range').textContent).toBe('1–50 of 120');
    fireEvent.click(screen.getByRole('button', { name: en.inbox.paging.next }));
    await waitFor(() => expect(lastListQuery(requestsTo)?.pg).toBe('1'));
    expect(router.state.location.search).toBe('?pg=1');
    await waitFor(() => expect(screen.getByTestId('page-range').textContent).toBe('51–100 of 120'));

    fireEvent.click(screen.getByRole('checkbox', { name: en.inbox.filters.starred }));
    await waitFor(() => expect(lastListQuery(requestsTo)).toMatchObject({ pg: '0', starred: 'true' }));
    fireEvent.click(screen.getByRole('checkbox', { name: en.inbox.filters.unread }));
    await waitFor(() => expect(lastListQuery(requestsTo)).toMatchObject({ pg: '0', starred: 'true', unread: 'true' }));
    expect(router.state.location.search).toBe('?starred=true&unread=true');
  });

  it("asks for the next page from where the page before ended (its cursor), and by number otherwise", async () => {
    restore = wideScreen();
    sessionStore.set(signedInSession());
    const { requestsTo } = stubApi(
      inboxRoutes((query) => {
        const pg = Number(query.get('pg') ?? 0);
        return inboxPage([lease, nda], { counts, total: 120, pg, nextCursor: `after-page-${pg}` });
      }),
    );
    renderApp('/epaks');
    await screen.findByTestId('epak-table');
    expect(lastListQuery(requestsTo)).not.toHaveProperty('cursor');
    fireEvent.click(screen.getByRole('button', { name: en.inbox.paging.next }));
    await waitFor(() => expect(lastListQuery(requestsTo)).toMatchObject({ pg: '1', cursor: 'after-page-0' }));
  });

  it('stars an ePak and shows it at once', async () => {
    restore = wideScreen();
    // The fake server keeps the star, as the real one does: the list fetched again agrees.
    const stored = { ...lease };
    sessionStore.set(signedInSession());
    const { requestsTo } = stubApi({
      [`GET ${LIST}/${lease.id}/togglestar`]: () => {
        stored.starred = !stored.starred;
        return jsonResponse({ code: 1, data: { ePakId: lease.id, starred: stored.starred } });
      },
      ...inboxRoutes(() => inboxPage([{ ...stored }], { counts })),
    });
    renderApp('/epaks');
    await screen.findByTestId('epak-table', {}, { timeout: 3000 });
    const star = await screen.findByRole('button', { name: en.inbox.list.star.replace('{{subject}}', 'Office lease') });
    expect(star.getAttribute('aria-pressed')).toBe('false');
    fireEvent.click(star);
    await waitFor(() => expect(requestsTo('GET', `${LIST}/${lease.id}/togglestar`)).toHaveLength(1));
    expect(await screen.findByRole('button', { name: en.inbox.list.unstar.replace('{{subject}}', 'Office lease') })).toBeTruthy();
  });

  it('opens an ePak from its row and marks it read', async () => {
    restore = wideScreen();
    const { requestsTo, router } = await openInbox([lease], {
      [`PUT ${LIST}/${lease.id}/read`]: () => jsonResponse({ code: 1, data: { id: lease.id, isRead: true } }),
    });
    const row = (await screen.findAllByTestId('epak-row'))[0]!;
    fireEvent.click(within(row).getByText('Meera Shah'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/sign'));
    expect(router.state.location.search).toBe(`?ePakId=${lease.id}`);
    await waitFor(() => expect(requestsTo('PUT', `${LIST}/${lease.id}/read`)[0]?.body).toEqual({ isRead: true }));
  });

  it('signs the selected ePaks in bulk and says what became of each', async () => {
    restore = wideScreen();
    const other = epakSummary({ subject: 'Annexure' });
    const { requestsTo } = await openInbox([lease, other], {
      [`POST ${LIST}/bulksign`]: () =>
        jsonResponse({
          code: 1,
          data: {
            results: [
              { ePakId: lease.id, result: 'SIGNED', reason: null, code: null },
              { ePakId: other.id, result: 'SKIPPED', reason: 'A field of yours is still empty.', code: -6 },
            ],
          },
        }),
    });
    await screen.findByTestId('epak-table');
    fireEvent.click(screen.getByRole('checkbox', { name: en.inbox.list.selectAll }));
    expect(screen.getByTestId('selected-count').textContent).toBe(en.inbox.bulk.selected_other.replace('{{count}}', '2'));
    fireEvent.click(screen.getByRole('button', { name: en.inbox.bulk.sign }));
    const dialog = await screen.findByRole('dialog', { name: en.inbox.bulk.signTitle_other.replace('{{count}}', '2') });
    fireEvent.change(within(dialog).getByLabelText(en.inbox.bulk.reason), { target: { value: 'I approve' } });
    fireEvent.click(within(dialog).getByRole('button', { name: en.inbox.bulk.signConfirm_other.replace('{{count}}', '2') }));

    const results = await screen.findByTestId('bulk-results');
    expect(requestsTo('POST', `${LIST}/bulksign`)[0]?.body).toEqual({ ePakIds: [lease.id, other.id], reason: 'I approve' });
    const items = within(results).getAllByRole('listitem');
    expect(within(items[0]!).getByText('Office lease')).toBeTruthy();
    expect(within(items[0]!).getByText(en.inbox.bulk.signResult.SIGNED)).toBeTruthy();
    expect(within(items[1]!).getByText('Annexure')).toBeTruthy();
    expect(within(items[1]!).getByText(en.inbox.bulk.signResult.SKIPPED)).toBeTruthy();
    expect(within(items[1]!).getByText('A field of yours is still empty.')).toBeTruthy();
    // The selection is done with; the list is fetched again.
    expect(screen.queryByTestId('selected-count')).toBeNull();
    await waitFor(() => expect(requestsTo('GET', LIST).length).toBeGreaterThan(1));
  });

  it("offers delete and archive to the ePaks' owner only", async () => {
    restore = wideScreen();
    const mine = epakSummary({ subject: 'My lease', ownerId: adminUser.id, status: 'Completed', folders: ['Completed'], currentWorkflowStateAction: null });
    const { requestsTo } = await openInbox([mine, lease], {
      'DELETE /msbapi/v2/epaks': () => jsonResponse({ code: 1, data: { results: [{ ePakId: mine.id, result: 'DELETED', status: 'Completed' }] } }),
    });
    await screen.findByTestId('epak-table');
    fireEvent.click(screen.getByRole('checkbox', { name: en.inbox.list.select.replace('{{subject}}', 'Office lease') }));
    expect(screen.getByRole('button', { name: en.inbox.bulk.delete })).toHaveProperty('disabled', true);
    expect(screen.getByText(en.inbox.bulk.ownerOnly)).toBeTruthy();
    fireEvent.click(screen.getByRole('checkbox', { name: en.inbox.list.select.replace('{{subject}}', 'Office lease') }));

    fireEvent.click(screen.getByRole('checkbox', { name: en.inbox.list.select.replace('{{subject}}', 'My lease') }));
    expect(screen.getByRole('button', { name: en.inbox.bulk.archive })).toHaveProperty('disabled', false);
    expect(screen.getByRole('button', { name: en.inbox.bulk.sign })).toHaveProperty('disabled', true);
    fireEvent.click(screen.getByRole('button', { name: en.inbox.bulk.delete }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: en.inbox.bulk.deleteConfirm_one.replace('{{count}}', '1') }));
    const results = await screen.findByTestId('bulk-results');
    expect(requestsTo('DELETE', '/msbapi/v2/epaks')[0]?.body).toEqual({ ePakIds: [mine.id] });
    expect(within(results).getByText(en.inbox.bulk.deleteResult.DELETED)).toBeTruthy();
  });

  it('gives a signer no delete or archive: the permission module refuses them epak.compose', async () => {
    restore = wideScreen();
    sessionStore.set(signedInSession(adminUser, { tenantUuid: TENANT_GLOBEX }));
    stubApi(inboxRoutes(() => inboxPage([lease], { counts })));
    renderApp('/epaks');
    fireEvent.click(await screen.findByRole('checkbox', { name: en.inbox.list.select.replace('{{subject}}', 'Office lease') }, { timeout: 3000 }));
    expect(screen.getByRole('button', { name: en.inbox.bulk.sign })).toHaveProperty('disabled', false);
    expect(screen.queryByRole('button', { name: en.inbox.bulk.delete })).toBeNull();
    expect(screen.queryByRole('button', { name: en.inbox.bulk.archive })).toBeNull();
  });

  it('refreshes every EPAK_LIST_REFRESH_MS, and whenever the epaks queries are invalidated', async () => {
    restore = wideScreen();
    const { requestsTo, queryClient } = await openInbox();
    await screen.findByTestId('epak-table');
    const query = queryClient.getQueryCache().findAll({ queryKey: inboxQueryKeys.all }).find((candidate) => candidate.queryKey[2] === 'list');
    expect(query?.observers[0]?.options.refetchInterval).toBe(EPAK_LIST_REFRESH_MS);
    const before = requestsTo('GET', LIST).length;
    await refreshInbox(queryClient);
    expect(requestsTo('GET', LIST).length).toBe(before + 1);
  });

  it('says when a folder is empty, and when filters leave nothing', async () => {
    restore = wideScreen();
    await openInbox([]);
    expect(await screen.findByText(en.inbox.empty.title.replace('{{folder}}', 'Inbox'))).toBeTruthy();
    fireEvent.click(screen.getByRole('checkbox', { name: en.inbox.filters.unread }));
    expect(await screen.findByText(en.inbox.empty.filteredTitle)).toBeTruthy();
  });
});

describe('/epaks on a phone', { timeout: 20_000 }, () => {
  it('shows cards and a folder select instead of the table and the folder column', async () => {
    const { requestsTo } = await openInbox();
    const cards = await screen.findAllByTestId('epak-card');
    expect(cards).toHaveLength(2);
    expect(screen.queryByTestId('epak-table')).toBeNull();
    expect(cards[0]!.getAttribute('data-unread')).toBe('true');
    const select = screen.getByRole('combobox', { name: en.inbox.folders.label }) as HTMLSelectElement;
    expect(within(select).getByRole('option', { name: 'Waiting for others (2 unread of 3)' })).toBeTruthy();
    fireEvent.change(select, { target: { value: 'Pending' } });
    await waitFor(() => expect(lastListQuery(requestsTo)?.folder).toBe('Pending'));
  });
});
