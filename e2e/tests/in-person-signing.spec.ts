import type { APIRequestContext, Page, TestInfo } from '@playwright/test';
import { expect, test } from './fixtures';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createSignatureBlocks, getEpakActivity, startEpak, type TagInput } from '@pakt/domain';
import { callData, composedEpakThroughApi } from './api';
import { apiHeadersOf, bundles, expectNoHorizontalOverflow, linkIn, rootMail, saveViewportScreenshot, signUpAndConfirm } from './support';

const { en } = bundles;
const signing = en.signing;
const inPerson = signing.inPerson;

const CORPUS = fileURLToPath(new URL('../../../shared/corpus/pdfs/', import.meta.url));
const PLAIN = 'plain-1p-libreoffice.pdf';

const named = (text: string, values: Record<string, string>) => Object.entries(values).reduce((out, [key, value]) => out.replace(`{{${key}}}`, value), text);

/**
 * The six-digit code in the newest in-person code mail to the signer. It is the signer's, so root
 * reads it (on this install without SMTP root hands mail on; an admin's outbox shows no text).
 */
async function mailedCode(request: APIRequestContext, to: string, subject: string): Promise<string> {
  const mail = await rootMail(request, { recipient: to, subject: `Your code to sign "${subject}" in person` });
  return /\b(\d{6})\b/.exec(mail.body)![1]!;
}

/** A code that is surely not the one mailed: each digit moved on by one. */
const wrong = (code: string) => code.replace(/\d/g, (digit) => String((Number(digit) + 1) % 10));

/** The viewport once nothing moves (a transition cut short by a layout change would reject while waited on). */
async function screenshotWhenStill(page: Page, testInfo: TestInfo, name: string) {
  await page.waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== 'running'));
  await saveViewportScreenshot(page, testInfo, name);
}

