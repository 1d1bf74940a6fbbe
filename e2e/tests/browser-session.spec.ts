import fs from 'node:fs';
import type { Page, Request } from '@playwright/test';
import { expect, test } from './fixtures';
import { refreshToken } from '@pakt/domain';
import { call, callData } from './api';
import { bundles, h1, keepScreenshot, logOutAs, signUpAndConfirm } from './support';

const { en } = bundles;
const REFRESH_PATH = refreshToken.path;
const REFRESH_COOKIE = 'pakt_refresh';
const SHOTS = '/tmp/shots';

/**
 * Issue 17 item 7: the session runs on an httpOnly refresh cookie and an access token held in the
 * page's memory, under a script CSP. Sign-in, reload, a dead access token and logout all work, and
 * nothing through the journey logs an error or breaks the policy.
 */
test('the session lives in an httpOnly cookie under a strict CSP: sign-in, reload, refresh, logout', async ({ page, request }, testInfo) => {
  const project = testInfo.project.name;
  const person = {
    email: `csp.${project}@browser-session.test`,
    firstName: 'Kavya',
    lastName: 'Nair',
    orgName: `Menon Cold Storage ${project}`,
    password: 'Cookie-password-2025',
  };
  const name = `${person.firstName} ${person.lastName}`;
  const accountMenu = () => page.getByRole('button', { name: en.shell.accountMenu.replace('{{name}}', name) });

  // Everything the page complains about, from the first navigation on.
  const problems: string[] = [];
  // The one step that kills the access token on purpose expects its refusals (logged by Chromium).
  let deadTokenStep = false;
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    if (deadTokenStep && /status of 401/.test(message.text())) return;
    problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  await page.exposeFunction('reportCspViolation', (text: string) => problems.push(`csp: ${text}`));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      (window as unknown as { reportCspViolation(text: string): void }).reportCspViolation(`${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}:${event.lineNumber}:${event.columnNumber}`);
    });
  });

  const refreshCookie = async () => (await page.context().cookies()).find((cookie) => cookie.name === REFRESH_COOKIE);
  async function expectNoTokenInStorage(page: Page) {
    const cookie = await refreshCookie();
    const stored = await page.evaluate(() => JSON.stringify({ local: { ...localStorage }, session: { ...sessionStorage } }));
    expect(stored.toLowerCase(), 'no token of any kind in web storage').not.toContain('token');
    if (cookie) expect(stored).not.toContain(cookie.value);
  }

  await test.step('the login page is served with the CSP and shows without errors', async () => {
    const response = await page.goto('/login');
    const csp = response?.headers()['content-security-policy'] ?? '';
    expect(csp).toContain("script-src 'self' 'wasm-unsafe-eval';");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(response?.headers()['x-content-type-options']).toBe('nosniff');
    expect(response?.headers()['referrer-policy']).toBe('no-referrer');
    await expect(h1(page)).toHaveText(en.login.title);
    if (project === 'desktop') await shotsAtBothWidths(page, 'login');
  });

  await test.step('signing in leaves the refresh token in an httpOnly, SameSite=Strict cookie on the refresh path only', async () => {
    await signUpAndConfirm(page, request, person);
    const cookie = await refreshCookie();
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: REFRESH_PATH, secure: true });
    await expectNoTokenInStorage(page);
  });

  await test.step('a reload keeps the session: the cookie restores it', async () => {
    await page.goto('/landing');
    await expect(accountMenu()).toBeVisible();
    const before = (await refreshCookie())!.value;
    const refreshes: Request[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === REFRESH_PATH) refreshes.push(r);
    });
    await page.reload();
    await expect(accountMenu()).toBeVisible();
    expect(page.url()).not.toMatch(/\/(login|accessdenied)/);
    expect(refreshes, 'one refresh restores the session').toHaveLength(1);
    // The browser sends the cookie; the page has no token to put in the body.
    expect(refreshes[0]!.postDataJSON()).toEqual({ clientId: 'MSB3' });
    const answer = await (await refreshes[0]!.response())!.json();
    expect(answer.data.refreshToken).toBeUndefined();
    expect((await refreshCookie())!.value, 'rotated').not.toBe(before);
    await expectNoTokenInStorage(page);
    if (project === 'desktop') await shotsAtBothWidths(page, 'dashboard-after-reload');
  });

  await test.step('a dead access token is refreshed once and the refused call retried', async () => {
    // Another client of the same session rotates the cookie (as another tab would): the access
    // token this page holds in memory dies with the old pair, and the browser gets the new cookie.
    const old = (await refreshCookie())!;
    // Sent in the body, the new refresh token comes back in the body (the contract leaves it optional for the cookie's case).
    const fresh = (await callData(request, refreshToken, { body: { clientId: 'MSB3', refreshToken: old.value } })).refreshToken!;
    await page.context().addCookies([{ ...old, value: fresh }]);

    const calls: Request[] = [];
    deadTokenStep = true;
    page.on('request', (r) => {
      if (new URL(r.url()).pathname.startsWith('/msbapi/v1/')) calls.push(r);
      if (new URL(r.url()).pathname === REFRESH_PATH) calls.push(r);
    });
    await accountMenu().click();
    // A page not seen yet in this journey, so its data must be asked for with the dead token.
    await page.getByRole('menuitem', { name: en.shell.outbox }).click();
    await expect(h1(page)).toHaveText(en.outbox.title);
    const path = (r: Request) => new URL(r.url()).pathname;
    /** Each call refused with 401, and the status of its retry (0: not retried yet). */
    const outcome = async () => {
      const result: string[] = [];
      for (const call of calls.filter((r) => path(r) !== REFRESH_PATH)) {
        if ((await call.response())?.status() !== 401) continue;
        const retry = calls.find((r) => path(r) === path(call) && calls.indexOf(r) > calls.indexOf(call));
        result.push(`${path(call)} ${(await retry?.response())?.status() ?? 0}`);
      }
      return result;
    };
    await expect.poll(async () => (await outcome()).length > 0 && (await outcome()).every((line) => line.endsWith(' 200'))).toBe(true);
    expect(calls.filter((r) => path(r) === REFRESH_PATH), 'exactly one refresh').toHaveLength(1);
    expect(page.url()).not.toContain('/accessdenied');
    deadTokenStep = false;
    await expectNoTokenInStorage(page);
  });

  await test.step('logout ends it: the cookie is gone and the old one no longer refreshes', async () => {
    const before = (await refreshCookie())!.value;
    await logOutAs(page, name);
    expect(await refreshCookie()).toBeUndefined();
    const refused = await call(request, refreshToken, { body: { clientId: 'MSB3', refreshToken: before } });
    expect(refused.status()).toBe(401);
    // A reload stays signed out.
    await page.reload();
    await expect(h1(page)).toHaveText(en.login.title);
    await expectNoTokenInStorage(page);
  });

  expect(problems, 'no console errors, page errors or CSP violations').toEqual([]);
});

/** The page as it is at 1280 and at 390 px wide, into /tmp/shots/, then back to the project's size. */
async function shotsAtBothWidths(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SHOTS, { recursive: true });
  const original = page.viewportSize();
  for (const [label, width] of [['desktop', 1280], ['phone', 390]] as const) {
    await page.setViewportSize({ width, height: 844 });
    await keepScreenshot(page, { path: `${SHOTS}/${name}-${label}.png`, fullPage: true });
  }
  if (original) await page.setViewportSize(original);
}
