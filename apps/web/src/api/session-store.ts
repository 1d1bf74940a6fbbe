import { SessionUser, type TokenGrant, type UserTenant } from '@pakt/domain';
import { useSyncExternalStore } from 'react';
import { clearStorageOnLogout, LEGACY_TOKEN_KEYS, SESSION_KEYS, STORAGE_KEYS } from './storage-keys';

export interface Session {
  /** Held in this page's memory only; the refresh token is an httpOnly cookie no script reads. */
  readonly accessToken: string;
  /** Epoch milliseconds at which the access token expires. */
  readonly expiresAt: number;
  readonly user: SessionUser;
  /** The tenant the person acts in (sent as the tenant header); null for root and tenantless users. */
  readonly tenantUuid: string | null;
}

export interface SessionStore {
  /** Where the session and the remembered preferences are kept. */
  readonly storage: Storage;
  get(): Session | null;
  /**
   * Who was signed in at this browser (and in which tenant), whether or not this page holds their
   * access token: after a reload it does not, and the refresh cookie may bring the session back.
   */
  remembered(): { readonly user: SessionUser; readonly tenantUuid: string | null } | null;
  set(session: Session): void;
  /** Drops the session only (a failed refresh): preferences stay. */
  clear(): void;
  /** Logout (spec section 4): drops the session and every other stored value except the kept ones. */
  clearForLogout(): void;
  subscribe(listener: () => void): () => void;
}

/** Storage can be missing or throw (disabled cookies, some private modes): then memory stands in. */
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

export function browserStorage(): Storage {
  try {
    const storage = window.localStorage;
    storage.getItem(STORAGE_KEYS.user);
    return storage;
  } catch {
    return memoryStorage();
  }
}

function parseUser(raw: string): SessionUser | null {
  try {
    const parsed = SessionUser.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** The remembered user and tenant; anything malformed counts as nobody. */
function readRemembered(storage: Storage): { user: SessionUser; tenantUuid: string | null } | null {
  const rawUser = storage.getItem(STORAGE_KEYS.user);
  const user = rawUser ? parseUser(rawUser) : null;
  return user ? { user, tenantUuid: storage.getItem(STORAGE_KEYS.tenantUuid) } : null;
}

/** The access token of this page, with whose it is. */
interface HeldTokens {
  readonly accessToken: string;
  readonly expiresAt: number;
  readonly userId: string;
}

/**
 * The access token lives in this page's memory only, so a script injected into the page finds no
 * token in storage to carry away, and the refresh token is an httpOnly cookie it cannot read at
 * all. Who is signed in (the user and the chosen tenant, no secret) stays in localStorage, shared
 * by the tabs: a reload or a new tab sees it and restores the session through the cookie
 * (ApiClient.restoreSession), and a logout in one tab (which clears it) signs every tab out.
 * `get()` reads storage every time (cached while unchanged, as useSyncExternalStore requires a
 * stable value), and counts the session as over when another tab signed someone else in.
 */
export function createSessionStore(
  options: { storage?: Storage; sessionStorage?: Storage; initial?: Session | null } = {},
): SessionStore {
  const storage = options.storage ?? memoryStorage();
  const listeners = new Set<() => void>();
  let held: HeldTokens | null = null;
  let cachedPrint: string | null = null;
  let cached: Session | null = null;

  // Versions before the refresh cookie kept both tokens here: they must not stay readable.
  try {
    LEGACY_TOKEN_KEYS.forEach((key) => storage.removeItem(key));
  } catch {
    // A storage that cannot be written holds nothing of ours either.
  }

  const emit = () => listeners.forEach((listener) => listener());

  /** What the session depends on, as one string, to tell cheaply whether anything changed. */
  const fingerprint = () => JSON.stringify([held, ...SESSION_KEYS.map((key) => storage.getItem(key))]);

  const write = (session: Session) => {
    held = { accessToken: session.accessToken, expiresAt: session.expiresAt, userId: session.user.id };
    storage.setItem(STORAGE_KEYS.user, JSON.stringify(session.user));
    if (session.tenantUuid) storage.setItem(STORAGE_KEYS.tenantUuid, session.tenantUuid);
    else storage.removeItem(STORAGE_KEYS.tenantUuid);
  };

  if (options.initial) write(options.initial);

  const onStorage = (event: StorageEvent) => {
    // Another tab signed in, refreshed or logged out (key null: it cleared everything).
    if (event.key === null || (SESSION_KEYS as readonly string[]).includes(event.key)) emit();
  };

  return {
    storage,
    get() {
      const print = fingerprint();
      if (print !== cachedPrint) {
        cachedPrint = print;
        const remembered = readRemembered(storage);
        cached =
          held && remembered && remembered.user.id === held.userId && Number.isFinite(held.expiresAt) && held.expiresAt > 0
            ? { accessToken: held.accessToken, expiresAt: held.expiresAt, user: remembered.user, tenantUuid: remembered.tenantUuid }
            : null;
      }
      return cached;
    },
    remembered: () => readRemembered(storage),
    set(session) {
      write(session);
      emit();
    },
    clear() {
      held = null;
      SESSION_KEYS.forEach((key) => storage.removeItem(key));
      emit();
    },
    clearForLogout() {
      held = null;
      clearStorageOnLogout(storage, options.sessionStorage);
      emit();
    },
    subscribe(listener) {
      if (listeners.size === 0) window.addEventListener('storage', onStorage);
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) window.removeEventListener('storage', onStorage);
      };
    },
  };
}

