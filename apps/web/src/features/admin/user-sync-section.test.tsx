import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { resolvePermissionSettings, type UserSyncRun, type UserSyncRunDetail } from '@pakt/domain';
import { describe, expect, it } from 'vitest';
import { TENANT_HEADER } from '../../api/client';
import { sessionStore } from '../../api/session-store';
import en from '../../i18n/en.json';
import { errorResponse, jsonResponse, signedInSession, stubApi, TENANT_ACME } from '../../test/fake-api';
import { renderApp } from '../../test/render-app';
import { userSyncCodeKey } from './user-sync-section';

// These render the whole app with its queries; on a busy machine the first answer can take more
// than Testing Library's default second.
configure({ asyncUtilTimeout: 3000 });

const u = en.userSync;
const LIST = '/msbapi/v2/userSyncUps';
const START = '/msbapi/v2/startUserSyncUp';
const ok = (data: unknown) => jsonResponse({ code: 1, data });

const source = (overrides = {}) => ({
  fileName: 'people.csv',
  folder: TENANT_ACME,
  disableMissing: true,
  defaultRole: 'signer',
  file: { present: true, size: 2048, modifiedOn: '2025-03-04T09:00:00.000Z' },
  ...overrides,
});

const run = (overrides: Partial<UserSyncRun> = {}): UserSyncRun => ({
  runId: '3f1c2b4a-5d6e-4f70-8a9b-0c1d2e3f4a5b',
  status: 'succeeded',
  fileName: 'people.csv',
  startedBy: { userId: '5d1c9a7e-2b4f-4e6a-8c3d-0f1e2a3b4c5d', email: 'asha@example.com', name: 'Asha Rao' },
  createdOn: '2025-03-04T10:15:00.000Z',
  startedOn: '2025-03-04T10:15:01.000Z',
  finishedOn: '2025-03-04T10:15:02.000Z',
  counts: { rows: 4, invited: 1, roleChanged: 1, enabled: 0, disabled: 1, unchanged: 0, errors: 1 },
  error: null,
  ...overrides,
});

const report: UserSyncRunDetail['report'] = {
  changes: [
    { email: 'nina@example.com', kind: 'invited', from: null, to: 'custodian', line: 2 },
    { email: 'sam@example.com', kind: 'roleChanged', from: 'signer', to: 'submitter', line: 3 },
    { email: 'gone@example.com', kind: 'disabled', from: 'active', to: 'disabled', line: null },
  ],
  errors: [{ line: 5, email: 'new@example.com', field: 'firstName', code: -2, message: 'A first name is needed to invite someone new.' }],
};

async function openSync() {
  sessionStore.set(signedInSession());
  renderApp('/admin?section=userSync');
  await screen.findByRole('heading', { level: 1, name: u.title });
}

describe('explaining codes', () => {
  it('reads field codes by their field, and the rest by the catalogue', () => {
    expect(userSyncCodeKey({ code: -2, field: 'firstName' })).toBe('userSync.codes.firstName');
    expect(userSyncCodeKey({ code: -2, field: null })).toBe('userSync.codes.other');
    expect(userSyncCodeKey({ code: -181, field: null })).toBe('userSync.codes.mandatory');
    expect(userSyncCodeKey({ code: -11, field: 'role' })).toBe('userSync.codes.notAllowed');
  });
});

