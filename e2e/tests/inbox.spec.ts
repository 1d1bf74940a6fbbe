import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createEpak, createSignatureBlocks, deleteEpaks, listWorkflowStates, startEpak, uploadDocument, type TagInput } from '@pakt/domain';
import { callData } from './api';
import { apiHeadersOf, bundles, capture, saveViewportScreenshot, signUpAndConfirm } from './support';

const { en } = bundles;
const inbox = en.inbox;

const CORPUS = fileURLToPath(new URL('../../../shared/corpus/pdfs/', import.meta.url));
const PLAIN = 'plain-1p-libreoffice.pdf';

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const startsWith = (text: string) => new RegExp(`^${escaped(text)}`);

const fill = (text: string, values: Record<string, string | number>) =>
  Object.entries(values).reduce((result, [key, value]) => result.replace(`{{${key}}}`, String(value)), text);

/** A folder of the list beside the table (desktop) or the folder select (phone). */
async function openFolder(page: Page, phone: boolean, folder: keyof typeof inbox.folders) {
  if (phone) await page.getByRole('combobox', { name: inbox.folders.label }).selectOption(folder);
  else await page.getByTestId(`folder-${folder}`).click();
  await expect(page.getByTestId('folder-heading')).toHaveText(inbox.folders[folder as 'Inbox']);
}

/** A filter chip, by the label a person clicks (its checkbox is visually hidden). */
const filterChip = (page: Page, name: string) => page.locator('label').filter({ hasText: new RegExp(`^${name}$`) });

/** The rows (desktop) or cards (phone) of the list. */
const rows = (page: Page, phone: boolean) => page.getByTestId(phone ? 'epak-card' : 'epak-row');

