import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { fileURLToPath } from 'node:url';
import { bundles, composeGoTo, composeSaveStatus, composeStep, fieldLabelled, h1, saveScreenshotAtBothSizes, signUpAndConfirm } from './support';

const { en } = bundles;
const compose = en.compose;

// The shared corpus of real-world PDFs, beside the repository (as apps/server/src/documents/corpus.test.ts finds it).
const CORPUS = fileURLToPath(new URL('../../../shared/corpus/pdfs/', import.meta.url));

const withNumber = (text: string, number: number) => text.replace('{{number}}', String(number));
const step = (page: Page, number: number) =>
  page.getByRole('form', { name: compose.title }).getByRole('group', { name: withNumber(en.workflows.form.step, number), exact: true });

async function addAddresses(page: Page, number: number, text: string): Promise<void> {
  const field = step(page, number).getByLabel(withNumber(compose.workflow.addRecipient, number), { exact: true });
  await field.fill(text);
  await step(page, number).getByRole('button', { name: withNumber(en.workflows.form.addRecipientTo, number) }).click();
}

test('an admin uploads two PDFs, builds a two-step workflow and the draft is saved on the way to its fields', async ({ page, request }, testInfo) => {
  // Its screens are checked and pictured at both sizes from this run (it has no phone run): more
  // than the default allows on a busy machine.
  test.setTimeout(180_000);
  const project = testInfo.project.name;
  const person = {
    email: `nisha.${project}@compose.test`,
    firstName: 'Nisha',
    lastName: 'Pillai',
    orgName: `Pillai Realty ${project}`,
    password: 'Compose-password-2025',
  };
  const reviewer = `reviewer.${project}@compose.test`;
  const buyer = `buyer.${project}@compose.test`;
  const seller = `seller.${project}@compose.test`;
  const subject = `Sale of plot 12 (${project})`;

  await test.step('a new admin opens Compose from the header menu', async () => {
    await signUpAndConfirm(page, request, person);
    await page.getByRole('button', { name: en.menu.open }).click();
    await page.getByRole('menuitem', { name: en.menu.compose_compose, exact: true }).click();
    await expect(page).toHaveURL(/\/compose$/);
    await expect(h1(page)).toHaveText(compose.title);
    // The documents come first; the fields and the review wait for a saved draft.
    await expect(composeStep(page, 'documents')).toHaveAttribute('aria-current', 'step');
    await expect(composeStep(page, 'documents')).toHaveAccessibleName(compose.flow.stepOf.replace('{{number}}', '1').replace('{{count}}', '4').replace('{{name}}', compose.flow.steps.documents.label));
    for (const later of ['fields', 'review'] as const) await expect(composeStep(page, later)).toHaveAttribute('aria-disabled', 'true');
    await expect(composeSaveStatus(page)).toHaveAttribute('data-state', 'new');
    await saveScreenshotAtBothSizes(page, 'compose-empty');
  });

  await test.step('two PDFs are uploaded at once and both are chosen, with their page counts', async () => {
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: compose.upload.choose }).click();
    await (await chooser).setFiles([`${CORPUS}rotate-0-90-180-270-arabic.pdf`, `${CORPUS}mixed-sizes-openoffice.pdf`]);
    const uploads = page.getByRole('list', { name: compose.upload.list });
    await expect(uploads.getByRole('listitem')).toHaveCount(2);
    await expect(uploads.getByText(/^Uploaded ·/)).toHaveCount(2, { timeout: 30_000 });
    const chosen = page.getByRole('list', { name: compose.documents.chosen_other.replace('{{count}}', '2') });
    await expect(chosen.getByRole('listitem')).toHaveCount(2);
    await expect(chosen.getByRole('listitem').first()).toContainText('rotate-0-90-180-270-arabic.pdf');
    await expect(chosen.getByRole('listitem').nth(1)).toContainText('mixed-sizes-openoffice.pdf');
    await expect(uploads.locator('[data-status="done"]')).toHaveCount(2);
    await composeGoTo(page, 'recipients');
  });

  await test.step('a review by one address, then two signers pasted at once', async () => {
    await step(page, 1).getByRole('combobox', { name: new RegExp(`^${en.workflows.form.state}`) }).selectOption({ label: 'Review' });
    await addAddresses(page, 1, reviewer);
    await expect(step(page, 1).getByRole('listitem').filter({ hasText: reviewer })).toBeVisible();
    await page.getByRole('button', { name: en.workflows.form.addStep }).click();
    await step(page, 2).getByRole('combobox', { name: new RegExp(`^${en.workflows.form.state}`) }).selectOption({ label: 'Sign' });
    await addAddresses(page, 2, `${buyer}; ${seller}`);
    await expect(step(page, 2).getByRole('listitem')).toHaveCount(2);
    await fieldLabelled(page, compose.details.subject).fill(subject);
    await saveScreenshotAtBothSizes(page, 'compose-filled');
  });

  /** The fields step of the draft: what comes next, said in the alert that it is saved. */
  const checkFields = async () => {
    await expect(composeStep(page, 'fields')).toHaveAttribute('aria-current', 'step');
    await expect(page.getByRole('status').filter({ hasText: compose.draft.saved })).toContainText(compose.draft.tagsNext);
    await expect(page.getByRole('region', { name: compose.draft.summary })).toHaveCount(0);
  };
  /** The review step of the draft: what it holds. */
  const checkReview = async () => {
    await expect(composeStep(page, 'review')).toHaveAttribute('aria-current', 'step');
    const summary = page.getByRole('region', { name: compose.draft.summary });
    await expect(summary.getByRole('heading', { name: subject })).toBeVisible();
    await expect(summary.getByText(compose.status.Draft, { exact: true })).toBeVisible();
    await expect(summary.getByText(/^rotate-0-90-180-270-arabic\.pdf · \d+ pages?$/)).toBeVisible();
    await expect(summary.getByText(/^mixed-sizes-openoffice\.pdf · \d+ pages?$/)).toBeVisible();
    await expect(summary.getByText('2 signers', { exact: true })).toBeVisible();
    await expect(summary.getByRole('listitem', { name: withNumber(en.workflows.form.step, 1) })).toContainText(reviewer);
    await expect(summary.getByRole('listitem', { name: withNumber(en.workflows.form.step, 2) })).toContainText(seller);
    await expect(page.getByText(compose.draft.tagsNext)).toHaveCount(0);
  };

  await test.step('saved as a draft on the way to its fields, it is shown from its own address, also after a reload', async () => {
    await composeGoTo(page, 'fields');
    await expect(page).toHaveURL(/\/compose\?ePakId=[0-9a-f-]{36}$/);
    await expect(h1(page)).toHaveText(compose.draft.title);
    await expect(composeSaveStatus(page)).toHaveAttribute('data-state', 'saved');
    await checkFields();
    await composeGoTo(page, 'review');
    await checkReview();
    await saveScreenshotAtBothSizes(page, 'compose-draft');
    // Reopened, a draft whose signers still lack their fields resumes at the fields.
    await page.reload();
    await expect(h1(page)).toHaveText(compose.draft.title);
    await checkFields();
    await composeGoTo(page, 'review');
    await checkReview();
  });
});
