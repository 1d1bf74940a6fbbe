import type { TenantSummary } from '@pakt/domain';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { sessionStore } from '../../api/session-store';
import en from '../../i18n/en.json';
import { aliveData, configurationData, errorResponse, jsonResponse, rootUser, signedInSession, stubApi, TENANT_ACME, TENANT_GLOBEX, tokenGrant } from '../../test/fake-api';
import { renderApp, typeInto } from '../../test/render-app';

const SETUP = '/msbapi/public/setup';
const TENANTS = '/msbapi/v1/root/tenants';
const SETTINGS = '/msbapi/v1/root/settings';

const acme: TenantSummary = {
  tenantUuid: TENANT_ACME,
  tenantName: 'Acme Legal',
  tenantCreatedOn: '2025-01-15T10:30:00.000Z',
  status: 'ACTIVE',
  userCount: 3,
  admins: [{ email: 'asha@example.com', status: 'active' }],
};

/** The empty list's words, naming the create form wherever the layout puts it. */
const EMPTY = en.root.empty.replace('{{form}}', en.root.create.title);

const rule = (name: string) => document.querySelector(`[data-rule="${name}"]`)?.getAttribute('data-met');

function fillSetup(password: string, confirm = password) {
  typeInto(en.common.email, 'root@example.com');
  typeInto(en.common.firstName, 'Ravi');
  typeInto(en.common.lastName, 'Iyer');
  typeInto(en.common.password, password);
  typeInto(en.common.confirmPassword, confirm);
}

describe('RootPage first-run setup', () => {
  it('creates root with the token from the link, signs in and opens the console', async () => {
    const { requestsTo } = stubApi({
      [`GET ${SETUP}`]: () => jsonResponse({ code: 1, data: { required: true } }),
      [`POST ${SETUP}`]: () => jsonResponse({ code: 1, data: tokenGrant(rootUser) }),
      [`GET ${TENANTS}`]: () => jsonResponse({ code: 1, data: { tenants: [] } }),
    });
    const { router } = renderApp('/root?setup=secret-token');
    expect(await screen.findByRole('heading', { level: 1, name: en.setup.title })).toBeTruthy();

    fillSetup('Correct-horse-1');
    fireEvent.click(screen.getByRole('button', { name: en.setup.submit }));

    expect(await screen.findByRole('heading', { level: 1, name: en.root.title })).toBeTruthy();
    expect(router.state.location.pathname + router.state.location.search).toBe('/root');
    expect(requestsTo('POST', SETUP)[0]?.body).toEqual({
      token: 'secret-token',
      email: 'root@example.com',
      firstName: 'Ravi',
      lastName: 'Iyer',
      password: 'Correct-horse-1',
    });
    expect(sessionStore.get()?.user.isRoot).toBe(true);
    expect(await screen.findByText(EMPTY)).toBeTruthy();
  });

  it('shows each password rule turning met as the password is typed', async () => {
    stubApi({ [`GET ${SETUP}`]: () => jsonResponse({ code: 1, data: { required: true } }) });
    renderApp('/root?setup=t');
    await screen.findByRole('heading', { level: 1, name: en.setup.title });
    expect(['minLength', 'uppercase', 'lowercase', 'digit'].map(rule)).toEqual(['false', 'false', 'false', 'false']);
    expect(screen.getByText('at least 10 characters')).toBeTruthy();

    typeInto(en.common.password, 'abc');
    expect(['minLength', 'uppercase', 'lowercase', 'digit'].map(rule)).toEqual(['false', 'false', 'true', 'false']);
    typeInto(en.common.password, 'Abcdefghij1');
    expect(['minLength', 'uppercase', 'lowercase', 'digit'].map(rule)).toEqual(['true', 'true', 'true', 'true']);
  });

  it('refuses a weak or mismatched password before asking the server', async () => {
    const { requestsTo } = stubApi({ [`GET ${SETUP}`]: () => jsonResponse({ code: 1, data: { required: true } }) });
    renderApp('/root?setup=t');
    await screen.findByRole('heading', { level: 1, name: en.setup.title });
    fillSetup('short', 'shorter');
    fireEvent.click(screen.getByRole('button', { name: en.setup.submit }));
    expect(await screen.findByText(en.passwordInvalid)).toBeTruthy();
    expect(screen.getByText(en.passwordMissMatch)).toBeTruthy();
    expect(requestsTo('POST', SETUP)).toHaveLength(0);
  });

  it('explains a setup token the server refuses', async () => {
    stubApi({
      [`GET ${SETUP}`]: () => jsonResponse({ code: 1, data: { required: true } }),
      [`POST ${SETUP}`]: () => errorResponse(-11, 403),
    });
    const { router } = renderApp('/root?setup=wrong');
    await screen.findByRole('heading', { level: 1, name: en.setup.title });
    fillSetup('Correct-horse-1');
    fireEvent.click(screen.getByRole('button', { name: en.setup.submit }));
    expect((await screen.findByRole('alert')).textContent).toBe(en.setup.invalidToken);
    expect(router.state.location.pathname).toBe('/root');
    expect(sessionStore.get()).toBeNull();
  });

  it('says the install is already set up when it is', async () => {
    stubApi({ [`GET ${SETUP}`]: () => jsonResponse({ code: 1, data: { required: false } }) });
    renderApp('/root?setup=old-token');
    expect(await screen.findByRole('heading', { level: 1, name: en.setup.done.title })).toBeTruthy();
    expect(screen.getByRole('link', { name: en.common.signIn }).getAttribute('href')).toBe('/login');
    expect(screen.queryByRole('button', { name: en.setup.submit })).toBeNull();
  });
});

