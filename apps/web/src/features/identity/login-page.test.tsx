import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { sessionStore } from '../../api/session-store';
import { STORAGE_KEYS } from '../../api/storage-keys';
import en from '../../i18n/en.json';
import { configurationData, errorResponse, jsonResponse, rootUser, signedInSession, stubApi, tokenGrant } from '../../test/fake-api';
import { inputLabelled, renderApp, typeInto } from '../../test/render-app';

const AUTH = 'POST /msbapi/v1/authenticate';

function fillAndSubmit(email: string, password: string) {
  typeInto(en.common.email, email);
  typeInto(en.common.password, password);
  fireEvent.click(screen.getByRole('button', { name: en.login.submit }));
}

describe('LoginPage', () => {
  it('signs in with the form-encoded credentials and lands a tenant user at home', async () => {
    const { requestsTo } = stubApi({ [AUTH]: () => jsonResponse({ code: 1, data: tokenGrant() }) });
    const { router } = renderApp('/login');
    await screen.findByRole('heading', { level: 1, name: en.login.title });

    fillAndSubmit(' asha@example.com ', 'Correct-horse-1');

    // The dashboard waits for the tenant's permission settings before it shows.
    expect(await screen.findByRole('heading', { level: 1, name: 'Welcome, Asha' }, { timeout: 3000 })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/dashboard');
    const [request] = requestsTo('POST', '/msbapi/v1/authenticate');
    expect(request?.headers.get('Content-Type')).toBe('application/x-www-form-urlencoded');
    expect(request?.body).toEqual({ username: 'asha@example.com', password: 'Correct-horse-1', client_id: 'MSB3' });
    expect(sessionStore.get()?.accessToken).toBe('access-1');
    expect(localStorage.getItem(STORAGE_KEYS.username)).toBe('asha@example.com');
  });

  it('forgets answers cached for an earlier session, keeping the public ones', async () => {
    stubApi({ [AUTH]: () => jsonResponse({ code: 1, data: tokenGrant() }) });
    const { queryClient } = renderApp('/login');
    await screen.findByRole('heading', { level: 1, name: en.login.title });
    queryClient.setQueryData(['root', 'tenants'], { tenants: ['left over'] });

    fillAndSubmit('asha@example.com', 'Correct-horse-1');

    await screen.findByRole('heading', { level: 1, name: 'Welcome, Asha' });
    expect(queryClient.getQueryData(['root', 'tenants'])).toBeUndefined();
    expect(queryClient.getQueryData(['public', 'configuration'])).toBeDefined();
  });

  it('takes root to the tenant console', async () => {
    stubApi({
      [AUTH]: () => jsonResponse({ code: 1, data: tokenGrant(rootUser) }),
      'GET /msbapi/v1/root/tenants': () => jsonResponse({ code: 1, data: { tenants: [] } }),
    });
    const { router } = renderApp('/login');
    fillAndSubmit('root@example.com', 'Correct-horse-1');
    expect(await screen.findByRole('heading', { level: 1, name: en.root.title })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/root');
  });

  it('offers the last username again', async () => {
    stubApi();
    localStorage.setItem(STORAGE_KEYS.username, 'asha@example.com');
    renderApp('/login');
    await screen.findByRole('heading', { level: 1, name: en.login.title });
    expect(inputLabelled(en.common.email).value).toBe('asha@example.com');
  });

  it.each([
    { code: -16, http: 401, message: en.login.errors.wrongPassword },
    { code: -1004, http: 400, message: en.login.errors.wrongPassword },
    { code: -14, http: 403, message: en.login.errors.locked },
    { code: -13, http: 403, message: en.USER_DISABLED_CONTACT_ADMIN },
    { code: -88, http: 403, message: en.login.errors.licenseExpired },
    { code: -164, http: 403, message: en.login.errors.pending },
    { code: -15, http: 403, message: en.login.errors.expired },
  ])('explains code $code on the form and stays on it', async ({ code, http, message }) => {
    stubApi({ [AUTH]: () => errorResponse(code, http) });
    const { router } = renderApp('/login');
    fillAndSubmit('asha@example.com', 'wrong-password');
    expect((await screen.findByRole('alert')).textContent).toBe(message);
    expect(router.state.location.pathname).toBe('/login');
    expect(sessionStore.get()).toBeNull();
    // The refused password is not left in the field for another try with the same typo.
    expect(inputLabelled(en.common.password).value).toBe('');
  });

  it('explains an account that is not enabled (-73) on the form', async () => {
    stubApi({ [AUTH]: () => errorResponse(-73, 403) });
    const { router } = renderApp('/login');
    fillAndSubmit('asha@example.com', 'Old-password-1');
    expect((await screen.findByRole('alert')).textContent).toBe(en.login.errors.notEnabled);
    expect(router.state.location.pathname).toBe('/login');
  });

  it('takes a two-factor account (-200) to /authenticate with its challenge, keeping it out of the address', async () => {
    const challenge = { otpId: '3f0c2a4e-1b2c-4d5e-8f90-a1b2c3d4e5f6', method: 'totp', maskedEmail: 'as***@ex***.com', maskedPhone: null, expiresIn: 300 };
    stubApi({ [AUTH]: () => jsonResponse({ code: -200, data: challenge, message: 'Enter the code' }, 401) });
    const { router } = renderApp('/login');
    fillAndSubmit('asha@example.com', 'Correct-horse-1');
    expect(await screen.findByRole('heading', { level: 1, name: en.authenticate.title })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/authenticate');
    expect(router.state.location.search).toBe('');
    expect(screen.getByText(en.authenticate.totpIntro)).toBeTruthy();
    expect(JSON.parse(sessionStorage.getItem('pakt.twoFactorChallenge') ?? '{}').challenge).toEqual(challenge);
  });

  it('links to the forgotten-password page, and to sign-up only when it is switched on', async () => {
    stubApi({}, { ...configurationData, features: { ...configurationData.features, signup: true } });
    renderApp('/login');
    expect((await screen.findByRole('link', { name: en.login.signupLink })).getAttribute('href')).toBe('/signup');
    expect(screen.getByRole('link', { name: en.login.forgotPassword }).getAttribute('href')).toBe('/forgetpassword');
  });

  it('offers no sign-up link when sign-up is off', async () => {
    stubApi();
    renderApp('/login');
    await screen.findByRole('link', { name: en.login.forgotPassword });
    expect(screen.queryByRole('link', { name: en.login.signupLink })).toBeNull();
  });

  it('checks the fields before asking the server', async () => {
    const { requestsTo } = stubApi();
    renderApp('/login');
    await screen.findByRole('heading', { level: 1, name: en.login.title });
    fillAndSubmit('not-an-email', '');
    expect(await screen.findByText(en.common.emailInvalid)).toBeTruthy();
    expect(screen.getByText(en.login.passwordRequired)).toBeTruthy();
    expect(requestsTo('POST', '/msbapi/v1/authenticate')).toHaveLength(0);
  });

  it('says so when the server cannot be reached', async () => {
    stubApi({
      [AUTH]: () => {
        throw new TypeError('Failed to fetch');
      },
    });
    renderApp('/login');
    fillAndSubmit('asha@example.com', 'Correct-horse-1');
    expect((await screen.findByRole('alert')).textContent).toBe(en.common.unreachable);
  });

  it('sends someone already signed in home', async () => {
    stubApi();
    sessionStore.set(signedInSession());
    const { router } = renderApp('/login');
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
  });

  it('sends a signed-in user whose status requires a new password to /changepassword', async () => {
    stubApi();
    sessionStore.set(signedInSession({ ...rootUser, isRoot: false, status: 'resetpassword' }));
    const { router } = renderApp('/login');
    await waitFor(() => expect(router.state.location.pathname).toBe('/changepassword'));
  });
});
