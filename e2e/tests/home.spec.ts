import { expect, test } from './fixtures';
import { publicAlive } from '@pakt/domain';
import { callData } from './api';
import { bundles, saveScreenshotAtBothSizes } from './support';

const { en, hi } = bundles;

test('home shows the live server status and keeps a switch to Hindi across a reload', async ({
  page,
  request,
}) => {
  const alive = await callData(request, publicAlive, {});
  expect(alive.status).toBe('UP');

  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: 'Pakt' })).toBeVisible();
  await expect(page.getByText(en.home.tagline)).toBeVisible();
  await expect(page.getByTestId('server-status')).toHaveText(en.home.statusUp);
  await expect(page.getByText(alive.version, { exact: true })).toBeVisible();
  await expect(page.getByText(en.home.databaseKinds[alive.database], { exact: true })).toBeVisible();
  await expect(page.getByText('English, हिन्दी')).toBeVisible();
  await expect(page).toHaveTitle('Pakt');
  // The same page at both sizes: checked to fit, and pictured, at each.
  await saveScreenshotAtBothSizes(page, 'home-en');

  await page.getByRole('combobox', { name: en.shell.language }).selectOption('hi');
  await expect(page.getByText(hi.home.tagline)).toBeVisible();
  await expect(page.getByTestId('server-status')).toHaveText(hi.home.statusUp);
  await expect(page.locator('html')).toHaveAttribute('lang', 'hi');

  await page.reload();
  await expect(page.getByText(hi.home.tagline)).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: hi.home.statusHeading })).toBeVisible();
  await expect(page.getByRole('combobox', { name: hi.shell.language })).toHaveValue('hi');
  await expect(page.locator('html')).toHaveAttribute('lang', 'hi');
  await expect(page.getByTestId('server-status')).toHaveText(hi.home.statusUp);
  await saveScreenshotAtBothSizes(page, 'home-hi');
});
