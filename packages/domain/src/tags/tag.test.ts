import { describe, expect, expectTypeOf, it } from 'vitest';
import { TAG_TYPES } from '../constants/tags';
import {
  FONT_SIZE_LIMITS,
  RUBBER_STAMP_DIMENSIONS,
  RUBBER_STAMP_SUB_TYPE,
  TAG_DIMENSIONS,
  Tag,
  flattenTags,
  isRubberStamp,
  newTag,
  tagDimensions,
} from './tag';

const UUID = '6f1c2a52-3d4e-4f5a-8b6c-7d8e9f0a1b2c';
const CHILD = '0b9a8c7d-6e5f-4a3b-9c2d-1e0f9a8b7c6d';

const minimal = { uuid: UUID, type: 'text', pageNumber: 1, positionX: 10, positionY: 20, blockWidth: 120, blockHeight: 20 } as const;

describe('Tag schema', () => {
  it('fills defaults for what a minimal tag leaves out', () => {
    expect(Tag.parse(minimal)).toEqual({
      ...minimal,
      name: '',
      key: '',
      category: 'printed',
      tagFor: 'signer',
      value: null,
      status: 'pending',
      readOnly: false,
      disabled: false,
    });
  });

  it('takes every field of spec §3', () => {
    const full = {
      ...minimal,
      name: 'Full name',
      key: 'fullName',
      category: 'nonPrinted',
      tagFor: 'custodianOrSigner',
      value: 'Alice',
      status: 'done',
      blockBounds: { top: 0.1, left: 0.2, heightRatio: 0.05, widthRatio: 0.3 },
      fontSize: 11,
      fontWeight: 'bold',
      fontStyle: 'italic',
      fontFamily: 'Roboto',
      min: { width: 50, height: 12, fontSize: 8 },
      max: { width: 300, height: 40, fontSize: 20 },
      validations: { required: { value: true, message: 'mandatory' } },
      readOnly: true,
      disabled: false,
      createType: 'existing',
      originUuid: CHILD,
      userEmail: 'alice@example.com',
      userUuid: 'u-1',
      wfsOrderId: 2,
      maxUpload: 500,
      policyType: 'ESIGNATURE',
      tagId: 1,
      label: 'Name',
      dataSource: 'profile',
      uniqueKey: 'k-1',
      subType: 'plain',
    } as const;
    expect(Tag.parse(full)).toEqual(full);
  });

  it('takes members of a composite, typed as tags', () => {
    const composite = Tag.parse({ ...minimal, type: 'composite', children: [{ ...minimal, uuid: CHILD, type: 'signature' }] });
    expect(composite.children?.[0]?.type).toBe('signature');
    expectTypeOf(composite.children).toEqualTypeOf<Tag[] | undefined>();
  });

  it.each([
    { name: 'a bad uuid', patch: { uuid: 'tag-1' } },
    { name: 'an unknown type', patch: { type: 'checkbox' } },
    { name: 'page 0', patch: { pageNumber: 0 } },
    { name: 'a fractional page', patch: { pageNumber: 1.5 } },
    { name: 'a negative width', patch: { blockWidth: -1 } },
    { name: 'an infinite position', patch: { positionX: Number.POSITIVE_INFINITY } },
    { name: 'a zero font size', patch: { fontSize: 0 } },
    { name: 'an unknown role', patch: { tagFor: 'everyone' } },
    { name: 'a min above its max', patch: { min: { width: 200 }, max: { width: 100 } } },
    { name: 'children on a text tag', patch: { children: [{ ...minimal, uuid: CHILD }] } },
    { name: 'a rubber stamp that is not an image', patch: { subType: RUBBER_STAMP_SUB_TYPE } },
  ])('refuses $name', ({ patch }) => {
    expect(Tag.safeParse({ ...minimal, ...patch }).success).toBe(false);
  });

  it('accepts a zero size, which the layout rules report instead', () => {
    expect(Tag.safeParse({ ...minimal, blockWidth: 0, blockHeight: 0 }).success).toBe(true);
  });
});

