import { z } from 'zod';
import { ASSIGNABLE_ROLES } from '../permissions/actions';
import { defineEndpoint } from './contract';

/**
 * User sync-up (spec §2 admin sub-item "user sync up", §7 startUserSyncUp; issue 7). The
 * operator drops a directory feed (a nightly HR or LDAP export) in this tenant's folder of the
 * install's USER_SYNC_DIR, named as the tenant's userSyncFileName setting says; an administrator
 * starts a run; a background job applies it and reports what changed.
 *
 * The feed is authoritative for the members it names: a new address is invited, a role that
 * differs is changed, status `disabled` / `enabled` disables / enables the membership; with
 * userSyncDisableMissing, active members the feed leaves out are disabled. Names of existing
 * accounts never change (an account spans tenants). Every change is checked by the permissions
 * module as the administrator who started the run, so a super admin and the starter themselves
 * are never touched: such refusals are reported with the bad rows.
 */

/** The columns of a CSV feed (header line first) and the fields of a JSON feed's objects. */
export const USER_SYNC_COLUMNS = ['email', 'firstName', 'lastName', 'role', 'status'] as const;
export const USER_SYNC_REQUIRED = ['email'] as const;
export type UserSyncColumn = (typeof USER_SYNC_COLUMNS)[number];
/** Roles a feed may give: those an administrator may give. */
export const USER_SYNC_ROLES = ASSIGNABLE_ROLES;
/** Values of the status column: empty leaves the membership as it is. */
export const USER_SYNC_STATUSES = ['enabled', 'disabled'] as const;
/** Runs GET /msbapi/v2/userSyncUps lists, newest first. */
export const USER_SYNC_RECENT_RUNS = 20;
/** The largest feed read (about 500,000 rows of a typical export). */
export const USER_SYNC_MAX_BYTES = 64 * 1024 * 1024;

export const USER_SYNC_RUN_STATUSES = ['queued', 'running', 'succeeded', 'failed'] as const;
export const UserSyncRunStatus = z.enum(USER_SYNC_RUN_STATUSES);
export type UserSyncRunStatus = z.infer<typeof UserSyncRunStatus>;

export const USER_SYNC_CHANGE_KINDS = ['invited', 'roleChanged', 'enabled', 'disabled'] as const;
export const UserSyncChangeKind = z.enum(USER_SYNC_CHANGE_KINDS);
export type UserSyncChangeKind = z.infer<typeof UserSyncChangeKind>;

export const UserSyncCounts = z.object({
  /** People the feed names (rows of a CSV, objects of a JSON feed). */
  rows: z.number().int().min(0),
  invited: z.number().int().min(0),
  roleChanged: z.number().int().min(0),
  enabled: z.number().int().min(0),
  disabled: z.number().int().min(0),
  /** Rows that changed nothing. */
  unchanged: z.number().int().min(0),
  /** Rows refused, and members left out of the feed who could not be disabled. */
  errors: z.number().int().min(0),
});
export type UserSyncCounts = z.infer<typeof UserSyncCounts>;

export const UserSyncChange = z.object({
  email: z.string(),
  kind: UserSyncChangeKind,
  /** The role or membership status before and after (null: not a member before). */
  from: z.string().nullable(),
  to: z.string().nullable(),
  /** Where the feed names them (null: a member the feed left out). */
  line: z.number().int().min(1).nullable(),
});
export type UserSyncChange = z.infer<typeof UserSyncChange>;

export const UserSyncError = z.object({
  /**
   * The CSV line (the header is line 1) or the JSON item (the first is 1); null for a member the
   * feed left out, or for a fault of the whole file.
   */
  line: z.number().int().min(1).nullable(),
  email: z.string().nullable(),
  field: z.enum(USER_SYNC_COLUMNS).nullable(),
  /**
   * Field errors use the CSV field codes of spec §5 (email -1, first name -2, last name -3); role,
   * status and a repeated address -6; a refused change its refusal's code (-11, -13...); a fault
   * of the whole file -182 empty, -181 a required column missing, -175 an unknown or repeated
   * column, -136 not readable as JSON, -6 missing or too large.
   */
  code: z.number().int(),
  message: z.string(),
});
export type UserSyncError = z.infer<typeof UserSyncError>;

export const UserSyncReport = z.object({ changes: z.array(UserSyncChange), errors: z.array(UserSyncError) });
export type UserSyncReport = z.infer<typeof UserSyncReport>;

export const UserSyncRun = z.object({
  runId: z.uuid(),
  status: UserSyncRunStatus,
  fileName: z.string(),
  /** Who started it (null once that account is gone). */
  startedBy: z.object({ userId: z.uuid(), email: z.string(), name: z.string() }).nullable(),
  createdOn: z.iso.datetime(),
  startedOn: z.iso.datetime().nullable(),
  finishedOn: z.iso.datetime().nullable(),
  /** Once finished successfully. */
  counts: UserSyncCounts.nullable(),
  /** Why a failed run changed nothing. */
  error: z.string().nullable(),
});
export type UserSyncRun = z.infer<typeof UserSyncRun>;

export const UserSyncRunDetail = UserSyncRun.extend({ report: UserSyncReport.nullable() });
export type UserSyncRunDetail = z.infer<typeof UserSyncRunDetail>;

export const UserSyncSource = z.object({
  /** The feed's file name as a super admin set it in Settings (null: no feed configured). */
  fileName: z.string().nullable(),
  /** The folder of USER_SYNC_DIR the operator puts it in: the tenant's id. */
  folder: z.string(),
  disableMissing: z.boolean(),
  /** The role of people the feed adds without naming one. */
  defaultRole: z.string(),
  /** The file as it is now (present false: not there, or not a regular file). */
  file: z.object({ present: z.boolean(), size: z.number().int().min(0).nullable(), modifiedOn: z.iso.datetime().nullable() }),
});
export type UserSyncSource = z.infer<typeof UserSyncSource>;

export const startUserSyncUp = defineEndpoint({
  method: 'POST',
  path: '/msbapi/v2/startUserSyncUp',
  access: 'tenant',
  action: 'userSync.start',
  summary:
    "Queues a run of the tenant's user sync-up and answers it; while a run is queued or running that run is answered instead (one at a time). -6 when no feed is configured.",
  response: UserSyncRun,
});

export const listUserSyncUps = defineEndpoint({
  method: 'GET',
  path: '/msbapi/v2/userSyncUps',
  access: 'tenant',
  action: 'userSync.start',
  summary: 'The user sync-up source as configured, whether its file is there now, and the latest runs, newest first.',
  response: z.object({ source: UserSyncSource, runs: z.array(UserSyncRun).max(USER_SYNC_RECENT_RUNS) }),
});

export const getUserSyncUp = defineEndpoint({
  method: 'GET',
  path: '/msbapi/v2/userSyncUps/:runId',
  access: 'tenant',
  action: 'userSync.start',
  summary: 'One run of the user sync-up with its full report: every change, and every refused row by line, field and code.',
  params: z.object({ runId: z.uuid() }),
  response: UserSyncRunDetail,
});
