import { z } from 'zod';
import { Role } from '../constants/roles';
import { UserStatus } from '../constants/statuses';
import { ResponseCode, type ResponseCodeEntry } from '../response-codes';
import type { PermissionSettings } from './settings';

/**
 * API actions the server checks. Spec §6 closes with "Permission checks made by the server are not
 * shown", so the rules below are our design, derived from the route and menu rules of §2 and §6 and
 * the calls of §7; each rule says where it comes from.
 */
export const ACTIONS = [
  'tenant.create',
  'tenant.list',
  'tenant.admin.create',
  'install.settings',
  'user.list',
  'user.invite',
  'user.read',
  'user.updateRole',
  'user.bulkUpdateRoles',
  'user.resetPassword',
  'user.disable',
  'user.photo.delete',
  'user.passcodeFlag',
  'user.resetTwoFactor',
  'profile.read',
  'profile.update',
  'password.change',
  'settings.read',
  'settings.update',
  'superadmin.list',
  'superadmin.register',
  'superadmin.updateStatus',
  'outbox.read',
  'group.read',
  'group.manage',
  'audit.read',
  'workflow.manage',
  'workflowState.edit',
  'epak.compose',
  'epak.bulkCompose',
  'epak.act',
  'document.manage',
  'stampPaper.manage',
  'report.read',
  'report.retention',
  'teamroom.use',
  'compare.use',
  'webform.manage',
  'reason.manage',
  'userSync.start',
  'announcement.manage',
  'statistics.tenant',
  'rubberStamp.manage',
] as const;
export const Action = z.enum(ACTIONS);
export type Action = z.infer<typeof Action>;

/**
 * Who is acting. root belongs to no tenant, so `tenantId` is optional; for every other role the
 * server fills it from the verified tenant context (the tenant header only selects, DESIGN §2).
 * `userStatus` is optional so the web app can ask before it knows it; the server always passes it.
 */
export const Actor = z.object({
  role: Role,
  userId: z.string().min(1),
  tenantId: z.string().min(1).optional(),
  userStatus: UserStatus.optional(),
  /**
   * Acting through a signing link (easy-sign): the link is the grant for one ePak, so someone
   * invited who has not registered yet may still act on it (LINK_ACTIONS), and nothing else.
   */
  viaSigningLink: z.boolean().optional(),
});
export type Actor = z.infer<typeof Actor>;

/** What a not-yet-registered recipient may do through a signing link. */
export const LINK_ACTIONS: readonly Action[] = ['epak.act'];

/** What the action is aimed at, when that matters. Leave out what does not apply. */
export interface AuthorizationContext {
  /** The user acted on. Absent for self-service actions means "the actor themself". */
  readonly targetUserId?: string;
  /** The target's role. Required whenever targetUserId names someone else: we fail closed without it. */
  readonly targetRole?: Role;
  /** The tenant owning the target resource. A different tenant than the actor's is "outsideTenant". */
  readonly targetTenantId?: string;
  /** The role being granted by user.invite, user.updateRole or user.bulkUpdateRoles. */
  readonly newRole?: Role;
  /** Tenant settings. When absent, setting gates are not checked (a role-only answer). */
  readonly settings?: PermissionSettings;
  /** The tenant's trial or licence has run out (spec §8 code -88). */
  readonly licenceExpired?: boolean;
  /**
   * The target's account is also a member (or invitee) of another tenant. An account spans
   * tenants, so an action on the account itself (rule `accountWide`) by one tenant's admin would
   * reach into the others: refused. Required for accountWide actions on someone else: we fail
   * closed without it.
   */
  readonly targetInOtherTenants?: boolean;
}

export const REFUSAL_REASONS = [
  'forbidden',
  'outsideTenant',
  'tenantRequired',
  'licence',
  'featureDisabled',
  'retentionAdminRequired',
  'passwordChangeRequired',
  'registrationPending',
  'invitationExpired',
  'invitationCancelled',
  'sharedAccount',
] as const;
export const RefusalReason = z.enum(REFUSAL_REASONS);
export type RefusalReason = z.infer<typeof RefusalReason>;

export type Authorization = { readonly allowed: true } | { readonly allowed: false; readonly reason: RefusalReason };

/**
 * The catalogue entry (spec §8) a refusal is answered with. The server turns it into a DomainError;
 * this module never throws.
 */
