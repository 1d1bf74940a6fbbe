import { getEpak } from '@pakt/domain';
import { useQuery } from '@tanstack/react-query';
import { ApiError, callApi } from '../../api/client';
import { useSession } from '../../api/session-store';

export const composeQueryKeys = {
  documents: (tenantUuid: string | null | undefined, page: number) => ['tenant', tenantUuid, 'documents', page] as const,
  allDocuments: (tenantUuid: string | null | undefined) => ['tenant', tenantUuid, 'documents'] as const,
  epak: (tenantUuid: string | null | undefined, ePakId: string) => ['tenant', tenantUuid, 'epak', ePakId] as const,
};

/** One query for the ePak shown, shared by the heading and the view (same key, one request). */
export function useEpak(ePakId: string | null) {
  const session = useSession();
  return useQuery({
    queryKey: composeQueryKeys.epak(session?.tenantUuid, ePakId ?? ''),
    queryFn: ({ signal }) => callApi(getEpak, { params: { ePakId: ePakId ?? '' } }, { signal, failures: 'caller' }),
    enabled: ePakId !== null,
    retry: (failures, error) => !(error instanceof ApiError && (error.httpStatus === 404 || error.httpStatus === 400)) && failures < 2,
  });
}
