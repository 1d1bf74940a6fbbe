import { getSignatureBlocks, type EpakDetail } from '@pakt/domain';
import { useQueries } from '@tanstack/react-query';
import { useEffect, useRef, type Dispatch } from 'react';
import { callApi } from '../../api/client';
import { tagEditorQueryKeys } from './queries';
import type { TagEditorAction } from './tag-editor-state';

/**
 * The tags of every document of the ePak, loaded once each and handed to the editor's state as
 * they arrive. `loadedFrom` holds the answer each document's tags were last taken from, so the
 * same answer is never loaded twice; a save records its own answer there.
 */
export function useTagBlocks(epak: EpakDetail, tenantUuid: string | null | undefined, dispatch: Dispatch<TagEditorAction>) {
  const blocks = useQueries({
    queries: epak.documents.map((document) => ({
      queryKey: tagEditorQueryKeys.tags(tenantUuid, epak.ePakId, document.documentId),
      queryFn: ({ signal }: { signal: AbortSignal }) =>
        callApi(getSignatureBlocks, { params: { ePakId: epak.ePakId, documentId: document.documentId } }, { signal, failures: 'caller' }),
    })),
  });
  const loadedFrom = useRef(new Map<string, unknown>());
  useEffect(() => {
    blocks.forEach((query, index) => {
      const document = epak.documents[index];
      if (!document || !query.data || loadedFrom.current.get(document.documentId) === query.data) return;
      loadedFrom.current.set(document.documentId, query.data);
      dispatch({ type: 'loaded', documentId: document.documentId, tags: query.data.tags });
    });
  });
  return { blocks, loadedFrom };
}
