import { expect, test, type Request } from '@playwright/test';
import { STORAGE_KEYS } from '../../apps/web/src/api/storage-keys';
import { bundles, capture, h1, signUpAndConfirm } from './support';

const { en } = bundles;

test('a dead access token is refreshed once for two requests in flight, and both are retried', async ({ page, request }, testInfo) => {
  const project = testInfo.project.name;
  const person = {
    email: `dev.${project}@refresh.test`,
    firstName: 'Dev',
    lastName: 'Menon',
    orgName: `Menon Textiles ${project}`,
    password: 'Refresh-password-2025',
  };

  await test.step('an admin is signed in on the admin page', async () => {
    await signUpAndConfirm(page, request, person);
    await page.goto('/admin?section=outbox');
    await expect(h1(page)).toHaveText(en.outbox.title);
  });

  // The server's rotation kills the pair the browser holds: its access token is now refused exactly
  // as an expired one is (401), while the browser is handed the new refresh token, as another tab
  // of the same session would leave it.
  const deadAccessToken = await page.evaluate((key) => localStorage.getItem(key), STORAGE_KEYS.accessToken);
  await test.step('the access token stops working on the server', async () => {
    const refreshToken = await page.evaluate((key) => localStorage.getItem(key), STORAGE_KEYS.refreshToken);
    const rotated = await request.post('/msbapi/public/token/refresh', { data: { clientId: 'MSB3', refreshToken } });
    expect(rotated.ok(), await rotated.text()).toBe(true);
    const fresh = ((await rotated.json()) as { data: { refreshToken: string } }).data.refreshToken;
    await page.evaluate(([key, value]) => localStorage.setItem(key!, value!), [STORAGE_KEYS.refreshToken, fresh]);
    const refused = await request.get('/msbapi/v1/users/profile', { headers: { authorization: `Bearer ${deadAccessToken}` } });
    expect(refused.status()).toBe(401);
  });

  await test.step('reloading fires the header and the page at once; one refresh serves both', async () => {
    const calls: Request[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname.startsWith('/msbapi/') && !new URL(r.url()).pathname.startsWith('/msbapi/public/configuration')) calls.push(r);
    });
    await page.reload();
    await expect(h1(page)).toHaveText(en.outbox.title);
    await expect(page.getByText(en.outbox.tenantIntro.replace('{{tenant}}', person.orgName))).toBeVisible();
    // The header's account menu shows the name from the profile call, so it too succeeded.
    await expect(page.getByRole('button', { name: en.shell.accountMenu.replace('{{name}}', `${person.firstName} ${person.lastName}`) })).toBeVisible();

    const path = (r: Request) => new URL(r.url()).pathname;
    const auth = async (r: Request) => (await r.allHeaders())['authorization'];
    const refreshes = calls.filter((r) => path(r) === '/msbapi/public/token/refresh');
    expect(refreshes, 'exactly one refresh').toHaveLength(1);

    // On load the header asks for the profile and the route guard for the tenant's settings, at
    // once; the page's own outbox call comes after the guard, with the renewed token.
    const inFlight = ['/msbapi/v1/users/profile', '/msbapi/v1/accessibilities'];
    for (const endpoint of inFlight) {
      const tries = calls.filter((r) => path(r) === endpoint);
      expect(tries.length, `${endpoint} asked, refused, asked again`).toBe(2);
      expect(await auth(tries[0]!)).toBe(`Bearer ${deadAccessToken}`);
      expect((await tries[0]!.response())?.status()).toBe(401);
      expect(await auth(tries[1]!)).not.toBe(`Bearer ${deadAccessToken}`);
      expect((await tries[1]!.response())?.status()).toBe(200);
    }
    // Both first tries went out before the refresh did: they were in flight together.
    const refreshAt = calls.indexOf(refreshes[0]!);
    const firstTries = calls.filter((r) => inFlight.includes(path(r))).slice(0, 2);
    for (const r of firstTries) expect(calls.indexOf(r)).toBeLessThan(refreshAt);
    const outbox = calls.filter((r) => path(r) === '/msbapi/v1/outbox');
    expect(outbox).toHaveLength(1);
    expect(await auth(outbox[0]!)).not.toBe(`Bearer ${deadAccessToken}`);
    expect((await outbox[0]!.response())?.status()).toBe(200);

    expect(page.url()).not.toContain('/accessdenied');
    const stored = await page.evaluate((key) => localStorage.getItem(key), STORAGE_KEYS.accessToken);
    expect(stored).not.toBe(deadAccessToken);
    await capture(page, testInfo, 'session-refreshed');
  });

  await test.step('and the renewed session keeps working: a fresh sign-in is not needed', async () => {
    await page.goto('/profile');
    await expect(h1(page)).toHaveText(en.profile.title);
    expect(page.url()).toMatch(/\/profile$/);
  });
});
