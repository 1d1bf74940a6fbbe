import { describe, expect, it } from 'vitest';
import { ROLES, type Role } from '../constants/roles';
import { ACTIONS, REFUSAL_REASONS, REFUSAL_RESPONSES, allowedActions, authorize, type Action, type Actor, type AuthorizationContext, type RefusalReason } from './actions';
import { can } from '../policies';
import { resolvePermissionSettings } from './settings';

const Y = true;
const N = false;
const COLUMNS = ['root', 'super_admin', 'signer', 'submitter', 'custodian', 'admin', 'registrar'] as const satisfies readonly Role[];

const TENANT = 'tenant-1';
const OTHER_TENANT = 'tenant-2';
const ME = 'user-me';
const SOMEONE = 'user-other';

/** An enabled user in TENANT; root has no tenant. */
function actor(role: Role, overrides: Partial<Actor> = {}): Actor {
  return { role, userId: ME, userStatus: 'enabled', ...(role === 'root' ? {} : { tenantId: TENANT }), ...overrides };
}

/**
 * Role x action with no context: for self-service actions (user.read, profile.*, password.change)
 * that means "on one's own account"; for the others "may this role do this at all". Written by hand.
 */
// prettier-ignore
const ACTION_MATRIX: ReadonlyArray<readonly [Action, ...boolean[]]> = [
  //  action                   root super_admin signer submitter custodian admin registrar
  ['tenant.create',             Y,   N,          N,     N,        N,        N,    N],
  ['tenant.list',               Y,   N,          N,     N,        N,        N,    N],
  ['tenant.admin.create',       Y,   N,          N,     N,        N,        N,    N],
  ['install.settings',          Y,   N,          N,     N,        N,        N,    N],
  ['user.list',                 N,   N,          N,     N,        N,        Y,    N],
  ['user.invite',               N,   N,          N,     N,        N,        Y,    N],
  ['user.read',                 Y,   Y,          Y,     Y,        Y,        Y,    Y],
  ['user.updateRole',           N,   N,          N,     N,        N,        Y,    N],
  ['user.bulkUpdateRoles',      N,   N,          N,     N,        N,        Y,    N],
  ['user.resetPassword',        N,   N,          N,     N,        N,        Y,    N],
  ['user.disable',              N,   N,          N,     N,        N,        Y,    N],
  ['user.photo.delete',         Y,   Y,          Y,     Y,        Y,        Y,    Y],
  ['user.passcodeFlag',         N,   N,          N,     N,        N,        Y,    N],
  ['user.resetTwoFactor',       N,   N,          N,     N,        N,        Y,    N],
  ['profile.read',              Y,   Y,          Y,     Y,        Y,        Y,    Y],
  ['profile.update',            Y,   Y,          Y,     Y,        Y,        Y,    Y],
  ['password.change',           Y,   Y,          Y,     Y,        Y,        Y,    Y],
  ['settings.read',             N,   Y,          N,     N,        N,        N,    N],
  ['settings.update',           N,   Y,          N,     N,        N,        N,    N],
  ['superadmin.list',           N,   Y,          N,     N,        N,        N,    N],
  ['superadmin.register',       N,   Y,          N,     N,        N,        N,    N],
  ['superadmin.updateStatus',   N,   Y,          N,     N,        N,        N,    N],
  ['outbox.read',               Y,   N,          N,     N,        N,        Y,    N],
  ['group.read',                N,   N,          N,     Y,        Y,        Y,    N],
  ['group.manage',              N,   N,          N,     N,        N,        Y,    N],
  ['audit.read',                N,   N,          N,     N,        N,        Y,    N],
  ['workflow.manage',           N,   N,          N,     Y,        Y,        Y,    N],
  ['workflowState.edit',        N,   N,          N,     N,        N,        Y,    N],
  ['epak.compose',              N,   N,          N,     Y,        Y,        Y,    N],
  ['epak.bulkCompose',          N,   N,          N,     Y,        Y,        Y,    N],
  ['epak.act',                  N,   N,          Y,     Y,        Y,        Y,    Y],
  ['document.manage',           N,   N,          N,     Y,        Y,        Y,    N],
  ['stampPaper.manage',         N,   N,          N,     N,        N,        Y,    N],
  ['report.read',               N,   N,          Y,     Y,        Y,        Y,    N],
  ['report.retention',          N,   N,          N,     N,        N,        Y,    N],
  ['teamroom.use',              N,   N,          Y,     Y,        Y,        Y,    N],
  ['compare.use',               N,   N,          N,     Y,        Y,        Y,    N],
  ['webform.manage',            N,   N,          N,     N,        N,        Y,    N],
  ['reason.manage',             N,   N,          N,     N,        N,        Y,    N],
  ['userSync.start',            N,   N,          N,     N,        N,        Y,    N],
  ['announcement.manage',       Y,   N,          N,     N,        N,        Y,    N],
  ['statistics.tenant',         N,   N,          N,     N,        N,        Y,    N],
  ['rubberStamp.manage',        N,   N,          Y,     Y,        Y,        Y,    N],
];

