import { describe, expect, it } from 'vitest';
import { adminUser, configurationData, rootUser, TENANT_ACME, TENANT_GLOBEX } from '../test/fake-api';
import { effectiveRole, landingPathFor, permissionSettingsFrom } from './access';

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
    { who: 'a tenant user', user: adminUser, to: '/' },
    { who: 'a user whose password was reset', user: { ...adminUser, status: 'resetpassword' as const }, to: '/changepassword' },
    { who: 'a user whose password expired', user: { ...adminUser, status: 'expired' as const }, to: '/changepassword' },
  ])('sends $who to $to', ({ user, to }) => {
    expect(landingPathFor(user)).toBe(to);
  });
});

describe('permissionSettingsFrom', () => {
  it('applies the public feature flags to the permission settings', () => {
    const settings = permissionSettingsFrom(configurationData.features);
    expect(settings).toMatchObject({ teamRoomsEnabled: false, pdfCompareEnabled: false, featuresEnabled: false });
  });
});
