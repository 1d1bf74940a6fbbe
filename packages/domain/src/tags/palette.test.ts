import { describe, expect, it } from 'vitest';
import { TAG_CATEGORIES, TAG_ROLES, TAG_TYPES } from '../constants/tags';
import { paletteGroupOf, TAG_PALETTE, TAG_PALETTE_GROUPS, TAG_TYPE_DEFAULTS, tagTypeDefaults } from './palette';

describe('tag palette', () => {
  it('lists each of the 23 tag types exactly once', () => {
    const listed = TAG_PALETTE_GROUPS.flatMap((group) => [...TAG_PALETTE[group]]);
    expect(listed).toHaveLength(TAG_TYPES.length);
    expect(TAG_TYPES).toHaveLength(23);
    expect(new Set(listed).size).toBe(listed.length);
    expect([...listed].sort()).toEqual([...TAG_TYPES].sort());
  });

  it('finds the group of every type', () => {
    for (const type of TAG_TYPES) expect(TAG_PALETTE[paletteGroupOf(type)]).toContain(type);
    expect(paletteGroupOf('signature')).toBe('signature');
    expect(paletteGroupOf('calendar')).toBe('formFields');
  });

  it('gives every type a valid category and role', () => {
    expect(Object.keys(TAG_TYPE_DEFAULTS).sort()).toEqual([...TAG_TYPES].sort());
    for (const type of TAG_TYPES) {
      const defaults = tagTypeDefaults(type);
      expect(TAG_CATEGORIES).toContain(defaults.category);
      expect(TAG_ROLES).toContain(defaults.tagFor);
    }
    expect(tagTypeDefaults('attachment').category).toBe('nonPrinted');
    expect(tagTypeDefaults('signature')).toEqual({ category: 'printed', tagFor: 'signer' });
  });
});
