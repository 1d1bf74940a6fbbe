import { ResponseCode, TAG_PROBLEM_KEYS, updateSignatureBlocks, type EpakDetail, type Tag, type TagProblem } from '@pakt/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type Dispatch, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, callApi } from '../../api/client';
import type { EpakDocument } from './document-pages';
import { tagEditorQueryKeys } from './queries';
import { hasUnsavedChanges, type DocumentTags, type TagEditorAction } from './tag-editor-state';

type TagEditorDocuments = Readonly<Record<string, DocumentTags>>;

export type SaveOutcome = { readonly kind: 'saved' } | { readonly kind: 'failed'; readonly message: string };

/** The problems a refused save (-6, -49) carries in data.problems, when it carries any. */
function serverProblems(error: unknown): TagProblem[] | null {
  if (!(error instanceof ApiError)) return null;
  if (error.code !== ResponseCode.INVALID_INPUT.code && error.code !== ResponseCode.ESIGNATURE_REASON_TAG_NOT_SELECTED.code) return null;
  const raw = error.data?.['problems'];
  if (!Array.isArray(raw)) return null;
  const problems = raw.filter(
    (item): item is TagProblem =>
      typeof item === 'object' &&
      item !== null &&
      typeof (item as { tagUuid?: unknown }).tagUuid === 'string' &&
      (TAG_PROBLEM_KEYS as readonly unknown[]).includes((item as { messageKey?: unknown }).messageKey),
  );
  return problems.length > 0 ? problems : null;
}

class SaveFailure extends Error {
  constructor(
    readonly document: EpakDocument,
    readonly failure: unknown,
  ) {
    super('saving the fields failed');
  }
}

interface TagSaveInput {
  readonly epak: EpakDetail;
  readonly tenantUuid: string | null | undefined;
  readonly dispatch: Dispatch<TagEditorAction>;
  /** useTagBlocks' record of the answers loaded: a save's answer is loaded already. */
  readonly loadedFrom: RefObject<Map<string, unknown>>;
  /** Brings a document into view: the one whose fields the server refused. */
  readonly showDocument: (documentId: string) => void;
}

/**
 * Saving: each document with unsaved changes is sent in turn, and what the last save came to
 * (saved, or why not) is kept to be said until the next save or placement.
 */
export function useTagSave({ epak, tenantUuid, dispatch, loadedFrom, showDocument }: TagSaveInput) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [outcome, setOutcome] = useState<SaveOutcome | null>(null);
  const save = useMutation({
    mutationFn: async (documents: TagEditorDocuments) => {
      for (const document of epak.documents) {
        const entry = documents[document.documentId];
        if (!entry || !hasUnsavedChanges(entry)) continue;
        const sent = entry.tags;
        let answer: { tags: Tag[] };
        try {
          answer = await callApi(
            updateSignatureBlocks,
            { params: { ePakId: epak.ePakId, documentId: document.documentId }, body: { tags: [...sent] } },
            { failures: 'caller' },
          );
        } catch (error) {
          throw new SaveFailure(document, error);
        }
        loadedFrom.current.set(document.documentId, answer);
        queryClient.setQueryData(tagEditorQueryKeys.tags(tenantUuid, epak.ePakId, document.documentId), answer);
        dispatch({ type: 'saved', documentId: document.documentId, sent, tags: answer.tags });
      }
    },
    onMutate: () => setOutcome(null),
    onSuccess: () => setOutcome({ kind: 'saved' }),
    onError: (failure) => {
      const cause = failure instanceof SaveFailure ? failure.failure : failure;
      const problems = serverProblems(cause);
      if (failure instanceof SaveFailure && problems) {
        dispatch({ type: 'serverRefused', documentId: failure.document.documentId, problems });
        showDocument(failure.document.documentId);
        return setOutcome({ kind: 'failed', message: t('tagEditor.serverRefused', { name: failure.document.name }) });
      }
      const unreachable = cause instanceof ApiError && cause.httpStatus === 0;
      setOutcome({ kind: 'failed', message: t(unreachable ? 'common.unreachable' : 'tagEditor.saveFailed') });
    },
  });
  return { save, outcome, setOutcome };
}
