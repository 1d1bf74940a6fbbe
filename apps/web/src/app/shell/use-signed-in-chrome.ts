import { useEffect, useState } from 'react';
import type * as SignedInChromeModule from './signed-in-chrome';

export type SignedInChrome = typeof SignedInChromeModule;

let loaded: SignedInChrome | null = null;
let loading: Promise<SignedInChrome> | null = null;

/** Fetches the signed-in frame's chunk (signed-in-chrome.ts) once; a failed fetch is tried again next time. */
export function loadSignedInChrome(): Promise<SignedInChrome> {
  loading ??= import('./signed-in-chrome').then(
    (module) => (loaded = module),
    (error: unknown) => {
      loading = null;
      throw error;
    },
  );
  return loading;
}

/**
 * The signed-in frame's components, or null: while nobody is signed in, and while its chunk is
 * still on its way (those parts of the header then appear a moment after the page).
 */
export function useSignedInChrome(signedIn: boolean): SignedInChrome | null {
  const [chrome, setChrome] = useState<SignedInChrome | null>(loaded);
  useEffect(() => {
    if (!signedIn || chrome) return;
    let current = true;
    loadSignedInChrome().then(
      (module) => {
        if (current) setChrome(module);
      },
      // Offline, say: the page works without its menus; the next sign-in or page tries again.
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [signedIn, chrome]);
  return signedIn ? (chrome ?? loaded) : null;
}
