import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { sessionStore } from '../api/session-store';
import en from '../i18n/en.json';
import { adminUser, jsonResponse, signedInSession, stubApi } from '../test/fake-api';
import { renderApp } from '../test/render-app';

describe('UnavailableStepPage', () => {
  it('tells a signed-in user who must change their password how to get out, by logging out', async () => {
    stubApi({ 'POST /msbapi/v1/logout': () => jsonResponse({ code: 1, data: { loggedOut: true } }) });
    sessionStore.set(signedInSession({ ...adminUser, status: 'resetpassword' }));
    const { router } = renderApp('/changepassword');
    expect(await screen.findByRole('heading', { level: 1, name: en.changePassword.title })).toBeTruthy();
    // /login would send this user straight back here, so the way out is logging out.
    expect(screen.queryByRole('link', { name: en.common.backToLogin })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: en.shell.logout }));
    expect(await screen.findByRole('heading', { level: 1, name: en.login.title })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/login');
  });
});
