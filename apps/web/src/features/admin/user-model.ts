import {
  type Action,
  type Actor,
  type AdminUser,
  type AuthorizationContext,
  can,
  CsvInviteResult,
  ResponseCode,
  type Role,
  type UserStatus,
} from '@pakt/domain';
import type { QueryClient } from '@tanstack/react-query';
import type { ParseKeys } from 'i18next';
import { ApiError } from '../../api/client';
import { adminAuditQueryKeys, userQueryKeys } from './queries';

/** After any change to people: every folder (counts included) and the audit log are asked again. */
export function afterUserChange(queryClient: QueryClient, tenant: string | null | undefined): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: userQueryKeys.all(tenant) }),
    queryClient.invalidateQueries({ queryKey: adminAuditQueryKeys.all(tenant) }),
  ]);
}


/** Asks the permissions module about an action; never offered on one's own account. */
export function canOn(actor: Actor | null, action: Action, target: Pick<AdminUser, 'userId' | 'role'>, context: AuthorizationContext = {}): boolean {
  if (!actor || target.userId === actor.userId) return false;
  return can(actor, action, { targetUserId: target.userId, targetRole: target.role, ...context });
}

/** Someone invited who has not joined yet: they may be invited again or their invitation withdrawn. */
export const INVITED_STATUSES: readonly UserStatus[] = ['admininvited', 'invitewithdelegation', 'admininviteexpired', 'delegationinviteexpired'];

export type StatusBadge = 'invited' | 'inviteExpired' | 'enabled' | 'disabled' | 'passwordExpired' | 'resetPassword' | 'cancelled';

export function statusBadge(user: Pick<AdminUser, 'status' | 'enabled'>): { readonly key: StatusBadge; readonly color: string } {
  if (!user.enabled) return { key: 'disabled', color: 'red' };
  switch (user.status) {
    case 'admininvited':
    case 'invitewithdelegation':
      return { key: 'invited', color: 'blue' };
    case 'admininviteexpired':
    case 'delegationinviteexpired':
      return { key: 'inviteExpired', color: 'orange' };
    case 'expired':
      return { key: 'passwordExpired', color: 'yellow' };
    case 'resetpassword':
      return { key: 'resetPassword', color: 'yellow' };
    case 'cancelInvitation':
      return { key: 'cancelled', color: 'gray' };
    case 'enabled':
      return { key: 'enabled', color: 'green' };
  }
}

export function userName(user: Pick<AdminUser, 'firstName' | 'middleName' | 'lastName' | 'email'>): string {
  return [user.firstName, user.middleName, user.lastName].filter(Boolean).join(' ').trim() || user.email;
}

export interface UserProblem {
  readonly key: ParseKeys;
  /** The server's own words, for refusals the screen has no message of its own for. */
  readonly detail?: string;
}

/** What a refused change to someone means, in words of the screen's own where §8 has a code for it. */
export function userProblem(error: unknown): UserProblem {
  if (!(error instanceof ApiError)) return { key: 'users.errors.failed' };
  if (error.httpStatus === 0) return { key: 'common.unreachable' };
  switch (error.code) {
    case ResponseCode.INVITATION_CANCEL_BLOCKED_BY_WORKFLOW.code:
      return { key: 'users.errors.cancelBlockedByEpak' };
    case ResponseCode.INVITATION_CANCEL_BLOCKED_BY_DELEGATION.code:
      return { key: 'users.errors.cancelBlockedByDelegation' };
    case ResponseCode.USER_WITH_TENANT.code:
      return { key: 'users.errors.alreadyMember' };
    case ResponseCode.USER_DISABLED.code:
      return { key: 'users.errors.disabled' };
  }
  return { key: 'users.errors.failed', ...(error.message ? { detail: error.message } : {}) };
}

/** The message of one refused CSV row: the field codes of §5, then the catalogue's own. */
export function csvRowMessageKey(code: number): ParseKeys | null {
  switch (code) {
    case -1:
      return 'users.csv.rowErrors.email';
    case -2:
      return 'users.csv.rowErrors.firstName';
    case -3:
      return 'users.csv.rowErrors.lastName';
    case -6:
      return 'users.csv.rowErrors.invalid';
    case ResponseCode.USER_WITH_TENANT.code:
      return 'users.csv.rowErrors.alreadyMember';
    case ResponseCode.USER_DISABLED.code:
      return 'users.csv.rowErrors.disabled';
    case ResponseCode.CSV_HEADER_COUNT_MISMATCH.code:
      return 'users.csv.rowErrors.columns';
    default:
      return null;
  }
}

/** A file the server could not read at all: said as one alert. */
const CSV_FILE_ERRORS: Readonly<Record<number, ParseKeys>> = {
  [ResponseCode.EMPTY_FILE_IMPORTED.code]: 'users.csv.fileErrors.empty',
  [ResponseCode.CSV_MANDATORY_HEADERS.code]: 'users.csv.fileErrors.missingColumns',
  [ResponseCode.CSV_HEADER_COUNT_MISMATCH.code]: 'users.csv.fileErrors.columns',
  [ResponseCode.CSV_RECORD_LIMIT_EXCEEDED.code]: 'users.csv.fileErrors.tooManyRows',
};

export type CsvOutcome =
  | { readonly kind: 'result'; readonly result: CsvInviteResult }
  | { readonly kind: 'file'; readonly key: ParseKeys; readonly detail?: string };

/**
 * What an upload came to: the rows invited and refused (a success, -222 some rows failed or -174
 * all did, both carrying the lists), or a file that could not be read.
 */
export function csvOutcome(outcome: { readonly data: CsvInviteResult } | { readonly error: unknown }): CsvOutcome {
  if ('data' in outcome) return { kind: 'result', result: outcome.data };
  const { error } = outcome;
  if (error instanceof ApiError) {
    const rows = CsvInviteResult.safeParse(error.data);
    if (rows.success) return { kind: 'result', result: rows.data };
    const key = CSV_FILE_ERRORS[error.code];
    if (key) return { kind: 'file', key };
    if (error.httpStatus === 0) return { kind: 'file', key: 'common.unreachable' };
    return { kind: 'file', key: 'users.csv.fileErrors.failed', ...(error.message ? { detail: error.message } : {}) };
  }
  return { kind: 'file', key: 'users.csv.fileErrors.failed' };
}

/** The answer of PUT users/roles: what was changed and what was refused, whether or not the answer was -226. */
export interface RoleUpdateOutcome {
  readonly updated: readonly AdminUser[];
  readonly failed: readonly { readonly userId: string; readonly code: number; readonly message: string }[];
}

export function roleUpdateRefusals(error: unknown): RoleUpdateOutcome | null {
  if (!(error instanceof ApiError) || error.code !== ResponseCode.BULK_ROLE_UPDATE_ERROR.code || !error.data) return null;
  const data = error.data as Partial<RoleUpdateOutcome>;
  if (!Array.isArray(data.failed)) return null;
  return { updated: Array.isArray(data.updated) ? data.updated : [], failed: data.failed };
}

export const roleLabelKey = (role: Role) => `roles.${role}` as const;
