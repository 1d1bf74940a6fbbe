import { describe, expect, it } from 'vitest';
import { DEFAULT_PERMISSION_SETTINGS } from './permissions';
import {
  DEFAULT_COMPLETED_LINK_DAYS,
  effectivePermissionSettings,
  failedRecipientFilter,
  resolveTenantSettings,
  resolveViewEnforced,
  signerVerificationChoice,
  viewEnforceChoice,
  type RecipientCandidate,
  type RecipientFilter,
  TenantSettings,
} from './tenant-settings';

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

describe('recipient filters (spec §5 "invalid filter")', () => {
  const person = (over: Partial<RecipientCandidate> = {}): RecipientCandidate => ({ email: 'asha@acme.test', verified: true, role: 'signer', ...over });

  it.each<[string, Parameters<typeof failedRecipientFilter>[0], RecipientCandidate, RecipientFilter | null]>([
    ['no filters: anyone', {}, person({ verified: false, role: null, email: 'x@else.test' }), null],
    ['internal domain', { recipientDomains: ['acme.test'] }, person(), null],
    ['a subdomain of it', { recipientDomains: ['acme.test'] }, person({ email: 'a@mail.acme.test' }), null],
    ['another domain', { recipientDomains: ['acme.test'] }, person({ email: 'a@notacme.test' }), 'domain'],
    ['empty domain list: any', { recipientDomains: [] }, person({ email: 'a@else.test' }), null],
    ['verified only, verified', { recipientsVerifiedOnly: true }, person(), null],
    ['verified only, not verified', { recipientsVerifiedOnly: true }, person({ verified: false }), 'verified'],
    ['roles, one held', { recipientRoles: ['signer', 'custodian'] }, person(), null],
    ['roles, another held', { recipientRoles: ['custodian'] }, person(), 'role'],
    ['roles, not a member', { recipientRoles: ['signer'] }, person({ role: null }), 'role'],
    ['all three, domain first', { recipientDomains: ['acme.test'], recipientsVerifiedOnly: true, recipientRoles: ['admin'] }, person({ email: 'a@b.test', verified: false }), 'domain'],
  ])('%s', (_name, settings, candidate, expected) => {
    expect(failedRecipientFilter(settings, candidate)).toBe(expected);
  });

  it('stores domains lower-case and refuses what is not a domain', () => {
    expect(TenantSettings.parse({ recipientDomains: [' Acme.TEST '] }).recipientDomains).toEqual(['acme.test']);
    expect(TenantSettings.safeParse({ recipientDomains: ['@acme'] }).success).toBe(false);
  });
});

describe('view-enforce options (spec §9)', () => {
  it.each([
    ['HideWithDefaultOn', { shown: false, initial: true }, [true, true, true]],
    ['HideWithDefaultOff', { shown: false, initial: false }, [false, false, false]],
    ['ShowWithDefaultOn', { shown: true, initial: true }, [true, false, true]],
    ['ShowWithDefaultOff', { shown: true, initial: false }, [true, false, false]],
  ] as const)('%s', (option, choice, [whenOn, whenOff, whenUnsaid]) => {
    expect(viewEnforceChoice(option)).toEqual(choice);
    expect([resolveViewEnforced(option, true), resolveViewEnforced(option, false), resolveViewEnforced(option, undefined)]).toEqual([whenOn, whenOff, whenUnsaid]);
  });

  it('shows the choice, starting off, when the tenant sets none', () => {
    expect(viewEnforceChoice()).toEqual({ shown: true, initial: false });
    expect(resolveViewEnforced(undefined, true)).toBe(true);
  });
});

describe('the completion mail settings', () => {
  const install = { ...allOn, supportedLanguages: ['en' as const] };
  it('mail everyone, with a link good for 30 days, unless the tenant says otherwise', () => {
    expect(resolveTenantSettings({}, install)).toMatchObject({ completionMailRecipients: 'everyone', completedLinkDays: DEFAULT_COMPLETED_LINK_DAYS });
    expect(DEFAULT_COMPLETED_LINK_DAYS).toBe(30);
    expect(resolveTenantSettings({ completionMailRecipients: 'owner', completedLinkDays: 3 }, install)).toMatchObject({
      completionMailRecipients: 'owner',
      completedLinkDays: 3,
    });
  });

  it.each([
    [{ completedLinkDays: 0 }, false],
    [{ completedLinkDays: 1 }, true],
    [{ completedLinkDays: 365 }, true],
    [{ completedLinkDays: 366 }, false],
    [{ completedLinkDays: 2.5 }, false],
    [{ completionMailRecipients: 'signers' }, false],
    [{ completionMailRecipients: 'owner' }, true],
  ])('%j is valid: %s', (settings, valid) => {
    expect(TenantSettings.safeParse(settings).success).toBe(valid);
  });
});

describe('signer verification modes (spec §9)', () => {
  // [mode, shown, initial, in force when the composer chose on, chose off, chose nothing]
  it.each([
    ['ON', false, true, true, true, true],
    ['OFF', false, false, false, false, false],
    ['DefaultSelectiveON', true, true, true, false, true],
    ['DefaultSelectiveOFF', true, false, true, false, false],
  ] as const)('%s: shown %s, starts %s, in force %s / %s / %s', (mode, shown, initial, whenOn, whenOff, whenUnsaid) => {
    expect(signerVerificationChoice(mode)).toEqual({ shown, initial, required: whenUnsaid });
    expect([signerVerificationChoice(mode, true).required, signerVerificationChoice(mode, false).required, signerVerificationChoice(mode, undefined).required]).toEqual([
      whenOn,
      whenOff,
      whenUnsaid,
    ]);
    // The choice never changes whether it is shown or what it starts as.
    expect(signerVerificationChoice(mode, !initial)).toMatchObject({ shown, initial });
  });

  it('asks nobody when the tenant sets no mode, whatever the composer sent', () => {
    expect(signerVerificationChoice()).toEqual({ shown: false, initial: false, required: false });
    expect(signerVerificationChoice(undefined, true).required).toBe(false);
  });
});
