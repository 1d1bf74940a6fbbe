import {
  archiveEpak,
  bulkSignEpaks,
  deleteEpaks,
  EPAK_LIST_REFRESH_MS,
  getStatistics,
  getUserStatistics,
  listEpaks,
  markEpakRead,
  toggleEpakStar,
  type ChartScope,
  type ChartType,
  type InboxPage,
} from '@pakt/domain';
import { keepPreviousData, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { callApi } from '../../api/client';
import { useSession } from '../../api/session-store';
import { inboxRequestQuery, type InboxSearch, type InboxState } from './inbox-state';

/**
 * The first element of every query key of ePak lists, folder counts and dashboard statistics.
 * Anything that learns the inbox changed (the notifications client on a WebSocket event, an
 * action taken here) refreshes all of it at once with
 *
 *   queryClient.invalidateQueries({ queryKey: [INBOX_QUERY_SCOPE] })   // i.e. ['epaks']
 *
 * which is what refreshInbox() does. Keys go on with the tenant, so switching tenants never
 * shows one tenant's ePaks in another's list.
 */
export const INBOX_QUERY_SCOPE = 'epaks';

export const inboxQueryKeys = {
  all: [INBOX_QUERY_SCOPE] as const,
  list: (tenantUuid: string | null | undefined, state: InboxState, search: InboxSearch | null, ts: string | null) =>
    // ts: a search run again from the search bar (a new timestamp) is fetched afresh, not served from cache.
    [INBOX_QUERY_SCOPE, tenantUuid, 'list', inboxRequestQuery(state, search), ts] as const,
  userStatistics: (tenantUuid: string | null | undefined) => [INBOX_QUERY_SCOPE, tenantUuid, 'userStatistics'] as const,
  /** userId: whose numbers scope groupuser shows (null for the other scopes). */
  statistics: (tenantUuid: string | null | undefined, type: ChartType, scope: ChartScope, userId: string | null = null) =>
    [INBOX_QUERY_SCOPE, tenantUuid, 'statistics', type, scope, userId] as const,
};

/** Refetches every ePak list, count and chart now (see INBOX_QUERY_SCOPE). */
export function refreshInbox(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: inboxQueryKeys.all });
}

/** One page of a folder. Refetched every EPAK_LIST_REFRESH_MS (spec §9) while it is shown. */
export function useInboxPage(state: InboxState, search: InboxSearch | null, ts: string | null = null) {
  const session = useSession();
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: inboxQueryKeys.list(session?.tenantUuid, state, search, ts),
    queryFn: ({ signal }) => {
      // The page after one already read starts where that one ended (its nextCursor): a range of
      // the index however deep, and no row repeated or skipped when the list moved in between.
      // A page reached otherwise (a jump, a link) is asked by its number.
      const before = state.pg > 0 ? queryClient.getQueryData<InboxPage>(inboxQueryKeys.list(session?.tenantUuid, { ...state, pg: state.pg - 1 }, search, ts)) : undefined;
      const query = inboxRequestQuery(state, search);
      return callApi(listEpaks, { query: before?.nextCursor ? { ...query, cursor: before.nextCursor } : query }, { signal });
    },
    refetchInterval: EPAK_LIST_REFRESH_MS,
    // Paging or sorting keeps the rows on screen until the next ones arrive, instead of a blank table.
    placeholderData: keepPreviousData,
    enabled: !!session?.tenantUuid,
  });
}

export function useUserStatistics() {
  const session = useSession();
  return useQuery({
    queryKey: inboxQueryKeys.userStatistics(session?.tenantUuid),
    queryFn: ({ signal }) => callApi(getUserStatistics, undefined, { signal }),
    refetchInterval: EPAK_LIST_REFRESH_MS,
    enabled: !!session?.tenantUuid,
  });
}

/**
 * A dashboard chart's numbers: for scope groupuser, `userId` names the group member whose own
 * numbers are shown (the other scopes take none). `enabled: false` keeps the query idle, for a
 * component that needs it only in some scopes.
 */
