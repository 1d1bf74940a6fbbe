import { getEpakActivity, getEpakManagement, listEpakAttachments, type EpakDetail } from '@pakt/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCan, useResourceActor } from '../../api/access';
import { useSigningApi } from '../../api/signing-api';
import { signingQueryKeys } from '../../api/signing-query-keys';
import { manageAbilities, type ManageAbilities } from './manage-abilities';

/**
 * The management view's answers, cached beside the ceremony's under its session's scope: one
 * invalidation of `signingQueryKeys.all` after an action refreshes the detail the ceremony
 * shows and everything here together, so the two tabs never disagree.
 */
export const manageQueryKeys = {
  management: (scope: string, ePakId: string) => [...signingQueryKeys.all(scope, ePakId), 'manage'] as const,
  activity: (scope: string, ePakId: string) => [...signingQueryKeys.all(scope, ePakId), 'activity'] as const,
  attachments: (scope: string, ePakId: string) => [...signingQueryKeys.all(scope, ePakId), 'attachments'] as const,
};

/** The policies' answers for this ePak and the signed-in person (manage-abilities.ts). */
export function useManageAbilities(epak: Pick<EpakDetail, 'ownerId' | 'status' | 'viewer'>, archivedOn?: string | null): ManageAbilities {
  const actor = useResourceActor();
  const compose = useCan('epak.compose');
  return manageAbilities({ actor, compose, epak, management: { archivedOn: archivedOn ?? null } });
}

export function useManageData(epak: EpakDetail, options: { readonly manage: boolean }) {
  const { callApi, scope } = useSigningApi();
  const ePakId = epak.ePakId;
  const management = useQuery({
    queryKey: manageQueryKeys.management(scope, ePakId),
    queryFn: ({ signal }) => callApi(getEpakManagement, { params: { ePakId } }, { signal, failures: 'caller' }),
    enabled: options.manage,
  });
  const activity = useQuery({
    queryKey: manageQueryKeys.activity(scope, ePakId),
    queryFn: ({ signal }) => callApi(getEpakActivity, { params: { ePakId } }, { signal, failures: 'caller' }),
  });
  const attachments = useQuery({
    queryKey: manageQueryKeys.attachments(scope, ePakId),
    queryFn: ({ signal }) => callApi(listEpakAttachments, { params: { ePakId } }, { signal, failures: 'caller' }),
    enabled: epak.status !== 'Draft',
  });
  return { management, activity, attachments };
}

/** Fetches again whatever the ePak's screens show (the detail, the facts, the log, the files). */
export function useRefreshEpak(ePakId: string) {
  const { scope } = useSigningApi();
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: signingQueryKeys.all(scope, ePakId) });
}

/**
 * A management action: on success and on failure alike the ePak is fetched again, since a
 * refusal (-28, -306, -72…) usually means what the screen shows is no longer so.
 */
export function useEpakAction<I, O>(ePakId: string, run: (input: I) => Promise<O>, options: { readonly onSuccess?: (answer: O, input: I) => void } = {}) {
  const refresh = useRefreshEpak(ePakId);
  return useMutation({
    mutationFn: run,
    onSuccess: (answer, input) => {
      options.onSuccess?.(answer, input);
      void refresh();
    },
    onError: () => void refresh(),
  });
}
