import { describe, expect, it } from 'vitest';
import { isFilledValue, isGroupTag, isRequiredTag, presetValueProblem } from './filling';
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

  // Nobody places a signer's mark, or who signed and when, in advance (a custodian signing in someone's name).
  it.each([
    ['signature', { value: 'data:image/png;base64,AAAA', userEmail: 'a@x.test' }, true],
    ['signatureText', { value: 'Asha Rao', userEmail: 'a@x.test' }, true],
    ['userInitial', { value: 'AR', userEmail: 'a@x.test' }, true],
    ['composite', { value: 'data:image/png;base64,AAAA', userEmail: 'a@x.test' }, true],
    ['signature', { value: 'data:image/png;base64,AAAA' }, true],
    ['username', { value: 'Someone Else', userEmail: 'a@x.test' }, true],
    ['timeStamp', { value: '2020-01-01 00:00:00 UTC', userEmail: 'a@x.test' }, true],
    ['email', { value: 'b@x.test', userEmail: 'a@x.test' }, true],
    ['signature', { value: '', userEmail: 'a@x.test' }, false],
    ['signature', { value: null, userEmail: 'a@x.test' }, false],
    ['composite', { value: null, children: [tag('signature')] }, false],
    ['text', { value: 'Flat 3B', userEmail: 'a@x.test' }, false],
    ['username', { value: 'Custodian text' }, false],
  ] as const)('a %s tag %j with its value is refused: %s', (type, extra, refused) => {
    expect(presetValueProblem(tag(type, extra as Partial<Tag>)) !== null).toBe(refused);
  });
});

