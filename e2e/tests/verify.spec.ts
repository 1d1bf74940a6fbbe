import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createEpak, createSignatureBlocks, downloadEpakDocument, listWorkflowStates, signEpakDocument, startEpak, uploadDocument } from '@pakt/domain';
import { call, callData } from './api';
import { expect, test } from './fixtures';
import { apiHeadersOf, bundles, saveScreenshotAtBothSizes, signUpAndConfirm } from './support';

const { en } = bundles;
const V = en.verify;
const CORPUS = fileURLToPath(new URL('../../../shared/corpus/pdfs/', import.meta.url));

// Desktop only: the same steps on the same elements at both sizes; the phone's fit is checked
// from this run (saveScreenshotAtBothSizes).
test('a stranger verifies a Pakt-sealed PDF at /verify, then a tampered copy', async ({ browser, page, request }, testInfo) => {
  test.setTimeout(180_000);
  const project = testInfo.project.name;
  const owner = { email: `anika.${project}@verify.test`, firstName: 'Anika', lastName: 'Bose', orgName: `Bose Traders ${project}`, password: 'Verify-password-2025' };
  const subject = `Supply agreement (${project})`;
  let sealed = Buffer.alloc(0);

  await test.step('an owner signs a document through Pakt and keeps the signed PDF', async () => {
    await signUpAndConfirm(page, request, owner);
    const headers = await apiHeadersOf(request, owner.email, owner.password);
    const uploaded = await callData(request, uploadDocument, { headers, file: { name: 'supply.pdf', mimeType: 'application/pdf', buffer: fs.readFileSync(`${CORPUS}plain-1p-libreoffice.pdf`) } });
    const { states } = await callData(request, listWorkflowStates, { headers });
    const sign = states.find((state) => state.type === 'SIGN')!.workflowStateId;
    const epak = await callData(request, createEpak, {
      headers,
      body: { subject, documentIds: [uploaded.documentId], signingPolicy: 'ESIGNATURE', steps: [{ workflowStateId: sign, recipients: [{ email: owner.email }] }] },
    });
    const documentId = epak.documents[0]!.documentId;
    const tag = { uuid: randomUUID(), type: 'signature' as const, pageNumber: 1, positionX: 60, positionY: 600, blockWidth: 160, blockHeight: 50, userEmail: owner.email, wfsOrderId: 1 };
    // An e-signature asks its signer for a reason: the tag where it is written.
    const reason = { ...tag, uuid: randomUUID(), type: 'reason' as const, positionY: 655, blockWidth: 200, blockHeight: 20 };
    await callData(request, createSignatureBlocks, { headers, params: { ePakId: epak.ePakId, documentId }, body: { tags: [tag, reason] } });
    await callData(request, startEpak, { headers, params: { ePakId: epak.ePakId } });
    await callData(request, signEpakDocument, { headers, params: { ePakId: epak.ePakId, documentId }, body: { values: [{ uuid: tag.uuid, value: 'Anika Bose' }] } });
    const download = await call(request, downloadEpakDocument, { headers, params: { ePakId: epak.ePakId, documentId } });
    expect(download.ok()).toBe(true);
    sealed = Buffer.from(await download.body());
  });

  // Someone who received the file and has no account here.
  const context = await browser.newContext({ viewport: testInfo.project.use.viewport! });
  const stranger = await context.newPage();
  const drop = async (name: string, bytes: Buffer) => {
    const chooser = stranger.waitForEvent('filechooser');
    await stranger.getByRole('button', { name: V.drop.choose }).click();
    await (await chooser).setFiles({ name, mimeType: 'application/pdf', buffer: bytes });
  };

  await test.step('the stranger opens /verify signed out, drops the sealed PDF, and reads a valid report naming the signer', async () => {
    await stranger.goto('/verify');
    await expect(stranger.getByRole('heading', { level: 1, name: V.title })).toBeVisible();
    await drop('supply-signed.pdf', sealed);
    const verdict = stranger.getByTestId('verify-verdict');
    await expect(verdict).toHaveAttribute('data-verdict', 'valid', { timeout: 30_000 });
    const record = stranger.getByRole('region', { name: V.pakt.heading });
    await expect(record).toContainText(owner.orgName);
    await expect(record).toContainText(subject);
    await expect(record).toContainText('Anika Bose');
    await expect(record).toContainText(V.pakt.current);
    await expect(stranger.getByRole('region', { name: V.signatures.heading }).getByRole('listitem')).toHaveCount(1);
    await expect(stranger.getByRole('region', { name: V.signatures.heading })).toContainText(owner.orgName);
    await saveScreenshotAtBothSizes(stranger, 'verify-valid');
  });

  await test.step('a copy with one signed byte changed is reported invalid, its signature broken and why', async () => {
    await stranger.getByRole('button', { name: V.another }).click();
    const tampered = Buffer.from(sealed);
    // A byte of the header's binary comment: the file still opens, but it is not what was signed.
    tampered[11]! ^= 0x01;
    await drop('supply-tampered.pdf', tampered);
    await expect(stranger.getByTestId('verify-verdict')).toHaveAttribute('data-verdict', 'invalid', { timeout: 30_000 });
    const signature = stranger.getByRole('region', { name: V.signatures.heading }).getByRole('listitem').first();
    await expect(signature).toHaveAttribute('data-integrity', 'broken');
    await expect(signature).toContainText('the signed bytes were changed after signing');
    // A changed file is no longer the one Pakt recorded.
    await expect(stranger.getByRole('region', { name: V.pakt.heading })).toHaveCount(0);
    await saveScreenshotAtBothSizes(stranger, 'verify-invalid');
  });
  await context.close();
});
