import { API_HEADERS, defineEndpoint, getUserPhoto, SESSION_RECOVERY_FAILED_LOG, uploadUserPhoto, type TokenGrant } from '@pakt/domain';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { adminUser, jsonResponse, signedInSession, TENANT_GLOBEX, tokenGrant, userInfoOf } from '../test/fake-api';
import { ApiError, createApiClient, TENANT_HEADER } from './client';
import { createSessionStore, type Session } from './session-store';

const REFRESH_PATH = '/msbapi/public/token/refresh';

const listThings = defineEndpoint({
  method: 'GET',
  path: '/msbapi/v1/things',
  access: 'tenant',
  summary: 'a guarded test endpoint',
  response: z.object({ things: z.array(z.string()) }),
});

const publicThing = defineEndpoint({
  method: 'GET',
  path: '/msbapi/public/thing',
  access: 'public',
  summary: 'a public test endpoint',
  response: z.object({ ok: z.boolean() }),
});

interface Deferred<T> {
  readonly promise: Promise<T>;
  resolve(value: T): void;
}
function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** Lets every pending promise callback run: what was going to happen without I/O has happened. */
const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * A fake server: guarded calls succeed only with `validToken`, anything else gets 401 with
 * `staleCode`. The refresh endpoint answers whatever `refresh` returns.
 */
function setup(options: {
  session?: Session | null;
  validToken?: string;
  staleCode?: number;
  refresh?: (body: { refreshToken?: string; clientId: string }) => Response | Promise<Response>;
  /** The storage the session store keeps who is signed in (a reload builds a new store over it). */
  storage?: Storage;
}) {
  const grant: TokenGrant = tokenGrant(adminUser, { access: 'access-2' });
  const validToken = options.validToken ?? 'access-2';
  const refresh = options.refresh ?? (() => jsonResponse({ code: 1, data: grant }));
  const fetchMock = vi.fn<typeof fetch>(async (input, init) => {
    const url = String(input);
    const headers = new Headers(init?.headers);
    if (url === REFRESH_PATH) return refresh(JSON.parse(String(init?.body)) as { refreshToken?: string; clientId: string });
    if (url === publicThing.path) return jsonResponse({ code: -27, data: null, message: 'expired' }, 401);
    if (headers.get('Authorization') === `Bearer ${validToken}`) return jsonResponse({ code: 1, data: { things: ['a'] } });
    return jsonResponse({ code: options.staleCode ?? -27, data: null, message: 'token refused' }, 401);
  });
  const navigate = vi.fn<(to: string) => void>();
  const log = vi.fn<(message: string) => void>();
  const session = createSessionStore({ ...(options.storage ? { storage: options.storage } : {}), initial: options.session === undefined ? signedInSession() : options.session });
  const client = createApiClient({ fetch: fetchMock, navigate, session, log, getLanguage: () => 'en', now: () => 1_000_000 });
  const callsTo = (path: string) => fetchMock.mock.calls.filter(([url]) => String(url) === path);
  return { client, fetchMock, navigate, log, session, grant, callsTo };
}