describe('TAG_DIMENSIONS', () => {
  it('covers exactly the 23 tag types', () => {
    expect(Object.keys(TAG_DIMENSIONS).sort()).toEqual([...TAG_TYPES].sort());
  });

  it.each([...Object.entries(TAG_DIMENSIONS), ['rubber stamp', RUBBER_STAMP_DIMENSIONS] as const])('%s: 0 < min <= default <= max', (_type, d) => {
    expect(d.min.width).toBeGreaterThan(0);
    expect(d.min.height).toBeGreaterThan(0);
    expect(d.min.width).toBeLessThanOrEqual(d.width);
    expect(d.width).toBeLessThanOrEqual(d.max.width);
    expect(d.min.height).toBeLessThanOrEqual(d.height);
    expect(d.height).toBeLessThanOrEqual(d.max.height);
  });

  it('keeps every default size on an A4 page', () => {
    for (const d of Object.values(TAG_DIMENSIONS)) {
      expect(d.width).toBeLessThanOrEqual(595);
      expect(d.height).toBeLessThanOrEqual(842);
    }
  });

  it('has the signature size of the design', () => {
    expect(TAG_DIMENSIONS.signature).toEqual({ width: 150, height: 50, min: { width: 60, height: 20 }, max: { width: 400, height: 200 } });
    expect(TAG_DIMENSIONS.text).toMatchObject({ width: 120, height: 20 });
  });

  it('gives rubber stamps their own size', () => {
    expect(tagDimensions('image', RUBBER_STAMP_SUB_TYPE)).toBe(RUBBER_STAMP_DIMENSIONS);
    expect(tagDimensions('image')).toBe(TAG_DIMENSIONS.image);
  });

  it('has sane global font limits', () => {
    expect(FONT_SIZE_LIMITS.min).toBeLessThan(FONT_SIZE_LIMITS.max);
  });
});

describe('newTag', () => {
  it('places a tag at its type’s default size, as new', () => {
    const tag = newTag({ uuid: UUID, type: 'signature', pageNumber: 2, positionX: 30, positionY: 40 });
    expect(tag).toMatchObject({ blockWidth: 150, blockHeight: 50, createType: 'new', pageNumber: 2, status: 'pending' });
  });

  it('sizes a rubber stamp as a stamp', () => {
    const tag = newTag({ uuid: UUID, type: 'image', subType: RUBBER_STAMP_SUB_TYPE, pageNumber: 1, positionX: 0, positionY: 0 });
    expect(tag).toMatchObject({ blockWidth: 120, blockHeight: 120 });
    expect(isRubberStamp(tag)).toBe(true);
  });

  it('keeps an explicit size and ignores explicit undefined', () => {
    expect(newTag({ ...minimal, blockWidth: 77, blockHeight: undefined })).toMatchObject({ blockWidth: 77, blockHeight: 20 });
  });

  it('throws for input no tag could have', () => {
    expect(() => newTag({ ...minimal, pageNumber: -1 })).toThrow();
  });
});

describe('flattenTags', () => {
  it('lists composite members after their composite, depth first', () => {
    const leaf = (uuid: string) => Tag.parse({ ...minimal, uuid });
    const inner = Tag.parse({ ...minimal, type: 'composite', uuid: '00000000-0000-4000-8000-000000000002', children: [leaf('00000000-0000-4000-8000-000000000003')] });
    const outer = Tag.parse({ ...minimal, type: 'composite', uuid: '00000000-0000-4000-8000-000000000001', children: [inner, leaf('00000000-0000-4000-8000-000000000004')] });
    expect(flattenTags([outer, leaf('00000000-0000-4000-8000-000000000005')]).map((t) => t.uuid.slice(-1))).toEqual(['1', '2', '3', '4', '5']);
  });
});
