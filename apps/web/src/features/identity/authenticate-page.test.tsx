import { fireEvent, screen, waitFor } from '@testing-library/react';
import type { TwoFactorChallenge } from '@pakt/domain';
import { describe, expect, it } from 'vitest';
import { sessionStore } from '../../api/session-store';
import { saveChallenge } from '../../api/two-factor';
import en from '../../i18n/en.json';
import { errorResponse, jsonResponse, stubApi, tokenGrant } from '../../test/fake-api';
import { inputLabelled, renderApp, typeInto } from '../../test/render-app';

const OTP_ID = '3f0c2a4e-1b2c-4d5e-8f90-a1b2c3d4e5f6';
const totp: TwoFactorChallenge = { otpId: OTP_ID, method: 'totp', maskedEmail: 'as***@ex***.com', maskedPhone: null, expiresIn: 300 };
const email: TwoFactorChallenge = { ...totp, method: 'email' };
const VERIFY = 'POST /msbapi/v2/authentication/otp/verify';
const GENERATE = 'POST /msbapi/v2/authentication/otp/generate';
const VALIDATE = 'POST /msbapi/v2/auth/otp/validate';
const open = (attemptsLeft: number, challenge: TwoFactorChallenge = totp) => () =>
  jsonResponse({ code: 1, data: { ...challenge, attemptsLeft } });

function submitCode(label: string, code: string) {
  typeInto(label, code);
  fireEvent.click(screen.getByRole('button', { name: en.authenticate.submit }));
}