describe('session refresh (spec sections 4 and 8)', () => {
  it('shares one refresh between concurrent calls that fail with -27, then retries each once', async () => {
    const held = deferred<Response>();
    const { client, callsTo, session, grant, navigate } = setup({ refresh: () => held.promise });

    const first = client.callApi(listThings);
    const second = client.callApi(listThings);
    await settle();
    // Both calls have failed and are waiting; had they not shared the refresh there would be two.
    expect(callsTo(REFRESH_PATH)).toHaveLength(1);

    held.resolve(jsonResponse({ code: 1, data: grant }));
    await expect(Promise.all([first, second])).resolves.toEqual([{ things: ['a'] }, { things: ['a'] }]);

    expect(callsTo(REFRESH_PATH)).toHaveLength(1);
    const thingCalls = callsTo(listThings.path).map(([, init]) => new Headers(init?.headers).get('Authorization'));
    expect(thingCalls).toEqual(['Bearer access-1', 'Bearer access-1', 'Bearer access-2', 'Bearer access-2']);
    expect(session.get()).toMatchObject({ accessToken: 'access-2', expiresAt: 1_000_000 + 900_000 });
    expect(navigate).not.toHaveBeenCalled();
  });

  it('refreshes through the httpOnly cookie: the web client id only, no token in the body, and keeps the chosen tenant', async () => {
    const { client, callsTo, session } = setup({ session: signedInSession(adminUser, { tenantUuid: TENANT_GLOBEX }) });
    await client.callApi(listThings);
    expect(JSON.parse(String(callsTo(REFRESH_PATH)[0]?.[1]?.body))).toEqual({ clientId: 'MSB3' });
    const refreshHeaders = new Headers(callsTo(REFRESH_PATH)[0]?.[1]?.headers);
    expect(refreshHeaders.get('Authorization')).toBeNull();
    // Every call asks for the cookie transport, so every grant keeps its refresh token out of reach.
    expect(refreshHeaders.get(API_HEADERS.tokenTransport)).toBe('cookie');
    expect(new Headers(callsTo(listThings.path)[0]?.[1]?.headers).get(API_HEADERS.tokenTransport)).toBe('cookie');
    expect(session.get()?.tenantUuid).toBe(TENANT_GLOBEX);
    expect(new Headers(callsTo(listThings.path)[1]?.[1]?.headers).get(TENANT_HEADER)).toBe(TENANT_GLOBEX);
  });

  it('also refreshes on a plain 401 such as an invalid token (-5)', async () => {
    const { client, callsTo } = setup({ staleCode: -5 });
    await expect(client.callApi(listThings)).resolves.toEqual({ things: ['a'] });
    expect(callsTo(REFRESH_PATH)).toHaveLength(1);
  });

  it('sends the user to expired, logs and clears the session when the refresh is refused', async () => {
    const { client, callsTo, session, navigate, log } = setup({
      refresh: () => jsonResponse({ code: -5, data: null, message: 'refresh token revoked' }, 401),
    });
    const [first, second] = await Promise.allSettled([client.callApi(listThings), client.callApi(listThings)]);
    expect(first.status).toBe('rejected');
    expect(second.status).toBe('rejected');
    expect(callsTo(REFRESH_PATH)).toHaveLength(1);
    expect(callsTo(listThings.path)).toHaveLength(2);
    expect(session.get()).toBeNull();
    expect(navigate).toHaveBeenCalledWith('/accessdenied?status=expired');
    expect(new Set(navigate.mock.calls.map(([to]) => to))).toEqual(new Set(['/accessdenied?status=expired']));
    expect(log).toHaveBeenCalledWith(SESSION_RECOVERY_FAILED_LOG);
    expect(SESSION_RECOVERY_FAILED_LOG).toBe('Unable to recover session !');
  });

  it('goes to expired without asking the server when there is no session to refresh', async () => {
    const { client, callsTo, navigate, log } = setup({ session: null });
    const error = await client.callApi(listThings).catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(ApiError);
    expect(callsTo(REFRESH_PATH)).toHaveLength(0);
    expect(navigate).toHaveBeenCalledExactlyOnceWith('/accessdenied?status=expired');
    expect(log).toHaveBeenCalledWith(SESSION_RECOVERY_FAILED_LOG);
  });

  it('leaves a person who signed out while a call was under way on the page they went to', async () => {
    const answer = deferred<Response>();
    const { client, callsTo, navigate, session, fetchMock } = setup({});
    fetchMock.mockImplementationOnce(() => answer.promise);
    const call = client.callApi(listThings).catch((reason: unknown) => reason);
    await settle();
    session.clear();
    answer.resolve(jsonResponse({ code: -27, data: null, message: 'token refused' }, 401));
    expect(await call).toMatchObject({ code: -27, httpStatus: 401 });
    expect(callsTo(REFRESH_PATH)).toHaveLength(0);
    expect(navigate).not.toHaveBeenCalled();
  });

  it('does not loop when the retried call is refused again: one refresh, one retry, then expired', async () => {
    // The server keeps refusing even the fresh token.
    const { client, callsTo, navigate, session } = setup({ validToken: 'never-valid' });
    const error = await client.callApi(listThings).catch((reason: unknown) => reason);
    expect(error).toMatchObject({ code: -27, httpStatus: 401 });
    expect(callsTo(REFRESH_PATH)).toHaveLength(1);
    expect(callsTo(listThings.path)).toHaveLength(2);
    expect(navigate).toHaveBeenCalledExactlyOnceWith('/accessdenied?status=expired');
    expect(session.get()).toBeNull();
  });

  it('sends a retried call refused as invalid (-5) to unauthorized', async () => {
    const { client, callsTo, navigate } = setup({ validToken: 'never-valid', staleCode: -5 });
    await client.callApi(listThings).catch(() => undefined);
    expect(callsTo(REFRESH_PATH)).toHaveLength(1);
    expect(navigate).toHaveBeenCalledExactlyOnceWith('/accessdenied?status=unauthorized');
  });

  it('retries without a new refresh when the token was already replaced while the call was out', async () => {
    const { client, callsTo, session } = setup({});
    await client.callApi(listThings);
    expect(callsTo(REFRESH_PATH)).toHaveLength(1);
    // Another tab refreshed meanwhile: a call that left with the old token retries with the new one.
    const beforeReplace = session.get()!;
    session.set({ ...beforeReplace, accessToken: 'access-1' });
    const late = client.callApi(listThings);
    session.set(beforeReplace);
    await expect(late).resolves.toEqual({ things: ['a'] });
    expect(callsTo(REFRESH_PATH)).toHaveLength(1);
  });

  it('never refreshes for a public endpoint', async () => {
    const { client, callsTo } = setup({});
    await client.callApi(publicThing).catch(() => undefined);
    expect(callsTo(REFRESH_PATH)).toHaveLength(0);
  });

  it('keeps the session and does not redirect when the refresh cannot reach the server', async () => {
    const { client, session, navigate, log } = setup({
      refresh: () => {
        throw new TypeError('Failed to fetch');
      },
    });
    const error = await client.callApi(listThings).catch((reason: unknown) => reason);
    expect(error).toMatchObject({ httpStatus: 0 });
    expect(session.get()?.accessToken).toBe('access-1');
    expect(navigate).not.toHaveBeenCalled();
    expect(log).not.toHaveBeenCalled();
  });

  it('leaves redirects to the caller that asked for it, while still ending a dead session', async () => {
    const { client, session, navigate, log } = setup({
      refresh: () => jsonResponse({ code: -5, data: null, message: 'revoked' }, 401),
    });
    await client.callApi(listThings, undefined, { failures: 'caller' }).catch(() => undefined);
    expect(navigate).not.toHaveBeenCalled();
    expect(session.get()).toBeNull();
    expect(log).toHaveBeenCalledWith(SESSION_RECOVERY_FAILED_LOG);
  });

  it('does not bring back a session that was logged out while the refresh ran', async () => {
    const held = deferred<Response>();
    const { client, session, grant } = setup({ refresh: () => held.promise });
    const call = client.callApi(listThings, undefined, { failures: 'caller' }).catch((reason: unknown) => reason);
    await settle();
    session.clear();
    held.resolve(jsonResponse({ code: 1, data: grant }));
    await call;
    expect(session.get()).toBeNull();
  });

  it('renews on request (keep-alive) through the same shared refresh', async () => {
    const { client, callsTo, session } = setup({});
    const outcomes = await Promise.all([client.refreshSession(), client.refreshSession()]);
    expect(outcomes).toEqual(['refreshed', 'refreshed']);
    expect(callsTo(REFRESH_PATH)).toHaveLength(1);
    expect(session.get()?.accessToken).toBe('access-2');
  });
});

