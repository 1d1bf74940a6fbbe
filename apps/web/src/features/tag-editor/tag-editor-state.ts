import {
  type AnchorSuggestion,
  clampToPage,
  displayToPage,
  GEOMETRY_EPSILON,
  moveTag,
  newTag,
  pageToDisplay,
  pasteTag,
  rectsOverlap,
  resizeTag,
  tagDimensions,
  tagRect,
  toBlockBounds,
  type NewTagInit,
  type PageGeometry,
  type Rect,
  type Tag,
  type TagEdit,
  type TagProblem,
  type TagType,
} from '@pakt/domain';

/**
 * The tag editor's state as a pure reducer: every edit goes through the domain's rules
 * (moveTag, resizeTag, pasteTag), and a refused edit leaves the tags exactly as they were and
 * records why, which is how the editor "rolls back" a drag or resize (spec §3, §5). Geometry
 * here is always the page frame (points, unrotated); the components convert from the screen.
 */

export interface DocumentTags {
  readonly tags: readonly Tag[];
  /** The tags as last loaded or saved; the document has unsaved changes while `tags` is another array. */
  readonly saved: readonly Tag[];
  /** What the server refused on the last save (-6 / -49), shown until the tags change again. */
  readonly serverProblems: readonly TagProblem[];
  /** Earlier versions of `tags`, newest last, for undo. */
  readonly history: readonly (readonly Tag[])[];
}

/** Undo reaches this many edits back; older ones are forgotten. */
export const UNDO_LIMIT = 100;

/** What the next click (or drop) on a page places. */
export interface ArmedTag {
  readonly type: TagType;
  /** Fields the placed tag starts with beyond its type's defaults (a smart tag's key, say). */
  readonly init?: Partial<Omit<NewTagInit, 'uuid' | 'type' | 'pageNumber' | 'positionX' | 'positionY'>>;
}

export interface TagSelection {
  readonly documentId: string;
  readonly uuid: string;
}

export interface TagEditorState {
  readonly documents: Readonly<Record<string, DocumentTags>>;
  readonly selected: TagSelection | null;
  /** The tag Ctrl+C copied; after a paste it is the copy, so pasting again cascades. */
  readonly clipboard: Tag | null;
  readonly armed: ArmedTag | null;
  /** Why the last edit was refused, until the next edit succeeds or it is dismissed. */
  readonly refusal: readonly TagProblem[] | null;
  /**
   * Tags the server suggested per document (anchor placement, issue 21), waiting for the custodian
   * to accept or dismiss each. They are not tags of the document until accepted.
   */
  readonly suggested: Readonly<Record<string, readonly AnchorSuggestion[]>>;
}

export const initialTagEditorState: TagEditorState = { documents: {}, selected: null, clipboard: null, armed: null, refusal: null, suggested: {} };

/** Who a suggested tag is for: a signer's fields, or nobody. */
export type SuggestionAssignee = { readonly userEmail: string; readonly userUuid: string; readonly wfsOrderId: number } | null;

type Pages = readonly PageGeometry[];

export type TagEditorAction =
  | { readonly type: 'loaded'; readonly documentId: string; readonly tags: readonly Tag[] }
  | { readonly type: 'arm'; readonly armed: ArmedTag | null }
  | { readonly type: 'select'; readonly selection: TagSelection | null }
  | { readonly type: 'place'; readonly documentId: string; readonly pages: Pages; readonly init: NewTagInit }
  | { readonly type: 'move'; readonly documentId: string; readonly uuid: string; readonly to: { pageNumber: number; x: number; y: number }; readonly pages: Pages }
  | { readonly type: 'resize'; readonly documentId: string; readonly uuid: string; readonly rect: Rect; readonly pages: Pages }
  | { readonly type: 'copy'; readonly documentId: string; readonly uuid: string }
  | { readonly type: 'paste'; readonly documentId: string; readonly pages: Pages; readonly newUuid: () => string }
  | { readonly type: 'delete'; readonly documentId: string; readonly uuid: string }
  | { readonly type: 'update'; readonly documentId: string; readonly tag: Tag }
  /** `sent` is what the save sent: edits made while it was under way stay unsaved. */
  | { readonly type: 'saved'; readonly documentId: string; readonly sent: readonly Tag[]; readonly tags: readonly Tag[] }
  | { readonly type: 'serverRefused'; readonly documentId: string; readonly problems: readonly TagProblem[] }
  | { readonly type: 'undo'; readonly documentId: string }
  | { readonly type: 'dismissRefusal' }
  /** New suggestions for a document, in place of any still pending there. */
  | { readonly type: 'suggest'; readonly documentId: string; readonly suggestions: readonly AnchorSuggestion[] }
  | { readonly type: 'assignSuggestion'; readonly documentId: string; readonly uuid: string; readonly to: SuggestionAssignee }
  /** Placed like any new tag (placeTag), all in one edit: one undo takes them back. */
  | { readonly type: 'acceptSuggestions'; readonly documentId: string; readonly uuids: readonly string[]; readonly pages: Pages }
  | { readonly type: 'dismissSuggestions'; readonly documentId: string; readonly uuids: readonly string[] };

