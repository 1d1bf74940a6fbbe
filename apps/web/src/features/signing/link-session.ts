import { EasyToken, exchangeEasyToken, type EndpointData } from '@pakt/domain';
import type { ApiClient } from '../../api/client';
import { createScopedApiClient, scopedSessionEnded } from './scoped-client';

/**
 * A signing link's session (/emailsign?token=…): the access token the link was exchanged for,
 * good for one ePak of one tenant. It is kept apart from the app's own session (its access token
 * in memory, its refresh cookie untouched: this session has none) in this tab's sessionStorage
 * under a key of its own, so opening a link never
 * signs anyone out nor borrows their session, and a reload of the page does not need the link
 * exchanged again while the token lasts.
 */
export const LINK_SESSION_KEY = 'pakt.signingLink';

export type ExchangeAnswer = EndpointData<typeof exchangeEasyToken>;

export interface LinkSession {
  /** The link's token, so a stored session is only reused for the same link. */
  readonly easyToken: string;
  readonly accessToken: string;
  /** Epoch milliseconds at which the access token stops working. */
  readonly expiresAt: number;
  readonly ePakId: string;
  readonly tenantId: string;
  readonly user: ExchangeAnswer['user'];
}

/** A link is worth exchanging again this long before its session runs out (a slow sign takes a while). */
const RENEW_BEFORE_MS = 30_000;

export function isEasyToken(token: string | null): token is string {
  return token !== null && EasyToken.safeParse(token).success;
}

function readStored(storage: Storage | undefined): LinkSession | null {
  try {
    const raw = storage?.getItem(LINK_SESSION_KEY);
    if (!raw) return null;
    const parsed = JSON.parse(raw) as Partial<LinkSession>;
    if (typeof parsed.easyToken !== 'string' || typeof parsed.accessToken !== 'string' || typeof parsed.expiresAt !== 'number') return null;
    if (typeof parsed.ePakId !== 'string' || typeof parsed.tenantId !== 'string' || !parsed.user) return null;
    return parsed as LinkSession;
  } catch {
    return null;
  }
}

function browserSessionStorage(): Storage | undefined {
  try {
    return window.sessionStorage;
  } catch {
    return undefined;
  }
}

export interface LinkClient {
  readonly callApi: ApiClient['callApi'];
  /** The session for this link: the one kept for it, or a new exchange (-42 thrown as ApiError). */
  open(): Promise<LinkSession>;
  current(): LinkSession | null;
}

/**
 * A client whose calls carry the link's session (Authorization and the tenant header of the
 * exchange). The link has no refresh token: when its session runs out the link itself is
 * exchanged again, once, and the call retried; a link no longer valid then fails with -42.
 */
export function createLinkClient(easyToken: string, options: { storage?: Storage; fetch?: typeof fetch; now?: () => number } = {}): LinkClient {
  const storage = options.storage ?? browserSessionStorage();
  const now = options.now ?? Date.now;
  let memory: LinkSession | null = null;

  const load = (): LinkSession | null => {
    const stored = readStored(storage) ?? memory;
    return stored && stored.easyToken === easyToken ? stored : null;
  };
  const save = (session: LinkSession | null) => {
    memory = session;
    try {
      if (session) storage?.setItem(LINK_SESSION_KEY, JSON.stringify(session));
      else storage?.removeItem(LINK_SESSION_KEY);
    } catch {
      // Kept in memory only: a reload will exchange the link again.
    }
  };

  // The link's own session, never the app's: no redirects (the signing page explains every
  // failure itself), and no refresh token (the exchange below takes its place).
  const scopedCall = createScopedApiClient({
    current: load,
    clear: () => save(null),
    ...(storage ? { storage } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
    now,
  });
  const client = { callApi: scopedCall };

  let exchanging: Promise<LinkSession> | null = null;
  const exchange = (): Promise<LinkSession> => {
    exchanging ??= (async () => {
      save(null);
      try {
        const answer = await client.callApi(exchangeEasyToken, { params: { easytoken: easyToken } }, { failures: 'caller' });
        const session: LinkSession = { easyToken, accessToken: answer.accessToken, expiresAt: now() + answer.expiresIn * 1000, ePakId: answer.ePakId, tenantId: answer.tenantId, user: answer.user };
        save(session);
        return session;
      } finally {
        exchanging = null;
      }
    })();
    return exchanging;
  };

  const open = async (): Promise<LinkSession> => {
    const kept = load();
    if (kept && kept.expiresAt - now() > RENEW_BEFORE_MS) return kept;
    return exchange();
  };

  const callApi: ApiClient['callApi'] = async (endpoint, ...args) => {
    await open();
    try {
      return await client.callApi(endpoint, ...args);
    } catch (error) {
      if (!scopedSessionEnded(error)) throw error;
      await exchange();
      return client.callApi(endpoint, ...args);
    }
  };

  return { callApi, open, current: load };
}
