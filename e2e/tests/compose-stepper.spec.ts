import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { PNG } from 'pngjs';
import { bytesToMegabytes, getEpak, getSignatureBlocks } from '@pakt/domain';
import { callData } from './api';
import {
  apiHeadersOf,
  bundles,
  captureAtBothSizes,
  composeGoTo,
  composeSaveStatus,
  composeStep,
  expectNoHorizontalOverflow,
  fieldLabelled,
  h1,
  inviteAndRegister,
  keepScreenshot,
  logOutAs,
  saveScreenshotAtBothSizes,
  signInWith,
  signUpAndConfirm,
  VIEWPORTS,
} from './support';

const { en } = bundles;
const compose = en.compose;
const editor = en.tagEditor;
const anchors = editor.anchors;

/** With the other journeys' pictures, each named compose-stepper-…; the upload's is taken while its loader still turns. */
const SHOTS = fileURLToPath(new URL('../screenshots/', import.meta.url));
const shoot = (page: Page, name: string) => captureAtBothSizes(page, SHOTS, `compose-stepper-${name}`);

/** A dialog at both sizes as a person sees it: the viewport it covers, not the whole page behind it. */
async function shootDialog(page: Page, name: string): Promise<void> {
  const original = page.viewportSize();
  for (const [device, size] of Object.entries(VIEWPORTS)) {
    await page.setViewportSize(size);
    await expectNoHorizontalOverflow(page);
    // A cancelled animation rejects its promise; it has ended all the same.
    await page.evaluate(() => Promise.all(document.getAnimations().map((animation) => animation.finished.catch(() => undefined))));
    await keepScreenshot(page, { path: `${SHOTS}${device}-compose-stepper-${name}.png` });
  }
  if (original) await page.setViewportSize(original);
}
const FILE = 'lease-flat-4c.pdf';

const withNumber = (text: string, number: number) => text.replace('{{number}}', String(number));
const step = (page: Page, number: number) =>
  page.getByRole('form', { name: compose.title }).getByRole('group', { name: withNumber(en.workflows.form.step, number), exact: true });

/** Where the anchors are written on page 1: the left edge of each one's text and its baseline from the page's top, in points. */
interface Written {
  readonly text: string;
  readonly x: number;
  readonly baselineFromTop: number;
}

/**
 * A lease of two pages made here: page 1 carries the anchors (the tenant's signature and date, the
 * landlord's signature, each on a line of its own), page 2 a photograph of noise that does not
 * compress, so the file is large enough (about 1.2 MB) for its upload to be watched byte by byte.
 */
async function leaseWithAnchors(): Promise<{ bytes: Buffer; written: Written[] }> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const first = pdf.addPage([595, 842]);
  const height = first.getHeight();
  first.drawText('Leave and licence agreement, flat 4C', { x: 72, y: height - 90, size: 18, font: bold });
  const body = [
    'The licensor lets flat 4C, Sunrise Apartments, Pune, to the licensee for eleven months',
    'from the first of next month, at a monthly fee of 32,000 rupees, the deposit being',
    'three months of the fee, returned within thirty days of the flat being handed back.',
  ];
  body.forEach((line, index) => first.drawText(line, { x: 72, y: height - 140 - index * 18, size: 11, font }));
  const written: Written[] = [];
  const line = (label: string, anchor: string, baselineFromTop: number) => {
    first.drawText(label, { x: 72, y: height - baselineFromTop, size: 11, font: bold });
    const x = 72 + bold.widthOfTextAtSize(label, 11);
    first.drawText(anchor, { x, y: height - baselineFromTop, size: 11, font });
    written.push({ text: anchor, x, baselineFromTop });
  };
  line('Licensee signature: ', '{{signature:signer1}}', 420);
  line('Date: ', '{{date:signer1}}', 500);
  line('Licensor signature: ', '{{signature:signer2}}', 580);

  const noise = new PNG({ width: 640, height: 640 });
  // Random colours, opaque: nothing for PNG's or the PDF's compression to take away.
  const random = randomBytes(noise.data.length);
  for (let i = 0; i < noise.data.length; i += 4) noise.data.set([random[i]!, random[i + 1]!, random[i + 2]!, 255], i);
  const photo = await pdf.embedPng(PNG.sync.write(noise));
  const second = pdf.addPage([595, 842]);
  second.drawText('Annexure: photograph of the flat', { x: 72, y: 842 - 90, size: 14, font: bold });
  second.drawImage(photo, { x: 72, y: 842 - 560, width: 450, height: 450 });
  return { bytes: Buffer.from(await pdf.save()), written };
}

