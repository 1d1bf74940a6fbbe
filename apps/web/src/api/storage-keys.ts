/**
 * Every localStorage key the app writes, named in one place so the logout rule below can say
 * precisely what survives it. This module imports nothing, so the browser tests can use it too.
 */
export const STORAGE_KEYS = {
  /**
   * Who is signed in at this browser (no secret: name, address, tenants). No token is ever stored:
   * the access token lives in the page's memory, the refresh token in an httpOnly cookie no script
   * can read. A remembered user without a token in memory (a reload, a new tab) means: try the
   * cookie once to bring the session back.
   */
  user: 'pakt.session.user',
  tenantUuid: 'pakt.session.tenantUuid',
  /** The language the person picked (absent: the configured default applies). */
  language: 'pakt.language',
  /** The email last used to sign in, offered again on the login form. */
  username: 'pakt.username',
  /** Which interface view the person prefers (the spec's switch to the newer view). */
  viewPreference: 'pakt.viewPreference',
  /** Port of the local signing-device helper (USB tokens, smart cards). */
  signingDevicePort: 'pakt.signingDevicePort',
  /** The person answered "Not now" to the desktop-notifications prompt (until logout). */
  desktopNotificationsPromptDismissed: 'pakt.desktopNotificationsPromptDismissed',
} as const;

/**
 * sessionStorage keys: kept for this tab only and dropped at logout with the rest of it. The
 * two-factor challenge waits here between the password step and /authenticate, so a reload of
 * /authenticate keeps it without the otpId ever appearing in the address.
 */
export const SESSION_STORAGE_KEYS = {
  twoFactorChallenge: 'pakt.twoFactorChallenge',
  /** Ids of the announcements this tab's person closed: dismissed for the session, not for good. */
  dismissedAnnouncements: 'pakt.dismissedAnnouncements',
} as const;

/** The keys holding the session itself; dropping them signs the browser out. */
export const SESSION_KEYS = [STORAGE_KEYS.user, STORAGE_KEYS.tenantUuid] as const;

/**
 * Where versions before the httpOnly refresh cookie kept the tokens. Deleted at start: a refresh
 * token left readable in localStorage is exactly what an XSS would steal.
 */
export const LEGACY_TOKEN_KEYS = ['pakt.session.accessToken', 'pakt.session.refreshToken', 'pakt.session.expiresAt'] as const;

/**
 * Spec section 4, logout: "storage is cleared, except that the username, a view preference and
 * the signing-device port are kept". They describe the browser and the person at it, not the
 * session, and are tedious to set up again.
 */
export const KEPT_ON_LOGOUT = [STORAGE_KEYS.username, STORAGE_KEYS.viewPreference, STORAGE_KEYS.signingDevicePort] as const;

/**
 * Empties local and session storage except the kept keys. Everything goes, including the
 * language choice and whatever later features store, so nothing of one person's session can
 * leak to the next person at a shared computer.
 */
export function clearStorageOnLogout(local: Storage, session?: Storage): void {
  const kept = KEPT_ON_LOGOUT.flatMap((key) => {
    const value = local.getItem(key);
    return value === null ? [] : [[key, value] as const];
  });
  local.clear();
  session?.clear();
  for (const [key, value] of kept) local.setItem(key, value);
}
