import type { Browser, Page } from '@playwright/test';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { callData, composedEpakThroughApi } from './api';
import { e2eServer, expect, test } from './fixtures';
import { addSuperAdmin, apiHeadersOf, bundles, expectNoHorizontalOverflow, h1, inviteAndRegister, saveScreenshotAtBothSizes, signInWith, signUpAndConfirm, ROOT, ensureRoot } from './support';
import { startEpak } from '@pakt/domain';

const { en } = bundles;

const CORPUS = fileURLToPath(new URL('../../../shared/corpus/pdfs/', import.meta.url));
const PLAIN = 'plain-1p-libreoffice.pdf';

interface Person {
  readonly email: string;
  readonly firstName: string;
  readonly lastName: string;
  readonly password: string;
}

/** Titles that mean a menu item led nowhere useful. */
const DEAD_ENDS = [en.accessDenied.forbidden.title, en.notFound.title];

async function signedInPage(browser: Browser, person: Person): Promise<Page> {
  const page = await (await browser.newContext({ baseURL: e2eServer().url })).newPage();
  await page.goto('/login');
  await signInWith(page, person.email, person.password);
  await expect(page).not.toHaveURL(/\/login/);
  return page;
}

/** The enabled items of the main menu (links; items still to come are disabled buttons), by name. */
async function enabledMenuItems(page: Page): Promise<string[]> {
  await page.getByRole('button', { name: en.menu.open }).click();
  await expect(page.getByRole('menuitem').first()).toBeVisible();
  const names = await page.locator('a[role="menuitem"]').allTextContents();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('menuitem')).toHaveCount(0);
  return names;
}

/** Opens each enabled item of the menu in turn, and checks each leads to a page of its own, not a dead end. */
async function openEveryItem(page: Page, who: string): Promise<string[]> {
  const names = await enabledMenuItems(page);
  expect(names.length, `${who} has a menu`).toBeGreaterThan(0);
  const reached: string[] = [];
  for (const name of names) {
    await page.getByRole('button', { name: en.menu.open }).click();
    const item = page.locator('a[role="menuitem"]').filter({ hasText: new RegExp(`^${name}$`) });
    const target = new URL((await item.getAttribute('href')) ?? '', page.url()).pathname;
    await item.click();
    await expect(page.getByRole('menuitem')).toHaveCount(0);
    // A page's code loads when it is first opened, and until then the page before stays: its
    // title is read once the address is the item's.
    await expect(page).toHaveURL((url) => url.pathname === target);
    await expect(h1(page)).toBeVisible();
    const title = (await h1(page).textContent()) ?? '';
    expect(DEAD_ENDS, `${who}'s "${name}" opens a page (${page.url()})`).not.toContain(title);
    expect(new URL(page.url()).pathname, `${who}'s "${name}"`).not.toBe('/accessdenied');
    reached.push(`${name} → ${new URL(page.url()).pathname}`);
  }
  return reached;
}

