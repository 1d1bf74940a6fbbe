import type { EpakViewer, Tag, TagValue } from '@pakt/domain';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NO_REASON, reasonText, type ReasonState } from './reason-picker';
import type { MarkKind } from './signature-dialog';
import { renderTypedSignature } from './signature-image';
import { fillableTags, isEditable, valueKindOf, type Signer, type Values } from './signing-tags';
import type { CeremonyTags } from './use-ceremony-tags';

type DocumentValues = Readonly<Record<string, Values>>;

export interface MarkRequest {
  readonly kind: MarkKind;
  readonly then: (image: string) => void;
}

/** One value to set: which document, which tag. */
export interface TagEntry {
  readonly documentId: string;
  readonly uuid: string;
  readonly value: TagValue;
}

/**
 * What the signer entered: field values per document, the signing reason, and their signature,
 * initials and typed name (made once, then reused), plus the fields to point at (left empty
 * when signing was tried, or named by a refusal; an entry in one stops pointing at it).
 */
export function useSignerEntries({ tags, signer, viewer }: { readonly tags: CeremonyTags; readonly signer: Signer; readonly viewer: EpakViewer }) {
  const { t } = useTranslation();
  const [entered, setEntered] = useState<DocumentValues>({});
  const [reason, setReason] = useState<ReasonState>(NO_REASON);
  const chosenReason = reasonText(t, reason, viewer.reasons);
  /** Lower-case uuids of the fields to point at. */
  const [highlighted, setHighlighted] = useState<ReadonlySet<string>>(new Set());

  /** Entered values, with the signer's reason fields showing the reason chosen for the signature. */
  const valuesOf = (documentId: string): Values => {
    const own = { ...(entered[documentId] ?? {}) };
    const context = tags.contextOf(documentId);
    for (const tag of fillableTags(tags.tagsOf(documentId))) {
      if (valueKindOf(tag) === 'reason' && isEditable(tag, context)) own[tag.uuid] = chosenReason ?? null;
    }
    return own;
  };
  // The last field the signer changed, for the auto-fill offer that follows an entry.
  const lastChanged = useRef<{ documentId: string; uuid: string } | null>(null);
  const takeLastChanged = () => {
    const changed = lastChanged.current;
    lastChanged.current = null;
    return changed;
  };
  const setValue = (documentId: string, uuid: string, value: TagValue) => {
    lastChanged.current = { documentId, uuid };
    setHighlighted((current) => {
      if (!current.has(uuid.toLowerCase())) return current;
      const next = new Set(current);
      next.delete(uuid.toLowerCase());
      return next;
    });
    setEntered((current) => ({ ...current, [documentId]: { ...(current[documentId] ?? {}), [uuid]: value } }));
  };
  /** Several values at once (auto-fill): not an entry of the signer's, so nothing is offered after it. */
  const setValues = (entries: readonly TagEntry[]) =>
    setEntered((current) => {
      const next: Record<string, Values> = { ...current };
      for (const { documentId, uuid, value } of entries) next[documentId] = { ...(next[documentId] ?? {}), [uuid]: value };
      return next;
    });

  // ---- signature, initials and the typed name, made once and reused ----
  const [marks, setMarks] = useState<{ signature: string | null; initials: string | null; typedName: string | null }>({ signature: null, initials: null, typedName: null });
  const [markRequest, setMarkRequest] = useState<MarkRequest | null>(null);
  const [markError, setMarkError] = useState(false);
  const withMark = (kind: MarkKind, then: (image: string) => void) => {
    const kept = marks[kind];
    if (kept) then(kept);
    else setMarkRequest({ kind, then });
  };
  const typedName = async (): Promise<string | null> => {
    if (marks.typedName) return marks.typedName;
    try {
      const image = await renderTypedSignature(signer.name);
      setMarks((current) => ({ ...current, typedName: image }));
      return image;
    } catch {
      setMarkError(true);
      return null;
    }
  };
  /** The signature dialog adopted an image: kept for the next fields, and given to who asked. */
  const adoptMark = (image: string) => {
    const request = markRequest;
    setMarkRequest(null);
    if (!request) return;
    setMarks((kept) => ({ ...kept, [request.kind]: image }));
    request.then(image);
  };

  /** Spec §4 "Clicking a tag sets its value": the signature, the initials or the full name. */
  const applyByClick = (tag: Tag, documentId: string) => {
    setMarkError(false);
    switch (valueKindOf(tag)) {
      case 'signature':
        return withMark('signature', (image) => setValue(documentId, tag.uuid, image));
      case 'initials':
        return withMark('initials', (image) => setValue(documentId, tag.uuid, image));
      case 'typedName':
        return void typedName().then((image) => image && setValue(documentId, tag.uuid, image));
      case 'name':
        return setValue(documentId, tag.uuid, signer.name);
      default:
        return undefined;
    }
  };

  return {
    entered,
    valuesOf,
    setValue,
    setValues,
    takeLastChanged,
    reason,
    setReason,
    chosenReason,
    highlighted,
    setHighlighted,
    marks,
    markRequest,
    setMarkRequest,
    markError,
    adoptMark,
    applyByClick,
  };
}

export type SignerEntries = ReturnType<typeof useSignerEntries>;
