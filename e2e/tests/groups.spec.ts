import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { fileURLToPath } from 'node:url';
import { createGroup } from '@pakt/domain';
import { apiHeadersOf, bundles, expectNoHorizontalOverflow, fieldLabelled, h1, inviteAndRegister, keepScreenshot, signUpAndConfirm } from './support';

const { en } = bundles;
const g = en.groups;
const audit = en.adminAudit;

// The brief's sizes for the screens of this feature: a laptop, and a current phone.
const SIZES = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } } as const;
// E2E_SCREENSHOT_DIR lets a reviewer collect this journey's pictures apart from the others'.
const screenshotDir = process.env.E2E_SCREENSHOT_DIR ?? fileURLToPath(new URL('../screenshots/', import.meta.url));

/**
 * The screen at both sizes, checking each fits without sideways scrolling. Taken in the desktop run
 * only (both projects would write the same files); the phone run checks its own width instead.
 */
async function captureBoth(page: Page, name: string): Promise<void> {
  const original = page.viewportSize();
  for (const [device, size] of Object.entries(SIZES)) {
    await page.setViewportSize(size);
    await expectNoHorizontalOverflow(page);
    await page.evaluate(() => window.scrollTo(0, 0));
    await keepScreenshot(page, { path: `${screenshotDir.replace(/\/?$/, '/')}${device}-${name}.png`, fullPage: true });
  }
  if (original) await page.setViewportSize(original);
}


interface Person {
  readonly email: string;
  readonly firstName: string;
  readonly lastName: string;
  readonly password: string;
}


/** Picks a person in the directory picker labelled `label`: typed, then chosen among the suggestions. */
async function pick(page: Page, label: string, typed: string, person: Person): Promise<void> {
  // The combobox itself: its list of suggestions is labelled by the same label.
  await page.getByRole('combobox', { name: label }).fill(typed);
  await page.getByRole('option', { name: `${person.firstName} ${person.lastName} · ${person.email}` }).click();
  await expect(page.getByRole('list', { name: g.picker.chosen }).getByText(`${person.firstName} ${person.lastName}`)).toBeVisible();
}

const name = (person: Person) => `${person.firstName} ${person.lastName}`;

