import { newTag, pageToDisplay, tagRect, type AnchorSuggestion, type PageGeometry, type Tag } from '@pakt/domain';
import { describe, expect, it } from 'vitest';
import {
  documentTags,
  hasUnsavedChanges,
  initialTagEditorState,
  nudgedPosition,
  rectAtDisplayPoint,
  selectedTag,
  suggestedTags,
  tagEditorReducer,
  type TagEditorAction,
  type TagEditorState,
} from './tag-editor-state';

const DOC = 'd0c00000-0000-4000-8000-000000000001';
const A4: PageGeometry = { width: 595, height: 842, x: 0, y: 0, rotate: 0 };
const LANDSCAPE_90: PageGeometry = { width: 595, height: 842, x: 0, y: 0, rotate: 90 };
const SMALL: PageGeometry = { width: 100, height: 100, x: 0, y: 0, rotate: 0 };
const pages = [A4, LANDSCAPE_90, SMALL];

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const signature = (n: number, over: Partial<Tag> = {}): Tag =>
  ({ ...newTag({ uuid: uuid(n), type: 'signature', pageNumber: 1, positionX: 50, positionY: 60 }), createType: 'existing', ...over }) as Tag;

const run = (state: TagEditorState, ...actions: TagEditorAction[]) => actions.reduce(tagEditorReducer, state);
const loaded = (tags: Tag[]) => run(initialTagEditorState, { type: 'loaded', documentId: DOC, tags });
const tagsOf = (state: TagEditorState) => documentTags(state, DOC).tags;

