import { type EpakDetail, type PageGeometry, type SmartTagField, type Tag } from '@pakt/domain';
import { useEffect, useMemo, useReducer, useRef, useState, type KeyboardEvent } from 'react';
import { useSession } from '../../api/session-store';
import { assignTo, signersOf, type SignerOption } from './signers';
import { tagEdits } from './tag-edits';
import { documentTags, hasUnsavedChanges, initialTagEditorState, selectedTag, suggestedTags, tagEditorReducer, type ArmedTag } from './tag-editor-state';
import { useAnchorSuggestions } from './use-anchor-suggestions';
import { useEditorZoom } from './use-editor-zoom';
import { usePdfDocument } from './use-pdf-document';
import { useTagBlocks } from './use-tag-blocks';
import { useTagProblems } from './use-tag-problems';
import { useTagSave } from './use-tag-save';
import { useTagAutoSave, type TagEditorAutoSave } from './use-tag-autosave';

/** One empty page list, so an editor with no document has the same one every render (a memo's dependency). */
const NO_PAGES: readonly PageGeometry[] = [];

/** Keys typed into a field of the properties panel are that field's, not the editor's shortcuts. */
function isTextEntry(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));
}

/** Tells the host, and the browser on leaving the page, while changes are not saved yet. */
function useUnsavedSignals(anyUnsaved: boolean, onUnsavedChange: ((unsaved: boolean) => void) | undefined) {
  useEffect(() => {
    onUnsavedChange?.(anyUnsaved);
  }, [anyUnsaved, onUnsavedChange]);
  useEffect(() => {
    if (!anyUnsaved) return;
    // The browser shows its own wording; a page can only ask for the prompt.
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [anyUnsaved]);
}

/**
 * The tag editor's state and what changes it: the tags of every document (tag-editor-state.ts),
 * the document and signer chosen, the side panel's tab, loading, saving, zoom and the keyboard.
 * The sections render it; none keeps state of its own.
 */
export function useTagEditor(epak: EpakDetail, onUnsavedChange: ((unsaved: boolean) => void) | undefined, autoSave?: TagEditorAutoSave) {
  const session = useSession();
  const tenantUuid = session?.tenantUuid;
  const signers = useMemo(() => signersOf(epak), [epak]);
  const [state, dispatch] = useReducer(tagEditorReducer, initialTagEditorState);
  const [documentId, setDocumentId] = useState(epak.documents[0]?.documentId ?? '');
  const current = epak.documents.find((document) => document.documentId === documentId) ?? epak.documents[0];
  const currentId = current?.documentId ?? '';
  const [forKey, setForKey] = useState(signers[0]?.key ?? '');
  const forSigner = signers.find((signer) => signer.key === forKey) ?? signers[0];
  const [pickerOpened, setPickerOpened] = useState(false);
  // Choosing a tag on a page shows its properties; placing one keeps the palette in view.
  const [sideTab, setSideTab] = useState<'fields' | 'properties'>('fields');

  const { blocks, loadedFrom } = useTagBlocks(epak, tenantUuid, dispatch);
  const anyUnsaved = Object.values(state.documents).some(hasUnsavedChanges);
  useUnsavedSignals(anyUnsaved, onUnsavedChange);
  useEffect(() => {
    if (!state.armed) return;
    const onKey = (event: globalThis.KeyboardEvent) => {
      if (event.key === 'Escape') dispatch({ type: 'arm', armed: null });
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [state.armed]);

  const { save, outcome, setOutcome } = useTagSave({ epak, tenantUuid, dispatch, loadedFrom, showDocument: setDocumentId });
  useTagAutoSave({ autoSave, documents: state.documents, anyUnsaved, save });
  const pages: readonly PageGeometry[] = current?.pages ?? NO_PAGES;
  const zoom = useEditorZoom(pages);
  const pageElements = useRef(new Map<number, HTMLElement>());
  const pdf = usePdfDocument(epak.ePakId, currentId);

  // ---- the current document's tags and their problems ----
  const doc = documentTags(state, currentId);
  const problems = useTagProblems(doc, pages, epak.signingPolicy);
  const selected = state.selected?.documentId === current?.documentId ? selectedTag(state) : undefined;
  const currentQuery = current ? blocks[epak.documents.indexOf(current)] : undefined;

  // ---- edits ----
  const edits = tagEdits({ documentId: currentId, pages, zoom: zoom.zoom, pageElements, forSigner, dispatch, clearOutcome: () => setOutcome(null) });
  const arm = (armed: ArmedTag | null) => dispatch({ type: 'arm', armed });
  const deselect = () => dispatch({ type: 'select', selection: null });
  const showProperties = (uuid: string) => {
    dispatch({ type: 'select', selection: { documentId: currentId, uuid } });
    setSideTab('properties');
  };
  const undo = () => dispatch({ type: 'undo', documentId: currentId });

  // ---- suggestions: signature lines and anchors (issue 21) ----
  const anchors = useAnchorSuggestions({ epak, documentId: currentId, forSigner, dispatch });
  const suggestions = suggestedTags(state, currentId);
  const copy = (tag: Tag) => dispatch({ type: 'copy', documentId: currentId, uuid: tag.uuid });

  const onEditorKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (!(event.ctrlKey || event.metaKey) || event.altKey || isTextEntry(event.target)) return;
    const key = event.key.toLowerCase();
    if (key === 'c' && selected) {
      event.preventDefault();
      copy(selected);
    } else if (key === 'v' && state.clipboard) {
      event.preventDefault();
      edits.paste();
    } else if (key === 'z' && !event.shiftKey && doc.history.length > 0) {
      event.preventDefault();
      undo();
    }
  };

  return {
    epak,
    signers,
    state,
    current,
    openDocument: (id: string) => {
      setDocumentId(id);
      deselect();
    },
    loaded: state.documents[currentId] !== undefined,
    currentQuery,
    forSigner,
    setForKey,
    sideTab,
    setSideTab,
    pickerOpened,
    setPickerOpened,
    pickSmartTag: (field: SmartTagField) => {
      setPickerOpened(false);
      setSideTab('fields');
      arm({ type: field.type, init: { key: field.key, category: 'nonPrinted', name: field.key } });
    },
    anyUnsaved,
    /** The host saves by itself (autoSave): no save button of the editor's own. */
    autoSaves: autoSave !== undefined,
    saveAll: () => save.mutate(state.documents),
    saving: save.isPending,
    outcome,
    zoom,
    pageElements,
    pdf,
    pages,
    doc,
    ...problems,
    selected,
    ...edits,
    arm,
    deselect,
    showProperties,
    undo,
    copy,
    update: (tag: Tag) => dispatch({ type: 'update', documentId: currentId, tag }),
    anchors,
    suggestions,
    acceptSuggestions: (uuids: readonly string[]) => {
      setOutcome(null);
      dispatch({ type: 'acceptSuggestions', documentId: currentId, uuids, pages });
    },
    dismissSuggestions: (uuids: readonly string[]) => dispatch({ type: 'dismissSuggestions', documentId: currentId, uuids }),
    assignSuggestion: (uuid: string, signer: SignerOption | undefined) =>
      dispatch({ type: 'assignSuggestion', documentId: currentId, uuid, to: signer ? assignTo(signer) : null }),
    dismissRefusal: () => dispatch({ type: 'dismissRefusal' }),
    onEditorKeyDown,
  };
}

export type TagEditorModel = ReturnType<typeof useTagEditor>;
