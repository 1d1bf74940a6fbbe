import type { Browser, Page, TestInfo } from '@playwright/test';
import { expect, test } from './fixtures';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createEpak, createSignatureBlocks, downloadEpakDocument, getEpak, getSignatureBlocks, listDocumentTemplates, listWorkflowStates, uploadDocument, type TagInput } from '@pakt/domain';
import { call, callData } from './api';
import { adoptTypedSignature, apiHeadersOf, bundles, captureAtBothSizes, composeGoTo, composeStep, expectNoHorizontalOverflow, expectValidSignedPdf, inviteAndRegister, signInWith, signUpAndConfirm } from './support';

const { en } = bundles;
const copy = en.docTemplates;
const signing = en.signing;

const CORPUS = fileURLToPath(new URL('../../../shared/corpus/pdfs/', import.meta.url));
const PLAIN = 'plain-1p-libreoffice.pdf';
const SHOTS = '/tmp/h1-shots';

/** A browser of the person's own (their own cookies and storage), at the size of this project. */
async function ownBrowser(browser: Browser, testInfo: TestInfo): Promise<Page> {
  const phone = testInfo.project.name === 'phone';
  const context = await browser.newContext({ viewport: testInfo.project.use.viewport!, isMobile: phone, hasTouch: phone });
  return context.newPage();
}

/** The screen at both sizes from the desktop run (the phone run would write the same files); the phone run checks its own fit. */
async function look(page: Page, testInfo: TestInfo, name: string) {
  if (testInfo.project.name === 'desktop') await captureAtBothSizes(page, SHOTS, name);
  else await expectNoHorizontalOverflow(page);
}

