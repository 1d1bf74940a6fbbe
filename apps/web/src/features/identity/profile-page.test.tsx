import { fireEvent, screen, within } from '@testing-library/react';
import type { UserInfo } from '@pakt/domain';
import { describe, expect, it } from 'vitest';
import { sessionStore } from '../../api/session-store';
import en from '../../i18n/en.json';
import { adminUser, errorResponse, jsonResponse, signedInSession, stubApi } from '../../test/fake-api';
import { inputLabelled, renderApp, typeInto } from '../../test/render-app';

const profile: UserInfo = {
  id: adminUser.id,
  email: adminUser.email,
  status: 'enabled',
  type: 'internal',
  title: null,
  firstName: 'Asha',
  middleName: null,
  lastName: 'Rao',
  phone: null,
  company: 'Acme',
  department: null,
  timeZone: 'Asia/Kolkata',
  locale: 'en',
  createdOn: '2025-01-01T00:00:00.000Z',
  totpEnabled: false,
  hasPhoto: false,
};
const READ = 'GET /msbapi/v1/users/profile';
const TWO_FACTOR = () => screen.getByRole('region', { name: en.profile.twoFactor.heading });

describe('ProfilePage', () => {
  it('shows the profile and saves changes, renaming the person in the header', async () => {
    sessionStore.set(signedInSession());
    const { requestsTo } = stubApi({
      [READ]: () => jsonResponse({ code: 1, data: profile }),
      'POST /msbapi/v1/users/profile': ({ body }) => jsonResponse({ code: 1, data: { ...profile, ...(body as object) } }),
    });
    renderApp('/profile');
    await screen.findByRole('heading', { level: 1, name: en.profile.title });
    expect((await screen.findByLabelText(en.profile.fields.company)).getAttribute('value')).toBe('Acme');
    typeInto(en.profile.fields.firstName, 'Asha K');
    typeInto(en.profile.fields.phone, '+91 98765 43210');
    fireEvent.click(screen.getByRole('button', { name: en.profile.save }));
    expect((await screen.findByRole('status')).textContent).toBe(en.profile.saved);
    const [request] = requestsTo('POST', '/msbapi/v1/users/profile');
    expect(request?.body).toMatchObject({ firstName: 'Asha K', phone: '+91 98765 43210', company: 'Acme', timeZone: 'Asia/Kolkata', locale: 'en' });
    expect(sessionStore.get()?.user.firstName).toBe('Asha K');
  });

  it('checks the phone number before saving', async () => {
    sessionStore.set(signedInSession());
    const { requestsTo } = stubApi({ [READ]: () => jsonResponse({ code: 1, data: profile }) });
    renderApp('/profile');
    await screen.findByLabelText(en.profile.fields.company);
    typeInto(en.profile.fields.phone, 'call me');
    fireEvent.click(screen.getByRole('button', { name: en.profile.save }));
    expect(await screen.findByText(en.profile.invalid.phone)).toBeTruthy();
    expect(requestsTo('POST', '/msbapi/v1/users/profile')).toHaveLength(0);
  });

  it('enrols an authenticator: password, QR code and secret, then a code', async () => {
    sessionStore.set(signedInSession());
    const { requestsTo } = stubApi({
      [READ]: () => jsonResponse({ code: 1, data: profile }),
      'POST /msbapi/v2/users/totp': () =>
        jsonResponse({ code: 1, data: { secret: 'JBSWY3DPEHPK3PXP', otpauthUri: 'otpauth://totp/Pakt:asha@example.com?secret=JBSWY3DPEHPK3PXP&issuer=Pakt' } }),
      'POST /msbapi/v2/users/totp/confirm': () => jsonResponse({ code: 1, data: { ...adminUser, totpEnabled: true } }),
    });
    renderApp('/profile');
    await screen.findByLabelText(en.profile.fields.company);
    fireEvent.click(within(TWO_FACTOR()).getByRole('button', { name: en.profile.twoFactor.enable }));
    typeInto(en.profile.twoFactor.password, 'Correct-horse-1');
    fireEvent.click(screen.getByRole('button', { name: en.profile.twoFactor.continue }));

    expect((await screen.findByTestId('totp-secret')).textContent).toBe('JBSWY3DPEHPK3PXP');
    const qr = screen.getByRole('img', { name: en.profile.twoFactor.qrLabel });
    expect(qr.querySelector('path')?.getAttribute('d')?.length).toBeGreaterThan(100);
    expect(requestsTo('POST', '/msbapi/v2/users/totp')[0]?.body).toEqual({ password: 'Correct-horse-1' });

    typeInto(en.authenticate.appCode, '123456');
    fireEvent.click(screen.getByRole('button', { name: en.profile.twoFactor.confirm }));
    expect((await screen.findByRole('status')).textContent).toBe(en.profile.twoFactor.enabledNotice);
    expect(screen.getByTestId('two-factor-status').textContent).toBe(en.profile.twoFactor.on);
    expect(requestsTo('POST', '/msbapi/v2/users/totp/confirm')[0]?.body).toEqual({ code: '123456' });
    expect(sessionStore.get()?.user.totpEnabled).toBe(true);
  });

  it('explains a wrong password (-1004) and a wrong code (-138)', async () => {
    sessionStore.set(signedInSession());
    let attempts = 0;
    stubApi({
      [READ]: () => jsonResponse({ code: 1, data: profile }),
      'POST /msbapi/v2/users/totp': () =>
        ++attempts === 1
          ? errorResponse(-1004, 400)
          : jsonResponse({ code: 1, data: { secret: 'JBSWY3DPEHPK3PXP', otpauthUri: 'otpauth://totp/Pakt:a?secret=JBSWY3DPEHPK3PXP' } }),
      'POST /msbapi/v2/users/totp/confirm': () => errorResponse(-138, 400),
    });
    renderApp('/profile');
    await screen.findByLabelText(en.profile.fields.company);
    fireEvent.click(within(TWO_FACTOR()).getByRole('button', { name: en.profile.twoFactor.enable }));
    typeInto(en.profile.twoFactor.password, 'wrong');
    fireEvent.click(screen.getByRole('button', { name: en.profile.twoFactor.continue }));
    expect((await screen.findByRole('alert')).textContent).toBe(en.profile.twoFactor.wrongPassword);
    typeInto(en.profile.twoFactor.password, 'Correct-horse-1');
    fireEvent.click(screen.getByRole('button', { name: en.profile.twoFactor.continue }));
    await screen.findByTestId('totp-secret');
    typeInto(en.authenticate.appCode, '000000');
    fireEvent.click(screen.getByRole('button', { name: en.profile.twoFactor.confirm }));
    expect((await screen.findByRole('alert')).textContent).toBe(en.authenticate.errors.wrongCode);
    expect(inputLabelled(en.authenticate.appCode).value).toBe('');
  });

  it('switches two-factor sign-in off with the password', async () => {
    sessionStore.set(signedInSession({ ...adminUser, totpEnabled: true }));
    const { requestsTo } = stubApi({
      [READ]: () => jsonResponse({ code: 1, data: { ...profile, totpEnabled: true } }),
      'POST /msbapi/v2/users/totp/disable': () => jsonResponse({ code: 1, data: { ...adminUser, totpEnabled: false } }),
    });
    renderApp('/profile');
    await screen.findByLabelText(en.profile.fields.company);
    expect(screen.getByTestId('two-factor-status').textContent).toBe(en.profile.twoFactor.on);
    fireEvent.click(within(TWO_FACTOR()).getByRole('button', { name: en.profile.twoFactor.disable }));
    typeInto(en.profile.twoFactor.password, 'Correct-horse-1');
    fireEvent.click(within(TWO_FACTOR()).getByRole('button', { name: en.profile.twoFactor.disable }));
    expect((await screen.findByRole('status')).textContent).toBe(en.profile.twoFactor.disabledNotice);
    expect(requestsTo('POST', '/msbapi/v2/users/totp/disable')[0]?.body).toEqual({ password: 'Correct-horse-1' });
    expect(sessionStore.get()?.user.totpEnabled).toBe(false);
  });
});
