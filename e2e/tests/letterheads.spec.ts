import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PNG } from 'pngjs';
import { createSignatureBlocks, downloadEpakDocument, getSignatureBlocks, listLetterheadTemplates, startEpak, type TagInput } from '@pakt/domain';
import { call, callData, composedEpakThroughApi } from './api';
import { adoptTypedSignature, apiHeadersOf, bundles, clickOnPageAt, composeGoTo, composeSaveStatus, composeStep, expectNoHorizontalOverflow, expectValidSignedPdf, openComposeStep, saveViewportScreenshot, signUpAndConfirm } from './support';

const { en } = bundles;
const copy = en.letterheads;
const editor = en.tagEditor;
const panel = en.tagPanel;
const signing = en.signing;

const CORPUS = fileURLToPath(new URL('../../../shared/corpus/pdfs/', import.meta.url));
const PLAIN = 'plain-1p-libreoffice.pdf';

/** A banner of one dark colour, 6:1 like the letterhead tag's default box, so it fills it. */
function banner(): Buffer {
  const image = new PNG({ width: 1200, height: 200 });
  for (let i = 0; i < image.data.length; i += 4) image.data.set([20, 40, 120, 255], i);
  return PNG.sync.write(image);
}
const TOO_LARGE = Buffer.concat([banner(), Buffer.alloc(501 * 1024)]);

const pageOne = (page: Page) => page.getByRole('region', { name: editor.pages.replace('{{name}}', PLAIN) }).locator('[data-page-number="1"]');

/** The mean brightness (0 dark .. 255 white) of a box of a PNG, in its pixels. */
function meanBrightness(file: string, box: { x: number; y: number; width: number; height: number }): number {
  const image = PNG.sync.read(fs.readFileSync(file));
  let sum = 0;
  for (let y = box.y; y < box.y + box.height; y++) {
    for (let x = box.x; x < box.x + box.width; x++) {
      const at = (y * image.width + x) * 4;
      sum += (image.data[at]! + image.data[at + 1]! + image.data[at + 2]!) / 3;
    }
  }
  return sum / (box.width * box.height);
}

