import { SessionUser, type TokenGrant, type UserTenant } from '@pakt/domain';
import { useSyncExternalStore } from 'react';
import { clearStorageOnLogout, SESSION_KEYS, STORAGE_KEYS } from './storage-keys';

export interface Session {
  readonly accessToken: string;
  readonly refreshToken: string;
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
    storage.getItem(STORAGE_KEYS.accessToken);
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

/** Reads the session keys; anything incomplete or malformed counts as signed out. */
function readSession(storage: Storage): Session | null {
  const accessToken = storage.getItem(STORAGE_KEYS.accessToken);
  const refreshToken = storage.getItem(STORAGE_KEYS.refreshToken);
  const expiresAt = Number(storage.getItem(STORAGE_KEYS.expiresAt));
  const rawUser = storage.getItem(STORAGE_KEYS.user);
  if (!accessToken || !refreshToken || !Number.isFinite(expiresAt) || expiresAt <= 0 || !rawUser) return null;
  const user = parseUser(rawUser);
  if (!user) return null;
  return { accessToken, refreshToken, expiresAt, user, tenantUuid: storage.getItem(STORAGE_KEYS.tenantUuid) };
}

/** The stored values as one string, to tell cheaply whether anything changed since the last read. */
function fingerprint(storage: Storage): string {
  return JSON.stringify(SESSION_KEYS.map((key) => storage.getItem(key)));
}

/**
 * The session lives in localStorage so it survives reloads and is shared by the tabs of one
 * browser. It is read from storage on every `get()` (cached while unchanged, as
 * useSyncExternalStore requires a stable value): a tab that rotated the refresh token leaves the
 * new one where every other tab finds it, instead of those tabs presenting the old one and
 * getting the whole session revoked.
 */
export function createSessionStore(
  options: { storage?: Storage; sessionStorage?: Storage; initial?: Session | null } = {},
): SessionStore {
  const storage = options.storage ?? memoryStorage();
  const listeners = new Set<() => void>();
  let cachedPrint: string | null = null;
  let cached: Session | null = null;

  const emit = () => listeners.forEach((listener) => listener());

  const write = (session: Session) => {
    storage.setItem(STORAGE_KEYS.accessToken, session.accessToken);
    storage.setItem(STORAGE_KEYS.refreshToken, session.refreshToken);
    storage.setItem(STORAGE_KEYS.expiresAt, String(session.expiresAt));
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
      const print = fingerprint(storage);
      if (print !== cachedPrint) {
        cachedPrint = print;
        cached = readSession(storage);
      }
      return cached;
    },
    set(session) {
      write(session);
      emit();
    },
    clear() {
      SESSION_KEYS.forEach((key) => storage.removeItem(key));
      emit();
    },
    clearForLogout() {
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
    refreshToken: grant.refreshToken,
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