const EMPTY: DocumentTags = { tags: [], saved: [], serverProblems: [], history: [] };

export function documentTags(state: TagEditorState, documentId: string): DocumentTags {
  return state.documents[documentId] ?? EMPTY;
}

export function suggestedTags(state: TagEditorState, documentId: string): readonly AnchorSuggestion[] {
  return state.suggested[documentId] ?? NO_SUGGESTIONS;
}

const NO_SUGGESTIONS: readonly AnchorSuggestion[] = [];

export function hasUnsavedChanges(doc: DocumentTags): boolean {
  return doc.tags !== doc.saved;
}

export function selectedTag(state: TagEditorState): Tag | undefined {
  const selection = state.selected;
  if (!selection) return undefined;
  return documentTags(state, selection.documentId).tags.find((tag) => tag.uuid === selection.uuid);
}

function withTags(state: TagEditorState, documentId: string, tags: readonly Tag[], extra: Partial<TagEditorState> = {}): TagEditorState {
  const doc = documentTags(state, documentId);
  const history = [...doc.history, doc.tags].slice(-UNDO_LIMIT);
  // Any change makes the server's verdict on the old layout stale.
  return { ...state, refusal: null, ...extra, documents: { ...state.documents, [documentId]: { ...doc, tags, history, serverProblems: [] } } };
}

function refuse(state: TagEditorState, problems: readonly TagProblem[]): TagEditorState {
  return { ...state, refusal: problems };
}

function applyEdit(state: TagEditorState, documentId: string, uuid: string, edit: (tag: Tag) => TagEdit): TagEditorState {
  const doc = documentTags(state, documentId);
  const tag = doc.tags.find((candidate) => candidate.uuid === uuid);
  if (!tag) return state;
  const result = edit(tag);
  if (!result.ok) return refuse(state, result.problems);
  return withTags(
    state,
    documentId,
    doc.tags.map((candidate) => (candidate.uuid === uuid ? result.tag : candidate)),
  );
}

/**
 * A new tag with its type's default size, top-left at the requested point but moved in so it
 * lies inside the page (clampToPage). A tag larger than the page cannot be placed at all: it is
 * refused (tagOutsidePage) rather than shrunk below the size its type needs.
 */
export function placeTag(init: NewTagInit, pages: Pages): TagEdit {
  const page = pages[init.pageNumber - 1];
  // Without a size of its own the tag takes its type's, as shown on this page.
  const tag = newTag(init, page ?? { rotate: 0 });
  const rect = tagRect(tag);
  if (page === undefined || rect.width > page.width + GEOMETRY_EPSILON || rect.height > page.height + GEOMETRY_EPSILON) {
    return { ok: false, problems: [{ tagUuid: tag.uuid, messageKey: 'tagOutsidePage', params: { pageNumber: tag.pageNumber } }] };
  }
  const inside = clampToPage(rect, page);
  return { ok: true, tag: { ...tag, positionX: inside.x, positionY: inside.y, blockBounds: toBlockBounds(inside, page) } };
}

