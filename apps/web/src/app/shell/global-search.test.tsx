import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { sessionStore } from '../../api/session-store';
import en from '../../i18n/en.json';
import { epakSummary, inboxPage, inboxRoutes, OWNER_ID, wideScreen } from '../../test/inbox-fixtures';
import { adminUser, jsonResponse, rootUser, signedInSession, stubApi, TENANT_GLOBEX } from '../../test/fake-api';
import { renderApp } from '../../test/render-app';

// These render the whole app with its queries; on a busy machine the first answer can take more
// than Testing Library's default second (this file's modules, so its setting, are its own).
configure({ asyncUtilTimeout: 3000 });

// jsdom lays nothing out; Mantine's combobox scrolls the active option into view.
Element.prototype.scrollIntoView ??= () => undefined;

let restore: (() => void) | null = null;
afterEach(() => {
  restore?.();
  restore = null;
});

const searchForm = () => screen.queryByRole('search', { name: en.inbox.search.label });
const valueInput = () => within(searchForm()!).getByLabelText(en.inbox.search.value, { selector: 'input' }) as HTMLInputElement;
const typeSelect = () => within(searchForm()!).getByLabelText(en.inbox.search.type, { selector: 'input' }) as HTMLInputElement;
const location = (router: ReturnType<typeof renderApp>['router']) => `${router.state.location.pathname}${router.state.location.search}`;

function signedIn(extra: Parameters<typeof stubApi>[0] = {}) {
  sessionStore.set(signedInSession());
  return stubApi({ ...extra, ...inboxRoutes(() => inboxPage([epakSummary({ subject: 'Office lease' })])) });
}

/** Picks an option of a Mantine select (portals are off in tests, so the options are in the page). */
function choose(input: HTMLInputElement, option: string) {
  fireEvent.click(input);
  fireEvent.click(screen.getByRole('option', { name: option }));
}

