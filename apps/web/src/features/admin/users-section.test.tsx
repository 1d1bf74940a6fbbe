import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { type AdminUser, DEFAULT_PASSWORD_CONFIG, DEFAULT_PERMISSION_SETTINGS, type UserFolder } from '@pakt/domain';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/client';
import { sessionStore } from '../../api/session-store';
import en from '../../i18n/en.json';
import { adminUser, jsonResponse, signedInSession, stubApi, type FakeRoute, userInfoOf } from '../../test/fake-api';
import { inputLabelled, renderApp, typeInto } from '../../test/render-app';
import { csvOutcome, statusBadge, userProblem } from './user-model';

// These render the whole app with its queries; on a busy machine the first answer can take more
// than Testing Library's default second.
configure({ asyncUtilTimeout: 3000 });

// jsdom lays nothing out; Mantine's combobox scrolls the active option into view.
Element.prototype.scrollIntoView ??= () => undefined;

const u = en.users;
const ok = (data: unknown) => jsonResponse({ code: 1, data });
const USERS = '/msbapi/v1/filteredusers';
const ROLES = '/msbapi/v2/users/roles';
const CSV = '/msbapi/v2/users/csvInvite';

const person = (n: number, overrides: Partial<AdminUser> = {}): AdminUser => ({
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

// Asha, the signed-in admin, is listed too: nothing may be done to her from here.
const asha = person(1, { userId: adminUser.id, email: adminUser.email, firstName: 'Asha', lastName: 'Rao', role: 'admin' });
const meera = person(2, { firstName: 'Meera', lastName: 'Nair' });
const ravi = person(3, { firstName: 'Ravi', lastName: 'Iyer', status: 'admininvited' });
const dev = person(4, { firstName: 'Dev', lastName: 'Sharma', role: 'custodian', enabled: false });
const counts: Record<UserFolder, number> = { Signers: 2, Submitters: 0, Custodians: 1, Admin: 1, RetentionAdmin: 0, All: 4 };

function stubUsers(users: AdminUser[] = [asha, meera, ravi, dev], extra: Record<string, FakeRoute> = {}) {
  return stubApi({
    [`GET ${USERS}`]: ({ url }) => {
      const params = new URL(url, 'http://x').searchParams;
      const q = params.get('q')?.toLowerCase() ?? '';
      const found = users.filter((user) => `${user.firstName} ${user.lastName} ${user.email}`.toLowerCase().includes(q));
      return ok({ filter: params.get('filter') ?? 'All', total: found.length, pg: 0, size: 25, users: found, counts });
    },
    ...extra,
  });
}

async function openUsers(path = '/admin') {
  sessionStore.set(signedInSession());
  const result = renderApp(path);
  await screen.findByRole('heading', { level: 1, name: u.title });
  await screen.findAllByTestId('user-row');
  return result;
}

const row = (name: string) => screen.getByRole('listitem', { name });
const lastQuery = (requests: { url: string }[]) => new URL(requests.at(-1)!.url, 'http://x').searchParams;

describe('user helpers', () => {
  it('names statuses for their badge, a disabled account first', () => {
    expect(statusBadge({ status: 'admininvited', enabled: true }).key).toBe('invited');
    expect(statusBadge({ status: 'enabled', enabled: false }).key).toBe('disabled');
    expect(statusBadge({ status: 'delegationinviteexpired', enabled: true }).key).toBe('inviteExpired');
  });

  it('says the cancel-invitation refusals in words of their own', () => {
    expect(userProblem(new ApiError({ code: -34, httpStatus: 409, message: 'x' })).key).toBe('users.errors.cancelBlockedByEpak');
    expect(userProblem(new ApiError({ code: -35, httpStatus: 409, message: 'x' })).key).toBe('users.errors.cancelBlockedByDelegation');
    expect(userProblem(new ApiError({ code: -2, httpStatus: 400, message: 'server says' }))).toEqual({ key: 'users.errors.failed', detail: 'server says' });
  });

  it('reads a CSV answer: rows from -222 and -174, one alert for an unreadable file', () => {
    const rows = { invited: [], failed: [{ line: 2, email: 'x', field: 'email', code: -1, message: 'bad' }] };
    expect(csvOutcome({ error: new ApiError({ code: -174, httpStatus: 422, message: 'all failed', data: rows }) })).toEqual({ kind: 'result', result: rows });
    expect(csvOutcome({ error: new ApiError({ code: -181, httpStatus: 422, message: 'x' }) })).toEqual({ kind: 'file', key: 'users.csv.fileErrors.missingColumns' });
    expect(csvOutcome({ error: new ApiError({ code: -143, httpStatus: 422, message: 'x' }) })).toEqual({ kind: 'file', key: 'users.csv.fileErrors.tooManyRows' });
  });
});

describe('users on /admin', () => {
  it("list each person's id when the tenant's settings say so", async () => {
    const configuration = (showUserUuidColumn: boolean) => () =>
      ok({
        tenantUuid: signedInSession().tenantUuid,
        tenantName: 'Acme Legal',
        supportedLanguages: ['en'],
        permissionSettings: DEFAULT_PERMISSION_SETTINGS,
        passwordConfig: DEFAULT_PASSWORD_CONFIG,
        requireEmailOtp: false,
        viewEnforceOption: 'ShowWithDefaultOff',
        showUserUuidColumn,
      });
    stubUsers([asha, meera], { 'GET /msbapi/v1/configuration': configuration(true) });
    await openUsers();
    // jsdom has no wide screen: the people are cards, each with its id under the address.
    expect((await within(row('Meera Nair')).findByText(meera.userId)).getAttribute('aria-label')).toBe(u.columns.userId);
  });

  it('leave the ids out by default', async () => {
    stubUsers([asha, meera]);
    await openUsers();
    expect(within(row('Meera Nair')).queryByText(meera.userId)).toBeNull();
  });

  it('opens on the people for an admin, with every folder and its count', async () => {
    const { requestsTo } = stubUsers();
    const { router } = await openUsers();
    expect(screen.getAllByRole('tab')[0]!.textContent).toBe(u.tab);
    expect(router.state.location.search).toBe('');
    const folders = screen.getByRole('radiogroup', { name: u.folders.label });
    for (const [folder, count] of Object.entries(counts)) {
      expect(within(folders).getByTestId(`folder-${folder}`).closest('div')!.textContent).toContain(`${u.folders[folder as UserFolder]}${count}`);
    }
    expect(lastQuery(requestsTo('GET', USERS)).get('filter')).toBe('All');

    fireEvent.click(within(folders).getByLabelText(new RegExp(`^${u.folders.Custodians}`)));
    await waitFor(() => expect(lastQuery(requestsTo('GET', USERS)).get('filter')).toBe('Custodians'));

    expect(within(row('Ravi Iyer')).getByTestId('user-status').textContent).toBe(u.status.invited);
    expect(within(row('Dev Sharma')).getByTestId('user-status').textContent).toBe(u.status.disabled);
  });

  it('asks the server with the search (once typing pauses) and the sort', async () => {
    const { requestsTo } = stubUsers();
    await openUsers('/admin?section=users');
    typeInto(u.filters.search, 'mee');
    await waitFor(() => expect(lastQuery(requestsTo('GET', USERS)).get('q')).toBe('mee'));
    await waitFor(() => expect(screen.getAllByTestId('user-row')).toHaveLength(1));

    fireEvent.click(inputLabelled(u.filters.sort));
    fireEvent.click(await screen.findByRole('option', { name: u.sorts.lastLoginOn }));
    await waitFor(() => expect(lastQuery(requestsTo('GET', USERS)).get('sort')).toBe('lastLoginOn'));
    fireEvent.click(inputLabelled(u.filters.order));
    fireEvent.click(await screen.findByRole('option', { name: u.filters.desc }));
    await waitFor(() => expect(lastQuery(requestsTo('GET', USERS)).get('order')).toBe('desc'));
    expect(lastQuery(requestsTo('GET', USERS)).get('q')).toBe('mee');
  });

  it('offers nothing on oneself, and re-invite and cancel only for the invited', async () => {
    stubUsers();
    await openUsers();
    expect(within(row('Asha Rao')).queryByRole('button', { name: u.actions.label.replace('{{name}}', 'Asha Rao') })).toBeNull();
    expect(within(row('Asha Rao')).queryByRole('checkbox')).toBeNull();

    fireEvent.click(within(row('Meera Nair')).getByRole('button', { name: u.actions.label.replace('{{name}}', 'Meera Nair') }));
    expect(await screen.findByRole('menuitem', { name: u.actions.changeRole })).toBeTruthy();
    expect(screen.getByRole('menuitem', { name: u.actions.makeAdmin })).toBeTruthy();
    expect(screen.getByRole('menuitem', { name: u.actions.disable })).toBeTruthy();
    expect(screen.queryByRole('menuitem', { name: u.actions.reinvite })).toBeNull();
    fireEvent.keyDown(screen.getByRole('menu'), { key: 'Escape' });

    fireEvent.click(within(row('Ravi Iyer')).getByRole('button', { name: u.actions.label.replace('{{name}}', 'Ravi Iyer') }));
    expect(await screen.findByRole('menuitem', { name: u.actions.reinvite })).toBeTruthy();
    expect(screen.getByRole('menuitem', { name: u.actions.cancelInvite })).toBeTruthy();
  });

  it("sets a member's passcode flag while rubber stamps are on, and says so in their row", async () => {
    let flagged = false;
    const { requestsTo } = stubUsers(undefined, {
      'GET /msbapi/v1/accessibilities': () => ok({ role: 'admin', settings: { ...DEFAULT_PERMISSION_SETTINGS, rubberStampEnabled: true }, routes: [], menu: [] }),
      [`GET ${USERS}`]: () => ok({ filter: 'All', total: 2, pg: 0, size: 25, users: [asha, { ...meera, passcodeFlag: flagged }], counts }),
      [`PUT /msbapi/v2/users/${meera.userId}/passcodeflag`]: ({ body }) => {
        flagged = (body as { passcodeFlag: boolean }).passcodeFlag;
        return ok({ ...meera, passcodeFlag: flagged });
      },
    });
    await openUsers();
    fireEvent.click(within(row('Meera Nair')).getByRole('button', { name: u.actions.label.replace('{{name}}', 'Meera Nair') }));
    fireEvent.click(await screen.findByRole('menuitem', { name: en.rubberStamps.passcode.set }));
    expect(await screen.findByText(en.rubberStamps.passcode.passcodeOn.replace('{{name}}', 'Meera Nair'))).toBeTruthy();
    expect(requestsTo('PUT', `/msbapi/v2/users/${meera.userId}/passcodeflag`)[0]!.body).toEqual({ passcodeFlag: true });
    await waitFor(() => expect(within(row('Meera Nair')).getAllByText(new RegExp(en.rubberStamps.passcode.badge)).length).toBeGreaterThan(0));
  });

  it('offers no passcode flag while rubber stamps are off', async () => {
    stubUsers([asha, meera]);
    await openUsers();
    fireEvent.click(within(row('Meera Nair')).getByRole('button', { name: u.actions.label.replace('{{name}}', 'Meera Nair') }));
    expect(await screen.findByRole('menuitem', { name: u.actions.changeRole })).toBeTruthy();
    expect(screen.queryByRole('menuitem', { name: en.rubberStamps.passcode.set })).toBeNull();
  });

  it('asks before cancelling an invitation and explains a -34 refusal', async () => {
    const { requestsTo } = stubUsers([asha, ravi], {
      [`POST /msbapi/v2/users/${ravi.userId}/cancelInvite`]: () => jsonResponse({ code: -34, data: null, message: 'waits' }, 409),
    });
    await openUsers();
    fireEvent.click(within(row('Ravi Iyer')).getByRole('button', { name: u.actions.label.replace('{{name}}', 'Ravi Iyer') }));
    fireEvent.click(await screen.findByRole('menuitem', { name: u.actions.cancelInvite }));
    const dialog = await screen.findByRole('dialog', { name: u.cancelInvite.title });
    expect(requestsTo('POST', `/msbapi/v2/users/${ravi.userId}/cancelInvite`)).toHaveLength(0);
    fireEvent.click(within(dialog).getByRole('button', { name: u.cancelInvite.confirm }));
    expect(await screen.findByText(u.errors.cancelBlockedByEpak)).toBeTruthy();
    expect(requestsTo('POST', `/msbapi/v2/users/${ravi.userId}/cancelInvite`)).toHaveLength(1);
  });

  it('changes the role of several at once and shows what a -226 answer refused', async () => {
    const { requestsTo } = stubUsers([asha, meera, ravi, dev], {
      [`PUT ${ROLES}`]: () =>
        jsonResponse(
          {
            code: -226,
            message: 'Some roles were not changed.',
            data: { updated: [{ ...meera, role: 'custodian' }, { ...ravi, role: 'custodian' }], failed: [{ userId: dev.userId, code: -6, message: 'not allowed here' }] },
          },
          422,
        ),
    });
    await openUsers();
    for (const name of ['Meera Nair', 'Ravi Iyer', 'Dev Sharma']) {
      fireEvent.click(within(row(name)).getByRole('checkbox', { name: u.bulk.select.replace('{{name}}', name) }));
    }
    const bar = await screen.findByTestId('bulk-bar');
    expect(bar.textContent).toContain('3 selected');
    fireEvent.click(inputLabelled(u.bulk.role));
    fireEvent.click(await screen.findByRole('option', { name: en.roles.custodian }));
    fireEvent.click(within(bar).getByRole('button', { name: u.bulk.apply }));

    const result = await screen.findByTestId('role-result');
    expect(result.textContent).toContain('2 changed, 1 refused:');
    expect(result.textContent).toContain('Dev Sharma — not allowed here');
    expect(requestsTo('PUT', ROLES)[0]?.body).toEqual({
      users: [meera, ravi, dev].map((user) => ({ userId: user.userId, role: 'custodian' })),
    });
  });

  it('invites from a CSV file and lists each refused line with its message', async () => {
    const { requestsTo } = stubUsers([asha], {
      [`POST ${CSV}`]: () =>
        jsonResponse(
          {
            code: -222,
            message: 'Some rows failed.',
            data: {
              invited: [{ line: 2, email: 'new@example.com', userId: meera.userId }],
              failed: [
                { line: 3, email: 'not-an-email', field: 'email', code: -1, message: 'Invalid email' },
                { line: 4, email: 'asha@example.com', field: null, code: -85, message: 'Already a member' },
              ],
            },
          },
          207,
        ),
    });
    await openUsers();
    fireEvent.click(screen.getByRole('button', { name: u.csv.open }));
    const dialog = await screen.findByRole('dialog', { name: u.csv.title });
    const file = new File(['email,firstName,middleName,lastName,role\n'], 'people.csv', { type: 'text/csv' });
    const input = dialog.querySelector('input[type="file"]')!;
    fireEvent.change(input, { target: { files: [file] } });
    fireEvent.click(within(dialog).getByRole('button', { name: u.csv.upload }));

    const result = await within(dialog).findByTestId('csv-result');
    expect(result.textContent).toContain('1 person invited.');
    const failed = within(result).getAllByTestId('csv-failed-row');
    expect(failed).toHaveLength(2);
    expect(failed[0]!.textContent).toContain('Line 3 · not-an-email · Email');
    expect(failed[0]!.textContent).toContain(u.csv.rowErrors.email);
    expect(failed[1]!.textContent).toContain(u.csv.rowErrors.alreadyMember);
    expect(requestsTo('POST', CSV)[0]?.body).toEqual({ file: expect.any(File) });
  });

  it('says an unreadable file as one alert', async () => {
    stubUsers([asha], { [`POST ${CSV}`]: () => jsonResponse({ code: -182, data: null, message: 'empty' }, 422) });
    await openUsers();
    fireEvent.click(screen.getByRole('button', { name: u.csv.open }));
    const dialog = await screen.findByRole('dialog', { name: u.csv.title });
    fireEvent.change(dialog.querySelector('input[type="file"]')!, { target: { files: [new File([''], 'empty.csv', { type: 'text/csv' })] } });
    fireEvent.click(within(dialog).getByRole('button', { name: u.csv.upload }));
    expect((await within(dialog).findByTestId('csv-file-error')).textContent).toContain(u.csv.fileErrors.empty);
  });

  it('invites one person, checking the fields before sending', async () => {
    const { requestsTo } = stubUsers([asha], {
      'POST /msbapi/v1/users/invite': () => ok({ users: [{ email: 'nina@example.com', userId: meera.userId, status: 'invited' }] }),
    });
    await openUsers();
    fireEvent.click(screen.getByRole('button', { name: u.invite.open }));
    const dialog = await screen.findByRole('dialog', { name: u.invite.title });
    fireEvent.click(within(dialog).getByRole('button', { name: u.invite.submit }));
    expect(await within(dialog).findByText(u.invite.errors.email)).toBeTruthy();
    expect(requestsTo('POST', '/msbapi/v1/users/invite')).toHaveLength(0);

    typeInto(en.common.email, 'nina@example.com');
    typeInto(en.common.firstName, 'Nina');
    typeInto(en.common.lastName, 'Das');
    fireEvent.click(within(dialog).getByRole('button', { name: u.invite.submit }));
    expect(await within(dialog).findByText(u.invite.done.replace('{{email}}', 'nina@example.com'))).toBeTruthy();
    expect(requestsTo('POST', '/msbapi/v1/users/invite')[0]?.body).toEqual({
      users: [{ email: 'nina@example.com', firstName: 'Nina', lastName: 'Das', role: 'signer' }],
    });
  });

  const photoOf = (who: AdminUser) => `/msbapi/v1/users/${who.userId}/photo`;
  const png = () => new Response(new Uint8Array([0x89, 0x50, 0x4e, 0x47]), { status: 200, headers: { 'Content-Type': 'image/png' } });
  const photoAlt = (name: string) => en.userPhotoAdmin.photoAlt.replace('{{name}}', name);
  const withObjectUrls = () => {
    vi.spyOn(URL, 'createObjectURL').mockImplementation(() => 'blob:photo');
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
  };

  it("shows each person's photo with the session's token, or their initials, and offers no removal on a super admin", async () => {
    withObjectUrls();
    const superAdmin = person(5, { firstName: 'Sol', lastName: 'Super', role: 'super_admin', hasPhoto: true });
    const { requestsTo } = stubUsers([asha, { ...meera, hasPhoto: true }, dev, superAdmin], { [`GET ${photoOf(meera)}`]: png, [`GET ${photoOf(superAdmin)}`]: png });
    await openUsers();
    expect(await within(row('Meera Nair')).findByRole('img', { name: photoAlt('Meera Nair') })).toBeTruthy();
    // Photos are asked for only of those who have one; the others show their initials.
    expect(within(row('Dev Sharma')).getByTestId('user-avatar').textContent).toBe('DS');
    expect(requestsTo('GET', photoOf(dev))).toHaveLength(0);
    expect(requestsTo('GET', photoOf(meera))[0]?.headers.get('authorization')).toBe('Bearer access-1');
    // A super admin's photo is above the tenant's administration (nothing else is offered on them
    // either, so there is no menu at all); one's own is the profile page's.
    expect(await within(row('Sol Super')).findByRole('img', { name: photoAlt('Sol Super') })).toBeTruthy();
    expect(within(row('Sol Super')).queryByRole('button', { name: u.actions.label.replace('{{name}}', 'Sol Super') })).toBeNull();
  });

  it("removes a member's photo once the admin confirms, then shows their initials", async () => {
    withObjectUrls();
    let listed = [asha, { ...meera, hasPhoto: true }];
    const { requestsTo } = stubApi({
      [`GET ${USERS}`]: () => ok({ filter: 'All', total: listed.length, pg: 0, size: 25, users: listed, counts }),
      [`GET ${photoOf(meera)}`]: png,
      [`DELETE ${photoOf(meera)}`]: () => {
        listed = [asha, meera];
        return ok(userInfoOf({ ...adminUser, id: meera.userId, email: meera.email, firstName: 'Meera', lastName: 'Nair' }));
      },
    });
    await openUsers();
    fireEvent.click(within(row('Meera Nair')).getByRole('button', { name: u.actions.label.replace('{{name}}', 'Meera Nair') }));
    fireEvent.click(await screen.findByRole('menuitem', { name: en.userPhotoAdmin.remove }));
    const dialog = await screen.findByRole('dialog', { name: en.userPhotoAdmin.confirmTitle.replace('{{name}}', 'Meera Nair') });
    expect(requestsTo('DELETE', photoOf(meera))).toHaveLength(0);
    fireEvent.click(within(dialog).getByRole('button', { name: en.userPhotoAdmin.confirm }));
    expect(await screen.findByText(en.userPhotoAdmin.removed.replace('{{name}}', 'Meera Nair'))).toBeTruthy();
    expect(requestsTo('DELETE', photoOf(meera))).toHaveLength(1);
    await waitFor(() => expect(within(row('Meera Nair')).getByTestId('user-avatar').textContent).toBe('MN'));
  });

  it("says when a photo could not be removed, in the server's words too", async () => {
    const withPhoto = { ...meera, hasPhoto: true };
    stubUsers([asha, withPhoto], {
      [`DELETE /msbapi/v1/users/${meera.userId}/photo`]: () => jsonResponse({ code: -2, data: null, message: 'storage is read-only' }, 400),
    });
    await openUsers();
    fireEvent.click(within(row('Meera Nair')).getByRole('button', { name: u.actions.label.replace('{{name}}', 'Meera Nair') }));
    fireEvent.click(await screen.findByRole('menuitem', { name: en.userPhotoAdmin.remove }));
    const dialog = await screen.findByRole('dialog', { name: en.userPhotoAdmin.confirmTitle.replace('{{name}}', 'Meera Nair') });
    fireEvent.click(within(dialog).getByRole('button', { name: en.userPhotoAdmin.confirm }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(en.userPhotoAdmin.failed);
    expect(alert.textContent).toContain('storage is read-only');
  });

  it("resets a member's two-factor sign-in only when it is on, after asking, and says so", async () => {
    let listed = [asha, { ...meera, twoFactorEnabled: true }, dev];
    const RESET = `/msbapi/v2/users/${meera.userId}/twofactor/reset`;
    const { requestsTo } = stubUsers(undefined, {
      [`GET ${USERS}`]: () => ok({ filter: 'All', total: listed.length, pg: 0, size: 25, users: listed, counts }),
      [`POST ${RESET}`]: () => {
        listed = [asha, meera, dev];
        return ok(meera);
      },
    });
    await openUsers();
    // Not offered where two-factor is off.
    fireEvent.click(within(row('Dev Sharma')).getByRole('button', { name: u.actions.label.replace('{{name}}', 'Dev Sharma') }));
    expect(await screen.findByRole('menuitem', { name: u.actions.changeRole })).toBeTruthy();
    expect(screen.queryByRole('menuitem', { name: u.actions.resetTwoFactor })).toBeNull();
    fireEvent.keyDown(screen.getByRole('menu'), { key: 'Escape' });

    fireEvent.click(within(row('Meera Nair')).getByRole('button', { name: u.actions.label.replace('{{name}}', 'Meera Nair') }));
    fireEvent.click(await screen.findByRole('menuitem', { name: u.actions.resetTwoFactor }));
    const dialog = await screen.findByRole('dialog', { name: u.resetTwoFactor.title.replace('{{name}}', 'Meera Nair') });
    expect(within(dialog).getByText(new RegExp(meera.email)).textContent).toContain('Meera Nair');
    expect(requestsTo('POST', RESET)).toHaveLength(0);
    fireEvent.click(within(dialog).getByRole('button', { name: u.resetTwoFactor.confirm }));
    expect(await screen.findByText(u.resetTwoFactor.done.replace('{{name}}', 'Meera Nair'))).toBeTruthy();
    expect(requestsTo('POST', RESET)).toHaveLength(1);
    // The list is asked again: the reset member no longer offers it.
    await waitFor(() => expect(requestsTo('GET', USERS).length).toBeGreaterThan(1));
    fireEvent.click(within(row('Meera Nair')).getByRole('button', { name: u.actions.label.replace('{{name}}', 'Meera Nair') }));
    expect(await screen.findByRole('menuitem', { name: u.actions.changeRole })).toBeTruthy();
    expect(screen.queryByRole('menuitem', { name: u.actions.resetTwoFactor })).toBeNull();
  });

  it('explains that a shared account’s two-factor is its owner’s to switch off (-11)', async () => {
    stubUsers([asha, { ...meera, twoFactorEnabled: true }], {
      [`POST /msbapi/v2/users/${meera.userId}/twofactor/reset`]: () => jsonResponse({ code: -11, data: null, message: 'shared' }, 403),
    });
    const { router } = await openUsers();
    fireEvent.click(within(row('Meera Nair')).getByRole('button', { name: u.actions.label.replace('{{name}}', 'Meera Nair') }));
    fireEvent.click(await screen.findByRole('menuitem', { name: u.actions.resetTwoFactor }));
    const dialog = await screen.findByRole('dialog', { name: u.resetTwoFactor.title.replace('{{name}}', 'Meera Nair') });
    fireEvent.click(within(dialog).getByRole('button', { name: u.resetTwoFactor.confirm }));
    expect((await screen.findByRole('alert')).textContent).toContain(u.resetTwoFactor.shared);
    // A refusal here is explained on the page, never a trip to "access denied".
    expect(router.state.location.pathname).toBe('/admin');
  });
});
