/**
 * The supported fonts of spec §9 ("a list of supported fonts"; a font family is a name and a
 * url, spec §3). The spec does not name them; ours are the three PDF standard fonts, which every
 * PDF reader has without embedding, and the Noto families that cover the scripts our languages
 * and users write in (Latin, Devanagari, Arabic), which stamping embeds. `css` is the stack the
 * editor previews a tag with, falling back to look-alikes where the font is not installed; `url`
 * is absent for the standard fonts (nothing to load) and left to the deployment for the others.
 */
export interface SupportedFont {
  readonly name: string;
  readonly css: string;
  readonly url?: string;
}

export const SUPPORTED_FONTS = [
  { name: 'Helvetica', css: 'Helvetica, Arial, sans-serif' },
  { name: 'Times', css: '"Times New Roman", Times, serif' },
  { name: 'Courier', css: '"Courier New", Courier, monospace' },
  { name: 'Noto Sans', css: '"Noto Sans", sans-serif' },
  { name: 'Noto Sans Devanagari', css: '"Noto Sans Devanagari", "Noto Sans", sans-serif' },
  { name: 'Noto Naskh Arabic', css: '"Noto Naskh Arabic", "Noto Sans", serif' },
] as const satisfies readonly SupportedFont[];

export type SupportedFontName = (typeof SUPPORTED_FONTS)[number]['name'];

// A tag without a fontFamily is drawn in this one: a standard font, so nothing needs embedding.
export const DEFAULT_FONT_FAMILY = 'Helvetica' satisfies SupportedFontName;

export function isSupportedFont(name: string): name is SupportedFontName {
  return SUPPORTED_FONTS.some((font) => font.name === name);
}
