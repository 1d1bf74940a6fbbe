import { DEFAULT_PASSWORD_CONFIG, resolveTenantSettings, type SessionUser, type TenantSettings, type TenantSettingsView } from '@pakt/domain';
import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { sessionStore } from '../../api/session-store';
import en from '../../i18n/en.json';
import { adminUser, jsonResponse, signedInSession, stubApi, TENANT_ACME } from '../../test/fake-api';
import { renderApp } from '../../test/render-app';

configure({ asyncUtilTimeout: 3000 });

const superAdmin: SessionUser = {
  ...adminUser,
  tenants: [{ tenantUuid: TENANT_ACME, tenantName: 'Acme Legal', userRole: 'super_admin', userLoginType: 'Email' }],
};
const install = { teamRooms: true, pdfCompare: true, features: true, supportedLanguages: ['en', 'hi'] as ('en' | 'hi')[] };
const viewOf = (stored: TenantSettings, updatedOn: string | null = null): TenantSettingsView => ({
  stored,
  inForce: resolveTenantSettings(stored, install),
  install,
  passwordConfig: DEFAULT_PASSWORD_CONFIG,
  updatedOn,
});
const ok = (data: unknown) => jsonResponse({ code: 1, data });
// A switch's accessible name is its label followed by its description (Mantine labels both).
const named = (label: string) => ({ name: new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`) });

function stubSettings(onSave: (body: { settings?: TenantSettings }) => Response) {
  let view = viewOf({});
  return stubApi({
    'GET /msbapi/v1/accessibilities': () =>
      ok({ role: 'super_admin', settings: { ...view.inForce, isMobileApp: false }, routes: ['settings'], menu: [{ id: 'settings', route: 'settings' }] }),
    'GET /msbapi/v2/settings': () => ok(view),
    'GET /msbapi/v2/user/getAllSuperadmins': () => ok({ superadmins: [] }),
    'PUT /msbapi/v2/settings': ({ body }) => {
      const answer = onSave(body as { settings?: TenantSettings });
      if (answer.ok) view = viewOf({ ...view.stored, ...(body as { settings?: TenantSettings }).settings }, '2026-11-26T10:00:00.000Z');
      return answer.ok ? ok(view) : answer;
    },
  });
}

// Whole-app renders with several tabs: under a loaded machine they take longer than 5 s.
describe('/settings', { timeout: 20_000 }, () => {
  it('saves only what changed, says so, and asks for the menu again', async () => {
    sessionStore.set(signedInSession(superAdmin));
    const { requestsTo } = stubSettings(() => new Response(null, { status: 200 }));
    renderApp('/settings');
    expect(await screen.findByRole('heading', { level: 1, name: en.settings.title })).toBeTruthy();
    const teamRooms = await screen.findByRole('switch', named(en.settings.fields.teamRoomsEnabled.label));
    expect((teamRooms as HTMLInputElement).checked).toBe(true);
    const bar = screen.getByRole('region', { name: en.settings.saveBar });
    expect(within(bar).getByText(en.settings.noChanges)).toBeTruthy();
    expect((within(bar).getByRole('button', { name: en.settings.save }) as HTMLButtonElement).disabled).toBe(true);

    fireEvent.click(teamRooms);
    expect(within(bar).getByText('1 unsaved change')).toBeTruthy();
    const menuAsked = requestsTo('GET', '/msbapi/v1/accessibilities').length;
    fireEvent.click(within(bar).getByRole('button', { name: en.settings.save }));
    expect(await within(bar).findByText(en.settings.saved)).toBeTruthy();
    expect(requestsTo('PUT', '/msbapi/v2/settings').map((r) => r.body)).toEqual([{ settings: { teamRoomsEnabled: false } }]);
    expect((screen.getByRole('switch', named(en.settings.fields.teamRoomsEnabled.label)) as HTMLInputElement).checked).toBe(false);
    await waitFor(() => expect(requestsTo('GET', '/msbapi/v1/accessibilities').length).toBeGreaterThan(menuAsked));
  });

  it("keeps a change made on one tab while another is open, and shows the server's refusal beside its field", async () => {
    sessionStore.set(signedInSession(superAdmin));
    stubSettings(() =>
      jsonResponse(
        { code: -6, data: null, message: 'Some settings break a rule.', issues: [{ path: 'settings.cloudDriveClientId', message: 'Cloud-drive upload needs the application (client) ID registered with the drive.' }] },
        400,
      ),
    );
    const { router } = renderApp('/settings?section=epaks');
    fireEvent.click(await screen.findByRole('switch', named(en.settings.fields.cloudDriveUploadEnabled.label)));
    fireEvent.click(screen.getByRole('tab', { name: en.settings.sections.people }));
    expect(router.state.location.search).toBe('?section=people');
    fireEvent.click(await screen.findByRole('switch', named(en.settings.fields.skipNewUsers.label)));
    const bar = screen.getByRole('region', { name: en.settings.saveBar });
    expect(within(bar).getByText('2 unsaved changes')).toBeTruthy();
    fireEvent.click(within(bar).getByRole('button', { name: en.settings.save }));
    expect(await within(bar).findByRole('alert')).toBeTruthy();
    expect(within(bar).getByRole('alert').textContent).toBe('Nothing was saved: 1 setting needs your attention (marked in red).');
    fireEvent.click(screen.getByRole('tab', { name: en.settings.sections.epaks }));
    expect(await screen.findByText('Cloud-drive upload needs the application (client) ID registered with the drive.')).toBeTruthy();
    // Discard puts the form back as saved.
    fireEvent.click(within(bar).getByRole('button', { name: en.settings.discard }));
    expect(within(bar).getByText(en.settings.noChanges)).toBeTruthy();
  });

  it('offers the session options under Sign-in, off by default, and saves them', async () => {
    sessionStore.set(signedInSession(superAdmin));
    const { requestsTo } = stubSettings(() => new Response(null, { status: 200 }));
    renderApp('/settings?section=signin');
    const sessions = await screen.findByRole('region', { name: en.settings.groups.sessions });
    const single = within(sessions).getByRole('switch', named(en.settings.fields.singleSession.label)) as HTMLInputElement;
    const bound = within(sessions).getByRole('switch', named(en.settings.fields.bindSessionToAddress.label)) as HTMLInputElement;
    expect([single.checked, bound.checked]).toEqual([false, false]);
    fireEvent.click(single);
    fireEvent.click(bound);
    const bar = screen.getByRole('region', { name: en.settings.saveBar });
    fireEvent.click(within(bar).getByRole('button', { name: en.settings.save }));
    expect(await within(bar).findByText(en.settings.saved)).toBeTruthy();
    expect(requestsTo('PUT', '/msbapi/v2/settings').map((r) => r.body)).toEqual([{ settings: { singleSession: true, bindSessionToAddress: true } }]);
  });

  it('is for super admins only', async () => {
    sessionStore.set(signedInSession(adminUser));
    stubApi({
      'GET /msbapi/v1/accessibilities': () =>
        ok({ role: 'admin', settings: { ...resolveTenantSettings({}, install), isMobileApp: false }, routes: ['admin'], menu: [] }),
    });
    const { router } = renderApp('/settings');
    await waitFor(() => expect(router.state.location.pathname).toBe('/accessdenied'));
  });
});
