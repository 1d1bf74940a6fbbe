import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import en from '../../i18n/en.json';
import { errorResponse, jsonResponse, stubApi } from '../../test/fake-api';
import { renderApp, typeInto } from '../../test/render-app';

const FORGOT = 'POST /msbapi/public/users/forgotPassword';
const RESET = 'POST /msbapi/public/users/password';

describe('ForgotPasswordPage', () => {
  it('asks for a reset link and says one is on its way', async () => {
    const { requestsTo } = stubApi({ [FORGOT]: () => jsonResponse({ code: 1, data: { sent: true } }) });
    renderApp('/forgetpassword');
    await screen.findByRole('heading', { level: 1, name: en.forgotPassword.title });
    typeInto(en.common.email, ' asha@example.com ');
    fireEvent.click(screen.getByRole('button', { name: en.forgotPassword.submit }));
    expect((await screen.findByRole('status')).textContent).toBe(en.forgotPassword.sent.replace('{{email}}', 'asha@example.com'));
    expect(requestsTo('POST', '/msbapi/public/users/forgotPassword')[0]?.body).toEqual({ email: 'asha@example.com' });
  });

  it('explains the daily limit (-227)', async () => {
    stubApi({ [FORGOT]: () => errorResponse(-227, 429) });
    renderApp('/forgetpassword');
    await screen.findByRole('heading', { level: 1, name: en.forgotPassword.title });
    typeInto(en.common.email, 'asha@example.com');
    fireEvent.click(screen.getByRole('button', { name: en.forgotPassword.submit }));
    expect((await screen.findByRole('alert')).textContent).toBe(en.forgotPassword.tooMany);
  });

  it('checks the address first', async () => {
    const { requestsTo } = stubApi();
    renderApp('/forgetpassword');
    await screen.findByRole('heading', { level: 1, name: en.forgotPassword.title });
    typeInto(en.common.email, 'nope');
    fireEvent.click(screen.getByRole('button', { name: en.forgotPassword.submit }));
    expect(await screen.findByText(en.common.emailInvalid)).toBeTruthy();
    expect(requestsTo('POST', '/msbapi/public/users/forgotPassword')).toHaveLength(0);
  });
});

describe('ResetPasswordPage', () => {
  function submit(password: string, confirm = password) {
    typeInto(en.changePassword.newPassword, password);
    typeInto(en.common.confirmPassword, confirm);
    fireEvent.click(screen.getByRole('button', { name: en.resetPassword.submit }));
  }

  it('sets the new password with the token from the link, then offers sign-in', async () => {
    const { requestsTo } = stubApi({ [RESET]: () => jsonResponse({ code: 1, data: { reset: true } }) });
    const { router } = renderApp('/resetpassword?token=tok-123');
    await screen.findByRole('heading', { level: 1, name: en.resetPassword.title });
    submit('New-password-2025');
    expect((await screen.findByRole('status')).textContent).toBe(en.resetPassword.done);
    expect(requestsTo('POST', '/msbapi/public/users/password')[0]?.body).toEqual({
      token: 'tok-123',
      newPassword: 'New-password-2025',
      confirmPassword: 'New-password-2025',
    });
    fireEvent.click(screen.getByRole('button', { name: en.common.signIn }));
    expect(await screen.findByRole('heading', { level: 1, name: en.login.title })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/login');
  });

  it.each([
    { code: -42, status: 404, message: en.resetPassword.invalidLink },
    { code: -120, status: 410, message: en.resetPassword.expiredLink },
  ])('explains an unusable link ($code) and offers a new one', async ({ code, status, message }) => {
    stubApi({ [RESET]: () => errorResponse(code, status) });
    renderApp('/resetpassword?token=old');
    await screen.findByRole('heading', { level: 1, name: en.resetPassword.title });
    submit('New-password-2025');
    expect((await screen.findByRole('alert')).textContent).toBe(message);
    expect(screen.getByRole('link', { name: en.resetPassword.requestNew }).getAttribute('href')).toBe('/forgetpassword');
  });

  it('shows the rules the server refused, history included', async () => {
    stubApi({
      [RESET]: () => jsonResponse({ code: -16, data: null, message: 'x', issues: [{ path: 'newPassword', message: 'history' }] }, 400),
    });
    renderApp('/resetpassword?token=tok');
    await screen.findByRole('heading', { level: 1, name: en.resetPassword.title });
    submit('New-password-2025');
    expect((await screen.findByRole('alert')).textContent).toContain(en.passwordIssues.history);
  });

  it('without a token says the link is not valid', async () => {
    stubApi();
    renderApp('/resetpassword');
    expect((await screen.findByRole('alert')).textContent).toBe(en.resetPassword.invalidLink);
  });
});
