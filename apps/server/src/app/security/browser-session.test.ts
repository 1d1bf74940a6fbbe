import { API_HEADERS, COOKIE_TOKEN_TRANSPORT, TokenGrant, WEB_CLIENT_ID } from '@pakt/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REFRESH_COOKIE, REFRESH_COOKIE_PATH } from '../../http/refresh-cookie';
import { GOOD_PASSWORD, makeMember } from '../../test/factories';
import { bearer } from '../../test/sign-in';
import { buildTestApp, type TestApp } from '../../test/test-app';

/**
 * Issue 17 item 7, end to end on a default install with two tenants: a script injected into the
 * victim's page (an XSS) tries to carry away a long-lived session. Whatever it calls, it never
 * gets a refresh token it can read, and the pages it could run in forbid inline script.
 */
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());
const db = () => t.database.db;

const COOKIE_TRANSPORT = { [API_HEADERS.tokenTransport]: COOKIE_TOKEN_TRANSPORT };

const signInAsWebApp = (email: string) =>
  t.app.inject({
    method: 'POST',
    url: '/msbapi/v1/authenticate',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...COOKIE_TRANSPORT },
    payload: new URLSearchParams({ username: email, password: GOOD_PASSWORD }).toString(),
  });

describe('an XSS cannot steal a long-lived session (issue 17 item 7)', () => {
  it('finds no refresh token in any answer, and a stolen rotated cookie kills the session', async () => {
    const tenantA = await makeMember(db(), { role: 'admin' });
    const victim = await makeMember(db(), { role: 'admin' });
    expect(victim.tenant.id).not.toBe(tenantA.tenant.id);

    // The victim signs in through the web app: the refresh token goes only into the cookie.
    const signedIn = await signInAsWebApp(victim.user.email);
    expect(signedIn.body).not.toMatch(/refreshToken/);
    const cookie = signedIn.cookies.find((c) => c.name === REFRESH_COOKIE)!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: REFRESH_COOKIE_PATH, secure: true });

    // The injected script calls refresh (the browser attaches the cookie), asking for every transport.
    let current = cookie.value;
    for (const headers of [{}, COOKIE_TRANSPORT, { [API_HEADERS.tokenTransport]: 'body' }]) {
      const res = await t.app.inject({ method: 'POST', url: REFRESH_COOKIE_PATH, headers, cookies: { [REFRESH_COOKIE]: current }, payload: { clientId: WEB_CLIENT_ID } });
      expect(res.statusCode).toBe(200);
      expect(res.body).not.toMatch(/refreshToken/);
      expect(res.body).not.toContain(current);
      current = res.cookies.find((c) => c.name === REFRESH_COOKIE)!.value;
    }

    // An old cookie value (say, read off a disk backup) presented again revokes the whole family.
    const replay = await t.app.inject({ method: 'POST', url: REFRESH_COOKIE_PATH, cookies: { [REFRESH_COOKIE]: cookie.value }, payload: { clientId: WEB_CLIENT_ID } });
    expect(replay.json().code).toBe(-5);
    const afterReplay = await t.app.inject({ method: 'POST', url: REFRESH_COOKIE_PATH, cookies: { [REFRESH_COOKIE]: current }, payload: { clientId: WEB_CLIENT_ID } });
    expect(afterReplay.json().code).toBe(-5);

    // The other tenant's admin's own session is untouched by all of this.
    const attacker = TokenGrant.parse((await signInAsWebApp(tenantA.user.email)).json().data);
    expect((await t.app.inject({ method: 'POST', url: '/msbapi/v1/checksession', headers: bearer(attacker) })).json().code).toBe(1);
  });

  it('answers every request with a CSP that forbids inline script and framing', async () => {
    for (const url of ['/msbapi/public/alive', '/msbapi/v1/users/valid', '/emailsign?token=x']) {
      const res = await t.app.inject({ method: 'GET', url });
      const csp = String(res.headers['content-security-policy']);
      expect(csp, url).toMatch(/script-src 'self' 'wasm-unsafe-eval';/);
      expect(csp, url).not.toMatch(/script-src[^;]*'unsafe-inline'/);
      expect(csp, url).toContain("frame-ancestors 'none'");
      expect(res.headers['referrer-policy'], url).toBe('no-referrer');
    }
  });
});