export function tagEditorReducer(state: TagEditorState, action: TagEditorAction): TagEditorState {
  switch (action.type) {
    case 'loaded': {
      // A refetch must not throw away edits in progress.
      const current = state.documents[action.documentId];
      if (current && hasUnsavedChanges(current)) return state;
      return { ...state, documents: { ...state.documents, [action.documentId]: { tags: action.tags, saved: action.tags, serverProblems: [], history: [] } } };
    }
    case 'arm':
      return { ...state, armed: action.armed };
    case 'select':
      return { ...state, selected: action.selection };
    case 'place': {
      let placed: TagEdit;
      try {
        placed = placeTag(action.init, action.pages);
      } catch {
        // Only input no tag could have (a ZodError): nothing is placed.
        return state;
      }
      if (!placed.ok) return refuse({ ...state, armed: null }, placed.problems);
      const tags = [...documentTags(state, action.documentId).tags, placed.tag];
      return withTags(state, action.documentId, tags, { armed: null, selected: { documentId: action.documentId, uuid: placed.tag.uuid } });
    }
    case 'move':
      return applyEdit(state, action.documentId, action.uuid, (tag) => moveTag(tag, action.to, action.pages));
    case 'resize':
      return applyEdit(state, action.documentId, action.uuid, (tag) => {
        const page = action.pages[tag.pageNumber - 1];
        if (!page) return { ok: false, problems: [{ tagUuid: tag.uuid, messageKey: 'tagOutsidePage', params: { pageNumber: tag.pageNumber } }] };
        return resizeTag(tag, action.rect, page);
      });
    case 'copy': {
      const tag = documentTags(state, action.documentId).tags.find((candidate) => candidate.uuid === action.uuid);
      return tag ? { ...state, clipboard: tag } : state;
    }
    case 'paste': {
      const source = state.clipboard;
      if (!source || action.pages.length === 0) return state;
      // Pasted into another document, the copy lands on the same page number if it has one.
      const pageNumber = Math.min(source.pageNumber, action.pages.length);
      const pasted = pasteTag(source, { page: action.pages[pageNumber - 1]!, pageNumber, newUuid: action.newUuid });
      if (!pasted.ok) return refuse(state, pasted.problems);
      const tags = [...documentTags(state, action.documentId).tags, pasted.tag];
      return withTags(state, action.documentId, tags, {
        clipboard: pasted.tag,
        selected: { documentId: action.documentId, uuid: pasted.tag.uuid },
      });
    }
    case 'delete': {
      const doc = documentTags(state, action.documentId);
      if (!doc.tags.some((tag) => tag.uuid === action.uuid)) return state;
      const selected = state.selected?.uuid === action.uuid ? null : state.selected;
      return withTags(
        state,
        action.documentId,
        doc.tags.filter((tag) => tag.uuid !== action.uuid),
        { selected },
      );
    }
    case 'update': {
      const doc = documentTags(state, action.documentId);
      if (!doc.tags.some((tag) => tag.uuid === action.tag.uuid)) return state;
      return withTags(
        state,
        action.documentId,
        doc.tags.map((tag) => (tag.uuid === action.tag.uuid ? action.tag : tag)),
      );
    }
    case 'saved': {
      const doc = documentTags(state, action.documentId);
      const tags = doc.tags === action.sent ? action.tags : doc.tags;
      return { ...state, documents: { ...state.documents, [action.documentId]: { ...doc, tags, saved: action.tags, serverProblems: [] } } };
    }
    case 'serverRefused': {
      const doc = documentTags(state, action.documentId);
      return { ...state, documents: { ...state.documents, [action.documentId]: { ...doc, serverProblems: action.problems } } };
    }
    case 'undo': {
      const doc = documentTags(state, action.documentId);
      const previous = doc.history.at(-1);
      if (!previous) return state;
      const selected = state.selected && previous.some((tag) => tag.uuid === state.selected?.uuid) ? state.selected : null;
      return {
        ...state,
        selected,
        refusal: null,
        // Back to the very array that was saved, the document has no unsaved changes again.
        documents: { ...state.documents, [action.documentId]: { ...doc, tags: previous, history: doc.history.slice(0, -1), serverProblems: [] } },
      };
    }
    case 'dismissRefusal':
      return { ...state, refusal: null };
    case 'suggest': {
      // A place that already has a field is not suggested again (finding twice, or after accepting).
      const placed = documentTags(state, action.documentId).tags;
      const fresh = action.suggestions.filter(
        (suggestion) => !placed.some((tag) => tag.pageNumber === suggestion.tag.pageNumber && rectsOverlap(tagRect(tag), tagRect(suggestion.tag))),
      );
      return withSuggested(state, action.documentId, fresh);
    }
    case 'assignSuggestion': {
      const pending = suggestedTags(state, action.documentId);
      return withSuggested(
        state,
        action.documentId,
        pending.map((suggestion) => (suggestion.tag.uuid === action.uuid ? { ...suggestion, tag: assigned(suggestion.tag, action.to) } : suggestion)),
      );
    }
    case 'acceptSuggestions': {
      const pending = suggestedTags(state, action.documentId);
      const chosen = pending.filter((suggestion) => action.uuids.includes(suggestion.tag.uuid));
      const placed: Tag[] = [];
      const refused: TagProblem[] = [];
      const kept: AnchorSuggestion[] = [];
      for (const suggestion of chosen) {
        let result: TagEdit;
        try {
          result = placeTag(suggestion.tag, action.pages);
        } catch {
          result = { ok: false, problems: [{ tagUuid: suggestion.tag.uuid, messageKey: 'tagOutsidePage', params: { pageNumber: suggestion.tag.pageNumber } }] };
        }
        if (result.ok) placed.push(result.tag);
        else {
          refused.push(...result.problems);
          kept.push(suggestion);
        }
      }
      const rest = pending.filter((suggestion) => !chosen.includes(suggestion) || kept.includes(suggestion));
      const next = withSuggested(state, action.documentId, rest);
      if (placed.length === 0) return refused.length > 0 ? refuse(next, refused) : next;
      // One accepted is selected, as a placed tag is, so it comes into view; several are not.
      const selection = placed.length === 1 ? { selected: { documentId: action.documentId, uuid: placed[0]!.uuid } } : {};
      const done = withTags(next, action.documentId, [...documentTags(next, action.documentId).tags, ...placed], selection);
      return refused.length > 0 ? refuse(done, refused) : done;
    }
    case 'dismissSuggestions':
      return withSuggested(
        state,
        action.documentId,
        suggestedTags(state, action.documentId).filter((suggestion) => !action.uuids.includes(suggestion.tag.uuid)),
      );
  }
}

