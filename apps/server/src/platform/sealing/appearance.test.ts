import { describe, expect, it } from 'vitest';
import { encodeText, literalString, num, rotationMatrix, textAppearance } from './appearance';

describe('appearance text', () => {
  it('encodes WinAnsi, measures with Helvetica widths and reports what it cannot draw', () => {
    const plain = encodeText('Asha Rao');
    expect(plain.bytes.toString('latin1')).toBe('Asha Rao');
    // Helvetica: A 667, s 500, h 556, a 556, space 278, R 722, a 556, o 556.
    expect(plain.width).toBeCloseTo((667 + 500 + 556 + 556 + 278 + 722 + 556 + 556) / 1000, 6);
    const euro = encodeText('€ 5');
    expect([...euro.bytes]).toEqual([0x80, 0x20, 0x35]);
    expect(encodeText('आशा').unencodable).toEqual(['आ', 'श', 'ा']);
  });

  it('escapes what a literal string needs', () => {
    expect(literalString(Buffer.from('a(b)c\\d', 'latin1'))).toBe('(a\\(b\\)c\\\\d)');
    expect(literalString(Buffer.from([0x0a, 0xe9]))).toBe('(\\012\\351)');
  });

  it('writes numbers without exponents or negative zero', () => {
    expect(num(1e-7)).toBe('0');
    expect(num(-0.00001)).toBe('0');
    expect(num(12.345678)).toBe('12.3457');
    expect(() => num(Number.NaN)).toThrow(RangeError);
  });
});

describe('text appearance', () => {
  it('shrinks the font until the longest line fits, and clips to the box', () => {
    const appearance = textAppearance({ width: 60, height: 20, rotate: 0, lines: ['A rather long signer name'] });
    const size = Number(/\/PaktHelv ([\d.]+) Tf/.exec(appearance.content.toString('latin1'))![1]);
    expect(encodeText('A rather long signer name').width * size).toBeLessThanOrEqual(60 - 4 + 1e-9);
    expect(appearance.content.toString('latin1')).toContain('0 0 60 20 re W n');
    expect(appearance.bbox).toEqual([0, 0, 60, 20]);
  });

  it('turns against the page so it reads upright, its box filling the rect', () => {
    const shown = { width: 150, height: 50 };
    const corners = (m: readonly number[]) =>
      [
        [0, 0],
        [150, 0],
        [0, 50],
        [150, 50],
      ].map(([x, y]) => [m[0]! * x! + m[2]! * y! + m[4]!, m[1]! * x! + m[3]! * y! + m[5]!]);
    for (const rotate of [0, 90, 180, 270] as const) {
      const points = corners(rotationMatrix(rotate, shown));
      const xs = points.map((p) => p[0]!);
      const ys = points.map((p) => p[1]!);
      const turned = rotate === 90 || rotate === 270;
      expect([Math.min(...xs), Math.min(...ys)]).toEqual([0, 0]);
      expect([Math.max(...xs), Math.max(...ys)]).toEqual(turned ? [50, 150] : [150, 50]);
    }
  });
});

describe('text beyond WinAnsi', () => {
  it('leaves WinAnsi text exactly as it was: Helvetica, no marked content, nothing embedded', () => {
    const appearance = textAppearance({ width: 150, height: 50, rotate: 0, lines: ['Signed by Asha Rao', '2026-11-22 10:00 UTC'], border: true });
    expect(appearance.content.toString('latin1')).toBe(
      'q\n0 0 150 50 re W n\n0.2 0.2 0.5 RG 0.75 w\n0.375 0.375 149.25 49.25 re S\nBT\n/PaktHelv 12 Tf\n0 g\n1 0 0 1 2 39.384 Tm\n(Signed by Asha Rao) Tj\n1 0 0 1 2 25.584 Tm\n(2026-11-22 10:00 UTC) Tj\nET\nQ',
    );
    expect([appearance.usesFont, appearance.unicodeFonts, appearance.unencodable]).toEqual([true, [], []]);
  });

  it('draws Hindi with the embedded face by glyph id, marked with the text as typed, shrunk to fit', () => {
    const appearance = textAppearance({ width: 40, height: 20, rotate: 0, lines: ['हिन्दी हिन्दी'] });
    const content = appearance.content.toString('latin1');
    expect(appearance.usesFont).toBe(false);
    expect(content).not.toContain('PaktHelv');
    expect(appearance.unicodeFonts?.map((use) => use.face.resourceKey)).toEqual(['Pakt-noto-sans-devanagari-devanagari']);
    expect([...appearance.unicodeFonts![0]!.glyphs.keys()].sort((a, b) => a - b)).toEqual([3, 33, 73, 88, 245, 541]);
    expect(content).toContain(`/Span << /ActualText <FEFF${Buffer.from('हिन्दी हिन्दी', 'utf16le').swap16().toString('hex').toUpperCase()}> >> BDC`);
    // ि (glyph 541 = 0x21d) is drawn first, before ह.
    expect(content).toMatch(/\[<021d> <0058> <00f5> /);
    const size = Number(/\/Pakt-noto-sans-devanagari-devanagari ([\d.]+) Tf/.exec(content)![1]);
    expect(size).toBeLessThan(12);
    expect(appearance.unencodable).toEqual([]);
  });
});