describe('AuthenticatePage', () => {
  it('asks for the app code, verifies it and signs in', async () => {
    saveChallenge(totp);
    const { requestsTo } = stubApi({ [VERIFY]: () => jsonResponse({ code: 1, data: tokenGrant() }) });
    const { router } = renderApp('/authenticate');
    await screen.findByText(en.authenticate.totpIntro);
    submitCode(en.authenticate.appCode, '123456');
    // The dashboard waits for the tenant's permission settings before it shows.
    expect(await screen.findByRole('heading', { level: 1, name: 'Welcome, Asha' }, { timeout: 3000 })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/dashboard');
    expect(requestsTo('POST', '/msbapi/v2/authentication/otp/verify')[0]?.body).toEqual({ otpId: OTP_ID, code: '123456' });
    expect(requestsTo('POST', '/msbapi/v2/authentication/otp/generate')).toHaveLength(0);
    expect(sessionStore.get()?.accessToken).toBe('access-1');
    expect(sessionStorage.getItem('pakt.twoFactorChallenge')).toBeNull();
  });

  it('explains a wrong code (-138) and lets the person try again', async () => {
    saveChallenge(totp);
    stubApi({ [VERIFY]: () => errorResponse(-138, 400) });
    const { router } = renderApp('/authenticate');
    await screen.findByText(en.authenticate.totpIntro);
    submitCode(en.authenticate.appCode, '000000');
    expect((await screen.findByRole('alert')).textContent).toBe(en.authenticate.errors.wrongCode);
    expect(router.state.location.pathname).toBe('/authenticate');
    expect(sessionStore.get()).toBeNull();
  });

  it('checks the code has 6 digits before asking the server', async () => {
    saveChallenge(totp);
    const { requestsTo } = stubApi();
    renderApp('/authenticate');
    await screen.findByText(en.authenticate.totpIntro);
    submitCode(en.authenticate.appCode, '12');
    expect(await screen.findByText(en.authenticate.codeInvalid)).toBeTruthy();
    expect(requestsTo('POST', '/msbapi/v2/authentication/otp/verify')).toHaveLength(0);
  });

  it.each([
    { code: -217, status: 429, message: en.authenticate.errors.tooManyAttempts },
    { code: -196, status: 400, message: en.authenticate.errors.expired },
    { code: -14, status: 403, message: en.login.errors.locked },
  ])('sends the person back to sign in on $code, saying why', async ({ code, status, message }) => {
    saveChallenge(totp);
    stubApi({ [VERIFY]: () => errorResponse(code, status) });
    const { router } = renderApp('/authenticate');
    await screen.findByText(en.authenticate.totpIntro);
    submitCode(en.authenticate.appCode, '123456');
    expect((await screen.findByRole('alert')).textContent).toBe(message);
    expect(router.state.location.pathname).toBe('/login');
    expect(sessionStorage.getItem('pakt.twoFactorChallenge')).toBeNull();
  });

  it('mails the code on arrival and offers to resend once resendAfter has passed', async () => {
    saveChallenge(email);
    const { requestsTo } = stubApi({
      [GENERATE]: () => jsonResponse({ code: 1, data: { channel: 'email', sentTo: 'as***@ex***.com', resendAfter: 0 } }),
    });
    renderApp('/authenticate');
    expect((await screen.findByRole('status')).textContent).toBe(en.authenticate.sent.replace('{{email}}', 'as***@ex***.com'));
    expect(requestsTo('POST', '/msbapi/v2/authentication/otp/generate')).toHaveLength(1);
    const resend = await screen.findByRole('button', { name: en.authenticate.resend });
    fireEvent.click(resend);
    await waitFor(() => expect(requestsTo('POST', '/msbapi/v2/authentication/otp/generate')).toHaveLength(2));
  });

  it('holds the resend button back while the server says wait (-198)', async () => {
    saveChallenge(email);
    stubApi({ [GENERATE]: () => errorResponse(-198, 429) });
    renderApp('/authenticate');
    expect((await screen.findByRole('status')).textContent).toBe(en.authenticate.errors.resendTooSoon);
    const wait = screen.getByRole('button', { name: /Send a new code in \d+ seconds/ });
    expect(wait.hasAttribute('disabled')).toBe(true);
  });

  it('says how many tries are left after a wrong code', async () => {
    saveChallenge(totp);
    let left = 5;
    stubApi({
      [VALIDATE]: () => open(left)(),
      [VERIFY]: () => {
        left -= 1;
        return errorResponse(-138, 400);
      },
    });
    renderApp('/authenticate');
    await screen.findByText(en.authenticate.totpIntro);
    submitCode(en.authenticate.appCode, '000000');
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toBe(`${en.authenticate.errors.wrongCode} ${en.authenticate.attemptsLeft_other.replace('{{count}}', '4')}`),
    );
  });

  it('after a reload, goes back to sign in when the server says the challenge is over', async () => {
    saveChallenge(totp);
    stubApi({ [VALIDATE]: () => errorResponse(-196, 400) });
    const { router } = renderApp('/authenticate');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect((await screen.findByRole('alert')).textContent).toBe(en.authenticate.errors.expired);
  });

  it('offers to text the code when the account has a phone, and asks for the code from the SMS', async () => {
    const withPhone: TwoFactorChallenge = { ...email, maskedPhone: '********2345' };
    saveChallenge(withPhone);
    const { requestsTo } = stubApi({
      [VALIDATE]: open(5, withPhone),
      [GENERATE]: ({ body }) => {
        const channel = (body as { channel: string }).channel;
        return jsonResponse({ code: 1, data: { channel, sentTo: channel === 'sms' ? '********2345' : 'as***@ex***.com', resendAfter: 0 } });
      },
    });
    renderApp('/authenticate');
    await screen.findByText(en.authenticate.emailIntroChoice.replace('{{email}}', 'as***@ex***.com').replace('{{phone}}', '2345'));
    // The mailed code goes out on arrival; then the person chooses a text message instead.
    expect((await screen.findByRole('status')).textContent).toBe(en.authenticate.sent.replace('{{email}}', 'as***@ex***.com'));
    const textIt = await screen.findByRole('button', { name: en.authenticate.sendSms });
    // Held back like "send again" until the server's resendAfter has passed.
    await waitFor(() => expect(textIt.hasAttribute('disabled')).toBe(false));
    fireEvent.click(textIt);
    await waitFor(() => expect(requestsTo('POST', '/msbapi/v2/authentication/otp/generate')).toHaveLength(2));
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe(en.authenticate.smsSent.replace('{{phone}}', '2345')));
    expect(requestsTo('POST', '/msbapi/v2/authentication/otp/generate').map((r) => (r.body as { channel: string }).channel)).toEqual(['email', 'sms']);
    expect(screen.getByLabelText(new RegExp(en.authenticate.smsCode))).toBeTruthy();
    expect(screen.getByText(en.authenticate.smsIntro.replace('{{phone}}', '2345'))).toBeTruthy();
    expect(screen.getByRole('button', { name: en.authenticate.sendEmail })).toBeTruthy();
  });

  it('without a challenge goes back to sign in', async () => {
    stubApi();
    const { router } = renderApp('/authenticate');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect((await screen.findByRole('alert')).textContent).toBe(en.authenticate.errors.expired);
  });

  describe('with a recovery code instead of the app', () => {
    const r = en.authenticate.recovery;
    const openRecovery = async () => {
      await screen.findByText(en.authenticate.totpIntro);
      fireEvent.click(screen.getByRole('button', { name: r.open }));
      await screen.findByText(r.intro);
    };

    it('signs in with one, sent as typed', async () => {
      saveChallenge(totp);
      const { requestsTo } = stubApi({ [VERIFY]: () => jsonResponse({ code: 1, data: tokenGrant() }) });
      const { router } = renderApp('/authenticate');
      await openRecovery();
      submitCode(r.label, 'ABCDE-FGHIJ');
      expect(await screen.findByRole('heading', { level: 1, name: 'Welcome, Asha' }, { timeout: 3000 })).toBeTruthy();
      expect(router.state.location.pathname).toBe('/dashboard');
      expect(requestsTo('POST', '/msbapi/v2/authentication/otp/verify')[0]?.body).toEqual({ otpId: OTP_ID, recoveryCode: 'ABCDE-FGHIJ' });
      expect(sessionStorage.getItem('pakt.twoFactorChallenge')).toBeNull();
    });

    it('checks its shape before asking, explains a wrong or used one (-138), and goes back to the app code', async () => {
      saveChallenge(totp);
      const { requestsTo } = stubApi({ [VERIFY]: () => errorResponse(-138, 400) });
      renderApp('/authenticate');
      await openRecovery();
      submitCode(r.label, '123456');
      expect(await screen.findByText(r.invalid)).toBeTruthy();
      expect(requestsTo('POST', '/msbapi/v2/authentication/otp/verify')).toHaveLength(0);

      submitCode(r.label, 'abcde-fghij');
      expect((await screen.findByRole('alert')).textContent).toBe(r.wrong);
      expect(inputLabelled(r.label).value).toBe('');

      fireEvent.click(screen.getByRole('button', { name: r.useApp }));
      expect(await screen.findByText(en.authenticate.totpIntro)).toBeTruthy();
      expect(inputLabelled(en.authenticate.appCode)).toBeTruthy();
    });

    it('sends the person back to sign in when the tries are used up (-217)', async () => {
      saveChallenge(totp);
      stubApi({ [VERIFY]: () => errorResponse(-217, 429) });
      const { router } = renderApp('/authenticate');
      await openRecovery();
      submitCode(r.label, 'abcde-fghij');
      expect((await screen.findByRole('alert')).textContent).toBe(en.authenticate.errors.tooManyAttempts);
      expect(router.state.location.pathname).toBe('/login');
    });

    it('is not offered for a mailed code', async () => {
      saveChallenge(email);
      stubApi({ [GENERATE]: () => jsonResponse({ code: 1, data: { channel: 'email', sentTo: 'as***@ex***.com', resendAfter: 30 } }) });
      renderApp('/authenticate');
      await screen.findByRole('button', { name: en.authenticate.submit });
      expect(screen.queryByRole('button', { name: r.open })).toBeNull();
    });
  });
});