test('a custodian saves an ePak as a template, composes from it for another signer, and the signed PDF is valid', async ({ page, request, browser }, testInfo) => {
  test.setTimeout(240_000);
  const project = testInfo.project.name;
  const owner = { email: `kavya.${project}@doctemplates.test`, firstName: 'Kavya', lastName: 'Menon', orgName: `Menon Estates ${project}`, password: 'Templates-password-2025' };
  const custodian = { email: `dev.${project}@doctemplates.test`, firstName: 'Dev', lastName: 'Pillai', password: 'Custodian-password-2025' };
  const firstSigner = { email: `asha.${project}@doctemplates.test`, firstName: 'Asha', lastName: 'Rao', password: 'Signer-password-2025' };
  const secondSigner = { email: `bala.${project}@doctemplates.test`, firstName: 'Bala', lastName: 'Iyer', password: 'Signer-password-2025' };
  const templateName = `Tenancy agreement (${project})`;
  const subject = `Tenancy for Bala (${project})`;
  const signatureUuid = randomUUID();
  let ePakId = '';
  let documentId = '';

  await signUpAndConfirm(page, request, owner);
  const ownerHeaders = await apiHeadersOf(request, owner.email, owner.password);
  await inviteAndRegister(request, ownerHeaders, custodian, 'custodian');
  await inviteAndRegister(request, ownerHeaders, firstSigner, 'signer');
  await inviteAndRegister(request, ownerHeaders, secondSigner, 'signer');
  const headers = await apiHeadersOf(request, custodian.email, custodian.password);

  const desk = await ownBrowser(browser, testInfo);
  await desk.goto('/login');
  await signInWith(desk, custodian.email, custodian.password);
  await expect(desk).not.toHaveURL(/\/login/);

  await test.step('the custodian composes an ePak for Asha with her signature field, and saves it as a template', async () => {
    const uploaded = await callData(request, uploadDocument, { headers, file: { name: PLAIN, mimeType: 'application/pdf', buffer: fs.readFileSync(`${CORPUS}${PLAIN}`) } });
    const { states } = await callData(request, listWorkflowStates, { headers });
    const epak = await callData(request, createEpak, {
      headers,
      body: {
        subject: `Tenancy for Asha (${project})`,
        documentIds: [uploaded.documentId],
        signingPolicy: 'QUICKSIGN',
        steps: [{ workflowStateId: states.find((state) => state.type === 'SIGN')!.workflowStateId, recipients: [{ email: firstSigner.email }] }],
      },
    });
    const signature: TagInput = { uuid: signatureUuid, type: 'signature', pageNumber: 1, positionX: 60, positionY: 600, blockWidth: 160, blockHeight: 50, userEmail: firstSigner.email, wfsOrderId: 1 };
    await callData(request, createSignatureBlocks, { headers, params: { ePakId: epak.ePakId, documentId: epak.documents[0]!.documentId }, body: { tags: [signature] } });

    await desk.goto(`/compose?ePakId=${epak.ePakId}`);
    // Nothing is missing: the draft opens at its review, where it can be saved as a template.
    await expect(composeStep(desk, 'review')).toHaveAttribute('aria-current', 'step');
    await expect(desk.getByRole('status').filter({ hasText: en.compose.review.ready })).toBeVisible();
    await desk.getByRole('button', { name: copy.save.open }).click();
    const dialog = desk.getByRole('dialog', { name: copy.save.title });
    const name = dialog.getByRole('textbox', { name: copy.name });
    await expect(name).toHaveValue(`Tenancy for Asha (${project})`);
    await name.fill(templateName);
    await look(desk, testInfo, 'doc-templates-save-dialog');
    await dialog.getByRole('button', { name: copy.save.submit }).click();
    await expect(dialog).toBeHidden();
    const done = desk.getByRole('status').filter({ hasText: copy.save.done.replace('{{name}}', templateName) });
    await expect(done).toBeVisible();
    await done.scrollIntoViewIfNeeded();
    await look(desk, testInfo, 'doc-templates-saved');

    // The template names Asha's place, not Asha.
    const { templates } = await callData(request, listDocumentTemplates, { headers });
    expect(templates.find((one) => one.name === templateName)?.tags.find((tag) => tag.uuid === signatureUuid)?.userEmail).toBe('slot:1.1');
  });

  await test.step('composing from the template for Bala fills the document, its field and the workflow in one step', async () => {
    await desk.goto('/compose');
    await desk.getByRole('tab', { name: copy.tab }).click();
    const item = desk.getByRole('listitem', { name: templateName });
    await expect(item.getByText(copy.workflow.replace('{{name}}', templateName))).toBeVisible();
    await look(desk, testInfo, 'doc-templates-tab');
    await item.getByRole('button', { name: copy.useNamed.replace('{{name}}', templateName) }).click();
    await expect(item.getByText(copy.inUse)).toBeVisible();
    await expect(desk.getByTestId('compose-template-document')).toContainText(PLAIN);
    await composeGoTo(desk, 'recipients');
    // The workflow's one place, a placeholder, waits for an address.
    const place = desk.getByRole('combobox', { name: 'Sign 1', exact: true });
    await place.fill(secondSigner.email);
    await desk.getByRole('textbox', { name: en.compose.details.subject }).fill(subject);
    await look(desk, testInfo, 'doc-templates-compose-filled');
    await composeGoTo(desk, 'fields');
    await expect(desk).toHaveURL(/\/compose\?ePakId=/);
    ePakId = new URL(desk.url()).searchParams.get('ePakId')!;
    await expect(desk.locator('[data-testid="tag-editor-page"][data-rendered="true"]').first()).toBeVisible({ timeout: 20_000 });
    const detail = await callData(request, getEpak, { headers, params: { ePakId } });
    expect(detail.documents.map((doc) => doc.name)).toEqual([PLAIN]);
    expect(detail.steps[0]!.recipients.map((recipient) => recipient.email)).toEqual([secondSigner.email]);
    documentId = detail.documents[0]!.documentId;
    const { tags } = await callData(request, getSignatureBlocks, { headers, params: { ePakId, documentId } });
    expect(tags.map((tag) => [tag.uuid, tag.userEmail])).toEqual([[signatureUuid, secondSigner.email]]);
    await look(desk, testInfo, 'doc-templates-draft');
    await composeGoTo(desk, 'review');
    await expect(desk.getByRole('status').filter({ hasText: en.compose.review.ready })).toBeVisible();
    await desk.getByRole('button', { name: en.compose.start.send }).click();
    await expect(desk.getByRole('status', { name: en.compose.start.sent })).toBeVisible();
    await desk.context().close();
  });

  await test.step('Bala signs; the PDF has one valid signature and passes qpdf', async () => {
    const signer = await ownBrowser(browser, testInfo);
    await signer.goto('/login');
    await signInWith(signer, secondSigner.email, secondSigner.password);
    await expect(signer).not.toHaveURL(/\/login/);
    await signer.goto(`/sign?ePakId=${ePakId}`);
    await expect(signer.locator('[data-testid="tag-editor-page"][data-rendered="true"]')).toHaveCount(1, { timeout: 20_000 });
    await adoptTypedSignature(signer, signatureUuid);
    await signer.getByRole('button', { name: signing.actions.sign, exact: true }).click();
    await expect(signer.getByTestId('signing-outcome')).toContainText(signing.outcome.signedCompleted, { timeout: 30_000 });
    await signer.context().close();

    const download = await call(request, downloadEpakDocument, { headers, params: { ePakId, documentId } });
    expect(download.ok()).toBe(true);
    const { folder } = expectValidSignedPdf(await download.body(), 1, 'pakt-doc-template-');
    fs.rmSync(folder, { recursive: true, force: true });
  });
});
