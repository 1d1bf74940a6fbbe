import { expect, test } from '@playwright/test';
import { bundles, expectNoHorizontalOverflow, saveScreenshot } from './support';

const { en } = bundles;

test('an unknown address shows the not-found page with a way home', async ({ page }, testInfo) => {
  const response = await page.goto('/this/page/does-not-exist');
  expect(response?.ok(), 'the server hands unknown paths to the app').toBe(true);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(en.notFound.title);
  await expect(page.getByText('/this/page/does-not-exist', { exact: true })).toBeVisible();
  await expectNoHorizontalOverflow(page);
  await saveScreenshot(page, testInfo, 'not-found');

  await page.getByRole('link', { name: en.common.goHome }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Pakt' })).toBeVisible();
});
