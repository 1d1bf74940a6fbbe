import { useSyncExternalStore } from 'react';

export interface SessionUser {
  readonly id: string;
  readonly name: string;
  readonly email: string;
}

export interface Session {
  readonly accessToken: string;
  readonly refreshToken?: string;
  /** Selects one of the user's tenants; the server checks membership (DESIGN section 2). */
  readonly tenantId?: string;
  readonly user?: SessionUser;
}

export interface SessionStore {
  get(): Session | null;
  set(session: Session): void;
  clear(): void;
  subscribe(listener: () => void): () => void;
}

/**
 * Sign-in does not exist yet, so the session lives in memory only. When login lands it decides
 * what survives a reload; logout must then keep the username, view preference and signing-device
 * port (spec section 4, session flow).
 */
export function createSessionStore(initial: Session | null = null): SessionStore {
  let current = initial;
  const listeners = new Set<() => void>();
  const emit = () => listeners.forEach((listener) => listener());
  return {
    get: () => current,
    set(session) {
      current = session;
      emit();
    },
    clear() {
      if (current === null) return;
      current = null;
      emit();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export const sessionStore = createSessionStore();

export function useSession(store: SessionStore = sessionStore): Session | null {
  return useSyncExternalStore(store.subscribe, store.get, store.get);
}
