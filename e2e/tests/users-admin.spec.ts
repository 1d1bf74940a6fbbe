import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import fs from 'node:fs';
import { tenantOutbox } from '@pakt/domain';
import { callData } from './api';
import { apiHeadersOf, bundles, expectNoHorizontalOverflow, fieldLabelled, h1, keepScreenshot, ROOT, signInWith, signUpAndConfirm } from './support';

const { en } = bundles;
const u = en.users;

// The brief's sizes for the screens of this feature: a laptop, and a current phone.
const SIZES = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } } as const;
// E2E_SCREENSHOT_DIR lets a reviewer collect this journey's pictures apart from the others'.
const screenshotDir = (process.env.E2E_SCREENSHOT_DIR ?? '/tmp/shots-users').replace(/\/?$/, '/');

/**
 * The screen at both sizes, each checked to fit without sideways scrolling; `arrange` runs after
 * each resize (a menu open, say: a table row and a phone's card are different elements). Taken in
 * the desktop run only; the phone run checks its own width instead.
 */
async function captureBoth(page: Page, name: string, arrange?: () => Promise<void>, fullPage = true): Promise<void> {
  fs.mkdirSync(screenshotDir, { recursive: true });
  const original = page.viewportSize();
  for (const [device, size] of Object.entries(SIZES)) {
    await page.setViewportSize(size);
    await expectNoHorizontalOverflow(page);
    await page.evaluate(() => window.scrollTo(0, 0));
    if (arrange) await arrange();
    // A cancelled animation rejects its promise; it has ended all the same.
    await page.evaluate(() => Promise.all(document.getAnimations().map((animation) => animation.finished.catch(() => undefined))));
    await keepScreenshot(page, { path: `${screenshotDir}${device}-${name}.png`, fullPage });
    if (arrange) await page.keyboard.press('Escape');
  }
  if (original) await page.setViewportSize(original);
}

