import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { sessionStore } from '../../api/session-store';
import en from '../../i18n/en.json';
import { adminUser, jsonResponse, rootUser, signedInSession, stubApi } from '../../test/fake-api';
import { renderApp } from '../../test/render-app';

describe('/landing', () => {
  it('sends someone signed out to sign in', async () => {
    stubApi();
    const { router } = renderApp('/landing');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(await screen.findByRole('heading', { level: 1, name: en.login.title })).toBeTruthy();
  });

  it.each([
    { who: 'a tenant user', user: adminUser, to: '/dashboard' },
    { who: 'root', user: rootUser, to: '/root' },
    { who: 'someone whose password was reset', user: { ...adminUser, status: 'resetpassword' as const }, to: '/changepassword' },
  ])('sends $who to $to', async ({ user, to }) => {
    stubApi({ 'GET /msbapi/v1/root/tenants': () => jsonResponse({ code: 1, data: { tenants: [] } }) });
    sessionStore.set(signedInSession(user));
    const { router } = renderApp('/landing');
    await waitFor(() => expect(router.state.location.pathname).toBe(to));
  });
});
