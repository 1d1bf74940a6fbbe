import type { StatisticsMember } from '@pakt/domain';
import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { sessionStore } from '../../api/session-store';
import en from '../../i18n/en.json';
import { epakSummary, inboxPage, inboxRoutes, summaryFolders, weeklyFor, wideScreen } from '../../test/inbox-fixtures';
import { adminUser, errorResponse, jsonResponse, signedInSession, stubApi, TENANT_GLOBEX, type FakeRoute } from '../../test/fake-api';
import { renderApp } from '../../test/render-app';

// The whole app renders with its queries: on a busy machine the first answer can take a while.
configure({ asyncUtilTimeout: 3000 });
// jsdom has no scrollIntoView; Mantine's picker scrolls its active option into view.
Element.prototype.scrollIntoView ??= () => undefined;

const STATISTICS = '/msbapi/v2/statistics';
const charts = en.inbox.charts;
const fill = (text: string, scope: string) => text.replace('{{scope}}', scope);

const OLGA: StatisticsMember = { userId: '3f2a1b0c-9d8e-4f7a-8b6c-5d4e3f2a1b0c', firstName: 'Olga', lastName: 'Owens', email: 'olga@example.com' };
const KABIR: StatisticsMember = { userId: '8e7d6c5b-4a3f-4e2d-9c1b-0a9f8e7d6c5b', firstName: 'Kabir', lastName: 'Das', email: 'kd@field.example' };

/** Each scope's Inbox number, so a test can tell on screen whose numbers are shown. */
const INBOX_OF: Record<string, number> = { user: 3, group: 12, all: 40, [OLGA.userId]: 5, [KABIR.userId]: 8 };

let restore: (() => void) | null = null;
afterEach(() => {
  restore?.();
  restore = null;
});

const queryOf = (url: string) => Object.fromEntries(new URLSearchParams(url.split('?')[1]));

/**
 * GET /v2/statistics as the server answers it: scope group with `members`, groupuser only for one
 * of them (404 otherwise, as for a member of a group the caller does not manage).
 */
function statisticsRoute(members: StatisticsMember[]): FakeRoute {
  return ({ url }) => {
    const query = new URLSearchParams(url.split('?')[1]);
    const scope = query.get('scope') ?? 'user';
    const userId = query.get('userId');
    if (scope === 'groupuser' && !members.some((member) => member.userId === userId)) return errorResponse(-1, 404, 'No member of a group you manage has this id.');
    if (query.get('type') === 'weekly') return jsonResponse({ code: 1, data: { type: 'weekly', scope, ...weeklyFor(scope) } });
    const folders = summaryFolders({ Inbox: INBOX_OF[scope === 'groupuser' ? userId! : scope], Completed: 7 });
    return jsonResponse({ code: 1, data: { type: 'summary', scope, folders, ...(scope === 'group' ? { members } : {}) } });
  };
}

function stubDashboard(members: StatisticsMember[] = [OLGA, KABIR]) {
  return stubApi({ ...inboxRoutes(() => inboxPage([epakSummary({ subject: 'Office lease' })])), [`GET ${STATISTICS}`]: statisticsRoute(members) });
}

async function openDashboard() {
  renderApp('/dashboard');
  await screen.findByRole('heading', { level: 1, name: 'Welcome, Asha' }, { timeout: 3000 });
  return screen.findByRole('radiogroup', { name: charts.scope });
}

const signer = () => sessionStore.set(signedInSession(adminUser, { tenantUuid: TENANT_GLOBEX }));
const admin = () => sessionStore.set(signedInSession());
const scopeOptions = (control: HTMLElement) => within(control).getAllByRole('radio').map((radio) => control.querySelector(`label[for="${radio.id}"]`)?.textContent);
const memberPicker = () => screen.queryByLabelText(charts.scopes.groupuser, { selector: 'input' }) as HTMLInputElement | null;
/** The picker, once the group summary has named the members it offers. */
const findMemberPicker = () =>
  waitFor(() => {
    const found = memberPicker();
    if (!found) throw new Error('no member picker yet');
    return found;
  });
/** The picker's options as shown (name, then address), in its own list. */
const memberOptions = (picker: HTMLInputElement) => within(document.getElementById(picker.getAttribute('aria-controls')!)!).queryAllByRole('option');
const summaryInbox = () => within(screen.getByTestId('summary-Inbox')).getByRole('definition').textContent;
const statisticsAsked = (requestsTo: ReturnType<typeof stubApi>['requestsTo']) => requestsTo('GET', STATISTICS).map((request) => queryOf(request.url));

