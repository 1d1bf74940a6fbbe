import { API_HEADERS, COOKIE_TOKEN_TRANSPORT, TokenGrant, WEB_CLIENT_ID } from '@pakt/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GOOD_PASSWORD, makeMember } from '../test/factories';
import { bearer } from '../test/sign-in';
import { buildTestApp, type TestApp } from '../test/test-app';
import type { FastifyRequest } from 'fastify';
import { REFRESH_COOKIE, REFRESH_COOKIE_PATH, refreshCookieIsSecure } from './refresh-cookie';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());
const db = () => t.database.db;

const COOKIE_TRANSPORT = { [API_HEADERS.tokenTransport]: COOKIE_TOKEN_TRANSPORT };
type Injected = Awaited<ReturnType<TestApp['app']['inject']>>;

const authenticate = (email: string, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'POST',
    url: '/msbapi/v1/authenticate',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    payload: new URLSearchParams({ username: email, password: GOOD_PASSWORD }).toString(),
  });

const refreshWithCookie = (token: string, headers: Record<string, string> = COOKIE_TRANSPORT) =>
  t.app.inject({ method: 'POST', url: REFRESH_COOKIE_PATH, headers, cookies: { [REFRESH_COOKIE]: token }, payload: { clientId: WEB_CLIENT_ID } });

const refreshCookieOf = (res: Injected) => res.cookies.find((c) => c.name === REFRESH_COOKIE);

function expectRefreshCookie(res: Injected) {
  const cookie = refreshCookieOf(res);
  expect(cookie, 'a refresh cookie is set').toBeDefined();
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: REFRESH_COOKIE_PATH, maxAge: t.context.config.tokens.refreshSeconds });
  // inject() talks to localhost, where browsers keep Secure cookies over http.
  expect(cookie!.secure).toBe(true);
  expect(cookie!.value).toMatch(/.{20,}/);
  return cookie!.value;
}

describe('the refresh token as an httpOnly cookie (issue 17 item 7)', () => {
  it('moves the refresh token of a sign-in into the cookie when the web app asks, and out of the JSON', async () => {
    const { user } = await makeMember(db());
    const res = await authenticate(user.email, COOKIE_TRANSPORT);
    expect(res.statusCode).toBe(200);
    const grant = TokenGrant.parse(res.json().data);
    expect(grant.refreshToken).toBeUndefined();
    expect(res.body).not.toContain('refreshToken');
    expect(grant.accessToken).toBeTruthy();
    expectRefreshCookie(res);
  });

  it('keeps the body transport for API clients: no cookie, the token in the JSON', async () => {
    const { user } = await makeMember(db());
    const res = await authenticate(user.email);
    expect(TokenGrant.parse(res.json().data).refreshToken).toBeTruthy();
    expect(refreshCookieOf(res)).toBeUndefined();
  });

  it('refreshes from the cookie, answers in the cookie only, and rotates it', async () => {
    const { user } = await makeMember(db());
    const first = expectRefreshCookie(await authenticate(user.email, COOKIE_TRANSPORT));
    // Even without the transport header: a token that came in a cookie never goes back in JSON.
    for (const headers of [COOKIE_TRANSPORT, {}]) {
      const res = await refreshWithCookie(headers === COOKIE_TRANSPORT ? first : expectRefreshCookie(await authenticate(user.email, COOKIE_TRANSPORT)), headers);
      expect(res.statusCode, res.body).toBe(200);
      const grant = TokenGrant.parse(res.json().data);
      expect(grant.refreshToken).toBeUndefined();
      expect(res.body).not.toContain('refreshToken');
      const rotated = expectRefreshCookie(res);
      expect(rotated).not.toBe(first);
      const alive = await t.app.inject({ method: 'POST', url: '/msbapi/v1/checksession', headers: bearer(grant) });
      expect(alive.json().data.active).toBe(true);
    }
  });

  it('still revokes the whole family when a rotated cookie is presented again', async () => {
    const { user } = await makeMember(db());
    const first = expectRefreshCookie(await authenticate(user.email, COOKIE_TRANSPORT));
    const secondRes = await refreshWithCookie(first);
    const second = expectRefreshCookie(secondRes);
    const secondGrant = TokenGrant.parse(secondRes.json().data);

    const replay = await refreshWithCookie(first);
    expect(replay.statusCode).toBe(401);
    expect(replay.json().code).toBe(-5);
    expect(refreshCookieOf(replay)).toBeUndefined();
    expect((await t.app.inject({ method: 'POST', url: '/msbapi/v1/checksession', headers: bearer(secondGrant) })).json().code).toBe(-5);
    expect((await refreshWithCookie(second)).json().code).toBe(-5);
  });

  it('answers a refresh with neither a body token nor a cookie with -5', async () => {
    const res = await t.app.inject({ method: 'POST', url: REFRESH_COOKIE_PATH, headers: COOKIE_TRANSPORT, payload: { clientId: WEB_CLIENT_ID } });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe(-5);
  });

  it('clears the cookie at logout and at the session timer, and the old cookie no longer refreshes', async () => {
    for (const url of ['/msbapi/v1/logout', '/msbapi/v1/logout/stoptimer']) {
      const { user } = await makeMember(db());
      const signedIn = await authenticate(user.email, COOKIE_TRANSPORT);
      const cookie = expectRefreshCookie(signedIn);
      const res = await t.app.inject({ method: 'POST', url, headers: bearer(TokenGrant.parse(signedIn.json().data)) });
      expect(res.json().code, url).toBe(1);
      const cleared = refreshCookieOf(res);
      expect(cleared, url).toMatchObject({ value: '', maxAge: 0, path: REFRESH_COOKIE_PATH, httpOnly: true, sameSite: 'Strict' });
      expect((await refreshWithCookie(cookie)).json().code, url).toBe(-5);
    }
  });

  it('sets the cookie for every grant the web app receives: token exchange as well', async () => {
    const { user } = await makeMember(db());
    const grant = TokenGrant.parse((await authenticate(user.email)).json().data);
    const issued = await t.app.inject({ method: 'GET', url: '/msbapi/v1/uisauthcode?clientId=MSB3', headers: bearer(grant) });
    const res = await t.app.inject({ method: 'POST', url: '/msbapi/public/token/exchange', headers: COOKIE_TRANSPORT, payload: { code: issued.json().data.code, clientId: WEB_CLIENT_ID } });
    expect(res.statusCode, res.body).toBe(200);
    expect(TokenGrant.parse(res.json().data).refreshToken).toBeUndefined();
    expectRefreshCookie(res);
  });
});

describe('the Secure flag of the refresh cookie', () => {
  it('is left off only for a plain-http install reached by a LAN name, where the browser would drop it', () => {
    const request = (host: string, protocol: 'http' | 'https' = 'http') => ({ protocol, headers: { host } }) as unknown as FastifyRequest;
    const http = { publicUrl: 'http://pakt.lan:3000' };
    expect(refreshCookieIsSecure(http, request('pakt.lan:3000'))).toBe(false);
    expect(refreshCookieIsSecure(http, request('192.168.1.20:3000'))).toBe(false);
    expect(refreshCookieIsSecure(http, request('127.0.0.1:3000'))).toBe(true);
    expect(refreshCookieIsSecure(http, request('localhost:3000'))).toBe(true);
    expect(refreshCookieIsSecure(http, request('[::1]:3000'))).toBe(true);
    expect(refreshCookieIsSecure(http, request('pakt.lan', 'https'))).toBe(true);
    expect(refreshCookieIsSecure({ publicUrl: 'https://pakt.example' }, request('pakt.example'))).toBe(true);
  });
});