describe('restoring the session at page load (the access token lives in memory only)', () => {
  /** A page load: who was signed in is remembered in storage, no access token is in memory. */
  function reloaded(options: Parameters<typeof setup>[0] = {}) {
    createSessionStore({ storage: localStorage, initial: signedInSession(adminUser, { tenantUuid: TENANT_GLOBEX }) });
    return setup({ ...options, storage: localStorage, session: null });
  }

  it('trades the refresh cookie for tokens once, keeping the tenant chosen before', async () => {
    const { client, callsTo, session, navigate } = reloaded();
    expect(session.get()).toBeNull();
    const outcomes = await Promise.all([client.restoreSession(), client.restoreSession()]);
    expect(outcomes).toEqual(['refreshed', 'refreshed']);
    expect(callsTo(REFRESH_PATH)).toHaveLength(1);
    expect(JSON.parse(String(callsTo(REFRESH_PATH)[0]?.[1]?.body))).toEqual({ clientId: 'MSB3' });
    expect(session.get()).toMatchObject({ accessToken: 'access-2', tenantUuid: TENANT_GLOBEX });
    expect(navigate).not.toHaveBeenCalled();
    // Already restored: nothing more to ask.
    await client.restoreSession();
    expect(callsTo(REFRESH_PATH)).toHaveLength(1);
  });

  it('signs out quietly when the cookie is refused: no redirect, nobody remembered', async () => {
    const { client, session, navigate } = reloaded({ refresh: () => jsonResponse({ code: -5, data: null, message: 'revoked' }, 401) });
    expect(await client.restoreSession()).toBe('failed');
    expect(session.get()).toBeNull();
    expect(session.remembered()).toBeNull();
    expect(navigate).not.toHaveBeenCalled();
  });

  it('asks nothing when nobody was signed in at this browser', async () => {
    const { client, callsTo } = setup({ session: null, storage: localStorage });
    expect(await client.restoreSession()).toBe('failed');
    expect(callsTo(REFRESH_PATH)).toHaveLength(0);
  });

  it('serialises refreshes across tabs with the Web Locks API, so a second tab sends the rotated cookie', async () => {
    const held: string[] = [];
    let inside = 0;
    const locks = {
      request: vi.fn(async (name: string, work: () => Promise<unknown>) => {
        held.push(name);
        inside += 1;
        try {
          return await work();
        } finally {
          inside -= 1;
        }
      }),
    };
    vi.stubGlobal('navigator', { ...navigator, locks });
    const { client } = setup({
      refresh: () => {
        // The exchange runs while the lock is held.
        expect(inside).toBe(1);
        return jsonResponse({ code: 1, data: tokenGrant(adminUser, { access: 'access-2' }) });
      },
    });
    await expect(client.callApi(listThings)).resolves.toEqual({ things: ['a'] });
    expect(held).toEqual(['pakt.session.refresh']);
  });
});

