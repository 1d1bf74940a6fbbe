import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { sessionStore } from '../../api/session-store';
import { STORAGE_KEYS } from '../../api/storage-keys';
import en from '../../i18n/en.json';
import { adminUser, jsonResponse, rootUser, signedInSession, stubApi, TENANT_ACME, TENANT_GLOBEX } from '../../test/fake-api';
import { inputLabelled, renderApp } from '../../test/render-app';

// Signed in, these land on the dashboard, whose queries can take more than Testing Library's
// default second on a busy machine.
configure({ asyncUtilTimeout: 3000 });

const accountMenu = (name: string) => screen.findByRole('button', { name: en.shell.accountMenu.replace('{{name}}', name) });

describe('user widget', () => {
  it('offers profile and logout, and no FAQ until the help pages exist', async () => {
    stubApi();
    sessionStore.set(signedInSession());
    renderApp('/');
    fireEvent.click(await accountMenu('Asha Rao'));
    const menu = await screen.findByRole('menu');
    expect(within(menu).getByRole('menuitem', { name: en.shell.profile }).getAttribute('href')).toBe('/profile');
    // It led to "Page not found" (issue 21).
    expect(within(menu).queryByRole('menuitem', { name: en.shell.faq })).toBeNull();
    expect(within(menu).getByText('asha@example.com')).toBeTruthy();
    expect(within(menu).getByRole('menuitem', { name: en.shell.logout })).toBeTruthy();
  });

  it('logs out: ends the server session, keeps only the username and preferences, shows login', async () => {
    const { requestsTo } = stubApi({ 'POST /msbapi/v1/logout': () => jsonResponse({ code: 1, data: { loggedOut: true } }) });
    sessionStore.set(signedInSession());
    localStorage.setItem(STORAGE_KEYS.username, 'asha@example.com');
    localStorage.setItem(STORAGE_KEYS.signingDevicePort, '1645');
    const { router } = renderApp('/');

    fireEvent.click(await accountMenu('Asha Rao'));
    fireEvent.click(await screen.findByRole('menuitem', { name: en.shell.logout }));

    expect(await screen.findByRole('heading', { level: 1, name: en.login.title })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/login');
    expect(requestsTo('POST', '/msbapi/v1/logout')[0]?.headers.get('Authorization')).toBe('Bearer access-1');
    expect(sessionStore.get()).toBeNull();
    expect(Object.keys(localStorage).sort()).toEqual([STORAGE_KEYS.signingDevicePort, STORAGE_KEYS.username].sort());
    expect(inputLabelled(en.common.email).value).toBe('asha@example.com');
    // Logged out, the header offers the language again instead of the user widget.
    expect(screen.getByRole('combobox', { name: en.shell.language })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Account menu/ })).toBeNull();
  });
});

describe('tenant selector', () => {
  it("lists the user's tenants and switches the one the app acts in", async () => {
    stubApi();
    sessionStore.set(signedInSession());
    renderApp('/');
    const select = (await screen.findByRole('combobox', { name: en.shell.tenant })) as HTMLSelectElement;
    expect(within(select).getAllByRole('option').map((option) => option.textContent)).toEqual(['Acme Legal', 'Globex']);
    expect(select.value).toBe(TENANT_ACME);

    fireEvent.change(select, { target: { value: TENANT_GLOBEX } });

    await waitFor(() => expect(sessionStore.get()?.tenantUuid).toBe(TENANT_GLOBEX));
    await waitFor(() => expect(screen.getByTestId('current-tenant').textContent).toBe('Globex'));
  });

  it("leaves a page the new tenant's role may not open for that tenant's start page", async () => {
    stubApi({ 'GET /msbapi/v1/outbox': () => jsonResponse({ code: 1, data: { messages: [] } }) });
    sessionStore.set(signedInSession());
    const { router } = renderApp('/admin?section=outbox');
    expect(await screen.findByRole('heading', { level: 1, name: en.outbox.title })).toBeTruthy();
    fireEvent.change(await screen.findByRole('combobox', { name: en.shell.tenant }), { target: { value: TENANT_GLOBEX } });
    // Admin in Acme Legal, signer in Globex: no access-denied page, just Globex's dashboard.
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(await screen.findByRole('heading', { level: 1, name: en.home.welcome.replace('{{name}}', 'Asha') })).toBeTruthy();
  });

  it('is absent for root, who belongs to no tenant', async () => {
    stubApi({ 'GET /msbapi/v1/root/tenants': () => jsonResponse({ code: 1, data: { tenants: [] } }) });
    sessionStore.set(signedInSession(rootUser));
    renderApp('/');
    await accountMenu('Ravi Iyer');
    expect(screen.queryByRole('combobox', { name: en.shell.tenant })).toBeNull();
  });
});

describe('logo', () => {
  const logo = () => screen.getByRole('link', { name: en.shell.homeLink });

  it('leads a visitor to the product page', async () => {
    stubApi();
    renderApp('/login');
    await screen.findByRole('heading', { level: 1, name: en.login.title });
    expect(logo().getAttribute('href')).toBe('/');
  });

  it.each([
    { who: 'a tenant member', session: () => signedInSession(), to: '/dashboard' },
    { who: 'root', session: () => signedInSession(rootUser), to: '/root' },
    {
      who: 'a super admin, whose app is the settings screen',
      session: () => signedInSession({ ...adminUser, tenants: [{ ...adminUser.tenants[0]!, userRole: 'super_admin' as const }] }),
      to: '/settings',
    },
  ])('leads $who to their landing page ($to), as sign-in does', async ({ session, to }) => {
    stubApi({ 'GET /msbapi/v1/root/tenants': () => jsonResponse({ code: 1, data: { tenants: [] } }) });
    sessionStore.set(session());
    renderApp('/profile');
    await waitFor(() => expect(logo().getAttribute('href')).toBe(to));
  });
});
