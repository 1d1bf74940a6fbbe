import { isFilledValue, isRequiredTag, type Tag } from '@pakt/domain';
import { useState } from 'react';
import { byReadingOrder, CLICK_FILLED_KINDS, filledBySigning, fillableTags, isEditable, valueKindOf, valueOf } from './signing-tags';
import type { CeremonyTags } from './use-ceremony-tags';
import type { DocumentView } from './use-document-view';
import type { SignerEntries } from './use-signer-entries';

/** One of the signer's fields, where it stands. */
export interface GuideField {
  readonly documentId: string;
  readonly tag: Tag;
  readonly required: boolean;
  readonly filled: boolean;
}

/**
 * The signer's fields one at a time (issue 22; the phone's guided bar, and the desktop's "next
 * field" button): every field they can fill on the documents they have not signed, in reading
 * order (the ePak's documents in turn, then page, top to bottom, left to right). Next goes to
 * the next required field still empty, coming round from the start; with none left it walks on
 * through the rest. Going to a field scrolls to it, focuses it and opens it (a signature field
 * opens the signature dialog when no signature is adopted yet).
 */
export function useFieldGuide({ tags, entries, view, label }: { readonly tags: CeremonyTags; readonly entries: SignerEntries; readonly view: DocumentView; readonly label: (tag: Tag) => string }) {
  const [currentUuid, setCurrentUuid] = useState<string | null>(null);
  const reasonGiven = entries.chosenReason !== undefined;

  const fields: GuideField[] = tags.unsignedDocuments.flatMap((document) => {
    const documentId = document.documentId;
    const context = tags.contextOf(documentId);
    const values = entries.valuesOf(documentId);
    return fillableTags(tags.tagsOf(documentId))
      .filter((tag) => isEditable(tag, context))
      .sort(byReadingOrder)
      .map((tag) => ({ documentId, tag, required: isRequiredTag(tag), filled: isFilledValue(valueOf(tag, values)) || filledBySigning(tag, { reasonGiven }) }));
  });
  const position = currentUuid === null ? -1 : fields.findIndex((field) => field.tag.uuid === currentUuid);
  const current = position >= 0 ? fields[position]! : null;
  const waiting = (field: GuideField) => field.required && !field.filled;
  const requiredLeft = fields.filter(waiting).length;

  const nextField = (): GuideField | null => {
    const after = fields.slice(position + 1);
    const before = fields.slice(0, Math.max(position, 0));
    if (requiredLeft === 0) return after[0] ?? null;
    // The only one left is the one at hand: Next opens it again.
    return after.find(waiting) ?? before.find(waiting) ?? current;
  };
  const previousField = (): GuideField | null => (position > 0 ? fields[position - 1]! : null);

  /** Scrolls to the field, focuses it, and opens it as a click would. */
  const go = (field: GuideField) => {
    setCurrentUuid(field.tag.uuid);
    view.goTo({ documentId: field.documentId, uuid: field.tag.uuid });
    const kind = valueKindOf(field.tag);
    if (CLICK_FILLED_KINDS.has(kind) && !field.filled) entries.applyByClick(field.tag, field.documentId, label(field.tag));
    else view.setOpenTag(field.tag.uuid);
  };
  const next = () => {
    const target = nextField();
    if (target) go(target);
  };
  const previous = () => {
    const target = previousField();
    if (target) go(target);
  };

  return {
    fields,
    current,
    /** 0-based; -1 before the signer has gone to any field. */
    position,
    requiredLeft,
    hasNext: nextField() !== null,
    hasPrevious: previousField() !== null,
    next,
    previous,
    /** The signer went to a field themselves (a click, or Tab): the guide goes on from there. */
    follow: setCurrentUuid,
  };
}

export type FieldGuide = ReturnType<typeof useFieldGuide>;