export function useStatistics(type: ChartType, scope: ChartScope, userId?: string | null, options: { enabled?: boolean } = {}) {
  const session = useSession();
  const member = scope === 'groupuser' ? (userId ?? null) : null;
  return useQuery({
    queryKey: inboxQueryKeys.statistics(session?.tenantUuid, type, scope, member),
    queryFn: ({ signal }) => callApi(getStatistics, { query: { type, scope, userId: member ?? undefined } }, { signal }),
    refetchInterval: EPAK_LIST_REFRESH_MS,
    placeholderData: keepPreviousData,
    // groupuser without a person is not a question the server answers.
    enabled: !!session?.tenantUuid && (options.enabled ?? true) && (scope !== 'groupuser' || member !== null),
  });
}

/** Writes a change to one ePak into every cached page that shows it, so the screen answers at once. */
function patchCachedEpak(queryClient: QueryClient, ePakId: string, patch: Partial<InboxPage['items'][number]>): void {
  queryClient.setQueriesData<InboxPage>({ queryKey: inboxQueryKeys.all }, (page) => {
    if (!page || !Array.isArray(page.items)) return page;
    if (!page.items.some((item) => item.id === ePakId)) return page;
    return { ...page, items: page.items.map((item) => (item.id === ePakId ? { ...item, ...patch } : item)) };
  });
}

export function useToggleStar() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ePakId: string) => callApi(toggleEpakStar, { params: { ePakId } }, { failures: 'caller' }),
    onSuccess: ({ ePakId, starred }) => {
      patchCachedEpak(queryClient, ePakId, { starred });
      // The starred filter's pages change with it.
      void refreshInbox(queryClient);
    },
  });
}

export function useMarkRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ ePakId, isRead }: { ePakId: string; isRead: boolean }) =>
      callApi(markEpakRead, { params: { ePakId }, body: { isRead } }, { failures: 'caller' }),
    onSuccess: ({ id, isRead }) => {
      patchCachedEpak(queryClient, id, { isRead });
      void refreshInbox(queryClient);
    },
  });
}

export function useBulkSign() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ ePakIds, reason }: { ePakIds: string[]; reason?: string }) =>
      callApi(bulkSignEpaks, { body: { ePakIds, ...(reason ? { reason } : {}) } }, { failures: 'caller' }),
    onSettled: () => void refreshInbox(queryClient),
  });
}

export function useDeleteEpaks() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ePakIds: string[]) => callApi(deleteEpaks, { body: { ePakIds } }, { failures: 'caller' }),
    onSettled: () => void refreshInbox(queryClient),
  });
}

/** What became of one ePak of a bulk archive (the API archives one at a time). */
export interface ArchiveOutcome {
  readonly ePakId: string;
  readonly archived: boolean;
  readonly message: string | null;
}

export function useArchiveEpaks() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (ePakIds: string[]): Promise<ArchiveOutcome[]> => {
      const settled = await Promise.allSettled(
        ePakIds.map((epakId) => callApi(archiveEpak, { params: { epakId } }, { failures: 'caller' })),
      );
      return settled.map((result, index) => ({
        ePakId: ePakIds[index]!,
        archived: result.status === 'fulfilled',
        message: result.status === 'rejected' ? (result.reason instanceof Error ? result.reason.message : String(result.reason)) : null,
      }));
    },
    onSettled: () => void refreshInbox(queryClient),
  });
}

/** Marks several ePaks read or unread (one call each: the API takes one ePak at a time). */
export function useMarkManyRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ ePakIds, isRead }: { ePakIds: string[]; isRead: boolean }) => {
      await Promise.allSettled(ePakIds.map((ePakId) => callApi(markEpakRead, { params: { ePakId }, body: { isRead } }, { failures: 'caller' })));
    },
    onSettled: () => void refreshInbox(queryClient),
  });
}
