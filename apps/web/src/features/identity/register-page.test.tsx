import { DEFAULT_PASSWORD_CONFIG } from '@pakt/domain';
import { fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { sessionStore } from '../../api/session-store';
import en from '../../i18n/en.json';
import { adminUser, errorResponse, jsonResponse, signedInSession, stubApi, TENANT_ACME, TENANT_GLOBEX, tokenGrant } from '../../test/fake-api';
import { inputLabelled, renderApp, typeInto } from '../../test/render-app';

const INVITE = '/msbapi/public/invitations/abc123';
const REGISTER = '/msbapi/public/users/registerusertenant';
const path = `/register?invite=abc123&tenant=${TENANT_ACME}`;

const invitation = {
  hasAccount: false,
  email: 'asha@example.com',
  firstName: 'Asha',
  middleName: null,
  lastName: 'Rao',
  tenantUuid: TENANT_ACME,
  tenantName: 'Acme Legal',
  role: 'admin',
};

describe('RegisterPage, for an address that has an account already', () => {
  const JOIN = '/msbapi/v1/users/invitations/accept';
  const existing = { ...invitation, hasAccount: true, tenantUuid: TENANT_GLOBEX, tenantName: 'Globex', role: 'signer' };
  const globexPath = `/register?invite=abc123&tenant=${TENANT_GLOBEX}`;
  afterEach(() => sessionStore.clear());

  it('asks no password, and sends the person to sign in and back here', async () => {
    const { requestsTo } = stubApi({ [`GET ${INVITE}`]: () => jsonResponse({ code: 1, data: existing }) });
    const { router } = renderApp(globexPath);
    expect(await screen.findByRole('heading', { level: 1, name: 'Join Globex' })).toBeTruthy();
    expect(screen.queryByLabelText(en.common.password)).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: en.register.existing.signIn }));
    await screen.findByRole('button', { name: en.common.signIn });
    expect(router.state.location.pathname).toBe('/login');
    expect(new URLSearchParams(router.state.location.search).get('returnTo')).toBe(globexPath);
    expect(requestsTo('POST', REGISTER)).toHaveLength(0);
  });

  it('joins with one click from the invitee’s own session and lands in the new tenant', async () => {
    const joinedUser = {
      ...adminUser,
      tenants: [...adminUser.tenants, { tenantUuid: TENANT_GLOBEX, tenantName: 'Globex', userRole: 'signer' as const, userLoginType: 'Email' as const }],
    };
    sessionStore.set(signedInSession());
    const { requestsTo } = stubApi({
      [`GET ${INVITE}`]: () => jsonResponse({ code: 1, data: existing }),
      [`POST ${JOIN}`]: () => jsonResponse({ code: 1, data: { tenantUuid: TENANT_GLOBEX, tenantName: 'Globex', role: 'signer' } }),
      ['GET /msbapi/v1/users/valid']: () => jsonResponse({ code: 1, data: joinedUser }),
    });
    const { router } = renderApp(globexPath);
    fireEvent.click(await screen.findByRole('button', { name: 'Join Globex' }));
    await screen.findByTestId('current-tenant', {}, { timeout: 3000 });
    expect(requestsTo('POST', JOIN)[0]?.body).toEqual({ inviteCode: 'abc123', tenantUuid: TENANT_GLOBEX });
    expect(sessionStore.get()?.tenantUuid).toBe(TENANT_GLOBEX);
    expect(router.state.location.pathname).not.toBe('/register');
  });
});