// @phone: the people list is a stack of cards on a phone (a person's menu and role are in a card); the
// journey changes a role through it.
test('an admin invites from a CSV file with a bad row; the invited person registers, and becomes a custodian', { tag: '@phone' }, async ({ page, request, browser }, testInfo) => {
  // Root's browser, which hands the invitation on, adds a sign-in to the journey.
  test.setTimeout(240_000);
  const project = testInfo.project.name;
  const desktop = project === 'desktop';
  const admin = { email: `uma.${project}@users.test`, firstName: 'Uma', lastName: 'Kapoor', orgName: `Bose Kapoor Homes ${project}`, password: 'Users-password-2025' };
  const joiner = { email: `neel.${project}@users.test`, firstName: 'Neel', lastName: 'Bose', password: 'Joiner-password-2025' };
  const rowOf = (email: string) => page.getByTestId('user-row').filter({ hasText: email });

  await test.step('a new admin opens /admin on the people of the organisation', async () => {
    await signUpAndConfirm(page, request, admin);
    await page.goto('/admin');
    await expect(h1(page)).toHaveText(u.title);
    await expect(page.getByRole('tab', { name: u.tab })).toHaveAttribute('aria-selected', 'true');
    await expect(rowOf(admin.email)).toBeVisible();
    // Nothing is offered on one's own account.
    await expect(rowOf(admin.email).getByRole('button', { name: u.actions.label.replace('{{name}}', `${admin.firstName} ${admin.lastName}`) })).toHaveCount(0);
  });

  await test.step('a CSV file with one good and one bad row: the good one is invited, the bad one explained', async () => {
    await page.getByRole('button', { name: u.csv.open }).click();
    const dialog = page.getByRole('dialog', { name: u.csv.title });
    await expect(dialog).toBeVisible();
    const csv = ['email,firstName,middleName,lastName,role', `${joiner.email},${joiner.firstName},,${joiner.lastName},signer`, 'not-an-email,Bad,,Row,signer', ''].join('\n');
    await dialog.locator('input[type="file"]').setInputFiles({ name: 'people.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await dialog.getByRole('button', { name: u.csv.upload }).click();
    const result = dialog.getByTestId('csv-result');
    await expect(result).toContainText(u.csv.invited_one.replace('{{count}}', '1'));
    const failed = result.getByTestId('csv-failed-row');
    await expect(failed).toHaveCount(1);
    await expect(failed).toContainText(`${u.csv.line.replace('{{line}}', '3')} · not-an-email`);
    await expect(failed).toContainText(u.csv.rowErrors.email);
    if (desktop) await captureBoth(page, 'users-csv-result', undefined, false);
    else await expectNoHorizontalOverflow(page);
    await dialog.getByRole('button', { name: u.close, exact: true }).click();
    await expect(rowOf(joiner.email).getByTestId('user-status')).toHaveText(u.status.invited);
  });

  const joinerContext = await browser.newContext({ viewport: page.viewportSize() ?? SIZES.desktop });
  const joinerPage = await joinerContext.newPage();
  const openMenu = async () => {
    await joinerPage.getByRole('button', { name: en.menu.open }).click();
    await expect(joinerPage.getByRole('menuitem').first()).toBeVisible();
  };
  const composeItem = joinerPage.getByRole('menuitem', { name: en.menu.compose_compose, exact: true });

  const invitationSubject = `You are invited to ${admin.orgName} on Pakt`;

  await test.step("the admin's outbox shows to whom the invitation went and what about, never its link", async () => {
    await page.goto('/admin?section=outbox');
    await expect(h1(page)).toHaveText(en.outbox.title);
    await expect(page.getByText(en.outbox.tenantPrivacy)).toBeVisible();
    const mail = page.getByRole('listitem', { name: invitationSubject }).filter({ hasText: en.outbox.to.replace('{{recipient}}', joiner.email) });
    await expect(mail).toHaveCount(1);
    await expect(mail.getByText(en.outbox.bodyWithheld)).toBeVisible();
    await expect(mail.getByRole('link')).toHaveCount(0);
    await expect(mail).not.toContainText('/register?invite=');
    // The API answers the same: no text at all, for a link or code is the recipient's alone.
    const adminHeaders = await apiHeadersOf(request, admin.email, admin.password);
    const { messages } = await callData(request, tenantOutbox, { headers: adminHeaders });
    expect(messages.filter((message) => message.recipient === joiner.email).map((message) => message.body)).toEqual([null]);
    if (desktop) await captureBoth(page, 'users-admin-outbox');
    else await expectNoHorizontalOverflow(page);
    await page.goto('/admin');
    await expect(h1(page)).toHaveText(u.title);
  });

  let invitation = new URL('about:blank');
  await test.step('without mail delivery, root finds the invitation in the console outbox to hand it on', async () => {
    const rootContext = await browser.newContext({ viewport: page.viewportSize() ?? SIZES.desktop });
    const rootPage = await rootContext.newPage();
    await rootPage.goto('/login');
    await signInWith(rootPage, ROOT.email, ROOT.password);
    await expect(rootPage).toHaveURL(/\/root$/);
    await rootPage.getByRole('tab', { name: en.root.tabs.outbox }).click();
    await rootPage.getByRole('searchbox', { name: en.outbox.recipientFilter }).fill(joiner.email);
    // Root's outbox spans every tenant: the filter leaves this person's mail alone.
    await expect(rootPage.getByRole('list', { name: en.root.tabs.outbox }).locator(':scope > li')).toHaveCount(1);
    const mail = rootPage.getByRole('listitem', { name: invitationSubject });
    await expect(mail).toContainText(en.outbox.tenant.replace('{{tenant}}', admin.orgName));
    const link = mail.getByRole('link', { name: /\/register\?invite=/ });
    invitation = new URL((await link.getAttribute('href')) ?? '');
    if (desktop) await captureBoth(rootPage, 'users-root-outbox');
    else await expectNoHorizontalOverflow(rootPage);
    await rootContext.close();
  });

  await test.step('the invited person registers from the mail in a browser of their own, as a signer without compose', async () => {
    await joinerPage.goto(invitation.pathname + invitation.search);
    await expect(h1(joinerPage)).toHaveText(en.register.title.replace('{{tenant}}', admin.orgName));
    await expect(fieldLabelled(joinerPage, en.common.email)).toHaveValue(joiner.email);
    await fieldLabelled(joinerPage, en.common.password).fill(joiner.password);
    await fieldLabelled(joinerPage, en.common.confirmPassword).fill(joiner.password);
    await joinerPage.getByRole('button', { name: en.register.submit }).click();
    await expect(h1(joinerPage)).toHaveText(en.home.welcome.replace('{{name}}', joiner.firstName));
    await expect(joinerPage.getByTestId('current-role')).toHaveText(en.roles.signer);
    await openMenu();
    await expect(composeItem).toHaveCount(0);
    await joinerPage.keyboard.press('Escape');
  });

  await test.step('the admin changes their role to custodian', async () => {
    await page.reload();
    await expect(rowOf(joiner.email).getByTestId('user-status')).toHaveText(u.status.enabled);
    if (desktop) await captureBoth(page, 'users-list');
    const actions = () => rowOf(joiner.email).getByRole('button', { name: u.actions.label.replace('{{name}}', `${joiner.firstName} ${joiner.lastName}`) });
    if (desktop) {
      await captureBoth(
        page,
        'users-role-menu',
        async () => {
          await actions().click();
          await expect(page.getByRole('menuitem', { name: u.actions.changeRole })).toBeVisible();
        },
        false,
      );
    }
    await actions().click();
    await page.getByRole('menuitem', { name: u.actions.changeRole }).click();
    const dialog = page.getByRole('dialog', { name: u.roles.title.replace('{{name}}', `${joiner.firstName} ${joiner.lastName}`) });
    await dialog.getByRole('combobox', { name: u.roles.role }).click();
    await page.getByRole('option', { name: en.roles.custodian }).click();
    await dialog.getByRole('button', { name: u.roles.save }).click();
    await expect(page.getByTestId('role-result')).toContainText(u.roles.result_one.replace('{{count}}', '1'));
    await expect(rowOf(joiner.email)).toContainText(en.roles.custodian);
    if (!desktop) await expectNoHorizontalOverflow(page);
  });

  await test.step('at their next page load, the new custodian finds compose in the menu', async () => {
    // The app asks the server who the user is at every load (useSessionUserRefresh).
    await joinerPage.reload();
    await expect(joinerPage.getByTestId('current-role')).toHaveText(en.roles.custodian);
    await openMenu();
    await expect(composeItem).toBeVisible();
  });
  await joinerContext.close();
});