const matrixRows = ACTION_MATRIX.flatMap(([action, ...cells]) => COLUMNS.map((role, column) => [role, action, cells[column]!] as const));

describe('role x action, no context', () => {
  it('covers every role and every action exactly once', () => {
    expect([...COLUMNS].sort()).toEqual([...ROLES].sort());
    expect(ACTION_MATRIX.map(([action]) => action).sort()).toEqual([...ACTIONS].sort());
    expect(ACTION_MATRIX.every((row) => row.length === COLUMNS.length + 1)).toBe(true);
  });

  it.each(matrixRows)('%s %s: %s', (role, action, allowed) => {
    expect(can(actor(role), action)).toBe(allowed);
  });
});

type Expected = 'allowed' | RefusalReason;
type ContextRow = readonly [label: string, actor: Actor, action: Action, context: AuthorizationContext, expected: Expected];

const other = (targetRole: Role, extra: AuthorizationContext = {}): AuthorizationContext => ({ targetUserId: SOMEONE, targetRole, targetTenantId: TENANT, ...extra });
const settings = resolvePermissionSettings;

// prettier-ignore
const CONTEXT_ROWS: readonly ContextRow[] = [
  // Acting on other users: an admin cannot act on root, nor change a super admin.
  ['admin changes a signer to custodian',          actor('admin'), 'user.updateRole',    other('signer', { newRole: 'custodian' }), 'allowed'],
  ['admin changes root',                            actor('admin'), 'user.updateRole',    other('root'),                          'forbidden'],
  ['admin changes a super admin',                   actor('admin'), 'user.updateRole',    other('super_admin'),                   'forbidden'],
  ['admin grants super_admin',                      actor('admin'), 'user.updateRole',    other('signer', { newRole: 'super_admin' }), 'forbidden'],
  ['admin grants root',                             actor('admin'), 'user.updateRole',    other('signer', { newRole: 'root' }),   'forbidden'],
  ['admin bulk-grants registrar',                   actor('admin'), 'user.bulkUpdateRoles', { newRole: 'registrar' },             'allowed'],
  ['admin bulk-grants root',                        actor('admin'), 'user.bulkUpdateRoles', { newRole: 'root' },                  'forbidden'],
  ['admin bulk-updates a super admin',              actor('admin'), 'user.bulkUpdateRoles', { targetRole: 'super_admin' },        'forbidden'],
  ['admin invites a registrar',                     actor('admin'), 'user.invite',        { newRole: 'registrar' },               'allowed'],
  ['admin invites a root',                          actor('admin'), 'user.invite',        { newRole: 'root' },                    'forbidden'],
  ['admin invites a super admin',                   actor('admin'), 'user.invite',        { newRole: 'super_admin' },             'forbidden'],
  ['admin invites another admin',                   actor('admin'), 'user.invite',        { newRole: 'admin' },                   'allowed'],
  ['custodian invites a signer',                    actor('custodian'), 'user.invite',    { newRole: 'signer' },                  'forbidden'],
  ['super admin invites a signer',                  actor('super_admin'), 'user.invite',  { newRole: 'signer' },                  'forbidden'],
  ['admin invites into another tenant',             actor('admin'), 'user.invite',        { newRole: 'signer', targetTenantId: OTHER_TENANT }, 'outsideTenant'],
  ['admin invites while the licence has run out',   actor('admin'), 'user.invite',        { newRole: 'signer', licenceExpired: true }, 'licence'],
  ['admin changes own role',                        actor('admin'), 'user.updateRole',    { targetUserId: ME, targetRole: 'admin' }, 'forbidden'],
  ['admin disables self',                           actor('admin'), 'user.disable',       { targetUserId: ME, targetRole: 'admin' }, 'forbidden'],
  ['admin resets own password',                     actor('admin'), 'user.resetPassword', { targetUserId: ME, targetRole: 'admin' }, 'forbidden'],
  ['admin disables a custodian',                    actor('admin'), 'user.disable',       other('custodian'),                     'allowed'],
  ['admin disables root',                           actor('admin'), 'user.disable',       other('root'),                          'forbidden'],
  ['admin resets root password',                    actor('admin'), 'user.resetPassword', other('root'),                          'forbidden'],
  ['admin resets a signer password',                actor('admin'), 'user.resetPassword', other('signer', { targetInOtherTenants: false }), 'allowed'],
  ['admin resets a signer shared with another tenant', actor('admin'), 'user.resetPassword', other('signer', { targetInOtherTenants: true }), 'sharedAccount'],
  ['admin resets a signer, other tenants unknown',  actor('admin'), 'user.resetPassword', other('signer'),                        'forbidden'],
  ['admin names a user without their role',         actor('admin'), 'user.disable',       { targetUserId: SOMEONE },              'forbidden'],
  ['admin reads a super admin',                     actor('admin'), 'user.read',          other('super_admin'),                   'allowed'],
  ['admin reads root',                              actor('admin'), 'user.read',          other('root'),                          'forbidden'],
  ['admin reads a profile',                         actor('admin'), 'profile.read',       other('signer'),                        'allowed'],
  ['admin reads root profile',                      actor('admin'), 'profile.read',       other('root'),                          'forbidden'],
  ['admin updates a signer profile',                actor('admin'), 'profile.update',     other('signer'),                        'allowed'],
  ['admin updates root profile',                    actor('admin'), 'profile.update',     other('root'),                          'forbidden'],
  ['admin updates a super admin profile',           actor('admin'), 'profile.update',     other('super_admin'),                   'forbidden'],
  ['admin removes a signer photo',                  actor('admin'), 'user.photo.delete',  other('signer'),                        'allowed'],
  ['admin removes another admin photo',             actor('admin'), 'user.photo.delete',  other('admin'),                         'allowed'],
  ['admin removes a super admin photo',             actor('admin'), 'user.photo.delete',  other('super_admin'),                   'forbidden'],
  ['admin removes root photo',                      actor('admin'), 'user.photo.delete',  other('root'),                          'forbidden'],
  ['admin removes a photo in another tenant',       actor('admin'), 'user.photo.delete',  other('signer', { targetTenantId: OTHER_TENANT }), 'outsideTenant'],
  ['custodian removes another photo',               actor('custodian'), 'user.photo.delete', other('signer'),                     'forbidden'],
  ['signer removes own photo',                      actor('signer'), 'user.photo.delete', { targetUserId: ME, targetRole: 'signer' }, 'allowed'],
  ['root removes own photo without a tenant',       actor('root'), 'user.photo.delete',   {},                                     'allowed'],
  ['admin updates a profile in another tenant',     actor('admin'), 'profile.update',     other('signer', { targetTenantId: OTHER_TENANT }), 'outsideTenant'],
  ['custodian updates another profile',             actor('custodian'), 'profile.update', other('signer'),                        'forbidden'],
  ['signer reads another profile',                  actor('signer'), 'profile.read',      other('signer'),                        'forbidden'],
  ['signer updates own profile',                    actor('signer'), 'profile.update',    { targetUserId: ME, targetRole: 'signer' }, 'allowed'],
  ['signer changes another password',               actor('signer'), 'password.change',   other('signer'),                        'forbidden'],
  ['admin changes another password',                actor('admin'), 'password.change',    other('signer'),                        'forbidden'],
  ['root updates own profile without a tenant',     actor('root'), 'profile.update',      {},                                     'allowed'],
  ['root reads a tenant user',                      actor('root'), 'user.read',           other('admin'),                         'forbidden'],
  ['super admin updates another superadmin status', actor('super_admin'), 'superadmin.updateStatus', other('super_admin'),        'allowed'],
  ['super admin updates own superadmin status',     actor('super_admin'), 'superadmin.updateStatus', { targetUserId: ME, targetRole: 'super_admin' }, 'forbidden'],
  ['super admin updates root status',               actor('super_admin'), 'superadmin.updateStatus', other('root'),               'forbidden'],
  // The passcode flag is granted like a role: never to oneself, never to those above the tenant.
  ['admin sets a signer\'s passcode flag',           actor('admin'), 'user.passcodeFlag',  other('signer'),                      'allowed'],
  ['admin sets another admin\'s passcode flag',      actor('admin'), 'user.passcodeFlag',  other('admin'),                       'allowed'],
  ['admin sets own passcode flag',                  actor('admin'), 'user.passcodeFlag',  { targetUserId: ME, targetRole: 'admin' }, 'forbidden'],
  ['admin sets a super admin\'s passcode flag',      actor('admin'), 'user.passcodeFlag',  other('super_admin'),                 'forbidden'],
  ['custodian sets a signer\'s passcode flag',       actor('custodian'), 'user.passcodeFlag', other('signer'),                   'forbidden'],
  // Two-factor reset (issue 22) treats a shared account as a password reset does.
  ['admin resets a signer two-factor',              actor('admin'), 'user.resetTwoFactor', other('signer', { targetInOtherTenants: false }), 'allowed'],
  ['admin resets another admin two-factor',         actor('admin'), 'user.resetTwoFactor', other('admin', { targetInOtherTenants: false }), 'allowed'],
  ['admin resets a shared account two-factor',      actor('admin'), 'user.resetTwoFactor', other('signer', { targetInOtherTenants: true }), 'sharedAccount'],
  ['admin resets two-factor, other tenants unknown', actor('admin'), 'user.resetTwoFactor', other('signer'),                      'forbidden'],
  ['admin resets own two-factor',                   actor('admin'), 'user.resetTwoFactor', { targetUserId: ME, targetRole: 'admin', targetInOtherTenants: false }, 'forbidden'],
  ['admin resets a super admin two-factor',         actor('admin'), 'user.resetTwoFactor', other('super_admin', { targetInOtherTenants: false }), 'forbidden'],
  ['admin resets root two-factor',                  actor('admin'), 'user.resetTwoFactor', other('root', { targetInOtherTenants: false }), 'forbidden'],
  ['admin resets two-factor in another tenant',     actor('admin'), 'user.resetTwoFactor', other('signer', { targetTenantId: OTHER_TENANT, targetInOtherTenants: false }), 'outsideTenant'],
  ['custodian resets a signer two-factor',          actor('custodian'), 'user.resetTwoFactor', other('signer', { targetInOtherTenants: false }), 'forbidden'],
  ['admin registers as superadmin',                 actor('admin'), 'superadmin.register', {},                                    'forbidden'],
  // Tenants are root's alone.
  ['admin creates a tenant',                        actor('admin'), 'tenant.create',      {},                                     'forbidden'],
  ['super admin creates a tenant',                  actor('super_admin'), 'tenant.create', {},                                    'forbidden'],
  ['root creates a tenant admin',                   actor('root'), 'tenant.admin.create', {},                                     'allowed'],
  ['root reads the outbox',                         actor('root'), 'outbox.read',         {},                                     'allowed'],
  ['root lists users',                              actor('root'), 'user.list',           {},                                     'forbidden'],
  ['root reads settings',                           actor('root'), 'settings.read',       {},                                     'forbidden'],
  // Retention reports need admin: spec code -149.
  ['signer asks for retention report',              actor('signer'), 'report.retention',  {},                                     'retentionAdminRequired'],
  ['custodian asks for retention report',           actor('custodian'), 'report.retention', {},                                   'retentionAdminRequired'],
  ['root asks for retention report',                actor('root'), 'report.retention',    {},                                     'retentionAdminRequired'],
  ['admin asks for retention report',               actor('admin'), 'report.retention',   {},                                     'allowed'],
  // Settings gates.
  ['signer, team rooms off',                        actor('signer'), 'teamroom.use',      { settings: settings({ teamRoomsEnabled: false }) }, 'featureDisabled'],
  ['signer, team rooms on',                         actor('signer'), 'teamroom.use',      { settings: settings({ teamRoomsEnabled: true }) },  'allowed'],
  ['custodian, compare off',                        actor('custodian'), 'compare.use',    { settings: settings({ pdfCompareEnabled: false }) }, 'featureDisabled'],
  ['signer, compare on',                            actor('signer'), 'compare.use',       { settings: settings({ pdfCompareEnabled: true }) }, 'forbidden'],
  ['submitter, restrict-workflow on',               actor('submitter'), 'workflow.manage', { settings: settings({ restrictWorkflow: true }) }, 'forbidden'],
  ['custodian, restrict-workflow on',               actor('custodian'), 'workflow.manage', { settings: settings({ restrictWorkflow: true }) }, 'allowed'],
  ['admin, restrict-workflow on',                   actor('admin'), 'workflow.manage',    { settings: settings({ restrictWorkflow: true }) }, 'allowed'],
  ['admin, stamps flag off',                        actor('admin'), 'stampPaper.manage',  { settings: settings({ showStamps: false }) },       'featureDisabled'],
  ['admin, field mapping flag off',                 actor('admin'), 'webform.manage',     { settings: settings({ showFieldMapping: false }) }, 'featureDisabled'],
  ['admin, edit reasons flag off',                  actor('admin'), 'reason.manage',      { settings: settings({ showEditReasons: false }) },  'featureDisabled'],
  ['admin, user sync flag off',                     actor('admin'), 'userSync.start',     { settings: settings({ showUserSyncUp: false }) },   'featureDisabled'],
  ['signer, rubber stamps off (the default)',      actor('signer'), 'rubberStamp.manage', { settings: settings() },                         'featureDisabled'],
  ['signer, rubber stamps on',                      actor('signer'), 'rubberStamp.manage', { settings: settings({ rubberStampEnabled: true }) }, 'allowed'],
  ['registrar, rubber stamps on',                   actor('registrar'), 'rubberStamp.manage', { settings: settings({ rubberStampEnabled: true }) }, 'forbidden'],
  ['admin, rubber stamps off',                      actor('admin'), 'rubberStamp.manage', { settings: settings({ rubberStampEnabled: false }) }, 'featureDisabled'],
  ['admin, workflow states flag off',               actor('admin'), 'workflowState.edit', { settings: settings({ showEditWorkflowStates: false }) }, 'featureDisabled'],
  ['signer in the mobile app still reads reports',  actor('signer'), 'report.read',       { settings: settings({ isMobileApp: true }) },       'allowed'],
  // Tenancy and licence.
  ['admin without a tenant context',                actor('admin', { tenantId: undefined }), 'user.list', {},                     'tenantRequired'],
  ['admin in an expired tenant',                    actor('admin'), 'user.list',          { licenceExpired: true },               'licence'],
  ['admin in an expired tenant reads a user',       actor('admin'), 'user.read',          other('signer', { licenceExpired: true }), 'licence'],
  ['signer in an expired tenant edits own profile', actor('signer'), 'profile.update',    { licenceExpired: true },               'allowed'],
  ['root is not held by a tenant licence',          actor('root'), 'tenant.create',       { licenceExpired: true },               'allowed'],
  ['signer reads reports of another tenant',        actor('signer'), 'report.read',       { targetTenantId: OTHER_TENANT },       'outsideTenant'],
  ['outsider learns 404 before 403',                actor('signer'), 'user.list',         { targetTenantId: OTHER_TENANT },       'outsideTenant'],
  // User status (spec §4, §8).
  ['expired password: reports',                     actor('signer', { userStatus: 'expired' }), 'report.read', {},                'passwordChangeRequired'],
  ['expired password: change it',                   actor('signer', { userStatus: 'expired' }), 'password.change', {},            'allowed'],
  ['expired password: read own profile',            actor('signer', { userStatus: 'expired' }), 'profile.read', {},               'allowed'],
  ['expired password: update own profile',          actor('signer', { userStatus: 'expired' }), 'profile.update', {},             'passwordChangeRequired'],
  ['reset password: admin lists users',             actor('admin', { userStatus: 'resetpassword' }), 'user.list', {},             'passwordChangeRequired'],
  ['reset password: admin reads another profile',   actor('admin', { userStatus: 'resetpassword' }), 'profile.read', other('signer'), 'passwordChangeRequired'],
  ['reset password: change it',                     actor('admin', { userStatus: 'resetpassword' }), 'password.change', {},       'allowed'],
  ['invited: reports',                              actor('signer', { userStatus: 'admininvited' }), 'report.read', {},           'registrationPending'],
  ['invited: read own profile',                     actor('signer', { userStatus: 'admininvited' }), 'profile.read', {},          'allowed'],
  ['invited: password change is registration',      actor('signer', { userStatus: 'invitewithdelegation' }), 'password.change', {}, 'registrationPending'],
  ['invite expired',                                actor('signer', { userStatus: 'admininviteexpired' }), 'profile.read', {},    'invitationExpired'],
  ['delegation invite expired',                     actor('custodian', { userStatus: 'delegationinviteexpired' }), 'epak.compose', {}, 'invitationExpired'],
  ['invitation cancelled',                          actor('signer', { userStatus: 'cancelInvitation' }), 'password.change', {},   'invitationCancelled'],
  ['invited, through a signing link: act on the ePak', actor('signer', { userStatus: 'admininvited', viaSigningLink: true }), 'epak.act', {}, 'allowed'],
  ['invited, through a signing link: nothing else',  actor('signer', { userStatus: 'admininvited', viaSigningLink: true }), 'report.read', {}, 'registrationPending'],
  ['invited without a link: no ePak actions',        actor('signer', { userStatus: 'invitewithdelegation' }), 'epak.act', {},      'registrationPending'],
  ['invite expired, even through a link',            actor('signer', { userStatus: 'admininviteexpired', viaSigningLink: true }), 'epak.act', {}, 'invitationExpired'],
  ['unknown status is not held against the actor',  actor('custodian', { userStatus: undefined }), 'epak.compose', {},            'allowed'],
];