describe('tag editor state', () => {
  it('loads tags as saved, and keeps unsaved edits when the same tags load again', () => {
    const state = loaded([signature(1)]);
    expect(hasUnsavedChanges(documentTags(state, DOC))).toBe(false);
    const edited = run(state, { type: 'delete', documentId: DOC, uuid: uuid(1) });
    expect(hasUnsavedChanges(documentTags(edited, DOC))).toBe(true);
    expect(tagsOf(run(edited, { type: 'loaded', documentId: DOC, tags: [signature(1)] }))).toEqual([]);
  });

  it('places an armed tag with its default size at the point, selects it and disarms', () => {
    const state = run(
      loaded([]),
      { type: 'arm', armed: { type: 'calendar' } },
      { type: 'place', documentId: DOC, pages, init: { uuid: uuid(9), type: 'calendar', pageNumber: 1, positionX: 100, positionY: 200, userEmail: 'a@x.test' } },
    );
    expect(tagsOf(state)).toHaveLength(1);
    expect(tagsOf(state)[0]).toMatchObject({ uuid: uuid(9), positionX: 100, positionY: 200, blockWidth: 100, blockHeight: 20, createType: 'new', userEmail: 'a@x.test' });
    expect(tagsOf(state)[0]!.blockBounds).toEqual({ top: 200 / 842, left: 100 / 595, heightRatio: 20 / 842, widthRatio: 100 / 595 });
    expect(state.armed).toBeNull();
    expect(selectedTag(state)?.uuid).toBe(uuid(9));
  });

  it('moves a tag placed across the page edge back inside it', () => {
    const state = run(loaded([]), { type: 'place', documentId: DOC, pages, init: { uuid: uuid(9), type: 'signature', pageNumber: 1, positionX: 560, positionY: 830 } });
    expect(tagRect(tagsOf(state)[0]!)).toEqual({ x: 595 - 150, y: 842 - 50, width: 150, height: 50 });
  });

  it('places nothing when the tag cannot fit the page, and says why', () => {
    const state = run(loaded([]), { type: 'place', documentId: DOC, pages, init: { uuid: uuid(9), type: 'signature', pageNumber: 3, positionX: 0, positionY: 0 } });
    expect(tagsOf(state)).toEqual([]);
    expect(state.refusal).toEqual([{ tagUuid: uuid(9), messageKey: 'tagOutsidePage', params: { pageNumber: 3 } }]);
  });

  it('moves a tag onto another page', () => {
    const state = run(loaded([signature(1)]), { type: 'move', documentId: DOC, uuid: uuid(1), to: { pageNumber: 2, x: 10, y: 20 }, pages });
    expect(tagsOf(state)[0]).toMatchObject({ pageNumber: 2, positionX: 10, positionY: 20 });
    expect(state.refusal).toBeNull();
  });

  it('rolls a move off the page back and records the problem', () => {
    const before = loaded([signature(1)]);
    const state = run(before, { type: 'move', documentId: DOC, uuid: uuid(1), to: { pageNumber: 1, x: 500, y: 20 }, pages });
    expect(tagsOf(state)).toBe(tagsOf(before));
    expect(state.refusal).toEqual([{ tagUuid: uuid(1), messageKey: 'tagOutsidePage', params: { pageNumber: 1 } }]);
    expect(hasUnsavedChanges(documentTags(state, DOC))).toBe(false);
    // The next good edit clears it.
    expect(run(state, { type: 'move', documentId: DOC, uuid: uuid(1), to: { pageNumber: 1, x: 0, y: 0 }, pages }).refusal).toBeNull();
  });

  it('resizes within the limits and rolls back a resize past them with the limits', () => {
    const resized = run(loaded([signature(1)]), { type: 'resize', documentId: DOC, uuid: uuid(1), rect: { x: 50, y: 60, width: 200, height: 80 }, pages });
    expect(tagRect(tagsOf(resized)[0]!)).toEqual({ x: 50, y: 60, width: 200, height: 80 });
    const refused = run(resized, { type: 'resize', documentId: DOC, uuid: uuid(1), rect: { x: 50, y: 60, width: 30, height: 80 }, pages });
    expect(tagsOf(refused)).toBe(tagsOf(resized));
    expect(refused.refusal).toEqual([
      { tagUuid: uuid(1), messageKey: 'tagDimensionsCrossedMsg', params: { dimension: 'size', minWidth: 60, minHeight: 20, maxWidth: 400, maxHeight: 200 } },
    ]);
  });

  it('pastes a copy at +10/+8 and cascades a second paste from the copy', () => {
    let n = 100;
    const newUuid = () => uuid(++n);
    const state = run(
      loaded([signature(1)]),
      { type: 'copy', documentId: DOC, uuid: uuid(1) },
      { type: 'paste', documentId: DOC, pages, newUuid },
      { type: 'paste', documentId: DOC, pages, newUuid },
    );
    expect(tagsOf(state).map((tag) => [tag.uuid, tag.positionX, tag.positionY, tag.originUuid])).toEqual([
      [uuid(1), 50, 60, undefined],
      [uuid(101), 60, 68, uuid(1)],
      [uuid(102), 70, 76, uuid(101)],
    ]);
    expect(selectedTag(state)?.uuid).toBe(uuid(102));
  });

  it('refuses a paste that would leave the page with pasteError', () => {
    const source = signature(1, { positionX: 595 - 150, positionY: 10 });
    const before = loaded([source]);
    const state = run(before, { type: 'copy', documentId: DOC, uuid: uuid(1) }, { type: 'paste', documentId: DOC, pages, newUuid: () => uuid(2) });
    expect(tagsOf(state)).toBe(tagsOf(before));
    expect(state.refusal).toEqual([{ tagUuid: uuid(1), messageKey: 'pasteError' }]);
  });

  it('deletes a tag and clears the selection of it', () => {
    const state = run(
      loaded([signature(1), signature(2, { positionY: 300 })]),
      { type: 'select', selection: { documentId: DOC, uuid: uuid(1) } },
      { type: 'delete', documentId: DOC, uuid: uuid(1) },
    );
    expect(tagsOf(state).map((tag) => tag.uuid)).toEqual([uuid(2)]);
    expect(state.selected).toBeNull();
  });

  it('keeps the server problems until the tags change, and forgets changes once saved', () => {
    const problem = { tagUuid: uuid(1), messageKey: 'reasonTagNotSelected' as const };
    const refused = run(loaded([signature(1)]), { type: 'serverRefused', documentId: DOC, problems: [problem] });
    expect(documentTags(refused, DOC).serverProblems).toEqual([problem]);
    const edited = run(refused, { type: 'update', documentId: DOC, tag: signature(1, { name: 'Buyer' }) });
    expect(documentTags(edited, DOC).serverProblems).toEqual([]);
    expect(hasUnsavedChanges(documentTags(edited, DOC))).toBe(true);
    const saved = run(edited, { type: 'saved', documentId: DOC, sent: tagsOf(edited), tags: tagsOf(edited) });
    expect(hasUnsavedChanges(documentTags(saved, DOC))).toBe(false);
    // An edit made while the save was under way is still unsaved afterwards.
    const during = run(edited, { type: 'delete', documentId: DOC, uuid: uuid(1) });
    const late = run(during, { type: 'saved', documentId: DOC, sent: tagsOf(edited), tags: tagsOf(edited) });
    expect(tagsOf(late)).toEqual([]);
    expect(hasUnsavedChanges(documentTags(late, DOC))).toBe(true);
  });
});

