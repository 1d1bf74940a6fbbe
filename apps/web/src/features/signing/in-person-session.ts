import type { authorizeInPersonSigner, EndpointData } from '@pakt/domain';
import type { ApiClient } from '../../api/client';
import { createScopedApiClient, scopedSessionEnded, type ScopedSession } from './scoped-client';

export type InPersonSigner = EndpointData<typeof authorizeInPersonSigner>['signer'];

export interface InPersonClient {
  readonly callApi: ApiClient['callApi'];
  readonly signer: InPersonSigner;
  /** Keeps the signer's cached answers apart from the host's, and from an earlier in-person turn. */
  readonly scope: string;
}

let turns = 0;

/**
 * INPERSONSIGN on the host's device: the sign-auth token the signer's code was exchanged for is a
 * session of the signer, for this ePak only. It lives in this object, in memory, and nowhere else:
 * the host's own session (its access token in memory, its refresh token in the httpOnly cookie) is
 * never replaced nor touched, and a reload or leaving the page ends the signer's turn. `onEnded` is told when the token has run out
 * (it has no refresh; the host asks for a new code).
 */
export function createInPersonClient(
  grant: { readonly signAuthToken: string; readonly expiresIn: number; readonly signer: InPersonSigner },
  tenantId: string,
  options: { readonly onEnded?: () => void; readonly fetch?: typeof fetch; readonly now?: () => number } = {},
): InPersonClient {
  const now = options.now ?? Date.now;
  let session: ScopedSession | null = { accessToken: grant.signAuthToken, expiresAt: now() + grant.expiresIn * 1000, tenantId, user: grant.signer };
  const scopedCall = createScopedApiClient({
    current: () => session,
    clear: () => {
      session = null;
    },
    ...(options.fetch ? { fetch: options.fetch } : {}),
    now,
  });
  const callApi: ApiClient['callApi'] = async (endpoint, ...args) => {
    try {
      return await scopedCall(endpoint, ...args);
    } catch (error) {
      if (scopedSessionEnded(error)) {
        session = null;
        options.onEnded?.();
      }
      throw error;
    }
  };
  turns += 1;
  return { callApi, signer: grant.signer, scope: `inperson:${grant.signer.userId}:${turns}` };
}
