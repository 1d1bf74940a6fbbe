import { describe, expect, it } from 'vitest';
import { adminUser, configurationData, rootUser, TENANT_ACME, TENANT_GLOBEX } from '../test/fake-api';
import { effectiveRole, landingPathFor, pathAfterTenantSwitch, permissionSettingsFrom } from './access';

describe('effectiveRole', () => {
  it('is root for the root account, whatever tenant is stored', () => {
    expect(effectiveRole({ user: rootUser, tenantUuid: TENANT_ACME })).toBe('root');
  });

  it('is the role of the selected tenant for everyone else', () => {
    expect(effectiveRole({ user: adminUser, tenantUuid: TENANT_ACME })).toBe('admin');
    expect(effectiveRole({ user: adminUser, tenantUuid: TENANT_GLOBEX })).toBe('signer');
  });

  it('is null without a tenant the user belongs to', () => {
    expect(effectiveRole({ user: adminUser, tenantUuid: null })).toBeNull();
    expect(effectiveRole({ user: adminUser, tenantUuid: 'c2f5a3f0-0000-4000-8000-000000000000' })).toBeNull();
  });
});

describe('landingPathFor', () => {
  it.each([
    { who: 'root', user: rootUser, to: '/root' },
    { who: 'a tenant user', user: adminUser, to: '/dashboard' },
    { who: 'a tenant user without any tenant', user: { ...adminUser, tenants: [] }, to: '/' },
    { who: 'a user whose password was reset', user: { ...adminUser, status: 'resetpassword' as const }, to: '/changepassword' },
    { who: 'a user whose password expired', user: { ...adminUser, status: 'expired' as const }, to: '/changepassword' },
  ])('sends $who to $to', ({ user, to }) => {
    expect(landingPathFor({ user, tenantUuid: user.tenants[0]?.tenantUuid ?? null })).toBe(to);
  });

  const superAdmin = { ...adminUser, tenants: [{ ...adminUser.tenants[0]!, userRole: 'super_admin' as const }, adminUser.tenants[1]!] };

  it('sends a super admin straight to the settings screen, once that screen exists', () => {
    const inTenant = { user: superAdmin, tenantUuid: TENANT_ACME };
    expect(landingPathFor(inTenant, undefined, new Set(['settings']))).toBe('/settings');
    // Not built: home, rather than a page that does not exist.
    expect(landingPathFor(inTenant, undefined, new Set())).toBe('/');
    // This build has it.
    expect(landingPathFor(inTenant)).toBe('/settings');
    // The role goes with the tenant: the same person as a signer elsewhere lands on their dashboard,
    // once that is built.
    expect(landingPathFor({ user: superAdmin, tenantUuid: TENANT_GLOBEX }, undefined, new Set(['settings']))).toBe('/');
    expect(landingPathFor({ user: superAdmin, tenantUuid: TENANT_GLOBEX }, undefined, new Set(['settings', 'dashboard']))).toBe('/dashboard');
  });
});

describe('permissionSettingsFrom', () => {
  it('applies the public feature flags to the permission settings', () => {
    const settings = permissionSettingsFrom(configurationData.features);
    expect(settings).toMatchObject({ teamRoomsEnabled: false, pdfCompareEnabled: false, featuresEnabled: false });
  });
});

describe('pathAfterTenantSwitch', () => {
  const superAdminInGlobex = { ...adminUser, tenants: [adminUser.tenants[0]!, { ...adminUser.tenants[1]!, userRole: 'super_admin' as const }] };
  it.each([
    { why: 'admin in both: the admin page stays', user: { ...adminUser, tenants: adminUser.tenants.map((t) => ({ ...t, userRole: 'admin' as const })) }, from: '/admin', to: null },
    { why: 'a signer in the new tenant may not open /admin: their dashboard', user: adminUser, from: '/admin', to: '/dashboard' },
    { why: 'the profile is everyone\'s: it stays', user: adminUser, from: '/profile', to: null },
    { why: 'home stays home', user: adminUser, from: '/', to: null },
    { why: 'a super admin goes to their landing page even from a page they may open', user: superAdminInGlobex, from: '/profile', to: '/settings' },
  ])('$why', ({ user, from, to }) => {
    expect(pathAfterTenantSwitch({ user, tenantUuid: TENANT_GLOBEX }, from)).toBe(to);
  });

  it('takes a super admin straight to settings once that screen exists', () => {
    expect(pathAfterTenantSwitch({ user: superAdminInGlobex, tenantUuid: TENANT_GLOBEX }, '/profile', undefined, new Set(['settings']))).toBe('/settings');
  });
});
