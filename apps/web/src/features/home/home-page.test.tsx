import { configure, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { sessionStore } from '../../api/session-store';
import en from '../../i18n/en.json';
import { adminUser, configurationData, rootUser, signedInSession, stubApi } from '../../test/fake-api';
import { renderApp } from '../../test/render-app';

// Signed in, these land on the dashboard, whose queries can take more than Testing Library's
// default second on a busy machine.
configure({ asyncUtilTimeout: 3000 });

describe('HomePage for a visitor', () => {
  it('says what Pakt is and leads to sign-in, without the server internals', async () => {
    const { fetchMock } = stubApi();
    renderApp('/');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Pakt');
    expect(screen.getByText(en.home.tagline)).toBeTruthy();
    const signIn = screen.getByRole('link', { name: en.common.signIn });
    expect(signIn.getAttribute('href')).toBe('/login');
    expect(screen.getByText(en.home.padesTitle)).toBeTruthy();
    expect(screen.getByText(en.home.selfHostedTitle)).toBeTruthy();
    expect(screen.getByRole('link', { name: en.home.verifyLink }).getAttribute('href')).toBe('/verify');
    // Sign-up is off in this install: no way to create an account, and the page says how one comes.
    expect(await screen.findByText(en.home.inviteOnly)).toBeTruthy();
    expect(screen.queryByRole('link', { name: en.home.createAccount })).toBeNull();
    // The version, database and the like are root's business now (root's console).
    expect(screen.queryByTestId('server-status')).toBeNull();
    expect(fetchMock.mock.calls.map(([url]) => String(url))).not.toContain('/msbapi/public/alive');
  });

  it('offers to create an account when self sign-up is on', async () => {
    stubApi({}, { ...configurationData, features: { ...configurationData.features, signup: true } });
    renderApp('/');
    const create = await screen.findByRole('link', { name: en.home.createAccount });
    expect(create.getAttribute('href')).toBe('/signup');
    expect(screen.queryByText(en.home.inviteOnly)).toBeNull();
  });
});

describe('HomePage signed in', () => {
  it("sends a tenant member to their landing page, the one sign-in leads to", async () => {
    stubApi();
    sessionStore.set(signedInSession());
    const { router } = renderApp('/');
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Welcome, Asha' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: en.common.signIn })).toBeNull();
  });

  it("sends root to the tenant console", async () => {
    stubApi({ 'GET /msbapi/v1/root/tenants': () => undefined });
    sessionStore.set(signedInSession(rootUser));
    const { router } = renderApp('/');
    await waitFor(() => expect(router.state.location.pathname).toBe('/root'));
  });

  it('keeps a user without any tenant here, and tells them how to get one', async () => {
    stubApi();
    sessionStore.set(signedInSession({ ...adminUser, tenants: [] }));
    const { router } = renderApp('/');
    expect(await screen.findByText(en.home.noTenant)).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1, name: 'Welcome, Asha' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/');
  });
});
