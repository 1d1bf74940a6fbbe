import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createSignatureBlocks, downloadEpakDocument, startEpak, type TagInput } from '@pakt/domain';
import { call, callData, composedEpakThroughApi } from './api';
import { adoptTypedSignature, apiHeadersOf, bundles, expectNoHorizontalOverflow, keepScreenshot, signUpAndConfirm, VIEWPORTS } from './support';

const { en } = bundles;
const signing = en.signing;
const R = en.reasonsAdmin;

const CORPUS = fileURLToPath(new URL('../../../shared/corpus/pdfs/', import.meta.url));
const PLAIN = 'plain-1p-libreoffice.pdf';

// E2E_SCREENSHOT_DIR lets a reviewer collect this journey's pictures apart from the others'.
const screenshotDir = (process.env.E2E_SCREENSHOT_DIR ?? '/tmp/shots-reasons').replace(/\/?$/, '/');

async function capture(page: Page, name: string, device: string = test.info().project.name): Promise<void> {
  fs.mkdirSync(screenshotDir, { recursive: true });
  // A cancelled animation rejects its promise; it has ended all the same.
  await page.evaluate(() => Promise.all(document.getAnimations().map((animation) => animation.finished.catch(() => undefined))));
  await keepScreenshot(page, { path: `${screenshotDir}${device}-${name}.png` });
}

/**
 * The screen at both sizes, each checked to fit without sideways scrolling: this journey has no
 * phone run (its steps are the same at both sizes), so its desktop run checks the phone's fit.
 */
async function captureBothSizes(page: Page, name: string): Promise<void> {
  const original = page.viewportSize();
  for (const [device, size] of Object.entries(VIEWPORTS)) {
    await page.setViewportSize(size);
    await expectNoHorizontalOverflow(page);
    await capture(page, name, device);
  }
  if (original) await page.setViewportSize(original);
}

/** The /Reason strings of the signatures in a PDF (the server writes them as hex strings). */
const reasonsIn = (pdf: Buffer) => [...pdf.toString('latin1').matchAll(/\/Reason <([0-9A-Fa-f]*)>/g)].map((match) => Buffer.from(match[1]!, 'hex').toString('latin1'));

test("an admin adds a signing reason and makes it the default; a signer signs with it, chosen already, and it is in the signature", async ({ page, request }, testInfo) => {
  test.setTimeout(180_000);
  const project = testInfo.project.name;
  const owner = { email: `meera.${project}@reasons.test`, firstName: 'Meera', lastName: 'Iyer', orgName: `Iyer Audits ${project}`, password: 'Reasons-password-2025' };
  const subject = `Audit report, Q3 (${project})`;
  const reason = 'Checked by finance';

  await test.step('the admin of a new organisation finds the built-in reasons under Admin, Reasons', async () => {
    await signUpAndConfirm(page, request, owner);
    await page.goto('/admin?section=reasons');
    await expect(page.getByRole('heading', { level: 1, name: R.title })).toBeVisible();
    const list = page.getByRole('list', { name: R.listLabel });
    await expect(list.getByTestId('reason')).toHaveCount(4);
    await expect(list.getByRole('listitem', { name: signing.reasons.approve }).getByTestId('reason-default')).toBeVisible();
    await captureBothSizes(page, 'reasons-list');
  });

  await test.step('adds a reason, is refused the same words twice, and makes it the default', async () => {
    await page.getByRole('button', { name: R.add }).click();
    const dialog = page.getByRole('dialog', { name: R.form.createTitle });
    await dialog.getByRole('textbox', { name: R.form.text }).fill(reason);
    await capture(page, 'reasons-add');
    await dialog.getByRole('button', { name: R.form.create }).click();
    await expect(page.getByRole('status')).toContainText(R.done.created.replace('{{text}}', reason));

    await page.getByRole('button', { name: R.add }).click();
    await dialog.getByRole('textbox', { name: R.form.text }).fill(reason.toUpperCase());
    await dialog.getByRole('button', { name: R.form.create }).click();
    await expect(dialog.getByText(R.errors.taken)).toBeVisible();
    await capture(page, 'reasons-taken');
    await dialog.getByRole('button', { name: R.form.cancel }).click();

    const item = page.getByRole('listitem', { name: reason });
    await item.getByRole('button', { name: R.makeDefaultLabel.replace('{{text}}', reason) }).click();
    await expect(item.getByTestId('reason-default')).toBeVisible();
    // The default stays offered: its switch cannot be turned off.
    await expect(item.getByRole('switch')).toBeDisabled();
    await capture(page, 'reasons-default');
  });

  await test.step('at /sign the new default is listed first and chosen already; the signer signs with it', async () => {
    const headers = await apiHeadersOf(request, owner.email, owner.password);
    const epak = await composedEpakThroughApi(request, {
      headers,
      file: { name: PLAIN, mimeType: 'application/pdf', buffer: fs.readFileSync(`${CORPUS}${PLAIN}`) },
      subject,
      signingPolicy: 'ESIGNATURE',
      steps: [{ type: 'SIGN', recipients: [owner.email] }],
    });
    // An ePak goes out only with a signature field for its signer (-62), and an e-signature with a
    // reason field beside it (-49), which takes the reason chosen in the panel.
    const signature: TagInput = { uuid: randomUUID(), type: 'signature', pageNumber: 1, positionX: 60, positionY: 600, blockWidth: 160, blockHeight: 50, userEmail: owner.email, wfsOrderId: 1 };
    const reasonField: TagInput = { ...signature, uuid: randomUUID(), type: 'reason', positionY: 655, blockWidth: 200, blockHeight: 20 };
    await callData(request, createSignatureBlocks, { headers, params: { ePakId: epak.ePakId, documentId: epak.documents[0]!.documentId }, body: { tags: [signature, reasonField] } });
    await callData(request, startEpak, { headers, params: { ePakId: epak.ePakId } });

    await page.goto(`/sign?ePakId=${epak.ePakId}`);
    await expect(page.getByRole('heading', { level: 1, name: subject })).toBeVisible();
    await expect(page.locator('[data-testid="tag-editor-page"][data-rendered="true"]')).toHaveCount(1, { timeout: 20_000 });
    await adoptTypedSignature(page, signature.uuid);
    const panel = page.getByRole('region', { name: signing.panel.signHeading });
    const picker = panel.getByRole('combobox', { name: signing.reasons.label });
    // The new default is listed first and already chosen (issue 22): the signer need not pick it.
    await expect(picker.locator('option:checked')).toHaveText(reason);
    await expect(picker.locator('option')).toHaveText([signing.reasons.none, reason, signing.reasons.approve, signing.reasons.agree, signing.reasons.author, signing.reasons.witness, signing.reasons.other]);
    await panel.scrollIntoViewIfNeeded();
    await captureBothSizes(page, 'reasons-ceremony');
    await panel.getByRole('button', { name: signing.actions.sign, exact: true }).click();
    await expect(page.getByTestId('signing-outcome')).toContainText(signing.outcome.signedCompleted, { timeout: 30_000 });

    const download = await call(request, downloadEpakDocument, { headers, params: { ePakId: epak.ePakId, documentId: epak.documents[0]!.documentId } });
    expect(download.ok()).toBe(true);
    expect(reasonsIn(await download.body())).toEqual([reason]);
  });
});
