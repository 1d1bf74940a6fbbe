import type { Page } from '@playwright/test';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startedEpakThroughApi } from './api';
import { e2eServer, expect, test } from './fixtures';
import { apiHeadersOf, h1, inviteAndRegister, saveScreenshotAtBothSizes, signInWith, signUpAndConfirm } from './support';

const CORPUS = fileURLToPath(new URL('../../../shared/corpus/pdfs/', import.meta.url));
const PLAIN = 'plain-1p-libreoffice.pdf';
const file = () => ({ name: PLAIN, mimeType: 'application/pdf', buffer: fs.readFileSync(`${CORPUS}${PLAIN}`) });

/** One recipient's line of the management view's timeline. */
const recipientRow = (page: Page, text: string) => page.getByTestId('manage-recipient').filter({ hasText: text });
const dialog = (page: Page, id: string) => page.getByTestId(id);

test('the sender manages a live ePak: reminds, shows a signing link, edits, delegates their own place, replaces a recipient, stops another with a reason, archives it, and reads the activity', async ({ page: adminPage, request, browser }) => {
  test.setTimeout(240_000);
  // The admin's browser sets the organisation up; the custodian works in her own.
  let page = adminPage;
  const admin = { email: 'meera@manage.test', firstName: 'Meera', lastName: 'Shah', orgName: 'Shah Exports', password: 'Manage-password-2025' };
  const kavya = { email: 'kavya@manage.test', firstName: 'Kavya', lastName: 'Rao', password: 'Member-password-2025' };
  const arjun = { email: 'arjun@manage.test', firstName: 'Arjun', lastName: 'Mehta', password: 'Member-password-2025' };
  const buyer = 'buyer@client.test';
  const agent = 'agent@client.test';
  const purchasing = 'purchasing@client.test';
  const supply = 'Supply agreement 2027';
  const quote = 'Freight quote 88';
  const ids: Record<string, string> = {};

  await test.step('a custodian sends two ePaks: one she signs with a client, one for an agent', async () => {
    await signUpAndConfirm(page, request, { ...admin });
    const adminHeaders = await apiHeadersOf(request, admin.email, admin.password);
    await inviteAndRegister(request, adminHeaders, kavya, 'custodian');
    await inviteAndRegister(request, adminHeaders, arjun, 'signer');
    const headers = await apiHeadersOf(request, kavya.email, kavya.password);
    ids.supply = (await startedEpakThroughApi(request, { headers, file: file(), subject: supply, signingPolicy: 'QUICKSIGN', steps: [{ type: 'SIGN', recipients: [kavya.email, buyer] }] })).ePakId;
    ids.quote = (await startedEpakThroughApi(request, { headers, file: file(), subject: quote, signingPolicy: 'QUICKSIGN', steps: [{ type: 'SIGN', recipients: [agent] }] })).ePakId;
  });

  await test.step('she finds the ePak in her inbox (she signs it too) and opens its management view', async () => {
    page = await (await browser.newContext({ baseURL: e2eServer().url })).newPage();
    await page.goto('/login');
    await signInWith(page, kavya.email, kavya.password);
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.goto('/epaks');
    await page.getByTestId('epak-row').filter({ hasText: supply }).getByTestId('epak-row-manage').click();
    await expect(page).toHaveURL(new RegExp(`ePakId=${ids.supply}.*view=manage`));
    await expect(h1(page)).toHaveText(supply);
    await expect(page.getByTestId('manage-recipient')).toHaveCount(2);
    await expect(page.getByTestId('manage-chain-status')).toHaveAttribute('data-valid', 'true');
  });

  await test.step('she reminds the client, then shows the client’s signing link (the showing is logged)', async () => {
    await recipientRow(page, buyer).getByTestId('manage-remind').click();
    await expect(page.getByTestId('manage-notice')).toBeVisible();
    await expect(recipientRow(page, buyer).getByTestId('manage-remind-wait')).toBeVisible();
    await recipientRow(page, buyer).getByTestId('manage-link').click();
    await dialog(page, 'manage-link-dialog').getByTestId('manage-link-show').click();
    await expect(dialog(page, 'manage-link-dialog').getByTestId('manage-link-value')).toHaveValue(/\/emailsign\?token=/);
    await page.keyboard.press('Escape');
    await expect(dialog(page, 'manage-link-dialog')).toHaveCount(0);
  });

  await test.step('she gives it an expiry date', async () => {
    await page.getByTestId('manage-edit').click();
    await dialog(page, 'manage-edit-dialog').getByTestId('manage-edit-expiry').fill('2031-03-31T17:00');
    await dialog(page, 'manage-edit-dialog').getByTestId('manage-edit-dialog-confirm').click();
    await expect(dialog(page, 'manage-edit-dialog')).toHaveCount(0);
    await expect(page.getByTestId('manage-notice')).toBeVisible();
  });

  await test.step('she hands her own place on to a colleague', async () => {
    await page.getByTestId('manage-delegate').click();
    await dialog(page, 'manage-delegate-dialog').getByTestId('manage-delegate-email').fill(arjun.email);
    await dialog(page, 'manage-delegate-dialog').getByTestId('manage-delegate-dialog-confirm').click();
    await expect(dialog(page, 'manage-delegate-dialog')).toHaveCount(0);
    await expect(recipientRow(page, kavya.email)).toHaveAttribute('data-status', 'Delegated');
    await expect(recipientRow(page, arjun.email).and(page.locator('[data-status="Pending"]'))).toBeVisible();
  });

  await test.step('she corrects the client: someone else signs in their place, with the same field', async () => {
    await recipientRow(page, buyer).getByTestId('manage-replace-recipient').click();
    const replace = dialog(page, 'manage-replace-dialog');
    await replace.getByTestId('manage-replace-email').fill(purchasing);
    await replace.getByTestId('manage-replace-first-name').fill('Divya');
    await replace.getByTestId('manage-replace-last-name').fill('Menon');
    await replace.getByTestId('manage-replace-dialog-confirm').click();
    await expect(replace).toHaveCount(0);
    await expect(recipientRow(page, buyer)).toHaveCount(0);
    await expect(recipientRow(page, purchasing)).toHaveAttribute('data-status', 'Pending');
  });

  await test.step('the activity shows each of these, and its chain of hashes still verifies', async () => {
    const actions = page.getByTestId('manage-activity-entry');
    for (const action of ['reminded', 'linkShown', 'edited', 'delegated', 'recipientReplaced']) await expect(actions.and(page.locator(`[data-action="${action}"]`)).first()).toBeVisible();
    await expect(page.getByTestId('manage-chain-status')).toHaveAttribute('data-valid', 'true');
    await page.evaluate(() => window.scrollTo(0, 0));
    await saveScreenshotAtBothSizes(page, 'epak-manage-live');
  });

  await test.step('she stops the other ePak, giving the reason, which the timeline then shows', async () => {
    await page.goto(`/sign?ePakId=${ids.quote}&view=manage`);
    await expect(h1(page)).toHaveText(quote);
    await page.getByTestId('manage-stop').click();
    const reason = 'The agent quoted for the wrong port; a new quote follows.';
    await dialog(page, 'manage-stop-dialog').getByTestId('manage-stop-reason').fill(reason);
    await dialog(page, 'manage-stop-dialog').getByTestId('manage-stop-dialog-confirm').click();
    await expect(dialog(page, 'manage-stop-dialog')).toHaveCount(0);
    await expect(page.getByTestId('manage-ending-comment')).toContainText(reason);
    await expect(page.getByTestId('manage-stop')).toHaveCount(0);
    await expect(page.getByTestId('manage-activity-entry').and(page.locator('[data-action="stopped"]'))).toBeVisible();
    await saveScreenshotAtBothSizes(page, 'epak-manage-stopped');
  });

  await test.step('ended, it is kept 30 days before archival, then she archives it at once', async () => {
    await page.getByTestId('manage-archival-input').fill('30');
    await page.getByTestId('manage-archival-save').click();
    await expect(page.getByTestId('manage-notice')).toBeVisible();
    await page.getByTestId('manage-archive').click();
    await dialog(page, 'manage-archive-dialog').getByTestId('manage-archive-dialog-confirm').click();
    await expect(page.getByTestId('manage-archived')).toBeVisible();
    await expect(page.getByTestId('manage-archive')).toHaveCount(0);
    await expect(page.getByTestId('manage-activity-entry').and(page.locator('[data-action="archived"]'))).toBeVisible();
  });
});