describe('global search bar on a desktop', { timeout: 20_000 }, () => {
  it('is open on /epaks: Enter searches on the dashboard with searchKey, searchVal and a timestamp', async () => {
    restore = wideScreen();
    signedIn();
    const { router } = renderApp('/epaks');
    await screen.findByRole('heading', { level: 1, name: en.inbox.title }, { timeout: 3000 });
    expect(typeSelect().value).toBe(en.inbox.searchTypes.all);
    fireEvent.change(valueInput(), { target: { value: 'lease' } });
    const before = Date.now();
    fireEvent.submit(searchForm()!);
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    const params = new URLSearchParams(router.state.location.search);
    expect(params.get('searchKey')).toBe('all');
    expect(params.get('searchVal')).toBe('lease');
    expect(Number(params.get('ts'))).toBeGreaterThanOrEqual(before);
    expect(await screen.findByTestId('search-chip')).toBeTruthy();
  });

  it('with no type goes to the plain dashboard', async () => {
    restore = wideScreen();
    signedIn();
    const { router } = renderApp('/epaks');
    await screen.findByRole('heading', { level: 1, name: en.inbox.title }, { timeout: 3000 });
    fireEvent.change(valueInput(), { target: { value: 'lease' } });
    // Mantine's clear button of the type select.
    fireEvent.click(within(searchForm()!).getByRole('button', { hidden: true, name: '' }));
    expect(typeSelect().value).toBe('');
    fireEvent.click(within(searchForm()!).getByRole('button', { name: en.inbox.search.submit }));
    await waitFor(() => expect(location(router)).toBe('/dashboard'));
  });

  it('is folded on the dashboard, a button away', async () => {
    restore = wideScreen();
    signedIn();
    renderApp('/dashboard');
    await screen.findByRole('heading', { level: 1, name: 'Welcome, Asha' }, { timeout: 3000 });
    expect(searchForm()).toBeNull();
    fireEvent.click(screen.getByTestId('search-toggle'));
    expect(searchForm()).toBeTruthy();
  });

  it('is reset when the first path segment changes, and kept while it does not', async () => {
    restore = wideScreen();
    signedIn({ 'GET /msbapi/v1/workflows': () => jsonResponse({ code: 1, data: { workflows: [] } }) });
    const { router } = renderApp('/epaks');
    await screen.findByRole('heading', { level: 1, name: en.inbox.title }, { timeout: 3000 });
    choose(typeSelect(), en.inbox.searchTypes.subject);
    fireEvent.change(valueInput(), { target: { value: 'lease' } });

    await router.navigate('/epaks?folder=Signed');
    await waitFor(() => expect(router.state.location.search).toBe('?folder=Signed'));
    expect(valueInput().value).toBe('lease');
    expect(typeSelect().value).toBe(en.inbox.searchTypes.subject);

    await router.navigate('/profile');
    await screen.findByRole('heading', { level: 1, name: en.profile.title }, { timeout: 3000 });
    await router.navigate('/epaks');
    await waitFor(() => expect(searchForm()).toBeTruthy());
    expect(valueInput().value).toBe('');
    expect(typeSelect().value).toBe(en.inbox.searchTypes.all);
  });

  it('takes a date for the date types', async () => {
    restore = wideScreen();
    signedIn();
    const { router } = renderApp('/epaks');
    await screen.findByRole('heading', { level: 1, name: en.inbox.title }, { timeout: 3000 });
    choose(typeSelect(), en.inbox.searchTypes.createdOn);
    const date = valueInput();
    expect(date.type).toBe('date');
    fireEvent.change(date, { target: { value: '2025-01-15' } });
    fireEvent.submit(searchForm()!);
    await waitFor(() => expect(router.state.location.search).toMatch(/^\?searchKey=createdOn&searchVal=2025-01-15&ts=\d+$/));
  });

  it('finds one person for from in the directory, and searches by their id', async () => {
    restore = wideScreen();
    const RAVI = '2b3c4d5e-6f70-4a81-9b2c-3d4e5f607182';
    const { requestsTo } = signedIn({
      'GET /msbapi/v1/users': () =>
        jsonResponse({ code: 1, data: { users: [{ userId: RAVI, email: 'ravi@example.com', firstName: 'Ravi', lastName: 'Kumar', type: 'internal' }] } }),
    });
    const { router } = renderApp('/epaks');
    await screen.findByRole('heading', { level: 1, name: en.inbox.title }, { timeout: 3000 });
    choose(typeSelect(), en.inbox.searchTypes.from);
    fireEvent.change(valueInput(), { target: { value: 'rav' } });
    fireEvent.focus(valueInput());
    fireEvent.click(await screen.findByRole('option', { name: 'Ravi Kumar · ravi@example.com' }, { timeout: 3000 }));
    expect(new URLSearchParams(requestsTo('GET', '/msbapi/v1/users')[0]!.url.split('?')[1]).get('q')).toBe('rav');
    expect(valueInput().value).toBe('Ravi Kumar · ravi@example.com');
    fireEvent.submit(searchForm()!);
    await waitFor(() => expect(router.state.location.search).toMatch(new RegExp(`^\\?searchKey=from&searchVal=${RAVI}&ts=\\d+$`)));
    // The chip names the person the bar chose, though no result shows them.
    await waitFor(() => expect(screen.getByTestId('search-chip').textContent).toContain(`${en.inbox.searchTypes.from}: Ravi Kumar`));
  });

  it('offers a signer, who may not search the directory, the people of their inbox', async () => {
    restore = wideScreen();
    sessionStore.set(signedInSession(adminUser, { tenantUuid: TENANT_GLOBEX }));
    const { requestsTo } = stubApi(inboxRoutes(() => inboxPage([epakSummary({ subject: 'Office lease' })])));
    const { router } = renderApp('/epaks');
    await screen.findByRole('link', { name: 'Office lease' }, { timeout: 3000 });
    choose(typeSelect(), en.inbox.searchTypes.from);
    fireEvent.change(valueInput(), { target: { value: 'mee' } });
    fireEvent.focus(valueInput());
    fireEvent.click(await screen.findByRole('option', { name: 'Meera Shah · meera@example.com' }));
    fireEvent.submit(searchForm()!);
    await waitFor(() => expect(router.state.location.search).toMatch(new RegExp(`^\\?searchKey=from&searchVal=${OWNER_ID}&ts=\\d+$`)));
    expect(requestsTo('GET', '/msbapi/v1/users')).toHaveLength(0);
  });

  it('asks for a person from the list rather than searching a name it cannot use', async () => {
    restore = wideScreen();
    signedIn({ 'GET /msbapi/v1/users': () => jsonResponse({ code: 1, data: { users: [] } }) });
    const { router } = renderApp('/epaks');
    await screen.findByRole('heading', { level: 1, name: en.inbox.title }, { timeout: 3000 });
    choose(typeSelect(), en.inbox.searchTypes.to);
    fireEvent.change(valueInput(), { target: { value: 'nobody' } });
    fireEvent.submit(searchForm()!);
    expect((await within(searchForm()!).findByRole('alert')).textContent).toBe(en.inbox.search.pickPerson);
    expect(router.state.location.pathname).toBe('/epaks');
  });

  it.each(['/teamroom', '/stamppapers'])('is hidden on %s', async (path) => {
    restore = wideScreen();
    signedIn();
    renderApp(path);
    await screen.findByRole('button', { name: en.shell.accountMenu.replace('{{name}}', 'Asha Rao') }, { timeout: 3000 });
    expect(searchForm()).toBeNull();
    expect(screen.queryByTestId('search-toggle')).toBeNull();
  });

  it('is absent signed out and for root, who has no dashboard', async () => {
    restore = wideScreen();
    stubApi({ 'GET /msbapi/v1/root/tenants': () => jsonResponse({ code: 1, data: { tenants: [] } }) });
    const signedOut = renderApp('/login');
    await screen.findByRole('heading', { level: 1, name: en.login.title }, { timeout: 3000 });
    expect(screen.queryByTestId('search-toggle')).toBeNull();
    signedOut.unmount();
    sessionStore.set(signedInSession(rootUser));
    renderApp('/root');
    await screen.findByRole('button', { name: en.shell.accountMenu.replace('{{name}}', 'Ravi Iyer') }, { timeout: 3000 });
    expect(screen.queryByTestId('search-toggle')).toBeNull();
  });
});

describe('global search bar on a phone', { timeout: 20_000 }, () => {
  it('opens under its button, even on /epaks, and closes once it has searched', async () => {
    signedIn();
    const { router } = renderApp('/epaks');
    await screen.findByRole('heading', { level: 1, name: en.inbox.title }, { timeout: 3000 });
    expect(searchForm()).toBeNull();
    fireEvent.click(screen.getByTestId('search-toggle'));
    const form = await screen.findByRole('search', { name: en.inbox.search.label });
    fireEvent.change(within(form).getByLabelText(en.inbox.search.value, { selector: 'input' }), { target: { value: 'lease' } });
    fireEvent.submit(form);
    await waitFor(() => expect(router.state.location.search).toMatch(/^\?searchKey=all&searchVal=lease&ts=\d+$/));
    await waitFor(() => expect(searchForm()).toBeNull());
  });
});
