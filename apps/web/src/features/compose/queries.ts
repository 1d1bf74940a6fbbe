import { getEpak, getSignatureBlocks, type EpakDetail, type Tag } from '@pakt/domain';
import { useQueries, useQuery } from '@tanstack/react-query';
import { ApiError, callApi } from '../../api/client';
import { useSession } from '../../api/session-store';

export const composeQueryKeys = {
  documents: (tenantUuid: string | null | undefined, page: number) => ['tenant', tenantUuid, 'documents', page] as const,
  allDocuments: (tenantUuid: string | null | undefined) => ['tenant', tenantUuid, 'documents'] as const,
  epak: (tenantUuid: string | null | undefined, ePakId: string) => ['tenant', tenantUuid, 'epak', ePakId] as const,
  /**
   * A document's saved fields. The very key the tag editor keeps them under (its saves write
   * there), so the review step reads what the editor last saved without asking again.
   */
  tags: (tenantUuid: string | null | undefined, ePakId: string, documentId: string) => ['tenant', tenantUuid, 'epak', ePakId, 'tags', documentId] as const,
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

/** The saved fields of every document of a draft: pending until all have come, failed if any failed. */
export function useDraftTags(epak: EpakDetail | undefined) {
  const session = useSession();
  const documents = epak?.documents ?? [];
  const queries = useQueries({
    queries: documents.map((document) => ({
      queryKey: composeQueryKeys.tags(session?.tenantUuid, epak?.ePakId ?? '', document.documentId),
      queryFn: ({ signal }: { signal: AbortSignal }) =>
        callApi(getSignatureBlocks, { params: { ePakId: epak?.ePakId ?? '', documentId: document.documentId } }, { signal, failures: 'caller' }),
      enabled: epak !== undefined,
    })),
  });
  const tags = new Map<string, readonly Tag[]>();
  queries.forEach((query, index) => {
    const document = documents[index];
    if (document && query.data) tags.set(document.documentId, query.data.tags);
  });
  return {
    tags,
    isPending: epak === undefined || queries.some((query) => query.isPending),
    isError: queries.some((query) => query.isError),
    isFetching: queries.some((query) => query.isFetching),
    refetch: () => Promise.all(queries.map((query) => query.refetch())),
  };
}
