import { describe, expect, it } from 'vitest';
import { encodeText, layoutLine, type LaidOutLine } from './text-layout';

/** Each run as "font: glyph names" (Helvetica runs as their text), left to right as shown. */
function shown(line: LaidOutLine): string[] {
  return line.runs.map((run) =>
    run.font === 'helvetica'
      ? `Helvetica: ${run.encoded.bytes.toString('latin1')}`
      : `${run.font.resourceKey}: ${run.glyphs.map((glyph) => `${run.font.font.getGlyph(glyph.id).name}${glyph.xOffset || glyph.yOffset ? `@${glyph.xOffset},${glyph.yOffset}` : ''}`).join(' ')}`,
  );
}

describe('line layout', () => {
  it('keeps WinAnsi text in Helvetica, measured as before', () => {
    const line = layoutLine('Café (€ 5)');
    expect(line.runs).toHaveLength(1);
    expect(line.runs[0]).toEqual({ font: 'helvetica', encoded: encodeText('Café (€ 5)') });
    expect([line.width, line.ascent, line.rtl, line.glyphText.size]).toEqual([encodeText('Café (€ 5)').width, 0, false, 0]);
  });

  // The expected glyphs are HarfBuzz's (hb-shape 8 on the same font files): the conjuncts, the
  // pre-base ि moved before its consonant, and its width variant chosen by what it spans.
  it('shapes Devanagari as HarfBuzz does', () => {
    expect(shown(layoutLine('हिन्दी'))).toEqual(['Pakt-noto-sans-devanagari-devanagari: uni093F.03 uni0939 uni0928094D uni0926 uni0940']);
    expect(shown(layoutLine('श्रीमती प्रिया'))).toEqual([
      'Pakt-noto-sans-devanagari-devanagari: uni0936094D0930 uni0940 uni092E uni0924 uni0940 space uni093F.05 uni092A094D0930 uni092F uni093E',
    ]);
    // Reph (र्) over the next consonant, positioned by GPOS.
    expect(shown(layoutLine('क्षत्रिय द्विवेदी र्क'))[0]).toMatch(/uni0915094D0937 uni093F.04 uni0924094D0930 .* uni0915 uni0930094D@-221,0$/);
  });

  it('shapes Arabic right to left as HarfBuzz does: joining forms, marks stacked, shadda under its vowel', () => {
    const line = layoutLine('مُحَمَّد علي');
    expect(line.rtl).toBe(true);
    expect(shown(line)).toEqual([
      'Pakt-noto-sans-arabic-arabic: twodotshorizontalbelowar@185,-232 uni0649.fina uni0644.medi uni0639.init space uni062F.fina uni064E@120,104 uni0651@128,-96 uni0645.medi uni064E@-6,-106 uni062D.medi uni064F@130,-100 uni0645.init',
    ]);
    // Copying gives the text as typed (NFC), whatever the marks' drawing order.
    expect(line.text).toBe('مُحَمَّد علي');
  });

  it('orders mixed directions by the bidi algorithm, mirroring brackets in right-to-left runs', () => {
    const line = layoutLine('علي (123)');
    expect(line.rtl).toBe(true);
    // Shown left to right: "(123)" (its brackets mirrored back), then the name with the space
    // after it (the space belongs to the Arabic run, and its face has one).
    expect(shown(line)).toEqual(['Helvetica: (', 'Helvetica: 123', 'Helvetica: )', 'Pakt-noto-sans-arabic-arabic: space twodotshorizontalbelowar@185,-232 uni0649.fina uni0644.medi uni0639.init']);
  });

  it('mixes Helvetica and the script faces in one line; Latin beyond WinAnsi uses Noto Sans throughout a word', () => {
    expect(shown(layoutLine('Signed by प्रिया, 2026'))).toEqual([
      'Helvetica: Signed by ',
      'Pakt-noto-sans-devanagari-devanagari: uni093F.05 uni092A094D0930 uni092F uni093E',
      'Helvetica: ,',
      'Pakt-noto-sans-devanagari-devanagari: space',
      'Helvetica: 2026',
    ]);
    expect(shown(layoutLine('Łukasz'))).toEqual(['Pakt-noto-sans-latin-ext: Lslash', 'Pakt-noto-sans-latin: u k a s z']);
    expect(shown(layoutLine('Дмитрий'))[0]).toMatch(/^Pakt-noto-sans-cyrillic: /);
  });

  it('covers the scripts of India that have a face', () => {
    for (const [text, face] of [
      ['বাংলা', 'bengali'],
      ['ગુજરાતી', 'gujarati'],
      ['ਪੰਜਾਬੀ ਸਿੰਘ', 'gurmukhi'],
      ['ଓଡ଼ିଆ', 'oriya'],
      ['தமிழ்', 'tamil'],
      ['తెలుగు', 'telugu'],
      ['ಕನ್ನಡ', 'kannada'],
      ['മലയാളം', 'malayalam'],
    ] as const) {
      const line = layoutLine(text);
      expect(line.unencodable, text).toEqual([]);
      expect(line.runs.map((run) => (run.font === 'helvetica' ? 'helvetica' : run.font.subset)), text).toEqual([face]);
      expect(line.width, text).toBeGreaterThan(0);
    }
  });

  // HarfBuzz (harfbuzzjs 0.3.6 on the same files) draws ש's two marks in the other order, at the
  // same offsets: marks do not advance the pen, so the page looks the same.
  it('shapes Hebrew right to left with its points placed as HarfBuzz does', () => {
    const line = layoutLine('שָׁלוֹם');
    expect(line.rtl).toBe(true);
    expect(shown(line)).toEqual(['Pakt-noto-sans-hebrew-hebrew: uni05DD uni05B9@82,0 uni05D5@-10,0 uni05DC uni05C1@539,0 uni05B8@227,0 uni05E9']);
    expect(shown(layoutLine('Dana כהן'))).toEqual(['Helvetica: Dana ', 'Pakt-noto-sans-hebrew-hebrew: uni05DF uni05D4 uni05DB']);
  });

  it('shapes Thai as HarfBuzz does: vowels and tone marks above, the tone mark made small over a vowel', () => {
    expect(shown(layoutLine('สวัสดี'))).toEqual(['Pakt-noto-sans-thai-thai: uni0E2A uni0E27 uni0E31@10,0 uni0E2A uni0E14 uni0E35']);
    expect(shown(layoutLine('ที่นี่'))).toEqual(['Pakt-noto-sans-thai-thai: uni0E17 uni0E35@-3,0 uni0E48.small@-3,0 uni0E19 uni0E35 uni0E48.small']);
  });

  it('draws what no face has as "?" and reports it', () => {
    const line = layoutLine('नाम 漢字');
    expect(line.unencodable).toEqual(['漢', '字']);
    expect(shown(line).at(-1)).toBe('Helvetica: ??');
  });

  it('records what each glyph stands for, shaped clusters included, and how far the glyphs reach', () => {
    const line = layoutLine('हिन्दी');
    const [face, glyphs] = [...line.glyphText][0]!;
    expect(face.subset).toBe('devanagari');
    expect([...glyphs.values()]).toEqual(['ि', 'ह', 'न्', 'द', 'ी']);
    // The ि and ी loops rise above Helvetica's ascender.
    expect(line.ascent).toBeGreaterThan(0.718);
    expect(line.descent).toBeGreaterThanOrEqual(0);
  });
});
