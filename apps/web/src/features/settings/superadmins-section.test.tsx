import { configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { SessionUser, Superadmin } from '@pakt/domain';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/client';
import { createQueryClient } from '../../api/query-client';
import { sessionStore } from '../../api/session-store';
import en from '../../i18n/en.json';
import { AppProviders } from '../../app/providers';
import { adminUser, errorResponse, jsonResponse, signedInSession, stubApi, TENANT_ACME, type FakeRoute } from '../../test/fake-api';
import { inputLabelled, typeInto } from '../../test/render-app';
import { superadminProblem } from './superadmin-invite';
import { SuperadminsSection } from './superadmins-section';

// On a busy machine the first answer can take more than Testing Library's default second.
configure({ asyncUtilTimeout: 3000 });

const s = en.superadmins;
const ok = (data: unknown) => jsonResponse({ code: 1, data });
const LIST = '/msbapi/v2/user/getAllSuperadmins';
const REGISTER = '/msbapi/v2/user/registerAsSuperadmin';
const STATUS = '/msbapi/v2/user/updateSuperadminStatus';

const superUser: SessionUser = { ...adminUser, tenants: [{ tenantUuid: TENANT_ACME, tenantName: 'Acme Legal', userRole: 'super_admin', userLoginType: 'Email' }] };

const person = (n: number, overrides: Partial<Superadmin> = {}): Superadmin => ({
  userId: `1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c${String(n).padStart(2, '0')}`,
  email: `person${n}@example.com`,
  firstName: `Person${n}`,
  middleName: null,
  lastName: 'Test',
  status: 'active',
  createdOn: '2025-01-10T09:00:00.000Z',
  lastLoginOn: null,
  isSelf: false,
  ...overrides,
});
const asha = person(1, { userId: adminUser.id, email: adminUser.email, firstName: 'Asha', lastName: 'Rao', isSelf: true, lastLoginOn: '2025-02-01T09:00:00.000Z' });
const tara = person(2, { firstName: 'Tara', lastName: 'Trivedi' });
const dev = person(3, { firstName: 'Dev', lastName: 'Das', status: 'disabled' });

function renderSection(user: SessionUser, routes: Record<string, FakeRoute>) {
  const api = stubApi(routes);
  sessionStore.set(signedInSession(user));
  const queryClient = createQueryClient();
  queryClient.setDefaultOptions({ queries: { ...queryClient.getDefaultOptions().queries, retryDelay: 0 } });
  render(
    <AppProviders queryClient={queryClient} env="test">
      <SuperadminsSection />
    </AppProviders>,
  );
  return api;
}

const card = (name: string) => screen.getByRole('listitem', { name });

describe('the super admins section', () => {
  it('lists the super admins as cards on a phone; nothing is offered on one’s own account', async () => {
    renderSection(superUser, { [`GET ${LIST}`]: () => ok({ superadmins: [asha, tara, dev] }) });
    await screen.findAllByTestId('superadmin-row');
    expect(screen.getByRole('heading', { level: 2, name: s.title })).toBeTruthy();
    expect(within(card('Asha Rao')).getByText(s.you)).toBeTruthy();
    expect(within(card('Asha Rao')).queryByRole('button')).toBeNull();
    expect(within(card('Tara Trivedi')).getByTestId('superadmin-status').textContent).toBe(s.status.active);
    expect(within(card('Tara Trivedi')).getByRole('button', { name: s.actions.disabledLabel.replace('{{name}}', 'Tara Trivedi') })).toBeTruthy();
    expect(within(card('Dev Das')).getByTestId('superadmin-status').textContent).toBe(s.status.disabled);
    expect(within(card('Dev Das')).getByRole('button', { name: s.actions.enabledLabel.replace('{{name}}', 'Dev Das') })).toBeTruthy();
    expect(within(card('Tara Trivedi')).getByText(new RegExp(s.neverSignedIn))).toBeTruthy();
  });

  it('disables someone only after confirming, then says so and asks for the list again', async () => {
    let list = [asha, tara];
    const api = renderSection(superUser, {
      [`GET ${LIST}`]: () => ok({ superadmins: list }),
      [`PUT ${STATUS}`]: () => {
        list = [asha, { ...tara, status: 'disabled' }];
        return ok(list[1]);
      },
    });
    await screen.findAllByTestId('superadmin-row');
    fireEvent.click(within(card('Tara Trivedi')).getByRole('button', { name: s.actions.disabledLabel.replace('{{name}}', 'Tara Trivedi') }));
    const dialog = await screen.findByRole('dialog', { name: s.confirm.disabledTitle.replace('{{name}}', 'Tara Trivedi') });
    expect(api.requestsTo('PUT', STATUS)).toHaveLength(0);
    fireEvent.click(within(dialog).getByRole('button', { name: s.confirm.disabled }));
    await screen.findByText(s.done.disabled.replace('{{name}}', 'Tara Trivedi'));
    expect(api.requestsTo('PUT', STATUS).map((r) => r.body)).toEqual([{ userId: tara.userId, status: 'disabled' }]);
    await waitFor(() => expect(within(card('Tara Trivedi')).getByTestId('superadmin-status').textContent).toBe(s.status.disabled));
  });

  it('explains a refused change without leaving the page', async () => {
    renderSection(superUser, { [`GET ${LIST}`]: () => ok({ superadmins: [asha, tara] }), [`PUT ${STATUS}`]: () => errorResponse(-1, 404, 'Not found.') });
    await screen.findAllByTestId('superadmin-row');
    fireEvent.click(within(card('Tara Trivedi')).getByRole('button', { name: s.actions.disabledLabel.replace('{{name}}', 'Tara Trivedi') }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: s.confirm.disabled }));
    expect((await screen.findByRole('alert')).textContent).toContain(s.errors.notFound);
  });

  it('registers someone: field errors first, the server’s refusal on its field, then the invitation', async () => {
    let answer: 'refuse' | 'accept' = 'refuse';
    const api = renderSection(superUser, {
      [`GET ${LIST}`]: () => ok({ superadmins: [asha] }),
      [`POST ${REGISTER}`]: () => (answer === 'refuse' ? errorResponse(-85, 409, 'already a member of the tenant') : ok(person(9, { email: 'neha@example.com', status: 'invited' }))),
    });
    await screen.findAllByTestId('superadmin-row');
    fireEvent.click(screen.getByRole('button', { name: s.register.open }));
    const dialog = await screen.findByRole('dialog', { name: s.register.title });
    fireEvent.click(within(dialog).getByRole('button', { name: s.register.submit }));
    expect(within(dialog).getAllByText(en.common.required)).toHaveLength(3);
    typeInto(en.common.email, 'not-an-address');
    typeInto(en.common.firstName, 'Neha');
    typeInto(en.common.lastName, 'Nair');
    expect(within(dialog).getByText(en.common.emailInvalid)).toBeTruthy();
    expect(api.requestsTo('POST', REGISTER)).toHaveLength(0);

    typeInto(en.common.email, ' Neha@Example.com ');
    fireEvent.click(within(dialog).getByRole('button', { name: s.register.submit }));
    expect(await within(dialog).findByText(s.errors.alreadyMember)).toBeTruthy();
    expect(inputLabelled(en.common.email).getAttribute('aria-invalid')).toBe('true');

    answer = 'accept';
    fireEvent.click(within(dialog).getByRole('button', { name: s.register.submit }));
    await screen.findByText(s.register.done.replace('{{email}}', 'neha@example.com'));
    expect(api.requestsTo('POST', REGISTER).at(-1)!.body).toEqual({ email: 'neha@example.com', firstName: 'Neha', lastName: 'Nair' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('shows nothing, and asks nothing, to someone who may not list super admins', async () => {
    const api = renderSection(adminUser, {});
    await waitFor(() => expect(screen.queryByRole('heading', { name: s.title })).toBeNull());
    expect(api.requestsTo('GET', LIST)).toHaveLength(0);
    expect(screen.queryByRole('button', { name: s.register.open })).toBeNull();
  });
});

describe('superadminProblem', () => {
  const error = (code: number, httpStatus: number, issues?: { path: string; message: string }[]) => new ApiError({ code, httpStatus, message: 'x', ...(issues ? { issues } : {}) });
  it('puts each refusal on the field it concerns', () => {
    expect(superadminProblem(error(-85, 409))).toEqual({ key: 'superadmins.errors.alreadyMember', field: 'email' });
    expect(superadminProblem(error(-13, 403))).toEqual({ key: 'superadmins.errors.disabledAccount', field: 'email' });
    expect(superadminProblem(error(-6, 400))).toEqual({ key: 'superadmins.errors.cannotInvite', field: 'email' });
    expect(superadminProblem(error(-6, 400, [{ path: 'body.email', message: 'bad' }]))).toEqual({ key: 'common.emailInvalid', field: 'email' });
    expect(superadminProblem(error(-11, 403))).toEqual({ key: 'superadmins.errors.notAllowed' });
    expect(superadminProblem(error(-1, 404))).toEqual({ key: 'superadmins.errors.notFound' });
    expect(superadminProblem(error(0, 0))).toEqual({ key: 'common.unreachable' });
  });
});