describe('user sync-up on /admin', () => {
  it('shows where the feed goes, the runs and the latest report: counts, changes and refused rows explained', async () => {
    const { requestsTo } = stubApi({
      [`GET ${LIST}`]: () => ok({ source: source(), runs: [run()] }),
      [`GET ${LIST}/${run().runId}`]: () => ok({ ...run(), report }),
    });
    await openSync();
    const feed = await screen.findByRole('region', { name: u.source.title });
    expect(within(feed).getByText('people.csv')).toBeTruthy();
    expect(within(feed).getByText(u.source.present)).toBeTruthy();
    expect(within(feed).getByText(u.source.disableMissingOn, { exact: false })).toBeTruthy();
    // The folder is the tenant's id, and the admin is told who names the file.
    expect(within(feed).getAllByText(TENANT_ACME, { exact: false }).length).toBeGreaterThan(0);
    expect(within(feed).getByText(/super admin sets the file name in Settings/)).toBeTruthy();
    expect(requestsTo('GET', LIST)[0]?.headers.get(TENANT_HEADER)).toBe(TENANT_ACME);

    const reportCard = await screen.findByTestId('user-sync-report');
    expect(within(reportCard).getByTestId('user-sync-count-invited').textContent).toContain('1');
    const changes = within(reportCard).getAllByTestId('user-sync-change');
    expect(changes).toHaveLength(3);
    expect(within(changes[1]!).getByText(`${en.roles.signer} → ${en.roles.submitter}`)).toBeTruthy();
    expect(within(changes[2]!).getByText(u.report.notInFeed, { exact: false })).toBeTruthy();
    const refused = within(reportCard).getByTestId('user-sync-error');
    expect(within(refused).getByText('-2')).toBeTruthy();
    expect(within(refused).getByText(u.codes.firstName)).toBeTruthy();
    expect(within(refused).getByText(`${u.report.line} 5 · ${u.fields.firstName}`)).toBeTruthy();
    expect(screen.getByRole('button', { name: u.start }).hasAttribute('disabled')).toBe(false);
  });

  it('starts a run, then keeps the button off and asks again while it is queued', async () => {
    let runs: UserSyncRun[] = [];
    const queued = run({ runId: '4a2d3c5b-6e7f-4081-9b0c-1d2e3f4a5b6c', status: 'queued', startedOn: null, finishedOn: null, counts: null });
    const { requestsTo } = stubApi({
      [`GET ${LIST}`]: () => ok({ source: source({ file: { present: false, size: null, modifiedOn: null } }), runs }),
      [`POST ${START}`]: () => {
        runs = [queued];
        return ok(queued);
      },
      [`GET ${LIST}/${queued.runId}`]: () => ok({ ...queued, report: null }),
    });
    await openSync();
    expect(await screen.findByText(u.source.missing)).toBeTruthy();
    expect(screen.getByText(u.runs.empty)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: u.start }));
    await screen.findByText(u.busy);
    expect(requestsTo('POST', START)).toHaveLength(1);
    await waitFor(() => expect(screen.getByRole('button', { name: u.start }).hasAttribute('disabled')).toBe(true));
    expect(await screen.findByText(u.report.waiting)).toBeTruthy();
    // Polled while queued: the list is asked for again without anyone doing anything.
    const asked = requestsTo('GET', LIST).length;
    await waitFor(() => expect(requestsTo('GET', LIST).length).toBeGreaterThan(asked), { timeout: 5000 });
  });

  it('says what is missing when no feed is configured, and shows a refused start', async () => {
    stubApi({
      [`GET ${LIST}`]: () => ok({ source: source({ fileName: null, file: { present: false, size: null, modifiedOn: null } }), runs: [] }),
    });
    await openSync();
    expect(await screen.findByText(u.source.notConfigured)).toBeTruthy();
    expect(screen.getByRole('button', { name: u.start }).hasAttribute('disabled')).toBe(true);
  });

  it('shows the server’s message when a start is refused', async () => {
    stubApi({
      [`GET ${LIST}`]: () => ok({ source: source(), runs: [] }),
      [`POST ${START}`]: () => errorResponse(-6, 400, 'No user sync-up feed is configured: a super admin sets its file name in Settings.'),
    });
    await openSync();
    fireEvent.click(await screen.findByRole('button', { name: u.start }));
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText(/No user sync-up feed is configured/)).toBeTruthy();
  });

  it('has no tab when the tenant switched user sync-up off', async () => {
    sessionStore.set(signedInSession());
    stubApi({
      'GET /msbapi/v1/accessibilities': () =>
        jsonResponse({ code: 1, data: { role: 'admin', settings: resolvePermissionSettings({ showUserSyncUp: false }), routes: [], menu: [] } }),
    });
    renderApp('/admin?section=userSync');
    await screen.findAllByRole('tab');
    expect(screen.queryByRole('tab', { name: u.tab })).toBeNull();
  });
});
