import type { LanguageCode } from '@pakt/domain';
import en from './en.json';

/** A language's texts, as i18next's `translation` namespace holds them. */
export type Bundle = Record<string, unknown>;

/**
 * Every shipped bundle, by language; a language of `LANGUAGE_CODES` without one here fails the
 * build. English, the default and the fallback, is part of the app's own script. Every other
 * language is a file of its own, fetched only by a browser that shows it: Hindi alone weighed
 * 33 KB compressed, which every first visit paid for when all bundles were imported up front.
 */
export const bundles = {
  en: () => Promise.resolve(en),
  hi: () => import('./hi.json').then((module) => module.default),
} satisfies Record<LanguageCode, () => Promise<Bundle>>;
