import { DEFAULT_PASSWORD_CONFIG, type SessionUser } from '@pakt/domain';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../api/query-client';
import { sessionStore, type Session } from '../api/session-store';
import en from '../i18n/en.json';
import { AppProviders } from '../app/providers';
import {
  adminUser,
  errorResponse,
  jsonResponse,
  rootUser,
  signedInSession,
  stubApi,
  TENANT_ACME,
  TENANT_GLOBEX,
  tokenGrant,
  userInfoOf,
} from '../test/fake-api';
import { inputLabelled, renderApp, typeInto } from '../test/render-app';
import { SetPasswordDialog, type InvitationContext, type SetPasswordDialogProps } from './set-password-dialog';

const CHANGE = '/msbapi/v1/users/password';
const REGISTER = '/msbapi/public/users/registerusertenant';

const dialog = (name: string) => screen.findByRole('dialog', { name });

function renderDialog(props: SetPasswordDialogProps) {
  return render(
    <AppProviders queryClient={createQueryClient()} env="test">
      <SetPasswordDialog {...props} />
    </AppProviders>,
  );
}

describe('SetPasswordDialog, update mode (opened from the profile)', () => {
  async function openFromProfile() {
    const rendered = renderApp('/profile');
    const card = await screen.findByRole('region', { name: en.profile.passwordHeading });
    // The profile no longer sends people off to /changepassword to do this.
    expect(within(card).queryByRole('link')).toBeNull();
    fireEvent.click(within(card).getByRole('button', { name: en.changePassword.title }));
    return { ...rendered, dialog: await dialog(en.changePassword.title) };
  }

  function fill(oldPassword: string, password: string, confirm = password) {
    typeInto(en.changePassword.oldPassword, oldPassword);
    typeInto(en.changePassword.newPassword, password);
    typeInto(en.common.confirmPassword, confirm);
    // The profile's own "Change password" button has the same name; the dialog's is the one meant.
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: en.changePassword.submit }));
  }

  const READ = { 'GET /msbapi/v1/users/profile': () => jsonResponse({ code: 1, data: userInfoOf() }) };

  it("checks the new password against the tenant's rules as it is typed, changes it and says so", async () => {
    sessionStore.set(signedInSession());
    const { requestsTo } = stubApi({
      ...READ,
      [`GET /msbapi/public/passwordconfig/${TENANT_ACME}`]: () =>
        jsonResponse({ code: 1, data: { ...DEFAULT_PASSWORD_CONFIG, minLength: 12, requireSpecial: true } }),
      [`POST ${CHANGE}`]: () => jsonResponse({ code: 1, data: { ...adminUser, firstName: 'Asha K' } }),
    });
    const { dialog: modal, router } = await openFromProfile();
    expect(await within(modal).findByText('at least 12 characters')).toBeTruthy();
    typeInto(en.changePassword.newPassword, 'Short-1');
    expect(modal.querySelector('[data-rule="minLength"]')?.getAttribute('data-met')).toBe('false');
    typeInto(en.changePassword.newPassword, 'Long-enough-2025');
    expect(modal.querySelector('[data-rule="minLength"]')?.getAttribute('data-met')).toBe('true');
    expect(modal.querySelector('[data-rule="special"]')?.getAttribute('data-met')).toBe('true');

    fill('Old-password-1', 'Long-enough-2025');
    expect((await within(modal).findByRole('status')).textContent).toBe(en.passwordChangeSuccess);
    expect(requestsTo('POST', CHANGE)[0]?.body).toEqual({
      oldPassword: 'Old-password-1',
      newPassword: 'Long-enough-2025',
      confirmPassword: 'Long-enough-2025',
    });
    expect(sessionStore.get()?.user.firstName).toBe('Asha K');
    expect(router.state.location.pathname).toBe('/profile');

    fireEvent.click(within(modal).getByRole('button', { name: en.setPassword.done }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('says a wrong current password (-17) at that field and keeps the dialog open', async () => {
    sessionStore.set(signedInSession());
    stubApi({ ...READ, [`POST ${CHANGE}`]: () => errorResponse(-17, 400, 'wrong') });
    const { dialog: modal } = await openFromProfile();
    fill('Not-it-1', 'New-password-2025');
    expect(await within(modal).findByText(en.changePassword.wrongOld)).toBeTruthy();
    expect(inputLabelled(en.changePassword.oldPassword).value).toBe('');
    expect(inputLabelled(en.changePassword.newPassword).value).toBe('New-password-2025');
  });

  it('lists the rules the server refused (-16), history included', async () => {
    sessionStore.set(signedInSession());
    stubApi({
      ...READ,
      [`POST ${CHANGE}`]: () =>
        jsonResponse({ code: -16, data: null, message: 'passwordInvalid', issues: [{ path: 'newPassword', message: 'history' }] }, 400),
    });
    const { dialog: modal } = await openFromProfile();
    fill('Old-password-1', 'New-password-2025');
    const alert = await within(modal).findByRole('alert');
    expect(alert.textContent).toContain(en.passwordInvalid);
    expect(alert.querySelector('[data-issue="history"]')?.textContent).toBe(en.passwordIssues.history);
  });

  it('checks the form before asking the server: all fields, rules and the confirmation', async () => {
    sessionStore.set(signedInSession());
    const { requestsTo } = stubApi(READ);
    const { dialog: modal } = await openFromProfile();
    fill('', 'short', 'other');
    expect(await within(modal).findByText(en.passwordInvalid)).toBeTruthy();
    expect(within(modal).getByText(en.passwordMissMatch)).toBeTruthy();
    expect(within(modal).getByText(en.common.required)).toBeTruthy();
    expect(requestsTo('POST', CHANGE)).toHaveLength(0);
  });

  it.each([
    { answer: () => errorResponse(-2, 500), message: en.passwordChangeFailed },
    {
      answer: () => {
        throw new TypeError('Failed to fetch');
      },
      message: en.common.unreachable,
    },
  ])('explains a failure in the dialog, without leaving the page: $message', async ({ answer, message }) => {
    sessionStore.set(signedInSession());
    stubApi({ ...READ, [`POST ${CHANGE}`]: answer });
    const { dialog: modal, router } = await openFromProfile();
    fill('Old-password-1', 'New-password-2025');
    expect((await within(modal).findByRole('alert')).textContent).toBe(message);
    expect(router.state.location.pathname).toBe('/profile');
  });

  it('says when the password rules cannot be loaded, and guides with the defaults', async () => {
    sessionStore.set(signedInSession());
    stubApi({ ...READ, [`GET /msbapi/public/passwordconfig/${TENANT_ACME}`]: () => errorResponse(-2, 500) });
    const { dialog: modal } = await openFromProfile();
    expect(await within(modal).findByText(en.passwordConfigError)).toBeTruthy();
    expect(within(modal).getByText(`at least ${DEFAULT_PASSWORD_CONFIG.minLength} characters`)).toBeTruthy();
  });

  it('closes on Cancel without sending anything, and opens empty again', async () => {
    sessionStore.set(signedInSession());
    const { requestsTo } = stubApi(READ);
    const { dialog: modal } = await openFromProfile();
    typeInto(en.changePassword.oldPassword, 'Old-password-1');
    fireEvent.click(within(modal).getByRole('button', { name: en.setPassword.cancel }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    fireEvent.click(screen.getByRole('button', { name: en.changePassword.title }));
    await dialog(en.changePassword.title);
    expect(inputLabelled(en.changePassword.oldPassword).value).toBe('');
    expect(requestsTo('POST', CHANGE)).toHaveLength(0);
  });

  it('uses the rules of no tenant for a tenantless account (root): the defaults, asked of nobody', async () => {
    sessionStore.set(signedInSession(rootUser));
    const { fetchMock } = stubApi();
    const onUpdated = vi.fn<(user: SessionUser) => void>();
    renderDialog({ mode: 'update', opened: true, onClose: vi.fn(), onUpdated });
    await dialog(en.changePassword.title);
    expect(screen.getByText(`at least ${DEFAULT_PASSWORD_CONFIG.minLength} characters`)).toBeTruthy();
    expect(fetchMock.mock.calls.filter(([url]) => String(url).includes('passwordconfig'))).toHaveLength(0);
  });
});

describe('SetPasswordDialog, register mode (an external invitee)', () => {
  const invitation: InvitationContext = {
    inviteCode: 'pki_invite-1',
    tenantUuid: TENANT_GLOBEX,
    email: 'vendor@partner.test',
    firstName: 'Vikram',
    lastName: 'Shah',
  };
  const invitee: SessionUser = {
    ...adminUser,
    id: '3a4b5c6d-7e8f-4a0b-9c1d-2e3f4a5b6c7d',
    email: invitation.email,
    firstName: 'Vikram',
    lastName: 'Shah',
    type: 'external',
    tenants: [{ tenantUuid: TENANT_GLOBEX, tenantName: 'Globex', userRole: 'signer', userLoginType: 'Email' }],
  };

  function setup(routes: Parameters<typeof stubApi>[0] = {}) {
    const api = stubApi({ [`POST ${REGISTER}`]: () => jsonResponse({ code: 1, data: tokenGrant(invitee) }), ...routes });
    const onClose = vi.fn<() => void>();
    const onRegistered = vi.fn<(session: Session) => void>();
    renderDialog({ mode: 'register', opened: true, onClose, invitation, onRegistered });
    return { ...api, onClose, onRegistered };
  }

  function submit(password: string, confirm = password) {
    typeInto(en.common.password, password);
    typeInto(en.common.confirmPassword, confirm);
    fireEvent.click(screen.getByRole('button', { name: en.setPassword.registerSubmit }));
  }

  it('asks only for the new password, registers with the invitation and signs the person in', async () => {
    const { requestsTo, onRegistered, onClose } = setup();
    const modal = await dialog(en.setPassword.registerTitle);
    expect(within(modal).getByText(en.setPassword.registerIntro.replace('{{name}}', 'Vikram Shah'))).toBeTruthy();
    expect(inputLabelled(en.common.email).value).toBe(invitation.email);
    expect(inputLabelled(en.common.email).readOnly).toBe(true);
    expect(within(modal).queryByLabelText(new RegExp(en.changePassword.oldPassword))).toBeNull();
    // The rules are those of the tenant that invited them.
    await waitFor(() => expect(requestsTo('GET', `/msbapi/public/passwordconfig/${TENANT_GLOBEX}`)).toHaveLength(1));

    submit('Vendor-password-2025');
    expect((await within(modal).findByRole('status')).textContent).toBe(en.REGISTERATION_SUCCESS);
    expect(requestsTo('POST', REGISTER)[0]?.body).toEqual({
      userEmail: invitation.email,
      firstName: 'Vikram',
      lastName: 'Shah',
      userType: 'external',
      userLoginType: 'Email',
      newPassword: 'Vendor-password-2025',
      confirmPassword: 'Vendor-password-2025',
      inviteCode: 'pki_invite-1',
      tenantUuid: TENANT_GLOBEX,
    });
    expect(sessionStore.get()).toMatchObject({ accessToken: 'access-1', tenantUuid: TENANT_GLOBEX, user: { email: invitation.email } });
    expect(onRegistered).toHaveBeenCalledExactlyOnceWith(expect.objectContaining({ user: invitee }));

    fireEvent.click(within(modal).getByRole('button', { name: en.setPassword.done }));
    expect(onClose).toHaveBeenCalledOnce();
  });

  it('signs out whoever was signed in in this browser before starting the new session', async () => {
    sessionStore.set(signedInSession(adminUser, { accessToken: 'someone-else' }));
    const { requestsTo } = setup({ 'POST /msbapi/v1/logout': () => jsonResponse({ code: 1, data: { loggedOut: true } }) });
    await dialog(en.setPassword.registerTitle);
    submit('Vendor-password-2025');
    await screen.findByText(en.REGISTERATION_SUCCESS);
    expect(requestsTo('POST', '/msbapi/v1/logout')[0]?.headers.get('Authorization')).toBe('Bearer someone-else');
    expect(sessionStore.get()?.user.email).toBe(invitation.email);
  });

  it('checks the password and its confirmation before asking the server', async () => {
    const { requestsTo } = setup();
    const modal = await dialog(en.setPassword.registerTitle);
    submit('short', 'other');
    expect(await within(modal).findByText(en.passwordInvalid)).toBeTruthy();
    expect(within(modal).getByText(en.passwordMissMatch)).toBeTruthy();
    expect(requestsTo('POST', REGISTER)).toHaveLength(0);
  });

  it.each([
    { answer: () => errorResponse(-120, 410), message: en.register.invalid.expired },
    { answer: () => errorResponse(-173, 403), message: en.RESPONSE_MSG_USER_INVITATION_CANCELLED },
    { answer: () => errorResponse(-81, 409), message: en.register.invalid.alreadyRegistered },
    { answer: () => errorResponse(-2, 500), message: en.REGISTERATION_FAIL },
    {
      answer: () => jsonResponse({ code: -6, data: null, message: 'bad', issues: [{ path: 'newPassword', message: 'too long' }] }, 400),
      message: en.passwordInvalid,
    },
  ])('explains a refused registration: $message', async ({ answer, message }) => {
    setup({ [`POST ${REGISTER}`]: answer });
    const modal = await dialog(en.setPassword.registerTitle);
    submit('Vendor-password-2025');
    expect((await within(modal).findByRole('alert')).textContent).toBe(message);
    expect(sessionStore.get()).toBeNull();
  });

  it('lists the rules the server refused (-16)', async () => {
    setup({
      [`POST ${REGISTER}`]: () =>
        jsonResponse({ code: -16, data: null, message: 'passwordInvalid', issues: [{ path: 'newPassword', message: 'uppercase' }] }, 400),
    });
    const modal = await dialog(en.setPassword.registerTitle);
    submit('Vendor-password-2025');
    const alert = await within(modal).findByRole('alert');
    expect(alert.querySelector('[data-issue="uppercase"]')?.textContent).toBe(
      en.passwordIssues.needs.replace('{{rule}}', en.passwordRules.uppercase),
    );
  });

  it('says when the password rules cannot be loaded', async () => {
    setup({ [`GET /msbapi/public/passwordconfig/${TENANT_GLOBEX}`]: () => errorResponse(-2, 500) });
    const modal = await dialog(en.setPassword.registerTitle);
    expect(await within(modal).findByText(en.passwordConfigError)).toBeTruthy();
  });
});
