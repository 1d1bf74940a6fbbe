import type { Browser, Page } from '@playwright/test';
import { e2eServer, expect, test } from './fixtures';
import { addSuperAdmin, apiHeadersOf, bundles, captureAtBothSizes, expectNoHorizontalOverflow, h1, inviteAndRegister, menuItems, signInWith, signUpAndConfirm } from './support';

const { en } = bundles;
const s = en.settings;

// E2E_SCREENSHOT_DIR lets a reviewer collect this journey's pictures apart from the others'.
const screenshotDir = (process.env.E2E_SCREENSHOT_DIR ?? '/tmp/shots-settings').replace(/\/?$/, '/');

const captureBoth = (page: Page, name: string) => captureAtBothSizes(page, screenshotDir, name);

interface Person {
  readonly email: string;
  readonly firstName: string;
  readonly lastName: string;
  readonly password: string;
}

async function signedInPage(browser: Browser, person: Person): Promise<Page> {
  const page = await (await browser.newContext({ baseURL: e2eServer().url })).newPage();
  await page.goto('/login');
  await signInWith(page, person.email, person.password);
  await expect(page).not.toHaveURL(/\/login/);
  return page;
}

const mentions = (items: string[], label: string) => items.some((item) => item.startsWith(label));

test('a super admin turns team rooms off, and the menu item disappears for everyone in the organisation', async ({ page, request, browser }, testInfo) => {
  test.setTimeout(240_000);
  const project = testInfo.project.name;
  const admin = { email: `rhea.${project}@settings.test`, firstName: 'Rhea', lastName: 'Nair', orgName: `Nair Textiles ${project}`, password: 'Settings-password-2025' };
  const signer: Person = { email: `om.${project}@settings.test`, firstName: 'Om', lastName: 'Pillai', password: 'Member-password-2025' };
  const boss: Person = { email: `sara.${project}@settings.test`, firstName: 'Sara', lastName: 'Iqbal', password: 'Super-password-2025' };

  await test.step('an organisation with an admin, a signer, and a super admin invited by root', async () => {
    await signUpAndConfirm(page, request, admin);
    const adminHeaders = await apiHeadersOf(request, admin.email, admin.password);
    await inviteAndRegister(request, adminHeaders, signer, 'signer');

    await addSuperAdmin(request, adminHeaders['x-tenant-id']!, boss);
  });

  const adminPage = page;
  await test.step('the admin and the signer both have team rooms in their menu', async () => {
    await adminPage.goto('/dashboard');
    expect(mentions(await menuItems(adminPage), en.menu.teamroom)).toBe(true);
  });
  const signerPage = await signedInPage(browser, signer);
  expect(mentions(await menuItems(signerPage), en.menu.teamroom)).toBe(true);

  const bossPage = await signedInPage(browser, boss);
  await test.step('the super admin lands on the settings, the only item of their menu', async () => {
    await expect(bossPage).toHaveURL(/\/settings$/);
    await expect(h1(bossPage)).toHaveText(s.title);
    expect(await menuItems(bossPage)).toEqual([en.menu.settings]);
    if (project === 'desktop') {
      for (const section of ['features', 'signin', 'people', 'epaks'] as const) {
        await bossPage.getByRole('tab', { name: s.sections[section] }).click();
        await expect(bossPage.getByRole('tab', { name: s.sections[section] })).toHaveAttribute('aria-selected', 'true');
        await captureBoth(bossPage, `settings-${section}`);
      }
      await bossPage.getByRole('tab', { name: s.sections.features }).click();
    } else {
      await expectNoHorizontalOverflow(bossPage);
    }
  });

  await test.step('a rule broken is explained beside its field, and nothing is saved', async () => {
    await bossPage.getByRole('tab', { name: s.sections.epaks }).click();
    await bossPage.getByRole('switch', { name: new RegExp(`^${s.fields.cloudDriveUploadEnabled.label}`) }).click({ force: true });
    await bossPage.getByRole('button', { name: s.save }).click();
    await expect(bossPage.getByRole('alert').filter({ hasText: 'Nothing was saved' })).toBeVisible();
    await expect(bossPage.getByText('Cloud-drive upload needs the application (client) ID registered with the drive.')).toBeVisible();
    if (project === 'desktop') await captureBoth(bossPage, 'settings-refused');
    await bossPage.getByRole('button', { name: s.discard }).click();
    await expect(bossPage.getByText(s.noChanges)).toBeVisible();
  });

  await test.step('team rooms off, saved', async () => {
    await bossPage.getByRole('tab', { name: s.sections.features }).click();
    const teamRooms = bossPage.getByRole('switch', { name: new RegExp(`^${s.fields.teamRoomsEnabled.label}`) });
    await expect(teamRooms).toBeChecked();
    // Mantine draws its own track over the input: the click lands on the label.
    await teamRooms.click({ force: true });
    await expect(bossPage.getByText('1 unsaved change')).toBeVisible();
    await bossPage.getByRole('button', { name: s.save }).click();
    await expect(bossPage.getByText(s.saved)).toBeVisible();
    await expect(teamRooms).not.toBeChecked();
  });

  await test.step('at their next page load, neither the admin nor the signer has team rooms', async () => {
    for (const someone of [adminPage, signerPage]) {
      await someone.reload();
      await expect(someone.getByRole('button', { name: en.menu.open })).toBeVisible();
      const items = await menuItems(someone);
      expect(items.length).toBeGreaterThan(0);
      expect(mentions(items, en.menu.teamroom)).toBe(false);
      // The admin still has the rest of their menu.
      if (someone === adminPage) expect(mentions(items, en.menu.admin)).toBe(true);
    }
  });

  await test.step('the change is in the audit log the admin reads', async () => {
    await adminPage.goto('/admin?section=audit');
    // The log is read fresh from the server; on a busy machine that can take more than 5 s.
    await expect(adminPage.getByText(en.adminAudit.actions.settings_changed).first()).toBeVisible({ timeout: 15_000 });
  });
});
