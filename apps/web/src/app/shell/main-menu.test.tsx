import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { sessionStore } from '../../api/session-store';
import en from '../../i18n/en.json';
import { resolvePermissionSettings } from '@pakt/domain';
import { adminUser, jsonResponse, rootUser, signedInSession, stubApi, TENANT_ACME, TENANT_GLOBEX } from '../../test/fake-api';
import { renderApp } from '../../test/render-app';

describe('MainMenu', () => {
  it("lists an admin's items by visibleMenu, linking the built pages and disabling the rest", async () => {
    sessionStore.set(signedInSession());
    stubApi();
    renderApp('/');
    fireEvent.click(await screen.findByRole('button', { name: en.menu.open }));
    const admin = await screen.findByRole('menuitem', { name: en.menu.admin });
    expect(admin.getAttribute('href')).toBe('/admin');
    expect(screen.getByRole('menuitem', { name: en.menu.dashboard }).getAttribute('href')).toBe('/dashboard');
    expect(screen.getByRole('menuitem', { name: en.menu.epaks }).getAttribute('href')).toBe('/epaks');
    // Both items of the compose drop-down lead to their pages.
    expect(screen.getByRole('menuitem', { name: en.menu.compose_compose }).getAttribute('href')).toBe('/compose');
    expect(screen.getByRole('menuitem', { name: en.menu.compose_bulkcompose }).getAttribute('href')).toBe('/bulkcompose');
    const reports = screen.getByRole('menuitem', { name: new RegExp(`^${en.menu.reports}`) });
    expect(reports.hasAttribute('disabled') || reports.getAttribute('data-disabled') === 'true').toBe(true);
    expect(screen.getByRole('menuitem', { name: new RegExp(`^${en.menu.admin_stamps}`) })).toBeTruthy();
    // Sub-items not built yet do not pretend to lead anywhere.
    const fieldMapping = screen.getByRole('menuitem', { name: new RegExp(`^${en.menu.admin_fieldMapping}`) });
    expect(fieldMapping.getAttribute('href')).toBeNull();
    // Edit reasons is a section of /admin too (shown while showEditReasons is on).
    expect(screen.getByRole('menuitem', { name: en.menu.admin_editReasons }).getAttribute('href')).toBe('/admin?section=reasons');
    // Edit workflow states is a section of /admin, and leads straight to it.
    const states = screen.getByRole('menuitem', { name: en.menu.admin_editWorkflowStates });
    expect(states.getAttribute('href')).toBe('/admin?section=workflowStates');
    // The public flags turn team rooms and compare off in the fake configuration.
    expect(screen.queryByRole('menuitem', { name: new RegExp(`^${en.menu.teamroom}`) })).toBeNull();
    expect(screen.queryByRole('menuitem', { name: new RegExp(`^${en.menu.settings}`) })).toBeNull();
  });

  it("follows the tenant's own settings: restrict-workflow hides workflows from a submitter, menu and route", async () => {
    const submitter = { ...adminUser, tenants: [{ ...adminUser.tenants[0]!, userRole: 'submitter' as const }] };
    sessionStore.set(signedInSession(submitter, { tenantUuid: TENANT_ACME }));
    stubApi({
      'GET /msbapi/v1/accessibilities': () =>
        jsonResponse({ code: 1, data: { role: 'submitter', settings: resolvePermissionSettings({ restrictWorkflow: true }), routes: [], menu: [] } }),
    });
    const { router } = renderApp('/workflows');
    await screen.findByRole('heading', { level: 1, name: en.accessDenied.forbidden.title });
    expect(router.state.location.pathname).toBe('/accessdenied');
    fireEvent.click(await screen.findByRole('button', { name: en.menu.open }));
    await screen.findByRole('menuitem', { name: new RegExp(`^${en.menu.epaks}`) });
    expect(screen.queryByRole('menuitem', { name: new RegExp(`^${en.menu.workflows}`) })).toBeNull();
  });

  it('gives a signer no admin item', async () => {
    sessionStore.set(signedInSession(adminUser, { tenantUuid: TENANT_GLOBEX }));
    stubApi();
    renderApp('/');
    fireEvent.click(await screen.findByRole('button', { name: en.menu.open }));
    await screen.findByRole('menuitem', { name: new RegExp(`^${en.menu.epaks}`) });
    expect(screen.queryByRole('menuitem', { name: en.menu.admin })).toBeNull();
  });

  it.each([
    { role: 'admin', composes: true },
    { role: 'custodian', composes: true },
    { role: 'submitter', composes: true },
    { role: 'signer', composes: false },
    { role: 'registrar', composes: false },
    { role: 'super_admin', composes: false },
  ] as const)('names Compose once for $role (composes: $composes)', async ({ role, composes }) => {
    const user = { ...adminUser, tenants: [{ ...adminUser.tenants[0]!, userRole: role }] };
    sessionStore.set(signedInSession(user, { tenantUuid: TENANT_ACME }));
    stubApi();
    renderApp('/profile');
    fireEvent.click(await screen.findByRole('button', { name: en.menu.open }));
    const menu = await screen.findByRole('menu');
    await waitFor(() => expect(menu.querySelectorAll('[role="menuitem"]').length).toBeGreaterThan(0));
    // Every piece of text in the menu, items and labels alike, that reads just "Compose".
    const composeTexts = [...menu.querySelectorAll('*')].filter(
      (element) => element.children.length === 0 && element.textContent?.trim() === en.menu.compose,
    );
    expect(composeTexts).toHaveLength(composes ? 1 : 0);
    if (composes) {
      expect(screen.getByRole('menuitem', { name: en.menu.compose_compose }).getAttribute('href')).toBe('/compose');
      expect(screen.getByRole('menuitem', { name: en.menu.compose_bulkcompose }).getAttribute('href')).toBe('/bulkcompose');
    }
  });

  it('is absent for root, who has no menu', async () => {
    sessionStore.set(signedInSession(rootUser));
    stubApi({ 'GET /msbapi/v1/root/tenants': () => undefined });
    renderApp('/');
    await screen.findByRole('heading', { level: 1 });
    expect(screen.queryByRole('button', { name: en.menu.open })).toBeNull();
  });
});
