import { describe, expect, it } from 'vitest';
import { DEFAULT_PERMISSION_SETTINGS } from './permissions';
import { effectivePermissionSettings, TenantSettings } from './tenant-settings';

const allOn = { teamRooms: true, pdfCompare: true, features: true };

describe('effectivePermissionSettings', () => {
  it('is the defaults when neither the install nor the tenant says otherwise', () => {
    expect(effectivePermissionSettings(allOn, {})).toEqual(DEFAULT_PERMISSION_SETTINGS);
  });

  it.each([
    ['install off, tenant silent', { ...allOn, teamRooms: false }, {}, false],
    ['install off, tenant on', { ...allOn, teamRooms: false }, { teamRoomsEnabled: true }, false],
    ['install on, tenant off', allOn, { teamRoomsEnabled: false }, false],
    ['install on, tenant on', allOn, { teamRoomsEnabled: true }, true],
  ] as const)('team rooms: %s', (_name, install, tenant, expected) => {
    expect(effectivePermissionSettings(install, tenant).teamRoomsEnabled).toBe(expected);
  });

  it('takes tenant-only switches from the tenant', () => {
    const s = effectivePermissionSettings(allOn, { restrictWorkflow: true, showStamps: false }, { isMobileApp: true });
    expect(s).toMatchObject({ restrictWorkflow: true, showStamps: false, isMobileApp: true, showEditReasons: true });
  });

  it('validates stored settings', () => {
    expect(TenantSettings.safeParse({ supportedLanguages: [] }).success).toBe(false);
    expect(TenantSettings.safeParse({ teamRoomsEnabled: 'yes' }).success).toBe(false);
    expect(TenantSettings.parse({ supportedLanguages: ['hi'] })).toEqual({ supportedLanguages: ['hi'] });
  });
});
