import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { STORAGE_KEYS } from '../../apps/web/src/api/storage-keys';
import { setupStatus } from '@pakt/domain';
import { callData } from './api';
import { bundles, expectNoHorizontalOverflow, readSetupToken, saveScreenshot, saveScreenshotAtBothSizes } from './support';

const { en, hi } = bundles;

const root = { email: 'root@pakt.test', firstName: 'Ravi', lastName: 'Iyer', password: 'Root-password-2025' };

const h1 = (page: Page) => page.getByRole('heading', { level: 1 });
/** Mantine marks required labels with " *"; matching the start keeps the bundles' wording exact. */
const field = (page: Page, label: string) =>
  page.getByLabel(new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}( \\*)?$`), { exact: false });
const rule = (page: Page, name: string) => page.locator(`[data-rule="${name}"]`);

async function signIn(page: Page, email: string, password: string, copy: typeof en = en) {
  await field(page, copy.common.email).fill(email);
  await field(page, copy.common.password).fill(password);
  await page.getByRole('button', { name: copy.login.submit }).click();
}

async function logOut(page: Page, name: string, copy: typeof en = en) {
  await page.getByRole('button', { name: copy.shell.accountMenu.replace('{{name}}', name) }).click();
  await page.getByRole('menuitem', { name: copy.shell.logout }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(h1(page)).toHaveText(copy.login.title);
}

// This file's tests get a server no other file has used (tests/fixtures.ts): the first journey
// always finds the install fresh, so the first-run setup form is exercised in every run, and then
// checks what the setup link says once setup is done.
test.use({ freshServer: true });

// @phone: on a phone the header folds the account's name and the title away (the account menu is
// its avatar) and hangs its menus from the fixed header; signing out and in goes through them.
test('first-run setup, a tenant and its invited admin, sign-out and sign-in again, in two languages', { tag: '@phone' }, async ({
  page,
  request,
  context,
}, testInfo) => {
  // Two sign-ins and three sign-outs in two languages: longer than the default allows on a busy machine.
  test.setTimeout(180_000);
  const project = testInfo.project.name;
  const tenantName = `Acme Legal ${project}`;
  const admin = { email: `asha.${project}@acme.test`, firstName: 'Asha', lastName: 'Rao', password: 'Admin-password-2025' };
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);

  const token = readSetupToken();
  await test.step('root: first-run setup on the fresh install', async () => {
    const status = await callData(request, setupStatus, {});
    expect(status.required, 'the install is fresh (freshServer)').toBe(true);
    await page.goto(`/root?setup=${encodeURIComponent(token)}`);

    await expect(h1(page)).toHaveText(en.setup.title);
    await field(page, en.common.email).fill(root.email);
    await field(page, en.common.firstName).fill(root.firstName);
    await field(page, en.common.lastName).fill(root.lastName);
    // The rules answer as the password is typed.
    await field(page, en.common.password).fill('weakpass');
    await expect(rule(page, 'lowercase')).toHaveAttribute('data-met', 'true');
    await expect(rule(page, 'minLength')).toHaveAttribute('data-met', 'false');
    await expect(rule(page, 'uppercase')).toHaveAttribute('data-met', 'false');
    // Both sizes from the desktop run (the phone run would write the same files); the phone run checks its own fit.
    if (project === 'desktop') await saveScreenshotAtBothSizes(page, 'root-setup');
    else await expectNoHorizontalOverflow(page);

    await field(page, en.common.password).fill(root.password);
    for (const name of ['minLength', 'uppercase', 'lowercase', 'digit']) {
      await expect(rule(page, name)).toHaveAttribute('data-met', 'true');
    }
    await field(page, en.common.confirmPassword).fill(`${root.password}x`);
    await page.getByRole('button', { name: en.setup.submit }).click();
    await expect(page.getByText(en.passwordMissMatch)).toBeVisible();
    await field(page, en.common.confirmPassword).fill(root.password);
    await page.getByRole('button', { name: en.setup.submit }).click();

    await expect(page).toHaveURL(/\/root$/);
    await expect(h1(page)).toHaveText(en.root.title);
  });

  await test.step('once setup is done, the setup link says so and leads to sign-in', async () => {
    await logOut(page, `${root.firstName} ${root.lastName}`);
    await page.goto(`/root?setup=${encodeURIComponent(token)}`);
    await expect(h1(page)).toHaveText(en.setup.done.title);
    await expectNoHorizontalOverflow(page);
    await saveScreenshot(page, testInfo, 'root-setup-done');
    await page.getByRole('link', { name: en.common.signIn }).click();
    await signIn(page, root.email, root.password);
    await expect(page).toHaveURL(/\/root$/);
    await expect(h1(page)).toHaveText(en.root.title);
  });

  let inviteLink = '';
  await test.step('root creates the tenant and invites its first admin', async () => {
    await field(page, en.root.create.tenantName).fill(tenantName);
    await field(page, en.common.email).fill(admin.email);
    await field(page, en.common.firstName).fill(admin.firstName);
    await field(page, en.common.lastName).fill(admin.lastName);
    await page.getByRole('button', { name: en.root.create.submit }).click();

    const panel = page.getByRole('status').filter({ hasText: en.root.invite.title.replace('{{tenant}}', tenantName) });
    await expect(panel).toBeVisible();
    inviteLink = await panel.getByRole('textbox', { name: en.root.invite.link }).inputValue();
    expect(inviteLink).toMatch(/\/register\?invite=[^&]+&tenant=[0-9a-f-]{36}$/);

    await panel.getByRole('button', { name: en.root.invite.copy }).click();
    await expect(panel.getByRole('button', { name: en.root.invite.copied })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(inviteLink);

    const card = page.getByRole('listitem', { name: tenantName });
    await expect(card).toBeVisible();
    await expect(card.getByText(admin.email)).toBeVisible();
    await expect(card.getByText(en.root.adminStatus.invited)).toBeVisible();
    await expectNoHorizontalOverflow(page);
    await saveScreenshot(page, testInfo, 'root-console');
  });

  await test.step('a reload restores the session through the httpOnly refresh cookie (spec sections 4 and 8)', async () => {
    // The access token lived in the page's memory only: the reload drops it, the cookie brings it back.
    const refreshCookie = async () => (await page.context().cookies()).find((cookie) => cookie.name === 'pakt_refresh')?.value;
    const before = await refreshCookie();
    expect(before, 'the refresh token is an httpOnly cookie').toBeTruthy();
    await page.reload();
    await expect(page.getByRole('listitem', { name: tenantName })).toBeVisible();
    await expect(h1(page)).toHaveText(en.root.title);
    expect(await refreshCookie(), 'the refresh token rotated').not.toBe(before);
  });

  await test.step('root logs out', async () => {
    await logOut(page, `${root.firstName} ${root.lastName}`);
  });

  await test.step('the admin opens the invitation, registers and lands home signed in', async () => {
    const { pathname, search } = new URL(inviteLink);
    await page.goto(pathname + search);
    await expect(h1(page)).toHaveText(en.register.title.replace('{{tenant}}', tenantName));
    await expect(page.getByText(en.roles.admin, { exact: false })).toBeVisible();
    await expect(field(page, en.common.email)).toHaveValue(admin.email);
    await expect(field(page, en.common.firstName)).toHaveValue(admin.firstName);
    await expect(field(page, en.common.lastName)).toHaveValue(admin.lastName);

    await field(page, en.common.password).fill(admin.password);
    await field(page, en.common.confirmPassword).fill('Something-else-1');
    await page.getByRole('button', { name: en.register.submit }).click();
    await expect(page.getByText(en.passwordMissMatch)).toBeVisible();
    await expectNoHorizontalOverflow(page);
    await saveScreenshot(page, testInfo, 'register');

    await field(page, en.common.confirmPassword).fill(admin.password);
    await page.getByRole('button', { name: en.register.submit }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(h1(page)).toHaveText(en.home.welcome.replace('{{name}}', admin.firstName));
    await expect(page.getByTestId('current-tenant')).toHaveText(tenantName);
    await expect(page.getByTestId('current-role')).toHaveText(en.roles.admin);
    await expect(page.getByRole('combobox', { name: en.shell.tenant })).toHaveValue(/[0-9a-f-]{36}/);
    // The form was sent from its bottom; the new page still opens at its top.
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    await expectNoHorizontalOverflow(page);
    await saveScreenshot(page, testInfo, 'home-signed-in');

    await page.getByRole('button', { name: en.shell.accountMenu.replace('{{name}}', 'Asha Rao') }).click();
    await expect(page.getByRole('menuitem', { name: en.shell.profile })).toBeVisible();
    await expect(page.getByRole('menuitem', { name: en.shell.logout })).toBeVisible();
    // No FAQ until the help pages exist: it led to "Page not found" (issue 21).
    await expect(page.getByRole('menuitem', { name: en.shell.faq })).toHaveCount(0);
    await saveScreenshot(page, testInfo, 'user-menu');
    await page.keyboard.press('Escape');
    // The menu closes with a transition; opening it again mid-way leaves its items moving.
    await expect(page.getByRole('menu')).toBeHidden();
  });

  await test.step('logout keeps the username for the login form', async () => {
    await logOut(page, 'Asha Rao');
    await expect(field(page, en.common.email)).toHaveValue(admin.email);
    const kept = await page.evaluate(() => Object.keys(localStorage).sort());
    expect(kept).toEqual([STORAGE_KEYS.username]);
    await expectNoHorizontalOverflow(page);
    await saveScreenshot(page, testInfo, 'login');
  });

  await test.step('the accepted invitation cannot be used again', async () => {
    const { pathname, search } = new URL(inviteLink);
    await page.goto(pathname + search);
    await expect(h1(page)).toHaveText(en.register.invalid.title);
    await expect(page.getByRole('alert')).toHaveText(en.register.invalid.alreadyRegistered);
    await page.getByRole('link', { name: en.common.signIn }).click();
    await expect(h1(page)).toHaveText(en.login.title);
  });

  await test.step('a wrong password is explained, the right one signs in', async () => {
    await signIn(page, admin.email, 'Not-the-password-1');
    await expect(page.getByRole('alert')).toHaveText(en.login.errors.wrongPassword);
    await saveScreenshot(page, testInfo, 'login-wrong-password');

    await field(page, en.common.password).fill(admin.password);
    await page.getByRole('button', { name: en.login.submit }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByTestId('current-tenant')).toHaveText(tenantName);
  });

  await test.step('on the login page the language switches to Hindi, and sign-in works in it', async () => {
    await logOut(page, 'Asha Rao');
    await page.getByRole('combobox', { name: en.shell.language }).selectOption('hi');
    await expect(h1(page)).toHaveText(hi.login.title);
    await expect(page.locator('html')).toHaveAttribute('lang', 'hi');
    await expect(field(page, hi.common.email)).toHaveValue(admin.email);
    await expectNoHorizontalOverflow(page);
    await saveScreenshot(page, testInfo, 'login-hi');

    await field(page, hi.common.password).fill(admin.password);
    await page.getByRole('button', { name: hi.login.submit }).click();
    await expect(h1(page)).toHaveText(hi.home.welcome.replace('{{name}}', admin.firstName));
    await expect(page.getByTestId('current-role')).toHaveText(hi.roles.admin);
    await expectNoHorizontalOverflow(page);
    await saveScreenshot(page, testInfo, 'home-signed-in-hi');
  });
});

test('an invitation link that is not valid says so', async ({ page }) => {
  await page.goto('/register?invite=not-a-real-code&tenant=0b6f1c3e-8d2a-4c5b-9e7f-1a2b3c4d5e6f');
  await expect(h1(page)).toHaveText(en.register.invalid.title);
  await expect(page.getByRole('alert')).toHaveText(en.register.invalid.notFound);
  // The same page at both sizes: checked to fit, and pictured, at each.
  await saveScreenshotAtBothSizes(page, 'register-invalid');
});

test('the tenant console needs a sign-in, and comes back to it afterwards', async ({ page }) => {
  await page.goto('/root');
  await expect(page).toHaveURL(/\/login\?returnTo=%2Froot$/);
  await expect(h1(page)).toHaveText(en.login.title);
});

test('the login page explains an ended session', async ({ page }) => {
  await page.goto('/login?session=expired');
  await expect(page.getByRole('alert')).toHaveText(en.uisSessionExpired);
  // The same page at both sizes: checked to fit, and pictured, at each.
  await saveScreenshotAtBothSizes(page, 'login-session-ended');
});
