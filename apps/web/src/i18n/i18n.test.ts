import { LANGUAGE_CODES, MESSAGE_KEYS } from '@pakt/domain';
import { describe, expect, it } from 'vitest';
import { bundles, chooseLanguage, i18n, LANGUAGE_STORAGE_KEY, readStoredLanguage } from './i18n';

type Tree = { readonly [key: string]: string | Tree };

/** Flattens nested bundles to i18next's dotted keys, each with its text. */
function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const entries = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') entries.set(path, value);
    else flatten(value, path).forEach((text, nested) => entries.set(nested, text));
  }
  return entries;
}

// Every bundle but English is loaded on demand (bundles.ts): load them all, as a reader choosing each would.
const loaded = Object.fromEntries(await Promise.all(LANGUAGE_CODES.map(async (code) => [code, (await bundles[code]()) as Tree] as const)));
const flat = Object.fromEntries(LANGUAGE_CODES.map((code) => [code, flatten(loaded[code]!)]));
const reference = flat.en!;

describe('language bundles', () => {
  it.each(LANGUAGE_CODES)('%s has exactly the key set of the English bundle', (code) => {
    expect([...flat[code]!.keys()].sort()).toEqual([...reference.keys()].sort());
  });

  it.each(LANGUAGE_CODES)('%s defines every message key of spec section 8', (code) => {
    const missing = MESSAGE_KEYS.filter((key) => !flat[code]!.has(key));
    expect(missing).toEqual([]);
  });

  it.each(LANGUAGE_CODES)('%s has no empty text', (code) => {
    const empty = [...flat[code]!].filter(([, text]) => text.trim() === '').map(([key]) => key);
    expect(empty).toEqual([]);
  });

  it('Hindi is a translation, not a copy: its messages are written in Devanagari', () => {
    const untranslated = MESSAGE_KEYS.filter((key) => !/[\u0900-\u097F]/.test(flat.hi!.get(key) ?? ''));
    expect(untranslated).toEqual([]);
  });

  it.each(LANGUAGE_CODES)('%s uses the same interpolation variables as English', (code) => {
    const variables = (text: string) => [...text.matchAll(/{{\s*(\w+)\s*}}/g)].map((match) => match[1]).sort();
    const mismatched = [...reference].filter(([key, text]) => {
      return JSON.stringify(variables(text)) !== JSON.stringify(variables(flat[code]!.get(key) ?? ''));
    });
    expect(mismatched.map(([key]) => key)).toEqual([]);
  });
});

describe('language choice', () => {
  it('remembers the chosen language and marks the document with it', async () => {
    await chooseLanguage('hi');
    expect(window.localStorage.getItem(LANGUAGE_STORAGE_KEY)).toBe('hi');
    expect(readStoredLanguage()).toBe('hi');
    expect(document.documentElement.lang).toBe('hi');
    expect(i18n.t('passwordMissMatch')).toBe(flat.hi!.get('passwordMissMatch'));
  });

  it('ignores a stored value that is not a shipped language', () => {
    window.localStorage.setItem(LANGUAGE_STORAGE_KEY, 'xx');
    expect(readStoredLanguage()).toBeNull();
  });
});
