import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PNG } from 'pngjs';
import { createEpak, createGroup, createSignatureBlocks, downloadEpakDocument, filteredUsers, getEpak, listAdminAudit, listRubberStamps, listWorkflowStates, signEpakDocument, startEpak, updateTenantSettings, uploadDocument, type TagInput } from '@pakt/domain';
import { call, callData } from './api';
import { addSuperAdmin, adoptTypedSignature, apiHeadersOf, bundles, captureAtBothSizes, expectNoHorizontalOverflow, expectValidSignedPdf, h1, inviteAndRegister, logOutAs, signInWith, signUpAndConfirm } from './support';

const { en } = bundles;
const R = en.rubberStamps;
const signing = en.signing;

const CORPUS = fileURLToPath(new URL('../../../shared/corpus/pdfs/', import.meta.url));
const PLAIN = 'plain-1p-libreoffice.pdf';
// E2E_SCREENSHOT_DIR lets a reviewer collect this journey's pictures apart from the others'.
const SHOTS = process.env.E2E_SCREENSHOT_DIR ?? '/tmp/h2-shots';

const RED = [200, 20, 30] as const;

/** A red seal: a solid square with a white ring inside, 200 px, easy to find on a rendered page. */
function seal(): Buffer {
  const size = 200;
  const image = new PNG({ width: size, height: size });
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const r = Math.hypot(x - size / 2, y - size / 2);
      const white = r > 70 && r < 78;
      image.data.set(white ? [255, 255, 255, 255] : [...RED, 255], (y * size + x) * 4);
    }
  }
  return PNG.sync.write(image);
}

/** The mean colour of a box of a PNG. */
function meanColour(file: string, box: { x: number; y: number; width: number; height: number }): [number, number, number] {
  const image = PNG.sync.read(fs.readFileSync(file));
  const sum = [0, 0, 0];
  for (let y = box.y; y < box.y + box.height; y++) {
    for (let x = box.x; x < box.x + box.width; x++) {
      const at = (y * image.width + x) * 4;
      for (let c = 0; c < 3; c++) sum[c]! += image.data[at + c]!;
    }
  }
  const n = box.width * box.height;
  return [sum[0]! / n, sum[1]! / n, sum[2]! / n];
}

async function settle(page: Page) {
  // A cancelled animation rejects its promise; it has ended all the same.
  await page.evaluate(() => Promise.all(document.getAnimations().map((animation) => animation.finished.catch(() => undefined))));
}

