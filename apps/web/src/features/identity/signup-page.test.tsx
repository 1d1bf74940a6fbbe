import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { sessionStore } from '../../api/session-store';
import en from '../../i18n/en.json';
import { adminUser, configurationData, errorResponse, jsonResponse, stubApi, tokenGrant } from '../../test/fake-api';
import { renderApp, typeInto } from '../../test/render-app';

const SIGNUP = 'POST /msbapi/v1/user/signup';
const signupOn = { ...configurationData, features: { ...configurationData.features, signup: true } };
const newAdmin = { ...adminUser, tenants: [adminUser.tenants[0]!] };

function fillForm(password = 'Signup-password-2025') {
  typeInto(en.signup.orgName, 'Acme Legal');
  typeInto(en.common.email, 'asha@example.com');
  typeInto(en.common.firstName, 'Asha');
  typeInto(en.common.lastName, 'Rao');
  typeInto(en.common.password, password);
  typeInto(en.common.confirmPassword, password);
  fireEvent.click(screen.getByRole('button', { name: en.signup.submit }));
}

describe('SignupPage', () => {
  it('creates the organisation and asks the person to confirm their address from the mail', async () => {
    const { requestsTo } = stubApi({ [SIGNUP]: () => jsonResponse({ code: 1, data: { verificationSent: true, email: 'asha@example.com' } }) }, signupOn);
    const { router } = renderApp('/signup');
    await screen.findByRole('heading', { level: 1, name: en.signup.title });
    fillForm();
    expect(await screen.findByRole('heading', { level: 1, name: en.thanks.title })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/thanks');
    // The address travels in router state, never in the URL.
    expect(router.state.location.search).toBe('');
    expect(screen.getByRole('status').textContent).toBe(en.thanks.checkMail.replace('{{email}}', 'asha@example.com'));
    expect(screen.getByRole('link', { name: en.common.signIn }).getAttribute('href')).toBe('/login');
    expect(requestsTo('POST', '/msbapi/v1/user/signup')[0]?.body).toEqual({
      email: 'asha@example.com',
      firstName: 'Asha',
      lastName: 'Rao',
      orgName: 'Acme Legal',
      newPassword: 'Signup-password-2025',
      confirmPassword: 'Signup-password-2025',
    });
    // Nobody is signed in until the link is opened.
    expect(sessionStore.get()).toBeNull();
  });

  it('explains a sign-up that is waiting for its confirmation (-164)', async () => {
    stubApi({ [SIGNUP]: () => errorResponse(-164, 403) }, signupOn);
    renderApp('/signup');
    await screen.findByRole('heading', { level: 1, name: en.signup.title });
    fillForm();
    expect((await screen.findByRole('alert')).textContent).toBe(en.signup.pending);
  });

  it.each([
    { code: -81, status: 409, message: en.signup.emailTaken },
    { code: -87, status: 409, message: en.signup.orgTaken },
  ])('puts $code at its field', async ({ code, status, message }) => {
    stubApi({ [SIGNUP]: () => errorResponse(code, status) }, signupOn);
    renderApp('/signup');
    await screen.findByRole('heading', { level: 1, name: en.signup.title });
    fillForm();
    expect(await screen.findByText(message)).toBeTruthy();
  });

  it('says so when sign-up was switched off meanwhile (-11)', async () => {
    stubApi({ [SIGNUP]: () => errorResponse(-11, 403) }, signupOn);
    renderApp('/signup');
    await screen.findByRole('heading', { level: 1, name: en.signup.title });
    fillForm();
    expect((await screen.findByRole('alert')).textContent).toBe(en.signup.unavailable);
  });

  it('is not offered when features.signup is off', async () => {
    stubApi();
    renderApp('/signup');
    expect((await screen.findByRole('alert')).textContent).toBe(en.signup.unavailable);
    expect(screen.queryByRole('button', { name: en.signup.submit })).toBeNull();
  });
});

describe('ThanksPage with the confirmation link', () => {
  const VERIFY = 'POST /msbapi/public/users/verifyEmail';

  it('confirms the address once, signs the person in and welcomes them', async () => {
    const { requestsTo } = stubApi({ [VERIFY]: () => jsonResponse({ code: 1, data: tokenGrant(newAdmin) }) });
    renderApp('/thanks?verify=pkv_abc');
    expect(await screen.findByText(en.thanks.ready.replace('{{name}}', 'Asha').replace('{{tenant}}', 'Acme Legal'))).toBeTruthy();
    expect(screen.getByRole('link', { name: en.common.goHome }).getAttribute('href')).toBe('/');
    expect(requestsTo('POST', '/msbapi/public/users/verifyEmail')).toHaveLength(1);
    expect(requestsTo('POST', '/msbapi/public/users/verifyEmail')[0]?.body).toEqual({ token: 'pkv_abc' });
    expect(sessionStore.get()?.user.email).toBe('asha@example.com');
  });

  it('says what to do with a spent or old link (-120)', async () => {
    stubApi({ [VERIFY]: () => errorResponse(-120, 410) });
    renderApp('/thanks?verify=pkv_old');
    expect((await screen.findByRole('alert')).textContent).toBe(en.thanks.verifyFailed);
    expect(screen.getByRole('link', { name: en.common.signIn }).getAttribute('href')).toBe('/login');
    expect(sessionStore.get()).toBeNull();
  });
});
