import { expect, type Page, type TestInfo } from '@playwright/test';
import { fileURLToPath } from 'node:url';
import en from '../../apps/web/src/i18n/en.json' with { type: 'json' };
import hi from '../../apps/web/src/i18n/hi.json' with { type: 'json' };

// The app's own bundles: journeys assert what a person reads without copying the wording here.
export const bundles = { en, hi };

const screenshotDir = fileURLToPath(new URL('../screenshots/', import.meta.url));

/** Full-page capture named `<project>-<name>.png`, kept for people to look at after a run. */
export async function saveScreenshot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  await page.screenshot({ path: `${screenshotDir}${testInfo.project.name}-${name}.png`, fullPage: true });
}

/** Sideways scrolling is the usual symptom of a layout that does not fit a phone. */
export async function expectNoHorizontalOverflow(page: Page): Promise<void> {
  const widths = await page.evaluate(() => ({
    content: document.documentElement.scrollWidth,
    viewport: document.documentElement.clientWidth,
  }));
  expect(widths.content, 'page is wider than the viewport').toBeLessThanOrEqual(widths.viewport);
}