describe('dashboard charts for groups', { timeout: 20_000 }, () => {
  it('offers a signer Mine and My groups, not the whole organisation', async () => {
    signer();
    stubDashboard();
    const control = await openDashboard();
    expect(scopeOptions(control)).toEqual([charts.scopes.user, charts.scopes.group]);
    expect(screen.getByRole('radio', { name: charts.scopes.user })).toHaveProperty('checked', true);
    expect(memberPicker()).toBeNull();
  });

  it('offers an admin Mine, My groups and Whole organisation', async () => {
    admin();
    stubDashboard();
    const control = await openDashboard();
    expect(scopeOptions(control)).toEqual([charts.scopes.user, charts.scopes.group, charts.scopes.all]);
  });

  it('asks for scope=group when My groups is chosen, and shows the group’s numbers', async () => {
    restore = wideScreen();
    signer();
    const { requestsTo } = stubDashboard();
    await openDashboard();
    await waitFor(() => expect(summaryInbox()).toBe('3'));
    expect(statisticsAsked(requestsTo).every((query) => query.scope === 'user')).toBe(true);

    fireEvent.click(screen.getByRole('radio', { name: charts.scopes.group }));
    await waitFor(() => expect(summaryInbox()).toBe('12'));
    expect(statisticsAsked(requestsTo)).toEqual(expect.arrayContaining([{ type: 'summary', scope: 'group' }, { type: 'weekly', scope: 'group' }]));
    const weekly = await screen.findByRole('table', { name: fill(charts.weeklyLabel, charts.scopes.group) });
    // Four series for a group, as for a person (spec §9).
    expect(within(weekly).getAllByRole('columnheader')).toHaveLength(5);
    expect(screen.getByRole('heading', { level: 3, name: charts.summary })).toBeTruthy();
  });

  it('switches both charts to one member (scope=groupuser&userId) when they are picked, and back to the group when cleared', async () => {
    restore = wideScreen();
    signer();
    const { requestsTo } = stubDashboard();
    await openDashboard();
    fireEvent.click(screen.getByRole('radio', { name: charts.scopes.group }));
    const picker = await findMemberPicker();
    expect(picker.getAttribute('placeholder')).toBe(charts.memberPlaceholder);

    fireEvent.click(picker);
    // By name, as the summary's members list them (the server sorts them).
    expect(memberOptions(picker).map((option) => option.textContent)).toEqual([`Olga Owens${OLGA.email}`, `Kabir Das${KABIR.email}`]);
    fireEvent.click(memberOptions(picker).find((option) => option.textContent?.startsWith('Olga Owens'))!);

    const name = 'Olga Owens';
    expect(await screen.findByRole('heading', { level: 3, name: fill(charts.summaryLabel, name) })).toBeTruthy();
    expect(screen.getByRole('heading', { level: 3, name: fill(charts.weeklyLabel, name) })).toBeTruthy();
    await waitFor(() => expect(summaryInbox()).toBe('5'));
    const weekly = await screen.findByRole('table', { name: fill(charts.weeklyLabel, name) });
    expect(within(weekly).getAllByRole('columnheader')).toHaveLength(5);
    expect(statisticsAsked(requestsTo)).toEqual(
      expect.arrayContaining([
        { type: 'summary', scope: 'groupuser', userId: OLGA.userId },
        { type: 'weekly', scope: 'groupuser', userId: OLGA.userId },
      ]),
    );
    // The switch still says My groups: the member is one of them.
    expect(screen.getByRole('radio', { name: charts.scopes.group })).toHaveProperty('checked', true);

    fireEvent.click(screen.getByRole('button', { name: charts.memberClear }));
    await waitFor(() => expect(summaryInbox()).toBe('12'));
    expect(screen.getByRole('heading', { level: 3, name: charts.summary })).toBeTruthy();
    expect(memberPicker()?.value).toBe('');
  });

  it('finds a member by part of their address, and says so when no one matches', async () => {
    signer();
    stubDashboard();
    await openDashboard();
    fireEvent.click(screen.getByRole('radio', { name: charts.scopes.group }));
    const picker = await findMemberPicker();
    fireEvent.click(picker);
    // Typed by a person: Mantine takes changes to an input without focus for the browser's autofill.
    picker.focus();
    fireEvent.change(picker, { target: { value: 'field.example' } });
    await waitFor(() => expect(memberOptions(picker).map((option) => option.textContent)).toEqual([`Kabir Das${KABIR.email}`]));
    fireEvent.change(picker, { target: { value: 'nobody' } });
    expect(await screen.findByText(charts.memberNone)).toBeTruthy();
  });

  it('offers no member picker to someone who manages no group (members: [])', async () => {
    signer();
    const { requestsTo } = stubDashboard([]);
    await openDashboard();
    fireEvent.click(screen.getByRole('radio', { name: charts.scopes.group }));
    await waitFor(() => expect(statisticsAsked(requestsTo)).toEqual(expect.arrayContaining([{ type: 'summary', scope: 'group' }])));
    await waitFor(() => expect(summaryInbox()).toBe('12'));
    expect(memberPicker()).toBeNull();
  });

  it('leaves the member behind when the scope changes: back to My groups shows the whole group', async () => {
    restore = wideScreen();
    admin();
    const { requestsTo } = stubDashboard();
    await openDashboard();
    fireEvent.click(screen.getByRole('radio', { name: charts.scopes.group }));
    const picker = await findMemberPicker();
    fireEvent.click(picker);
    fireEvent.click(within(document.getElementById(picker.getAttribute('aria-controls')!)!).getByRole('option', { name: /Kabir Das/ }));
    await waitFor(() => expect(summaryInbox()).toBe('8'));

    fireEvent.click(screen.getByRole('radio', { name: charts.scopes.all }));
    await waitFor(() => expect(summaryInbox()).toBe('40'));
    expect(memberPicker()).toBeNull();
    fireEvent.click(screen.getByRole('radio', { name: charts.scopes.group }));
    await waitFor(() => expect(summaryInbox()).toBe('12'));
    expect(memberPicker()?.value).toBe('');
    expect(statisticsAsked(requestsTo).filter((query) => query.scope === 'groupuser').every((query) => query.userId === KABIR.userId)).toBe(true);
  });
});