// @phone: the host's device is a phone in the phone run: the signer's turn shows the ceremony with its
// panel below the page, and the signature is drawn on a pad as narrow as a phone.
test('the owner hosts an in-person signing: the signer confirms a mailed code, signs on her device, and her own view comes back', { tag: '@phone' }, async ({ page, request }, testInfo) => {
  test.setTimeout(180_000);
  const project = testInfo.project.name;
  const host = { email: `nisha.${project}@inperson.test`, firstName: 'Nisha', lastName: 'Kapoor', orgName: `Kapoor Notaries ${project}`, password: 'In-person-password-2025' };
  const signer = `vikram.${project}@inperson.test`;
  const signerName = signer.split('@')[0]!;
  const subject = `Affidavit of residence (${project})`;
  let ePakId = '';
  let headers: Record<string, string> = {};

  await test.step('an ePak with one in-person signing step is composed and started through the API', async () => {
    await signUpAndConfirm(page, request, host);
    headers = await apiHeadersOf(request, host.email, host.password);
    const epak = await composedEpakThroughApi(request, {
      headers,
      file: { name: PLAIN, mimeType: 'application/pdf', buffer: fs.readFileSync(`${CORPUS}${PLAIN}`) },
      subject,
      signingPolicy: 'QUICKSIGN',
      steps: [{ type: 'INPERSONSIGN', recipients: [signer] }],
    });
    ePakId = epak.ePakId;
    const signature: TagInput = { uuid: randomUUID(), type: 'signature', pageNumber: 1, positionX: 60, positionY: 600, blockWidth: 160, blockHeight: 50, userEmail: signer, wfsOrderId: 1 };
    await callData(request, createSignatureBlocks, { headers, params: { ePakId, documentId: epak.documents[0]!.documentId }, body: { tags: [signature] } });
    await callData(request, startEpak, { headers, params: { ePakId } });
  });

  const startButton = () => page.getByRole('button', { name: named(inPerson.start, { name: signerName }) });
  const dialog = () => page.getByRole('dialog', { name: named(inPerson.dialogTitle, { name: signerName }) });
  // The host's session is her httpOnly refresh cookie (the access token is in the page's memory):
  // the signer's turn must neither replace nor rotate it.
  const hostToken = async () => (await page.context().cookies()).find((cookie) => cookie.name === 'pakt_refresh')?.value;

  await test.step('the host opens the ePak from her mail: the step waits for someone to sign with her', async () => {
    const link = linkIn(await rootMail(request, { recipient: host.email, subject: `Sign in person: ${subject}` }));
    expect(link.pathname + link.search).toBe(`/sign?ePakId=${ePakId}&tenant=${headers['x-tenant-id']}`);
    await page.goto(link.pathname + link.search);
    await expect(page.getByRole('heading', { level: 1, name: subject })).toBeVisible();
    await expect(page.getByTestId('why-not')).toHaveText(signing.whyNot.hostInPerson);
    await expect(startButton()).toBeVisible();
    await expectNoHorizontalOverflow(page);
    await startButton().scrollIntoViewIfNeeded();
    await screenshotWhenStill(page, testInfo, 'in-person-host-before');
  });

  await test.step('a code is mailed to the signer; a wrong one is refused and said so', async () => {
    await startButton().click();
    await dialog().getByRole('button', { name: inPerson.send }).click();
    // The address is shown masked, as the server words it.
    await expect(dialog().getByRole('status')).toContainText(named(inPerson.sentOutbox.split('{{email}}')[0]!, { name: signerName }));
    const code = await mailedCode(request, signer, subject);
    await dialog().getByLabel(new RegExp(`^${inPerson.code}`)).fill(wrong(code));
    await dialog().getByRole('button', { name: inPerson.confirm }).click();
    await expect(dialog().getByTestId('in-person-error')).toHaveText(inPerson.errors.wrongCode);
    await screenshotWhenStill(page, testInfo, 'in-person-wrong-code');
  });

  await test.step('with the right code the screen is the signer’s; ending the turn gives it back unsigned', async () => {
    const before = await hostToken();
    const code = await mailedCode(request, signer, subject);
    await dialog().getByLabel(new RegExp(`^${inPerson.code}`)).fill(code);
    await dialog().getByRole('button', { name: inPerson.confirm }).click();
    const turn = page.getByTestId('in-person-turn');
    await expect(turn.getByTestId('in-person-banner')).toHaveText(named(inPerson.banner, { name: signerName }));
    await expect(turn.getByRole('button', { name: signing.actions.sign, exact: true })).toBeVisible();
    // The app's own menu and account are behind the signer's screen, out of reach.
    const account = page.getByRole('button', { name: en.shell.accountMenu.replace('{{name}}', `${host.firstName} ${host.lastName}`) });
    const covered = await account.evaluate((button) => {
      const box = button.getBoundingClientRect();
      const onTop = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
      return !button.contains(onTop) && onTop?.closest('[data-testid="in-person-turn"]') !== null;
    });
    expect(covered, 'the host’s account menu is under the signer’s screen').toBe(true);
    expect(await hostToken()).toBe(before);
    await turn.getByRole('button', { name: inPerson.end }).click();
    await expect(page.getByTestId('in-person-ended')).toContainText(named(inPerson.ended.cancelled, { name: signerName }));
    await expect(turn).toHaveCount(0);
    await expect(startButton()).toBeVisible();
  });

  await test.step('a new code, and the signer draws their signature and signs on the host’s device', async () => {
    const before = await hostToken();
    await startButton().click();
    await dialog().getByRole('button', { name: inPerson.send }).click();
    await expect(dialog().getByLabel(new RegExp(`^${inPerson.code}`))).toBeVisible();
    await dialog().getByLabel(new RegExp(`^${inPerson.code}`)).fill(await mailedCode(request, signer, subject));
    await dialog().getByRole('button', { name: inPerson.confirm }).click();
    const turn = page.getByTestId('in-person-turn');
    await expect(turn.locator('[data-testid="tag-editor-page"][data-rendered="true"]')).toHaveCount(1, { timeout: 20_000 });
    const field = turn.locator('[data-testid="signing-tag"][role="button"]');
    await field.scrollIntoViewIfNeeded();
    await field.click();
    // Known to Pakt only by address, the signer types the name they sign under (issue 22).
    await page.getByRole('dialog', { name: signing.signature.title }).getByLabel(signing.name.label).fill('Vikram Singh');
    const pad = page.getByRole('dialog', { name: signing.signature.title }).getByTestId('signature-pad');
    const area = (await pad.boundingBox())!;
    await page.mouse.move(area.x + 30, area.y + area.height * 0.6);
    await page.mouse.down();
    for (let i = 1; i <= 12; i++) await page.mouse.move(area.x + 30 + i * 18, area.y + area.height * (0.6 - 0.25 * Math.cos(i / 2)), { steps: 3 });
    await page.mouse.up();
    await page.getByRole('button', { name: signing.signature.adopt }).click();
    await expect(field.locator('img')).toBeVisible();
    await turn.evaluate((element) => element.scrollTo(0, 0));
    await expectNoHorizontalOverflow(page);
    await screenshotWhenStill(page, testInfo, 'in-person-turn');

    await turn.getByRole('button', { name: signing.actions.sign, exact: true }).click();
    await expect(page.getByTestId('in-person-ended')).toContainText(named(inPerson.ended.signed, { name: signerName }), { timeout: 30_000 });
    await expect(turn).toHaveCount(0);
    await expect(page.getByTestId('epak-status')).toHaveText(en.compose.status.Completed);
    await expect(page.getByTestId('step-recipient')).toContainText(en.compose.recipientStatus.Signed);
    await expect(startButton()).toHaveCount(0);
    expect(await hostToken(), 'the host’s session is the one she had').toBe(before);
    await expect(page.locator('[data-testid="tag-editor-page"][data-rendered="true"]')).toHaveCount(1, { timeout: 20_000 });
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshotWhenStill(page, testInfo, 'in-person-host-after');
  });

  await test.step('the signature is the signer’s: the activity log says who signed', async () => {
    const { entries } = await callData(request, getEpakActivity, { headers, params: { ePakId } });
    expect(entries.filter((entry) => entry.action === 'signed').map((entry) => entry.actor?.email)).toEqual([signer]);
  });
});