describe('session refresh for uploads and binary answers', () => {
  const PHOTO_PATH = `/msbapi/v1/users/${adminUser.id}/photo`;
  const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

  /** A server whose photo route accepts only the refreshed token. */
  function photoServer() {
    const grant = tokenGrant(adminUser, { access: 'access-2', refresh: 'refresh-2' });
    const fetchMock = vi.fn<typeof fetch>(async (input, init) => {
      const url = String(input);
      if (url === REFRESH_PATH) return jsonResponse({ code: 1, data: grant });
      if (new Headers(init?.headers).get('Authorization') !== 'Bearer access-2') {
        return jsonResponse({ code: -27, data: null, message: 'token expired' }, 401);
      }
      if (init?.method === 'POST') return jsonResponse({ code: 1, data: userInfoOf(adminUser, { hasPhoto: true }) });
      return new Response(PNG, { status: 200, headers: { 'Content-Type': 'image/png' } });
    });
    const session = createSessionStore({ initial: signedInSession() });
    const client = createApiClient({ fetch: fetchMock, navigate: vi.fn(), session, log: vi.fn(), getLanguage: () => 'en' });
    const callsTo = (path: string) => fetchMock.mock.calls.filter(([url]) => String(url) === path);
    return { client, callsTo };
  }

  it('sends the same file again after refreshing an expired token', async () => {
    const { client, callsTo } = photoServer();
    const photo = new File([PNG], 'me.png', { type: 'image/png' });
    await expect(client.callApi(uploadUserPhoto, { params: { userId: adminUser.id }, files: { file: photo } })).resolves.toMatchObject({
      hasPhoto: true,
    });
    expect(callsTo(REFRESH_PATH)).toHaveLength(1);
    const attempts = callsTo(PHOTO_PATH).map(([, init]) => init?.body as FormData);
    expect(attempts).toHaveLength(2);
    // Each attempt has a form of its own, both carrying the whole file.
    expect(attempts[0]).not.toBe(attempts[1]);
    expect(attempts.map((form) => (form.get('file') as File).size)).toEqual([PNG.length, PNG.length]);
  });

  it('fetches the bytes of a binary endpoint after refreshing', async () => {
    const { client, callsTo } = photoServer();
    const photo = await client.callApi(getUserPhoto, { params: { userId: adminUser.id } });
    expect(photo.type).toBe('image/png');
    expect(photo.size).toBe(PNG.length);
    expect(callsTo(REFRESH_PATH)).toHaveLength(1);
    expect(callsTo(PHOTO_PATH)).toHaveLength(2);
  });
});
