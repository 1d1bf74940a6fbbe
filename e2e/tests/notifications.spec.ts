import type { Browser, Page, TestInfo } from '@playwright/test';
import { expect, test } from './fixtures';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createEpak, createSignatureBlocks, listWorkflowStates, uploadDocument, type TagInput } from '@pakt/domain';
import { callData } from './api';
import { apiHeadersOf, bundles, expectNoHorizontalOverflow, inviteAndRegister, keepScreenshot, mailedLink, signInWith, signUpThroughApi } from './support';

const { en } = bundles;
const n = en.notifications;

const CORPUS = fileURLToPath(new URL('../../../shared/corpus/pdfs/', import.meta.url));
const PLAIN = 'plain-1p-libreoffice.pdf';
const screenshotDir = fileURLToPath(new URL('../screenshots/', import.meta.url));

// The brief's sizes for the screens of this feature: a laptop, and a current phone.
const SIZES = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } } as const;


/** A browser of the person's own (their own storage), at this project's size. */
async function ownBrowser(browser: Browser, testInfo: TestInfo): Promise<Page> {
  const phone = testInfo.project.name === 'phone';
  const context = await browser.newContext({ viewport: SIZES[phone ? 'phone' : 'desktop'], isMobile: phone, hasTouch: phone });
  return context.newPage();
}


/** Signs in on the login page and waits until the app has taken the person in. */
async function signIn(page: Page, person: { email: string; password: string }) {
  await page.goto('/login');
  await signInWith(page, person.email, person.password);
  await expect(page).not.toHaveURL(/\/login/);
}

const rows = (page: Page, phone: boolean) => page.getByTestId(phone ? 'epak-card' : 'epak-row');

// @phone: on a phone the dashboard's inbox is cards rather than rows, and the custodian's browser is a
// phone (touch, a phone's user agent); the journey branches on it.
test("a signer with the dashboard open is told the moment a custodian sends them an ePak: a toast, the inbox updated without a reload, and the toast opens the ePak", { tag: '@phone' }, async ({
  page,
  browser,
  request,
}, testInfo) => {
  test.setTimeout(180_000);
  const project = testInfo.project.name;
  const phone = project === 'phone';
  await page.setViewportSize(SIZES[phone ? 'phone' : 'desktop']);
  const admin = { email: `kavya.${project}@notify.test`, firstName: 'Kavya', lastName: 'Menon', orgName: `Menon Properties ${project}`, password: 'Notify-password-2025' };
  const custodian = { email: `owen.${project}@notify.test`, firstName: 'Owen', lastName: 'Pereira', password: 'Custodian-password-2025', role: 'custodian' };
  const signer = { email: `sita.${project}@notify.test`, firstName: 'Sita', lastName: 'Iyer', password: 'Signer-password-2025', role: 'signer' };
  const subject = `Lease of flat 3B (${project})`;
  let ePakId = '';

  await test.step('an organisation with a custodian and a signer; the custodian has a draft for the signer', async () => {
    await signUpThroughApi(request, admin);
    await mailedLink(request, 'Confirm your email address for Pakt', admin.email).then(async (link) => {
      const confirm = new URL(link);
      // Confirming the address is what makes the organisation; it happens in a browser of its own.
      const adminPage = await ownBrowser(browser, testInfo);
      await adminPage.goto(confirm.pathname + confirm.search);
      await expect(adminPage.getByText(en.thanks.ready.replace('{{name}}', admin.firstName).replace('{{tenant}}', admin.orgName))).toBeVisible();
      await adminPage.context().close();
    });
    const adminHeaders = await apiHeadersOf(request, admin.email, admin.password);
    await inviteAndRegister(request, adminHeaders, custodian, custodian.role);
    await inviteAndRegister(request, adminHeaders, signer, signer.role);

    const headers = await apiHeadersOf(request, custodian.email, custodian.password);
    const { states } = await callData(request, listWorkflowStates, { headers });
    const uploaded = await callData(request, uploadDocument, { headers, file: { name: PLAIN, mimeType: 'application/pdf', buffer: fs.readFileSync(`${CORPUS}${PLAIN}`) } });
    const draft = await callData(request, createEpak, {
      headers,
      body: {
        subject,
        documentIds: [uploaded.documentId],
        signingPolicy: 'QUICKSIGN',
        viewEnforced: false,
        steps: [{ workflowStateId: states.find((state) => state.type === 'SIGN')!.workflowStateId, recipients: [{ email: signer.email }] }],
      },
    });
    const signature: TagInput = { uuid: randomUUID(), type: 'signature', pageNumber: 1, positionX: 60, positionY: 600, blockWidth: 160, blockHeight: 50, userEmail: signer.email, wfsOrderId: 1 };
    await callData(request, createSignatureBlocks, { headers, params: { ePakId: draft.ePakId, documentId: draft.documents[0]!.documentId }, body: { tags: [signature] } });
    ePakId = draft.ePakId;
  });

  await test.step('the signer signs in and keeps the dashboard open: nothing in the inbox yet', async () => {
    await signIn(page, signer);
    await page.goto('/dashboard');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(en.home.welcome.replace('{{name}}', signer.firstName));
    await expect(page.getByText(en.inbox.empty.text.Inbox)).toBeVisible();
    await expect(rows(page, phone)).toHaveCount(0);
    // Survives only if the page is never loaded again.
    await page.evaluate(() => Object.assign(window, { paktNoReload: true }));
  });

  await test.step('the custodian, in a browser of their own, sends the ePak', async () => {
    const custodianPage = await ownBrowser(browser, testInfo);
    await signIn(custodianPage, custodian);
    await custodianPage.goto(`/compose?ePakId=${ePakId}`);
    await custodianPage.getByRole('button', { name: en.compose.start.send }).click();
    await expect(custodianPage.getByRole('status').filter({ hasText: en.compose.start.sent })).toBeVisible();
    await custodianPage.context().close();
  });

  await test.step('the signer gets a toast and the ePak in the inbox, without a reload', async () => {
    const toast = page.getByTestId('notification-toast');
    await expect(toast).toBeVisible();
    await expect(toast).toContainText(n.types.signRequest);
    await expect(toast).toContainText(`${custodian.firstName} ${custodian.lastName} asks you to sign "${subject}".`);
    // Held while the pointer is on it (it would leave after 4 s otherwise), for the picture.
    await toast.hover();
    await expect(rows(page, phone)).toHaveCount(1);
    await expect(rows(page, phone).first()).toContainText(subject);
    expect(await page.evaluate(() => (window as unknown as { paktNoReload?: boolean }).paktNoReload)).toBe(true);
    await expectNoHorizontalOverflow(page);
    await keepScreenshot(page, { path: `${screenshotDir}${project}-notification-toast.png` });
  });

  await test.step('clicking the toast opens the ePak from the dashboard', async () => {
    await page.getByTestId('notification-toast').getByRole('button', { name: n.open }).click();
    // The dashboard's ?ePakId= opens it where ePaks are opened, the signing page.
    await expect(page).toHaveURL(new RegExp(`/sign\\?ePakId=${ePakId}`));
    await expect(page.getByTestId('notification-toast')).toHaveCount(0);
    expect(await page.evaluate(() => (window as unknown as { paktNoReload?: boolean }).paktNoReload)).toBe(true);
  });
});
