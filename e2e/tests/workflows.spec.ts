import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { bundles, fieldLabelled, h1, saveScreenshotAtBothSizes, signUpAndConfirm } from './support';

const { en } = bundles;
const form = en.workflows.form;

const withNumber = (text: string, number: number) => text.replace('{{number}}', String(number));
const drawerForm = (page: Page) => page.getByRole('form');
const step = (page: Page, number: number) => drawerForm(page).getByRole('group', { name: withNumber(form.step, number), exact: true });
const card = (page: Page, name: string) => page.getByRole('listitem', { name, exact: true });
const stepBadges = (page: Page, name: string) => card(page, name).getByRole('list', { name: en.workflows.list.steps }).getByRole('listitem');

async function chooseState(page: Page, number: number, label: string): Promise<void> {
  await step(page, number).getByRole('combobox', { name: new RegExp(`^${form.state}`) }).selectOption({ label });
}

/** The segmented control's radios are drawn by their labels; a person clicks those. */
async function addRecipient(page: Page, number: number, kind: 'user' | 'placeholder', text: string): Promise<void> {
  const within: Locator = step(page, number);
  await within.locator('label').filter({ hasText: new RegExp(`^${form.kind[kind]}$`) }).click();
  await within.getByLabel(kind === 'user' ? form.emailLabel : form.placeholderLabel, { exact: true }).fill(text);
  await within.getByRole('button', { name: withNumber(form.addRecipientTo, number) }).click();
  await expect(within.getByRole('listitem').filter({ hasText: text })).toBeVisible();
}

