import { getSignatureBlocks, type EpakDetail, type Tag } from '@pakt/domain';
import { keepPreviousData, useQueries } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { EpakDocument } from '../tag-editor';
import { signingQueryKeys } from '../../api/signing-query-keys';
import { useSigningApi } from '../../api/signing-api';
import { NO_VIEWER, type EditContext, type Signer } from './signing-tags';

/**
 * The tags of every document of the ePak, fetched side by side, and what the person may do with
 * them (the edit context of each document: its own tags, while they may act and it is unsigned).
 */
export function useCeremonyTags({ epak, signer, canAct }: { readonly epak: EpakDetail; readonly signer: Signer; readonly canAct: boolean }) {
  const { callApi, scope } = useSigningApi();
  const ePakId = epak.ePakId;
  const viewer = epak.viewer ?? NO_VIEWER;
  const queries = useQueries({
    queries: epak.documents.map((document) => ({
      queryKey: signingQueryKeys.tags(scope, ePakId, document.documentId, document.revisions),
      queryFn: ({ signal }: { signal: AbortSignal }) => callApi(getSignatureBlocks, { params: { ePakId, documentId: document.documentId } }, { signal, failures: 'caller' }),
      // A signature changes the key (revisions): the tags as they were stay until the new ones come.
      placeholderData: keepPreviousData,
    })),
  });
  const queryOf = (documentId: string) => queries[epak.documents.findIndex((document) => document.documentId === documentId)];
  const tagsOf = (documentId: string): readonly Tag[] => queryOf(documentId)?.data?.tags ?? [];
  const contextOf = useCallback(
    (documentId: string): EditContext => ({ signer, canAct, documentSigned: viewer.signedDocumentIds.includes(documentId) }),
    [signer, canAct, viewer.signedDocumentIds],
  );
  const unsignedDocuments: readonly EpakDocument[] = epak.documents.filter((document) => !viewer.signedDocumentIds.includes(document.documentId));
  return { queryOf, tagsOf, contextOf, unsignedDocuments };
}

export type CeremonyTags = ReturnType<typeof useCeremonyTags>;
