import { expect, test } from './fixtures';
import { bundles, saveScreenshotAtBothSizes } from './support';

const { en } = bundles;

test('an unknown address shows the not-found page with a way home', async ({ page }) => {
  const response = await page.goto('/this/page/does-not-exist');
  expect(response?.ok(), 'the server hands unknown paths to the app').toBe(true);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(en.notFound.title);
  await expect(page.getByText('/this/page/does-not-exist', { exact: true })).toBeVisible();
  // The same page at both sizes: checked to fit, and pictured, at each.
  await saveScreenshotAtBothSizes(page, 'not-found');

  await page.getByRole('link', { name: en.common.goHome }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Pakt' })).toBeVisible();
});