test('an admin builds a workflow template, reorders its steps, is told a name is taken, and deletes it', async ({ page, request }, testInfo) => {
  // Its screens are checked and pictured at both sizes from this run (it has no phone run): more
  // than the default allows on a busy machine.
  test.setTimeout(180_000);
  const project = testInfo.project.name;
  const person = {
    email: `kavya.${project}@workflows.test`,
    firstName: 'Kavya',
    lastName: 'Kulkarni',
    orgName: `Kulkarni Estates ${project}`,
    password: 'Workflow-password-2025',
  };
  const lawyer = `lawyer.${project}@workflows.test`;

  await test.step('a new admin opens Workflows from the header menu and finds none yet', async () => {
    await signUpAndConfirm(page, request, person);
    await page.getByRole('button', { name: en.menu.open }).click();
    await page.getByRole('menuitem', { name: en.menu.workflows, exact: true }).click();
    await expect(page).toHaveURL(/\/workflows$/);
    await expect(h1(page)).toHaveText(en.workflows.title);
    await expect(page.getByText(en.workflows.empty.title)).toBeVisible();
    await saveScreenshotAtBothSizes(page, 'workflows-empty');
  });

  await test.step('"Sale deed": a review by a lawyer, then buyer and seller sign', async () => {
    await page.getByRole('button', { name: en.workflows.empty.action }).click();
    await expect(page.getByRole('dialog', { name: form.createTitle })).toBeVisible();
    await fieldLabelled(page, form.name).fill('Sale deed');
    await fieldLabelled(page, form.description).fill('Residential property sales');
    await chooseState(page, 1, 'Review');
    await addRecipient(page, 1, 'user', lawyer);
    await drawerForm(page).getByRole('button', { name: form.addStep }).click();
    await chooseState(page, 2, 'Sign');
    await addRecipient(page, 2, 'placeholder', 'Buyer');
    await addRecipient(page, 2, 'placeholder', 'Seller');
    await expect(step(page, 2).locator('.mantine-Badge-label').getByText(en.workflowStateTypes.SIGN, { exact: true })).toBeVisible();
    // Adding recipients scrolled the drawer down; the first picture shows its top.
    await fieldLabelled(page, form.name).scrollIntoViewIfNeeded();
    await saveScreenshotAtBothSizes(page, 'workflows-form');
    // The drawer scrolls on its own: its lower half, with the steps and the button, is a second picture.
    await drawerForm(page).getByRole('button', { name: form.create }).scrollIntoViewIfNeeded();
    await saveScreenshotAtBothSizes(page, 'workflows-form-steps');

    await drawerForm(page).getByRole('button', { name: form.create }).click();
    await expect(page.getByRole('status')).toHaveText(en.workflows.saved.replace('{{name}}', 'Sale deed'));
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(stepBadges(page, 'Sale deed')).toHaveCount(2);
    await expect(stepBadges(page, 'Sale deed').nth(0)).toContainText('Review · 1');
    await expect(stepBadges(page, 'Sale deed').nth(1)).toContainText('Sign · 2');
    await expect(card(page, 'Sale deed')).toContainText(en.workflows.list.owner.replace('{{name}}', `${person.firstName} ${person.lastName}`));
    await saveScreenshotAtBothSizes(page, 'workflows-list');
  });

  await test.step('editing moves the signing ahead of the review, and the list shows the new order', async () => {
    await card(page, 'Sale deed').getByRole('button', { name: en.workflows.list.editAria.replace('{{name}}', 'Sale deed') }).click();
    await expect(page.getByRole('dialog', { name: form.editTitle })).toBeVisible();
    await expect(step(page, 1).getByText(lawyer)).toBeVisible();
    await step(page, 2).getByRole('button', { name: withNumber(form.moveUp, 2) }).click();
    await expect(step(page, 1).getByText('Buyer')).toBeVisible();
    await expect(step(page, 2).getByText(lawyer)).toBeVisible();
    await drawerForm(page).getByRole('button', { name: form.save }).click();
    await expect(page.getByRole('status')).toHaveText(en.workflows.saved.replace('{{name}}', 'Sale deed'));
    await expect(stepBadges(page, 'Sale deed').nth(0)).toContainText('Sign · 2');
    await expect(stepBadges(page, 'Sale deed').nth(1)).toContainText('Review · 1');
    await saveScreenshotAtBothSizes(page, 'workflows-reordered');
  });

  await test.step('a second "Sale deed" is refused (-63) at the name field', async () => {
    await page.getByRole('button', { name: en.workflows.new }).click();
    await fieldLabelled(page, form.name).fill('Sale deed');
    await chooseState(page, 1, 'Email');
    await addRecipient(page, 1, 'user', `records.${project}@workflows.test`);
    await drawerForm(page).getByRole('button', { name: form.create }).click();
    await expect(drawerForm(page).getByText(en.workflows.errors.nameTaken)).toBeVisible();
    // The refused field is brought into view and focused, wherever the drawer was scrolled to.
    await expect(fieldLabelled(page, form.name)).toHaveAttribute('aria-invalid', 'true');
    await expect(fieldLabelled(page, form.name)).toBeFocused();
    await expect(fieldLabelled(page, form.name)).toBeInViewport();
    await saveScreenshotAtBothSizes(page, 'workflows-name-taken');
    await drawerForm(page).getByRole('button', { name: form.cancel }).click();
    await expect(page.getByRole('dialog')).toHaveCount(0);
  });

  await test.step('deleting asks first, then the list is empty again', async () => {
    await card(page, 'Sale deed').getByRole('button', { name: en.workflows.list.deleteAria.replace('{{name}}', 'Sale deed') }).click();
    const dialog = page.getByRole('dialog', { name: en.workflows.delete.title.replace('{{name}}', 'Sale deed') });
    await expect(dialog).toBeVisible();
    // Pictured once it has finished fading in.
    await expect(dialog).toHaveCSS('opacity', '1');
    await saveScreenshotAtBothSizes(page, 'workflows-delete');
    await dialog.getByRole('button', { name: en.workflows.delete.confirm }).click();
    await expect(page.getByRole('status')).toHaveText(en.workflows.deleted.replace('{{name}}', 'Sale deed'));
    await expect(page.getByText(en.workflows.empty.title)).toBeVisible();
    await expect(card(page, 'Sale deed')).toHaveCount(0);
  });
});
