import { useEffect, useEffectEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { autoFillTargets, fillableTags, isCompositeComplete, ownComposites, valueKindOf, type Signer } from './signing-tags';
import type { CeremonyTags } from './use-ceremony-tags';
import type { SignerEntries, TagEntry } from './use-signer-entries';

/**
 * Composite auto-fill (spec §4): once the signer completes one of their signature blocks, the
 * others still open are offered to be filled the same way. Declining switches the toggle off.
 * A signature adopted in a field outside the blocks fills the other such fields at once
 * (use-signer-entries) and asks the same question about the blocks (issue 22): asked once,
 * since accepting fills them and declining turns the offer off.
 */
export function useAutoFill({
  tags,
  entries,
  signer,
  canAct,
  announce,
}: {
  readonly tags: CeremonyTags;
  readonly entries: SignerEntries;
  readonly signer: Signer;
  readonly canAct: boolean;
  readonly announce: (text: string) => void;
}) {
  const { t } = useTranslation();
  const [enabled, setEnabled] = useState(true);
  /** How many blocks the offer would fill; null when nothing is offered. */
  const [offer, setOffer] = useState<number | null>(null);
  const [completedComposite, setCompletedComposite] = useState<string | null>(null);

  const compositesOf = (documentId: string) => ownComposites(tags.tagsOf(documentId), tags.contextOf(documentId));
  const remainingParts = (exceptUuid: string) =>
    tags.unsignedDocuments.flatMap((document) => {
      const composites = compositesOf(document.documentId).filter((composite) => composite.uuid !== exceptUuid);
      return autoFillTargets(composites, entries.valuesOf(document.documentId)).map((tag) => ({ tag, documentId: document.documentId }));
    });
  const remainingCount = (exceptUuid: string) =>
    tags.unsignedDocuments.reduce(
      (sum, document) =>
        sum + compositesOf(document.documentId).filter((composite) => composite.uuid !== exceptUuid && !isCompositeComplete(composite, entries.valuesOf(document.documentId))).length,
      0,
    );
  /** The toggle is offered only when there is more than one block to fill. */
  const severalComposites = tags.unsignedDocuments.reduce((sum, document) => sum + compositesOf(document.documentId).length, 0) > 1;

  // An effect event: it reads the helpers of the render that ran it, and runs after each entry only.
  const offerAfterEntry = useEffectEvent(() => {
    const changed = entries.takeLastChanged();
    if (!changed || !enabled || !canAct) return;
    const composite = compositesOf(changed.documentId).find(
      (candidate) => candidate.uuid === changed.uuid || fillableTags(candidate.children ?? []).some((child) => child.uuid === changed.uuid),
    );
    if (!composite) {
      // A signature just adopted in a field of its own: the blocks are asked about now.
      if (changed.adopted !== 'signature') return;
      const count = remainingCount('');
      if (count > 0) {
        setCompletedComposite('');
        setOffer(count);
      }
      return;
    }
    if (!isCompositeComplete(composite, entries.valuesOf(changed.documentId))) return;
    const count = remainingCount(composite.uuid);
    if (count > 0) {
      setCompletedComposite(composite.uuid);
      setOffer(count);
    }
  });
  useEffect(() => offerAfterEntry(), [entries.entered]);

  const accept = () => {
    setOffer(null);
    const { marks } = entries;
    const values: TagEntry[] = [];
    for (const { tag, documentId } of remainingParts(completedComposite ?? '')) {
      const kind = valueKindOf(tag);
      const value = kind === 'signature' ? marks.signature : kind === 'initials' ? marks.initials : kind === 'typedName' ? marks.typedName : kind === 'name' ? signer.name : null;
      if (value) values.push({ documentId, uuid: tag.uuid, value });
    }
    entries.setValues(values);
    if (values.length > 0) announce(t('signing.announce.blocksFilled', { count: values.length }));
  };
  const decline = () => {
    setOffer(null);
    setEnabled(false);
  };
  return { enabled, setEnabled, severalComposites, offer, accept, decline };
}

export type AutoFill = ReturnType<typeof useAutoFill>;
