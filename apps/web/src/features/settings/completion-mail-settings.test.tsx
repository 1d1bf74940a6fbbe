import { DEFAULT_PASSWORD_CONFIG, resolveTenantSettings, type SessionUser, type TenantSettings, type TenantSettingsView } from '@pakt/domain';
import { configure, fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { sessionStore } from '../../api/session-store';
import en from '../../i18n/en.json';
import { adminUser, jsonResponse, signedInSession, stubApi, TENANT_ACME } from '../../test/fake-api';
import { renderApp } from '../../test/render-app';

configure({ asyncUtilTimeout: 5000 });
// jsdom lays nothing out; Mantine's combobox scrolls the active option into view.
Element.prototype.scrollIntoView ??= () => undefined;

const superAdmin: SessionUser = {
  ...adminUser,
  tenants: [{ tenantUuid: TENANT_ACME, tenantName: 'Acme Legal', userRole: 'super_admin', userLoginType: 'Email' }],
};
const install = { teamRooms: true, pdfCompare: true, features: true, supportedLanguages: ['en', 'hi'] as ('en' | 'hi')[] };
const viewOf = (stored: TenantSettings): TenantSettingsView => ({ stored, inForce: resolveTenantSettings(stored, install), install, passwordConfig: DEFAULT_PASSWORD_CONFIG, updatedOn: null });
const ok = (data: unknown) => jsonResponse({ code: 1, data });
const s = en.settings;

describe('the completion mail settings', { timeout: 30_000 }, () => {
  it('start at everyone and 30 days, and save the owner only with a shorter link', async () => {
    sessionStore.set(signedInSession(superAdmin));
    let view = viewOf({});
    const { requestsTo } = stubApi({
      'GET /msbapi/v1/accessibilities': () => ok({ role: 'super_admin', settings: { ...view.inForce, isMobileApp: false }, routes: ['settings'], menu: [{ id: 'settings', route: 'settings' }] }),
      'GET /msbapi/v2/settings': () => ok(view),
      'GET /msbapi/v2/user/getAllSuperadmins': () => ok({ superadmins: [] }),
      'PUT /msbapi/v2/settings': ({ body }) => {
        view = viewOf({ ...view.stored, ...(body as { settings: TenantSettings }).settings });
        return ok(view);
      },
    });
    renderApp('/settings?section=epaks');
    const card = await screen.findByRole('region', { name: s.groups.completionMail });
    const who = within(card).getByLabelText(new RegExp(`^${s.fields.completionMailRecipients.label}`), { selector: 'input' }) as HTMLInputElement;
    const days = within(card).getByLabelText(new RegExp(`^${s.fields.completedLinkDays.label.replace(/[()]/g, '\\$&')}`), { selector: 'input' }) as HTMLInputElement;
    expect(who.value).toBe(s.options.completionMailRecipients.everyone);
    expect(days.value).toBe('30');

    fireEvent.click(who);
    fireEvent.click(await screen.findByRole('option', { name: s.options.completionMailRecipients.owner }));
    fireEvent.change(days, { target: { value: '7' } });
    const bar = screen.getByRole('region', { name: s.saveBar });
    fireEvent.click(within(bar).getByRole('button', { name: s.save }));
    expect(await within(bar).findByText(s.saved)).toBeTruthy();
    expect(requestsTo('PUT', '/msbapi/v2/settings').map((r) => r.body)).toEqual([{ settings: { completionMailRecipients: 'owner', completedLinkDays: 7 } }]);
  });
});
