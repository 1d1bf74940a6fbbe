import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { fileURLToPath } from 'node:url';
import { createWorkflow, listWorkflowStates } from '@pakt/domain';
import { callData } from './api';
import { apiHeadersOf, bundles, capture, composeGoTo, composeSaveStatus, composeStep, fieldLabelled, saveViewportScreenshot, signUpAndConfirm } from './support';

const { en } = bundles;
const compose = en.compose;
const editor = en.tagEditor;

const CORPUS = fileURLToPath(new URL('../../../shared/corpus/pdfs/', import.meta.url));
const MIXED = 'mixed-sizes-openoffice.pdf';

const withNumber = (text: string, number: number) => text.replace('{{number}}', String(number));
const step = (page: Page, number: number) =>
  page.getByRole('form', { name: compose.title }).getByRole('group', { name: withNumber(en.workflows.form.step, number), exact: true });

/** What the review says of a signer with no signature field (a person added by address is named by its first part). */
const missingSignature = (email: string, stepNumber: number) =>
  compose.review.noSignatureField.replace('{{name}}', email.split('@')[0]!).replace('{{email}}', email).replace('{{step}}', String(stepNumber));

/** Arms a field type for a signer and clicks it onto page 1 at a fraction of the page's size. */
async function place(page: Page, signer: string, type: string, at: { x: number; y: number }) {
  await page.getByLabel(editor.for, { exact: true }).selectOption(`1|${signer}`);
  await page.getByRole('group', { name: editor.palette.heading }).getByRole('button', { name: type, exact: true }).click();
  const pageEl = page.getByRole('region', { name: editor.pages.replace('{{name}}', MIXED) }).locator('[data-page-number="1"]');
  // On a phone the palette sits below the pages: bring the page back into view before clicking it.
  await pageEl.scrollIntoViewIfNeeded();
  const bounds = (await pageEl.boundingBox())!;
  await page.mouse.click(Math.round(bounds.x + at.x * bounds.width), Math.round(bounds.y + at.y * bounds.height));
  await expect(pageEl.locator('[data-testid="tag-box"][aria-pressed="true"]')).toHaveCount(1);
}

// @phone: on a phone the tag editor's palette sits below the pages: a page is brought back into view before
// it is clicked (the journey's own helper does so).
test('switching templates asks first; a signer without a signature field is named at review, and the ePak goes once they have one', { tag: '@phone' }, async ({ page, request }, testInfo) => {
  const project = testInfo.project.name;
  const person = {
    email: `meera.${project}@send.test`,
    firstName: 'Meera',
    lastName: 'Nair',
    orgName: `Nair Leasing ${project}`,
    password: 'Send-epak-password-2025',
  };
  const buyer = `buyer.${project}@send.test`;
  const seller = `seller.${project}@send.test`;

  await test.step('a template exists; with the document uploaded, choosing the template over typed recipients asks before replacing them', async () => {
    await signUpAndConfirm(page, request, person);
    const headers = await apiHeadersOf(request, person.email, person.password);
    const { states } = await callData(request, listWorkflowStates, { headers });
    await callData(request, createWorkflow, {
      headers,
      body: {
        name: 'Lease signing',
        signingPolicy: 'QUICKSIGN',
        steps: [{ workflowStateId: states.find((state) => state.type === 'SIGN')!.workflowStateId, recipients: [{ type: 'placeholder', label: 'Tenant' }] }],
      },
    });

    // The documents come first: the steps are chosen on the next step of compose.
    await page.goto('/compose');
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: compose.upload.choose }).click();
    await (await chooser).setFiles([`${CORPUS}${MIXED}`]);
    await expect(page.getByRole('list', { name: compose.upload.list }).getByText(/^Uploaded ·/)).toHaveCount(1, { timeout: 30_000 });
    await composeGoTo(page, 'recipients');

    await step(page, 1).getByRole('combobox', { name: new RegExp(`^${en.workflows.form.state}`) }).selectOption({ label: 'Sign' });
    await step(page, 1).getByLabel(withNumber(compose.workflow.addRecipient, 1), { exact: true }).fill(`${buyer}; ${seller}`);
    await step(page, 1).getByRole('button', { name: withNumber(en.workflows.form.addRecipientTo, 1) }).click();
    await expect(step(page, 1).getByRole('listitem')).toHaveCount(2);
    await page.getByRole('combobox', { name: compose.workflow.template }).selectOption({ label: 'Lease signing' });
    const dialog = page.getByRole('dialog', { name: compose.workflow.switchTitle });
    await expect(dialog).toBeVisible();
    await saveViewportScreenshot(page, testInfo, 'compose-template-switch');
    await dialog.getByRole('button', { name: compose.workflow.switchKeep }).click();
    await expect(dialog).toBeHidden();
    await expect(step(page, 1).getByRole('listitem')).toHaveCount(2);
  });

  await test.step('the draft: one document, two signers', async () => {
    await fieldLabelled(page, compose.details.subject).fill(`Lease, flat 3B (${project})`);
    await page.getByRole('combobox', { name: en.workflows.form.signingPolicy }).selectOption('QUICKSIGN');
    await composeGoTo(page, 'fields');
    await expect(page).toHaveURL(/\/compose\?ePakId=[0-9a-f-]{36}$/);
  });

  await test.step('only the buyer has a signature field: the review names the seller and sending waits', async () => {
    await place(page, buyer, editor.types.signature, { x: 0.1, y: 0.6 });
    // Going on saves the fields first.
    await composeGoTo(page, 'review');
    await expect(composeSaveStatus(page)).toHaveAttribute('data-state', 'saved');
    const missing = page.getByTestId('compose-missing');
    await expect(missing).toContainText(compose.review.missingTitle_one.replace('{{count}}', '1'));
    await expect(missing).toContainText(missingSignature(seller, 1));
    await expect(missing).not.toContainText(buyer);
    await expect(page.getByRole('button', { name: compose.start.send })).toBeDisabled();
    await expect(page.getByText(compose.review.sendBlocked)).toBeVisible();
    await capture(page, testInfo, 'send-refused');
    // Its button leads back to the fields.
    await missing.getByRole('button', { name: compose.review.fixThis.replace('{{problem}}', missingSignature(seller, 1)) }).click();
    await expect(composeStep(page, 'fields')).toHaveAttribute('aria-current', 'step');
  });

  await test.step('with a signature field for the seller too, the ePak is sent', async () => {
    await place(page, seller, editor.types.signature, { x: 0.55, y: 0.6 });
    await composeGoTo(page, 'review');
    await expect(page.getByTestId('compose-missing')).toHaveCount(0);
    await expect(page.getByRole('status').filter({ hasText: compose.review.ready })).toBeVisible();
    await page.getByRole('button', { name: compose.start.send }).click();
    await expect(page.getByRole('status').filter({ hasText: compose.start.sent })).toBeVisible();
    await expect(page.getByRole('region', { name: editor.pages.replace('{{name}}', MIXED) })).toHaveCount(0);
    await capture(page, testInfo, 'send-done');
  });
});
