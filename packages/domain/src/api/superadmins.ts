import { z } from 'zod';
import { defineEndpoint } from './contract';
import { Invitee } from './identity';

/**
 * Super admins (spec §6 "The super admin can list superadmins, register as one and update
 * superadmin status"; §7 Superadmins). super_admin is reached only through these calls, never
 * through user management (ASSIGNABLE_ROLES), so a tenant's first one is invited by root from the
 * console and every later one by a super admin of the tenant. Our rules, since the spec names
 * only the paths:
 * - registering invites the person through the ordinary invitation (new account or an existing
 *   one that is not a member here); anyone already a member, whatever their role, is -85, an
 *   account disabled install-wide -13, the instance administrator -6;
 * - the status is the membership's: invited until they accept, then active; disabled stops every
 *   request of theirs in this tenant (-13) and leaves the tenant out of their list. Nobody
 *   changes their own (-11), so a tenant cannot lose its last super admin by a slip.
 */
export const SUPERADMIN_STATUSES = ['invited', 'active', 'disabled'] as const;
export const SuperadminStatus = z.enum(SUPERADMIN_STATUSES);
export type SuperadminStatus = z.infer<typeof SuperadminStatus>;

export const Superadmin = z.object({
  userId: z.uuid(),
  email: z.string(),
  firstName: z.string(),
  middleName: z.string().nullable(),
  lastName: z.string(),
  status: SuperadminStatus,
  /** When they were invited into this tenant. */
  createdOn: z.iso.datetime(),
  lastLoginOn: z.iso.datetime().nullable(),
  /** The caller: their own status is not theirs to change. */
  isSelf: z.boolean(),
});
export type Superadmin = z.infer<typeof Superadmin>;

/** Who is invited: the fields of an ordinary invitation, the role being super_admin. */
export const SuperadminInvitee = Invitee.omit({ role: true });
export type SuperadminInvitee = z.infer<typeof SuperadminInvitee>;

export const SuperadminStatusChange = z.object({
  userId: z.uuid(),
  status: z.enum(['enabled', 'disabled']),
});
export type SuperadminStatusChange = z.infer<typeof SuperadminStatusChange>;

export const listSuperadmins = defineEndpoint({
  method: 'GET',
  path: '/msbapi/v2/user/getAllSuperadmins',
  access: 'tenant',
  action: 'superadmin.list',
  summary: "Every super admin of this tenant (invited, active or disabled), by name.",
  response: z.object({ superadmins: z.array(Superadmin) }),
});

export const registerSuperadmin = defineEndpoint({
  method: 'POST',
  path: '/msbapi/v2/user/registerAsSuperadmin',
  access: 'tenant',
  action: 'superadmin.register',
  summary:
    'Invites a person as a super admin of this tenant; the link goes out by mail (-85 already a member in any role, -13 a disabled account, -6 the instance administrator).',
  body: SuperadminInvitee,
  response: Superadmin,
});

export const updateSuperadminStatus = defineEndpoint({
  method: 'PUT',
  path: '/msbapi/v2/user/updateSuperadminStatus',
  access: 'tenant',
  action: 'superadmin.updateStatus',
  summary:
    "Disables a super admin of this tenant (every request of theirs then answers -13) or enables them again (an invitation not yet accepted stays one). Never one's own (-11); anyone else 404.",
  body: SuperadminStatusChange,
  response: Superadmin,
});

/**
 * A tenant's first super admin: only root can make one, as it makes the first admin, and sees the
 * link once so the person can be reached before mail is configured.
 */
export const inviteTenantSuperadmin = defineEndpoint({
  method: 'POST',
  path: '/msbapi/v1/root/tenants/:tenantId/superadmins',
  access: 'root',
  action: 'tenant.admin.create',
  summary: 'Root: invites a super admin into a tenant (the invitation goes to the outbox; the same refusals as registerAsSuperadmin).',
  params: z.object({ tenantId: z.uuid() }),
  body: SuperadminInvitee,
  response: z.object({
    superadmin: Superadmin,
    /** Shown once to root, as for a tenant's first admin. */
    inviteLink: z.string(),
  }),
});
