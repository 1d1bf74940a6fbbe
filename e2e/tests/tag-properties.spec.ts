import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createEpak, listWorkflowStates, uploadDocument } from '@pakt/domain';
import { callData } from './api';
import { apiHeadersOf, bundles, capture, clickOnPageAt, composeGoTo, composeSaveStatus, composeStep, saveViewportScreenshot, signUpAndConfirm } from './support';

const { en } = bundles;
const editor = en.tagEditor;
const panel = en.tagPanel;

const CORPUS = fileURLToPath(new URL('../../../shared/corpus/pdfs/', import.meta.url));
const MIXED = 'mixed-sizes-openoffice.pdf';

// A real 1 x 1 PNG, and one padded past the letterhead's 500 KB (the size is checked first).
const PIXEL = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
const HUGE = Buffer.concat([PIXEL, Buffer.alloc(600 * 1024)]);

async function draftThroughApi(request: APIRequestContext, email: string, password: string, signer: string): Promise<string> {
  const headers = await apiHeadersOf(request, email, password);
  const { documentId } = await callData(request, uploadDocument, { headers, file: { name: MIXED, mimeType: 'application/pdf', buffer: fs.readFileSync(`${CORPUS}${MIXED}`) } });
  const { states } = await callData(request, listWorkflowStates, { headers });
  const composed = await callData(request, createEpak, {
    headers,
    body: {
      subject: 'Letter of intent',
      documentIds: [documentId],
      signingPolicy: 'QUICKSIGN',
      steps: [{ workflowStateId: states.find((state) => state.type === 'SIGN')!.workflowStateId, recipients: [{ email: signer }] }],
    },
  });
  return composed.ePakId;
}

const pageOne = (page: Page) => page.getByRole('region', { name: editor.pages.replace('{{name}}', MIXED) }).locator('[data-page-number="1"]');

/** Places a field from the palette at a fraction of page 1, then opens its properties. */
async function placeAndOpen(page: Page, type: string, at: { x: number; y: number }) {
  await page.getByRole('tab', { name: editor.palette.heading }).click();
  await page.getByRole('group', { name: editor.palette.heading }).getByRole('button', { name: type, exact: true }).click();
  await clickOnPageAt(page, pageOne(page), at);
  const box = pageOne(page).locator('[data-testid="tag-box"][aria-pressed="true"]');
  await expect(box).toHaveCount(1);
  await box.click();
  await expect(page.getByRole('region', { name: panel.title })).toBeVisible();
}

// @phone: the tag editor's palette and the tag's properties sit below the pages on a phone; fields are
// placed by clicks scrolled into a screen shorter than the page.
test('a custodian fills a QR code, uploads a letterhead and places a smart tag, with the rules shown where they apply', { tag: '@phone' }, async ({ page, request }, testInfo) => {
  const project = testInfo.project.name;
  const person = { email: `kiran.${project}@props.test`, firstName: 'Kiran', lastName: 'Das', orgName: `Das Traders ${project}`, password: 'Tag-props-password-2025' };

  await signUpAndConfirm(page, request, person);
  const ePakId = await draftThroughApi(request, person.email, person.password, `signer.${project}@props.test`);
  await page.goto(`/compose?ePakId=${ePakId}`);
  // Its signer has no signature field yet: the draft opens at its fields.
  await expect(composeStep(page, 'fields')).toHaveAttribute('aria-current', 'step');
  await expect(pageOne(page)).toBeVisible();

  await test.step('QR code: entries are added, a duplicate label is refused with its message', async () => {
    await placeAndOpen(page, editor.types.qrcode, { x: 0.6, y: 0.1 });
    const qr = page.getByRole('region', { name: panel.title });
    await qr.getByLabel(panel.qr.label, { exact: true }).fill('Plot');
    await qr.getByLabel(panel.qr.value, { exact: true }).fill('7, Sector 14');
    await qr.getByRole('button', { name: panel.qr.add, exact: true }).click();
    await expect(qr.getByRole('button', { name: panel.qr.delete.replace('{{label}}', 'Plot') })).toBeVisible();
    await qr.getByLabel(panel.qr.label, { exact: true }).fill('plot ');
    await qr.getByLabel(panel.qr.value, { exact: true }).fill('8');
    await qr.getByRole('button', { name: panel.qr.add, exact: true }).click();
    await expect(qr.getByText(en.qrDuplicateValidation)).toBeVisible();
    await capture(page, testInfo, 'tag-properties-qr');
  });

  await test.step('letterhead: a file over 500 KB is refused, a small PNG is taken and shown', async () => {
    await placeAndOpen(page, editor.types.letterHead, { x: 0.05, y: 0.45 });
    const properties = page.getByRole('region', { name: panel.title });
    let chooser = page.waitForEvent('filechooser');
    await properties.getByRole('button', { name: panel.upload.choose }).click();
    await (await chooser).setFiles({ name: 'letterhead.png', mimeType: 'image/png', buffer: HUGE });
    await expect(properties.getByText(en.maxSizeExceeded)).toBeVisible();
    chooser = page.waitForEvent('filechooser');
    await properties.getByRole('button', { name: panel.upload.choose }).click();
    await (await chooser).setFiles({ name: 'letterhead.png', mimeType: 'image/png', buffer: PIXEL });
    await expect(properties.getByRole('img', { name: panel.letterhead.preview })).toBeVisible();
    await expect(properties.getByText(en.maxSizeExceeded)).toHaveCount(0);
    await capture(page, testInfo, 'tag-properties-letterhead');
  });

  await test.step('smart tags: searched, picked and placed as a data-only field', async () => {
    await page.getByRole('tab', { name: editor.palette.heading }).click();
    await page.getByRole('button', { name: editor.actions.smartTags }).click();
    const picker = page.getByRole('dialog', { name: panel.smartTags.title });
    await picker.getByRole('searchbox', { name: panel.smartTags.search }).fill('email');
    await expect(picker.getByRole('button', { name: panel.smartFields.signerEmail })).toBeVisible();
    await expect(picker.getByRole('button', { name: panel.smartFields.documentName })).toHaveCount(0);
    await saveViewportScreenshot(page, testInfo, 'tag-smart-picker');
    await picker.getByRole('button', { name: panel.smartFields.signerEmail }).click();
    await expect(picker).toBeHidden();
    await clickOnPageAt(page, pageOne(page), { x: 0.6, y: 0.6 });
    await expect(pageOne(page).locator('[data-testid="tag-box"]')).toHaveCount(3);
  });

  await test.step('saved, the server keeps the QR entries, the letterhead image and the smart tag', async () => {
    // The fields save themselves; going on to the review saves whatever is still waiting first.
    await composeGoTo(page, 'review');
    await expect(composeSaveStatus(page)).toHaveAttribute('data-state', 'saved');
    await page.reload();
    await expect(composeStep(page, 'fields')).toHaveAttribute('aria-current', 'step');
    await expect(pageOne(page).locator('[data-testid="tag-box"]')).toHaveCount(3);
  });
});
