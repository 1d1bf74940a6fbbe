import type { Request } from '@playwright/test';
import { expect, test } from './fixtures';
import { publicConfiguration, refreshToken, tenantOutbox } from '@pakt/domain';
import { callData } from './api';
import { bundles, h1, saveScreenshotAtBothSizes, signUpAndConfirm } from './support';

const { en } = bundles;

test('a dead access token is refreshed once through the refresh cookie, and the refused call is retried', async ({ page, request }, testInfo) => {
  const project = testInfo.project.name;
  const person = {
    email: `dev.${project}@refresh.test`,
    firstName: 'Dev',
    lastName: 'Menon',
    orgName: `Menon Textiles ${project}`,
    password: 'Refresh-password-2025',
  };
  const accountMenu = () => page.getByRole('button', { name: en.shell.accountMenu.replace('{{name}}', `${person.firstName} ${person.lastName}`) });
  // The notification socket re-checks its session every minute on the server; a re-check that
  // lands between the rotation below and the page's next call makes the socket renew the token
  // first, rightly, and then no call is ever refused, which is the path this journey is about.
  // So the socket talks to a stand-in that never answers (the socket's own renewal has its tests).
  await page.routeWebSocket(/\/notification/, () => {});
  const calls: Request[] = [];
  // The token the page holds: the one on its latest call.
  let heldToken: string | undefined;
  page.on('request', (r) => {
    if (new URL(r.url()).pathname.startsWith('/msbapi/') && !new URL(r.url()).pathname.startsWith(publicConfiguration.path)) calls.push(r);
    heldToken = r.headers()['authorization'] ?? heldToken;
  });

  await test.step('an admin is signed in, on the dashboard', async () => {
    await signUpAndConfirm(page, request, person);
    await page.goto('/landing');
    await expect(accountMenu()).toBeVisible();
    // The dashboard's own calls are done: one still in flight at the rotation below would race it
    // (sent with the token being killed, or refreshing with the cookie being replaced).
    await page.waitForLoadState('networkidle');
  });

  // The access token lives in the page's memory and the refresh token in an httpOnly cookie. The
  // server's rotation kills the pair the page holds: its access token is now refused exactly as an
  // expired one is (401), while the browser is handed the new refresh cookie, as another tab of the
  // same session would leave it.
  const deadAccessToken = await test.step('the access token stops working on the server', async () => {
    const held = heldToken!;
    expect(held).toMatch(/^Bearer /);
    const old = (await page.context().cookies()).find((cookie) => cookie.name === 'pakt_refresh')!;
    // Sent in the body, the new refresh token comes back in the body (the contract leaves it optional for the cookie's case).
    const fresh = (await callData(request, refreshToken, { body: { clientId: 'MSB3', refreshToken: old.value } })).refreshToken!;
    await page.context().addCookies([{ ...old, value: fresh }]);
    // Only what happens from here on counts (the page load restored the session with a refresh of its own).
    calls.length = 0;
    await accountMenu().click();
    await page.getByRole('menuitem', { name: en.shell.outbox }).click();
    return held;
  });

  await test.step('the refused calls share one refresh through the cookie, and each is retried once', async () => {
    await expect(h1(page)).toHaveText(en.outbox.title);
    await expect(page.getByText(en.outbox.tenantIntro.replace('{{tenant}}', person.orgName))).toBeVisible();
    const path = (r: Request) => new URL(r.url()).pathname;
    // Every call a session guards (the outbox page asks v1 and v2 endpoints; whichever goes first
    // meets the dead token, and the others may wait for the one refresh and go with the new one).
    const guarded = () => calls.filter((r) => !path(r).startsWith('/msbapi/public/'));
    // The page's own call ends well, with the renewed token.
    await expect
      .poll(async () => {
        for (const call of guarded().filter((r) => path(r) === tenantOutbox.path)) if ((await call.response())?.status() === 200) return true;
        return false;
      })
      .toBe(true);
    // Whatever was in flight with the dead token was refused, and (unless its page was left
    // meanwhile, which cancels it) asked again with the new one.
    let refused = 0;
    for (const call of guarded()) {
      if ((await call.response())?.status() !== 401) continue;
      refused += 1;
      expect(call.headers()['authorization']).toBe(deadAccessToken);
    }
    expect(refused, 'the dead token was refused').toBeGreaterThan(0);
    const refreshes = calls.filter((r) => path(r) === refreshToken.path);
    expect(refreshes, 'exactly one refresh').toHaveLength(1);
    expect(refreshes[0]!.postDataJSON(), 'the cookie carries the token, not the body').toEqual({ clientId: 'MSB3' });
    // Every call sent after the refresh carries the new token.
    for (const call of guarded().filter((r) => calls.indexOf(r) > calls.indexOf(refreshes[0]!))) {
      expect(call.headers()['authorization'], path(call)).not.toBe(deadAccessToken);
    }
    expect(page.url()).not.toContain('/accessdenied');
    await saveScreenshotAtBothSizes(page, 'session-refreshed');
  });

  await test.step('and the renewed session keeps working, a reload included: a fresh sign-in is not needed', async () => {
    await page.goto('/profile');
    await expect(h1(page)).toHaveText(en.profile.title);
    expect(page.url()).toMatch(/\/profile$/);
  });
});
