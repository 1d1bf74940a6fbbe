import type { Locator, Page } from '@playwright/test';
import { e2eServer, expect, test } from './fixtures';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { downloadEpakDocument, getSignatureBlocks, updateTenantSettings } from '@pakt/domain';
import { call, callData, startedEpakThroughApi } from './api';
import { addSuperAdmin, adoptTypedSignature, apiHeadersOf, bundles, expectNoHorizontalOverflow, keepScreenshot, linkIn, rootMail, signUpAndConfirm } from './support';

const { en } = bundles;
const signing = en.signing;
const L = signing.location;

const CORPUS = fileURLToPath(new URL('../../../shared/corpus/pdfs/', import.meta.url));
const PLAIN = 'plain-1p-libreoffice.pdf';
// E2E_SCREENSHOT_DIR lets a reviewer collect this journey's pictures apart from the others'.
const screenshotDir = (process.env.E2E_SCREENSHOT_DIR ?? '/tmp/shots-signing-location').replace(/\/?$/, '/');

/** The signing panel, brought into view (on a phone it sits below the pages), then the viewport as a person sees it. */
async function capturePanel(page: Page, panel: Locator, name: string): Promise<void> {
  fs.mkdirSync(screenshotDir, { recursive: true });
  await expectNoHorizontalOverflow(page);
  await panel.scrollIntoViewIfNeeded();
  await page.evaluate(() => Promise.all(document.getAnimations().map((animation) => animation.finished.catch(() => undefined))));
  await keepScreenshot(page, { path: `${screenshotDir}${test.info().project.name}-${name}.png` });
}

/** The /Location strings of the signatures in a PDF (the server writes them as hex strings). */
const locationsIn = (pdf: Buffer) => [...pdf.toString('latin1').matchAll(/\/Location <([0-9A-Fa-f]*)>/g)].map((match) => Buffer.from(match[1]!, 'hex').toString('latin1'));

