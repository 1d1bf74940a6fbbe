import type { Locator, Page } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSignatureBlocks, downloadEpakCertificate, downloadEpakDocument, startEpak, updateTenantSettings, type TagInput } from '@pakt/domain';
import { expectNoSeriousA11yViolations } from './accessibility';
import { call, callData, composedEpakThroughApi } from './api';
import { expect, test } from './fixtures';
import { addSuperAdmin, apiHeadersOf, bundles, expectNoHorizontalOverflow, expectValidSignedPdf, linkIn, rootMail, saveScreenshotAtBothSizes, saveViewportScreenshot, signUpAndConfirm } from './support';

const { en } = bundles;
const signing = en.signing;

const CORPUS = fileURLToPath(new URL('../../../shared/corpus/pdfs/', import.meta.url));

/** A phone as external signers mostly hold one: 390 px wide, touch, a phone's user agent. */
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 } as const;

/** The first two pages of a real-world file (OpenOffice; a letter page, then a short one): a two-page contract. */
function twoPagePdf(): Buffer {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'pakt-two-pages-'));
  const out = path.join(folder, 'two-pages.pdf');
  const made = spawnSync('qpdf', [`${CORPUS}mixed-sizes-openoffice.pdf`, '--pages', '.', '1-2', '--', out], { encoding: 'utf8' });
  expect(made.status, made.stderr).toBe(0);
  const bytes = fs.readFileSync(out);
  fs.rmSync(folder, { recursive: true, force: true });
  return bytes;
}

const fieldFor = (email: string, step: number, page: number, type: TagInput['type'], at: { x: number; y: number; width?: number; height?: number }, required = false): TagInput => ({
  uuid: randomUUID(),
  type,
  pageNumber: page,
  positionX: at.x,
  positionY: at.y,
  blockWidth: at.width ?? 160,
  blockHeight: at.height ?? 44,
  userEmail: email,
  wfsOrderId: step,
  ...(required ? { validations: { required: { value: true } } } : {}),
});

