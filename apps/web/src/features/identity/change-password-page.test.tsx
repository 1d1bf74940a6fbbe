import { configure, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { sessionStore } from '../../api/session-store';
import en from '../../i18n/en.json';
import { adminUser, jsonResponse, signedInSession, stubApi, TENANT_ACME } from '../../test/fake-api';
import { inputLabelled, renderApp, typeInto } from '../../test/render-app';

// Signed in, these land on the dashboard, whose queries can take more than Testing Library's
// default second on a busy machine.
configure({ asyncUtilTimeout: 3000 });

const CHANGE = 'POST /msbapi/v1/users/password';

function fill(oldPassword: string, password: string, confirm = password) {
  typeInto(en.changePassword.oldPassword, oldPassword);
  typeInto(en.changePassword.newPassword, password);
  typeInto(en.common.confirmPassword, confirm);
  fireEvent.click(screen.getByRole('button', { name: en.changePassword.submit }));
}

describe('ChangePasswordPage', () => {
  it('changes the password, lifts a forced status and goes to the landing page, saying so', async () => {
    sessionStore.set(signedInSession({ ...adminUser, status: 'resetpassword' }));
    const { requestsTo } = stubApi({ [CHANGE]: () => jsonResponse({ code: 1, data: adminUser }) });
    const { router } = renderApp('/profile');
    expect(await screen.findByRole('heading', { level: 1, name: en.changePassword.forcedTitle })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/changepassword');
    fill('Old-password-1', 'New-password-2025');
    // Home leads on to the landing page (the dashboard), the message travelling along.
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'), { timeout: 8000 });
    expect(await screen.findByRole('heading', { level: 1, name: 'Welcome, Asha' }, { timeout: 8000 })).toBeTruthy();
    expect(await screen.findByText(en.passwordChangeSuccess)).toBeTruthy();
    expect(requestsTo('POST', '/msbapi/v1/users/password')[0]?.body).toEqual({
      oldPassword: 'Old-password-1',
      newPassword: 'New-password-2025',
      confirmPassword: 'New-password-2025',
    });
    expect(sessionStore.get()?.user.status).toBe('enabled');
    // The rules came from the current tenant's configuration.
    expect(requestsTo('GET', `/msbapi/public/passwordconfig/${TENANT_ACME}`)).toHaveLength(1);
  });

  it('says a wrong current password (-17) at that field', async () => {
    sessionStore.set(signedInSession());
    stubApi({ [CHANGE]: () => jsonResponse({ code: -17, data: null, message: 'wrong' }, 400) });
    renderApp('/changepassword');
    await screen.findByRole('heading', { level: 1, name: en.changePassword.title });
    fill('Not-it-1', 'New-password-2025');
    expect(await screen.findByText(en.changePassword.wrongOld)).toBeTruthy();
    expect(inputLabelled(en.changePassword.oldPassword).value).toBe('');
  });

  it('lists the rules the server refused (-16), history included', async () => {
    sessionStore.set(signedInSession());
    stubApi({
      [CHANGE]: () =>
        jsonResponse(
          { code: -16, data: null, message: 'passwordInvalid', issues: [{ path: 'newPassword', message: 'history' }, { path: 'newPassword', message: 'special' }] },
          400,
        ),
    });
    renderApp('/changepassword');
    await screen.findByRole('heading', { level: 1, name: en.changePassword.title });
    fill('Old-password-1', 'New-password-2025');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(en.passwordIssues.history);
    expect(alert.querySelector('[data-issue="special"]')?.textContent).toBe(
      en.passwordIssues.needs.replace('{{rule}}', en.passwordRules.special),
    );
  });

  it('shows a server confirmation mismatch (-6 passwordMissMatch) at the confirmation', async () => {
    sessionStore.set(signedInSession());
    stubApi({
      [CHANGE]: () => jsonResponse({ code: -6, data: null, message: 'bad', issues: [{ path: 'confirmPassword', message: 'passwordMissMatch' }] }, 400),
    });
    renderApp('/changepassword');
    await screen.findByRole('heading', { level: 1, name: en.changePassword.title });
    fill('Old-password-1', 'New-password-2025');
    expect(await screen.findByText(en.passwordMissMatch)).toBeTruthy();
  });

  it('checks the form before asking the server', async () => {
    sessionStore.set(signedInSession());
    const { requestsTo } = stubApi();
    renderApp('/changepassword');
    await screen.findByRole('heading', { level: 1, name: en.changePassword.title });
    fill('', 'short', 'other');
    expect(await screen.findByText(en.passwordInvalid)).toBeTruthy();
    expect(screen.getByText(en.passwordMissMatch)).toBeTruthy();
    expect(requestsTo('POST', '/msbapi/v1/users/password')).toHaveLength(0);
  });

  it('needs a session', async () => {
    stubApi();
    const { router } = renderApp('/changepassword');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
  });
});
