import { isFilledValue, type EpakViewer, type Tag, type TagValue } from '@pakt/domain';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { defaultReason, reasonText, type ReasonState } from './reason-picker';
import type { MarkKind } from './signature-dialog';
import { renderTypedSignature } from './signature-image';
import { dateTargets, fillableTags, isEditable, markTargets, todayTagDate, valueKindOf, valueOf, type Signer, type Values } from './signing-tags';
import type { CeremonyTags } from './use-ceremony-tags';

type DocumentValues = Readonly<Record<string, Values>>;

export interface MarkRequest {
  readonly kind: MarkKind;
  /** The field that asked for the mark, if one did ("Change my signature" is no field). */
  readonly field?: { readonly documentId: string; readonly uuid: string };
  readonly then: (image: string) => void;
}

/** One value to set: which document, which tag. */
export interface TagEntry {
  readonly documentId: string;
  readonly uuid: string;
  readonly value: TagValue;
}

/** The last change the signer made, for the auto-fill offer that follows it. */
export interface LastChange {
  readonly documentId: string;
  readonly uuid: string;
  /** The change placed a signature just adopted in the signature dialog. */
  readonly adopted: MarkKind | null;
}

interface EntriesOptions {
  readonly tags: CeremonyTags;
  readonly signer: Signer;
  readonly viewer: EpakViewer;
  /** Says a change to a screen reader (the ceremony's live region). */
  readonly announce: (text: string) => void;
  /** Called instead of filling a name field while the signer has not typed the name asked of them. */
  readonly onNameMissing: (() => void) | null;
}

/**
 * What the signer entered: field values per document, the signing reason, and their signature,
 * initials and typed name (made once, then reused), plus the fields to point at (left empty
 * when signing was tried, or named by a refusal; an entry in one stops pointing at it).
 */
export function useSignerEntries({ tags, signer, viewer, announce, onNameMissing }: EntriesOptions) {
  const { t } = useTranslation();
  const [entered, setEntered] = useState<DocumentValues>({});
  // The tenant's default reason is chosen to start with (issue 22, spec §9).
  const [reason, setReason] = useState<ReasonState>(() => defaultReason(viewer.reasons));
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
  const lastChanged = useRef<LastChange | null>(null);
  const takeLastChanged = () => {
    const changed = lastChanged.current;
    lastChanged.current = null;
    return changed;
  };
  const setValue = (documentId: string, uuid: string, value: TagValue, adopted: MarkKind | null = null) => {
    lastChanged.current = { documentId, uuid, adopted };
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

  // ---- dates start as today (issue 22) ----
  // Once per field: a date the signer clears stays cleared.
  const datesSet = useRef(new Set<string>());
  useEffect(() => {
    const today = todayTagDate();
    const values: TagEntry[] = [];
    for (const document of tags.unsignedDocuments) {
      const context = tags.contextOf(document.documentId);
      for (const tag of dateTargets(tags.tagsOf(document.documentId), context)) {
        const key = `${document.documentId}|${tag.uuid}`;
        if (datesSet.current.has(key)) continue;
        datesSet.current.add(key);
        if (!isFilledValue(valueOf(tag, entered[document.documentId] ?? {}))) values.push({ documentId: document.documentId, uuid: tag.uuid, value: today });
      }
    }
    if (values.length > 0) setValues(values);
  });

  // ---- signature, initials and the typed name, made once and reused ----
  const [marks, setMarks] = useState<{ signature: string | null; initials: string | null; typedName: string | null }>({ signature: null, initials: null, typedName: null });
  const [markRequest, setMarkRequest] = useState<MarkRequest | null>(null);
  const [markError, setMarkError] = useState(false);
  // The typed name drawn in script is of the name as it was: another name draws it again.
  const [typedFor, setTypedFor] = useState(signer.name);
  if (typedFor !== signer.name) {
    setTypedFor(signer.name);
    setMarks((current) => ({ ...current, typedName: null }));
  }
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
  /**
   * The signature dialog adopted an image: kept for the next fields, given to who asked, and put
   * at once into every other field of its kind of the signer's in the ePak, on every document
   * not yet signed (issue 22). A field still holding the mark it replaces takes the new one too.
   */
  const adoptMark = (image: string) => {
    const request = markRequest;
    setMarkRequest(null);
    if (!request) return;
    const previous = marks[request.kind];
    setMarks((kept) => ({ ...kept, [request.kind]: image }));
    const targets: TagEntry[] = [];
    for (const document of tags.unsignedDocuments) {
      const documentId = document.documentId;
      const context = tags.contextOf(documentId);
      const values = valuesOf(documentId);
      const targeted = new Set(markTargets(tags.tagsOf(documentId), context, request.kind).map((tag) => tag.uuid));
      for (const tag of fillableTags(tags.tagsOf(documentId))) {
        const replaced = previous !== null && valueKindOf(tag) === request.kind && isEditable(tag, context) && valueOf(tag, values) === previous;
        if (targeted.has(tag.uuid) || replaced) targets.push({ documentId, uuid: tag.uuid, value: image });
      }
    }
    setValues(targets);
    request.then(image);
    const count = new Set([...targets.map((target) => `${target.documentId}|${target.uuid}`), ...(request.field ? [`${request.field.documentId}|${request.field.uuid}`] : [])]).size;
    if (count > 0) announce(t(request.kind === 'signature' ? 'signing.announce.signaturePlaced' : 'signing.announce.initialsPlaced', { count }));
  };

  /** Spec §4 "Clicking a tag sets its value": the signature, the initials or the full name. */
  const applyByClick = (tag: Tag, documentId: string, label: string) => {
    setMarkError(false);
    const filled = () => announce(t('signing.announce.filled', { field: label }));
    const kind = valueKindOf(tag);
    if ((kind === 'name' || kind === 'typedName') && signer.name === '' && onNameMissing) return onNameMissing();
    switch (kind) {
      case 'signature':
      case 'initials': {
        const kept = marks[kind];
        if (kept) {
          setValue(documentId, tag.uuid, kept);
          return filled();
        }
        return setMarkRequest({ kind, field: { documentId, uuid: tag.uuid }, then: (image) => setValue(documentId, tag.uuid, image, kind) });
      }
      case 'typedName':
        return void typedName().then((image) => {
          if (!image) return;
          setValue(documentId, tag.uuid, image);
          filled();
        });
      case 'name':
        setValue(documentId, tag.uuid, signer.name);
        return filled();
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