// @phone: the signing panel, where the place is asked, sits below the pages on a phone (the journey brings
// it into view), and the outsider's browser is a phone in the phone run.
test('with geolocation MANDATORY a signer must say where they sign (typed at /sign, from the browser through the mailed link); with OPTIONAL they may', { tag: '@phone' }, async ({ page, browser, request }, testInfo) => {
  test.setTimeout(180_000);
  const project = testInfo.project.name;
  const owner = { email: `devika.${project}@location.test`, firstName: 'Devika', lastName: 'Menon', orgName: `Menon Surveys ${project}`, password: 'Location-password-2025' };
  const boss = { email: `arjun.${project}@location.test`, firstName: 'Arjun', lastName: 'Rao', password: 'Super-password-2025' };
  const external = `client.${project}@location.test`;
  const subject = `Survey report, plot 12 (${project})`;
  let ePakId = '';
  let documentId = '';
  let bossHeaders: Record<string, string> = {};
  /** The signature field of each signer of the first ePak, by address. */
  let signatureOf: Record<string, string> = {};

  /**
   * An ePak of this one document, started: the owner signs first, the outsider (if any) second,
   * each with a signature field of their own (an ePak is not sent without, -62). Answers where
   * it is and each signer's signature field.
   */
  async function startEpak(title: string, withOutsider: boolean) {
    const headers = await apiHeadersOf(request, owner.email, owner.password);
    const epak = await startedEpakThroughApi(request, {
      headers,
      file: { name: PLAIN, mimeType: 'application/pdf', buffer: fs.readFileSync(`${CORPUS}${PLAIN}`) },
      subject: title,
      signingPolicy: 'QUICKSIGN',
      steps: [{ type: 'SIGN', recipients: [owner.email] }, ...(withOutsider ? [{ type: 'SIGN' as const, recipients: [external] }] : [])],
    });
    const documentId = epak.documents[0]!.documentId;
    const { tags } = await callData(request, getSignatureBlocks, { headers, params: { ePakId: epak.ePakId, documentId } });
    const signatures = Object.fromEntries(tags.filter((tag) => tag.type === 'signature').map((tag) => [tag.userEmail!, tag.uuid]));
    return { ePakId: epak.ePakId, documentId, signatures };
  }

  await test.step('an organisation whose super admin makes the location of every signature mandatory', async () => {
    await signUpAndConfirm(page, request, owner);
    const ownerHeaders = await apiHeadersOf(request, owner.email, owner.password);

    bossHeaders = await addSuperAdmin(request, ownerHeaders['x-tenant-id']!, boss);
    await callData(request, updateTenantSettings, { headers: bossHeaders, body: { settings: { geolocationType: 'MANDATORY' } } });

    ({ ePakId, documentId, signatures: signatureOf } = await startEpak(subject, true));
  });

  await test.step('at /sign the panel asks where; Sign with it blank says so beside the field', async () => {
    await page.goto(`/sign?ePakId=${ePakId}`);
    await expect(page.getByRole('heading', { level: 1, name: subject })).toBeVisible();
    await expect(page.locator('[data-testid="tag-editor-page"][data-rendered="true"]')).toHaveCount(1, { timeout: 20_000 });
    // The signature itself first: what is left to fill is the panel's.
    await adoptTypedSignature(page, signatureOf[owner.email]!);
    const panel = page.getByRole('region', { name: signing.panel.signHeading });
    const place = panel.getByRole('textbox', { name: L.label });
    await expect(place).toHaveAttribute('required', '');
    await expect(panel.getByRole('button', { name: L.useCurrent })).toBeVisible();
    await capturePanel(page, panel, 'location-mandatory');

    await panel.getByRole('button', { name: signing.actions.sign, exact: true }).click();
    await expect(panel.getByText(L.required)).toBeVisible();
    await expect(place).toHaveAttribute('aria-invalid', 'true');
    await expect(place).toBeFocused();
    await capturePanel(page, panel, 'location-refused');

    await place.fill('Kochi, Kerala');
    await expect(panel.getByText(L.required)).toHaveCount(0);
    await capturePanel(page, panel, 'location-typed');
    await panel.getByRole('button', { name: signing.actions.sign, exact: true }).click();
    await expect(page.getByTestId('signing-outcome')).toContainText(signing.outcome.signedNext, { timeout: 30_000 });
  });

  await test.step('the outsider, through the mailed link, lets the browser fill in where they are', async () => {
    // Root hands the link on: this install sends no mail, and the owner's outbox shows no text.
    const link = linkIn(await rootMail(request, { recipient: external, bodyIncludes: '/emailsign?token=' }), /https?:\/\/\S+\/emailsign\?token=\S+/);

    const context = await browser.newContext({
      baseURL: e2eServer().url,
      viewport: page.viewportSize()!,
      isMobile: project === 'phone',
      hasTouch: project === 'phone',
      geolocation: { latitude: 9.931233, longitude: 76.267304 },
      permissions: ['geolocation'],
    });
    const outsider = await context.newPage();
    await outsider.goto(link.pathname + link.search);
    await expect(outsider.getByRole('heading', { level: 1, name: subject })).toBeVisible();
    await expect(outsider.locator('[data-testid="tag-editor-page"][data-rendered="true"]')).toHaveCount(1, { timeout: 20_000 });
    await adoptTypedSignature(outsider, signatureOf[external]!, { typedName: 'Anil Varghese' });
    const panel = outsider.getByRole('region', { name: signing.panel.signHeading });
    const place = panel.getByRole('textbox', { name: L.label });
    await panel.getByRole('button', { name: L.useCurrent }).click();
    await expect(place).toHaveValue('9.9312, 76.2673');
    await capturePanel(outsider, panel, 'location-from-browser');
    await panel.getByRole('button', { name: signing.actions.sign, exact: true }).click();
    await expect(outsider.getByTestId('signing-outcome')).toContainText(signing.outcome.signedCompleted, { timeout: 30_000 });
    await context.close();
  });

  await test.step('both places are in the signatures of the file', async () => {
    const ownerHeaders = await apiHeadersOf(request, owner.email, owner.password);
    const download = await call(request, downloadEpakDocument, { headers: ownerHeaders, params: { ePakId, documentId } });
    expect(download.ok()).toBe(true);
    expect(locationsIn(await download.body())).toEqual(['Kochi, Kerala', '9.9312, 76.2673']);
  });

  await test.step('with OPTIONAL the question is labelled optional, and a signature needs no place', async () => {
    await callData(request, updateTenantSettings, { headers: bossHeaders, body: { settings: { geolocationType: 'OPTIONAL' } } });
    const optional = `Site photos, plot 12 (${project})`;
    const started = await startEpak(optional, false);
    await page.goto(`/sign?ePakId=${started.ePakId}`);
    await expect(page.getByRole('heading', { level: 1, name: optional })).toBeVisible();
    await expect(page.locator('[data-testid="tag-editor-page"][data-rendered="true"]')).toHaveCount(1, { timeout: 20_000 });
    await adoptTypedSignature(page, started.signatures[owner.email]!);
    const panel = page.getByRole('region', { name: signing.panel.signHeading });
    const place = panel.getByRole('textbox', { name: `${L.label} (${L.optional})` });
    await expect(place).not.toHaveAttribute('required', '');
    await capturePanel(page, panel, 'location-optional');
    await panel.getByRole('button', { name: signing.actions.sign, exact: true }).click();
    await expect(page.getByTestId('signing-outcome')).toContainText(signing.outcome.signedCompleted, { timeout: 30_000 });
    const download = await call(request, downloadEpakDocument, { headers: await apiHeadersOf(request, owner.email, owner.password), params: { ePakId: started.ePakId, documentId: started.documentId } });
    expect(locationsIn(await download.body())).toEqual([]);
  });
});
