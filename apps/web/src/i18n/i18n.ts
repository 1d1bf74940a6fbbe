import { DEFAULT_LANGUAGE, LANGUAGE_CODES, LanguageCode } from '@pakt/domain';
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { STORAGE_KEYS } from '../api/storage-keys';
import en from './en.json';
import hi from './hi.json';

/** Every shipped bundle; a language of `LANGUAGE_CODES` without one here fails the build. */
export const bundles = { en, hi } satisfies Record<LanguageCode, unknown>;

export const LANGUAGE_STORAGE_KEY = STORAGE_KEYS.language;

/** Storage can throw (disabled cookies, private modes); a lost preference must not break the app. */
export function readStoredLanguage(): LanguageCode | null {
  try {
    const parsed = LanguageCode.safeParse(window.localStorage.getItem(LANGUAGE_STORAGE_KEY));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

function storeLanguage(code: LanguageCode): void {
  try {
    window.localStorage.setItem(LANGUAGE_STORAGE_KEY, code);
  } catch {
    // The choice still applies to this visit; only remembering it is lost.
  }
}

export function currentLanguage(): LanguageCode {
  const parsed = LanguageCode.safeParse(i18n.resolvedLanguage ?? i18n.language);
  return parsed.success ? parsed.data : DEFAULT_LANGUAGE;
}

/** A language the person picked: remembered across visits, unlike one applied from configuration. */
export async function chooseLanguage(code: LanguageCode): Promise<void> {
  storeLanguage(code);
  await i18n.changeLanguage(code);
}

export async function applyLanguage(code: LanguageCode): Promise<void> {
  if (currentLanguage() !== code) await i18n.changeLanguage(code);
}

function reflectOnDocument(language: string): void {
  document.documentElement.lang = language;
  document.documentElement.dir = i18n.dir(language);
}

void i18n.use(initReactI18next).init({
  resources: Object.fromEntries(
    Object.entries(bundles).map(([code, translation]) => [code, { translation }]),
  ),
  lng: readStoredLanguage() ?? DEFAULT_LANGUAGE,
  fallbackLng: DEFAULT_LANGUAGE,
  supportedLngs: [...LANGUAGE_CODES],
  // Bundles are imported, so initialising synchronously avoids a first render of raw keys.
  initAsync: false,
  interpolation: { escapeValue: false },
});

i18n.on('languageChanged', reflectOnDocument);
reflectOnDocument(i18n.language);

export { i18n };