// @phone: the people list is a stack of cards on a phone (its action menu and badge are in a card),
// and at /sign the stamp chooser and the signing panel sit below the page rather than beside it.
test('a stamp shared with a group is applied by the member with the passcode flag, and not by the one without', { tag: '@phone' }, async ({ page, request }, testInfo) => {
  test.setTimeout(240_000);
  const project = testInfo.project.name;
  const desktop = project === 'desktop';
  const owner = { email: `kavya.${project}@stamps.test`, firstName: 'Kavya', lastName: 'Menon', orgName: `Menon Notaries ${project}`, password: 'Stamps-password-2025' };
  const superAdmin = { email: `sunil.${project}@stamps.test`, firstName: 'Sunil', lastName: 'Das', password: 'Stamps-super-2025' };
  const withFlag = { email: `arun.${project}@stamps.test`, firstName: 'Arun', lastName: 'Pillai', password: 'Stamps-arun-2025' };
  const withoutFlag = { email: `bina.${project}@stamps.test`, firstName: 'Bina', lastName: 'Roy', password: 'Stamps-bina-2025' };
  const subject = `Sale deed (${project})`;
  const stampName = `Menon seal ${project}`;
  const signatureA = randomUUID();
  const signatureB = randomUUID();
  let ownerHeaders: Record<string, string> = {};
  let ePakId = '';
  let documentId = '';

  await test.step('an organisation switches rubber stamps on; A and B, both in group Notaries, join as signers', async () => {
    await signUpAndConfirm(page, request, owner);
    ownerHeaders = await apiHeadersOf(request, owner.email, owner.password);
    // Switched on by the tenant's super admin, as the settings screen does.
    const superHeaders = await addSuperAdmin(request, ownerHeaders['x-tenant-id']!, superAdmin);
    await callData(request, updateTenantSettings, { headers: superHeaders, body: { settings: { rubberStampEnabled: true } } });
    await inviteAndRegister(request, ownerHeaders, withFlag, 'signer');
    await inviteAndRegister(request, ownerHeaders, withoutFlag, 'signer');
    const { users } = await callData(request, filteredUsers, { headers: ownerHeaders, query: { filter: 'All', size: 100 } });
    const idOf = (email: string) => users.find((user) => user.email === email)!.userId;
    await callData(request, createGroup, { headers: ownerHeaders, body: { groupName: 'Notaries', userIds: [idOf(withFlag.email), idOf(withoutFlag.email)] } });
  });

  await test.step("the admin sets A's passcode flag from the people list, and not B's", async () => {
    await page.goto('/admin');
    await expect(h1(page)).toHaveText(en.users.title);
    const rowOf = (email: string) => page.getByTestId('user-row').filter({ hasText: email });
    const name = `${withFlag.firstName} ${withFlag.lastName}`;
    await rowOf(withFlag.email).getByRole('button', { name: en.users.actions.label.replace('{{name}}', name) }).click();
    await page.getByRole('menuitem', { name: R.passcode.set }).click();
    await expect(page.getByRole('status')).toHaveText(R.passcode.passcodeOn.replace('{{name}}', name));
    await expect(rowOf(withFlag.email)).toContainText(R.passcode.badge);
    await expect(rowOf(withoutFlag.email)).not.toContainText(R.passcode.badge);
    await expectNoHorizontalOverflow(page);
    if (desktop) await captureAtBothSizes(page, SHOTS, 'users-passcode-flag');
    const log = await callData(request, listAdminAudit, { headers: ownerHeaders, query: { action: 'user_passcode_flag_changed' } });
    expect(log.items.map((entry) => entry.targetLabel)).toEqual([withFlag.email]);
  });

  await test.step('on their profile, the owner adds a stamp and shares it with Notaries', async () => {
    await page.goto('/profile');
    const section = page.getByTestId('rubber-stamps');
    await expect(section.getByRole('heading', { name: R.title })).toBeVisible();
    // The owner has no passcode flag: they keep stamps, but are told they cannot apply one.
    await expect(section.getByTestId('passcode-missing')).toBeVisible();
    await section.getByRole('button', { name: R.add }).click();
    const dialog = page.getByRole('dialog', { name: R.addTitle });
    await dialog.getByRole('textbox', { name: R.name }).fill(stampName);
    const chooser = page.waitForEvent('filechooser');
    await dialog.getByRole('button', { name: R.chooseImage }).click();
    await (await chooser).setFiles({ name: 'seal.png', mimeType: 'image/png', buffer: seal() });
    await expect(dialog.getByTestId('stamp-file-name')).toHaveText('seal.png');
    await settle(page);
    if (desktop) await captureAtBothSizes(page, SHOTS, 'stamp-add-dialog');
    await dialog.getByRole('button', { name: R.create }).click();
    await expect(dialog).toBeHidden();
    const card = section.getByRole('listitem', { name: stampName });
    await expect(card.getByRole('img', { name: R.imageAlt.replace('{{name}}', stampName) })).toBeVisible();
    await expect(card).toContainText(R.notShared);

    await card.getByRole('button', { name: `${R.share}: ${stampName}` }).click();
    const share = page.getByRole('dialog', { name: R.shareTitle.replace('{{name}}', stampName) });
    await share.getByRole('combobox', { name: R.groups }).click();
    await page.getByRole('option', { name: 'Notaries', exact: true }).click();
    // Closes the options list, as a click beside it does.
    await share.getByText(R.shareIntro).click();
    await settle(page);
    if (desktop) await captureAtBothSizes(page, SHOTS, 'stamp-share-dialog');
    await share.getByRole('button', { name: R.save }).click();
    await expect(share).toBeHidden();
    await expect(card).toContainText(R.sharedWith.replace('{{list}}', 'Notaries'));
    await card.scrollIntoViewIfNeeded();
    await expectNoHorizontalOverflow(page);
    if (desktop) await captureAtBothSizes(page, SHOTS, 'profile-rubber-stamps');
  });

  await test.step('the owner sends a deed for A and B to sign', async () => {
    const uploaded = await callData(request, uploadDocument, { headers: ownerHeaders, file: { name: PLAIN, mimeType: 'application/pdf', buffer: fs.readFileSync(`${CORPUS}${PLAIN}`) } });
    const { states } = await callData(request, listWorkflowStates, { headers: ownerHeaders });
    const epak = await callData(request, createEpak, {
      headers: ownerHeaders,
      body: {
        subject,
        documentIds: [uploaded.documentId],
        signingPolicy: 'QUICKSIGN',
        steps: [{ workflowStateId: states.find((state) => state.type === 'SIGN')!.workflowStateId, recipients: [{ email: withFlag.email }, { email: withoutFlag.email }] }],
      },
    });
    ePakId = epak.ePakId;
    documentId = epak.documents[0]!.documentId;
    const tags: TagInput[] = [
      { uuid: signatureA, type: 'signature', pageNumber: 1, positionX: 60, positionY: 600, blockWidth: 160, blockHeight: 50, userEmail: withFlag.email, wfsOrderId: 1 },
      { uuid: signatureB, type: 'signature', pageNumber: 1, positionX: 340, positionY: 600, blockWidth: 160, blockHeight: 50, userEmail: withoutFlag.email, wfsOrderId: 1 },
    ];
    await callData(request, createSignatureBlocks, { headers: ownerHeaders, params: { ePakId, documentId }, body: { tags } });
    await callData(request, startEpak, { headers: ownerHeaders, params: { ePakId } });
    await logOutAs(page, `${owner.firstName} ${owner.lastName}`);
  });

  await test.step('A signs with the stamp over their signature; the PDF verifies and shows the stamp', async () => {
    await signInWith(page, withFlag.email, withFlag.password);
    await expect(page).not.toHaveURL(/\/login$/);
    await page.goto(`/sign?ePakId=${ePakId}`);
    await expect(page.locator('[data-testid="tag-editor-page"][data-rendered="true"]')).toHaveCount(1, { timeout: 20_000 });
    const chooser = page.getByTestId('stamp-chooser');
    await expect(chooser.getByRole('radio', { name: stampName })).toBeChecked();
    await expect(chooser.getByRole('img', { name: R.imageAlt.replace('{{name}}', stampName) })).toBeVisible();
    await chooser.getByRole('button', { name: R.chooser.apply }).click();
    await expect(chooser.getByTestId('stamp-applied')).toHaveText(R.chooser.appliedHere.replace('{{page}}', '1'));

    await adoptTypedSignature(page, signatureA);
    await expect(page.getByTestId('applied-stamp')).toBeVisible();
    await expectNoHorizontalOverflow(page);
    await page.getByTestId('applied-stamp').scrollIntoViewIfNeeded();
    await settle(page);
    if (desktop) await captureAtBothSizes(page, SHOTS, 'ceremony-stamp-applied');

    await page.getByRole('button', { name: signing.actions.sign, exact: true }).click();
    await expect(page.getByTestId('signing-outcome')).toContainText(signing.outcome.signedWaiting, { timeout: 30_000 });
    await expect(page.locator('[data-testid="tag-editor-page"][data-rendered="true"]')).toHaveCount(1, { timeout: 20_000 });
    await expect(page.getByTestId('signing-document')).toHaveAttribute('data-shown-revisions', '1', { timeout: 20_000 });
    if (desktop) await captureAtBothSizes(page, SHOTS, 'ceremony-stamp-signed');

    const download = await call(request, downloadEpakDocument, { headers: ownerHeaders, params: { ePakId, documentId } });
    expect(download.ok()).toBe(true);
    const { folder, pdf } = expectValidSignedPdf(await download.body(), 1, 'pakt-stamp-');

    // 72 dpi, one pixel a point. The stamp (120 x 120) is centred on A's signature (60, 600,
    // 160 x 50): x 80–200, y 565–685. Its centre is red, and so is the part covering the
    // signature; B's signature box has no stamp.
    const render = spawnSync('pdftoppm', ['-png', '-r', '72', '-f', '1', '-l', '1', '-singlefile', pdf, path.join(folder, 'page')], { encoding: 'utf8' });
    expect(render.status, render.stderr).toBe(0);
    const red = ([r, g, b]: [number, number, number]) => r > 150 && g < 90 && b < 90;
    const page1 = path.join(folder, 'page.png');
    expect(red(meanColour(page1, { x: 125, y: 610, width: 30, height: 30 })), 'the stamp over the signature').toBe(true);
    expect(red(meanColour(page1, { x: 85, y: 570, width: 20, height: 20 })), 'the stamp above the signature').toBe(true);
    expect(red(meanColour(page1, { x: 380, y: 610, width: 30, height: 30 })), "B's place").toBe(false);
    fs.rmSync(folder, { recursive: true, force: true });
  });

  await test.step('B is offered no stamp, and forcing one through the API is refused with nothing signed', async () => {
    await logOutAs(page, `${withFlag.firstName} ${withFlag.lastName}`);
    await signInWith(page, withoutFlag.email, withoutFlag.password);
    await expect(page).not.toHaveURL(/\/login$/);
    await page.goto(`/sign?ePakId=${ePakId}`);
    await expect(page.locator('[data-testid="tag-editor-page"][data-rendered="true"]')).toHaveCount(1, { timeout: 20_000 });
    await expect(page.getByRole('button', { name: signing.actions.sign, exact: true })).toBeVisible();
    await expect(page.getByTestId('stamp-chooser')).toHaveCount(0);
    await expectNoHorizontalOverflow(page);
    if (desktop) await captureAtBothSizes(page, SHOTS, 'ceremony-no-passcode');

    const headersB = await apiHeadersOf(request, withoutFlag.email, withoutFlag.password);
    const viewer = await callData(request, getEpak, { headers: headersB, params: { ePakId } });
    expect(viewer.viewer?.rubberStamps).toEqual({ available: false, stamps: [] });
    const { stamps } = await callData(request, listRubberStamps, { headers: headersB });
    // B has the stamp through the group; only the passcode flag is missing.
    const stamp = stamps.find((candidate) => candidate.name === stampName)!;
    expect(stamp).toBeTruthy();
    const forced = await call(request, signEpakDocument, {
      headers: headersB,
      params: { ePakId, documentId },
      body: {
        values: [{ uuid: signatureB, value: 'B Roy' }],
        rubberStamps: [{ rubberStampId: stamp.rubberStampId, placement: { pageNumber: 1, positionX: 360, positionY: 560 } }],
      },
    });
    expect(forced.status()).toBe(403);
    expect(await forced.json()).toMatchObject({ code: -11, issues: [{ path: 'rubberStamps.0', message: 'rubberStampNotAllowed' }] });
    const detail = await callData(request, getEpak, { headers: ownerHeaders, params: { ePakId } });
    expect(detail.documents[0]!.revisions).toBe(1);
  });
});
