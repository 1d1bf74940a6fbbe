import { z } from 'zod';
import { UserStatus, UserType } from '../constants/statuses';
import { Role } from '../constants/roles';
import { ASSIGNABLE_ROLES } from '../permissions/actions';
import { defineEndpoint } from './contract';

/**
 * User administration (issue 7; spec §6 "Admin user-folder views", §7 Users). The folders:
 * Signers, Submitters, Custodians and Admin by role; RetentionAdmin, administrators who also hold
 * the retention-report privilege (§8 -149); All.
 */
export const USER_FOLDERS = ['Signers', 'Submitters', 'Custodians', 'Admin', 'RetentionAdmin', 'All'] as const;
export const UserFolder = z.enum(USER_FOLDERS);
export type UserFolder = z.infer<typeof UserFolder>;

export const USER_SORTS = ['name', 'email', 'role', 'createdOn', 'lastLoginOn'] as const;
export const UserSort = z.enum(USER_SORTS);

export const AdminUser = z.object({
  userId: z.uuid(),
  email: z.string(),
  firstName: z.string(),
  middleName: z.string().nullable(),
  lastName: z.string(),
  role: Role,
  type: UserType,
  /** The account's status (spec §4); an invitation not yet accepted reads admininvited. */
  status: UserStatus,
  /** False once an administrator disabled them in this tenant (-13 at every request). */
  enabled: z.boolean(),
  retentionAdmin: z.boolean(),
  /** The passcode flag (spec §3, §6): with the tenant's rubber-stamp flag, they may apply a rubber stamp when signing. */
  passcodeFlag: z.boolean(),
  /** They have a profile photo (GET /v1/users/{userId}/photo serves it), so lists ask only for those. */
  hasPhoto: z.boolean(),
  /** They sign in with an authenticator app (two-factor), which an administrator may reset (resetUserTwoFactor). */
  twoFactorEnabled: z.boolean(),
  createdOn: z.iso.datetime(),
  lastLoginOn: z.iso.datetime().nullable(),
});
export type AdminUser = z.infer<typeof AdminUser>;

export const FilteredUsersQuery = z.object({
  filter: UserFolder.default('All'),
  /** Part of a name or address, case-insensitive. */
  q: z.string().trim().max(100).optional(),
  type: UserType.optional(),
  pg: z.coerce.number().int().min(0).max(100_000).default(0),
  size: z.coerce.number().int().refine((n) => [10, 25, 50, 100].includes(n), 'one of 10, 25, 50, 100').default(25),
  sort: UserSort.default('name'),
  order: z.enum(['asc', 'desc']).default('asc'),
});
export type FilteredUsersQuery = z.infer<typeof FilteredUsersQuery>;

export const filteredUsers = defineEndpoint({
  method: 'GET',
  path: '/msbapi/v1/filteredusers',
  access: 'tenant',
  action: 'user.list',
  summary: "A page of the tenant's people in one admin folder, searched and sorted, with every folder's count.",
  query: FilteredUsersQuery,
  response: z.object({
    filter: UserFolder,
    total: z.number().int().min(0),
    pg: z.number().int(),
    size: z.number().int(),
    users: z.array(AdminUser),
    counts: z.record(UserFolder, z.number().int().min(0)),
  }),
});

export const RoleChange = z.object({
  userId: z.uuid(),
  role: z.enum(ASSIGNABLE_ROLES),
  /** Only for admins: may read retention reports. Left out: unchanged (and dropped by any other role). */
  retentionAdmin: z.boolean().optional(),
});
export type RoleChange = z.infer<typeof RoleChange>;

export const RoleChangeFailure = z.object({ userId: z.uuid(), code: z.number().int(), message: z.string() });

export const updateUserRoles = defineEndpoint({
  method: 'PUT',
  path: '/msbapi/v2/users/roles',
  access: 'tenant',
  action: 'user.bulkUpdateRoles',
  summary:
    'Changes the roles of up to 500 members. Each change stands alone: the allowed ones are made, and when any was refused the answer is -226 with what was done and why each refusal.',
  body: z
    .object({ users: z.array(RoleChange).min(1).max(500) })
    .superRefine(({ users }, context) => {
      const seen = new Set<string>();
      users.forEach((user, index) => {
        if (seen.has(user.userId)) context.addIssue({ code: 'custom', path: ['users', index, 'userId'], message: 'already present' });
        seen.add(user.userId);
      });
    }),
  response: z.object({ updated: z.array(AdminUser), failed: z.array(RoleChangeFailure) }),
});

const UserParams = z.object({ userId: z.uuid() });

export const makeUserAdmin = defineEndpoint({
  method: 'POST',
  path: '/msbapi/v1/users/:userId/admin',
  access: 'tenant',
  action: 'user.updateRole',
  summary: 'Makes a member an administrator of this tenant.',
  params: UserParams,
  response: AdminUser,
});