export const REFUSAL_RESPONSES = {
  forbidden: ResponseCode.NOT_AUTHORIZED,
  // DESIGN §2: "Someone outside the tenant gets 404, not 403", the same answer as notFound().
  outsideTenant: { ...ResponseCode.GENERIC_ERROR, httpStatus: 404 },
  tenantRequired: ResponseCode.NOT_AUTHORIZED,
  // §8: "Trial period expired (-88) with HTTP 403".
  licence: ResponseCode.TRIAL_PERIOD_EXPIRED,
  featureDisabled: ResponseCode.NOT_AUTHORIZED,
  // §8: "-149 retention report admin privilege".
  retentionAdminRequired: ResponseCode.RETENTION_REPORT_ADMIN_PRIVILEGE,
  // §8: "User not enabled (-73) with user status expired or resetpassword: redirect to /changepassword".
  passwordChangeRequired: ResponseCode.USER_NOT_ENABLED,
  registrationPending: ResponseCode.REGISTRATION_PENDING,
  invitationExpired: ResponseCode.REGISTRATION_LINK_EXPIRED,
  invitationCancelled: ResponseCode.INVITATION_CANCELLED,
  sharedAccount: ResponseCode.NOT_AUTHORIZED,
} as const satisfies Record<RefusalReason, ResponseCodeEntry>;

/**
 * Roles an admin may hand out by invite or role change. root exists outside tenants; super_admin is
 * reached only through the superadmin calls (§6 "register as one and update superadmin status"), so
 * neither can be granted through user management.
 */
export const ASSIGNABLE_ROLES = ['admin', 'custodian', 'submitter', 'signer', 'registrar'] as const satisfies readonly Role[];

// Roles that hold a tenant-content route in spec §2.
const CONTENT_ROLES = ['signer', 'submitter', 'custodian', 'admin'] as const satisfies readonly Role[];
// §2 and §6: the registrar has the dashboard and the epaks menu item, and nothing else of a signer's.
const INBOX_ROLES = [...CONTENT_ROLES, 'registrar'] as const satisfies readonly Role[];
// §2: "submitter: the signer list plus compose, workflows, bulkcompose, compare"; custodian the same;
// admin the custodian list plus more.
const COMPOSER_ROLES = ['submitter', 'custodian', 'admin'] as const satisfies readonly Role[];

type SettingGate = (settings: PermissionSettings, role: Role) => RefusalReason | null;
const feature =
  (flag: (settings: PermissionSettings) => boolean): SettingGate =>
  (settings) =>
    flag(settings) ? null : 'featureDisabled';

interface ActionRule {
  /** Roles that may perform the action (on others, for user-targeted actions). */
  readonly roles: readonly Role[];
  /**
   * 'system': outside any tenant (root's tenant management). 'tenant': inside the actor's tenant.
   * 'account': a user's own account, which needs no tenant when done on oneself.
   */
  readonly scope: 'system' | 'tenant' | 'account';
  /** Any role may do this to their own account (subject to their status). */
  readonly self?: boolean;
  /** The action names a user in context.targetUserId. */
  readonly targetsUser?: boolean;
  /** Target roles the actor may not act on. */
  readonly protectedTargets?: readonly Role[];
  /** The action grants context.newRole, which must be assignable. */
  readonly grantsRole?: boolean;
  /**
   * The action changes the account itself (its password, its photo), not the membership: a tenant
   * admin may do it only to an account no other tenant shares (DESIGN §3b: a tenant admin is not
   * trusted with other tenants' accounts; the admin may still disable the membership).
   */
  readonly accountWide?: boolean;
  /** Refusal for a role outside `roles`; 'forbidden' unless the spec has a more precise code. */
  readonly roleRefusal?: RefusalReason;
  readonly gate?: SettingGate;
}

// "an admin cannot act on root"; super admins are above admins (they manage the settings admins live
// under), so admins may read them but not change them.
const NOT_ROOT = ['root'] as const satisfies readonly Role[];
const NOT_ROOT_OR_SUPER_ADMIN = ['root', 'super_admin'] as const satisfies readonly Role[];