describe('RegisterPage', () => {
  it('shows who is invited where, registers with the chosen password and lands home signed in', async () => {
    const { requestsTo } = stubApi({
      [`GET ${INVITE}`]: () => jsonResponse({ code: 1, data: invitation }),
      [`POST ${REGISTER}`]: () => jsonResponse({ code: 1, data: tokenGrant() }),
    });
    const { router } = renderApp(path);

    expect(await screen.findByRole('heading', { level: 1, name: 'Join Acme Legal' })).toBeTruthy();
    expect(screen.getByText(/as Administrator/)).toBeTruthy();
    expect(inputLabelled(en.common.email).value).toBe('asha@example.com');
    expect(inputLabelled(en.common.email).readOnly).toBe(true);
    expect(inputLabelled(en.common.firstName).value).toBe('Asha');
    expect(inputLabelled(en.common.lastName).value).toBe('Rao');

    typeInto(en.common.firstName, 'Asha K.');
    typeInto(en.common.password, 'Correct-horse-1');
    typeInto(en.common.confirmPassword, 'Correct-horse-1');
    fireEvent.click(screen.getByRole('button', { name: en.register.submit }));

    // The dashboard waits for the tenant's permission settings before it shows.
    expect(await screen.findByRole('heading', { level: 1, name: 'Welcome, Asha' }, { timeout: 3000 })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/dashboard');
    expect(screen.getByTestId('current-tenant').textContent).toBe('Acme Legal');
    expect(requestsTo('POST', REGISTER)[0]?.body).toEqual({
      userEmail: 'asha@example.com',
      firstName: 'Asha K.',
      lastName: 'Rao',
      userType: 'internal',
      userLoginType: 'Email',
      newPassword: 'Correct-horse-1',
      confirmPassword: 'Correct-horse-1',
      inviteCode: 'abc123',
      tenantUuid: TENANT_ACME,
    });
    expect(sessionStore.get()?.user.email).toBe(adminUser.email);
  });

  it('shows the wait and holds the form when the server answers too many requests (429)', async () => {
    const { requestsTo } = stubApi({
      [`GET ${INVITE}`]: () => jsonResponse({ code: 1, data: invitation }),
      [`POST ${REGISTER}`]: () => jsonResponse({ code: -1, data: { retryAfter: 30 }, message: 'Too many requests' }, 429),
    });
    renderApp(path);
    await screen.findByRole('heading', { level: 1, name: 'Join Acme Legal' });
    typeInto(en.common.password, 'Correct-horse-1');
    typeInto(en.common.confirmPassword, 'Correct-horse-1');
    fireEvent.click(screen.getByRole('button', { name: en.register.submit }));
    expect(await screen.findByText(en.common.tooManyAttempts_other.replace('{{count}}', '30'))).toBeTruthy();
    expect((screen.getByRole('button', { name: en.register.submit }) as HTMLButtonElement).disabled).toBe(true);
    expect(requestsTo('POST', REGISTER)).toHaveLength(1);
  });

  it("checks the password against the tenant's own rules", async () => {
    const { requestsTo } = stubApi({
      [`GET ${INVITE}`]: () => jsonResponse({ code: 1, data: invitation }),
      [`GET /msbapi/public/passwordconfig/${TENANT_ACME}`]: () =>
        jsonResponse({ code: 1, data: { ...DEFAULT_PASSWORD_CONFIG, minLength: 14, requireSpecial: true } }),
    });
    renderApp(path);
    expect(await screen.findByText('at least 14 characters')).toBeTruthy();
    expect(screen.getByText(en.passwordRules.special)).toBeTruthy();
    typeInto(en.common.password, 'Correcthorse12');
    typeInto(en.common.confirmPassword, 'Correcthorse12');
    fireEvent.click(screen.getByRole('button', { name: en.register.submit }));
    expect(await screen.findByText(en.passwordInvalid)).toBeTruthy();
    expect(requestsTo('POST', REGISTER)).toHaveLength(0);
  });

  it('falls back to the default rules and says so when the tenant rules cannot be loaded', async () => {
    stubApi({
      [`GET ${INVITE}`]: () => jsonResponse({ code: 1, data: invitation }),
      [`GET /msbapi/public/passwordconfig/${TENANT_ACME}`]: () => errorResponse(-2, 500),
    });
    const { router } = renderApp(path);
    expect(await screen.findByText(en.passwordConfigError)).toBeTruthy();
    expect(screen.getByText('at least 10 characters')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/register');
  });

  it('says passwordMissMatch when the confirmation differs, without sending anything', async () => {
    const { requestsTo } = stubApi({ [`GET ${INVITE}`]: () => jsonResponse({ code: 1, data: invitation }) });
    renderApp(path);
    await screen.findByRole('heading', { level: 1, name: 'Join Acme Legal' });
    typeInto(en.common.password, 'Correct-horse-1');
    typeInto(en.common.confirmPassword, 'Correct-horse-2');
    fireEvent.click(screen.getByRole('button', { name: en.register.submit }));
    expect(await screen.findByText(en.passwordMissMatch)).toBeTruthy();
    expect(requestsTo('POST', REGISTER)).toHaveLength(0);
  });

  it.each([
    { code: -120, http: 410, message: en.register.invalid.expired },
    { code: -173, http: 403, message: en.RESPONSE_MSG_USER_INVITATION_CANCELLED },
    { code: -164, http: 403, message: en.register.invalid.pending },
    { code: -81, http: 409, message: en.register.invalid.alreadyRegistered },
    { code: -1, http: 404, message: en.register.invalid.notFound },
  ])('explains an invitation refused with $code in its own words', async ({ code, http, message }) => {
    stubApi({ [`GET ${INVITE}`]: () => errorResponse(code, http) });
    const { router } = renderApp(path);
    expect(await screen.findByRole('heading', { level: 1, name: en.register.invalid.title })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe(message);
    // The page explains; it does not bounce the person to a generic access-denied page.
    expect(router.state.location.pathname).toBe('/register');
    expect(screen.getByRole('link', { name: en.common.signIn }).getAttribute('href')).toBe('/login');
  });

  it('explains an invitation that expires between opening and submitting', async () => {
    stubApi({
      [`GET ${INVITE}`]: () => jsonResponse({ code: 1, data: invitation }),
      [`POST ${REGISTER}`]: () => errorResponse(-120, 410),
    });
    renderApp(path);
    await screen.findByRole('heading', { level: 1, name: 'Join Acme Legal' });
    typeInto(en.common.password, 'Correct-horse-1');
    typeInto(en.common.confirmPassword, 'Correct-horse-1');
    fireEvent.click(screen.getByRole('button', { name: en.register.submit }));
    expect((await screen.findByRole('alert')).textContent).toBe(en.register.invalid.expired);
    expect(sessionStore.get()).toBeNull();
  });

  it('treats a link without its invite code as incomplete, without asking the server', async () => {
    const { fetchMock } = stubApi();
    renderApp(`/register?tenant=${TENANT_ACME}`);
    expect((await screen.findByRole('alert')).textContent).toBe(en.register.invalid.missing);
    expect(fetchMock.mock.calls.map(([url]) => String(url)).filter((url) => url.includes('invitations'))).toEqual([]);
  });

  it('rejects a link whose tenant is not the invitation tenant', async () => {
    stubApi({ [`GET ${INVITE}`]: () => jsonResponse({ code: 1, data: invitation }) });
    renderApp(`/register?invite=abc123&tenant=${TENANT_GLOBEX}`);
    expect((await screen.findByRole('alert')).textContent).toBe(en.register.invalid.notFound);
  });
});
