import { authenticate, createTenant, logout, PHOTO_MAX_BYTES } from '@pakt/domain';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { crc32, deflateSync } from 'node:zlib';
import { call, callData } from './api';
import { bundles, ensureRoot, fieldLabelled, h1, logOutAs, registerFromInvitation, ROOT, saveScreenshotAtBothSizes, signInWith } from './support';

const { en } = bundles;

/** One PNG chunk: length, type, data, and the CRC of type and data. */
function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A real, decodable PNG (a diagonal colour gradient) made on the spot, so no binary fixture is kept. */
function gradientPng(size: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.writeUInt8(8, 8); // bit depth
  header.writeUInt8(2, 9); // truecolour RGB
  const rows: number[] = [];
  for (let y = 0; y < size; y++) {
    rows.push(0); // filter: none
    for (let x = 0; x < size; x++) rows.push(40 + Math.round((x / size) * 180), 90, 120 + Math.round((y / size) * 120));
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.from(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * An account to work with, made through the API: root creates a tenant inviting the person as its
 * admin, and the invitation is accepted with a password. (Self-service sign-up now waits for the
 * address to be confirmed by mail; an invitation is confirmed by its own mailed code.)
 */
async function createAccount(
  request: APIRequestContext,
  person: { email: string; firstName: string; lastName: string; orgName: string; password: string },
): Promise<void> {
  await ensureRoot(request);
  const { accessToken } = await callData(request, authenticate, { body: { username: ROOT.email, password: ROOT.password, client_id: 'MSB3' } });
  const asRoot = { Authorization: `Bearer ${accessToken}` };

  const created = await callData(request, createTenant, {
    headers: asRoot,
    body: { tenantName: person.orgName, admin: { email: person.email, firstName: person.firstName, lastName: person.lastName } },
  });
  const link = new URL(created.inviteLink);

  await registerFromInvitation(request, link, person);
  await call(request, logout, { headers: asRoot });
}

/** Picks files through the browser's own file chooser, as a person clicking the button would. */
async function choosePhoto(page: Page, button: ReturnType<Page['getByRole']>, file: { name: string; mimeType: string; buffer: Buffer }) {
  const chooser = page.waitForEvent('filechooser');
  await button.click();
  await (await chooser).setFiles(file);
}

test('profile: upload and remove a photo, and change the password in the set-password dialog', async ({ page, request }, testInfo) => {
  // Its screens are checked and pictured at both sizes from this run (it has no phone run): more
  // than the default allows on a busy machine.
  test.setTimeout(180_000);
  const project = testInfo.project.name;
  const person = {
    email: `anil.${project}@profile.test`,
    firstName: 'Anil',
    lastName: 'Kapoor',
    orgName: `Kapoor Legal ${project}`,
    password: 'Profile-password-2025',
    newPassword: 'Changed-password-2026',
  };
  const name = `${person.firstName} ${person.lastName}`;
  const PHOTO_SIZE = 96;

  await test.step('an account exists and signs in', async () => {
    await createAccount(request, person);
    await page.goto('/login');
    await signInWith(page, person.email, person.password);
    await expect(h1(page)).toHaveText(en.home.welcome.replace('{{name}}', person.firstName));
  });

  const section = page.getByRole('region', { name: en.profile.photo.heading });
  const profilePhoto = section.getByRole('img', { name: en.profile.photo.alt });
  const headerPhoto = page.getByTestId('header-avatar').locator('img');

  await test.step('the profile shows the initials until a photo is uploaded; then the photo, there and in the header', async () => {
    await page.getByRole('button', { name: en.shell.accountMenu.replace('{{name}}', name) }).click();
    await page.getByRole('menuitem', { name: en.shell.profile }).click();
    await expect(h1(page)).toHaveText(en.profile.title);
    await expect(page.getByTestId('profile-photo')).toHaveText('AK');
    await expect(headerPhoto).toHaveCount(0);

    await choosePhoto(page, section.getByRole('button', { name: en.profile.photo.choose }), {
      name: 'anil.png',
      mimeType: 'image/png',
      buffer: gradientPng(PHOTO_SIZE),
    });
    await expect(section.getByRole('status')).toHaveText(en.profile.photo.uploaded);
    // Decoded, not merely addressed: the browser read the bytes the server handed back.
    await expect(profilePhoto).toHaveAttribute('src', /^blob:/);
    await expect(profilePhoto).toHaveJSProperty('naturalWidth', PHOTO_SIZE);
    await expect(headerPhoto).toHaveAttribute('src', /^blob:/);
    await expect(headerPhoto).toHaveJSProperty('naturalWidth', PHOTO_SIZE);
    await saveScreenshotAtBothSizes(page, 'profile-photo');
  });

  await test.step('the photo is still there after a reload (it is the stored one)', async () => {
    await page.reload();
    await expect(profilePhoto).toHaveJSProperty('naturalWidth', PHOTO_SIZE);
    await expect(headerPhoto).toHaveJSProperty('naturalWidth', PHOTO_SIZE);
  });

  await test.step('a file that is not a PNG or JPEG, or too large, is refused before it is sent', async () => {
    const change = section.getByRole('button', { name: en.profile.photo.change });
    await choosePhoto(page, change, { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a picture') });
    await expect(section.getByRole('alert')).toHaveText(en.profile.photo.wrongType);

    const tooLarge = Buffer.concat([gradientPng(8), Buffer.alloc(PHOTO_MAX_BYTES)]);
    await choosePhoto(page, change, { name: 'huge.png', mimeType: 'image/png', buffer: tooLarge });
    await expect(section.getByRole('alert')).toHaveText(en.maxSizeExceeded);
    await expect(section.getByText(en.profile.photo.hint.replace('{{size}}', '1'))).toBeVisible();
    // The stored photo is untouched.
    await expect(profilePhoto).toHaveJSProperty('naturalWidth', PHOTO_SIZE);
    await saveScreenshotAtBothSizes(page, 'profile-photo-too-large');
  });

  await test.step('removing the photo asks first, then brings the initials back', async () => {
    await section.getByRole('button', { name: en.profile.photo.remove }).click();
    const confirm = page.getByRole('dialog', { name: en.profile.photo.confirmTitle });
    await expect(confirm).toBeVisible();
    await saveScreenshotAtBothSizes(page, 'profile-photo-remove');
    await confirm.getByRole('button', { name: en.profile.photo.confirmRemove }).click();
    await expect(confirm).toBeHidden();
    await expect(section.getByRole('status')).toHaveText(en.profile.photo.removed);
    await expect(profilePhoto).toHaveCount(0);
    await expect(page.getByTestId('profile-photo')).toHaveText('AK');
    await expect(headerPhoto).toHaveCount(0);
  });

  await test.step('the set-password dialog refuses a wrong current password, then changes it', async () => {
    const passwordCard = page.getByRole('region', { name: en.profile.passwordHeading });
    await passwordCard.getByRole('button', { name: en.changePassword.title }).click();
    const dialog = page.getByRole('dialog', { name: en.changePassword.title });
    await expect(dialog).toBeVisible();
    await expect(fieldLabelled(page, en.changePassword.oldPassword)).toBeFocused();

    await fieldLabelled(page, en.changePassword.oldPassword).fill('Not-my-password-1');
    await fieldLabelled(page, en.changePassword.newPassword).fill(person.newPassword);
    await expect(dialog.locator('[data-rule="minLength"]')).toHaveAttribute('data-met', 'true');
    await fieldLabelled(page, en.common.confirmPassword).fill(person.newPassword);
    await dialog.getByRole('button', { name: en.changePassword.submit }).click();
    await expect(dialog.getByText(en.changePassword.wrongOld)).toBeVisible();
    await expect(fieldLabelled(page, en.changePassword.oldPassword)).toHaveValue('');
    await saveScreenshotAtBothSizes(page, 'set-password-wrong');

    await fieldLabelled(page, en.changePassword.oldPassword).fill(person.password);
    await dialog.getByRole('button', { name: en.changePassword.submit }).click();
    await expect(dialog.getByRole('status')).toHaveText(en.passwordChangeSuccess);
    await saveScreenshotAtBothSizes(page, 'set-password-done');
    await dialog.getByRole('button', { name: en.setPassword.done }).click();
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(/\/profile$/);
  });

  await test.step('signed out, the old password no longer works and the new one does', async () => {
    await logOutAs(page, name);
    await signInWith(page, person.email, person.password);
    await expect(page.getByRole('alert')).toHaveText(en.login.errors.wrongPassword);
    await fieldLabelled(page, en.common.password).fill(person.newPassword);
    await page.getByRole('button', { name: en.login.submit }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(h1(page)).toHaveText(en.home.welcome.replace('{{name}}', person.firstName));
  });
});
