import * as fontkit from 'fontkit';
import { describe, expect, it } from 'vitest';
import { faceFor, parseUnicodeRange, readSfntTables, subsetTrueType, toUnicodeCMap, unicodeFaces, type UnicodeFace } from './unicode-font';

const face = (subset: string): UnicodeFace => unicodeFaces().find((candidate) => candidate.subset === subset)!;

/** The sum of a font's 32-bit words: 0xB1B0AFBA for a font whose head adjustment is right. */
function fileChecksum(font: Buffer): number {
  let sum = 0;
  for (let i = 0; i < font.length; i += 4) sum = (sum + font.readUInt32BE(i)) >>> 0;
  return sum;
}

describe('Unicode faces', () => {
  it('reads unicode ranges and picks a face by the characters it has', () => {
    expect(parseUnicodeRange('U+0900-097F,U+20B9')).toEqual([
      [0x900, 0x97f],
      [0x20b9, 0x20b9],
    ]);
    expect(faceFor(0x939)?.subset).toBe('devanagari');
    expect(faceFor(0x644)?.subset).toBe('arabic');
    expect(faceFor(0x141)?.subset).toBe('latin-ext');
    expect(faceFor(0x6f22)).toBeUndefined();
  });

  it('decodes the shipped WOFF files into TrueType fonts with their layout tables', () => {
    const devanagari = face('devanagari');
    expect(devanagari.font.postscriptName).toBe('NotoSansDevanagari-Regular');
    expect([...devanagari.tables.keys()]).toEqual(expect.arrayContaining(['glyf', 'loca', 'GSUB', 'GPOS', 'hmtx']));
  });
});

describe('subsets that keep glyph ids', () => {
  it('keeps the glyphs asked for, at their ids, and empties the others', () => {
    const devanagari = face('devanagari');
    const ids = [541, 88, 245, 73, 33];
    const subset = subsetTrueType(devanagari.tables, ids);
    expect(fileChecksum(subset)).toBe(0xb1b0afba);
    const font = fontkit.create(subset);
    expect(font.numGlyphs).toBe(542);
    for (const id of ids) {
      const [before, after] = [devanagari.font.getGlyph(id), font.getGlyph(id)];
      expect(after.cbox, `glyph ${id}`).toEqual(before.cbox);
      expect(after.advanceWidth).toBe(before.advanceWidth);
      expect(JSON.stringify(after.path.commands)).toBe(JSON.stringify(before.path.commands));
    }
    expect(font.getGlyph(100).path.commands).toEqual([]);
    // A few kilobytes, where the face is 290 KB.
    expect(subset.length).toBeLessThan(8000);
    expect(readSfntTables(subset).has('GSUB')).toBe(false);
  });

  it('keeps the glyphs a composite glyph is built from', () => {
    const latinExt = face('latin-ext');
    const glyf = latinExt.tables.get('glyf')!;
    const loca = latinExt.tables.get('loca')!;
    const long = latinExt.tables.get('head')!.readInt16BE(50) === 1;
    const offset = (id: number) => (long ? loca.readUInt32BE(id * 4) : loca.readUInt16BE(id * 2) * 2);
    const composite = [...Array(latinExt.font.numGlyphs).keys()].find((id) => offset(id + 1) > offset(id) && glyf.readInt16BE(offset(id)) < 0);
    expect(composite).toBeDefined();
    const font = fontkit.create(subsetTrueType(latinExt.tables, [composite!]));
    expect(JSON.stringify(font.getGlyph(composite!).path.commands)).toBe(JSON.stringify(latinExt.font.getGlyph(composite!).path.commands));
    expect(font.getGlyph(composite!).path.commands.length).toBeGreaterThan(0);
  });

  it('maps glyphs back to text in a ToUnicode CMap, clusters to all their characters', () => {
    const cmap = toUnicodeCMap(
      new Map([
        [0x245, 'न्'],
        [0x21d, 'ि'],
        [0x124, ''],
      ]),
    ).toString('latin1');
    expect(cmap).toContain('2 beginbfchar\n<021D> <093F>\n<0245> <0928094D>\nendbfchar');
    expect(cmap).toContain('/CMapType 2 def');
  });
});