function browserSessionStorage(): Storage | undefined {
  try {
    return window.sessionStorage;
  } catch {
    return undefined;
  }
}

export const sessionStore = createSessionStore({ storage: browserStorage(), sessionStorage: browserSessionStorage() });

/**
 * The tenant to act in after a new grant: the one already chosen if the user still belongs to it,
 * otherwise their first tenant (the server lists them in a stable order).
 */
export function pickTenant(user: SessionUser, preferred: string | null | undefined): string | null {
  if (preferred && user.tenants.some((tenant) => tenant.tenantUuid === preferred)) return preferred;
  return user.tenants[0]?.tenantUuid ?? null;
}

/** The session a token grant opens, `now` being when the grant arrived. */
export function sessionFromGrant(grant: TokenGrant, now: number, preferredTenant?: string | null): Session {
  return {
    accessToken: grant.accessToken,
    expiresAt: now + grant.expiresIn * 1000,
    user: grant.user,
    tenantUuid: pickTenant(grant.user, preferredTenant),
  };
}

/** Signs in with a fresh grant and remembers the email for the next visit to the login form. */
export function startSession(grant: TokenGrant, store: SessionStore = sessionStore): Session {
  const session = sessionFromGrant(grant, Date.now(), store.get()?.tenantUuid);
  store.set(session);
  try {
    store.storage.setItem(STORAGE_KEYS.username, grant.user.email);
  } catch {
    // Only the convenience of a prefilled form is lost.
  }
  return session;
}

export function rememberedUsername(store: SessionStore = sessionStore): string {
  return store.storage.getItem(STORAGE_KEYS.username) ?? '';
}

/** Switches the tenant the next calls act in; ignored when the user does not belong to it. */
export function selectTenant(tenantUuid: string, store: SessionStore = sessionStore): void {
  const current = store.get();
  if (!current || !current.user.tenants.some((tenant) => tenant.tenantUuid === tenantUuid)) return;
  store.set({ ...current, tenantUuid });
}

/**
 * Replaces the stored user (roles and tenants) with what the server says now, keeping the tokens:
 * an administrator's role change or a new membership shows at the next page load, not only at
 * the next sign-in. Leaves the session alone when nothing changed.
 */
export function refreshSessionUser(user: SessionUser, store: SessionStore = sessionStore): void {
  const current = store.get();
  if (!current || current.user.id !== user.id) return;
  if (JSON.stringify(current.user) === JSON.stringify(user)) return;
  store.set({ ...current, user, tenantUuid: pickTenant(user, current.tenantUuid) });
}

export function useSession(store: SessionStore = sessionStore): Session | null {
  return useSyncExternalStore(store.subscribe, store.get, store.get);
}

export function useCurrentUser(store: SessionStore = sessionStore): SessionUser | null {
  return useSession(store)?.user ?? null;
}

export function useCurrentTenant(store: SessionStore = sessionStore): UserTenant | null {
  const session = useSession(store);
  if (!session?.tenantUuid) return null;
  return session.user.tenants.find((tenant) => tenant.tenantUuid === session.tenantUuid) ?? null;
}
