import { configure, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { sessionStore } from '../../api/session-store';
import en from '../../i18n/en.json';
import { adminUser, jsonResponse, signedInSession, stubApi, TENANT_GLOBEX } from '../../test/fake-api';
import { renderApp } from '../../test/render-app';

// These render the whole app with its queries; on a busy machine the first answer can take more
// than Testing Library's default second.
configure({ asyncUtilTimeout: 3000 });

const ok = (data: unknown) => jsonResponse({ code: 1, data });

function stubAdmin() {
  return stubApi({
    'GET /msbapi/v1/outbox': () => ok({ messages: [] }),
    'GET /msbapi/v1/filteredusers': () =>
      ok({ filter: 'All', total: 0, pg: 0, size: 25, users: [], counts: { Signers: 0, Submitters: 0, Custodians: 0, Admin: 0, RetentionAdmin: 0, All: 0 } }),
    'GET /msbapi/v1/groups': () => ok({ groups: [] }),
    'GET /msbapi/v2/admin/audit': () => ok({ total: 0, pg: 0, size: 25, items: [] }),
  });
}

describe('/admin sections', () => {
  it("opens on the people for an admin, with the outbox, announcements, groups and audit log beside them, each at its own address", async () => {
    sessionStore.set(signedInSession());
    const { requestsTo } = stubAdmin();
    const { router } = renderApp('/admin');
    expect(await screen.findByRole('heading', { level: 1, name: en.users.title })).toBeTruthy();
    expect(screen.getAllByRole('tab').map((tab) => tab.textContent)).toEqual([
      en.users.tab,
      en.outbox.title,
      en.announcements.tab,
      en.groups.tab,
      en.workflowStatesAdmin.tab,
      en.reasonsAdmin.tab,
      en.userSync.tab,
      en.adminAudit.tab,
    ]);
    // Nothing of a section is asked before it is opened.
    expect(requestsTo('GET', '/msbapi/v1/groups')).toHaveLength(0);
    expect(requestsTo('GET', '/msbapi/v2/admin/audit')).toHaveLength(0);

    fireEvent.click(screen.getByRole('tab', { name: en.groups.tab }));
    expect(await screen.findByRole('heading', { level: 1, name: en.groups.title })).toBeTruthy();
    expect(router.state.location.search).toBe('?section=groups');
    await waitFor(() => expect(requestsTo('GET', '/msbapi/v1/groups')).toHaveLength(1));

    fireEvent.click(screen.getByRole('tab', { name: en.adminAudit.tab }));
    expect(await screen.findByRole('heading', { level: 1, name: en.adminAudit.title })).toBeTruthy();
    expect(router.state.location.search).toBe('?section=audit');

    fireEvent.click(screen.getByRole('tab', { name: en.outbox.title }));
    expect(await screen.findByRole('heading', { level: 1, name: en.outbox.title })).toBeTruthy();
    expect(router.state.location.search).toBe('?section=outbox');

    fireEvent.click(screen.getByRole('tab', { name: en.users.tab }));
    expect(await screen.findByRole('heading', { level: 1, name: en.users.title })).toBeTruthy();
    expect(router.state.location.search).toBe('');
  });

  it('opens the section the address names', async () => {
    sessionStore.set(signedInSession());
    stubAdmin();
    renderApp('/admin?section=audit');
    expect(await screen.findByRole('heading', { level: 1, name: en.adminAudit.title })).toBeTruthy();
    expect(screen.getByRole('tab', { name: en.adminAudit.tab }).getAttribute('aria-selected')).toBe('true');
  });

  it('falls back to the first section, the people, for an unknown section', async () => {
    sessionStore.set(signedInSession());
    stubAdmin();
    renderApp('/admin?section=payroll');
    expect(await screen.findByRole('heading', { level: 1, name: en.users.title })).toBeTruthy();
  });

  it('shows neither groups nor the log to a member the permissions module refuses them', async () => {
    // Globex is where Asha is a signer: /admin is closed, and nothing of its sections is asked.
    sessionStore.set(signedInSession(adminUser, { tenantUuid: TENANT_GLOBEX }));
    const { requestsTo } = stubAdmin();
    const { router } = renderApp('/admin?section=groups');
    await screen.findByText(en.accessDenied.forbidden.title);
    expect(router.state.location.pathname).toBe('/accessdenied');
    expect(screen.queryByRole('tab', { name: en.groups.tab })).toBeNull();
    expect(requestsTo('GET', '/msbapi/v1/groups')).toHaveLength(0);
    expect(requestsTo('GET', '/msbapi/v2/admin/audit')).toHaveLength(0);
    expect(requestsTo('GET', '/msbapi/v1/filteredusers')).toHaveLength(0);
  });
});
