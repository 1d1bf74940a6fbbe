import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createEpak, createSignatureBlocks, listWorkflowStates, startEpak, uploadDocument, type TagType } from '@pakt/domain';
import { callData } from './api';
import { apiHeadersOf, bundles, expectNoHorizontalOverflow, linkIn, rootMail, saveViewportScreenshot, signUpAndConfirm } from './support';

const { en } = bundles;
const signing = en.signing;

const CORPUS = fileURLToPath(new URL('../../../shared/corpus/pdfs/', import.meta.url));
const PLAIN = 'plain-1p-libreoffice.pdf';

interface Tag {
  uuid: string;
  type: TagType;
  pageNumber: number;
  positionX: number;
  positionY: number;
  blockWidth: number;
  blockHeight: number;
  userEmail: string;
  wfsOrderId: number;
  validations?: { required: { value: boolean } };
}

const tag = (type: TagType, signer: { email: string; step: number }, at: { x: number; y: number; width: number; height: number }, required = false): Tag => ({
  uuid: randomUUID(),
  type,
  pageNumber: 1,
  positionX: at.x,
  positionY: at.y,
  blockWidth: at.width,
  blockHeight: at.height,
  userEmail: signer.email,
  wfsOrderId: signer.step,
  ...(required ? { validations: { required: { value: true } } } : {}),
});

/** The box of a field on the page, by its uuid. */
const field = (page: Page, uuid: string): Locator => page.locator(`[data-testid="signing-tag"][data-tag-uuid="${uuid}"]`);

/** Bring a field into view inside the pages' own scroll area and click it. */
async function clickField(page: Page, uuid: string) {
  const box = field(page, uuid);
  await box.scrollIntoViewIfNeeded();
  await box.click();
}

