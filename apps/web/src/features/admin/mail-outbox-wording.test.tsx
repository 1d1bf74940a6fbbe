import { configure, fireEvent, screen, within } from '@testing-library/react';
import type { AdminUser, UserFolder } from '@pakt/domain';
import { describe, expect, it } from 'vitest';
import { sessionStore } from '../../api/session-store';
import en from '../../i18n/en.json';
import { adminUser, configurationData, jsonResponse, signedInSession, stubApi } from '../../test/fake-api';
import { renderApp, typeInto } from '../../test/render-app';

// The whole app renders with its queries; on a busy machine the first answer can take a while.
configure({ asyncUtilTimeout: 5000 });

/**
 * Issue 22, mail with no SMTP: an administrator who invites someone on an install whose mail
 * only waits in the outbox is told so, never that the invitation "went".
 */
const u = en.users;
const ok = (data: unknown) => jsonResponse({ code: 1, data });
const noMail = { ...configurationData, mailDelivery: 'outbox' as const };

const person = (n: number, overrides: Partial<AdminUser>): AdminUser => ({
  userId: `1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c${String(n).padStart(2, '0')}`,
  email: `person${n}@example.com`,
  firstName: `Person${n}`,
  middleName: null,
  lastName: 'Test',
  role: 'signer',
  type: 'internal',
  status: 'enabled',
  enabled: true,
  retentionAdmin: false,
  passcodeFlag: false,
  hasPhoto: false,
  twoFactorEnabled: false,
  createdOn: '2025-01-10T09:00:00.000Z',
  lastLoginOn: null,
  ...overrides,
});
const asha = person(1, { userId: adminUser.id, email: adminUser.email, firstName: 'Asha', lastName: 'Rao', role: 'admin' });
const ravi = person(3, { firstName: 'Ravi', lastName: 'Iyer', status: 'admininvited' });
const counts: Record<UserFolder, number> = { Signers: 1, Submitters: 0, Custodians: 0, Admin: 1, RetentionAdmin: 0, All: 2 };

function stubUsers() {
  return stubApi(
    {
      'GET /msbapi/v1/filteredusers': () => ok({ filter: 'All', total: 2, pg: 0, size: 25, users: [asha, ravi], counts }),
      'POST /msbapi/v1/users/invite': () => ok({ users: [{ email: 'nina@example.com', userId: ravi.userId, status: 'invited' }] }),
      [`POST /msbapi/v2/users/${ravi.userId}/reinvite`]: () => ok({ userId: ravi.userId, email: ravi.email, status: 'invited' }),
    },
    noMail,
  );
}

describe('inviting on an install without a mail server', () => {
  it('says the invitation is in the outbox for root to pass on, not that it went', async () => {
    stubUsers();
    sessionStore.set(signedInSession());
    renderApp('/admin');
    await screen.findByRole('heading', { level: 1, name: u.title });
    fireEvent.click(await screen.findByRole('button', { name: u.invite.open }));
    const dialog = await screen.findByRole('dialog', { name: u.invite.title });
    typeInto(en.common.email, 'nina@example.com');
    typeInto(en.common.firstName, 'Nina');
    typeInto(en.common.lastName, 'Das');
    fireEvent.click(within(dialog).getByRole('button', { name: u.invite.submit }));
    expect(await within(dialog).findByText(u.invite.doneOutbox.replace('{{email}}', 'nina@example.com'))).toBeTruthy();
    expect(within(dialog).queryByText(u.invite.done.replace('{{email}}', 'nina@example.com'))).toBeNull();
  });

  it('says the same of an invitation sent again', async () => {
    stubUsers();
    sessionStore.set(signedInSession());
    renderApp('/admin');
    const ravisRow = await screen.findByRole('listitem', { name: 'Ravi Iyer' });
    fireEvent.click(within(ravisRow).getByRole('button', { name: u.actions.label.replace('{{name}}', 'Ravi Iyer') }));
    fireEvent.click(await screen.findByRole('menuitem', { name: u.actions.reinvite }));
    expect(await screen.findByText(u.done.reinviteOutbox.replace('{{name}}', 'Ravi Iyer'))).toBeTruthy();
  });
});
