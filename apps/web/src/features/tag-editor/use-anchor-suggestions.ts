import { type AnchorSuggestions, type ConfiguredAnchor, type EpakDetail, findEpakDocumentAnchors, ResponseCode } from '@pakt/domain';
import { useMutation } from '@tanstack/react-query';
import { useState, type Dispatch } from 'react';
import type { z } from 'zod';
import { ApiError, callApi } from '../../api/client';
import { assignTo, type SignerOption } from './signers';
import type { TagEditorAction } from './tag-editor-state';

export type FindRequest = { readonly find: 'signatureLines' } | { readonly find: 'anchors'; readonly strings: readonly z.input<typeof ConfiguredAnchor>[] };

/** What the last search came to, said beside its suggestions. */
export type FindOutcome =
  | { readonly kind: 'found'; readonly find: FindRequest['find']; readonly answer: AnchorSuggestions; readonly documentId: string }
  /** -125: configured strings the document does not contain. */
  | { readonly kind: 'notFound'; readonly texts: readonly string[]; readonly documentId: string }
  | { readonly kind: 'failed'; readonly unreachable: boolean; readonly documentId: string };

/**
 * "Find signature lines" and "Place at anchors" (issue 21): asks the server where fields belong in
 * the shown document and hands the answer to the editor's state as suggestions. Signature lines
 * name nobody, so they start as fields for the signer chosen under "For"; anchors come assigned to
 * the signer they name when the workflow has one.
 */
export function useAnchorSuggestions({
  epak,
  documentId,
  forSigner,
  dispatch,
}: {
  readonly epak: EpakDetail;
  readonly documentId: string;
  readonly forSigner: SignerOption | undefined;
  readonly dispatch: Dispatch<TagEditorAction>;
}) {
  const [outcome, setOutcome] = useState<FindOutcome | null>(null);
  const search = useMutation({
    mutationFn: async ({ request, documentId: target }: { request: FindRequest; documentId: string }) =>
      callApi(
        findEpakDocumentAnchors,
        { params: { ePakId: epak.ePakId, documentId: target }, body: request.find === 'anchors' ? { find: 'anchors', strings: [...request.strings] } : { find: 'signatureLines' } },
        { failures: 'caller' },
      ),
    onMutate: () => setOutcome(null),
    onSuccess: (answer, { request, documentId: target }) => {
      const suggestions = answer.suggestions.map((suggestion) =>
        suggestion.signerSlot === null && !suggestion.tag.userEmail && forSigner ? { ...suggestion, tag: { ...suggestion.tag, ...assignTo(forSigner) } } : suggestion,
      );
      dispatch({ type: 'suggest', documentId: target, suggestions });
      setOutcome({ kind: 'found', find: request.find, answer, documentId: target });
    },
    onError: (error, { documentId: target }) => {
      if (error instanceof ApiError && error.code === ResponseCode.AUTO_PLACEMENT_STRING_NOT_FOUND.code) {
        const texts = error.data?.['notFound'];
        setOutcome({ kind: 'notFound', texts: Array.isArray(texts) ? texts.filter((text): text is string => typeof text === 'string') : [], documentId: target });
        return;
      }
      setOutcome({ kind: 'failed', unreachable: error instanceof ApiError && error.httpStatus === 0, documentId: target });
    },
  });
  return {
    find: (request: FindRequest) => search.mutate({ request, documentId }),
    searching: search.isPending,
    /** Only what was found in the shown document is said. */
    outcome: outcome?.documentId === documentId ? outcome : null,
    dismissOutcome: () => setOutcome(null),
  };
}