export const ACTION_RULES = {
  // Only root creates and lists tenants and creates a tenant's first admin (root "manages tenants at
  // /root"). A user's own tenant list (tenant selector, GET users/{userId}/tenants) is user.read.
  'tenant.create': { roles: ['root'], scope: 'system' },
  'tenant.list': { roles: ['root'], scope: 'system' },
  'tenant.admin.create': { roles: ['root'], scope: 'system' },
  // The install's own switches (self sign-up, issue 22) belong to its operator, root, alone.
  'install.settings': { roles: ['root'], scope: 'system' },

  // User administration lives on /admin, an admin-only route (§2 admin list; §1 "user and group
  // administration").
  'user.list': { roles: ['admin'], scope: 'tenant' },
  'user.invite': { roles: ['admin'], scope: 'tenant', grantsRole: true },
  'user.read': { roles: ['admin'], scope: 'tenant', self: true, targetsUser: true, protectedTargets: NOT_ROOT },
  // §6 "A role-change call allows bulk role updates." Changing one's own role, password by reset, or
  // disabling oneself is refused so an admin cannot lock a tenant out of its own administration.
  'user.updateRole': { roles: ['admin'], scope: 'tenant', targetsUser: true, protectedTargets: NOT_ROOT_OR_SUPER_ADMIN, grantsRole: true },
  'user.bulkUpdateRoles': { roles: ['admin'], scope: 'tenant', grantsRole: true, protectedTargets: NOT_ROOT_OR_SUPER_ADMIN },
  // The reset link goes to the person alone (never to an outbox an admin reads), and an account
  // shared with another tenant is reset by its owner alone (issue 17: tenant A's admin invited
  // tenant B's admin into A, reset the password and became B's admin).
  'user.resetPassword': { roles: ['admin'], scope: 'tenant', targetsUser: true, protectedTargets: NOT_ROOT_OR_SUPER_ADMIN, accountWide: true },
  'user.disable': { roles: ['admin'], scope: 'tenant', targetsUser: true, protectedTargets: NOT_ROOT_OR_SUPER_ADMIN },
  // Issue 7 lists "user photo" under user management: everyone removes their own photo; an admin
  // removes a member's (an inappropriate picture) without waiting for them, but not a super
  // admin's or root's, who stand above the tenant's administration.
  'user.photo.delete': { roles: ['admin'], scope: 'account', self: true, targetsUser: true, protectedTargets: NOT_ROOT_OR_SUPER_ADMIN },
  // The passcode flag (spec §3 user info, §6 rubber stamp) lets a member stamp for the
  // organisation, so like a role it is an administrator's grant, never one's own: an admin sets
  // it for others (a second admin for them), and not on a super admin or root, who are above
  // the tenant's administration.
  'user.passcodeFlag': { roles: ['admin'], scope: 'tenant', targetsUser: true, protectedTargets: NOT_ROOT_OR_SUPER_ADMIN },
  // Switching off a member's authenticator sign-in (a lost phone, issue 22) weakens the account
  // itself, as a password reset does: only on an account no other tenant shares, never one's own
  // (the owner switches it off with their password), a super admin's or root's.
  'user.resetTwoFactor': { roles: ['admin'], scope: 'tenant', targetsUser: true, protectedTargets: NOT_ROOT_OR_SUPER_ADMIN, accountWide: true },

  // Every signed-in user has profile and changepassword (§2 lists them for every role; root and super
  // admin get them by our design). Another user's profile is the admin's, within the tenant.
  'profile.read': { roles: ['admin'], scope: 'account', self: true, targetsUser: true, protectedTargets: NOT_ROOT },
  'profile.update': { roles: ['admin'], scope: 'account', self: true, targetsUser: true, protectedTargets: NOT_ROOT_OR_SUPER_ADMIN },
  // Nobody changes another user's password; admins reset it instead (user.resetPassword).
  'password.change': { roles: [], scope: 'account', self: true, targetsUser: true },

  // §2 "settings (super admin only)". This is the settings screen; the configuration every user's app
  // reads to run (GET /msbapi/v1/configuration) is not gated by it.
  'settings.read': { roles: ['super_admin'], scope: 'tenant' },
  'settings.update': { roles: ['super_admin'], scope: 'tenant' },
  // §6 "The super admin can list superadmins, register as one and update superadmin status."
  'superadmin.list': { roles: ['super_admin'], scope: 'tenant' },
  'superadmin.register': { roles: ['super_admin'], scope: 'tenant' },
  'superadmin.updateStatus': { roles: ['super_admin'], scope: 'tenant', targetsUser: true, protectedTargets: NOT_ROOT },

  // DESIGN §1: mail is "stored in an outbox table, readable by admins in the app". root reads it too:
  // the invitation of a new tenant's first admin (tenant.admin.create) is mail no tenant admin exists
  // to read yet. The server scopes an admin to their tenant's mail and root to tenantless mail.
  'outbox.read': { roles: ['admin', 'root'], scope: 'tenant' },
  // Groups are chosen as workflow recipients and rubber-stamp sharers by whoever composes (§7
  // Groups; issue 7 "used by workflows and rubber-stamp sharing"); only admins shape them.
  'group.read': { roles: COMPOSER_ROLES, scope: 'tenant' },
  'group.manage': { roles: ['admin'], scope: 'tenant' },
  // The administration audit log (issue 7): the tenant's administrators.
  'audit.read': { roles: ['admin'], scope: 'tenant' },

  // /workflows: submitter, custodian, admin (§2); §6 "A submitter does not see workflows when the
  // restrict-workflow setting is on". Workflow states created inside a workflow template come with it.
  'workflow.manage': {
    roles: COMPOSER_ROLES,
    scope: 'tenant',
    gate: (s, role) => (role === 'submitter' && s.restrictWorkflow ? 'forbidden' : null),
  },
  // The admin sub-item "edit workflow states" (§2), shown only when its setting makes it visible.
  'workflowState.edit': { roles: ['admin'], scope: 'tenant', gate: feature((s) => s.showEditWorkflowStates) },
  // /compose and /bulkcompose: submitter, custodian, admin (§2).
  'epak.compose': { roles: COMPOSER_ROLES, scope: 'tenant' },
  'epak.bulkCompose': { roles: COMPOSER_ROLES, scope: 'tenant' },
  // Acting on an ePak one is a recipient of (review, sign, reject) and reading one's inbox and own
  // dashboard numbers: anyone who reaches the dashboard (§2: signer and up, and the registrar,
  // whose route list has the dashboard and whose menu has dashboard and epaks, §6). Being a
  // recipient of the step under way is the command's check (-28), since it depends on the ePak.
  'epak.act': { roles: INBOX_ROLES, scope: 'tenant' },
  // Documents are uploaded to be composed: whoever may compose keeps their own (§2 compose tabs).
  'document.manage': { roles: COMPOSER_ROLES, scope: 'tenant' },
  // /stamppapers is admin-only (§2) and its menu item "stamps" has its own setting.
  'stampPaper.manage': { roles: ['admin'], scope: 'tenant', gate: feature((s) => s.showStamps) },
  // /reports: signer and up (§2), not registrar. Hiding reports in the mobile app (§2) is a
  // presentation rule for one client, not a permission, so the API does not refuse it.
  'report.read': { roles: CONTENT_ROLES, scope: 'tenant' },
  // §8 "-149 retention report admin privilege".
  'report.retention': { roles: ['admin'], scope: 'tenant', roleRefusal: 'retentionAdminRequired' },
  // /teamroom: signer and up (§2), "only when team rooms are enabled".
  'teamroom.use': { roles: CONTENT_ROLES, scope: 'tenant', gate: feature((s) => s.teamRoomsEnabled) },
  // /compare: submitter and up (§2), "only when PDF compare is enabled".
  'compare.use': { roles: COMPOSER_ROLES, scope: 'tenant', gate: feature((s) => s.pdfCompareEnabled) },
  // /fieldsmapping (the web-form field mapping tool) is admin-only (§2), sub-item "field mapping".
  'webform.manage': { roles: ['admin'], scope: 'tenant', gate: feature((s) => s.showFieldMapping) },
  // Admin sub-items "edit reasons" and "user sync up" (§2).
  'reason.manage': { roles: ['admin'], scope: 'tenant', gate: feature((s) => s.showEditReasons) },
  'userSync.start': { roles: ['admin'], scope: 'tenant', gate: feature((s) => s.showUserSyncUp) },
  // "Administrators create and edit announcements" (issue 6): an admin the tenant's own banner,
  // root (outside any tenant) the instance-wide one. The server scopes each to its own rows, as
  // for outbox.read.
  'announcement.manage': { roles: ['admin', 'root'], scope: 'tenant' },
  // Dashboard charts of the whole tenant (scope all, spec §9): its administrators; every member
  // sees their own (scope user) and their groups' with epak.act.
  'statistics.tenant': { roles: ['admin'], scope: 'tenant' },
  // Rubber stamps (issue 8, §6): whoever signs keeps their own stamps and shares them, only when
  // the tenant's rubber-stamp flag is on. Applying one when signing needs the passcode flag too
  // (mayUseRubberStamp), which is the signing command's check, since it is the signer's.
  'rubberStamp.manage': { roles: CONTENT_ROLES, scope: 'tenant', gate: feature((s) => s.rubberStampEnabled) },
} as const satisfies Record<Action, ActionRule>;

