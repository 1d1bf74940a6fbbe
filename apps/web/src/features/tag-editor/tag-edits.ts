import { displayToPage, shownSize, tagRect, tagTypeDefaults, type PageGeometry, type Rect, type Tag, type TagType } from '@pakt/domain';
import type { Dispatch, KeyboardEvent, RefObject } from 'react';
import type { PagePoint } from './document-pages';
import { assignTo, type SignerOption } from './signers';
import { defaultTagSize, nudgedPosition, rectAtDisplayPoint, type ArmedTag, type TagEditorAction } from './tag-editor-state';

const ARROW_KEYS: Readonly<Record<string, readonly [number, number]>> = {
  ArrowLeft: [-1, 0],
  ArrowRight: [1, 0],
  ArrowUp: [0, -1],
  ArrowDown: [0, 1],
};

interface TagEditsInput {
  /** The document shown, whose tags the edits change. */
  readonly documentId: string;
  readonly pages: readonly PageGeometry[];
  readonly zoom: number;
  /** Each shown page's element, to find the page a tag is dropped on. */
  readonly pageElements: RefObject<Map<number, HTMLElement>>;
  /** Who a placed tag is for. */
  readonly forSigner: SignerOption | undefined;
  readonly dispatch: Dispatch<TagEditorAction>;
  /** Placing a tag clears what the last save came to. */
  readonly clearOutcome: () => void;
}

/**
 * What the pointer and keys do to the shown document's tags: each turns what happened on screen
 * into page-frame numbers and hands it to tag-editor-state.ts as one edit.
 */
export function tagEdits({ documentId, pages, zoom, pageElements, forSigner, dispatch, clearOutcome }: TagEditsInput) {
  const place = (type: TagType, init: ArmedTag['init'], point: PagePoint) => {
    const page = pages[point.pageNumber - 1];
    if (!page) return;
    const defaultSize = defaultTagSize(type, init?.subType);
    const size = { width: init?.blockWidth ?? defaultSize.width, height: init?.blockHeight ?? defaultSize.height };
    const rect = rectAtDisplayPoint(size, point, page, zoom);
    // Swapping the shown sides is exact; going through the zoom would leave rounding in the size.
    const frameSize = shownSize(size, page.rotate);
    const defaults = tagTypeDefaults(type);
    clearOutcome();
    dispatch({
      type: 'place',
      documentId,
      pages,
      init: {
        category: defaults.category,
        tagFor: defaults.tagFor,
        ...(forSigner ? assignTo(forSigner) : {}),
        ...init,
        uuid: crypto.randomUUID(),
        type,
        pageNumber: point.pageNumber,
        positionX: rect.x,
        positionY: rect.y,
        // The page-frame sides of the size as shown (swapped on a page turned a quarter).
        blockWidth: frameSize.width,
        blockHeight: frameSize.height,
      },
    });
  };

  const moveEnd = (tag: Tag, corner: { x: number; y: number }, pointer: { x: number; y: number }) => {
    let target: { pageNumber: number; bounds: DOMRect } | null = null;
    for (const [pageNumber, element] of pageElements.current) {
      const bounds = element.getBoundingClientRect();
      if (pointer.x >= bounds.left && pointer.x <= bounds.right && pointer.y >= bounds.top && pointer.y <= bounds.bottom) target = { pageNumber, bounds };
    }
    // Dropped between pages: measured against its own page, where the rules refuse it.
    const own = pageElements.current.get(tag.pageNumber);
    if (!target && own) target = { pageNumber: tag.pageNumber, bounds: own.getBoundingClientRect() };
    const page = target ? pages[target.pageNumber - 1] : undefined;
    if (!target || !page) return;
    // The tag keeps the size it shows on its own page (moveTag swaps its sides onto a page turned
    // a quarter from it).
    const size = shownSize(tagRect(tag), pages[tag.pageNumber - 1]?.rotate ?? 0);
    const rect = rectAtDisplayPoint(size, { x: corner.x - target.bounds.left, y: corner.y - target.bounds.top }, page, zoom);
    dispatch({ type: 'move', documentId, uuid: tag.uuid, to: { pageNumber: target.pageNumber, x: rect.x, y: rect.y }, pages });
  };

  const resizeEnd = (tag: Tag, shown: Rect) => {
    const page = pages[tag.pageNumber - 1];
    if (!page) return;
    dispatch({ type: 'resize', documentId, uuid: tag.uuid, rect: displayToPage(shown, page, zoom), pages });
  };

  const paste = () => dispatch({ type: 'paste', documentId, pages, newUuid: () => crypto.randomUUID() });
  const remove = (tag: Tag) => dispatch({ type: 'delete', documentId, uuid: tag.uuid });

  const onTagKeyDown = (tag: Tag, event: KeyboardEvent<HTMLDivElement>) => {
    const arrow = ARROW_KEYS[event.key];
    if (arrow) {
      event.preventDefault();
      const page = pages[tag.pageNumber - 1];
      if (!page) return;
      const step = event.shiftKey ? 10 : 1;
      const to = nudgedPosition(tag, page, arrow[0] * step, arrow[1] * step);
      dispatch({ type: 'move', documentId, uuid: tag.uuid, to: { pageNumber: tag.pageNumber, ...to }, pages });
    } else if (event.key === 'Delete' || event.key === 'Backspace') {
      event.preventDefault();
      remove(tag);
    } else if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      dispatch({ type: 'select', selection: { documentId, uuid: tag.uuid } });
    } else if (event.key === 'Escape') {
      dispatch({ type: 'select', selection: null });
    }
  };

  return { place, moveEnd, resizeEnd, paste, remove, onTagKeyDown };
}
