import { GroupName, ResponseCode, type Group, type GroupMember, displayName } from '@pakt/domain';
import type { QueryClient } from '@tanstack/react-query';
import type { ParseKeys } from 'i18next';
import { ApiError } from '../../api/client';
import { groupQueryKeys, adminAuditQueryKeys } from './queries';

/**
 * After any change to a group: the answer (the group as it now is) goes straight into the open
 * group's cache, and the list (member counts, managers, names) and the audit log, which just got a
 * new entry, are asked again.
 */
export function afterGroupChange(queryClient: QueryClient, tenant: string | null | undefined, group?: Group): Promise<unknown> {
  if (group) queryClient.setQueryData(groupQueryKeys.detail(tenant, group.groupId), group);
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: [...groupQueryKeys.all(tenant), 'list'] }),
    queryClient.invalidateQueries({ queryKey: adminAuditQueryKeys.all(tenant) }),
  ]);
}

/**
 * A name the server would refuse for its length (spec §5: at most 15 characters, after trimming),
 * told before anything is sent. The same zod schema checks it on the server.
 */
export function groupNameProblem(name: string): ParseKeys | null {
  return GroupName.safeParse(name).success ? null : 'groups.errors.nameLength';
}

export interface GroupProblem {
  readonly key: ParseKeys;
  /** The server's own words, for refusals the screen has no message of its own for. */
  readonly detail?: string;
  /** The refusal concerns the name field (shown on it rather than above the form). */
  readonly onName?: boolean;
  /** The group is gone (deleted meanwhile): the screen goes back to the list. */
  readonly gone?: boolean;
}

/**
 * What a refused group change means to the person who tried it. The manager codes of §8 each get
 * a message of their own; -6 is the name (taken, whatever its case, or invalid); anything else is
 * said with the server's message.
 */
export function groupProblem(error: unknown): GroupProblem {
  if (!(error instanceof ApiError)) return { key: 'groups.errors.failed' };
  if (error.httpStatus === 0) return { key: 'common.unreachable' };
  switch (error.code) {
    case ResponseCode.DUPLICATE_MANAGER_GROUP.code:
      return { key: 'groups.errors.managesAnother' };
    case ResponseCode.CANNOT_DELETE_MANAGER.code:
      return { key: 'groups.errors.cannotRemoveManager' };
    case ResponseCode.ALREADY_MEMBER_OF_GROUP_MANAGER.code:
      return { key: 'groups.errors.alreadyManager' };
    case ResponseCode.INVALID_INPUT.code: {
      // An invalid request about something else than the name (say, a person who left the
      // tenant meanwhile) is not the name's fault: said as the server said it.
      const aboutOther = error.issues?.some((issue) => !issue.path.includes('groupName')) ?? false;
      return aboutOther ? { key: 'groups.errors.failed', detail: error.message } : { key: 'groups.errors.nameTaken', onName: true };
    }
  }
  if (error.httpStatus === 404) return { key: 'groups.errors.notFound', gone: true };
  return { key: 'groups.errors.failed', ...(error.message ? { detail: error.message } : {}) };
}

/** The manager first, then everyone by name, so the list reads the same on every visit. */
export function sortedMembers(members: readonly GroupMember[]): GroupMember[] {
  return [...members].sort((a, b) => Number(b.manager) - Number(a.manager) || displayName(a).localeCompare(displayName(b)));
}