/**
 * What a user whose status is not `enabled` may still do, on their own account only (spec §4, §8).
 * `undefined` and 'enabled' restrict nothing.
 */
const STATUS_RESTRICTIONS: Partial<Record<UserStatus, { reason: RefusalReason; allowed: readonly Action[] }>> = {
  // §4 "A user whose status is expired or resetpassword is sent to /changepassword"; the page may show
  // who they are, so reading their own profile stays possible.
  expired: { reason: 'passwordChangeRequired', allowed: ['password.change', 'profile.read'] },
  resetpassword: { reason: 'passwordChangeRequired', allowed: ['password.change', 'profile.read'] },
  // §4: such users register through the set-password dialog (a public call), not password.change.
  admininvited: { reason: 'registrationPending', allowed: ['profile.read'] },
  invitewithdelegation: { reason: 'registrationPending', allowed: ['profile.read'] },
  admininviteexpired: { reason: 'invitationExpired', allowed: [] },
  delegationinviteexpired: { reason: 'invitationExpired', allowed: [] },
  cancelInvitation: { reason: 'invitationCancelled', allowed: [] },
};

const ALLOWED: Authorization = Object.freeze({ allowed: true });
const refuse = (reason: RefusalReason): Authorization => ({ allowed: false, reason });

/**
 * Decides whether `actor` may perform `action`. Pure: the server maps a refusal to its catalogue code
 * with REFUSAL_RESPONSES, the web app hides what is refused.
 *
 * Order matters: status first (nothing else is worth asking while a password change is due), then
 * tenant membership (an outsider gets 404 before learning what their role would allow), then role,
 * target, granted role and settings.
 */
