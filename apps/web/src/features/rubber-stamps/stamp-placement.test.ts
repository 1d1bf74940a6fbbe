import { newTag, RUBBER_STAMP_SUB_TYPE, type PageGeometry, type RubberStampChoice } from '@pakt/domain';
import { describe, expect, it } from 'vitest';
import { stampSize, stampUseFor } from './stamp-placement';

const A4: PageGeometry = { width: 595, height: 842, x: 0, y: 0, rotate: 0 };
const ME = { email: 'asha@example.com', stepOrder: 2 };
const SEAL: RubberStampChoice = { rubberStampId: '3e1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c71', name: 'Seal', width: 300, height: 150, owned: true };
let n = 0;
const tag = (init: Partial<Parameters<typeof newTag>[0]> & Pick<Parameters<typeof newTag>[0], 'type'>) =>
  newTag({ uuid: `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`, pageNumber: 1, positionX: 100, positionY: 100, userEmail: ME.email, wfsOrderId: 2, ...init });

describe('the size of a stamp', () => {
  it.each([
    [{ width: 300, height: 150 }, 0, { width: 120, height: 60 }],
    [{ width: 100, height: 400 }, 0, { width: 40, height: 120 }],
    [{ width: 1000, height: 10 }, 0, { width: 120, height: 40 }],
    [{ width: 300, height: 150 }, 90, { width: 60, height: 120 }],
  ] as const)('%o on a page turned %i: %o', (image, rotate, size) => {
    expect(stampSize(image, rotate)).toEqual(size);
  });
});

describe('where a stamp goes', () => {
  it("fills the signer's own waiting rubber-stamp tag first", () => {
    const stampTag = tag({ type: 'image', subType: RUBBER_STAMP_SUB_TYPE, positionX: 300, positionY: 500 });
    const placed = stampUseFor({ stamp: SEAL, tags: [tag({ type: 'signature' }), stampTag], pages: [A4], signer: ME });
    expect(placed?.use).toEqual({ rubberStampId: SEAL.rubberStampId, tagUuid: stampTag.uuid });
  });

  it("ignores someone else's stamp tag and a done one, and centres on the signer's signature", () => {
    const others = tag({ type: 'image', subType: RUBBER_STAMP_SUB_TYPE, userEmail: 'ravi@example.com' });
    const done = { ...tag({ type: 'image', subType: RUBBER_STAMP_SUB_TYPE }), status: 'done' as const };
    const signature = tag({ type: 'signature', positionX: 200, positionY: 400, blockWidth: 160, blockHeight: 50 });
    const placed = stampUseFor({ stamp: SEAL, tags: [others, done, signature], pages: [A4], signer: ME });
    expect(placed?.use.placement).toEqual({ pageNumber: 1, positionX: 220, positionY: 395, blockWidth: 120, blockHeight: 60 });
  });

  it('stays on the page when the signature is at its edge', () => {
    const signature = tag({ type: 'signature', positionX: 560, positionY: 820, blockWidth: 35, blockHeight: 22 });
    const placement = stampUseFor({ stamp: SEAL, tags: [signature], pages: [A4], signer: ME })!.use.placement!;
    expect(placement.positionX + placement.blockWidth!).toBeLessThanOrEqual(A4.width);
    expect(placement.positionY + placement.blockHeight!).toBeLessThanOrEqual(A4.height);
  });

  it('goes to the lower right corner of page 1 when the signer has no signature here', () => {
    const placement = stampUseFor({ stamp: SEAL, tags: [], pages: [A4], signer: ME })!.use.placement!;
    expect(placement).toEqual({ pageNumber: 1, positionX: 595 - 24 - 120, positionY: 842 - 24 - 60, blockWidth: 120, blockHeight: 60 });
  });
});
