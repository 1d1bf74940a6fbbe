import { describe, expect, it } from 'vitest';
import { isFilledValue, isGroupTag, isRequiredTag } from './filling';
import type { Tag, TagValue } from './tag';

const tag = (type: Tag['type'], extra: Partial<Tag> = {}) => ({ type, ...extra }) as Tag;

describe('filling a signer’s fields', () => {
  it.each([
    [null, false],
    [undefined, false],
    ['', false],
    ['   ', false],
    ['\n\t', false],
    ['x', true],
    [' Asha ', true],
    [[], false],
    [['one'], true],
  ] as [TagValue | undefined, boolean][])('%j counts as filled: %s', (value, filled) => {
    expect(isFilledValue(value)).toBe(filled);
  });

  it.each([
    ['signature', {}, true],
    ['signatureText', {}, true],
    ['composite', {}, true],
    ['composite', { children: [tag('signature')] }, false],
    ['text', {}, false],
    ['text', { validations: { required: { value: true } } }, true],
    ['text', { validations: { required: { value: false } } }, false],
    ['calendar', { validations: { required: { value: true } } }, true],
    ['userInitial', {}, false],
  ] as const)('a %s tag %j is required: %s', (type, extra, required) => {
    expect(isRequiredTag(tag(type, extra as Partial<Tag>))).toBe(required);
  });

  it('takes only a composite with members for a group', () => {
    expect(isGroupTag(tag('composite', { children: [tag('signature')] }))).toBe(true);
    expect(isGroupTag(tag('composite', { children: [] }))).toBe(false);
    expect(isGroupTag(tag('signature'))).toBe(false);
  });
});
