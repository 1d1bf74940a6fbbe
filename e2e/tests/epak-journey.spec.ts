import type { APIRequestContext, Browser, Locator, Page, TestInfo } from '@playwright/test';
import { expect, test } from './fixtures';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { inflateRawSync } from 'node:zlib';
import { authenticate, createTenant, inviteUsers } from '@pakt/domain';
import { callData } from './api';
import { bundles, composeGoTo, composeSaveStatus, ensureRoot, expectNoHorizontalOverflow, fieldLabelled, linkIn, ROOT, rootMail, saveViewportScreenshot, signInWith, signUpAndConfirm } from './support';

const { en } = bundles;
const compose = en.compose;
const editor = en.tagEditor;
const signing = en.signing;

const CORPUS = fileURLToPath(new URL('../../../shared/corpus/pdfs/', import.meta.url));
const LEASE = 'plain-1p-libreoffice.pdf';
const ANNEX = 'plain-1p-pdftex.pdf';
const CERTIFICATE = 'certificate-of-completion.pdf';

const withNumber = (text: string, number: number) => text.replace('{{number}}', String(number));
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const step = (page: Page, number: number) =>
  page.getByRole('form', { name: compose.title }).getByRole('group', { name: withNumber(en.workflows.form.step, number), exact: true });
const pagesOf = (page: Page, name: string) => page.getByRole('region', { name: editor.pages.replace('{{name}}', name) });

/** API headers for this person acting in the tenant of this name (they belong to several). */
async function headersIn(request: APIRequestContext, email: string, password: string, tenantName: string): Promise<Record<string, string>> {
  const signedIn = await callData(request, authenticate, { body: { username: email, password } });
  const tenant = signedIn.user.tenants.find((candidate) => candidate.tenantName === tenantName);
  expect(tenant, `${email} is a member of ${tenantName}`).toBeDefined();
  return { authorization: `Bearer ${signedIn.accessToken}`, 'x-tenant-id': tenant!.tenantUuid };
}

/**
 * The link in the newest mail to this address with this subject. Root reads it (the tenant admin's
 * outbox shows to whom and what about, never the text): on this install without SMTP, root is
 * who hands links on.
 */
async function mailedTo(request: APIRequestContext, recipient: string, subject: string, linkPath: RegExp): Promise<URL> {
  const url = linkIn(await rootMail(request, { recipient, subject }));
  expect(url.pathname + url.search).toMatch(linkPath);
  return url;
}

/** A browser of the person's own (their own cookies and storage), at the size of this project. */
async function ownBrowser(browser: Browser, testInfo: TestInfo): Promise<Page> {
  const phone = testInfo.project.name === 'phone';
  const context = await browser.newContext({ viewport: testInfo.project.use.viewport!, isMobile: phone, hasTouch: phone });
  return context.newPage();
}

interface Colleague {
  email: string;
  firstName: string;
  lastName: string;
  password: string;
}

/**
 * The colleague opens the invitation mailed to them in a browser of their own, chooses a password
 * and lands home, signed in to the organisation with the role they were invited with.
 */
