import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect } from './fixtures';

/** The rules checked: WCAG 2.0, 2.1 and 2.2, levels A and AA. */
const WCAG_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/**
 * Runs axe-core on the page as it stands and fails on any serious or critical violation, naming
 * each rule and the elements it found, so a failure says what to fix. Minor and moderate findings
 * are returned for the caller to report, not failed on (issue 22: "fail on serious violations").
 */
export async function expectNoSeriousA11yViolations(page: Page, screen: string): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(WCAG_AA).analyze();
  const serious = results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  const described = serious.map((violation) => `${violation.id} (${violation.impact}): ${violation.help}\n    ${violation.nodes.map((node) => node.target.join(' ')).join('\n    ')}`);
  expect(described, `axe-core on ${screen}`).toEqual([]);
  return results.violations.filter((violation) => !serious.includes(violation)).map((violation) => `${violation.id} (${violation.impact})`);
}