describe('undo', () => {
  it('takes edits back one by one, down to the saved tags', () => {
    const start = loaded([signature(1)]);
    const state = run(
      start,
      { type: 'move', documentId: DOC, uuid: uuid(1), to: { pageNumber: 1, x: 10, y: 10 }, pages },
      { type: 'delete', documentId: DOC, uuid: uuid(1) },
    );
    expect(tagsOf(state)).toEqual([]);
    const once = run(state, { type: 'undo', documentId: DOC });
    expect(tagsOf(once)[0]).toMatchObject({ positionX: 10, positionY: 10 });
    const twice = run(once, { type: 'undo', documentId: DOC });
    expect(tagsOf(twice)).toBe(tagsOf(start));
    expect(hasUnsavedChanges(documentTags(twice, DOC))).toBe(false);
    expect(run(twice, { type: 'undo', documentId: DOC })).toBe(twice);
  });

  it('records nothing for a refused edit', () => {
    const state = run(loaded([signature(1)]), { type: 'move', documentId: DOC, uuid: uuid(1), to: { pageNumber: 1, x: 9999, y: 0 }, pages });
    expect(documentTags(state, DOC).history).toEqual([]);
  });
});

describe('screen to page frame', () => {
  it('puts the displayed top-left corner of a new tag at the point, on every rotation', () => {
    for (const rotate of [0, 90, 180, 270] as const) {
      const page: PageGeometry = { ...A4, rotate };
      const rect = rectAtDisplayPoint({ width: 150, height: 50 }, { x: 120, y: 90 }, page, 1.5);
      // The size is as shown: in the page frame of a page turned a quarter its sides swap.
      const turned = rotate === 90 || rotate === 270;
      expect(rect.width).toBeCloseTo(turned ? 50 : 150);
      expect(rect.height).toBeCloseTo(turned ? 150 : 50);
      const shown = pageToDisplay(rect, page, 1.5);
      expect(shown.x).toBeCloseTo(120);
      expect(shown.y).toBeCloseTo(90);
      expect(shown.width).toBeCloseTo(150 * 1.5);
      expect(shown.height).toBeCloseTo(50 * 1.5);
    }
  });

  it('nudges in screen directions on a rotated page', () => {
    const tag = signature(1, { pageNumber: 2 });
    // At 90° the screen's right is the page frame's -y.
    expect(nudgedPosition(tag, LANDSCAPE_90, 1, 0)).toEqual({ x: 50, y: 59 });
    expect(nudgedPosition(tag, LANDSCAPE_90, 0, 10)).toEqual({ x: 60, y: 60 });
    expect(nudgedPosition(tag, A4, 1, 0)).toEqual({ x: 51, y: 60 });
  });
});

