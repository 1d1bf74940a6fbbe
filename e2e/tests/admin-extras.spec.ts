import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import fs from 'node:fs';
import { crc32, deflateSync } from 'node:zlib';
import { getUserPhoto, listAdminAudit, readProfile, updateTenantSettings, uploadUserPhoto } from '@pakt/domain';
import { call, callData } from './api';
import { addSuperAdmin, apiHeadersOf, bundles, expectNoHorizontalOverflow, fieldLabelled, h1, inviteAndRegister, keepScreenshot, menuItems, signUpAndConfirm } from './support';

const { en } = bundles;
const ws = en.workflowStatesAdmin;
const photo = en.userPhotoAdmin;

// E2E_SCREENSHOT_DIR lets a reviewer collect this journey's pictures apart from the others'.
const screenshotDir = (process.env.E2E_SCREENSHOT_DIR ?? '/tmp/shots-admin-extras').replace(/\/?$/, '/');

/**
 * The screen as this project shows it (the desktop run at 1280 wide, the phone run at 375), once
 * it is checked to fit without sideways scrolling. Each run takes its own rather than resizing one
 * page: a resize swaps the people table for cards, which would close an open dialog.
 */
async function capture(page: Page, name: string, { dialog = false } = {}): Promise<void> {
  await expectNoHorizontalOverflow(page);
  fs.mkdirSync(screenshotDir, { recursive: true });
  // A page from its top (a fixed header captured scrolled would sit mid-picture); a dialog, which
  // sits over the viewport, as the viewport shows it.
  if (!dialog) await page.evaluate(() => window.scrollTo(0, 0));
  await page.evaluate(() => Promise.all(document.getAnimations().map((animation) => animation.finished.catch(() => undefined))));
  await keepScreenshot(page, { path: `${screenshotDir}${test.info().project.name}-${name}.png`, fullPage: !dialog });
}

