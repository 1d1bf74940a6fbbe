import type { EpakViewer, Rect, RubberStampChoice, RubberStampUse } from '@pakt/domain';
import { useState } from 'react';
import { stampUseFor } from '../rubber-stamps';
import type { Signer } from './signing-tags';
import type { CeremonyTags } from './use-ceremony-tags';
import type { DocumentView } from './use-document-view';

export interface PlacedStamp {
  readonly use: RubberStampUse;
  readonly pageNumber: number;
  readonly rect: Rect;
}

/** Rubber stamps (issue 8): offered when the viewer says this signer may apply them, one per document. */
export function useStampUses({ viewer, tags, view, signer }: { readonly viewer: EpakViewer; readonly tags: CeremonyTags; readonly view: DocumentView; readonly signer: Signer }) {
  const choices: readonly RubberStampChoice[] = viewer.rubberStamps?.available ? viewer.rubberStamps.stamps : [];
  const [uses, setUses] = useState<Readonly<Record<string, PlacedStamp>>>({});
  const { current, currentId } = view;
  const apply = (stamp: RubberStampChoice) => {
    if (!current) return;
    const placed = stampUseFor({ stamp, tags: tags.tagsOf(current.documentId), pages: current.pages, signer });
    if (placed) setUses((existing) => ({ ...existing, [current.documentId]: placed }));
  };
  const remove = () =>
    setUses((existing) => {
      const next = { ...existing };
      delete next[currentId];
      return next;
    });
  return { choices, uses, appliedHere: uses[currentId], apply, remove };
}

export type StampUses = ReturnType<typeof useStampUses>;
