import type en from './en.json';

// English is the reference bundle: typing keys from it makes a misspelt key a compile error.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof en };
  }
}
