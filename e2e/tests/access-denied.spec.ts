import { expect, test } from './fixtures';
import { bundles, saveScreenshotAtBothSizes } from './support';

const { en } = bundles;
const statuses = ['expired', 'unauthorized', 'licenseexpired', 'servererror', 'forbidden'] as const;

for (const status of statuses) {
  test(`access denied for status ${status} explains itself and offers a way on`, async ({ page }) => {
    const copy = en.accessDenied[status];
    await page.goto(`/accessdenied?status=${status}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(copy.title);
    await expect(page.getByText(copy.description)).toBeVisible();
    await expect(page.getByRole(status === 'servererror' ? 'button' : 'link', { name: copy.action })).toBeVisible();
    await expect(page).toHaveTitle(`${copy.title} · Pakt`);
    // The same page at both sizes: checked to fit, and pictured, at each.
    await saveScreenshotAtBothSizes(page, `accessdenied-${status}`);
  });
}

test('access denied with an unknown status falls back to forbidden', async ({ page }) => {
  await page.goto('/accessdenied?status=whatever');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(en.accessDenied.forbidden.title);
});

test('sign in again leads from an expired session towards the login page', async ({ page }) => {
  await page.goto('/accessdenied?status=expired');
  await page.getByRole('link', { name: en.accessDenied.expired.action }).click();
  await expect(page).toHaveURL(/\/login$/);
});
