import { createContext, useContext, type ReactNode } from 'react';
import type { ApiClient } from './client';

/**
 * The ceremony is the same screen for a signed-in recipient (/sign) and for someone who came
 * through a signing link (/emailsign); only the session its calls carry differs. Each page
 * provides the client to use, so the ceremony never reaches for the app's own session.
 */
export interface SigningApi {
  readonly callApi: ApiClient['callApi'];
  /** Keeps the cached answers of one session apart from another's (tenant, or the link). */
  readonly scope: string;
}

const SigningApiContext = createContext<SigningApi | null>(null);

export function SigningApiProvider({ api, children }: { readonly api: SigningApi; readonly children: ReactNode }) {
  return <SigningApiContext.Provider value={api}>{children}</SigningApiContext.Provider>;
}

export function useSigningApi(): SigningApi {
  const api = useContext(SigningApiContext);
  if (!api) throw new Error('useSigningApi needs a SigningApiProvider');
  return api;
}

