import { describe, expect, it } from 'vitest';
import type { PreconfiguredTag } from './api/documents';
import { samePages, tagsFromFormFields } from './document-template-rules';
import { validateTagLayout } from './tags/rules';

const field = (extra: Partial<PreconfiguredTag>): PreconfiguredTag => ({
  name: 'field',
  fieldType: 'text',
  pageNumber: 1,
  positionX: 50,
  positionY: 60,
  blockWidth: 150,
  blockHeight: 20,
  value: null,
  required: false,
  readOnly: false,
  ...extra,
});

let counter = 0;
const uuid = () => `00000000-0000-4000-8000-${String(++counter).padStart(12, '0')}`;
const A4 = { width: 595, height: 842, x: 0, y: 0, rotate: 0 as const };

describe('a PDF form as preconfigured tags', () => {
  it('makes text and choice fields text tags with their values, and signature fields signature tags, where they sit', () => {
    const tags = tagsFromFormFields(
      [
        field({ name: 'Name', value: 'Asha', required: true }),
        field({ name: 'City', fieldType: 'choice', positionY: 100, value: 'Pune' }),
        field({ name: 'Sig', fieldType: 'signature', positionY: 200, blockWidth: 200, blockHeight: 60 }),
        field({ name: 'Agree', fieldType: 'checkbox', positionY: 300 }),
        field({ name: 'Go', fieldType: 'button', positionY: 400 }),
        field({ name: 'Hidden', blockWidth: 0 }),
      ],
      uuid,
    );
    expect(tags.map((tag) => [tag.name, tag.type, tag.value, tag.positionY, tag.createType])).toEqual([
      ['Name', 'text', 'Asha', 60, 'existing'],
      ['City', 'text', 'Pune', 100, 'existing'],
      ['Sig', 'signature', null, 200, 'existing'],
    ]);
    expect(tags[0]!.validations?.required?.value).toBe(true);
    expect(tags.every((tag) => tag.userEmail === undefined)).toBe(true);
    expect(validateTagLayout({ tags, pages: [A4], reasonTagRequired: false })).toEqual([]);
  });

  it('lets a field smaller or larger than its tag type allows keep its size', () => {
    const [small, wide] = tagsFromFormFields([field({ blockWidth: 10, blockHeight: 8 }), field({ positionX: 20, positionY: 300, blockWidth: 560, blockHeight: 20 })], uuid);
    expect([small!.blockWidth, small!.blockHeight, small!.min]).toEqual([10, 8, { width: 10, height: 8 }]);
    expect(wide!.max).toEqual({ width: 560, height: 200 });
    expect(validateTagLayout({ tags: [small!, wide!], pages: [A4], reasonTagRequired: false })).toEqual([]);
  });
});

describe('a replacement document', () => {
  it('fits when it has as many pages, each of the same size (within half a point) and turn', () => {
    expect(samePages([A4], [{ ...A4, width: 595.3, x: 10 }])).toBe(true);
    expect(samePages([A4], [A4, A4])).toBe(false);
    expect(samePages([A4], [{ ...A4, width: 612, height: 792 }])).toBe(false);
    expect(samePages([A4], [{ ...A4, rotate: 90 }])).toBe(false);
  });
});