describe('RootPage access', () => {
  it('sends a visitor who is not signed in to /login', async () => {
    stubApi();
    const { router } = renderApp('/root');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
  });

  it('sends root to /changepassword first when their password must change', async () => {
    stubApi();
    sessionStore.set(signedInSession({ ...rootUser, status: 'expired' }));
    const { router } = renderApp('/root');
    expect(await screen.findByRole('heading', { level: 1, name: en.changePassword.forcedTitle })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/changepassword');
  });

  it('refuses a signed-in user who is not root', async () => {
    stubApi();
    sessionStore.set(signedInSession());
    const { router } = renderApp('/root');
    expect(await screen.findByRole('heading', { level: 1, name: en.accessDenied.forbidden.title })).toBeTruthy();
    expect(router.state.location.search).toBe('?status=forbidden');
  });
});

describe('RootPage tenant console', () => {
  it("names the create form in the empty list's words, and the form is on the page", async () => {
    stubApi({ [`GET ${TENANTS}`]: () => jsonResponse({ code: 1, data: { tenants: [] } }) });
    sessionStore.set(signedInSession(rootUser));
    renderApp('/root');
    const empty = await screen.findByText(EMPTY);
    expect(empty.textContent).toContain(`“${en.root.create.title}”`);
    expect(empty.textContent).not.toMatch(/below|above/);
    expect(screen.getByText(en.root.create.title)).toBeTruthy();
  });

  it("shows the server's internals (version, database, languages) in its own tab", async () => {
    stubApi({ [`GET ${TENANTS}`]: () => jsonResponse({ code: 1, data: { tenants: [] } }) });
    sessionStore.set(signedInSession(rootUser));
    renderApp('/root');
    fireEvent.click(await screen.findByRole('tab', { name: en.root.server.tab }));
    expect((await screen.findByTestId('server-status')).textContent).toBe(en.root.server.up);
    expect(screen.getByRole('heading', { level: 2, name: en.root.server.heading })).toBeTruthy();
    expect(screen.getByText(aliveData.version)).toBeTruthy();
    expect(screen.getByText(en.root.server.databaseKinds.embedded)).toBeTruthy();
    expect(await screen.findByText('English, हिन्दी')).toBeTruthy();
  });

  it('lists the tenants with their size and administrators', async () => {
    stubApi({ [`GET ${TENANTS}`]: () => jsonResponse({ code: 1, data: { tenants: [acme] } }) });
    sessionStore.set(signedInSession(rootUser));
    renderApp('/root');
    const card = await screen.findByRole('listitem', { name: 'Acme Legal' });
    expect(within(card).getByText('3 users')).toBeTruthy();
    expect(within(card).getByText('asha@example.com')).toBeTruthy();
    expect(within(card).getByText(en.root.adminStatus.active)).toBeTruthy();
  });

  it('shows a sign-up whose owner has not confirmed the address as pending, not active', async () => {
    const newco: TenantSummary = { ...acme, tenantUuid: TENANT_GLOBEX, tenantName: 'NewCo', status: 'PENDING', userCount: 1, admins: [{ email: 'kiran@newco.test', status: 'unconfirmed' }] };
    stubApi({ [`GET ${TENANTS}`]: () => jsonResponse({ code: 1, data: { tenants: [acme, newco] } }) });
    sessionStore.set(signedInSession(rootUser));
    renderApp('/root');
    const pending = await screen.findByRole('listitem', { name: 'NewCo' });
    expect(within(pending).getByText(en.root.status.PENDING)).toBeTruthy();
    expect(within(pending).getByText(en.root.pendingHint)).toBeTruthy();
    expect(within(pending).getByText(en.root.adminStatus.unconfirmed)).toBeTruthy();
    expect(within(pending).queryByText(en.root.adminStatus.active)).toBeNull();
    const active = screen.getByRole('listitem', { name: 'Acme Legal' });
    expect(within(active).queryByText(en.root.status.PENDING)).toBeNull();
  });

  it('says why self sign-up is off on an install without mail, and lets root switch it on', async () => {
    const off = { mailDelivery: 'outbox', signup: { enabled: false, byDefault: false, chosen: null } };
    const on = { mailDelivery: 'outbox', signup: { enabled: true, byDefault: false, chosen: true } };
    const { requestsTo } = stubApi(
      {
        [`GET ${TENANTS}`]: () => jsonResponse({ code: 1, data: { tenants: [acme] } }),
        [`GET ${SETTINGS}`]: () => jsonResponse({ code: 1, data: off }),
        [`PUT ${SETTINGS}`]: ({ body }) => jsonResponse({ code: 1, data: (body as { signup: boolean | null }).signup ? on : off }),
      },
      { ...configurationData, mailDelivery: 'outbox' },
    );
    sessionStore.set(signedInSession(rootUser));
    renderApp('/root');
    const card = await screen.findByRole('region', { name: en.root.signup.title });
    const toggle = await within(card).findByRole('switch', { name: new RegExp(en.root.signup.label) });
    expect((toggle as HTMLInputElement).checked).toBe(false);
    expect(within(card).getByText(en.root.signup.noMail)).toBeTruthy();
    expect(within(card).getByText(en.root.signup.default)).toBeTruthy();

    fireEvent.click(toggle);
    await waitFor(() => expect((within(card).getByRole('switch', { name: new RegExp(en.root.signup.label) }) as HTMLInputElement).checked).toBe(true));
    expect(requestsTo('PUT', SETTINGS)[0]?.body).toEqual({ signup: true });
    expect(within(card).getByText(en.root.signup.chosen.replace('{{state}}', en.root.signup.off))).toBeTruthy();
    fireEvent.click(within(card).getByRole('button', { name: en.root.signup.reset }));
    await waitFor(() => expect(requestsTo('PUT', SETTINGS)[1]?.body).toEqual({ signup: null }));
    await waitFor(() => expect((within(card).getByRole('switch', { name: new RegExp(en.root.signup.label) }) as HTMLInputElement).checked).toBe(false));
  });

  it('says an invitation is in the outbox, not sent, on an install without mail', async () => {
    const created: TenantSummary = { ...acme, userCount: 0, admins: [{ email: 'asha@example.com', status: 'invited' }] };
    stubApi(
      {
        [`GET ${TENANTS}`]: () => jsonResponse({ code: 1, data: { tenants: [] } }),
        [`POST ${TENANTS}`]: () => jsonResponse({ code: 1, data: { tenant: created, inviteLink: 'http://pakt.test/register?invite=abc' } }),
      },
      { ...configurationData, mailDelivery: 'outbox' },
    );
    sessionStore.set(signedInSession(rootUser));
    renderApp('/root');
    await screen.findByText(EMPTY);
    expect(await screen.findByText(en.root.create.adminHintOutbox)).toBeTruthy();
    typeInto(en.root.create.tenantName, 'Acme Legal');
    typeInto(en.common.email, 'asha@example.com');
    typeInto(en.common.firstName, 'Asha');
    typeInto(en.common.lastName, 'Rao');
    fireEvent.click(screen.getByRole('button', { name: en.root.create.submit }));
    const panel = await screen.findByRole('status');
    expect(within(panel).getByText(en.root.invite.descriptionOutbox.replace('{{email}}', 'asha@example.com'))).toBeTruthy();
    expect(panel.textContent).not.toContain('was sent');
  });

  it('creates a tenant, shows its invite link once with a copy button, and refreshes the list', async () => {
    let tenants: TenantSummary[] = [];
    const created: TenantSummary = { ...acme, userCount: 0, admins: [{ email: 'asha@example.com', status: 'invited' }] };
    const inviteLink = `http://pakt.test/register?invite=abc123&tenant=${TENANT_ACME}`;
    const { requestsTo } = stubApi({
      [`GET ${TENANTS}`]: () => jsonResponse({ code: 1, data: { tenants } }),
      [`POST ${TENANTS}`]: () => {
        tenants = [created];
        return jsonResponse({ code: 1, data: { tenant: created, inviteLink } });
      },
    });
    sessionStore.set(signedInSession(rootUser));
    renderApp('/root');
    await screen.findByText(EMPTY);

    typeInto(en.root.create.tenantName, ' Acme Legal ');
    typeInto(en.common.email, 'asha@example.com');
    typeInto(en.common.firstName, 'Asha');
    typeInto(en.common.lastName, 'Rao');
    fireEvent.click(screen.getByRole('button', { name: en.root.create.submit }));

    const panel = await screen.findByRole('status');
    expect(within(panel).getByText('Acme Legal is ready')).toBeTruthy();
    expect((within(panel).getByRole('textbox', { name: en.root.invite.link }) as HTMLInputElement).value).toBe(inviteLink);
    expect(within(panel).getByRole('button', { name: en.root.invite.copy })).toBeTruthy();
    expect(requestsTo('POST', TENANTS)[0]?.body).toEqual({
      tenantName: 'Acme Legal',
      admin: { email: 'asha@example.com', firstName: 'Asha', lastName: 'Rao' },
    });
    expect(await screen.findByRole('listitem', { name: 'Acme Legal' })).toBeTruthy();
    // The form is empty again for the next tenant.
    expect((screen.getByRole('textbox', { name: new RegExp(`^${en.root.create.tenantName}`) }) as HTMLInputElement).value).toBe('');

    fireEvent.click(within(panel).getByRole('button', { name: en.root.invite.dismiss }));
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('points at the tenant name when the server says it exists (-87)', async () => {
    stubApi({
      [`GET ${TENANTS}`]: () => jsonResponse({ code: 1, data: { tenants: [acme] } }),
      [`POST ${TENANTS}`]: () => errorResponse(-87, 409),
    });
    sessionStore.set(signedInSession(rootUser));
    renderApp('/root');
    await screen.findByRole('listitem', { name: 'Acme Legal' });
    typeInto(en.root.create.tenantName, 'Acme Legal');
    typeInto(en.common.email, 'other@example.com');
    typeInto(en.common.firstName, 'O');
    typeInto(en.common.lastName, 'P');
    fireEvent.click(screen.getByRole('button', { name: en.root.create.submit }));
    expect(await screen.findByText(en.root.create.tenantExists)).toBeTruthy();
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('checks the form before sending it', async () => {
    const { requestsTo } = stubApi({ [`GET ${TENANTS}`]: () => jsonResponse({ code: 1, data: { tenants: [] } }) });
    sessionStore.set(signedInSession(rootUser));
    renderApp('/root');
    await screen.findByText(EMPTY);
    typeInto(en.root.create.tenantName, 'A');
    typeInto(en.common.email, 'nope');
    fireEvent.click(screen.getByRole('button', { name: en.root.create.submit }));
    expect(await screen.findByText(en.root.create.tenantNameTooShort)).toBeTruthy();
    expect(screen.getByText(en.common.emailInvalid)).toBeTruthy();
    expect(screen.getAllByText(en.common.required)).toHaveLength(2);
    expect(requestsTo('POST', TENANTS)).toHaveLength(0);
  });
});
