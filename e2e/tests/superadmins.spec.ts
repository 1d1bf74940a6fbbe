import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import fs from 'node:fs';
import { bundles, ensureRoot, expectNoHorizontalOverflow, fieldLabelled, keepScreenshot, linkIn, logOutAs, registerFromInvitation, ROOT, rootMail, signInWith } from './support';

const { en } = bundles;
const s = en.superadmins;

// E2E_SCREENSHOT_DIR lets a reviewer collect this journey's pictures apart from the others'.
const screenshotDir = (process.env.E2E_SCREENSHOT_DIR ?? '/tmp/shots-superadmins').replace(/\/?$/, '/');

/** The viewport as the person sees it (a dialog sits over it), once transitions have ended. */
async function shot(page: Page, project: string, name: string): Promise<void> {
  fs.mkdirSync(screenshotDir, { recursive: true });
  await expectNoHorizontalOverflow(page);
  // A cancelled animation rejects its promise; it has ended all the same.
  await page.evaluate(() => Promise.all(document.getAnimations().map((animation) => animation.finished.catch(() => undefined))));
  await keepScreenshot(page, { path: `${screenshotDir}${project}-${name}.png` });
}

/** A field of a dialog: the create-tenant form beside it has the same labels. */
const inDialog = (dialog: Locator, label: string) => dialog.getByLabel(new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}( \\*)?$`));

type Person = { readonly email: string; readonly firstName: string; readonly lastName: string; readonly password: string };

/**
 * The invitation link mailed to `email`, read by root: the tenant admin's outbox shows no text
 * (a pending super-admin invitation is exactly what an admin must not read, issue 17), and on this
 * install without SMTP root hands invitations on.
 */
async function mailedInvitation(request: APIRequestContext, email: string): Promise<URL> {
  return linkIn(await rootMail(request, { recipient: email, kind: 'invitation' }));
}

// @phone: the settings' list of super admins is cards on a phone rather than a table; the journey reads
// each one's status and disables one through it.
test('root invites a tenant’s first super admin, who registers, registers a second and disables them', { tag: '@phone' }, async ({ page, request, browser }, testInfo) => {
  test.setTimeout(180_000);
  const project = testInfo.project.name;
  // The files a worker runs share its server: names unique to this run keep them apart.
  const stamp = `${project}-${Date.now().toString(36)}`;
  const tenantName = `Sahyadri Trust ${stamp}`;
  const admin: Person = { email: `anil-${stamp}@superadmins.test`, firstName: 'Anil', lastName: 'Kulkarni', password: 'Admin-password-2025' };
  const first: Person = { email: `farah-${stamp}@superadmins.test`, firstName: 'Farah', lastName: 'Sheikh', password: 'Super-password-2025' };
  const second: Person = { email: `gopal-${stamp}@superadmins.test`, firstName: 'Gopal', lastName: 'Menon', password: 'Second-password-2025' };
  const rowOf = (email: string) => page.getByTestId('superadmin-row').filter({ hasText: email });

  await test.step('root creates the tenant from the console', async () => {
    await ensureRoot(request);
    await page.goto('/login');
    await signInWith(page, ROOT.email, ROOT.password);
    await expect(page).toHaveURL(/\/root$/);
    await fieldLabelled(page, en.root.create.tenantName).fill(tenantName);
    await fieldLabelled(page, en.common.email).fill(admin.email);
    await fieldLabelled(page, en.common.firstName).fill(admin.firstName);
    await fieldLabelled(page, en.common.lastName).fill(admin.lastName);
    await page.getByRole('button', { name: en.root.create.submit }).click();
    const panel = page.getByRole('status').filter({ hasText: en.root.invite.title.replace('{{tenant}}', tenantName) });
    const adminLink = new URL(await panel.getByRole('textbox', { name: en.root.invite.link }).inputValue());
    // The tenant's admin joins: a member already, they cannot be made its super admin (below).
    await registerFromInvitation(request, adminLink, admin);
  });

  await test.step('root invites the first super admin from the tenant’s card', async () => {
    const card = page.getByRole('listitem', { name: tenantName });
    await card.getByRole('button', { name: s.root.openLabel.replace('{{tenant}}', tenantName) }).click();
    const dialog = page.getByRole('dialog', { name: s.root.title.replace('{{tenant}}', tenantName) });
    await expect(dialog).toBeVisible();
    // Sent empty, the form says what each field needs before anything leaves the browser.
    await dialog.getByRole('button', { name: s.register.submit }).click();
    await expect(dialog.getByText(en.common.required)).toHaveCount(3);
    // The tenant's admin is a member already: super admin is not a role to change into (-85).
    await inDialog(dialog, en.common.email).fill(admin.email);
    await inDialog(dialog, en.common.firstName).fill(admin.firstName);
    await inDialog(dialog, en.common.lastName).fill(admin.lastName);
    await dialog.getByRole('button', { name: s.register.submit }).click();
    await expect(dialog.getByText(s.errors.alreadyMember)).toBeVisible();
    await shot(page, project, 'root-superadmin-dialog');

    await inDialog(dialog, en.common.email).fill(first.email);
    await inDialog(dialog, en.common.firstName).fill(first.firstName);
    await inDialog(dialog, en.common.lastName).fill(first.lastName);
    await dialog.getByRole('button', { name: s.register.submit }).click();
    await expect(dialog.getByRole('status')).toContainText(s.root.done.replace('{{email}}', first.email).replace('{{tenant}}', tenantName));
    await expect(dialog.getByRole('textbox', { name: s.root.link })).toHaveValue(/\/register\?invite=[^&]+&tenant=[0-9a-f-]{36}$/);
    await shot(page, project, 'root-superadmin-invited');
    await dialog.getByRole('button', { name: s.root.close, exact: true }).click();
    await expect(dialog).toBeHidden();
    await logOutAs(page, `${ROOT.firstName} ${ROOT.lastName}`);
  });

  await test.step('the super admin registers from the mailed link and lands on the settings', async () => {
    const link = await mailedInvitation(request, first.email);
    await page.goto(link.pathname + link.search);
    await expect(page.getByText(en.roles.super_admin, { exact: false })).toBeVisible();
    await fieldLabelled(page, en.common.password).fill(first.password);
    await fieldLabelled(page, en.common.confirmPassword).fill(first.password);
    await page.getByRole('button', { name: en.register.submit }).click();
    await expect(page).toHaveURL(/\/settings$/);
    await page.getByRole('tab', { name: en.settings.sections.superadmins }).click();
    await expect(page.getByRole('heading', { level: 2, name: s.title })).toBeVisible();
    await expect(rowOf(first.email).getByText(s.you)).toBeVisible();
    await expect(rowOf(first.email).getByTestId('superadmin-status')).toHaveText(s.status.active);
    // Nothing is offered on one's own account.
    await expect(rowOf(first.email).getByRole('button')).toHaveCount(0);
  });

  await test.step('they register a second super admin, who joins', async () => {
    await page.getByRole('button', { name: s.register.open }).click();
    const dialog = page.getByRole('dialog', { name: s.register.title });
    await inDialog(dialog, en.common.email).fill('not-an-address');
    await inDialog(dialog, en.common.firstName).fill(second.firstName);
    await inDialog(dialog, en.common.lastName).fill(second.lastName);
    await dialog.getByRole('button', { name: s.register.submit }).click();
    await expect(dialog.getByText(en.common.emailInvalid)).toBeVisible();
    await shot(page, project, 'superadmin-register-dialog');
    await inDialog(dialog, en.common.email).fill(second.email);
    await dialog.getByRole('button', { name: s.register.submit }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('status').filter({ hasText: s.register.doneOutbox.replace('{{email}}', second.email) })).toBeVisible();
    await expect(rowOf(second.email).getByTestId('superadmin-status')).toHaveText(s.status.invited);

    await registerFromInvitation(request, await mailedInvitation(request, second.email), second);
    await page.reload();
    await expect(rowOf(second.email).getByTestId('superadmin-status')).toHaveText(s.status.active);
    await shot(page, project, 'superadmins-section');
  });

  await test.step('they disable the second one, after confirming', async () => {
    const name = `${second.firstName} ${second.lastName}`;
    await rowOf(second.email).getByRole('button', { name: s.actions.disabledLabel.replace('{{name}}', name) }).click();
    const confirm = page.getByRole('dialog', { name: s.confirm.disabledTitle.replace('{{name}}', name) });
    await expect(confirm).toBeVisible();
    await shot(page, project, 'superadmin-disable-confirm');
    await confirm.getByRole('button', { name: s.confirm.disabled }).click();
    await expect(confirm).toBeHidden();
    await expect(page.getByRole('status').filter({ hasText: s.done.disabled.replace('{{name}}', name) })).toBeVisible();
    await expect(rowOf(second.email).getByTestId('superadmin-status')).toHaveText(s.status.disabled);
    await expect(rowOf(second.email).getByRole('button', { name: s.actions.enabledLabel.replace('{{name}}', name) })).toBeVisible();
    await shot(page, project, 'superadmins-section-disabled');
  });

  await test.step('the disabled one cannot sign in to that tenant', async () => {
    const context = await browser.newContext({ viewport: page.viewportSize() ?? { width: 1280, height: 800 } });
    const other = await context.newPage();
    await other.goto('/login');
    await signInWith(other, second.email, second.password);
    await expect(other.getByText(en.USER_DISABLED_CONTACT_ADMIN)).toBeVisible();
    await expect(other).toHaveURL(/\/login$/);
    await context.close();
  });
});