// Desktop only: the journey takes the same steps on the same elements at both sizes (the stepper's
// steps by their names and test ids, the anchors' buttons and list, never a click on a page); the
// phone's fit of every step is checked from this run (captureAtBothSizes).
test('a custodian composes through the four steps: an upload watched byte by byte, fields placed at the anchors in the PDF, nothing missing at review, sent', async ({ page, request }, testInfo) => {
  test.setTimeout(240_000);
  const project = testInfo.project.name;
  const owner = { email: `ritu.${project}@stepper.test`, firstName: 'Ritu', lastName: 'Deshpande', orgName: `Deshpande Homes ${project}`, password: 'Stepper-owner-2025' };
  const custodian = { email: `sameer.${project}@stepper.test`, firstName: 'Sameer', lastName: 'Kulkarni', password: 'Stepper-custodian-2025' };
  const lawyer = `lawyer.${project}@stepper.test`;
  // signer1 and signer2 of the anchors: the signers of the signing steps in order (the review does not count).
  const licensee = `licensee.${project}@stepper.test`;
  const licensor = `licensor.${project}@stepper.test`;
  const subject = `Leave and licence, flat 4C (${project})`;
  const { bytes, written } = await leaseWithAnchors();
  let ePakId = '';

  await test.step('the owner brings in a custodian, who signs in and opens compose: the documents come first', async () => {
    await signUpAndConfirm(page, request, owner);
    const ownerHeaders = await apiHeadersOf(request, owner.email, owner.password);
    await inviteAndRegister(request, ownerHeaders, custodian, 'custodian');
    await logOutAs(page, `${owner.firstName} ${owner.lastName}`);
    await signInWith(page, custodian.email, custodian.password);
    await expect(page).not.toHaveURL(/\/login/);
    await page.goto('/compose');
    await expect(h1(page)).toHaveText(compose.title);
    await expect(composeStep(page, 'documents')).toHaveAttribute('aria-current', 'step');
    for (const later of ['fields', 'review'] as const) await expect(composeStep(page, later)).toHaveAttribute('aria-disabled', 'true');
    await expect(composeSaveStatus(page)).toHaveAttribute('data-state', 'new');
  });

  await test.step('the PDF goes up with its progress shown as its bytes leave, then its pages', async () => {
    expect(bytes.length).toBeGreaterThan(1_000_000);
    // A slow uplink (64 KB/s), so the bytes are seen going; lifted once they have been.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 64 * 1024 });
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: compose.upload.choose }).click();
    await (await chooser).setFiles({ name: FILE, mimeType: 'application/pdf', buffer: bytes });
    const row = page.getByRole('list', { name: compose.upload.list }).getByRole('listitem').filter({ hasText: FILE });
    await expect(row).toHaveAttribute('data-status', 'uploading');
    const bar = row.getByRole('progressbar');
    const progress = row.getByTestId('upload-progress');
    // The whole body is counted (the file and the few bytes of its multipart envelope), in the app's megabytes.
    const total = bytesToMegabytes(bytes.length).toFixed(1);
    await expect(progress).toHaveText(new RegExp(`^[1-9]\\d?% · \\d+\\.\\d of ${total.replace('.', '\\.')} MB$`));
    const before = Number(await bar.getAttribute('aria-valuenow'));
    // Not captureAtBothSizes, which waits for running animations to end: the upload's loader turns until it is done.
    await saveScreenshotAtBothSizes(page, 'compose-stepper-uploading');
    // Further along, and still under way: it moves with the bytes, not in one jump at the end.
    await expect.poll(async () => Number(await bar.getAttribute('aria-valuenow'))).toBeGreaterThan(before);
    await expect(row).toHaveAttribute('data-status', 'uploading');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    await expect(row).toHaveAttribute('data-status', 'done', { timeout: 60_000 });
    await expect(row).toContainText(compose.upload.done_other.replace('{{count}}', '2'));
    await expect(row.getByTestId('upload-progress')).toHaveCount(0);
    const chosen = page.getByRole('list', { name: compose.documents.chosen_one.replace('{{count}}', '1') });
    await expect(chosen.getByRole('listitem')).toHaveCount(1);
    await expect(chosen.getByRole('listitem')).toContainText(FILE);
    await cdp.detach();
    await shoot(page, 'documents');
  });

  await test.step('recipients and steps: a review by the lawyer, then the licensee and the licensor sign', async () => {
    await composeGoTo(page, 'recipients');
    await step(page, 1).getByRole('combobox', { name: new RegExp(`^${en.workflows.form.state}`) }).selectOption({ label: 'Review' });
    await step(page, 1).getByLabel(withNumber(compose.workflow.addRecipient, 1), { exact: true }).fill(lawyer);
    await step(page, 1).getByRole('button', { name: withNumber(en.workflows.form.addRecipientTo, 1) }).click();
    await page.getByRole('button', { name: en.workflows.form.addStep }).click();
    await step(page, 2).getByRole('combobox', { name: new RegExp(`^${en.workflows.form.state}`) }).selectOption({ label: 'Sign' });
    await step(page, 2).getByLabel(withNumber(compose.workflow.addRecipient, 2), { exact: true }).fill(`${licensee}; ${licensor}`);
    await step(page, 2).getByRole('button', { name: withNumber(en.workflows.form.addRecipientTo, 2) }).click();
    await expect(step(page, 2).getByRole('listitem')).toHaveCount(2);
    await fieldLabelled(page, compose.details.subject).fill(subject);
    await page.getByRole('combobox', { name: en.workflows.form.signingPolicy }).selectOption('QUICKSIGN');
    await expect(composeSaveStatus(page)).toHaveAttribute('data-state', 'new');
    await shoot(page, 'recipients');
  });

  await test.step('going on to the fields saves the draft, which now has an address of its own', async () => {
    await composeGoTo(page, 'fields');
    await expect(page).toHaveURL(/\/compose\?ePakId=[0-9a-f-]{36}$/);
    ePakId = new URL(page.url()).searchParams.get('ePakId')!;
    await expect(h1(page)).toHaveText(compose.draft.title);
    await expect(composeSaveStatus(page)).toHaveAttribute('data-state', 'saved');
    await expect(page.getByRole('status').filter({ hasText: compose.draft.saved })).toContainText(compose.draft.tagsNext);
    await expect(page.locator('[data-testid="tag-editor-page"][data-page-number="1"][data-rendered="true"]')).toBeVisible({ timeout: 20_000 });
    await expect(page.locator('[data-testid="tag-box"]')).toHaveCount(0);
    await shoot(page, 'fields');
  });

  const missingFor = (email: string) =>
    compose.review.noSignatureField.replace('{{name}}', email.split('@')[0]!).replace('{{email}}', email).replace('{{step}}', '2');

  await test.step('on to the review before any field: both signers are named as missing, and Send waits', async () => {
    await composeGoTo(page, 'review');
    const missing = page.getByTestId('compose-missing');
    await expect(missing).toContainText(compose.review.missingTitle_other.replace('{{count}}', '2'));
    await expect(missing.getByRole('listitem')).toHaveText([new RegExp(`^${escaped(missingFor(licensee))}`), new RegExp(`^${escaped(missingFor(licensor))}`)]);
    await expect(missing).not.toContainText(lawyer);
    await expect(page.getByRole('button', { name: compose.start.send })).toBeDisabled();
    await expect(page.getByText(compose.review.sendBlocked)).toBeVisible();
    await shoot(page, 'review-missing');
    await missing.getByRole('button', { name: compose.review.fixThis.replace('{{problem}}', missingFor(licensee)) }).click();
    await expect(composeStep(page, 'fields')).toHaveAttribute('aria-current', 'step');
  });

  await test.step('"Place at anchors" suggests a field at each anchor, for the signer it names; all are accepted', async () => {
    const finder = page.getByRole('group', { name: anchors.heading });
    await finder.getByRole('button', { name: anchors.placeAtAnchors }).click();
    const dialog = page.getByRole('dialog', { name: anchors.dialog.title });
    await expect(dialog).toContainText('{{signature:signer1}}');
    await shootDialog(page, 'anchors-dialog');
    await dialog.getByRole('button', { name: anchors.dialog.find }).click();
    await expect(dialog).toBeHidden();

    const suggestions = page.getByRole('region', { name: anchors.suggested_other.replace('{{count}}', '3') });
    await expect(suggestions).toBeVisible();
    const rows = suggestions.getByTestId('anchor-suggestion');
    await expect(rows).toHaveCount(3);
    const expected = [
      { type: editor.types.signature, text: '{{signature:signer1}}', signer: licensee },
      { type: editor.types.calendar, text: '{{date:signer1}}', signer: licensee },
      { type: editor.types.signature, text: '{{signature:signer2}}', signer: licensor },
    ];
    for (const [index, suggestion] of expected.entries()) {
      const describe = anchors.item.replace('{{type}}', suggestion.type).replace('{{page}}', '1').replace('{{text}}', suggestion.text);
      await expect(rows.nth(index)).toHaveAttribute('aria-label', describe);
      // Each is for the signer its anchor names: signer1 and signer2 of the signing step.
      await expect(rows.nth(index).getByRole('combobox', { name: anchors.forField.replace('{{field}}', describe) })).toHaveValue(`2|${suggestion.signer}`);
    }
    await expect(page.getByTestId('suggested-box')).toHaveCount(3);
    await shoot(page, 'anchors-suggested');

    await suggestions.getByRole('button', { name: anchors.acceptAll }).click();
    await expect(page.getByTestId('suggested-box')).toHaveCount(0);
    await expect(page.locator('[data-testid="tag-editor-page"][data-page-number="1"] [data-testid="tag-box"]')).toHaveCount(3);
    await expect(page.getByRole('status').filter({ hasText: anchors.allPlaced })).toBeVisible();
    // They save themselves a moment later.
    await expect(composeSaveStatus(page)).toHaveAttribute('data-state', 'saved');
    await expect(page.getByText(editor.unsaved)).toHaveCount(0);
    await shoot(page, 'anchors-accepted');
  });

  await test.step('the server holds each field where its anchor is written, for its signer', async () => {
    const headers = await apiHeadersOf(request, custodian.email, custodian.password);
    const { documents } = await callData(request, getEpak, { headers, params: { ePakId } });
    const { tags } = await callData(request, getSignatureBlocks, { headers, params: { ePakId, documentId: documents[0]!.documentId } });
    expect(tags.map((tag) => [tag.type, tag.userEmail, tag.pageNumber])).toEqual([
      ['signature', licensee, 1],
      ['calendar', licensee, 1],
      ['signature', licensor, 1],
    ]);
    for (const [index, anchor] of written.entries()) {
      const tag = tags[index]!;
      // Its top-left corner where the anchor's text starts: at the text's left edge, and a line's
      // height at most above the baseline.
      expect(Math.abs(tag.positionX - anchor.x), `x of the field at ${anchor.text}`).toBeLessThanOrEqual(2);
      expect(tag.positionY, `y of the field at ${anchor.text}`).toBeGreaterThanOrEqual(anchor.baselineFromTop - 14);
      expect(tag.positionY, `y of the field at ${anchor.text}`).toBeLessThanOrEqual(anchor.baselineFromTop);
    }
  });

  await test.step('at the review nothing is missing; the ePak is sent', async () => {
    await composeGoTo(page, 'review');
    await expect(page.getByTestId('compose-missing')).toHaveCount(0);
    await expect(page.getByRole('status').filter({ hasText: compose.review.ready })).toBeVisible();
    const summary = page.getByRole('region', { name: compose.draft.summary });
    await expect(summary.getByRole('heading', { name: subject })).toBeVisible();
    await expect(summary.getByText(compose.policies.QUICKSIGN.name, { exact: true })).toBeVisible();
    await expect(summary.getByText(/^lease-flat-4c\.pdf · 2 pages$/)).toBeVisible();
    await expect(summary.getByText('2 signers', { exact: true })).toBeVisible();
    await shoot(page, 'review-ready');
    await page.getByRole('button', { name: compose.start.send }).click();
    await expect(page.getByRole('status').filter({ hasText: compose.start.sent })).toBeVisible();
    await expect(h1(page)).toHaveText(compose.sent.title);
    await expect(page.getByRole('navigation', { name: compose.flow.label })).toHaveCount(0);
    await shoot(page, 'sent');
  });

  await test.step('the custodian’s ePaks list it as waiting for the lawyer’s review', async () => {
    await page.goto('/epaks?folder=Pending');
    await expect(page.getByTestId('folder-heading')).toHaveText(en.inbox.folders.Pending);
    const row = page.getByTestId('epak-row').filter({ hasText: subject });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText(en.inbox.status.InProgress);
    await expect(row).toContainText(lawyer.split('@')[0]!);
    await shoot(page, 'epaks-pending');
  });
});

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