export function authorize(actor: Actor, action: Action, context: AuthorizationContext = {}): Authorization {
  const rule: ActionRule = ACTION_RULES[action];
  const isSelf =
    rule.targetsUser === true &&
    (context.targetUserId === undefined ? rule.self === true : context.targetUserId === actor.userId);

  const restriction = actor.userStatus === undefined ? undefined : STATUS_RESTRICTIONS[actor.userStatus];
  const linkGrant = actor.viaSigningLink === true && restriction?.reason === 'registrationPending' && LINK_ACTIONS.includes(action);
  if (restriction && !linkGrant && !(isSelf && restriction.allowed.includes(action))) return refuse(restriction.reason);

  if (isSelf && rule.self) return ALLOWED;

  // root has no tenant (its actions are system-wide); every other role acts inside its own tenant.
  const tenantBound = rule.scope !== 'system' && actor.role !== 'root';
  if (tenantBound) {
    if (actor.tenantId === undefined) return refuse('tenantRequired');
    if (context.targetTenantId !== undefined && context.targetTenantId !== actor.tenantId) return refuse('outsideTenant');
    if (context.licenceExpired) return refuse('licence');
  }

  if (!rule.roles.includes(actor.role)) return refuse(rule.roleRefusal ?? 'forbidden');

  // Self-service actions returned above; what remains aimed at oneself is an admin action on one's
  // own account (role change, reset, disable), refused to avoid locking the tenant out.
  if (isSelf) return refuse('forbidden');

  const protectedTargets: readonly Role[] = rule.protectedTargets ?? [];
  if (context.targetRole !== undefined && protectedTargets.includes(context.targetRole)) return refuse('forbidden');
  // Someone else named without their role: we cannot tell whether they are protected, so refuse.
  if (context.targetUserId !== undefined && context.targetRole === undefined && protectedTargets.length > 0) {
    return refuse('forbidden');
  }

  if (rule.accountWide && context.targetUserId !== undefined && context.targetInOtherTenants !== false) {
    return refuse(context.targetInOtherTenants ? 'sharedAccount' : 'forbidden');
  }

  if (rule.grantsRole && context.newRole !== undefined && !(ASSIGNABLE_ROLES as readonly Role[]).includes(context.newRole)) {
    return refuse('forbidden');
  }

  if (rule.gate && context.settings) {
    const reason = rule.gate(context.settings, actor.role);
    if (reason) return refuse(reason);
  }
  return ALLOWED;
}

/** Every action `actor` may perform in `context`, e.g. to send the web app its capabilities once. */
export function allowedActions(actor: Actor, context?: AuthorizationContext): Action[] {
  return ACTIONS.filter((action) => authorize(actor, action, context).allowed);
}
