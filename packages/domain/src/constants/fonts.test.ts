import { describe, expect, it } from 'vitest';
import { DEFAULT_FONT_FAMILY, isSupportedFont, SUPPORTED_FONTS } from './fonts';

describe('SUPPORTED_FONTS', () => {
  it('names each font once, the default among them', () => {
    const names = SUPPORTED_FONTS.map((font) => font.name);
    expect(new Set(names).size).toBe(names.length);
    expect(isSupportedFont(DEFAULT_FONT_FAMILY)).toBe(true);
    expect(isSupportedFont('Comic Sans MS')).toBe(false);
  });

  it('covers the scripts of the shipped languages and Arabic', () => {
    expect(SUPPORTED_FONTS.map((font) => font.name)).toEqual(expect.arrayContaining(['Helvetica', 'Times', 'Courier', 'Noto Sans Devanagari', 'Noto Naskh Arabic']));
  });
});
