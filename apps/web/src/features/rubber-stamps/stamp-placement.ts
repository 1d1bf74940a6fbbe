import { isTagFor, flattenTags, isRubberStamp, isSignatureFamilyTag, RUBBER_STAMP_DIMENSIONS, type PageGeometry, type Rect, type RubberStampChoice, type RubberStampUse, type Tag } from '@pakt/domain';

/**
 * Where the ceremony puts a rubber stamp the signer applies (issue 8), kept free of React: into
 * the rubber-stamp tag the custodian placed for them when there is one; else over their first
 * signature or initials (spec §5 lets a stamp overlap those, and it is where a seal goes on
 * paper); else in the lower right corner of the first page. The stamp keeps its image's shape
 * within the default stamp size, and never leaves its page.
 */

export interface StampSigner {
  readonly email: string;
  readonly stepOrder: number | null;
}

/** The rubber-stamp tag the custodian placed for this signer and still waiting, if any. */
export function ownStampTag(tags: readonly Tag[], signer: StampSigner): Tag | undefined {
  return flattenTags(tags).find((tag) => isRubberStamp(tag) && tag.status !== 'done' && isTagFor(tag, signer));
}

/** The stamp's size: its image's shape inside the default stamp box (page frame). */
export function stampSize(stamp: Pick<RubberStampChoice, 'width' | 'height'>, rotate: PageGeometry['rotate'] = 0): { width: number; height: number } {
  const box = RUBBER_STAMP_DIMENSIONS;
  const scale = Math.min(box.width / stamp.width, box.height / stamp.height);
  const min = RUBBER_STAMP_DIMENSIONS.min;
  const width = Math.max(min.width, Math.round(stamp.width * scale));
  const height = Math.max(min.height, Math.round(stamp.height * scale));
  // On a page turned a quarter, the sides as shown are the page frame's the other way round.
  return rotate === 90 || rotate === 270 ? { width: height, height: width } : { width, height };
}

const clamp = (value: number, min: number, max: number) => Math.min(Math.max(value, min), Math.max(min, max));

/** The rubber stamp to send for one document, and the rectangle it will cover on its page. */
export function stampUseFor(options: {
  readonly stamp: RubberStampChoice;
  readonly tags: readonly Tag[];
  readonly pages: readonly PageGeometry[];
  readonly signer: StampSigner;
}): { use: RubberStampUse; pageNumber: number; rect: Rect } | null {
  const { stamp, tags, pages, signer } = options;
  const own = ownStampTag(tags, signer);
  if (own) {
    return {
      use: { rubberStampId: stamp.rubberStampId, tagUuid: own.uuid },
      pageNumber: own.pageNumber,
      rect: { x: own.positionX, y: own.positionY, width: own.blockWidth, height: own.blockHeight },
    };
  }
  const signature = flattenTags(tags)
    .filter((tag) => (isSignatureFamilyTag(tag) || tag.type === 'composite') && isTagFor(tag, signer) && pages[tag.pageNumber - 1])
    .sort((a, b) => a.pageNumber - b.pageNumber || a.positionY - b.positionY || a.positionX - b.positionX)[0];
  const pageNumber = signature?.pageNumber ?? 1;
  const page = pages[pageNumber - 1];
  if (!page) return null;
  const size = stampSize(stamp, page.rotate);
  const width = Math.min(size.width, page.width);
  const height = Math.min(size.height, page.height);
  const margin = 24;
  const centre = signature
    ? { x: signature.positionX + signature.blockWidth / 2, y: signature.positionY + signature.blockHeight / 2 }
    : { x: page.width - margin - width / 2, y: page.height - margin - height / 2 };
  const x = clamp(Math.round(centre.x - width / 2), 0, page.width - width);
  const y = clamp(Math.round(centre.y - height / 2), 0, page.height - height);
  return {
    use: { rubberStampId: stamp.rubberStampId, placement: { pageNumber, positionX: x, positionY: y, blockWidth: width, blockHeight: height } },
    pageNumber,
    rect: { x, y, width, height },
  };
}