// @phone: in the tag editor on a phone the palette and the tag's panel sit below the pages, and the click
// point is scrolled into a screen shorter than the page.
test('a letterhead is uploaded, placed on a document in compose, and is on the signed PDF', { tag: '@phone' }, async ({ page, request }, testInfo) => {
  test.setTimeout(180_000);
  const project = testInfo.project.name;
  const owner = { email: `meera.${project}@letterhead.test`, firstName: 'Meera', lastName: 'Nair', orgName: `Nair Exports ${project}`, password: 'Letterhead-password-2025' };
  const subject = `Offer letter (${project})`;
  const signatureUuid = randomUUID();
  let ePakId = '';
  let documentId = '';

  await signUpAndConfirm(page, request, owner);
  const headers = await apiHeadersOf(request, owner.email, owner.password);

  await test.step('compose, letterheads tab: a file over 500 KB is refused before sending, a PNG is uploaded and listed', async () => {
    await page.goto('/compose');
    await page.getByRole('tab', { name: copy.tab }).click();
    await expect(page.getByText(copy.empty)).toBeVisible();
    let chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: copy.upload }).click();
    await (await chooser).setFiles({ name: 'big.png', mimeType: 'image/png', buffer: TOO_LARGE });
    await expect(page.getByRole('alert').filter({ hasText: en.maxSizeExceeded })).toBeVisible();
    chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: copy.upload }).click();
    await (await chooser).setFiles({ name: 'nair-exports.png', mimeType: 'image/png', buffer: banner() });
    const item = page.getByRole('listitem', { name: 'nair-exports.png' });
    await expect(item.getByRole('img', { name: copy.thumbnailAlt.replace('{{name}}', 'nair-exports.png') })).toBeVisible();
    await expect(item.getByText(/^1200 × 200 px · \d+ KB$/)).toBeVisible();
    await expect(page.getByRole('alert')).toHaveCount(0);
    await expectNoHorizontalOverflow(page);
    await item.scrollIntoViewIfNeeded();
    await saveViewportScreenshot(page, testInfo, 'letterheads-compose-tab');
    // The server judged it by its bytes too, and shares it with the tenant.
    const { letterheads } = await callData(request, listLetterheadTemplates, { headers });
    expect(letterheads).toMatchObject([{ name: 'nair-exports.png', width: 1200, height: 200 }]);
  });

  await test.step('a draft with the owner as its signer; a letterhead tag at the top of page 1 takes the saved letterhead', async () => {
    const epak = await composedEpakThroughApi(request, {
      headers,
      file: { name: PLAIN, mimeType: 'application/pdf', buffer: fs.readFileSync(`${CORPUS}${PLAIN}`) },
      subject,
      signingPolicy: 'QUICKSIGN',
      steps: [{ type: 'SIGN', recipients: [owner.email] }],
    });
    ePakId = epak.ePakId;
    documentId = epak.documents[0]!.documentId;
    const signature: TagInput = { uuid: signatureUuid, type: 'signature', pageNumber: 1, positionX: 60, positionY: 600, blockWidth: 160, blockHeight: 50, userEmail: owner.email, wfsOrderId: 1 };
    await callData(request, createSignatureBlocks, { headers, params: { ePakId, documentId }, body: { tags: [signature] } });

    await page.goto(`/compose?ePakId=${ePakId}`);
    // Nothing is missing (its signer has a signature field): the draft opens at its review, the fields a step back.
    await expect(composeStep(page, 'review')).toHaveAttribute('aria-current', 'step');
    await openComposeStep(page, 'fields');
    await expect(pageOne(page)).toHaveAttribute('data-rendered', 'true', { timeout: 20_000 });
    await page.getByRole('tab', { name: editor.palette.heading }).click();
    await page.getByRole('group', { name: editor.palette.heading }).getByRole('button', { name: editor.types.letterHead, exact: true }).click();
    await clickOnPageAt(page, pageOne(page), { x: 0.05, y: 0.03 });
    const box = pageOne(page).locator('[data-testid="tag-box"][aria-pressed="true"]');
    await expect(box).toHaveCount(1);
    await box.click();
    const properties = page.getByRole('region', { name: panel.title });
    await properties.getByRole('button', { name: copy.showSaved }).click();
    await properties.getByRole('button', { name: copy.useNamed.replace('{{name}}', 'nair-exports.png') }).click();
    await expect(properties.getByRole('img', { name: panel.letterhead.preview })).toBeVisible();
    await expect(properties.getByText(copy.inUse)).toBeVisible();
    await expectNoHorizontalOverflow(page);
    await properties.getByText(copy.inUse).scrollIntoViewIfNeeded();
    await saveViewportScreenshot(page, testInfo, 'letterheads-tag-panel');
    // The fields save themselves; going on to the review saves whatever is still waiting first.
    await composeGoTo(page, 'review');
    await expect(composeSaveStatus(page)).toHaveAttribute('data-state', 'saved');
    const saved = await callData(request, getSignatureBlocks, { headers, params: { ePakId, documentId } });
    expect(String(saved.tags.find((tag) => tag.type === 'letterHead')?.value)).toMatch(/^data:image\/png;base64,/);
    await callData(request, startEpak, { headers, params: { ePakId } });
  });

  await test.step('the signer signs; the PDF has a valid signature, passes qpdf, and shows the letterhead at the top of page 1', async () => {
    await page.goto(`/sign?ePakId=${ePakId}`);
    await expect(page.locator('[data-testid="tag-editor-page"][data-rendered="true"]')).toHaveCount(1, { timeout: 20_000 });
    await adoptTypedSignature(page, signatureUuid);
    await page.getByRole('button', { name: signing.actions.sign, exact: true }).click();
    await expect(page.getByTestId('signing-outcome')).toContainText(signing.outcome.signedCompleted, { timeout: 30_000 });
    await expect(page.locator('[data-testid="tag-editor-page"][data-rendered="true"]')).toHaveCount(1, { timeout: 20_000 });
    await page.evaluate(() => window.scrollTo(0, 0));
    await saveViewportScreenshot(page, testInfo, 'letterheads-signed');

    const download = await call(request, downloadEpakDocument, { headers, params: { ePakId, documentId } });
    expect(download.ok()).toBe(true);
    const { folder, pdf } = expectValidSignedPdf(await download.body(), 1, 'pakt-letterhead-');

    // Page 1 at 50 dpi: the letterhead's box (placed at 5% and 3% of the page, 540 x 90 pt) is
    // dark navy; the same box of the unsigned original is white paper.
    const render = spawnSync('pdftoppm', ['-png', '-r', '50', '-f', '1', '-l', '1', '-singlefile', pdf, path.join(folder, 'page')], { encoding: 'utf8' });
    expect(render.status, render.stderr).toBe(0);
    const original = path.join(folder, 'original');
    expect(spawnSync('pdftoppm', ['-png', '-r', '50', '-f', '1', '-l', '1', '-singlefile', `${CORPUS}${PLAIN}`, original]).status).toBe(0);
    const inside = { x: 60, y: 30, width: 250, height: 25 };
    expect(meanBrightness(`${original}.png`, inside), 'the original is blank there').toBeGreaterThan(200);
    expect(meanBrightness(path.join(folder, 'page.png'), inside), 'the letterhead is drawn there').toBeLessThan(110);
    fs.rmSync(folder, { recursive: true, force: true });
  });
});
