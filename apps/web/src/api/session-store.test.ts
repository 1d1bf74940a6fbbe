import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { adminUser, rootUser, signedInSession, TENANT_ACME, TENANT_GLOBEX, tokenGrant } from '../test/fake-api';
import {
  createSessionStore,
  pickTenant,
  refreshSessionUser,
  rememberedUsername,
  selectTenant,
  sessionFromGrant,
  startSession,
  useCurrentTenant,
  useCurrentUser,
} from './session-store';
import { clearStorageOnLogout, KEPT_ON_LOGOUT, LEGACY_TOKEN_KEYS, STORAGE_KEYS } from './storage-keys';

describe('the logout storage rule (spec section 4)', () => {
  it('keeps exactly the username, the view preference and the signing-device port', () => {
    expect([...KEPT_ON_LOGOUT].sort()).toEqual(
      [STORAGE_KEYS.username, STORAGE_KEYS.viewPreference, STORAGE_KEYS.signingDevicePort].sort(),
    );
  });

  it('clears everything else, the session, the language and unknown keys included', () => {
    const store = createSessionStore({ storage: window.localStorage, sessionStorage: window.sessionStorage, initial: signedInSession() });
    localStorage.setItem(STORAGE_KEYS.username, 'asha@example.com');
    localStorage.setItem(STORAGE_KEYS.viewPreference, 'new');
    localStorage.setItem(STORAGE_KEYS.signingDevicePort, '1645');
    localStorage.setItem(STORAGE_KEYS.language, 'hi');
    localStorage.setItem('some.later.feature', 'draft');
    sessionStorage.setItem('scratch', 'x');

    store.clearForLogout();

    expect(store.get()).toBeNull();
    expect(Object.fromEntries(Object.entries(localStorage))).toEqual({
      [STORAGE_KEYS.username]: 'asha@example.com',
      [STORAGE_KEYS.viewPreference]: 'new',
      [STORAGE_KEYS.signingDevicePort]: '1645',
    });
    expect(sessionStorage.length).toBe(0);
  });

  it('does not invent kept keys that were never set', () => {
    localStorage.setItem(STORAGE_KEYS.user, 'a');
    clearStorageOnLogout(localStorage);
    expect(localStorage.length).toBe(0);
  });
});

describe('session store', () => {
  it('keeps the access token in memory only and no token at all in storage (issue 17 item 7)', () => {
    const session = signedInSession();
    const store = createSessionStore({ storage: localStorage, sessionStorage });
    store.set(session);
    expect(store.get()).toEqual(session);
    const stored = JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage });
    expect(stored).not.toContain(session.accessToken);
    expect(stored.toLowerCase()).not.toContain('token');
    // A reload (a new store over the same storage) remembers who, but holds no session until the
    // refresh cookie restores it.
    const reloaded = createSessionStore({ storage: localStorage });
    expect(reloaded.get()).toBeNull();
    expect(reloaded.remembered()).toEqual({ user: session.user, tenantUuid: session.tenantUuid });
  });

  it('deletes the tokens an older version left in localStorage', () => {
    for (const key of LEGACY_TOKEN_KEYS) localStorage.setItem(key, 'left-over');
    localStorage.setItem(STORAGE_KEYS.language, 'hi');
    createSessionStore({ storage: localStorage });
    for (const key of LEGACY_TOKEN_KEYS) expect(localStorage.getItem(key)).toBeNull();
    expect(localStorage.getItem(STORAGE_KEYS.language)).toBe('hi');
  });

  it('returns the same object while nothing changed (as useSyncExternalStore requires)', () => {
    const store = createSessionStore({ initial: signedInSession() });
    expect(store.get()).toBe(store.get());
  });

  it('follows a tenant switch and a logout of another tab, and tells subscribers about it', () => {
    const store = createSessionStore({ storage: localStorage, initial: signedInSession() });
    let notified = 0;
    const unsubscribe = store.subscribe(() => notified++);
    localStorage.setItem(STORAGE_KEYS.tenantUuid, TENANT_GLOBEX);
    window.dispatchEvent(new StorageEvent('storage', { key: STORAGE_KEYS.tenantUuid }));
    expect(notified).toBe(1);
    expect(store.get()?.tenantUuid).toBe(TENANT_GLOBEX);
    localStorage.clear();
    window.dispatchEvent(new StorageEvent('storage', { key: null }));
    expect(notified).toBe(2);
    expect(store.get()).toBeNull();
    unsubscribe();
  });

  it.each([
    ['a malformed user', () => localStorage.setItem(STORAGE_KEYS.user, '{"id":1}')],
    ['a missing user', () => localStorage.removeItem(STORAGE_KEYS.user)],
    ['another person signed in by another tab', () => localStorage.setItem(STORAGE_KEYS.user, JSON.stringify(rootUser))],
  ])('treats %s as signed out', (_, damage) => {
    const store = createSessionStore({ storage: localStorage, initial: signedInSession() });
    damage();
    expect(store.get()).toBeNull();
  });

  it('clear() drops the session but keeps preferences such as the language', () => {
    const store = createSessionStore({ storage: localStorage, initial: signedInSession() });
    localStorage.setItem(STORAGE_KEYS.language, 'hi');
    store.clear();
    expect(store.get()).toBeNull();
    expect(localStorage.getItem(STORAGE_KEYS.language)).toBe('hi');
  });
});

