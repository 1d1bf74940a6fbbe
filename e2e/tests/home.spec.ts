import { expect, test } from './fixtures';
import { publicAlive } from '@pakt/domain';
import { callData } from './api';
import { bundles, ensureRoot, h1, ROOT, saveScreenshotAtBothSizes, signInWith } from './support';

const { en, hi } = bundles;

test('a new visitor learns what Pakt is on / and finds Sign-in there, in English and in Hindi', async ({ page }) => {
  await page.goto('/');
  await expect(h1(page)).toHaveText('Pakt');
  await expect(page.getByText(en.home.tagline)).toBeVisible();
  await expect(page.getByText(en.home.padesTitle)).toBeVisible();
  await expect(page.getByText(en.home.selfHostedTitle)).toBeVisible();
  // The server's internals are root's business, not the visitor's.
  await expect(page.getByTestId('server-status')).toHaveCount(0);
  await expect(page).toHaveTitle('Pakt');
  await expect(page.getByRole('link', { name: en.shell.homeLink })).toHaveAttribute('href', '/');
  await saveScreenshotAtBothSizes(page, 'home-en');

  await page.getByRole('combobox', { name: en.shell.language }).selectOption('hi');
  await expect(page.getByText(hi.home.tagline)).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'hi');
  await page.reload();
  await expect(page.getByText(hi.home.tagline)).toBeVisible();
  await expect(page.getByRole('combobox', { name: hi.shell.language })).toHaveValue('hi');
  await saveScreenshotAtBothSizes(page, 'home-hi');

  await page.getByRole('link', { name: hi.common.signIn }).first().click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(h1(page)).toHaveText(hi.login.title);
});

test("signed in, / is the landing page, and root's console shows the server's status", async ({ page, request }) => {
  const alive = await callData(request, publicAlive, {});
  expect(alive.status).toBe('UP');
  await ensureRoot(request);

  await page.goto('/login');
  await signInWith(page, ROOT.email, ROOT.password);
  await expect(page).toHaveURL(/\/root$/);
  await page.goto('/');
  await expect(page).toHaveURL(/\/root$/);
  await expect(page.getByRole('link', { name: en.shell.homeLink })).toHaveAttribute('href', '/root');

  await page.getByRole('tab', { name: en.root.server.tab }).click();
  await expect(page.getByTestId('server-status')).toHaveText(en.root.server.up);
  await expect(page.getByText(alive.version, { exact: true })).toBeVisible();
  await expect(page.getByText(en.root.server.databaseKinds[alive.database], { exact: true })).toBeVisible();
  await expect(page.getByText('English, हिन्दी')).toBeVisible();
  await saveScreenshotAtBothSizes(page, 'root-server-status');
});
