import { fullName, isTagFor, type EpakDetail, type Tag } from '@pakt/domain';
import { useMediaQuery } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Outcome } from './action-panel';
import { signingQueryKeys } from '../../api/signing-query-keys';
import { useSigningApi } from '../../api/signing-api';
import { useAnnouncer } from './ceremony-announcer';
import { NO_VIEWER, requiredProgress, type Signer } from './signing-tags';
import { tagLabelOf } from './tag-presentation';
import { useAutoFill } from './use-auto-fill';
import { useCeremonyActions } from './use-ceremony-actions';
import { useCeremonyTags } from './use-ceremony-tags';
import { useDocumentView } from './use-document-view';
import { useFieldGuide } from './use-field-guide';
import { useSignerEntries } from './use-signer-entries';
import { useSignerName } from './use-signer-name';
import { useSigningPlace } from './use-signing-place';
import { useStampUses } from './use-stamp-uses';

/**
 * Mantine's `sm` breakpoint (48em): below it the ceremony takes its phone layout (issue 22): the
 * pages scroll with the page, and the guided bar walks the signer through their fields.
 */
export const CEREMONY_WIDE_QUERY = '(min-width: 48em)';

/** Who is at the screen, as their session knows them (the ePak's recipient list may know better). */
export interface CeremonyPerson {
  readonly email: string;
  readonly name: string;
}

/**
 * The ceremony's state and what changes it, one concern per hook: the tags, what the signer
 * entered, auto-fill, where they sign, the document shown, rubber stamps and the actions. The
 * ceremony's sections render it; none keeps state of its own.
 */
export function useCeremony({ epak, person, onSettled }: { readonly epak: EpakDetail; readonly person: CeremonyPerson; readonly onSettled: ((outcome: Outcome) => void) | undefined }) {
  const { t } = useTranslation();
  const { scope } = useSigningApi();
  const queryClient = useQueryClient();
  const viewer = epak.viewer ?? NO_VIEWER;
  const phone = !useMediaQuery(CEREMONY_WIDE_QUERY, false, { getInitialValueInEffect: false });
  const announcer = useAnnouncer();
  const signerName = useSignerName({ viewer });

  const me = useMemo(() => epak.steps.flatMap((step) => step.recipients).find((recipient) => recipient.recipientId === viewer.recipientId), [epak.steps, viewer.recipientId]);
  // The name they sign under: what they type when the ePak knows none (issue 22), else the name
  // the ePak shows for them (the one typed earlier, or their record's).
  const name = signerName.required ? signerName.typed : viewer.signerName || (me ? fullName(me) : '') || person.name || person.email;
  const signer: Signer = useMemo(
    () => ({
      email: me?.email ?? person.email,
      stepOrder: viewer.stepOrder,
      name,
    }),
    [me, person.email, viewer.stepOrder, name],
  );

  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const canAct = viewer.canAct && outcome === null;
  // Whoever hosts this ceremony (an in-person signer's turn) hears of the outcome once, settled.
  const settledFor = useRef<Outcome | null>(null);
  useEffect(() => {
    if (!outcome?.settled || settledFor.current === outcome) return;
    settledFor.current = outcome;
    onSettled?.(outcome);
  }, [outcome, onSettled]);
  /** The action is done: say so, and fetch where everyone stands now (the step may have moved on). */
  const conclude = (done: Omit<Outcome, 'settled'>) => {
    setOutcome({ ...done, settled: false });
    void queryClient
      .invalidateQueries({ queryKey: signingQueryKeys.all(scope, epak.ePakId) })
      .finally(() => setOutcome((shown) => (shown ? { ...shown, settled: true } : shown)));
  };

  const tags = useCeremonyTags({ epak, signer, canAct });
  const entries = useSignerEntries({
    tags,
    signer,
    viewer,
    announce: announcer.announce,
    onNameMissing: signerName.required ? () => signerName.ask(t('signing.name.requiredFirst')) : null,
  });
  const autoFill = useAutoFill({ tags, entries, signer, canAct, announce: announcer.announce });
  const place = useSigningPlace({ tags, entries, viewer });
  const view = useDocumentView({ epak });
  const stamps = useStampUses({ viewer, tags, view, signer });
  /** A field's accessible name, as its box on the page has it. */
  const labelOf = (tag: Tag) => tagLabelOf(t, tag, { own: isTagFor(tag, signer), editable: true, value: null, ownerName: null });
  const guide = useFieldGuide({ tags, entries, view, label: labelOf });

  const progress = epak.documents.map((document) => ({
    document,
    signed: viewer.signedDocumentIds.includes(document.documentId),
    viewed: viewer.viewedDocumentIds.includes(document.documentId),
    loaded: tags.queryOf(document.documentId)?.data !== undefined,
    ...requiredProgress(tags.tagsOf(document.documentId), entries.valuesOf(document.documentId), tags.contextOf(document.documentId), { reasonGiven: entries.chosenReason !== undefined }),
  }));
  const missing = progress.filter((entry) => !entry.signed).flatMap((entry) => entry.missing.map((tag) => ({ documentId: entry.document.documentId, uuid: tag.uuid })));
  const nextMissing = missing.find((entry) => entry.documentId === view.currentId) ?? missing[0];

  const actions = useCeremonyActions({ epak, tags, entries, place, stamps, view, missing, signerName, announce: announcer.announce, onDone: conclude });
  return { epak, viewer, signer, signerName, outcome, canAct, phone, tags, entries, autoFill, place, view, stamps, progress, nextMissing, guide, announcer, actions };
}

export type CeremonyState = ReturnType<typeof useCeremony>;