// @phone: on a phone the folders are a select, the list is cards, and the header's search is behind a
// button; the journey branches on it.
test('the inbox: counts per folder, a folder opened, sorted, starred; a header search lands on the dashboard; an ePak opens', { tag: '@phone' }, async ({ page, request }, testInfo) => {
  test.setTimeout(180_000);
  const project = testInfo.project.name;
  const phone = project === 'phone';
  // The phone size the inbox was designed at (a common handset), rather than the project's narrowest one.
  if (phone) await page.setViewportSize({ width: 390, height: 844 });
  const owner = { email: `nisha.${project}@inbox.test`, firstName: 'Nisha', lastName: 'Kapoor', orgName: `Kapoor Realty ${project}`, password: 'Inbox-password-2025' };
  const outsider = `buyer.${project}@inbox.test`;
  const lease = `Office lease (${project})`;
  const annexure = `Annexure B (${project})`;
  const nda = `Supplier NDA (${project})`;
  const offer = `Draft offer (${project})`;
  const withdrawn = `Withdrawn quote (${project})`;
  const ids: Record<string, string> = {};

  await test.step('setup through the API: two ePaks wait for the owner, one for an outsider, a draft, a deleted one', async () => {
    await signUpAndConfirm(page, request, owner);
    const headers = await apiHeadersOf(request, owner.email, owner.password);
    const { states } = await callData(request, listWorkflowStates, { headers });
    const sign = states.find((state) => state.type === 'SIGN')!.workflowStateId;

    const compose = async (subject: string, signer: string, start: boolean) => {
      const uploaded = await callData(request, uploadDocument, { headers, file: { name: PLAIN, mimeType: 'application/pdf', buffer: fs.readFileSync(`${CORPUS}${PLAIN}`) } });
      const epak = await callData(request, createEpak, {
        headers,
        body: { subject, documentIds: [uploaded.documentId], signingPolicy: 'QUICKSIGN', viewEnforced: false, steps: [{ workflowStateId: sign, recipients: [{ email: signer }] }] },
      });
      const signature: TagInput = { uuid: randomUUID(), type: 'signature', pageNumber: 1, positionX: 60, positionY: 600, blockWidth: 160, blockHeight: 50, userEmail: signer, wfsOrderId: 1 };
      await callData(request, createSignatureBlocks, { headers, params: { ePakId: epak.ePakId, documentId: epak.documents[0]!.documentId }, body: { tags: [signature] } });
      if (start) await callData(request, startEpak, { headers, params: { ePakId: epak.ePakId } });
      ids[subject] = epak.ePakId;
    };
    await compose(lease, owner.email, true);
    await compose(annexure, owner.email, true);
    await compose(nda, outsider, true);
    await compose(offer, outsider, false);
    await compose(withdrawn, outsider, true);
    const deleted = await callData(request, deleteEpaks, { headers, body: { ePakIds: [ids[withdrawn]!] } });
    expect(deleted.results[0]?.result).toBe('DELETED');
  });

  await test.step('the ePaks menu item opens the inbox: each folder with its count, unread ones in bold', async () => {
    await page.goto('/dashboard');
    await page.getByRole('button', { name: en.menu.open }).click();
    await page.getByRole('menuitem', { name: en.menu.epaks }).click();
    await expect(page).toHaveURL(/\/epaks$/);
    await expect(page.getByRole('heading', { level: 1, name: inbox.title })).toBeVisible();
    await expect(rows(page, phone)).toHaveCount(2);
    if (phone) {
      const folders = page.getByRole('combobox', { name: inbox.folders.label });
      await expect(folders.locator('option[value="Inbox"]')).toHaveText(fill(inbox.folders.optionUnread, { name: inbox.folders.Inbox, unread: 2, total: 2 }));
      await expect(folders.locator('option[value="Pending"]')).toHaveText(new RegExp(`^${escaped(inbox.folders.Pending)} \\((1|1 .* 1)\\)$`));
      await expect(folders.locator('option[value="Draft"]')).toHaveText(new RegExp(`^${escaped(inbox.folders.Draft)} \\((1|1 .* 1)\\)$`));
      await expect(folders.locator('option[value="Deleted"]')).toHaveText(new RegExp(`^${escaped(inbox.folders.Deleted)} \\((1|1 .* 1)\\)$`));
    } else {
      await expect(page.getByTestId('folder-Inbox')).toHaveAccessibleName(fill(inbox.folders.countUnread_other, { name: inbox.folders.Inbox, count: 2, unread: 2 }));
      await expect(page.getByTestId('folder-Inbox')).toHaveAttribute('data-unread', 'true');
      // Waiting for the outsider: the NDA only; the deleted quote is in Deleted alone. (Whether the
      // sender has read what they sent is the server's to say, so only the totals are checked.)
      await expect(page.getByTestId('folder-Pending')).toHaveAccessibleName(startsWith(fill(inbox.folders.count_one, { name: inbox.folders.Pending, count: 1 })));
      await expect(page.getByTestId('folder-Draft')).toHaveAccessibleName(startsWith(fill(inbox.folders.count_one, { name: inbox.folders.Draft, count: 1 })));
      await expect(page.getByTestId('folder-Deleted')).toHaveAccessibleName(startsWith(fill(inbox.folders.count_one, { name: inbox.folders.Deleted, count: 1 })));
    }
    await expect(rows(page, phone).first()).toHaveAttribute('data-unread', 'true');
    await capture(page, testInfo, 'epaks');
  });

  await test.step('another folder opens with its own ePaks', async () => {
    await openFolder(page, phone, 'Pending');
    await expect(page).toHaveURL(/\/epaks\?folder=Pending$/);
    await expect(rows(page, phone)).toHaveCount(1);
    await expect(rows(page, phone).first()).toContainText(nda);
    await expect(rows(page, phone).first()).toContainText(fill(inbox.list.waitingFor, { names: '' }).trim());
    await openFolder(page, phone, 'Draft');
    await expect(rows(page, phone).first()).toContainText(offer);
    await openFolder(page, phone, 'Inbox');
  });

  await test.step('sorting by subject, one way and back', async () => {
    const sortBy = page.getByRole('combobox', { name: inbox.sorts.label });
    await sortBy.click();
    await page.getByRole('option', { name: inbox.sorts.subject }).click();
    await expect(page).toHaveURL(/sort=subject&order=asc/);
    await expect(rows(page, phone).nth(0)).toContainText(annexure);
    await expect(rows(page, phone).nth(1)).toContainText(lease);
    await page.getByTestId('sort-order').click();
    await expect(page).toHaveURL(/sort=subject$/);
    await expect(rows(page, phone).nth(0)).toContainText(lease);
    await expect(rows(page, phone).nth(1)).toContainText(annexure);
  });

  await test.step('a star is kept by the server, and the starred filter shows only starred ePaks', async () => {
    const star = page.getByRole('button', { name: fill(inbox.list.star, { subject: lease }) });
    await star.click();
    const unstar = page.getByRole('button', { name: fill(inbox.list.unstar, { subject: lease }) });
    await expect(unstar).toHaveAttribute('aria-pressed', 'true');
    await page.reload();
    await expect(page.getByRole('button', { name: fill(inbox.list.unstar, { subject: lease }) })).toBeVisible();
    await filterChip(page, inbox.filters.starred).click();
    await expect(page).toHaveURL(/starred=true/);
    await expect(rows(page, phone)).toHaveCount(1);
    await expect(rows(page, phone).first()).toContainText(lease);
    await filterChip(page, inbox.filters.starred).click();
    await expect(rows(page, phone)).toHaveCount(2);
  });

  await test.step('the header search bar: open on /epaks (a button away on a phone); Enter lands on the dashboard searched', async () => {
    if (phone) await page.getByTestId('search-toggle').click();
    const bar = page.getByRole('search', { name: inbox.search.label });
    await expect(bar).toBeVisible();
    await expect(bar.getByLabel(inbox.search.type, { exact: true })).toHaveValue(inbox.searchTypes.all);
    await bar.getByLabel(inbox.search.value, { exact: true }).fill('office');
    await saveViewportScreenshot(page, testInfo, 'search-bar');
    await bar.getByLabel(inbox.search.value, { exact: true }).press('Enter');
    await expect(page).toHaveURL(/\/dashboard\?searchKey=all&searchVal=office&ts=\d+$/);
    await expect(page.getByRole('heading', { level: 1, name: en.home.welcome.replace('{{name}}', owner.firstName) })).toBeVisible();
    await expect(page.getByTestId('search-chip')).toContainText(`${inbox.searchTypes.all}: office`);
    await expect(rows(page, phone)).toHaveCount(1);
    await expect(rows(page, phone).first()).toContainText(lease);
    // On the dashboard the bar folds back to its button, emptied (a new first path segment).
    await expect(page.getByRole('search', { name: inbox.search.label })).toBeHidden();
    await expect(page.getByTestId('tile-awaitingMe').getByTestId('tile-value')).toHaveText('2');
    await expect(page.getByTestId('summary-chart')).toBeVisible();
    await expect(page.getByTestId('weekly-chart')).toBeVisible();
    await capture(page, testInfo, 'dashboard');
  });

  await test.step('opening the ePak from the results marks it read and shows it', async () => {
    // The subject's link (read out "Unread: …" while unread), not the row's "Manage …" beside it.
    await page.getByRole('link', { name: new RegExp(`^(${inbox.list.unread}: )?${lease.replace(/[()]/g, '\\$&')}$`) }).click();
    await expect(page).toHaveURL(new RegExp(`/sign\\?ePakId=${ids[lease]}$`));
    await expect(page.getByRole('heading', { level: 1, name: lease })).toBeVisible();
    await page.goBack();
    await expect(page.getByTestId('search-chip')).toBeVisible();
    await expect(rows(page, phone).first()).not.toHaveAttribute('data-unread', 'true');
    await page.getByRole('button', { name: inbox.search.remove }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(rows(page, phone)).toHaveCount(2);
  });

  // Phones fold the bar under a button (checked above).
  if (!phone) {
    await test.step('from the narrowest desktop width up, the open bar fits the header beside the tenant and the account', async () => {
      await page.setViewportSize({ width: 992, height: 800 });
      await page.goto('/epaks');
      const bar = page.getByRole('search', { name: inbox.search.label });
      await expect(bar).toBeVisible();
      const boxes = await Promise.all(
        [bar, page.getByRole('combobox', { name: en.shell.tenant }), page.getByRole('button', { name: en.shell.accountMenu.replace('{{name}}', `${owner.firstName} ${owner.lastName}`) }), page.getByRole('button', { name: en.menu.open })].map((locator) => locator.boundingBox()),
      );
      const [search, tenant, account, menu] = boxes.map((box) => box!);
      expect(menu!.x + menu!.width, 'the menu button ends before the bar').toBeLessThanOrEqual(search!.x);
      expect(search!.x + search!.width, 'the bar ends before the tenant selector').toBeLessThanOrEqual(tenant!.x);
      expect(tenant!.x + tenant!.width, 'the tenant selector ends before the account').toBeLessThanOrEqual(account!.x);
      expect(account!.x + account!.width).toBeLessThanOrEqual(992);
      await saveViewportScreenshot(page, testInfo, 'search-bar-narrow');
      await page.setViewportSize({ width: 1280, height: 800 });
    });
  }

  await test.step('the dashboard opens the ePak its ePakId names (a notification’s link)', async () => {
    await page.goto(`/dashboard?ePakId=${ids[annexure]}`);
    await expect(page).toHaveURL(new RegExp(`/sign\\?ePakId=${ids[annexure]}$`));
    await expect(page.getByRole('heading', { level: 1, name: annexure })).toBeVisible();
  });
});

// @phone: on a phone the folders are a select and the ePaks cards with their own selection boxes.
test('bulk signing: each selected ePak signed or skipped, with the reason', { tag: '@phone' }, async ({ page, request }, testInfo) => {
  test.setTimeout(120_000);
  const project = testInfo.project.name;
  const phone = project === 'phone';
  if (phone) await page.setViewportSize({ width: 390, height: 844 });
  const owner = { email: `arjun.${project}@bulk.test`, firstName: 'Arjun', lastName: 'Mehta', orgName: `Mehta Traders ${project}`, password: 'Bulk-sign-password-2025' };
  const ready = `Purchase order (${project})`;
  const notMine = `Sales order (${project})`;

  await signUpAndConfirm(page, request, owner);
  const headers = await apiHeadersOf(request, owner.email, owner.password);
  const { states } = await callData(request, listWorkflowStates, { headers });
  const sign = states.find((state) => state.type === 'SIGN')!.workflowStateId;
  for (const [subject, signer] of [
    [ready, owner.email],
    [notMine, `clerk.${project}@bulk.test`],
  ] as const) {
    const uploaded = await callData(request, uploadDocument, { headers, file: { name: PLAIN, mimeType: 'application/pdf', buffer: fs.readFileSync(`${CORPUS}${PLAIN}`) } });
    const epak = await callData(request, createEpak, {
      headers,
      body: { subject, documentIds: [uploaded.documentId], signingPolicy: 'QUICKSIGN', viewEnforced: false, steps: [{ workflowStateId: sign, recipients: [{ email: signer }] }] },
    });
    const signature: TagInput = { uuid: randomUUID(), type: 'signature', pageNumber: 1, positionX: 60, positionY: 600, blockWidth: 160, blockHeight: 50, userEmail: signer, wfsOrderId: 1 };
    await callData(request, createSignatureBlocks, { headers, params: { ePakId: epak.ePakId, documentId: epak.documents[0]!.documentId }, body: { tags: [signature] } });
    await callData(request, startEpak, { headers, params: { ePakId: epak.ePakId } });
  }

  await page.goto('/epaks');
  await expect(rows(page, phone)).toHaveCount(1);
  // Waiting for someone else: nothing for the owner to sign.
  await openFolder(page, phone, 'Pending');
  await page.getByRole('checkbox', { name: fill(inbox.list.select, { subject: notMine }) }).check();
  await expect(page.getByRole('button', { name: inbox.bulk.sign, exact: true })).toBeDisabled();
  await openFolder(page, phone, 'Inbox');
  await page.getByRole('checkbox', { name: fill(inbox.list.select, { subject: ready }) }).check();
  await expect(page.getByTestId('selected-count')).toHaveText(fill(inbox.bulk.selected_one, { count: 1 }));
  await page.getByRole('button', { name: inbox.bulk.sign, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: fill(inbox.bulk.signTitle_one, { count: 1 }) });
  await dialog.getByLabel(inbox.bulk.reason).fill('Approved by purchasing');
  await saveViewportScreenshot(page, testInfo, 'bulk-sign');
  await dialog.getByRole('button', { name: fill(inbox.bulk.signConfirm_one, { count: 1 }) }).click();
  const results = page.getByTestId('bulk-results');
  // Signing writes a real signature into the PDF: that takes a moment on a busy machine.
  await expect(results.getByRole('listitem')).toHaveCount(1, { timeout: 30_000 });
  await expect(results.getByRole('listitem').first()).toContainText(ready);
  await expect(results.getByRole('listitem').first()).toContainText(inbox.bulk.signResult.SIGNED);
  await saveViewportScreenshot(page, testInfo, 'bulk-sign-results');
  await page.getByRole('button', { name: inbox.bulk.close, exact: true }).click();
  await expect(rows(page, phone)).toHaveCount(0);
  await openFolder(page, phone, 'Completed');
  await expect(rows(page, phone).first()).toContainText(ready);
});
