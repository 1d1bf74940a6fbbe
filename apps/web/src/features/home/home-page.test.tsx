import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../api/session-store';
import en from '../../i18n/en.json';
import { adminUser, aliveData, rootUser, signedInSession, stubPublicApi, TENANT_GLOBEX } from '../../test/fake-api';
import { renderApp } from '../../test/render-app';

describe('HomePage', () => {
  it('shows the live server status from the API', async () => {
    const fetchMock = stubPublicApi();
    renderApp('/');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Pakt');
    expect((await screen.findByTestId('server-status')).textContent).toBe(en.home.statusUp);
    expect(screen.getByText(aliveData.version)).toBeTruthy();
    expect(screen.getByText(en.home.databaseKinds.embedded)).toBeTruthy();
    expect(await screen.findByText('English, हिन्दी')).toBeTruthy();
    expect(fetchMock.mock.calls.map(([url]) => String(url)).sort()).toEqual([
      '/msbapi/public/alive',
      '/msbapi/public/configuration',
    ]);
  });

  it('says so when the server cannot be reached, and checks again on request', async () => {
    const fetchMock = vi.fn(async () => {
      throw new TypeError('Failed to fetch');
    });
    vi.stubGlobal('fetch', fetchMock);
    renderApp('/');
    expect(await screen.findByText(en.home.statusUnreachable)).toBeTruthy();
    expect(screen.queryByTestId('server-status')).toBeNull();

    const callsBefore = fetchMock.mock.calls.length;
    screen.getByRole('button', { name: en.home.retry }).click();
    await vi.waitFor(() => expect(fetchMock.mock.calls.length).toBeGreaterThan(callsBefore));
  });
});

describe('HomePage signed in', () => {
  it('greets the user and names the current tenant and role', async () => {
    stubPublicApi();
    sessionStore.set(signedInSession());
    renderApp('/');
    expect(await screen.findByRole('heading', { level: 1, name: 'Welcome, Asha' })).toBeTruthy();
    expect(screen.getByTestId('current-tenant').textContent).toBe('Acme Legal');
    expect(screen.getByTestId('current-role').textContent).toBe(en.roles.admin);
    expect(screen.getByText(en.home.switchHint)).toBeTruthy();
  });

  it('follows the tenant chosen in the session', async () => {
    stubPublicApi();
    sessionStore.set(signedInSession(adminUser, { tenantUuid: TENANT_GLOBEX }));
    renderApp('/');
    expect((await screen.findByTestId('current-tenant')).textContent).toBe('Globex');
    expect(screen.getByTestId('current-role').textContent).toBe(en.roles.signer);
  });

  it('shows root the way to the tenant console instead of a tenant', async () => {
    stubPublicApi();
    sessionStore.set(signedInSession(rootUser));
    renderApp('/');
    expect(await screen.findByRole('heading', { level: 1, name: 'Welcome, Ravi' })).toBeTruthy();
    expect(screen.getByRole('link', { name: en.home.openConsole }).getAttribute('href')).toBe('/root');
    expect(screen.queryByTestId('current-tenant')).toBeNull();
  });

  it('tells a user without any tenant how to get one', async () => {
    stubPublicApi();
    sessionStore.set(signedInSession({ ...adminUser, tenants: [] }));
    renderApp('/');
    expect(await screen.findByText(en.home.noTenant)).toBeTruthy();
  });
});