describe('authorize with context', () => {
  it.each(CONTEXT_ROWS)('%s', (_label, who, action, context, expected) => {
    const result = authorize(who, action, context);
    expect(result.allowed ? 'allowed' : result.reason).toBe(expected);
    expect(can(who, action, context)).toBe(expected === 'allowed');
  });
});

describe('refusals map to the spec catalogue', () => {
  it.each([
    ['forbidden', -11, 403],
    ['outsideTenant', -1, 404],
    ['tenantRequired', -11, 403],
    ['licence', -88, 403],
    ['featureDisabled', -11, 403],
    ['retentionAdminRequired', -149, 403],
    ['passwordChangeRequired', -73, 403],
    ['registrationPending', -164, 403],
    ['invitationExpired', -120, 410],
    ['invitationCancelled', -173, 403],
  ] as const)('%s -> code %i, HTTP %i', (reason, code, httpStatus) => {
    expect(REFUSAL_RESPONSES[reason]).toMatchObject({ code, httpStatus });
  });

  it('has an entry for every refusal reason', () => {
    expect(Object.keys(REFUSAL_RESPONSES).sort()).toEqual([...REFUSAL_REASONS].sort());
  });
});

describe('allowedActions', () => {
  it('lists what a signer may do in ACTIONS order', () => {
    expect(allowedActions(actor('signer'))).toEqual(['user.read', 'user.photo.delete', 'profile.read', 'profile.update', 'password.change', 'epak.act', 'report.read', 'teamroom.use', 'rubberStamp.manage']);
  });

  it('applies the context, e.g. settings', () => {
    expect(allowedActions(actor('signer'), { settings: settings({ teamRoomsEnabled: false }) })).not.toContain('teamroom.use');
  });
});
