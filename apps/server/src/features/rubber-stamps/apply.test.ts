import { DomainError, newTag, type PageGeometry, RUBBER_STAMP_SUB_TYPE, type Tag } from '@pakt/domain';
import { describe, expect, it } from 'vitest';
import { applyStamps, type ResolvedStamp } from './apply';

/**
 * Putting rubber stamps on a document's tags (issue 8, spec §5): into the signer's own stamp tag,
 * or placed; over a signature or initials, never over another stamp, never off the page; and a
 * stamp tag's saved picture never stands in for a stamp the signer applies.
 */
const A4: PageGeometry = { width: 595, height: 842, x: 0, y: 0, rotate: 0 };
const SIGNER = { email: 'asha@example.com', stepOrder: 1 };
const PICTURE = 'data:image/png;base64,iVBORw0KGgo=';
let n = 0;
const uuid = () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`;
const tag = (init: Partial<Parameters<typeof newTag>[0]> & Pick<Parameters<typeof newTag>[0], 'type'>): Tag =>
  ({ ...newTag({ uuid: uuid(), pageNumber: 1, positionX: 100, positionY: 100, userEmail: SIGNER.email, wfsOrderId: 1, ...init }), createType: 'existing' }) as Tag;
const stamp = (use: ResolvedStamp['use']): ResolvedStamp => ({ use, tagUuid: use.tagUuid ?? uuid(), rubberStampId: use.rubberStampId, name: 'Seal', dataUrl: PICTURE });
const STAMP_ID = '3e1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c71';

function refusal(run: () => unknown): { path: string; message: string }[] {
  try {
    run();
  } catch (error) {
    if (error instanceof DomainError) return (error.issues ?? []) as { path: string; message: string }[];
    throw error;
  }
  throw new Error('not refused');
}

describe('applying rubber stamps', () => {
  it('places a stamp over the signer\'s signature and fills their stamp tag', () => {
    const signature = tag({ type: 'signature', blockWidth: 160, blockHeight: 50 });
    const stampTag = tag({ type: 'image', subType: RUBBER_STAMP_SUB_TYPE, positionX: 300, positionY: 500 });
    const placed = stamp({ rubberStampId: STAMP_ID, placement: { pageNumber: 1, positionX: 120, positionY: 80, blockWidth: 100, blockHeight: 100 } });
    const result = applyStamps({ tags: [signature, stampTag], pages: [A4], signer: SIGNER, stamps: [placed, stamp({ rubberStampId: STAMP_ID, tagUuid: stampTag.uuid })] });
    expect(result.find((t) => t.uuid === stampTag.uuid)?.value).toBe(PICTURE);
    expect(result.find((t) => t.uuid === placed.tagUuid)).toMatchObject({ type: 'image', subType: RUBBER_STAMP_SUB_TYPE, userEmail: SIGNER.email, wfsOrderId: 1, createType: 'signer', value: PICTURE });
  });

  it('refuses a stamp over another stamp, off its page, too small, or into a tag that is not the signer\'s stamp tag', () => {
    const theirs = tag({ type: 'image', subType: RUBBER_STAMP_SUB_TYPE, userEmail: 'ravi@example.com' });
    const signature = tag({ type: 'signature' });
    expect(refusal(() => applyStamps({ tags: [theirs], pages: [A4], signer: SIGNER, stamps: [stamp({ rubberStampId: STAMP_ID, placement: { pageNumber: 1, positionX: 110, positionY: 110 } })] }))).toEqual([
      { path: 'rubberStamps.0', message: 'tagOverlappingError' },
    ]);
    expect(refusal(() => applyStamps({ tags: [], pages: [A4], signer: SIGNER, stamps: [stamp({ rubberStampId: STAMP_ID, placement: { pageNumber: 1, positionX: 550, positionY: 10 } })] }))[0]).toEqual({
      path: 'rubberStamps.0.placement',
      message: 'tagOutsidePage',
    });
    expect(refusal(() => applyStamps({ tags: [], pages: [A4], signer: SIGNER, stamps: [stamp({ rubberStampId: STAMP_ID, placement: { pageNumber: 2, positionX: 10, positionY: 10 } })] }))[0]?.message).toBe('tagOutsidePage');
    expect(
      refusal(() => applyStamps({ tags: [], pages: [A4], signer: SIGNER, stamps: [stamp({ rubberStampId: STAMP_ID, placement: { pageNumber: 1, positionX: 10, positionY: 10, blockWidth: 5, blockHeight: 5 } })] })),
    ).toEqual([{ path: 'rubberStamps.0.placement', message: 'tagDimensionsCrossedMsg' }]);
    expect(refusal(() => applyStamps({ tags: [theirs, signature], pages: [A4], signer: SIGNER, stamps: [stamp({ rubberStampId: STAMP_ID, tagUuid: theirs.uuid })] }))).toEqual([
      { path: 'rubberStamps.0.tagUuid', message: 'not a rubber-stamp tag of yours waiting for a stamp' },
    ]);
    expect(refusal(() => applyStamps({ tags: [signature], pages: [A4], signer: SIGNER, stamps: [stamp({ rubberStampId: STAMP_ID, tagUuid: signature.uuid })] }))[0]?.path).toBe('rubberStamps.0.tagUuid');
  });

  it("clears a picture saved on the signer's stamp tag when no stamp is applied to it, and leaves others' alone", () => {
    const mine = { ...tag({ type: 'image', subType: RUBBER_STAMP_SUB_TYPE }), value: PICTURE };
    const theirs = { ...tag({ type: 'image', subType: RUBBER_STAMP_SUB_TYPE, userEmail: 'ravi@example.com', positionY: 400 }), value: PICTURE };
    const plainImage = { ...tag({ type: 'image', positionY: 600 }), value: PICTURE };
    const result = applyStamps({ tags: [mine, theirs, plainImage], pages: [A4], signer: SIGNER, stamps: [] });
    expect(result.map((t) => t.value)).toEqual([null, PICTURE, PICTURE]);
  });
});