describe('suggested tags (anchor placement)', () => {
  const suggestion = (n: number, over: Partial<Tag> = {}): AnchorSuggestion => ({
    tag: { ...newTag({ uuid: uuid(n), type: 'signature', pageNumber: 1, positionX: 100, positionY: 100 * n }), ...over },
    source: 'signatureLine',
    kind: 'signature',
    confidence: 0.9,
    text: 'Signature',
    signerSlot: null,
    anchorBox: { x: 100, y: 100 * n + 50, width: 150, height: 0 },
  });
  const pending = (state: TagEditorState) => suggestedTags(state, DOC).map((item) => item.tag.uuid);
  const suggest = (...suggestions: AnchorSuggestion[]): TagEditorAction => ({ type: 'suggest', documentId: DOC, suggestions });

  it('keeps suggestions apart from the tags, and does not suggest a place that has a field', () => {
    const state = run(loaded([signature(1, { positionX: 90, positionY: 190 })]), suggest(suggestion(2), suggestion(3)));
    expect(pending(state)).toEqual([uuid(3)]);
    expect(tagsOf(state)).toHaveLength(1);
    expect(hasUnsavedChanges(documentTags(state, DOC))).toBe(false);
  });

  it('places an accepted one as a placed tag is placed (bounds, selection), and the rest stay', () => {
    const state = run(loaded([]), suggest(suggestion(2), suggestion(3)), { type: 'acceptSuggestions', documentId: DOC, uuids: [uuid(3)], pages });
    expect(tagsOf(state)).toHaveLength(1);
    expect(tagsOf(state)[0]).toMatchObject({ uuid: uuid(3), positionX: 100, positionY: 300, createType: 'new', blockBounds: { left: 100 / 595, top: 300 / 842 } });
    expect(selectedTag(state)?.uuid).toBe(uuid(3));
    expect(pending(state)).toEqual([uuid(2)]);
    expect(hasUnsavedChanges(documentTags(state, DOC))).toBe(true);
  });

  it('accepts several as one edit, which one undo takes back', () => {
    const state = run(loaded([signature(1, { positionY: 700 })]), suggest(suggestion(2), suggestion(3), suggestion(4)), { type: 'acceptSuggestions', documentId: DOC, uuids: [uuid(2), uuid(3), uuid(4)], pages });
    expect(tagsOf(state).map((tag) => tag.uuid)).toEqual([uuid(1), uuid(2), uuid(3), uuid(4)]);
    expect(pending(state)).toEqual([]);
    expect(documentTags(state, DOC).history).toHaveLength(1);
    expect(tagsOf(run(state, { type: 'undo', documentId: DOC })).map((tag) => tag.uuid)).toEqual([uuid(1)]);
  });

  it('keeps a suggestion that cannot be placed pending, and says why', () => {
    const tooBig = suggestion(2, { pageNumber: 3, positionY: 0 });
    const state = run(loaded([]), suggest(tooBig, suggestion(3)), { type: 'acceptSuggestions', documentId: DOC, uuids: [uuid(2), uuid(3)], pages });
    expect(tagsOf(state).map((tag) => tag.uuid)).toEqual([uuid(3)]);
    expect(pending(state)).toEqual([uuid(2)]);
    expect(state.refusal).toEqual([{ tagUuid: uuid(2), messageKey: 'tagOutsidePage', params: { pageNumber: 3 } }]);
  });

  it('gives a suggestion to another signer or to nobody, and dismisses', () => {
    const to = { userEmail: 'b@x.test', userUuid: 'u-b', wfsOrderId: 2 };
    let state = run(loaded([]), suggest(suggestion(2, { userEmail: 'a@x.test', userUuid: 'u-a', wfsOrderId: 1 }), suggestion(3)));
    state = run(state, { type: 'assignSuggestion', documentId: DOC, uuid: uuid(2), to });
    expect(suggestedTags(state, DOC)[0]!.tag).toMatchObject(to);
    state = run(state, { type: 'assignSuggestion', documentId: DOC, uuid: uuid(2), to: null });
    expect(suggestedTags(state, DOC)[0]!.tag).not.toHaveProperty('userEmail');
    expect(suggestedTags(state, DOC)[0]!.tag).not.toHaveProperty('wfsOrderId');
    state = run(state, { type: 'dismissSuggestions', documentId: DOC, uuids: [uuid(3)] });
    expect(pending(state)).toEqual([uuid(2)]);
    expect(tagsOf(state)).toEqual([]);
  });
});