/** Presses Tab until `target` (or something inside it) has the focus: the keyboard alone reaches it. */
async function tabTo(page: Page, target: Locator, limit = 120): Promise<void> {
  const element = await target.elementHandle();
  expect(element, 'the element to reach with Tab').not.toBeNull();
  for (let presses = 0; presses <= limit; presses++) {
    if (await element!.evaluate((node) => node === document.activeElement || node.contains(document.activeElement))) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${target.toString()} in ${limit} presses`);
}

/** The focused element draws a visible focus indicator: an outline or a ring at least 2 px wide. */
async function expectVisibleFocus(target: Locator): Promise<void> {
  const ring = await target.evaluate((node) => {
    const style = getComputedStyle(node);
    const outline = style.outlineStyle !== 'none' ? parseFloat(style.outlineWidth) : 0;
    const shadow = /(\d+(\.\d+)?)px(?![^,]*inset)[^,]*$/.exec(style.boxShadow)?.[1];
    return Math.max(outline, style.boxShadow !== 'none' && shadow ? parseFloat(shadow) : 0);
  });
  expect(ring, 'a focus indicator at least 2 px wide').toBeGreaterThanOrEqual(2);
}

test('an external signer on a phone signs a two-page ePak field by field, under the name they type', async ({ page, browser, request }, testInfo) => {
  test.setTimeout(240_000);
  const owner = { email: 'meena@phone-signing.test', firstName: 'Meena', lastName: 'Kapoor', orgName: 'Kapoor Lettings', password: 'Phone-signing-2026' };
  const external = 'arjun.tenant@elsewhere.test';
  const typedName = 'Arjun Mehta';
  const subject = 'Tenancy agreement, two pages';
  let ePakId = '';
  let documentId = '';
  let headers: Record<string, string> = {};

  await test.step('the owner sends a two-page ePak to an outsider: a signature on each page and a date', async () => {
    await signUpAndConfirm(page, request, owner);
    headers = await apiHeadersOf(request, owner.email, owner.password);
    const epak = await composedEpakThroughApi(request, {
      headers,
      file: { name: 'tenancy.pdf', mimeType: 'application/pdf', buffer: twoPagePdf() },
      subject,
      signingPolicy: 'QUICKSIGN',
      steps: [{ type: 'SIGN', recipients: [external] }],
    });
    ePakId = epak.ePakId;
    documentId = epak.documents[0]!.documentId;
    const tags = [
      fieldFor(external, 1, 1, 'signature', { x: 60, y: 620 }, true),
      // The second page is a short one (649 × 323 pt).
      fieldFor(external, 1, 2, 'signature', { x: 60, y: 150 }, true),
      fieldFor(external, 1, 2, 'calendar', { x: 60, y: 210, width: 120, height: 20 }, true),
    ];
    await callData(request, createSignatureBlocks, { headers, params: { ePakId, documentId }, body: { tags } });
    await callData(request, startEpak, { headers, params: { ePakId } });
  });

  const context = await browser.newContext(PHONE);
  const phone = await context.newPage();

  await test.step('on the phone, the link shows the first page as the server drew it while the PDF is still on its way', async () => {
    // The PDF is held back, as a slow line would: the picture is what the signer sees first.
    let releasePdf = () => {};
    const pdfHeld = new Promise<void>((resolve) => (releasePdf = resolve));
    const download = `**/msbapi/v2/epaks/${ePakId}/documents/${documentId}/download`;
    await phone.route(download, async (route) => {
      await pdfHeld;
      await route.fallback();
    });
    const pictureAsked = phone.waitForRequest((asked) => asked.url().includes(`/documents/${documentId}/pages/1/preview?width=`));
    const link = linkIn(await rootMail(request, { recipient: external, bodyIncludes: '/emailsign?token=' }), /https?:\/\/\S+\/emailsign\?token=\S+/);
    await phone.goto(link.pathname + link.search);
    await expect(phone.getByRole('heading', { level: 1, name: subject })).toBeVisible();
    // 390 CSS px at a density of 2, capped at 1.5 for the first look: the 640 px picture.
    expect(new URL((await pictureAsked).url()).searchParams.get('width')).toBe('640');
    const first = phone.locator('[data-testid="tag-editor-page"]').first();
    await expect(first).toHaveAttribute('data-picture', 'shown');
    await expect(first).not.toHaveAttribute('data-rendered', 'true');
    const picture = first.locator('img');
    expect(await picture.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBe(640);
    const [pictureBox, pageBox] = [(await picture.boundingBox())!, (await first.boundingBox())!];
    expect(Math.abs(pictureBox.width - pageBox.width)).toBeLessThan(1);
    expect(Math.abs(pictureBox.height - pageBox.height)).toBeLessThan(1);
    await saveScreenshotAtBothSizes(phone, 'signing-first-look-picture');
    releasePdf();
    await phone.unroute(download);
    // pdf.js then draws the page over the picture, which goes.
    await expect(first).toHaveAttribute('data-rendered', 'true', { timeout: 20_000 });
    await expect(picture).toHaveCount(0);
  });

  await test.step('on the phone, the link opens the pages fitted to the screen, with the guided bar', async () => {
    await expect(phone.locator('[data-testid="tag-editor-page"][data-rendered="true"]').first()).toBeVisible({ timeout: 20_000 });
    // Fit to width: the page is as wide as the screen allows, and nothing scrolls sideways.
    const pageBox = (await phone.locator('[data-testid="tag-editor-page"]').first().boundingBox())!;
    expect(pageBox.width).toBeLessThanOrEqual(PHONE.viewport.width);
    expect(pageBox.width).toBeGreaterThan(PHONE.viewport.width * 0.75);
    await expectNoHorizontalOverflow(phone);
    await expect(phone.getByTestId('guided-bar')).toBeVisible();
    await expect(phone.getByTestId('guided-position')).toHaveText(signing.guide.toFill_other.replace('{{count}}', '2'));
    await saveViewportScreenshot(phone, testInfo, 'phone-guided-start');
  });

  await test.step('Start goes to the first field and opens the signature dialog; the name typed signs', async () => {
    await phone.getByTestId('guided-next').click();
    const dialog = phone.getByRole('dialog', { name: signing.signature.title });
    await expect(dialog).toBeVisible();
    // Known only by address: the dialog asks for their name, and guesses none from the address.
    const name = dialog.getByLabel(signing.name.label);
    await expect(name).toHaveValue('');
    await name.fill(typedName);
    await dialog.getByRole('tab', { name: signing.signature.type }).click();
    await expect(dialog.getByLabel(signing.signature.typeLabel)).toHaveValue(typedName);
    await saveViewportScreenshot(phone, testInfo, 'phone-signature-dialog');
    await dialog.getByRole('button', { name: signing.signature.adopt }).click();
    await expect(dialog).toBeHidden();
    // Adopted once, it went into both pages' signature fields; the date was today already.
    await expect(phone.locator('[data-testid="signing-tag"] img')).toHaveCount(2);
    await expect(phone.getByTestId('guided-finish')).toBeVisible();
    await expectNoHorizontalOverflow(phone);
    await saveViewportScreenshot(phone, testInfo, 'phone-guided-filled');
  });

  await test.step('Next and Previous walk the fields in reading order, scrolling each into view', async () => {
    await phone.getByTestId('guided-next').click();
    await expect(phone.getByTestId('guided-position')).toContainText(signing.guide.positionRequired.replace('{{number}}', '2').replace('{{count}}', '3').split('{{field}}')[0]!);
    await expect(phone.getByTestId('guided-previous')).toBeEnabled();
    await saveViewportScreenshot(phone, testInfo, 'phone-guided-second');
    // A field already filled opens its own small editor, showing the adopted signature: Done leaves it as it is.
    await phone.getByRole('button', { name: signing.fields.done }).click();
    await expect(phone.getByRole('dialog')).toHaveCount(0);
    await phone.getByTestId('guided-previous').click();
    await expect(phone.getByTestId('guided-position')).toContainText(signing.guide.positionRequired.replace('{{number}}', '1').replace('{{count}}', '3').split('{{field}}')[0]!);
    await phone.getByRole('button', { name: signing.fields.done }).click();
    await expect(phone.getByRole('dialog')).toHaveCount(0);
  });

  await test.step('Finish signs; the ePak is completed under the typed name', async () => {
    await phone.getByTestId('guided-finish').click();
    await expect(phone.getByTestId('signing-outcome')).toContainText(signing.outcome.signedCompleted, { timeout: 30_000 });
    // The signed revision is fetched and drawn: the pages now show what the server sealed.
    await expect(phone.getByTestId('signing-document')).toHaveAttribute('data-shown-revisions', '1', { timeout: 20_000 });
    await expect(phone.locator('[data-testid="tag-editor-page"][data-rendered="true"]')).toHaveCount(2, { timeout: 20_000 });
    await phone.evaluate(() => window.scrollTo(0, 0));
    await saveViewportScreenshot(phone, testInfo, 'phone-signed');
  });
  await context.close();

  await test.step('the PDF and the certificate name the signer as they typed it', async () => {
    const download = await call(request, downloadEpakDocument, { headers, params: { ePakId, documentId } });
    expect(download.status()).toBe(200);
    const bytes = await download.body();
    const { folder } = expectValidSignedPdf(bytes, 1, 'pakt-phone-signed-');
    fs.rmSync(folder, { recursive: true, force: true });
    expect(bytes.toString('latin1').toLowerCase()).toContain(`/name <${Buffer.from(typedName, 'latin1').toString('hex')}>`);
    // The certificate is sealed by a job once the ePak completes.
    let certificate: Buffer | null = null;
    await expect
      .poll(async () => {
        const response = await call(request, downloadEpakCertificate, { headers, params: { ePakId } });
        if (response.status() === 200) certificate = await response.body();
        return response.status();
      }, { timeout: 30_000 })
      .toBe(200);
    const folder2 = fs.mkdtempSync(path.join(os.tmpdir(), 'pakt-certificate-'));
    fs.writeFileSync(path.join(folder2, 'certificate.pdf'), certificate!);
    const text = spawnSync('pdftotext', ['-layout', path.join(folder2, 'certificate.pdf'), '-'], { encoding: 'utf8' }).stdout;
    fs.rmSync(folder2, { recursive: true, force: true });
    expect(text).toContain(typedName);
    expect(text).not.toContain('arjun.tenant ');
  });

  await test.step('"Who signs" shows the typed name to the owner', async () => {
    await page.goto(`/sign?ePakId=${ePakId}`);
    await expect(page.getByText(typedName).first()).toBeVisible();
    await saveScreenshotAtBothSizes(page, 'owner-sees-typed-name');
  });
});

test('a signer completes the ceremony with the keyboard alone; login, signing and inbox pass axe-core', async ({ page, request }, testInfo) => {
  test.setTimeout(240_000);
  const owner = { email: 'kiran@keyboard-signing.test', firstName: 'Kiran', lastName: 'Desai', orgName: 'Desai Partners', password: 'Keyboard-signing-2026' };
  const subject = 'Engagement letter';
  let ePakId = '';

  await test.step('the login page has no serious accessibility violation', async () => {
    await page.goto('/login');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expectNoSeriousA11yViolations(page, 'login');
  });

  await test.step('an ePak for the owner to sign: a signature and a date', async () => {
    await signUpAndConfirm(page, request, owner);
    const headers = await apiHeadersOf(request, owner.email, owner.password);
    const epak = await composedEpakThroughApi(request, {
      headers,
      file: { name: 'engagement.pdf', mimeType: 'application/pdf', buffer: fs.readFileSync(`${CORPUS}plain-1p-libreoffice.pdf`) },
      subject,
      signingPolicy: 'QUICKSIGN',
      steps: [{ type: 'SIGN', recipients: [owner.email] }],
    });
    ePakId = epak.ePakId;
    const documentId = epak.documents[0]!.documentId;
    const tags = [fieldFor(owner.email, 1, 1, 'signature', { x: 60, y: 600 }, true), fieldFor(owner.email, 1, 1, 'calendar', { x: 60, y: 660, width: 120, height: 20 }, true)];
    await callData(request, createSignatureBlocks, { headers, params: { ePakId, documentId }, body: { tags } });
    await callData(request, startEpak, { headers, params: { ePakId } });
  });

  await test.step('the inbox has no serious accessibility violation', async () => {
    await page.goto('/epaks');
    await expect(page.getByText(subject).first()).toBeVisible();
    await expectNoSeriousA11yViolations(page, 'inbox');
  });

  await test.step('the signing page has none either, and its fields are labelled buttons in reading order', async () => {
    await page.goto(`/sign?ePakId=${ePakId}`);
    await expect(page.getByRole('heading', { level: 1, name: subject })).toBeVisible();
    await expect(page.locator('[data-testid="tag-editor-page"][data-rendered="true"]')).toHaveCount(1, { timeout: 20_000 });
    await expectNoSeriousA11yViolations(page, 'signing');
  });

  await test.step('Tab reaches the signature field, with a visible focus; Enter opens the dialog', async () => {
    const signature = page.locator('[data-testid="signing-tag"][role="button"]').first();
    await expect(signature).toHaveAccessibleName(/signature/i);
    await page.locator('body').focus();
    await tabTo(page, signature);
    await expectVisibleFocus(signature);
    await saveViewportScreenshot(page, testInfo, 'keyboard-focus-field');
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: signing.signature.title });
    await expect(dialog).toBeVisible();
    await expectNoSeriousA11yViolations(page, 'signature dialog');
    // The Type tab is the keyboard's way to sign: the tab list moves with the arrow keys.
    await tabTo(page, dialog.getByRole('tab', { selected: true }));
    await page.keyboard.press('ArrowRight');
    await expect(dialog.getByRole('tab', { name: signing.signature.type })).toHaveAttribute('aria-selected', 'true');
    await tabTo(page, dialog.getByLabel(signing.signature.typeLabel));
    await expect(dialog.getByLabel(signing.signature.typeLabel)).toHaveValue(`${owner.firstName} ${owner.lastName}`);
    await tabTo(page, dialog.getByRole('button', { name: signing.signature.adopt }));
    await saveViewportScreenshot(page, testInfo, 'keyboard-dialog');
    await page.keyboard.press('Enter');
    await expect(dialog).toBeHidden();
    await expect(signature.locator('img')).toBeVisible();
  });

  await test.step('Tab reaches Sign; Enter signs', async () => {
    const sign = page.getByRole('button', { name: signing.actions.sign, exact: true });
    await tabTo(page, sign);
    await expectVisibleFocus(sign);
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('signing-outcome')).toContainText(signing.outcome.signedCompleted, { timeout: 30_000 });
    await saveScreenshotAtBothSizes(page, 'keyboard-signed');
  });
});

test('a signer who must be verified confirms a mailed code before signing', async ({ page, request }) => {
  test.setTimeout(180_000);
  const owner = { email: 'farah@verified-signing.test', firstName: 'Farah', lastName: 'Khan', orgName: 'Khan Advisory', password: 'Verified-signing-2026' };
  const subject = 'Loan agreement';
  let ePakId = '';

  await test.step('the tenant verifies every signer; the owner sends themselves an ePak', async () => {
    await signUpAndConfirm(page, request, owner);
    const headers = await apiHeadersOf(request, owner.email, owner.password);
    // Tenant settings are a super admin's to change.
    const bossHeaders = await addSuperAdmin(request, headers['x-tenant-id']!, { email: 'boss@verified-signing.test', firstName: 'Zoya', lastName: 'Khan', password: 'Verified-boss-2026' });
    await callData(request, updateTenantSettings, { headers: bossHeaders, body: { settings: { verificationMode: 'ON' } } });
    const epak = await composedEpakThroughApi(request, {
      headers,
      file: { name: 'loan.pdf', mimeType: 'application/pdf', buffer: fs.readFileSync(`${CORPUS}plain-1p-pdftex.pdf`) },
      subject,
      signingPolicy: 'QUICKSIGN',
      steps: [{ type: 'SIGN', recipients: [owner.email] }],
    });
    ePakId = epak.ePakId;
    const tags = [fieldFor(owner.email, 1, 1, 'signature', { x: 60, y: 600 }, true)];
    await callData(request, createSignatureBlocks, { headers, params: { ePakId, documentId: epak.documents[0]!.documentId }, body: { tags } });
    await callData(request, startEpak, { headers, params: { ePakId } });
  });

  await test.step('signing asks for a code first', async () => {
    // Confirming the address signed the owner in, in this browser.
    await page.goto(`/sign?ePakId=${ePakId}`);
    await expect(page.locator('[data-testid="tag-editor-page"][data-rendered="true"]')).toHaveCount(1, { timeout: 20_000 });
    await expect(page.getByText(signing.verification.heading, { exact: true })).toBeVisible();
    const panel = page.getByTestId('verification-panel');
    await panel.getByTestId('verification-send-mail').click();
    await expect(panel.getByTestId('verification-sent')).toBeVisible();
    await saveScreenshotAtBothSizes(page, 'verification-code-sent');
  });

  await test.step('a wrong code is refused; the mailed one verifies, and the signature goes through', async () => {
    const mail = await rootMail(request, { recipient: owner.email, kind: 'epak_verification_code' });
    const code = /\b(\d{6})\b/.exec(mail.body)![1]!;
    const wrong = code === '000000' ? '111111' : '000000';
    const panel = page.getByTestId('verification-panel');
    await panel.getByTestId('verification-code').fill(wrong);
    await panel.getByTestId('verification-confirm').click();
    await expect(panel.getByTestId('verification-error')).toBeVisible();
    await saveScreenshotAtBothSizes(page, 'verification-wrong-code');
    await panel.getByTestId('verification-code').fill(code);
    await panel.getByTestId('verification-confirm').click();
    await expect(page.getByTestId('verification-panel')).toHaveCount(0);
    const field = page.locator('[data-testid="signing-tag"][role="button"]').first();
    await field.scrollIntoViewIfNeeded();
    await field.click();
    const dialog = page.getByRole('dialog', { name: signing.signature.title });
    await dialog.getByRole('tab', { name: signing.signature.type }).click();
    await dialog.getByRole('button', { name: signing.signature.adopt }).click();
    await expect(dialog).toBeHidden();
    await page.getByRole('button', { name: signing.actions.sign, exact: true }).click();
    await expect(page.getByTestId('signing-outcome')).toContainText(signing.outcome.signedCompleted, { timeout: 30_000 });
  });
});