test('every role lands on its start page and opens every item of its menu; a registrar reviews an ePak from the dashboard', async ({ page, request, browser }) => {
  test.setTimeout(300_000);
  const admin = { email: 'asha@roles.test', firstName: 'Asha', lastName: 'Menon', orgName: 'Menon Logistics', password: 'Roles-password-2025' };
  const people: Record<'signer' | 'submitter' | 'custodian' | 'registrar', Person> = {
    signer: { email: 'sid@roles.test', firstName: 'Sid', lastName: 'Rao', password: 'Member-password-2025' },
    submitter: { email: 'suma@roles.test', firstName: 'Suma', lastName: 'Bose', password: 'Member-password-2025' },
    custodian: { email: 'kabir@roles.test', firstName: 'Kabir', lastName: 'Das', password: 'Member-password-2025' },
    registrar: { email: 'rekha@roles.test', firstName: 'Rekha', lastName: 'Gill', password: 'Member-password-2025' },
  };
  const boss: Person = { email: 'sanjay@roles.test', firstName: 'Sanjay', lastName: 'Iyer', password: 'Super-password-2025' };
  const subject = 'Warehouse register entry 14';
  let adminHeaders: Record<string, string> = {};

  await test.step('an organisation with one person of each role, and an ePak for the registrar to review', async () => {
    await signUpAndConfirm(page, request, admin);
    adminHeaders = await apiHeadersOf(request, admin.email, admin.password);
    for (const [role, person] of Object.entries(people)) await inviteAndRegister(request, adminHeaders, person, role);
    await addSuperAdmin(request, adminHeaders['x-tenant-id']!, boss);
    const epak = await composedEpakThroughApi(request, {
      headers: adminHeaders,
      file: { name: PLAIN, mimeType: 'application/pdf', buffer: fs.readFileSync(`${CORPUS}${PLAIN}`) },
      subject,
      signingPolicy: 'ESIGNATURE',
      steps: [{ type: 'REVIEW', recipients: [people.registrar.email] }],
    });
    await callData(request, startEpak, { headers: adminHeaders, params: { ePakId: epak.ePakId } });
  });

  await test.step('the admin opens every item of the admin menu', async () => {
    await page.goto('/landing');
    await expect(page).toHaveURL(/\/dashboard$/);
    const reached = await openEveryItem(page, 'admin');
    expect(reached.some((item) => item.endsWith('/admin'))).toBe(true);
  });

  for (const role of ['signer', 'submitter', 'custodian'] as const) {
    await test.step(`the ${role} lands on the dashboard and opens every item of their menu`, async () => {
      const someone = await signedInPage(browser, people[role]);
      await expect(someone).toHaveURL(/\/dashboard$/);
      await expect(h1(someone)).not.toHaveText(en.accessDenied.forbidden.title);
      const reached = await openEveryItem(someone, role);
      expect(reached.some((item) => item.endsWith('/compose')), `${role} composes`).toBe(role !== 'signer');
      await someone.context().close();
    });
  }

  await test.step('the super admin lands on the settings, their only item', async () => {
    const someone = await signedInPage(browser, boss);
    await expect(someone).toHaveURL(/\/settings$/);
    expect(await openEveryItem(someone, 'super admin')).toEqual([`${en.menu.settings} → /settings`]);
    await someone.context().close();
  });

  await test.step('root lands on the console', async () => {
    await ensureRoot(request);
    const someone = await signedInPage(browser, ROOT);
    await expect(someone).toHaveURL(/\/root$/);
    await someone.context().close();
  });

  await test.step('the registrar lands on the dashboard, finds the ePak under ePaks, opens it and marks it reviewed', async () => {
    // Issue 21: the registrar landed on "You don't have access to this page": the dashboard's calls all answered -11.
    const registrar = await signedInPage(browser, people.registrar);
    await expect(registrar).toHaveURL(/\/dashboard$/);
    await expect(h1(registrar)).not.toHaveText(en.accessDenied.forbidden.title);
    await saveScreenshotAtBothSizes(registrar, 'registrar-dashboard');
    const reached = await openEveryItem(registrar, 'registrar');
    expect(reached.map((item) => item.split(' → ')[1])).toEqual(expect.arrayContaining(['/dashboard', '/epaks']));
    await registrar.goto('/epaks');
    const row = registrar.getByTestId('epak-row').filter({ hasText: subject });
    await expect(row).toBeVisible();
    await saveScreenshotAtBothSizes(registrar, 'registrar-epaks');
    // The document is held back until the loading notice has been looked at: it must not cover the "Page 1 of 1" label.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await registrar.route('**/documents/*/download', async (route) => {
      await held;
      // A request the page gave up on meanwhile (it asks again once laid out anew) is gone already.
      await route.continue().catch(() => undefined);
    });
    await row.click();
    await expect(registrar.getByRole('heading', { level: 1, name: subject })).toBeVisible();
    const loading = registrar.getByTestId('pdf-loading');
    await expect(loading).toBeVisible();
    const label = registrar.getByText(en.tagEditor.pageOf.replace('{{number}}', '1').replace('{{count}}', '1'), { exact: true });
    const [notice, pageLabel] = [(await loading.boundingBox())!, (await label.boundingBox())!];
    expect(notice.y >= pageLabel.y + pageLabel.height || notice.y + notice.height <= pageLabel.y, 'the loading notice leaves the page label readable').toBe(true);
    await saveScreenshotAtBothSizes(registrar, 'registrar-review-loading');
    release();
    await registrar.unroute('**/documents/*/download');
    const review = registrar.getByRole('button', { name: en.signing.actions.review });
    await expect(review).toBeEnabled({ timeout: 30_000 });
    // Issue 21: at 1280 px the label was cut to "Mark as revie".
    expect(await review.evaluate((button) => Array.from(button.querySelectorAll('span')).some((span) => span.scrollWidth > span.clientWidth + 1))).toBe(false);
    await saveScreenshotAtBothSizes(registrar, 'registrar-review');
    await review.click();
    await expect(registrar.getByTestId('signing-outcome')).toHaveText(en.signing.outcome.reviewedCompleted, { timeout: 30_000 });
    await expectNoHorizontalOverflow(registrar);
    await registrar.context().close();
  });
});
