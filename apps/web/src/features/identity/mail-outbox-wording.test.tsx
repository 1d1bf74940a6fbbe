import type { TwoFactorChallenge } from '@pakt/domain';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { saveChallenge } from '../../api/two-factor';
import en from '../../i18n/en.json';
import { configurationData, errorResponse, jsonResponse, stubApi } from '../../test/fake-api';
import { renderApp, typeInto } from '../../test/render-app';

/**
 * Issue 22, mail with no SMTP: on an install whose mail only waits in the outbox, no screen of
 * the signed-out journeys says a mail was sent; each says where it is and who passes it on.
 */
const noMail = { ...configurationData, mailDelivery: 'outbox' as const };
const signupOn = { ...noMail, features: { ...noMail.features, signup: true } };
const claimsSent = /was sent|we've sent|we've mailed|on its way|we're emailing/i;

function fillSignup() {
  typeInto(en.signup.orgName, 'Acme Legal');
  typeInto(en.common.email, 'asha@example.com');
  typeInto(en.common.firstName, 'Asha');
  typeInto(en.common.lastName, 'Rao');
  typeInto(en.common.password, 'Signup-password-2025');
  typeInto(en.common.confirmPassword, 'Signup-password-2025');
  fireEvent.click(screen.getByRole('button', { name: en.signup.submit }));
}

describe('without a mail server', () => {
  it('the reset link is said to be in the outbox, for the administrator to pass on', async () => {
    stubApi({ 'POST /msbapi/public/users/forgotPassword': () => jsonResponse({ code: 1, data: { sent: true } }) }, noMail);
    renderApp('/forgetpassword');
    expect(await screen.findByText(en.forgotPassword.introOutbox)).toBeTruthy();
    typeInto(en.common.email, 'asha@example.com');
    fireEvent.click(screen.getByRole('button', { name: en.forgotPassword.submit }));
    const status = await screen.findByRole('status');
    expect(status.textContent).toBe(en.forgotPassword.sentOutbox.replace('{{email}}', 'asha@example.com'));
    expect(screen.getByRole('heading', { level: 1, name: en.forgotPassword.sentTitleOutbox })).toBeTruthy();
    expect(document.body.textContent).not.toMatch(claimsSent);
  });

  it('sign-up, when off, says it is off because no mail could confirm the address', async () => {
    stubApi({}, noMail);
    renderApp('/signup');
    expect((await screen.findByRole('alert')).textContent).toBe(en.signup.unavailableNoMail);
  });

  it('sign-up, when root switched it on, says the confirmation link waits in the outbox', async () => {
    stubApi({ 'POST /msbapi/v1/user/signup': () => jsonResponse({ code: 1, data: { verificationSent: true, email: 'asha@example.com' } }) }, signupOn);
    renderApp('/signup');
    await screen.findByRole('heading', { level: 1, name: en.signup.title });
    fillSignup();
    expect(await screen.findByRole('heading', { level: 1, name: en.thanks.title }, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe(en.thanks.checkMailOutbox.replace('{{email}}', 'asha@example.com'));
    expect(screen.getByText(en.thanks.checkMailHintOutbox)).toBeTruthy();
    expect(document.body.textContent).not.toMatch(claimsSent);
  });

  it('a sign-up waiting for confirmation (-164) is told where the link is, at sign-up and at sign-in', async () => {
    stubApi({ 'POST /msbapi/v1/user/signup': () => errorResponse(-164, 403), 'POST /msbapi/v1/authenticate': () => errorResponse(-164, 403) }, signupOn);
    const { router } = renderApp('/signup');
    await screen.findByRole('heading', { level: 1, name: en.signup.title });
    fillSignup();
    expect((await screen.findByRole('alert')).textContent).toBe(en.signup.pendingOutbox);

    await router.navigate('/login');
    await screen.findByRole('heading', { level: 1, name: en.login.title }, { timeout: 5000 });
    typeInto(en.common.email, 'asha@example.com');
    typeInto(en.common.password, 'Signup-password-2025');
    fireEvent.click(screen.getByRole('button', { name: en.login.submit }));
    expect((await screen.findByRole('alert')).textContent).toBe(en.login.errors.pendingOutbox);
  });

  it('a sign-in code by email is said to be in the outbox: ask the administrator for it', async () => {
    const challenge: TwoFactorChallenge = { otpId: '3f0c2a4e-1b2c-4d5e-8f90-a1b2c3d4e5f6', method: 'email', maskedEmail: 'as***@ex***.com', maskedPhone: null, expiresIn: 300 };
    saveChallenge(challenge);
    stubApi({ 'POST /msbapi/v2/authentication/otp/generate': () => jsonResponse({ code: 1, data: { channel: 'email', sentTo: 'as***@ex***.com', resendAfter: 30 } }) }, noMail);
    renderApp('/authenticate');
    expect(await screen.findByText(en.authenticate.emailIntroOutbox.replace('{{email}}', 'as***@ex***.com'))).toBeTruthy();
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe(en.authenticate.sentOutbox.replace('{{email}}', 'as***@ex***.com')));
    expect(document.body.textContent).not.toMatch(claimsSent);
  });
});