// @phone: /sign stacks the signing panel below the pages on a phone, and the outsider's browser is a
// phone (touch, a phone's user agent) in the phone run.
test('a signer reads, fills and signs at /sign; the external signer signs through the mailed link', { tag: '@phone' }, async ({ page, browser, request }, testInfo) => {
  test.setTimeout(180_000);
  const project = testInfo.project.name;
  const owner = { email: `kavya.${project}@ceremony.test`, firstName: 'Kavya', lastName: 'Reddy', orgName: `Reddy Estates ${project}`, password: 'Ceremony-password-2025' };
  const external = `tenant.${project}@ceremony.test`;
  const me = { email: owner.email, step: 1 };
  const them = { email: external, step: 2 };
  const subject = `Lease, flat 7C (${project})`;
  let ePakId = '';
  const mine: Record<string, Tag> = {};

  await test.step('an ePak is composed and started through the API: the owner signs first, an outsider second', async () => {
    await signUpAndConfirm(page, request, owner);
    const headers = await apiHeadersOf(request, owner.email, owner.password);

    const uploaded = await callData(request, uploadDocument, { headers, file: { name: PLAIN, mimeType: 'application/pdf', buffer: fs.readFileSync(`${CORPUS}${PLAIN}`) } });
    const { states } = await callData(request, listWorkflowStates, { headers });
    const sign = states.find((state) => state.type === 'SIGN')!.workflowStateId;
    const epak = await callData(request, createEpak, {
      headers,
      body: {
        subject,
        message: 'Please read clause 4 on the deposit before you sign.\nThanks, Kavya',
        documentIds: [uploaded.documentId],
        signingPolicy: 'ESIGNATURE',
        steps: [
          { workflowStateId: sign, recipients: [{ email: owner.email }] },
          { workflowStateId: sign, recipients: [{ email: external }] },
        ],
      },
    });
    ePakId = epak.ePakId;
    const documentId = epak.documents[0]!.documentId;
    mine['signature'] = tag('signature', me, { x: 60, y: 600, width: 160, height: 50 });
    mine['name'] = tag('username', me, { x: 60, y: 655, width: 160, height: 20 });
    mine['title'] = tag('userTitle', me, { x: 60, y: 680, width: 160, height: 20 }, true);
    mine['date'] = tag('calendar', me, { x: 60, y: 705, width: 110, height: 20 }, true);
    mine['reason'] = tag('reason', me, { x: 60, y: 730, width: 200, height: 20 });
    mine['stamp'] = tag('timeStamp', me, { x: 60, y: 755, width: 200, height: 20 });
    mine['attachment'] = tag('attachment', me, { x: 330, y: 700, width: 180, height: 24 });
    const theirs = [tag('signature', them, { x: 330, y: 600, width: 160, height: 50 }), tag('reason', them, { x: 330, y: 655, width: 200, height: 20 })];
    await callData(request, createSignatureBlocks, { headers, params: { ePakId, documentId }, body: { tags: [...Object.values(mine), ...theirs] } });
    await callData(request, startEpak, { headers, params: { ePakId } });
  });

  await test.step('the owner opens /sign: their fields are to fill, the outsider’s are shown read-only', async () => {
    // Confirming the address signed the owner in (thanks page).
    await page.goto(`/sign?ePakId=${ePakId}`);
    await expect(page.getByRole('heading', { level: 1, name: subject })).toBeVisible();
    await expect(page.getByText(signing.from.replace('{{name}}', `${owner.firstName} ${owner.lastName}`))).toBeVisible();
    await expect(page.locator('[data-testid="tag-editor-page"][data-rendered="true"]')).toHaveCount(1, { timeout: 20_000 });
    await expect(field(page, mine['signature']!.uuid)).toHaveAttribute('role', 'button');
    await expect(page.locator('[data-testid="signing-tag"][role="note"]')).toHaveCount(3);
    await expect(field(page, mine['stamp']!.uuid)).toHaveText(signing.tag.setWhenSigned);
    // The date is today already (issue 22): one of three is filled before the signer starts.
    await expect(page.getByTestId('document-progress')).toHaveText(signing.progress.filled.replace('{{filled}}', '1').replace('{{total}}', '3'));
    await expectNoHorizontalOverflow(page);
    await saveViewportScreenshot(page, testInfo, 'signing-start');
  });

  await test.step('clicking the signature field asks once for a signature, typed here', async () => {
    await clickField(page, mine['signature']!.uuid);
    const dialog = page.getByRole('dialog', { name: signing.signature.title });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByTestId('signature-pad')).toBeVisible();
    await saveViewportScreenshot(page, testInfo, 'signing-signature-dialog');
    await dialog.getByRole('tab', { name: signing.signature.type }).click();
    await expect(dialog.getByLabel(signing.signature.typeLabel)).toHaveValue(`${owner.firstName} ${owner.lastName}`);
    await dialog.getByRole('button', { name: signing.signature.adopt }).click();
    await expect(dialog).toBeHidden();
    await expect(field(page, mine['signature']!.uuid).locator('img')).toBeVisible();
  });

  await test.step('the other fields: name on a click, title and date typed, a reason chosen', async () => {
    await clickField(page, mine['name']!.uuid);
    await expect(field(page, mine['name']!.uuid)).toHaveText(`${owner.firstName} ${owner.lastName}`);
    await clickField(page, mine['title']!.uuid);
    await page.getByLabel(en.tagEditor.types.userTitle, { exact: true }).fill('Managing partner');
    await page.getByRole('button', { name: signing.fields.done }).click();
    await clickField(page, mine['date']!.uuid);
    await page.getByLabel(en.tagEditor.types.calendar, { exact: true }).fill('2025-03-07');
    await page.getByRole('button', { name: signing.fields.done }).click();
    await expect(field(page, mine['date']!.uuid)).toHaveText('07 Mar 2025');
    const chooser = page.waitForEvent('filechooser');
    await clickField(page, mine['attachment']!.uuid);
    await page.getByRole('button', { name: signing.fields.chooseFile }).click();
    await (await chooser).setFiles(`${CORPUS}plain-1p-pdftex.pdf`);
    await expect(field(page, mine['attachment']!.uuid)).toHaveText('plain-1p-pdftex.pdf');
    await page.getByRole('button', { name: signing.fields.done }).click();
    await page.getByRole('combobox', { name: signing.reasons.label }).selectOption('approve');
    await expect(field(page, mine['reason']!.uuid)).toHaveText(signing.reasons.approve);
    await expect(page.getByTestId('document-progress')).toHaveText(signing.progress.filled.replace('{{filled}}', '3').replace('{{total}}', '3'));
    await field(page, mine['signature']!.uuid).scrollIntoViewIfNeeded();
    await saveViewportScreenshot(page, testInfo, 'signing-filled');
  });

  await test.step('signing: the next person is told, and the page shows where everyone stands', async () => {
    await page.getByRole('button', { name: signing.actions.sign, exact: true }).click();
    await expect(page.getByTestId('signing-outcome')).toContainText(signing.outcome.signedNext, { timeout: 30_000 });
    await expect(page.getByRole('button', { name: signing.actions.sign, exact: true })).toHaveCount(0);
    // The signed revision is shown: what was filled is now drawn in the PDF, not over it.
    await expect(page.getByTestId('signing-document')).toHaveAttribute('data-shown-revisions', '1', { timeout: 20_000 });
    await expect(page.locator('[data-testid="tag-editor-page"][data-rendered="true"]')).toHaveCount(1, { timeout: 20_000 });
    await expect(field(page, mine['signature']!.uuid)).toHaveCount(0);
    await page.evaluate(() => window.scrollTo(0, 0));
    await saveViewportScreenshot(page, testInfo, 'signing-done');
    // The server drew the values into the revision: the foot of the page shows them.
    const pages = page.getByRole('region', { name: en.tagEditor.pages.replace('{{name}}', PLAIN) });
    await pages.scrollIntoViewIfNeeded();
    await pages.evaluate((element) => element.scrollTo(0, element.scrollHeight));
    await saveViewportScreenshot(page, testInfo, 'signing-signed-revision');
  });

  await test.step('the outsider opens the mailed link in a browser of their own and signs', async () => {
    // Root hands the link on: this install sends no mail, and the owner's outbox shows no text.
    const link = linkIn(await rootMail(request, { recipient: external, bodyIncludes: '/emailsign?token=' }), /https?:\/\/\S+\/emailsign\?token=\S+/);

    const context = await browser.newContext({ viewport: page.viewportSize()!, isMobile: project === 'phone', hasTouch: project === 'phone' });
    const outsider = await context.newPage();
    await outsider.goto(link.pathname + link.search);
    await expect(outsider.getByRole('heading', { level: 1, name: subject })).toBeVisible();
    await expect(outsider.getByRole('combobox', { name: en.shell.language })).toBeVisible();
    await expect(outsider.locator('[data-testid="tag-editor-page"][data-rendered="true"]')).toHaveCount(1, { timeout: 20_000 });
    const signatureBox = outsider.locator('[data-testid="signing-tag"][role="button"]').first();
    await signatureBox.scrollIntoViewIfNeeded();
    await signatureBox.click();
    const dialog = outsider.getByRole('dialog', { name: signing.signature.title });
    // Known only by their address, the outsider types the name they sign under (issue 22).
    await dialog.getByLabel(signing.name.label).fill('Tara Nair');
    // Drawn this time, with the pointer, on the signature pad.
    const pad = dialog.getByTestId('signature-pad');
    const area = (await pad.boundingBox())!;
    await outsider.mouse.move(area.x + 30, area.y + area.height * 0.6);
    await outsider.mouse.down();
    for (let i = 1; i <= 12; i++) await outsider.mouse.move(area.x + 30 + i * 18, area.y + area.height * (0.6 - 0.25 * Math.sin(i / 2)), { steps: 3 });
    await outsider.mouse.up();
    await dialog.getByRole('button', { name: signing.signature.adopt }).click();
    await expect(dialog).toBeHidden();
    await expectNoHorizontalOverflow(outsider);
    await saveViewportScreenshot(outsider, testInfo, 'emailsign-filled');
    await outsider.getByRole('button', { name: signing.actions.sign, exact: true }).click();
    await expect(outsider.getByTestId('signing-outcome')).toContainText(signing.outcome.signedCompleted, { timeout: 30_000 });
    // Settled: the actions are gone once the ePak is fetched again (and their spinner with them).
    await expect(outsider.getByRole('button', { name: signing.actions.sign, exact: true })).toHaveCount(0);
    await expect(outsider.getByTestId('epak-status')).toHaveText(en.compose.status.Completed);
    // The second signer's revision is fetched and drawn.
    await expect(outsider.getByTestId('signing-document')).toHaveAttribute('data-shown-revisions', '2', { timeout: 20_000 });
    await expect(outsider.locator('[data-testid="tag-editor-page"][data-rendered="true"]')).toHaveCount(1, { timeout: 20_000 });
    await outsider.evaluate(() => window.scrollTo(0, 0));
    await saveViewportScreenshot(outsider, testInfo, 'emailsign-done');

    // The language selector of the link's page (spec §2): the same screen in Hindi.
    await outsider.getByRole('combobox', { name: en.shell.language }).selectOption('hi');
    await expect(outsider.getByTestId('signing-outcome')).toHaveText(bundles.hi.signing.outcome.signedCompleted);
    await saveViewportScreenshot(outsider, testInfo, 'emailsign-done-hi');

    await outsider.goto('/emailsign?token=pks_this-link-was-never-issued-0000000000');
    await expect(outsider.getByRole('heading', { name: bundles.hi.signing.link.invalidTitle })).toBeVisible();
    await saveViewportScreenshot(outsider, testInfo, 'emailsign-invalid');
    await context.close();
  });
});
