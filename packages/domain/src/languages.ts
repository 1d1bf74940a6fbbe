import { z } from 'zod';

/** Languages Pakt ships bundles for; the supportedLanguages setting narrows this list. */
export const LANGUAGES = [
  { code: 'en', nativeName: 'English' },
  { code: 'hi', nativeName: 'हिन्दी' },
] as const;

export const LANGUAGE_CODES = ['en', 'hi'] as const;
export const LanguageCode = z.enum(LANGUAGE_CODES);
export type LanguageCode = z.infer<typeof LanguageCode>;

export const DEFAULT_LANGUAGE: LanguageCode = 'en';
