import { LANGUAGES, type LanguageCode } from '@pakt/domain';
import { useEffect } from 'react';
import { usePublicConfiguration } from '../api/public-queries';
import { applyLanguage, readStoredLanguage } from './i18n';

export interface LanguageOption {
  readonly code: LanguageCode;
  readonly nativeName: string;
}

/** Languages offered to the user: the shipped ones, narrowed by the supportedLanguages setting. */
export function useLanguageOptions(): readonly LanguageOption[] {
  const { data } = usePublicConfiguration();
  if (!data) return LANGUAGES;
  const supported = new Set<LanguageCode>(data.supportedLanguages);
  const options = LANGUAGES.filter((language) => supported.has(language.code));
  return options.length > 0 ? options : LANGUAGES;
}

/**
 * Keeps the active language within what the deployment supports: a remembered choice wins when
 * still supported, otherwise the configured default applies (without being remembered, so a later
 * change of the default reaches this browser too).
 */
export function useLanguageSync(): void {
  const { data } = usePublicConfiguration();
  useEffect(() => {
    if (!data) return;
    const supported = new Set<LanguageCode>(data.supportedLanguages);
    const stored = readStoredLanguage();
    if (stored && supported.has(stored)) return;
    void applyLanguage(data.defaultLanguage);
  }, [data]);
}
