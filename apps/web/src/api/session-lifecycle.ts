import { logout, stopSessionTimer, TOKEN_REFRESH_CALL_TIME, uisSessionLength, type TokenGrant, usersValid } from '@pakt/domain';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { apiClient, type ApiClient } from './client';
import { withReturnTo } from './return-to';
import { PUBLIC_QUERY_SCOPE } from './public-queries';
import { refreshSessionUser, sessionStore, startSession, useSession, type SessionStore } from './session-store';

/** setTimeout overflows above 2^31 − 1 ms and would fire at once; no session lasts that long. */
const MAX_TIMEOUT_MS = 2_147_483_647;

/**
 * Spec section 4, "User session (UIS)": its length is the token expiry minus the correction
 * (SESSION_CORRECTION, 120 s), at least 1 s. The expiry is counted from `now`, so a page reloaded
 * halfway through a session gets only what is left of it.
 */
export function uisTimeoutMs(expiresAt: number, now: number): number {
  const tokenExpirySeconds = Math.floor((expiresAt - now) / 1000);
  return Math.min(uisSessionLength(tokenExpirySeconds) * 1000, MAX_TIMEOUT_MS);
}

/**
 * Whether activity now should renew the tokens ahead of time: within TOKEN_REFRESH_CALL_TIME
 * seconds of expiry (the spec's "token refresh call time: 300", read as seconds before expiry).
 * Without it the UIS timer would end every session 13 minutes after sign-in however busy the person
 * is; with it, only someone idle through the last minutes of a token is signed out.
 */
export function shouldRenewSoon(expiresAt: number, now: number): boolean {
  return expiresAt - now <= TOKEN_REFRESH_CALL_TIME * 1000;
}

/**
 * Ends the session on the server, then clears storage by the logout rule. A failed logout call
 * (server unreachable, token already dead) must not keep anyone signed in here, so it is ignored.
 */
export async function endSession(
  client: ApiClient = apiClient,
  store: SessionStore = sessionStore,
  reason: LogoutReason = 'logout',
): Promise<void> {
  if (store.get()) {
    try {
      // The server records which it was: a person logging out, or the session timer running out.
      await client.callApi(reason === 'sessionExpired' ? stopSessionTimer : logout, undefined, { failures: 'caller' });
    } catch {
      // The tokens die with their expiry; locally the session ends regardless.
    }
  }
  store.clearForLogout();
}

export type LogoutReason = 'logout' | 'sessionExpired';

/** Where logout leads; the login page explains an ended session (spec section 4: "alerted"). */
export const loginPathAfter = (reason: LogoutReason) => (reason === 'sessionExpired' ? '/login?session=expired' : '/login');

/** Whatever was fetched for someone must not be shown to whoever signs in next. */
function forgetPrivateAnswers(queryClient: ReturnType<typeof useQueryClient>): void {
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== PUBLIC_QUERY_SCOPE });
}

/**
 * Sign-in as the login, setup and registration pages do it. A session that ended without logout
 * (a failed refresh) leaves its answers cached; they go before the new person's session starts.
 */
export function useStartSession(store: SessionStore = sessionStore) {
  const queryClient = useQueryClient();
  return useCallback(
    (grant: TokenGrant) => {
      forgetPrivateAnswers(queryClient);
      return startSession(grant, store);
    },
    [queryClient, store],
  );
}

/** Logout as the header and the session timer use it: end, forget private data, go to login. */
export function useLogout(client: ApiClient = apiClient, store: SessionStore = sessionStore) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const location = useLocation();
  return useCallback(
    async (reason: LogoutReason = 'logout') => {
      await endSession(client, store, reason);
      // The public configuration stays: it is the same for everyone.
      forgetPrivateAnswers(queryClient);
      // A session that ran out brings the person back to the page they were on once they sign in
      // again; logging out on purpose does not.
      const here = `${location.pathname}${location.search}${location.hash}`;
      await navigate(reason === 'sessionExpired' ? withReturnTo(loginPathAfter(reason), here) : loginPathAfter(reason), { replace: true });
    },
    [client, store, queryClient, navigate, location],
  );
}

