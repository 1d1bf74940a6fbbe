import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Group, GroupSummary } from '@pakt/domain';
import { describe, expect, it } from 'vitest';
import { ApiError, TENANT_HEADER } from '../../api/client';
import { sessionStore } from '../../api/session-store';
import en from '../../i18n/en.json';
import { errorResponse, jsonResponse, signedInSession, stubApi, TENANT_ACME, type FakeRoute } from '../../test/fake-api';
import { inputLabelled, renderApp, typeInto } from '../../test/render-app';
import { groupNameProblem, groupProblem, sortedMembers } from './group-model';

// These render the whole app with its queries; on a busy machine the first answer can take more
// than Testing Library's default second.
configure({ asyncUtilTimeout: 3000 });

// jsdom lays nothing out; Mantine's combobox scrolls the active option into view.
Element.prototype.scrollIntoView ??= () => undefined;

const g = en.groups;
const ok = (data: unknown) => jsonResponse({ code: 1, data });
const GROUPS = '/msbapi/v1/groups';
const USERS = '/msbapi/v1/users';

const meera = { userId: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c01', email: 'meera@example.com', firstName: 'Meera', lastName: 'Nair', manager: true };
const ravi = { userId: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c02', email: 'ravi@example.com', firstName: 'Ravi', lastName: 'Iyer', manager: false };
const dev = { userId: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c03', email: 'dev@example.com', firstName: 'Dev', lastName: 'Sharma', manager: false };

const sales: Group = { groupId: '9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b01', groupName: 'Sales', createdOn: '2025-01-10T09:00:00.000Z', users: [ravi, meera] };
const legal: Group = { groupId: '9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b02', groupName: 'Legal', createdOn: '2025-01-11T09:00:00.000Z', users: [] };

const summary = (group: Group): GroupSummary => ({
  groupId: group.groupId,
  groupName: group.groupName,
  createdOn: group.createdOn,
  memberCount: group.users.length,
  manager: group.users.find((member) => member.manager) ?? null,
});

/** A server holding these groups, answering the list and each group; `extra` routes replace or add to those. */
function stubGroups(groups: Group[], extra: Record<string, FakeRoute> = {}) {
  const routes: Record<string, FakeRoute> = {
    [`GET ${GROUPS}`]: ({ url }) => {
      const q = new URL(url, 'http://x').searchParams.get('q')?.toLowerCase() ?? '';
      return ok({ groups: groups.filter((group) => group.groupName.toLowerCase().includes(q)).map(summary) });
    },
    ...extra,
  };
  for (const group of groups) routes[`GET ${GROUPS}/${group.groupId}`] ??= () => ok(group);
  return stubApi(routes);
}

async function openGroups(path = '/admin?section=groups') {
  sessionStore.set(signedInSession());
  const result = renderApp(path);
  await screen.findByRole('heading', { level: 1, name: g.title });
  return result;
}

const detail = () => screen.findByTestId('group-detail');
const memberRow = async (name: string) => within(await detail()).findByRole('listitem', { name });

describe('group helpers', () => {
  it('checks names with the domain schema: 1 to 15 characters once trimmed', () => {
    expect(groupNameProblem('Sales')).toBeNull();
    expect(groupNameProblem('  Fifteen chars!  ')).toBeNull();
    expect(groupNameProblem('Sixteen chars!!!')).toBe('groups.errors.nameLength');
    expect(groupNameProblem('   ')).toBe('groups.errors.nameLength');
  });

  it('says the manager codes in words of their own, and other refusals with the server message', () => {
    const refusal = (code: number, httpStatus = 409, issues?: { path: string; message: string }[]) =>
      groupProblem(new ApiError({ code, httpStatus, message: 'server says', ...(issues ? { issues } : {}) }));
    expect(refusal(-141).key).toBe('groups.errors.managesAnother');
    expect(refusal(-165).key).toBe('groups.errors.cannotRemoveManager');
    expect(refusal(-172).key).toBe('groups.errors.alreadyManager');
    expect(refusal(-6, 400)).toEqual({ key: 'groups.errors.nameTaken', onName: true });
    expect(refusal(-6, 400, [{ path: 'body.groupName', message: 'too long' }])).toEqual({ key: 'groups.errors.nameTaken', onName: true });
    expect(refusal(-6, 400, [{ path: 'body.userIds.0', message: 'not a member' }])).toEqual({ key: 'groups.errors.failed', detail: 'server says' });
    expect(refusal(-1, 404)).toEqual({ key: 'groups.errors.notFound', gone: true });
    expect(refusal(-1, 0).key).toBe('common.unreachable');
    expect(refusal(-2, 400)).toEqual({ key: 'groups.errors.failed', detail: 'server says' });
  });

  it('lists the manager first, then members by name', () => {
    expect(sortedMembers([ravi, dev, meera]).map((member) => member.firstName)).toEqual(['Meera', 'Dev', 'Ravi']);
  });
});

describe('groups on /admin', () => {
  it("lists the tenant's groups with their member counts and managers, and filters them by name on the server", async () => {
    const { requestsTo } = stubGroups([sales, legal]);
    await openGroups();
    const list = await screen.findByRole('list', { name: g.listLabel });
    const rows = within(list).getAllByTestId('group-row');
    expect(rows.map((row) => within(row).getByText(/^(Sales|Legal)$/).textContent)).toEqual(['Sales', 'Legal']);
    expect(rows[0]!.textContent).toContain('2 members');
    expect(rows[0]!.textContent).toContain(g.managedBy.replace('{{name}}', 'Meera Nair'));
    expect(rows[1]!.textContent).toContain('0 members');
    expect(rows[1]!.textContent).toContain(g.noManager);
    expect(rows[0]!.getAttribute('href')).toBe(`/admin?section=groups&group=${sales.groupId}`);
    expect(requestsTo('GET', GROUPS)[0]?.headers.get(TENANT_HEADER)).toBe(TENANT_ACME);

    typeInto(g.filter, 'leg');
    await waitFor(() => expect(within(list).getAllByTestId('group-row')).toHaveLength(1));
    expect(new URL(requestsTo('GET', GROUPS).at(-1)!.url, 'http://x').searchParams.get('q')).toBe('leg');

    typeInto(g.filter, 'zzz');
    expect(await screen.findByText(g.noMatch.replace('{{q}}', 'zzz'))).toBeTruthy();
  });

  it('refuses a 16-character name before sending anything, then creates the group with the people picked', async () => {
    let groups: Group[] = [];
    const created: Group = { groupId: '9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b09', groupName: 'Procurement', createdOn: '2025-02-01T09:00:00.000Z', users: [{ ...ravi }] };
    const { requestsTo } = stubGroups(groups, {
      [`POST ${GROUPS}`]: () => {
        groups = [created];
        return ok(created);
      },
      [`GET ${GROUPS}/${created.groupId}`]: () => ok(created),
      [`GET ${USERS}`]: () => ok({ users: [{ userId: ravi.userId, email: ravi.email, firstName: 'Ravi', lastName: 'Iyer', type: 'internal' }] }),
    });
    await openGroups();
    expect(await screen.findByText(g.empty)).toBeTruthy();

    typeInto(g.create.name, 'Procurement team');
    fireEvent.click(screen.getByRole('button', { name: g.create.submit }));
    expect(await screen.findByText(g.errors.nameLength)).toBeTruthy();
    expect(inputLabelled(g.create.name).getAttribute('aria-invalid')).toBe('true');
    expect(requestsTo('POST', GROUPS)).toHaveLength(0);

    typeInto(g.create.name, 'Procurement');
    const picker = inputLabelled(g.create.members);
    fireEvent.change(picker, { target: { value: 'ra' } });
    await waitFor(() => expect(requestsTo('GET', USERS)).toHaveLength(1));
    expect(new URL(requestsTo('GET', USERS)[0]!.url, 'http://x').searchParams.get('q')).toBe('ra');
    fireEvent.click(picker);
    fireEvent.click(await screen.findByRole('option', { name: 'Ravi Iyer · ravi@example.com' }, { timeout: 3000 }));
    const chosen = await screen.findByRole('list', { name: g.picker.chosen });
    expect(within(chosen).getByText('Ravi Iyer')).toBeTruthy();
    await waitFor(() => expect(picker.value).toBe(''));

    fireEvent.click(screen.getByRole('button', { name: g.create.submit }));
    // The new group opens.
    expect(await screen.findByRole('heading', { level: 2, name: 'Procurement' })).toBeTruthy();
    expect(requestsTo('POST', GROUPS)).toHaveLength(1);
    expect(requestsTo('POST', GROUPS)[0]?.body).toEqual({ groupName: 'Procurement', userIds: [ravi.userId] });
    expect(await memberRow('Ravi Iyer')).toBeTruthy();
  });

  it('shows a taken name on the name field', async () => {
    const { requestsTo } = stubGroups([sales], { [`POST ${GROUPS}`]: () => errorResponse(-6, 400, 'A group with this name exists.') });
    await openGroups();
    typeInto(g.create.name, 'sales');
    fireEvent.click(screen.getByRole('button', { name: g.create.submit }));
    expect(await screen.findByText(g.errors.nameTaken)).toBeTruthy();
    expect(inputLabelled(g.create.name).getAttribute('aria-invalid')).toBe('true');
    expect(requestsTo('POST', GROUPS)).toHaveLength(1);
  });

  it('shows an open group with its members, the manager marked, and makes a member manager', async () => {
    const promoted: Group = { ...sales, users: [{ ...ravi, manager: true }, { ...meera, manager: false }] };
    const { requestsTo } = stubGroups([sales], { [`POST ${GROUPS}/${sales.groupId}/users`]: () => ok(promoted) });
    await openGroups(`/admin?section=groups&group=${sales.groupId}`);
    const members = within(await detail()).getAllByTestId('group-member');
    expect(members.map((row) => row.getAttribute('aria-label'))).toEqual(['Meera Nair', 'Ravi Iyer']);
    expect(within(members[0]!).getByText(g.detail.manager)).toBeTruthy();
    expect(within(members[0]!).getByText(meera.email)).toBeTruthy();
    expect(within(members[1]!).queryByText(g.detail.manager)).toBeNull();
    // The manager has no "make manager" of their own.
    expect(within(members[0]!).queryByRole('button', { name: g.detail.makeManagerLabel.replace('{{name}}', 'Meera Nair') })).toBeNull();

    fireEvent.click(within(members[1]!).getByRole('button', { name: g.detail.makeManagerLabel.replace('{{name}}', 'Ravi Iyer') }));
    expect(await screen.findByText(g.detail.managerMade.replace('{{name}}', 'Ravi Iyer'))).toBeTruthy();
    expect(requestsTo('POST', `${GROUPS}/${sales.groupId}/users`)[0]?.body).toEqual({ userIds: [ravi.userId], manager: true });
    expect(within(await memberRow('Ravi Iyer')).getByText(g.detail.manager)).toBeTruthy();
  });

  it.each([
    ['-141, a manager of another group', -141, g.errors.managesAnother],
    ["-172, the group's manager already", -172, g.errors.alreadyManager],
  ] as const)('says %s in words of its own', async (_, code, message) => {
    stubGroups([sales], { [`POST ${GROUPS}/${sales.groupId}/users`]: () => errorResponse(code, 409, 'refused') });
    await openGroups(`/admin?section=groups&group=${sales.groupId}`);
    fireEvent.click(within(await memberRow('Ravi Iyer')).getByRole('button', { name: g.detail.makeManagerLabel.replace('{{name}}', 'Ravi Iyer') }));
    expect((await within(await detail()).findByRole('alert')).textContent).toBe(message);
  });

  it('says -165 when the manager is to be removed, and removes anyone else', async () => {
    const without: Group = { ...sales, users: [meera] };
    const { requestsTo } = stubGroups([sales], {
      [`DELETE ${GROUPS}/${sales.groupId}/users`]: ({ body }) =>
        (body as { userIds: string[] }).userIds.includes(meera.userId) ? errorResponse(-165, 409, 'cannot delete manager') : ok(without),
    });
    await openGroups(`/admin?section=groups&group=${sales.groupId}`);
    fireEvent.click(within(await memberRow('Meera Nair')).getByRole('button', { name: g.detail.removeLabel.replace('{{name}}', 'Meera Nair') }));
    expect((await within(await detail()).findByRole('alert')).textContent).toBe(g.errors.cannotRemoveManager);
    expect(await memberRow('Meera Nair')).toBeTruthy();

    fireEvent.click(within(await memberRow('Ravi Iyer')).getByRole('button', { name: g.detail.removeLabel.replace('{{name}}', 'Ravi Iyer') }));
    expect(await screen.findByText(g.detail.removed.replace('{{name}}', 'Ravi Iyer'))).toBeTruthy();
    expect(within(await detail()).queryByRole('listitem', { name: 'Ravi Iyer' })).toBeNull();
    expect(requestsTo('DELETE', `${GROUPS}/${sales.groupId}/users`).map((request) => request.body)).toEqual([
      { userIds: [meera.userId] },
      { userIds: [ravi.userId] },
    ]);
  });

  it('adds the people picked, leaving out those already in the group', async () => {
    const grown: Group = { ...sales, users: [...sales.users, dev] };
    const { requestsTo } = stubGroups([sales], {
      [`POST ${GROUPS}/${sales.groupId}/users`]: () => ok(grown),
      [`GET ${USERS}`]: () =>
        ok({
          users: [ravi, dev].map((person) => ({ userId: person.userId, email: person.email, firstName: person.firstName, lastName: person.lastName, type: 'internal' })),
        }),
    });
    await openGroups(`/admin?section=groups&group=${sales.groupId}`);
    await detail();
    const picker = inputLabelled(g.detail.addLabel);
    fireEvent.change(picker, { target: { value: 'de' } });
    await waitFor(() => expect(requestsTo('GET', USERS)).toHaveLength(1));
    fireEvent.click(picker);
    fireEvent.click(await screen.findByRole('option', { name: 'Dev Sharma · dev@example.com' }, { timeout: 3000 }));
    // Ravi is a member already: never offered.
    expect(screen.queryByRole('option', { name: 'Ravi Iyer · ravi@example.com' })).toBeNull();
    fireEvent.click(await screen.findByRole('button', { name: 'Add 1 person' }));
    expect(await screen.findByText('1 person added.')).toBeTruthy();
    expect(requestsTo('POST', `${GROUPS}/${sales.groupId}/users`)[0]?.body).toEqual({ userIds: [dev.userId], manager: false });
    expect(await memberRow('Dev Sharma')).toBeTruthy();
  });

  it('renames a group after checking the new name, and deletes one after confirming', async () => {
    let groups = [sales, legal];
    const { requestsTo } = stubGroups(groups, {
      [`PUT ${GROUPS}`]: ({ body }) => {
        const renamed = { ...sales, groupName: (body as { groupName: string }).groupName };
        groups = [renamed, legal];
        return ok(renamed);
      },
      [`DELETE ${GROUPS}/${sales.groupId}`]: () => {
        groups = [legal];
        return ok({ groupId: sales.groupId });
      },
      [`GET ${GROUPS}`]: () => ok({ groups: groups.map(summary) }),
    });
    const { router } = await openGroups(`/admin?section=groups&group=${sales.groupId}`);
    fireEvent.click(within(await detail()).getByRole('button', { name: g.detail.rename }));
    typeInto(g.detail.newName, 'Sales and Marketing');
    fireEvent.click(screen.getByRole('button', { name: g.detail.save }));
    expect(await screen.findByText(g.errors.nameLength)).toBeTruthy();
    expect(requestsTo('PUT', GROUPS)).toHaveLength(0);
    typeInto(g.detail.newName, ' Revenue ');
    fireEvent.click(screen.getByRole('button', { name: g.detail.save }));
    expect(await screen.findByRole('heading', { level: 2, name: 'Revenue' })).toBeTruthy();
    expect(requestsTo('PUT', GROUPS)[0]?.body).toEqual({ groupId: sales.groupId, groupName: 'Revenue' });
    expect(screen.getByText(g.detail.renamed)).toBeTruthy();
    await waitFor(() => expect(within(screen.getByRole('list', { name: g.listLabel })).getByText('Revenue')).toBeTruthy());

    fireEvent.click(within(await detail()).getByRole('button', { name: g.detail.delete }));
    const dialog = await screen.findByRole('dialog', { name: g.confirmDelete.title });
    expect(dialog.textContent).toContain('“Revenue”');
    fireEvent.click(within(dialog).getByRole('button', { name: g.confirmDelete.confirm }));
    await waitFor(() => expect(router.state.location.search).toBe('?section=groups'));
    expect(await screen.findByRole('heading', { level: 2, name: g.create.title })).toBeTruthy();
    await waitFor(() => expect(within(screen.getByRole('list', { name: g.listLabel })).queryByText('Revenue')).toBeNull());
    expect(requestsTo('DELETE', `${GROUPS}/${sales.groupId}`)).toHaveLength(1);
  });

  it('says so when the group opened no longer exists', async () => {
    stubGroups([legal], { [`GET ${GROUPS}/${sales.groupId}`]: () => errorResponse(-1, 404, 'Not found') });
    const { router } = await openGroups(`/admin?section=groups&group=${sales.groupId}`);
    expect(await screen.findByText(g.detail.notFound)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: g.detail.back }));
    await waitFor(() => expect(router.state.location.search).toBe('?section=groups'));
  });
});
