import { rejectEpak, setEpakStatus, signEpakDocument, type EpakDetail, type SignDocumentResult } from '@pakt/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Outcome } from './action-panel';
import { signingQueryKeys } from '../../api/signing-query-keys';
import { actionErrorMessage, refusedLocation, refusedTagUuids, staleAfter } from './sign-errors';
import { useSigningApi } from '../../api/signing-api';
import { fillableTags, NO_VIEWER, valuesToSend } from './signing-tags';
import type { CeremonyTags } from './use-ceremony-tags';
import type { DocumentView } from './use-document-view';
import type { SignerEntries } from './use-signer-entries';
import type { SignerName } from './use-signer-name';
import type { SigningPlace } from './use-signing-place';
import type { StampUses } from './use-stamp-uses';

interface ActionsOptions {
  readonly epak: EpakDetail;
  readonly tags: CeremonyTags;
  readonly entries: SignerEntries;
  readonly place: SigningPlace;
  readonly stamps: StampUses;
  readonly view: DocumentView;
  /** Required fields still empty, on documents not yet signed. */
  readonly missing: readonly { documentId: string; uuid: string }[];
  /** The name typed by a signer the ePak knows only by address (issue 22), sent with every document. */
  readonly signerName: SignerName;
  /** Says a change to a screen reader (the ceremony's live region). */
  readonly announce: (text: string) => void;
  /** The action is done: the host says so and fetches where everyone stands (not awaited, so the button is free at once). */
  readonly onDone: (done: Omit<Outcome, 'settled'>) => void;
}

/**
 * Sign, mark reviewed, reject: each refusal is said in the panel, and the fields it names are
 * pointed at. Signing goes document by document; each signed one is remembered at once.
 */
export function useCeremonyActions({ epak, tags, entries, place, stamps, view, missing, signerName, announce, onDone }: ActionsOptions) {
  const { t } = useTranslation();
  const { callApi, scope } = useSigningApi();
  const queryClient = useQueryClient();
  const ePakId = epak.ePakId;
  const viewer = epak.viewer ?? NO_VIEWER;
  const [error, setError] = useState<string | null>(null);
  const [signing, setSigning] = useState<{ index: number; count: number } | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: signingQueryKeys.all(scope, ePakId) });

  const failed = (refusal: unknown) => {
    if (refusedLocation(refusal)) {
      // The tenant asks for a location now and this screen did not know: fetch its setting again.
      setError(t('signing.location.requiredNow'));
      void refresh();
      return;
    }
    setError(actionErrorMessage(t, refusal));
    const named = refusedTagUuids(refusal);
    if (named.length > 0) {
      entries.setHighlighted(new Set(named));
      const owner = epak.documents.find((document) => fillableTags(tags.tagsOf(document.documentId)).some((tag) => named.includes(tag.uuid.toLowerCase())));
      if (owner) view.setDocumentId(owner.documentId);
    }
    if (staleAfter(refusal)) void refresh();
  };

  const sign = useMutation({
    mutationFn: async () => {
      let last: SignDocumentResult | null = null;
      // One document after another, in the ePak's order: each is one revision sealed by the server.
      // The reason, the location and the typed name are asked once and go with each of them.
      const documents = tags.unsignedDocuments;
      for (const [index, document] of documents.entries()) {
        setSigning({ index, count: documents.length });
        const stamp = stamps.uses[document.documentId];
        last = await callApi(
          signEpakDocument,
          {
            params: { ePakId, documentId: document.documentId },
            body: {
              action: 'SIGN',
              values: valuesToSend(tags.tagsOf(document.documentId), entries.valuesOf(document.documentId), tags.contextOf(document.documentId)),
              ...(entries.chosenReason ? { reason: entries.chosenReason } : {}),
              ...(place.location ? { location: place.location } : {}),
              ...(stamp ? { rubberStamps: [stamp.use] } : {}),
              ...(signerName.toSend ? { signerName: signerName.toSend } : {}),
            },
          },
          { failures: 'caller' },
        );
        // Remembered at once: should a later document fail, trying again skips the ones signed.
        const signedId = document.documentId;
        queryClient.setQueryData<EpakDetail>(signingQueryKeys.epak(scope, ePakId), (old) =>
          old?.viewer ? { ...old, viewer: { ...old.viewer, signedDocumentIds: [...new Set([...old.viewer.signedDocumentIds, signedId])] } } : old,
        );
        announce(t('signing.announce.documentSigned', { name: document.name, number: index + 1, count: documents.length }));
      }
      return last;
    },
    onMutate: () => setError(null),
    onSuccess: (last) => {
      onDone({ kind: 'signed', epakStatus: last?.epakStatus ?? null, stepOrder: viewer.stepOrder });
    },
    onError: failed,
    onSettled: () => setSigning(null),
  });

  const trySign = () => {
    setError(null);
    if (signerName.missing) {
      // Nothing can be signed under no name: the server would refuse it (-6).
      const message = t('signing.name.required');
      setError(message);
      signerName.ask(message);
      return;
    }
    // The panel's field says so under itself; a location field on the pages is highlighted below.
    if (place.missing && place.panelAsks) place.setError(t('signing.location.required'));
    if (missing.length > 0) {
      entries.setHighlighted(new Set(missing.map((entry) => entry.uuid.toLowerCase())));
      setError(t('signing.errors.fillRequired', { count: missing.length }));
      const next = missing.find((entry) => entry.documentId === view.currentId) ?? missing[0];
      if (next) view.goTo(next);
      return;
    }
    if (place.missing) {
      if (place.panelAsks) {
        place.inputRef.current?.focus();
      } else {
        const first = place.ownTags[0]!;
        entries.setHighlighted(new Set(place.ownTags.map(({ tag }) => tag.uuid.toLowerCase())));
        setError(t('signing.location.tagRequired'));
        view.goTo({ documentId: first.documentId, uuid: first.tag.uuid });
      }
      return;
    }
    sign.mutate();
  };

  const review = useMutation({
    mutationFn: () => callApi(setEpakStatus, { body: { ePakId, status: 'Reviewed' } }, { failures: 'caller' }),
    onMutate: () => setError(null),
    onSuccess: (answer) => {
      onDone({ kind: 'reviewed', epakStatus: answer.status, stepOrder: viewer.stepOrder });
    },
    onError: failed,
  });

  const [rejecting, setRejecting] = useState(false);
  const reject = useMutation({
    mutationFn: (comment: string) => callApi(rejectEpak, { params: { ePakId }, body: { comment } }, { failures: 'caller' }),
    onSuccess: (answer) => {
      setRejecting(false);
      onDone({ kind: 'rejected', epakStatus: answer.status, stepOrder: viewer.stepOrder });
    },
    onError: (refusal) => {
      if (staleAfter(refusal)) {
        setRejecting(false);
        failed(refusal);
      }
    },
  });
  const startRejecting = () => {
    reject.reset();
    setRejecting(true);
  };
  const rejectError = reject.isError ? actionErrorMessage(t, reject.error) : null;

  return { error, signing, trySign, sign, review, reject, rejecting, setRejecting, startRejecting, rejectError };
}

export type CeremonyActions = ReturnType<typeof useCeremonyActions>;