/** Runs `onExpire` when the UIS session of the current tokens ends; re-armed whenever they change. */
export function useSessionTimer(onExpire: () => void, store: SessionStore = sessionStore): void {
  const expiresAt = useSession(store)?.expiresAt;
  const latest = useRef(onExpire);
  useEffect(() => {
    latest.current = onExpire;
  });
  useEffect(() => {
    if (expiresAt === undefined) return;
    const timer = window.setTimeout(() => latest.current(), uisTimeoutMs(expiresAt, Date.now()));
    return () => window.clearTimeout(timer);
  }, [expiresAt]);
}

/** How long before the UIS session ends the person is warned and may stay (issue 22). */
export const IDLE_WARNING_MS = 60_000;

/**
 * The moment the UIS session of the current tokens ends (epoch ms), from IDLE_WARNING_MS before
 * it on; null until then. It counts from the same tokens as useSessionTimer and changes none of
 * its rules: new tokens (activity, "Stay signed in", another tab) re-arm it and take the warning
 * away, and a session shorter than the warning is warned at once.
 */
export function useIdleWarning(store: SessionStore = sessionStore): number | null {
  const expiresAt = useSession(store)?.expiresAt;
  // Kept with the tokens it was armed for, so new tokens clear it without an effect setting state.
  const [warning, setWarning] = useState<{ readonly expiresAt: number; readonly endsAt: number } | null>(null);
  useEffect(() => {
    if (expiresAt === undefined) return;
    const timeout = uisTimeoutMs(expiresAt, Date.now());
    const endsAt = Date.now() + timeout;
    const timer = window.setTimeout(() => setWarning({ expiresAt, endsAt }), Math.max(0, timeout - IDLE_WARNING_MS));
    return () => window.clearTimeout(timer);
  }, [expiresAt]);
  return warning !== null && warning.expiresAt === expiresAt ? warning.endsAt : null;
}

const ACTIVITY_EVENTS = ['pointerdown', 'keydown'] as const;
/** After a renewal that did not succeed, activity waits this long before asking again. */
const RENEW_BACKOFF_MS = 30_000;

/** Renews the tokens when the person is active close to their expiry (see shouldRenewSoon). */
export function useSessionKeepAlive(client: ApiClient = apiClient, store: SessionStore = sessionStore): void {
  const signedIn = useSession(store) !== null;
  useEffect(() => {
    if (!signedIn) return;
    let notBefore = 0;
    const onActivity = () => {
      const current = store.get();
      const now = Date.now();
      if (!current || now < notBefore || !shouldRenewSoon(current.expiresAt, now)) return;
      notBefore = now + RENEW_BACKOFF_MS;
      void client.refreshSession().then((outcome) => {
        if (outcome === 'refreshed') notBefore = 0;
      });
    };
    ACTIVITY_EVENTS.forEach((name) => window.addEventListener(name, onActivity, { passive: true }));
    return () => ACTIVITY_EVENTS.forEach((name) => window.removeEventListener(name, onActivity));
  }, [signedIn, client, store]);
}

/**
 * Once per page load of a signed-in user, asks the server who they are now (GET
 * /msbapi/v1/users/valid) and stores it: an administrator's role change shows at the user's next
 * load (issue 7), and the menu follows. A failure changes nothing; the next load asks again.
 */
export function useSessionUserRefresh(client: ApiClient = apiClient, store: SessionStore = sessionStore): void {
  const userId = useSession(store)?.user.id;
  useEffect(() => {
    if (!userId) return;
    let cancelled = false;
    client
      // Never a redirect: a session that cannot ask (a signing link's) keeps what it has.
      .callApi(usersValid, {}, { failures: 'caller' })
      .then((user) => {
        if (!cancelled) refreshSessionUser(user, store);
      })
      .catch(() => {});
    return () => {
      cancelled = true;
    };
  }, [userId, client, store]);
}