// @phone: on a phone an opened group's panel moves above the list of groups, and the audit log is a stack
// of cards rather than a table.
test('an admin makes a group, fills it, names its manager, renames it, and finds it all in the audit log', { tag: '@phone' }, async ({ page, request }, testInfo) => {
  test.setTimeout(180_000);
  const project = testInfo.project.name;
  const admin = { email: `ila.${project}@groups.test`, firstName: 'Ila', lastName: 'Verma', orgName: `Verma Logistics ${project}`, password: 'Groups-password-2025' };
  const tara: Person = { email: `tara.${project}@groups.test`, firstName: 'Tara', lastName: 'Menon', password: 'Member-password-2025' };
  const kabir: Person = { email: `kabir.${project}@groups.test`, firstName: 'Kabir', lastName: 'Das', password: 'Member-password-2025' };
  const detail = page.getByTestId('group-detail');
  const member = (person: Person) => detail.getByRole('listitem', { name: name(person) });
  const groupList = page.getByRole('list', { name: g.listLabel });

  await test.step('an organisation with its admin and two members', async () => {
    await signUpAndConfirm(page, request, admin);
    const adminHeaders = await apiHeadersOf(request, admin.email, admin.password);
    await inviteAndRegister(request, adminHeaders, tara, 'signer');
    await inviteAndRegister(request, adminHeaders, kabir, 'signer');
  });

  await test.step('the admin creates a group; a 16-character name is refused before it is sent', async () => {
    await page.goto('/admin');
    await page.getByRole('tab', { name: g.tab }).click();
    await expect(h1(page)).toHaveText(g.title);
    await expect(page).toHaveURL(/\/admin\?section=groups$/);
    await expect(page.getByText(g.empty)).toBeVisible();

    let posted = 0;
    page.on('request', (sent) => {
      if (sent.method() === 'POST' && new URL(sent.url()).pathname === createGroup.path) posted += 1;
    });
    await fieldLabelled(page, g.create.name).fill('Field Operations');
    await page.getByRole('button', { name: g.create.submit }).click();
    await expect(page.getByText(g.errors.nameLength)).toBeVisible();
    expect(posted).toBe(0);

    await fieldLabelled(page, g.create.name).fill('Field Ops');
    await page.getByRole('button', { name: g.create.submit }).click();
    await expect(detail.getByRole('heading', { level: 2, name: 'Field Ops' })).toBeVisible();
    await expect(page).toHaveURL(/\/admin\?section=groups&group=[0-9a-f-]{36}$/);
    await expect(detail.getByText(g.detail.noMembers)).toBeVisible();
    await expect(groupList.getByText('Field Ops')).toBeVisible();
  });

  await test.step('adds two members found in the directory, and makes one of them manager', async () => {
    await pick(page, g.detail.addLabel, 'Tara', tara);
    await pick(page, g.detail.addLabel, 'kab', kabir);
    await detail.getByRole('button', { name: 'Add 2 people' }).click();
    await expect(detail.getByText('2 people added.')).toBeVisible();
    await expect(member(tara)).toBeVisible();
    await expect(member(kabir)).toBeVisible();

    await member(tara).getByRole('button', { name: g.detail.makeManagerLabel.replace('{{name}}', name(tara)) }).click();
    await expect(detail.getByText(g.detail.managerMade.replace('{{name}}', name(tara)))).toBeVisible();
    await expect(member(tara).getByText(g.detail.manager, { exact: true })).toBeVisible();
    await expect(groupList.getByText(g.managedBy.replace('{{name}}', name(tara)))).toBeVisible();
  });

  await test.step('the manager cannot be removed (-165); the group is renamed', async () => {
    await member(tara).getByRole('button', { name: g.detail.removeLabel.replace('{{name}}', name(tara)) }).click();
    await expect(detail.getByRole('alert')).toHaveText(g.errors.cannotRemoveManager);
    await expect(member(tara)).toBeVisible();

    await detail.getByRole('button', { name: g.detail.rename }).click();
    await fieldLabelled(page, g.detail.newName).fill('Field Crew');
    await detail.getByRole('button', { name: g.detail.save }).click();
    await expect(detail.getByRole('heading', { level: 2, name: 'Field Crew' })).toBeVisible();
    await expect(detail.getByText(g.detail.renamed)).toBeVisible();
    await expect(groupList.getByText('Field Crew')).toBeVisible();
    await expect(groupList.getByText('Field Ops')).toHaveCount(0);
    await (project === 'desktop' ? captureBoth(page, 'admin-group-open') : expectNoHorizontalOverflow(page));
  });

  await test.step('the list of groups, with none open', async () => {
    await page.getByRole('button', { name: g.new }).click();
    await expect(page).toHaveURL(/\/admin\?section=groups$/);
    await expect(page.getByRole('heading', { level: 2, name: g.create.title })).toBeVisible();
    await expect(groupList.getByRole('link', { name: /Field Crew/ })).toContainText('2 members');
    await (project === 'desktop' ? captureBoth(page, 'admin-groups') : expectNoHorizontalOverflow(page));
  });

  await test.step('the audit log tells what was done, newest first, and filters by action', async () => {
    await page.getByRole('tab', { name: audit.tab }).click();
    await expect(h1(page)).toHaveText(audit.title);
    await expect(page).toHaveURL(/\/admin\?section=audit$/);
    const entries = page.getByTestId('audit-entry');
    // Renamed, manager named, two added, created: newest first (the invitations come before).
    await expect(entries.first()).toContainText(audit.actions.group_renamed);
    await expect(entries.filter({ hasText: audit.actions.group_created })).toHaveCount(1);
    await expect(entries.filter({ hasText: audit.actions.group_members_added })).toHaveCount(2);
    await expect(entries.filter({ hasText: audit.actions.group_created })).toContainText(admin.email);
    await (project === 'desktop' ? captureBoth(page, 'admin-audit') : expectNoHorizontalOverflow(page));

    await page.getByRole('combobox', { name: audit.filters.action }).click();
    await page.getByRole('option', { name: audit.actions.group_members_added }).click();
    await expect(entries).toHaveCount(2);
    await expect(entries.filter({ hasText: tara.email })).toHaveCount(2);
    await expect(entries.filter({ hasText: kabir.email })).toHaveCount(1);
    await (project === 'desktop' ? captureBoth(page, 'admin-audit-filtered') : expectNoHorizontalOverflow(page));
  });
});
