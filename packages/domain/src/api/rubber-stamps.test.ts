import { describe, expect, it } from 'vitest';
import { mayUseRubberStamp } from '../permissions/tags';
import { RubberStampUse, ShareRubberStampBody } from './rubber-stamps';

const STAMP = '3e1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c71';
const TAG = '00000000-0000-4000-8000-000000000001';
const USER = '5d1c9a7e-2b4f-4e6a-8c3d-0f1e2a3b4c5d';

describe('a rubber stamp applied when signing', () => {
  it.each([
    ['onto a tag', { rubberStampId: STAMP, tagUuid: TAG }, true],
    ['placed', { rubberStampId: STAMP, placement: { pageNumber: 1, positionX: 10, positionY: 20 } }, true],
    ['placed with a size', { rubberStampId: STAMP, placement: { pageNumber: 1, positionX: 10, positionY: 20, blockWidth: 90, blockHeight: 60 } }, true],
    ['both a tag and a placement', { rubberStampId: STAMP, tagUuid: TAG, placement: { pageNumber: 1, positionX: 10, positionY: 20 } }, false],
    ['neither', { rubberStampId: STAMP }, false],
    ['off the page to the left', { rubberStampId: STAMP, placement: { pageNumber: 1, positionX: -1, positionY: 20 } }, false],
    ['on page 0', { rubberStampId: STAMP, placement: { pageNumber: 0, positionX: 1, positionY: 20 } }, false],
  ] as const)('%s: %s', (_name, use, valid) => {
    expect(RubberStampUse.safeParse(use).success).toBe(valid);
  });
});

describe('sharing a rubber stamp', () => {
  it('takes the full lists, empty by default', () => {
    expect(ShareRubberStampBody.parse({ rubberStampId: STAMP })).toEqual({ rubberStampId: STAMP, userIds: [], groupIds: [] });
  });

  it('refuses a person or a group listed twice', () => {
    expect(ShareRubberStampBody.safeParse({ rubberStampId: STAMP, userIds: [USER, USER] }).success).toBe(false);
    expect(ShareRubberStampBody.safeParse({ rubberStampId: STAMP, groupIds: [USER, USER] }).success).toBe(false);
  });
});

describe('who may apply one (spec §6)', () => {
  it.each([
    [true, true, true],
    [true, false, false],
    [false, true, false],
    [false, false, false],
  ] as const)('setting %s, passcode flag %s: %s', (rubberStampEnabled, passcodeFlag, allowed) => {
    expect(mayUseRubberStamp({ rubberStampEnabled, passcodeFlag })).toBe(allowed);
  });
});
