import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { UserInfo } from '@pakt/domain';
import { describe, expect, it, vi } from 'vitest';
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
const CODES_LEFT = 'GET /msbapi/v1/users/twofactor/recoverycodes';
const CODES = ['abcde-fghij', 'klmno-pqrst', 'uvwxy-z2345', 'aaaaa-bbbbb', 'ccccc-ddddd', 'eeeee-fffff', 'ggggg-hhhhh', 'iiiii-jjjjj', 'kkkkk-lllll', 'mmmmm-nnnnn'];
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
      'POST /msbapi/v2/users/totp/confirm': () => jsonResponse({ code: 1, data: { user: { ...adminUser, totpEnabled: true }, recoveryCodes: CODES } }),
      [CODES_LEFT]: () => jsonResponse({ code: 1, data: { remaining: 10 } }),
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
    // The recovery codes, shown this once: closed only once the person says they stored them.
    const dialog = await screen.findByRole('dialog', { name: en.profile.recoveryCodes.title });
    expect(within(dialog).getAllByTestId('recovery-code').map((code) => code.textContent)).toEqual(CODES);
    expect(within(dialog).getByText(en.profile.recoveryCodes.storeNow)).toBeTruthy();
    const done = within(dialog).getByRole('button', { name: en.profile.recoveryCodes.done });
    expect(done.hasAttribute('disabled')).toBe(true);
    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(screen.getByRole('dialog', { name: en.profile.recoveryCodes.title })).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('checkbox', { name: en.profile.recoveryCodes.acknowledge }));
    fireEvent.click(done);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: en.profile.recoveryCodes.title })).toBeNull());
    expect(screen.queryAllByTestId('recovery-code')).toEqual([]);
    await waitFor(() => expect(screen.getByTestId('recovery-codes-left').textContent).toBe(en.profile.recoveryCodes.left_other.replace('{{count}}', '10')));
    expect(within(TWO_FACTOR()).getByRole('status').textContent).toBe(en.profile.twoFactor.enabledNotice);
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

  it('shows how many recovery codes are left, and makes new ones with the password, to copy or download once', async () => {
    sessionStore.set(signedInSession({ ...adminUser, totpEnabled: true }));
    let left = 3;
    const { requestsTo } = stubApi({
      [READ]: () => jsonResponse({ code: 1, data: { ...profile, totpEnabled: true } }),
      [CODES_LEFT]: () => jsonResponse({ code: 1, data: { remaining: left } }),
      'POST /msbapi/v1/users/twofactor/recoverycodes': ({ body }) => {
        if ((body as { password: string }).password !== 'Correct-horse-1') return errorResponse(-1004, 400);
        left = 10;
        return jsonResponse({ code: 1, data: { recoveryCodes: CODES } });
      },
    });
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const saved: Blob[] = [];
    URL.createObjectURL = vi.fn((blob: Blob) => {
      saved.push(blob);
      return 'blob:codes';
    });
    URL.revokeObjectURL = vi.fn();
    const clicked = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);

    renderApp('/profile');
    await waitFor(() => expect(screen.getByTestId('recovery-codes-left').textContent).toBe(en.profile.recoveryCodes.left_other.replace('{{count}}', '3')));
    fireEvent.click(within(TWO_FACTOR()).getByRole('button', { name: en.profile.recoveryCodes.regenerate }));
    expect(within(TWO_FACTOR()).getByText(en.profile.recoveryCodes.regenerateIntro)).toBeTruthy();
    typeInto(en.profile.twoFactor.password, 'wrong');
    fireEvent.click(within(TWO_FACTOR()).getByRole('button', { name: en.profile.recoveryCodes.regenerate }));
    expect((await within(TWO_FACTOR()).findByRole('alert')).textContent).toBe(en.profile.twoFactor.wrongPassword);
    typeInto(en.profile.twoFactor.password, 'Correct-horse-1');
    fireEvent.click(within(TWO_FACTOR()).getByRole('button', { name: en.profile.recoveryCodes.regenerate }));

    const dialog = await screen.findByRole('dialog', { name: en.profile.recoveryCodes.title });
    expect(within(dialog).getAllByTestId('recovery-code')).toHaveLength(10);
    expect(requestsTo('POST', '/msbapi/v1/users/twofactor/recoverycodes').map((r) => r.body)).toEqual([{ password: 'wrong' }, { password: 'Correct-horse-1' }]);

    fireEvent.click(within(dialog).getByRole('button', { name: en.profile.recoveryCodes.copy }));
    await waitFor(() => expect(writeText).toHaveBeenCalledOnce());
    const copied = (writeText.mock.calls[0] as unknown as [string])[0];
    for (const code of CODES) expect(copied).toContain(code);

    fireEvent.click(within(dialog).getByRole('button', { name: en.profile.recoveryCodes.download }));
    expect(clicked).toHaveBeenCalledOnce();
    const anchor = clicked.mock.contexts[0] as HTMLAnchorElement;
    expect(anchor.download).toBe('pakt-recovery-codes.txt');
    expect(saved[0]!.type).toBe('text/plain;charset=utf-8');
    expect((await saved[0]!.text()).split('\n').filter((line) => CODES.includes(line))).toEqual(CODES);

    fireEvent.click(within(dialog).getByRole('checkbox', { name: en.profile.recoveryCodes.acknowledge }));
    fireEvent.click(within(dialog).getByRole('button', { name: en.profile.recoveryCodes.done }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: en.profile.recoveryCodes.title })).toBeNull());
    expect(within(TWO_FACTOR()).getByRole('status').textContent).toBe(en.profile.recoveryCodes.regeneratedNotice);
    await waitFor(() => expect(screen.getByTestId('recovery-codes-left').textContent).toBe(en.profile.recoveryCodes.left_other.replace('{{count}}', '10')));
  });
});