async function registerFromInvitation(browser: Browser, testInfo: TestInfo, invitation: URL, person: Colleague, orgName: string) {
  const page = await ownBrowser(browser, testInfo);
  await page.goto(invitation.pathname + invitation.search);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(en.register.title.replace('{{tenant}}', orgName));
  await expect(fieldLabelled(page, en.common.email)).toHaveValue(person.email);
  await expect(fieldLabelled(page, en.common.firstName)).toHaveValue(person.firstName);
  await expect(fieldLabelled(page, en.common.lastName)).toHaveValue(person.lastName);
  await fieldLabelled(page, en.common.password).fill(person.password);
  await fieldLabelled(page, en.common.confirmPassword).fill(person.password);
  await page.getByRole('button', { name: en.register.submit }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(en.home.welcome.replace('{{name}}', person.firstName));
  await expect(page.getByTestId('current-tenant')).toHaveText(orgName);
  await expect(page.getByTestId('current-role')).toHaveText(en.roles.signer);
  await page.context().close();
}

/** Arms a signature for a signer and clicks it onto page 1 of a document at a fraction of its size. */
async function placeSignature(page: Page, documentName: string, signer: string, at: { x: number; y: number }) {
  await page.getByLabel(editor.for, { exact: true }).selectOption(`2|${signer}`);
  await page.getByRole('group', { name: editor.palette.heading }).getByRole('button', { name: editor.types.signature, exact: true }).click();
  const pageEl = pagesOf(page, documentName).locator('[data-page-number="1"]');
  // On a phone the palette sits below the pages: bring the page back into view before clicking it.
  await pageEl.scrollIntoViewIfNeeded();
  await expect(pageEl).toHaveAttribute('data-rendered', 'true', { timeout: 20_000 });
  const placed = await pageEl.locator('[data-testid="tag-box"]').count();
  const bounds = (await pageEl.boundingBox())!;
  const [x, y] = [Math.round(bounds.x + at.x * bounds.width), Math.round(bounds.y + at.y * bounds.height)];
  const hit = await pageEl.evaluate((element, [px, py]) => element.contains(document.elementFromPoint(px!, py!)), [x, y]);
  expect(hit, 'the click point is on the page, not under the header or off screen').toBe(true);
  await page.mouse.click(x, y);
  await expect(pageEl.locator('[data-testid="tag-box"]')).toHaveCount(placed + 1);
  await expect(pageEl.locator('[data-testid="tag-box"][aria-pressed="true"]')).toHaveCount(1);
}

/** The ceremony's document tabs: showing a document is what records it as opened. */
async function openDocument(page: Page, name: string) {
  const tab = page.getByRole('tab', { name: new RegExp(`^${escaped(name)}`) });
  if ((await tab.getAttribute('aria-selected')) !== 'true') await tab.click();
  await expect(page.locator('[data-testid="tag-editor-page"][data-rendered="true"]')).toHaveCount(1, { timeout: 20_000 });
}

/** Opens every document, checking the actions wait for the last one (view enforcement). */
async function readEverything(page: Page, action: Locator) {
  await openDocument(page, LEASE);
  await expect(page.getByTestId('view-enforcement')).toHaveText(signing.viewEnforced.replace('{{opened}}', '1').replace('{{count}}', '2'));
  await expect(action).toBeDisabled();
  await openDocument(page, ANNEX);
  await expect(page.getByTestId('view-enforcement')).toHaveCount(0);
  await expect(action).toBeEnabled();
  await openDocument(page, LEASE);
}

/** Clicks the person's signature field on the lease and makes their signature: drawn or typed. */
async function adoptSignature(page: Page, how: 'draw' | 'type', name: string, typedName?: string) {
  const field = page.locator('[data-testid="signing-tag"][role="button"]').first();
  await field.scrollIntoViewIfNeeded();
  await field.click();
  const dialog = page.getByRole('dialog', { name: signing.signature.title });
  await expect(dialog).toBeVisible();
  // An outsider, known only by address, types the name they sign under (issue 22).
  if (typedName) await dialog.getByLabel(signing.name.label).fill(typedName);
  if (how === 'draw') {
    // Drawn with the pointer, on the signature pad.
    const pad = dialog.getByTestId('signature-pad');
    const area = (await pad.boundingBox())!;
    await page.mouse.move(area.x + 30, area.y + area.height * 0.6);
    await page.mouse.down();
    for (let i = 1; i <= 12; i++) await page.mouse.move(area.x + 30 + i * 18, area.y + area.height * (0.6 - 0.25 * Math.sin(i / 2)), { steps: 3 });
    await page.mouse.up();
  } else {
    await dialog.getByRole('tab', { name: signing.signature.type }).click();
    await expect(dialog.getByLabel(signing.signature.typeLabel)).toHaveValue(name);
  }
  await dialog.getByRole('button', { name: signing.signature.adopt }).click();
  await expect(dialog).toBeHidden();
  await expect(field.locator('img')).toBeVisible();
}

/** The entries of a zip (stored or deflated, as any zip writer makes them), by name. */
function unzip(bytes: Buffer): Map<string, Buffer> {
  let end = bytes.length - 22;
  while (end >= 0 && bytes.readUInt32LE(end) !== 0x06054b50) end--;
  expect(end, 'the download is a zip').toBeGreaterThanOrEqual(0);
  const count = bytes.readUInt16LE(end + 10);
  let at = bytes.readUInt32LE(end + 16);
  const entries = new Map<string, Buffer>();
  for (let i = 0; i < count; i++) {
    expect(bytes.readUInt32LE(at)).toBe(0x02014b50);
    const method = bytes.readUInt16LE(at + 10);
    const size = bytes.readUInt32LE(at + 20);
    const nameLength = bytes.readUInt16LE(at + 28);
    const extraLength = bytes.readUInt16LE(at + 30);
    const commentLength = bytes.readUInt16LE(at + 32);
    const local = bytes.readUInt32LE(at + 42);
    const name = bytes.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    const start = local + 30 + bytes.readUInt16LE(local + 26) + bytes.readUInt16LE(local + 28);
    const raw = bytes.subarray(start, start + size);
    entries.set(name, method === 8 ? inflateRawSync(raw) : Buffer.from(raw));
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/**
 * The viewport once nothing moves any more: a transition cut short by a later layout change (the
 * tabs' indicator when the action panel goes) would otherwise reject while being waited on.
 */
async function screenshotWhenStill(page: Page, testInfo: TestInfo, name: string) {
  await page.waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== 'running'));
  await saveViewportScreenshot(page, testInfo, name);
}

/** What poppler and qpdf, two readers that are not ours, say of a signed PDF. */
function judge(file: string) {
  const pdfsig = spawnSync('pdfsig', [file], { encoding: 'utf8' });
  const qpdf = spawnSync('qpdf', ['--check', file], { encoding: 'utf8' });
  return {
    signatures: (pdfsig.stdout.match(/^Signature #\d+:/gm) ?? []).length,
    valid: (pdfsig.stdout.match(/- Signature Validation: Signature is Valid\./g) ?? []).length,
    pdfsig: pdfsig.stdout + pdfsig.stderr,
    qpdfStatus: qpdf.status,
    qpdf: qpdf.stdout + qpdf.stderr,
  };
}

// @phone: compose's tag palette sits below the pages on a phone, /sign puts its panel below the pages, and
// each person's own browser is a phone (touch, a phone's user agent) in the phone run.
test('an ePak from compose to download: reviewed, signed by two invited colleagues in their own sessions and one outsider, three valid signatures in each PDF', { tag: '@phone' }, async ({ page, browser, request }, testInfo) => {
  test.setTimeout(300_000);
  const project = testInfo.project.name;
  const owner = { email: `kavya.${project}@journey.test`, firstName: 'Kavya', lastName: 'Reddy', orgName: `Reddy Lettings ${project}`, password: 'Journey-password-2025' };
  // A second organisation of hers: the mailed links must land her in the first one.
  const otherOrg = `Annex Holdings ${project}`;
  const reviewer = `lawyer.${project}@journey.test`;
  // The two who sign for her organisation, invited into it; the tenant signs from outside it.
  const partner: Colleague = { email: `arjun.${project}@journey.test`, firstName: 'Arjun', lastName: 'Mehta', password: 'Partner-password-2025' };
  const manager: Colleague = { email: `meera.${project}@journey.test`, firstName: 'Meera', lastName: 'Iyer', password: 'Manager-password-2025' };
  const tenant = `tenant.${project}@journey.test`;
  const subject = `Lease, flat 9A (${project})`;
  const ownerName = `${owner.firstName} ${owner.lastName}`;
  let ePakId = '';
  let ownerHeaders: Record<string, string> = {};

  await test.step('the owner has an organisation of her own, and belongs to a second one', async () => {
    await signUpAndConfirm(page, request, owner);

    await ensureRoot(request);
    const rootToken = (await callData(request, authenticate, { body: { username: ROOT.email, password: ROOT.password } })).accessToken;
    const created = await callData(request, createTenant, {
      headers: { authorization: `Bearer ${rootToken}` },
      body: { tenantName: otherOrg, admin: { email: owner.email, firstName: owner.firstName, lastName: owner.lastName } },
    });
    const invite = new URL(created.inviteLink);
    // She has an account already (signed in from her confirmation): the invitation asks for no
    // password, she joins from her session with one click (issue 17).
    await page.goto(invite.pathname + invite.search);
    await expect(page.getByText(en.register.existing.introSignedIn.split('{{')[0]!)).toBeVisible();
    await expect(page.getByLabel(en.common.password)).toHaveCount(0);
    await page.getByRole('button', { name: en.register.existing.join.replace('{{tenant}}', otherOrg) }).click();
    await expect(page).not.toHaveURL(/\/register/);
    // Joining lands her in the new organisation; she goes back to her own to work.
    const organisation = page.getByRole('combobox', { name: en.shell.tenant });
    await expect(organisation.locator('option:checked')).toHaveText(otherOrg);
    await organisation.selectOption({ label: owner.orgName });
    await expect(organisation.locator('option:checked')).toHaveText(owner.orgName);
    ownerHeaders = await headersIn(request, owner.email, owner.password, owner.orgName);
  });

  await test.step('as its admin she invites two colleagues to sign; each registers from the mailed invitation in a browser of their own', async () => {
    const invited = await callData(request, inviteUsers, {
      headers: ownerHeaders,
      body: { users: [partner, manager].map(({ email, firstName, lastName }) => ({ email, firstName, lastName, role: 'signer' as const })) },
    });
    expect(invited.users.map(({ email, status }) => [email, status])).toEqual([[partner.email, 'invited'], [manager.email, 'invited']]);
    for (const colleague of [partner, manager]) {
      const invitation = await mailedTo(
        request,
        colleague.email,
        `You are invited to ${owner.orgName} on Pakt`,
        new RegExp(`^/register\\?invite=pki_[A-Za-z0-9_-]+&tenant=${ownerHeaders['x-tenant-id']}$`),
      );
      await registerFromInvitation(browser, testInfo, invitation, colleague, owner.orgName);
    }
  });

  await test.step('she composes it: two documents, a review, then her two colleagues and the tenant to sign, read before acting', async () => {
    await page.goto('/compose');
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: compose.upload.choose }).click();
    await (await chooser).setFiles([`${CORPUS}${LEASE}`, `${CORPUS}${ANNEX}`]);
    await expect(page.getByRole('list', { name: compose.upload.list }).getByText(/^Uploaded ·/)).toHaveCount(2, { timeout: 30_000 });
    await composeGoTo(page, 'recipients');
    await step(page, 1).getByRole('combobox', { name: new RegExp(`^${en.workflows.form.state}`) }).selectOption({ label: 'Review' });
    await step(page, 1).getByLabel(withNumber(compose.workflow.addRecipient, 1), { exact: true }).fill(reviewer);
    await step(page, 1).getByRole('button', { name: withNumber(en.workflows.form.addRecipientTo, 1) }).click();
    await page.getByRole('button', { name: en.workflows.form.addStep }).click();
    await step(page, 2).getByRole('combobox', { name: new RegExp(`^${en.workflows.form.state}`) }).selectOption({ label: 'Sign' });
    await step(page, 2).getByLabel(withNumber(compose.workflow.addRecipient, 2), { exact: true }).fill(`${tenant}; ${partner.email}; ${manager.email}`);
    await step(page, 2).getByRole('button', { name: withNumber(en.workflows.form.addRecipientTo, 2) }).click();
    await expect(step(page, 2).getByRole('listitem')).toHaveCount(3);
    await fieldLabelled(page, compose.details.subject).fill(subject);
    await fieldLabelled(page, compose.details.message).fill('Clause 4 covers the deposit. Thank you!');
    // QUICKSIGN asks for no reason field beside each signature.
    await page.getByRole('combobox', { name: en.workflows.form.signingPolicy }).selectOption('QUICKSIGN');
    await page.getByRole('checkbox', { name: compose.details.viewEnforced }).check();
    await composeGoTo(page, 'fields');
    await expect(page).toHaveURL(/\/compose\?ePakId=[0-9a-f-]{36}$/);
    ePakId = new URL(page.url()).searchParams.get('ePakId')!;
  });

  await test.step('a signature field for each of the three signers, then it is sent', async () => {
    const leaseTab = page.getByRole('tab', { name: new RegExp(`^${escaped(LEASE)}`) });
    if ((await leaseTab.getAttribute('aria-selected')) !== 'true') await leaseTab.click();
    await placeSignature(page, LEASE, tenant, { x: 0.05, y: 0.6 });
    await placeSignature(page, LEASE, partner.email, { x: 0.37, y: 0.6 });
    await placeSignature(page, LEASE, manager.email, { x: 0.69, y: 0.6 });
    // Going on to the review saves the fields first.
    await composeGoTo(page, 'review');
    await expect(composeSaveStatus(page)).toHaveAttribute('data-state', 'saved');
    await expect(page.getByRole('status').filter({ hasText: compose.review.ready })).toBeVisible();
    await page.getByRole('button', { name: compose.start.send }).click();
    await expect(page.getByRole('status').filter({ hasText: compose.start.sent })).toBeVisible();
  });

  await test.step('the reviewer opens the mailed link, reads both documents and marks it reviewed', async () => {
    const link = await mailedTo(request, reviewer, `Please review: ${subject}`, /^\/emailsign\?token=/);
    const lawyer = await ownBrowser(browser, testInfo);
    await lawyer.goto(link.pathname + link.search);
    await expect(lawyer.getByRole('heading', { level: 1, name: subject })).toBeVisible();
    await expect(lawyer.getByText(signing.from.replace('{{name}}', ownerName))).toBeVisible();
    const review = lawyer.getByRole('button', { name: signing.actions.review });
    await readEverything(lawyer, review);
    await review.click();
    await expect(lawyer.getByTestId('signing-outcome')).toHaveText(signing.outcome.reviewedNext, { timeout: 30_000 });
    await expect(review).toHaveCount(0);
    await expect(lawyer.getByTestId('step-recipient').first()).toContainText(en.compose.recipientStatus.Reviewed);
    await lawyer.evaluate(() => window.scrollTo(0, 0));
    await expectNoHorizontalOverflow(lawyer);
    await screenshotWhenStill(lawyer, testInfo, 'journey-reviewer-done');
    await lawyer.context().close();
  });

  await test.step('the tenant, an outsider, signs through the mailed link with a signature drawn on the pad', async () => {
    const link = await mailedTo(request, tenant, `Please sign: ${subject}`, /^\/emailsign\?token=/);
    const signer = await ownBrowser(browser, testInfo);
    await signer.goto(link.pathname + link.search);
    await expect(signer.getByRole('heading', { level: 1, name: subject })).toBeVisible();
    const sign = signer.getByRole('button', { name: signing.actions.sign, exact: true });
    await readEverything(signer, sign);
    await adoptSignature(signer, 'draw', '', 'Rohan Tenant');
    await sign.click();
    await expect(signer.getByTestId('signing-outcome')).toHaveText(signing.outcome.signedWaiting, { timeout: 30_000 });
    await expect(sign).toHaveCount(0);
    await signer.context().close();
  });

  for (const [colleague, outcome] of [
    [partner, signing.outcome.signedWaiting],
    [manager, signing.outcome.signedCompleted],
  ] as const) {
    await test.step(`${colleague.firstName}, a member, opens the mailed link signed out, signs in to a session of their own and signs with a typed signature`, async () => {
      const link = await mailedTo(request, colleague.email, `Please sign: ${subject}`, new RegExp(`^/sign\\?ePakId=${ePakId}&tenant=${ownerHeaders['x-tenant-id']}$`));
      const desk = await ownBrowser(browser, testInfo);
      await desk.goto(link.pathname + link.search);
      await expect(desk).toHaveURL(/\/login\?returnTo=/);
      await expect(desk.getByText(en.login.returnTo)).toBeVisible();
      await signInWith(desk, colleague.email, colleague.password);
      await expect(desk).toHaveURL(new RegExp(`${escaped(link.pathname + link.search)}$`));
      await expect(desk.getByRole('heading', { level: 1, name: subject })).toBeVisible();
      await expect(desk.getByRole('combobox', { name: en.shell.tenant }).locator('option:checked')).toHaveText(owner.orgName);
      const sign = desk.getByRole('button', { name: signing.actions.sign, exact: true });
      await readEverything(desk, sign);
      await adoptSignature(desk, 'type', `${colleague.firstName} ${colleague.lastName}`);
      await sign.click();
      await expect(desk.getByTestId('signing-outcome')).toHaveText(outcome, { timeout: 30_000 });
      await expect(sign).toHaveCount(0);
      if (colleague === manager) {
        await expect(desk.getByTestId('epak-status')).toHaveText(en.compose.status.Completed);
        // The lease as sealed by the last of its three signers, drawn, rather than the copy she signed.
        await expect(desk.getByTestId('signing-document')).toHaveAttribute('data-shown-revisions', '3', { timeout: 20_000 });
        await expect(desk.locator('[data-testid="tag-editor-page"][data-rendered="true"]')).toHaveCount(1, { timeout: 20_000 });
        await desk.evaluate(() => window.scrollTo(0, 0));
        await expectNoHorizontalOverflow(desk);
        await screenshotWhenStill(desk, testInfo, 'journey-member-signed');
      }
      await desk.context().close();
    });
  }

  await test.step('the owner opens the completion mail signed out: she signs in, lands back on it in the right organisation, and downloads the result: each PDF carries three valid signatures, with the certificate beside them', async () => {
    const link = await mailedTo(request, owner.email, `Completed: ${subject}`, new RegExp(`^/sign\\?ePakId=${ePakId}&tenant=${ownerHeaders['x-tenant-id']}$`));
    const desk = await ownBrowser(browser, testInfo);
    await desk.goto(link.pathname + link.search);
    await expect(desk).toHaveURL(/\/login\?returnTo=/);
    await signInWith(desk, owner.email, owner.password);
    await expect(desk).toHaveURL(new RegExp(`${escaped(link.pathname + link.search)}$`));
    await expect(desk.getByRole('heading', { level: 1, name: subject })).toBeVisible();
    // Her first organisation by name is the other one; the link's tenant was chosen instead.
    await expect(desk.getByRole('combobox', { name: en.shell.tenant }).locator('option:checked')).toHaveText(owner.orgName);
    await expect(desk.getByTestId('epak-status')).toHaveText(en.compose.status.Completed);
    await expect(desk.getByTestId('why-not')).toHaveText(signing.whyNot.completed);
    await expect(desk.locator('[data-testid="tag-editor-page"][data-rendered="true"]')).toHaveCount(1, { timeout: 20_000 });
    await desk.evaluate(() => window.scrollTo(0, 0));
    await expectNoHorizontalOverflow(desk);
    await screenshotWhenStill(desk, testInfo, 'journey-owner-done');
    // The three signatures, drawn into the signed lease.
    const pages = pagesOf(desk, LEASE);
    await pages.scrollIntoViewIfNeeded();
    await pages.evaluate((element) => element.scrollTo(0, element.scrollHeight * 0.35));
    await screenshotWhenStill(desk, testInfo, 'journey-owner-signed-lease');

    const downloading = desk.waitForEvent('download');
    await desk.getByRole('button', { name: signing.download.button }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(`${subject}.zip`);
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'pakt-journey-'));
    const zipFile = path.join(folder, download.suggestedFilename());
    await download.saveAs(zipFile);
    const entries = unzip(fs.readFileSync(zipFile));
    expect([...entries.keys()].sort()).toEqual([ANNEX, CERTIFICATE, LEASE].sort());
    for (const name of [LEASE, ANNEX]) {
      const file = path.join(folder, name);
      fs.writeFileSync(file, entries.get(name)!);
      const verdict = judge(file);
      expect(verdict.signatures, `${name}: ${verdict.pdfsig}`).toBe(3);
      expect(verdict.valid, `${name}: ${verdict.pdfsig}`).toBe(3);
      expect(verdict.qpdfStatus, `${name}: ${verdict.qpdf}`).toBe(0);
    }
    fs.rmSync(folder, { recursive: true, force: true });
    await desk.context().close();
  });
});