/** One PNG chunk: length, type, data, and the CRC of type and data. */
function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A real, decodable PNG (a colour gradient) made on the spot, so no binary fixture is kept. */
function gradientPng(size: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.writeUInt8(8, 8); // bit depth
  header.writeUInt8(2, 9); // truecolour RGB
  const rows: number[] = [];
  for (let y = 0; y < size; y++) {
    rows.push(0); // filter: none
    for (let x = 0; x < size; x++) rows.push(200 - Math.round((y / size) * 120), 80 + Math.round((x / size) * 120), 60);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.from(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

interface Person {
  readonly email: string;
  readonly firstName: string;
  readonly lastName: string;
  readonly password: string;
}


const stateNames = (page: Page) => page.getByRole('list', { name: ws.listLabel }).getByTestId('workflow-state');

// @phone: the people list is a stack of cards on a phone (the member's photo and action menu are in a card,
// below the fold), and a workflow state's edit control is an icon button there, not the labelled one.
test('a super admin shows Edit workflow states; the admin renames and reorders a state, and removes a member’s photo', { tag: '@phone' }, async ({ page, request }, testInfo) => {
  test.setTimeout(240_000);
  const project = testInfo.project.name;
  const admin = { email: `anya.${project}@extras.test`, firstName: 'Anya', lastName: 'Kapoor', orgName: `Kapoor Builders ${project}`, password: 'Extras-password-2025' };
  const member: Person = { email: `vikram.${project}@extras.test`, firstName: 'Vikram', lastName: 'Sethi', password: 'Member-password-2025' };
  const boss: Person = { email: `leela.${project}@extras.test`, firstName: 'Leela', lastName: 'Rao', password: 'Super-password-2025' };
  let adminHeaders: Record<string, string> = {};
  let bossHeaders: Record<string, string> = {};
  const setShowStates = async (on: boolean) =>
    callData(request, updateTenantSettings, { headers: bossHeaders, body: { settings: { showEditWorkflowStates: on } } });

  await test.step('an organisation with its admin, a member with a photo, and a super admin', async () => {
    await signUpAndConfirm(page, request, admin);
    adminHeaders = await apiHeadersOf(request, admin.email, admin.password);
    await inviteAndRegister(request, adminHeaders, member, 'signer');
    const memberHeaders = await apiHeadersOf(request, member.email, member.password);
    const me = await callData(request, readProfile, { headers: memberHeaders });
    await callData(request, uploadUserPhoto, {
      headers: { authorization: memberHeaders.authorization! },
      params: { userId: me.id },
      file: { name: 'vikram.png', mimeType: 'image/png', buffer: gradientPng(96) },
    });
    await addSuperAdmin(request, adminHeaders['x-tenant-id']!, boss);
    bossHeaders = await apiHeadersOf(request, boss.email, boss.password);
  });

  await test.step('switched off by the super admin, the sub-item is in nobody’s menu and its address opens the people', async () => {
    await setShowStates(false);
    await page.goto('/dashboard');
    const items = await menuItems(page);
    expect(items.some((item) => item.startsWith(en.menu.admin))).toBe(true);
    expect(items.some((item) => item.startsWith(en.menu.admin_editWorkflowStates))).toBe(false);
    await page.goto('/admin?section=workflowStates');
    await expect(h1(page)).toHaveText(en.users.title);
    await expect(page.getByRole('tab', { name: ws.tab })).toHaveCount(0);
  });

  await test.step('switched on, the admin opens Edit workflow states from the menu', async () => {
    await setShowStates(true);
    await page.goto('/dashboard');
    await page.getByRole('button', { name: en.menu.open }).click();
    await page.getByRole('menuitem', { name: en.menu.admin_editWorkflowStates }).click();
    await expect(page).toHaveURL(/\/admin\?section=workflowStates$/);
    await expect(h1(page)).toHaveText(ws.title);
    await expect(stateNames(page)).toHaveCount(4);
    expect(await stateNames(page).evaluateAll((items) => items.map((item) => item.getAttribute('aria-label')))).toEqual(['Review', 'Sign', 'Email', 'In-person sign']);
    await capture(page, 'workflow-states');
  });

  await test.step('the admin renames and describes Review; a blank name is refused before it is sent', async () => {
    const review = page.getByRole('listitem', { name: 'Review' });
    await review.getByRole('button', { name: ws.editLabel.replace('{{name}}', 'Review') }).click();
    const dialog = page.getByRole('dialog', { name: ws.form.editTitle.replace('{{name}}', 'Review') });
    await expect(dialog.getByText(ws.form.typeFixed)).toBeVisible();
    await fieldLabelled(page, ws.form.name).fill('   ');
    await dialog.getByRole('button', { name: ws.form.save }).click();
    await expect(dialog.getByText(ws.errors.nameRequired)).toBeVisible();
    await fieldLabelled(page, ws.form.name).fill('Legal review');
    await dialog.getByLabel(ws.form.description).fill('Counsel checks the deed before anyone signs.');
    await capture(page, 'workflow-state-edit', { dialog: true });
    await dialog.getByRole('button', { name: ws.form.save }).click();
    await expect(page.getByRole('status')).toHaveText(ws.done.updated.replace('{{name}}', 'Legal review'));
    await expect(page.getByRole('listitem', { name: 'Legal review' }).getByText('Counsel checks the deed before anyone signs.')).toBeVisible();
  });

  await test.step('the admin moves it below Sign; the order holds after a reload', async () => {
    await page.getByRole('button', { name: ws.moveDown.replace('{{name}}', 'Legal review') }).click();
    await expect(page.getByRole('status')).toHaveText(ws.done.moved.replace('{{name}}', 'Legal review').replace('{{order}}', '2'));
    await page.reload();
    await expect(stateNames(page)).toHaveCount(4);
    expect(await stateNames(page).evaluateAll((items) => items.map((item) => item.getAttribute('aria-label')))).toEqual(['Sign', 'Legal review', 'Email', 'In-person sign']);
    await capture(page, 'workflow-states-edited');
  });

  await test.step('the admin adds an in-person state; it comes at the end', async () => {
    await page.getByRole('button', { name: ws.add }).click();
    const dialog = page.getByRole('dialog', { name: ws.form.createTitle });
    await fieldLabelled(page, ws.form.name).fill('Notary witness');
    await dialog.getByRole('combobox', { name: ws.form.type }).click();
    await page.getByRole('option', { name: new RegExp(`^${en.workflowStateTypes.INPERSONSIGN}`) }).click();
    await dialog.getByLabel(ws.form.description).fill('A notary watches the signing.');
    await capture(page, 'workflow-state-add', { dialog: true });
    await dialog.getByRole('button', { name: ws.form.create }).click();
    await expect(page.getByRole('status')).toHaveText(ws.done.created.replace('{{name}}', 'Notary witness'));
    // The notice comes with the server's answer; the list shows the new state once it is asked again.
    await expect.poll(() => stateNames(page).evaluateAll((items) => items.map((item) => item.getAttribute('aria-label')))).toEqual([
      'Sign',
      'Legal review',
      'Email',
      'In-person sign',
      'Notary witness',
    ]);
  });

  await test.step('every change is in the audit log, with who made it', async () => {
    const log = await callData(request, listAdminAudit, { headers: adminHeaders });
    const stateChanges = log.items.filter((entry) => entry.action.startsWith('workflow_state_'));
    expect(stateChanges.map((entry) => [entry.action, entry.targetLabel, entry.actor?.email])).toEqual([
      ['workflow_state_created', 'Notary witness', admin.email],
      ['workflow_state_moved', 'Legal review', admin.email],
      ['workflow_state_changed', 'Legal review', admin.email],
    ]);
  });

  const memberName = `${member.firstName} ${member.lastName}`;
  const memberRow = page.locator(`[data-testid="user-row"][aria-label="${memberName}"]`);

  await test.step('the people list shows the member’s photo, and the admin removes it after confirming', async () => {
    await page.goto('/admin');
    await expect(h1(page)).toHaveText(en.users.title);
    const picture = memberRow.getByRole('img', { name: photo.photoAlt.replace('{{name}}', memberName) });
    // Photos are asked for as their rows come into view (a phone shows the list below the fold).
    await memberRow.scrollIntoViewIfNeeded();
    await expect(picture).toBeVisible();
    // Decoded, not a broken image: the bytes came with the session's token.
    await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(96);
    await expect(page.locator(`[data-testid="user-row"][aria-label="${admin.firstName} ${admin.lastName}"]`).getByTestId('user-avatar')).toHaveText('AK');
    await capture(page, 'users-with-photo');

    await memberRow.getByRole('button', { name: en.users.actions.label.replace('{{name}}', memberName) }).click();
    await page.getByRole('menuitem', { name: photo.remove }).click();
    const dialog = page.getByRole('dialog', { name: photo.confirmTitle.replace('{{name}}', memberName) });
    await expect(dialog.getByRole('img', { name: photo.photoAlt.replace('{{name}}', memberName) })).toBeVisible();
    await capture(page, 'users-remove-photo', { dialog: true });
    await dialog.getByRole('button', { name: photo.confirm }).click();
    await expect(page.getByRole('status')).toHaveText(photo.removed.replace('{{name}}', memberName));
    await expect(memberRow.getByTestId('user-avatar')).toHaveText('VS');
    await expect(memberRow.getByRole('img')).toHaveCount(0);
  });

  await test.step('the photo is gone for its owner too, and the removal is in the audit log', async () => {
    const memberHeaders = await apiHeadersOf(request, member.email, member.password);
    const me = await callData(request, readProfile, { headers: memberHeaders });
    expect(me.hasPhoto).toBe(false);
    expect((await call(request, getUserPhoto, { headers: memberHeaders, params: { userId: me.id } })).status()).toBe(404);
    const log = await callData(request, listAdminAudit, { headers: adminHeaders, query: { action: 'user_photo_removed' } });
    expect(log.items.map((entry) => entry.targetLabel)).toEqual([member.email]);
  });
});