function withSuggested(state: TagEditorState, documentId: string, suggestions: readonly AnchorSuggestion[]): TagEditorState {
  return { ...state, suggested: { ...state.suggested, [documentId]: suggestions } };
}

/** A suggested tag given to someone else (or to nobody). */
function assigned(tag: Tag, to: SuggestionAssignee): Tag {
  const { userEmail: _email, userUuid: _uuid, wfsOrderId: _order, ...rest } = tag;
  return to ? { ...rest, ...to } : rest;
}

// ---------------------------------------------------------------------------------------------
// Screen → page frame. The editor shows a page at `zoom` CSS pixels per point, rotated as the
// page's /Rotate says; these helpers turn what the pointer did there into page-frame numbers.

/**
 * The page-frame rectangle of a tag of this shown size whose DISPLAYED top-left corner is at
 * `point` (display frame, CSS px from the shown page's top-left). On a rotated page the
 * page-frame origin is another corner of what is shown.
 */
export function rectAtDisplayPoint(
  size: { readonly width: number; readonly height: number },
  point: { readonly x: number; readonly y: number },
  page: PageGeometry,
  zoom: number,
): Rect {
  // The size is as shown (geometry.ts shownSize): the box appears that wide and high whatever the
  // page's rotation, and its page-frame sides swap on a page turned a quarter.
  return displayToPage({ x: point.x, y: point.y, width: size.width * zoom, height: size.height * zoom }, page, zoom);
}

/** The default size, as shown, of a freshly placed tag. */
export function defaultTagSize(type: TagType, subType?: string): { width: number; height: number } {
  const { width, height } = tagDimensions(type, subType);
  return { width, height };
}

/**
 * Where a tag goes when nudged by (dx, dy) points ON SCREEN: arrow keys move what the person
 * sees, so on a rotated page "right" is another page-frame direction.
 */
export function nudgedPosition(tag: Tag, page: PageGeometry, dx: number, dy: number): { x: number; y: number } {
  const shown = pageToDisplay(tagRect(tag), page, 1);
  const moved = displayToPage({ ...shown, x: shown.x + dx, y: shown.y + dy }, page, 1);
  return { x: moved.x, y: moved.y };
}
