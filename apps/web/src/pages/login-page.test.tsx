import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { sessionStore } from '../api/session-store';
import { STORAGE_KEYS } from '../api/storage-keys';
import en from '../i18n/en.json';
import { errorResponse, jsonResponse, rootUser, signedInSession, stubApi, tokenGrant } from '../test/fake-api';
import { inputLabelled, renderApp, typeInto } from '../test/render-app';

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

    expect(await screen.findByRole('heading', { level: 1, name: 'Welcome, Asha' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/');
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

  it('sends a user whose password must change (-73) to /changepassword', async () => {
    stubApi({ [AUTH]: () => errorResponse(-73, 403) });
    const { router } = renderApp('/login');
    fillAndSubmit('asha@example.com', 'Old-password-1');
    expect(await screen.findByRole('heading', { level: 1, name: en.changePassword.title })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/changepassword');
  });

  it('sends a two-factor account (-200) to /authenticate, which says plainly it is not available yet', async () => {
    stubApi({ [AUTH]: () => errorResponse(-200, 401) });
    const { router } = renderApp('/login');
    fillAndSubmit('asha@example.com', 'Correct-horse-1');
    expect(await screen.findByRole('heading', { level: 1, name: en.authenticate.title })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/authenticate');
    expect(screen.getByRole('link', { name: en.common.backToLogin }).getAttribute('href')).toBe('/login');
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
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });

  it('sends a signed-in user whose status requires a new password to /changepassword', async () => {
    stubApi();
    sessionStore.set(signedInSession({ ...rootUser, isRoot: false, status: 'resetpassword' }));
    const { router } = renderApp('/login');
    await waitFor(() => expect(router.state.location.pathname).toBe('/changepassword'));
  });
});
