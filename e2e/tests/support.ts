import { expect, type Page, type TestInfo } from '@playwright/test';
import { fileURLToPath } from 'node:url';
import en from '../../apps/web/src/i18n/en.json' with { type: 'json' };
import hi from '../../apps/web/src/i18n/hi.json' with { type: 'json' };

// The app's own bundles: journeys assert what a person reads without copying the wording here.
export const bundles = { en, hi };

const screenshotDir = fileURLToPath(new URL('../screenshots/', import.meta.url));

/** Full-page capture named `<project>-<name>.png`, kept for people to look at after a run. */
export async function saveScreenshot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  await scrollToTop(page);
  await page.screenshot({ path: `${screenshotDir}${testInfo.project.name}-${name}.png`, fullPage: true });
}

/**
 * A full-page capture of a scrolled page draws the fixed header where the viewport was, across the
 * middle of the picture; from the top it sits where a person sees it.
 */
async function scrollToTop(page: Page): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
}

/** The viewports of the two projects in playwright.config.ts. */
export const VIEWPORTS = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 375, height: 812 },
} as const;

/**
 * Captures a screen at both project sizes from one run, for a screen that exists only once per
 * server (the first-run setup form: whichever project runs first uses it up). The page is laid
 * out by media queries, so resizing shows what the other device would; the viewport is restored.
 */
export async function saveScreenshotAtBothSizes(page: Page, name: string): Promise<void> {
  const original = page.viewportSize();
  for (const [project, size] of Object.entries(VIEWPORTS)) {
    await page.setViewportSize(size);
    await expectNoHorizontalOverflow(page);
    await scrollToTop(page);
    await page.screenshot({ path: `${screenshotDir}${project}-${name}.png`, fullPage: true });
  }
  if (original) await page.setViewportSize(original);
}

/** Sideways scrolling is the usual symptom of a layout that does not fit a phone. */
export async function expectNoHorizontalOverflow(page: Page): Promise<void> {
  const widths = await page.evaluate(() => ({
    content: document.documentElement.scrollWidth,
    viewport: document.documentElement.clientWidth,
  }));
  expect(widths.content, 'page is wider than the viewport').toBeLessThanOrEqual(widths.viewport);
}
