/**
 * The parts of the font libraries the appearances use; none of them ships its own types.
 */

declare module 'fontkit' {
  export interface BBox {
    readonly minX: number;
    readonly minY: number;
    readonly maxX: number;
    readonly maxY: number;
  }
  export interface Glyph {
    readonly id: number;
    readonly name?: string;
    /** The characters the glyph stands for (after ligatures, all of them; none for a split part). */
    readonly codePoints: readonly number[];
    readonly advanceWidth: number;
    /** The control box from the glyph's header: cheap, and a bound of the outline. */
    readonly cbox: BBox;
    readonly path: { readonly commands: ReadonlyArray<{ readonly command: string; readonly args: readonly number[] }> };
  }
  export interface GlyphPosition {
    readonly xAdvance: number;
    readonly yAdvance: number;
    readonly xOffset: number;
    readonly yOffset: number;
  }
  /** Glyphs in visual order, left to right (a right-to-left run comes reversed). */
  export interface GlyphRun {
    readonly glyphs: readonly Glyph[];
    readonly positions: readonly GlyphPosition[];
    readonly direction: 'ltr' | 'rtl';
  }
  export interface Font {
    readonly postscriptName: string;
    readonly unitsPerEm: number;
    readonly ascent: number;
    readonly descent: number;
    readonly capHeight: number;
    readonly italicAngle: number;
    readonly numGlyphs: number;
    readonly bbox: BBox;
    hasGlyphForCodePoint(codePoint: number): boolean;
    glyphForCodePoint(codePoint: number): Glyph;
    getGlyph(id: number): Glyph;
    layout(text: string, features?: string[] | Record<string, boolean>, script?: string, language?: string, direction?: 'ltr' | 'rtl'): GlyphRun;
  }
  export function create(data: Buffer | Uint8Array, postscriptName?: string): Font;
}

declare module 'bidi-js' {
  export interface EmbeddingLevels {
    readonly levels: Uint8Array;
    readonly paragraphs: ReadonlyArray<{ readonly start: number; readonly end: number; readonly level: number }>;
  }
  export interface Bidi {
    getEmbeddingLevels(text: string, explicitDirection?: 'ltr' | 'rtl'): EmbeddingLevels;
    getMirroredCharacter(char: string): string | null;
  }
  export default function bidiFactory(): Bidi;
}

declare module 'unicode-properties' {
  /** The Unicode Script property by its long name: 'Latin', 'Devanagari', 'Common', 'Inherited'... */
  export function getScript(codePoint: number): string;
  const properties: { getScript: typeof getScript };
  export default properties;
}
