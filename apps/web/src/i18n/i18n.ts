import { DEFAULT_LANGUAGE, LANGUAGE_CODES, LanguageCode } from '@pakt/domain';
import i18n, { type BackendModule } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { STORAGE_KEYS } from '../api/storage-keys';
import { bundles } from './bundles';
import en from './en.json';

export { bundles };

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

/**
 * Fetches a language's bundle (bundles.ts) the first time i18next needs it: when the language is
 * chosen, applied from configuration or stored from an earlier visit. i18next switches only once
 * the bundle is in, so changeLanguage() resolves with the texts ready and no raw keys are shown.
 */
const bundleLoader: BackendModule = {
  type: 'backend',
  // read() returns a promise instead of taking a callback.
  callbackApi: false,
  init: () => undefined,
  read: async (language: string) => {
    const code = LanguageCode.safeParse(language);
    // Only shipped languages are asked for (supportedLngs); anything else has no texts of its own.
    return code.success ? bundles[code.data]() : {};
  },
};

/**
 * Resolves once the starting language's texts are loaded: at once for English (in the script),
 * after its bundle's download for a stored other language. main.tsx waits for it before the first
 * render, so a returning Hindi reader never sees English or raw keys flash first.
 */
export const languageReady: Promise<unknown> = i18n
  .use(bundleLoader)
  .use(initReactI18next)
  .init({
    resources: { [DEFAULT_LANGUAGE]: { translation: en } },
    // English is given above; the other languages come through bundleLoader when needed.
    partialBundledLanguages: true,
    lng: readStoredLanguage() ?? DEFAULT_LANGUAGE,
    fallbackLng: DEFAULT_LANGUAGE,
    supportedLngs: [...LANGUAGE_CODES],
    // English is in the script, so starting in it is synchronous (the tests rely on that).
    initAsync: false,
    interpolation: { escapeValue: false },
  });

i18n.on('languageChanged', reflectOnDocument);
reflectOnDocument(i18n.language);

export { i18n };