describe('starting a session from a grant', () => {
  it('computes the expiry from expiresIn and picks the first tenant', () => {
    expect(sessionFromGrant(tokenGrant(), 5_000)).toEqual({
      accessToken: 'access-1',
      expiresAt: 5_000 + 900_000,
      user: adminUser,
      tenantUuid: TENANT_ACME,
    });
  });

  it('keeps a tenant chosen before when the user still belongs to it, otherwise the first', () => {
    expect(pickTenant(adminUser, TENANT_GLOBEX)).toBe(TENANT_GLOBEX);
    expect(pickTenant(adminUser, 'c2f5a3f0-0000-4000-8000-000000000000')).toBe(TENANT_ACME);
    expect(pickTenant(rootUser, TENANT_ACME)).toBeNull();
  });

  it('remembers the email for the login form', () => {
    const store = createSessionStore({ storage: localStorage });
    startSession(tokenGrant(), store);
    expect(rememberedUsername(store)).toBe('asha@example.com');
  });
});

describe('session hooks', () => {
  it('give the user and the current tenant, and follow a tenant switch', () => {
    const store = createSessionStore({ initial: signedInSession() });
    const { result } = renderHook(() => ({ user: useCurrentUser(store), tenant: useCurrentTenant(store) }));
    expect(result.current.user?.email).toBe('asha@example.com');
    expect(result.current.tenant).toMatchObject({ tenantName: 'Acme Legal', userRole: 'admin' });

    act(() => selectTenant(TENANT_GLOBEX, store));
    expect(result.current.tenant).toMatchObject({ tenantName: 'Globex', userRole: 'signer' });
  });

  it('refuse to select a tenant the user does not belong to', () => {
    const store = createSessionStore({ initial: signedInSession() });
    selectTenant('c2f5a3f0-0000-4000-8000-000000000000', store);
    expect(store.get()?.tenantUuid).toBe(TENANT_ACME);
  });

  it('give nothing while signed out', () => {
    const store = createSessionStore();
    const { result } = renderHook(() => ({ user: useCurrentUser(store), tenant: useCurrentTenant(store) }));
    expect(result.current).toEqual({ user: null, tenant: null });
  });
});

describe("refreshing the stored user (an administrator changed the role)", () => {
  it('keeps the tokens and takes the new roles; leaves a session it does not belong to alone', () => {
    const store = createSessionStore({ initial: signedInSession(adminUser) });
    const before = store.get()!;
    const demoted = { ...adminUser, tenants: adminUser.tenants.map((tenant) => ({ ...tenant, userRole: 'signer' as const })) };
    refreshSessionUser(demoted, store);
    expect(store.get()).toEqual({ ...before, user: demoted });
    refreshSessionUser({ ...rootUser }, store);
    expect(store.get()!.user).toEqual(demoted);
  });

  it('moves to a remaining tenant when the chosen one is gone', () => {
    const store = createSessionStore({ initial: signedInSession(adminUser) });
    const chosen = store.get()!.tenantUuid;
    const left = { ...adminUser, tenants: adminUser.tenants.filter((tenant) => tenant.tenantUuid !== chosen) };
    refreshSessionUser(left, store);
    expect(store.get()!.tenantUuid).toBe(left.tenants[0]?.tenantUuid ?? null);
  });
});