export const setUserEnabled = defineEndpoint({
  method: 'PUT',
  path: '/msbapi/v2/users/:userId/status',
  access: 'tenant',
  action: 'user.disable',
  summary: 'Disables a member in this tenant (every request of theirs then answers -13) or enables them again.',
  params: UserParams,
  body: z.object({ enabled: z.boolean() }),
  response: AdminUser,
});

export const setUserPasscodeFlag = defineEndpoint({
  method: 'PUT',
  path: '/msbapi/v2/users/:userId/passcodeflag',
  access: 'tenant',
  action: 'user.passcodeFlag',
  summary:
    "Sets or clears a member's passcode flag in this tenant (spec §6: a rubber stamp needs it). Not one's own, nor a super admin's (-11); recorded in the audit log.",
  params: UserParams,
  body: z.object({ passcodeFlag: z.boolean() }),
  response: AdminUser,
});

export const reinviteUser = defineEndpoint({
  method: 'POST',
  path: '/msbapi/v2/users/:userId/reinvite',
  access: 'tenant',
  action: 'user.invite',
  summary: 'Invite type admin_reinvite: mails a new link to someone invited who has not joined; earlier links stop working (-173).',
  params: UserParams,
  response: z.object({ userId: z.uuid(), email: z.string(), status: z.literal('invited') }),
});

export const cancelUserInvitation = defineEndpoint({
  method: 'POST',
  path: '/msbapi/v2/users/:userId/cancelInvite',
  access: 'tenant',
  action: 'user.invite',
  summary:
    'Invite type admin_invite_cancel: withdraws the invitation of someone who has not joined (-34 while an ePak under way waits for them, -35 while one was delegated to them).',
  params: UserParams,
  response: z.object({ userId: z.uuid(), email: z.string(), status: z.literal('cancelled') }),
});

/**
 * Inviting from a CSV file (spec §7 csvInvite; issue 7). The columns, in this order; the first
 * line is this header. email, firstName, lastName and role are required in every row; role is
 * one an administrator may give. A row's field errors use the CSV field codes of spec §5
 * (email -1, first name -2, last name -3); other refusals their catalogue code.
 */
export const INVITE_CSV_COLUMNS = ['email', 'firstName', 'middleName', 'lastName', 'role'] as const;
export const INVITE_CSV_REQUIRED = ['email', 'firstName', 'lastName', 'role'] as const;
/** Rows one file may hold (-143 beyond). */
export const INVITE_CSV_MAX_ROWS = 500;
/** Bytes one file may have. */
export const INVITE_CSV_MAX_BYTES = 512 * 1024;

export const csvInviteTemplate = defineEndpoint({
  method: 'GET',
  path: '/msbapi/v2/users/csvInvite',
  access: 'tenant',
  action: 'user.invite',
  summary: 'The CSV template for inviting people from a file: its header line.',
  binaryResponse: true,
  response: z.unknown(),
});

export const CsvInviteFailure = z.object({
  /** The line of the file (the header is line 1). */
  line: z.number().int().min(2),
  email: z.string(),
  field: z.enum([...INVITE_CSV_COLUMNS]).nullable(),
  code: z.number().int(),
  message: z.string(),
});
export type CsvInviteFailure = z.infer<typeof CsvInviteFailure>;

export const CsvInviteResult = z.object({
  invited: z.array(z.object({ line: z.number().int(), email: z.string(), userId: z.uuid() })),
  failed: z.array(CsvInviteFailure),
});
export type CsvInviteResult = z.infer<typeof CsvInviteResult>;

export const csvInvite = defineEndpoint({
  method: 'POST',
  path: '/msbapi/v2/users/csvInvite',
  access: 'tenant',
  action: 'user.invite',
  summary:
    'Invites the people of a CSV file (multipart field `file`; the template header first). Good rows are invited and mailed; bad rows are reported by line and field: -222 when some rows failed, -174 when all did; -182 empty file, -181 a required column missing, -175 other columns, -143 too many rows.',
  bodyEncoding: 'multipart',
  maxBodyBytes: INVITE_CSV_MAX_BYTES + 16 * 1024,
  response: CsvInviteResult,
});

export const resetUserPassword = defineEndpoint({
  method: 'POST',
  path: '/msbapi/v1/users/:userId/password/reset',
  access: 'tenant',
  action: 'user.resetPassword',
  summary: 'Mails a member a link to choose a new password (their current one keeps working until they do; -227 past the daily limit).',
  params: UserParams,
  response: z.object({ userId: z.uuid(), email: z.string(), mailed: z.literal(true) }),
});

export const resetUserTwoFactor = defineEndpoint({
  method: 'POST',
  path: '/msbapi/v2/users/:userId/twofactor/reset',
  access: 'tenant',
  action: 'user.resetTwoFactor',
  summary:
    "Switches a member's authenticator sign-in off (a lost phone): secret and recovery codes go, the member is mailed, and the audit log records it. Not one's own, a super admin's, or an account another tenant shares (-11).",
  params: UserParams,
  response: AdminUser,
});
