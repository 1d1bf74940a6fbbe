import { refreshToken, ResponseCode, type SessionUser } from '@pakt/domain';
import { ApiError, createApiClient, type ApiClient } from '../../api/client';
import type { Session, SessionStore } from '../../api/session-store';

/**
 * A session that reaches one ePak only, held apart from the app's own session (its access token in
 * memory, its refresh token in the httpOnly cookie): a signing link's (/emailsign) or an in-person
 * signer's on the host's device. It has no refresh token and never touches the app's cookie; what
 * to do when it runs out is the owner's business (a link is exchanged again, an in-person signing
 * ends).
 */
export interface ScopedSession {
  readonly accessToken: string;
  /** Epoch milliseconds at which the access token stops working. */
  readonly expiresAt: number;
  /** Sent as the tenant header: the ePak's tenant. */
  readonly tenantId: string;
  readonly user: { readonly userId: string; readonly email: string; readonly firstName: string; readonly lastName: string };
}

/** An error envelope answered locally, as the server would word it. */
function jsonError(code: number, status: number, message: string): Response {
  return new Response(JSON.stringify({ code, data: null, message }), { status, headers: { 'Content-Type': 'application/json' } });
}

/** The user a scoped session acts as, in the shape the API client's session carries. */
function sessionUserOf(user: ScopedSession['user']): SessionUser {
  return {
    id: user.userId,
    email: user.email,
    firstName: user.firstName,
    middleName: null,
    lastName: user.lastName,
    type: 'external',
    status: 'enabled',
    isRoot: false,
    totpEnabled: false,
    locale: null,
    tenants: [],
  };
}

function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (index) => [...items.keys()][index] ?? null,
    removeItem: (key) => void items.delete(key),
    setItem: (key, value) => void items.set(key, String(value)),
  };
}

/** Whether a failed call means the scoped session itself is over (not the ePak refusing something). */
export function scopedSessionEnded(error: unknown): boolean {
  return error instanceof ApiError && (error.httpStatus === 401 || error.code === ResponseCode.TOKEN_EXPIRED.code) && error.code !== ResponseCode.INVALID_EASY_SIGN_LINK.code;
}

/**
 * The app's API client, carrying the scoped session (Authorization and its tenant header) instead
 * of the app's. It never redirects (the page explains every failure itself) and never asks the
 * server for a refresh: that attempt is answered here with the 401 it would get.
 */
export function createScopedApiClient(options: {
  readonly current: () => ScopedSession | null;
  readonly clear: () => void;
  readonly storage?: Storage;
  readonly fetch?: typeof fetch;
  readonly now?: () => number;
}): ApiClient['callApi'] {
  const store: SessionStore = {
    storage: options.storage ?? memoryStorage(),
    get(): Session | null {
      const scoped = options.current();
      if (!scoped) return null;
      return { accessToken: scoped.accessToken, expiresAt: scoped.expiresAt, user: sessionUserOf(scoped.user), tenantUuid: scoped.tenantId };
    },
    // Nothing to restore from: a scoped session has no refresh cookie.
    remembered: () => null,
    set() {
      // Only its owner opens a scoped session; the client's token refresh never succeeds here.
    },
    clear: options.clear,
    clearForLogout: options.clear,
    subscribe: () => () => undefined,
  };
  const doFetch = options.fetch ?? ((...args: Parameters<typeof fetch>) => fetch(...args));
  const client = createApiClient({
    session: store,
    fetch: (input, init) =>
      String(input).split('?')[0] === refreshToken.path ? Promise.resolve(jsonError(ResponseCode.INVALID_ACCESS_TOKEN.code, 401, 'A scoped session has no refresh token.')) : doFetch(input, init),
    navigate: () => undefined,
    log: () => undefined,
    // Never asks for the refresh cookie: the app's own session keeps it, and a signing link's or an
    // in-person signer's session must neither replace it nor be restorable from it.
    refreshCookie: false,
    ...(options.now ? { now: options.now } : {}),
  });
  return client.callApi;
}
