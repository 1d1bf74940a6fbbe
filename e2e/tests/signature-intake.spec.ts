import { expect, test } from './fixtures';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startedEpakThroughApi } from './api';
import { apiHeadersOf, bundles, h1, saveScreenshotAtBothSizes, signUpAndConfirm } from './support';

const { en } = bundles;
const CORPUS = fileURLToPath(new URL('../../../shared/corpus/pdfs/', import.meta.url));

/** A signed corpus file with one byte of its header's binary comment changed: it opens, and its signature no longer holds. */
function tamperedSignedPdf(): Buffer {
  const bytes = fs.readFileSync(`${CORPUS}signed-pades-b.pdf`);
  bytes[11]! ^= 0x01;
  return bytes;
}

// Desktop only: compose and the ceremony show the note on the same elements at both sizes; the
// phone's fit is checked from this run (saveScreenshotAtBothSizes).
test('a custodian is told at compose, and the signer at signing, that a file’s own signature does not hold', async ({ page, request }, testInfo) => {
  test.setTimeout(180_000);
  const project = testInfo.project.name;
  const owner = { email: `meera.${project}@intake.test`, firstName: 'Meera', lastName: 'Nair', orgName: `Nair Legal ${project}`, password: 'Intake-password-2025' };
  const tampered = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'pakt-intake-')), 'amended-deed.pdf');
  fs.writeFileSync(tampered, tamperedSignedPdf());
  const subject = `Amended deed (${project})`;

  await test.step('two signed files are uploaded in compose: the sound one is named intact, the altered one raises an alert', async () => {
    await signUpAndConfirm(page, request, owner);
    await page.goto('/compose');
    await expect(h1(page)).toHaveText(en.compose.title);
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: en.compose.upload.choose }).click();
    await (await chooser).setFiles([`${CORPUS}signed-pkcs7-2sigs.pdf`, tampered]);
    const chosen = page.getByRole('list', { name: en.compose.documents.chosen_other.replace('{{count}}', '2') });
    await expect(chosen.getByRole('listitem')).toHaveCount(2, { timeout: 30_000 });
    const sound = chosen.getByRole('listitem', { name: 'signed-pkcs7-2sigs.pdf' }).getByTestId('signature-state');
    await expect(sound).toHaveAttribute('data-status', 'intact');
    await expect(sound).toHaveText('Signed before upload: 2 signatures (signpdf, SignPdf), intact.');
    const altered = chosen.getByRole('listitem', { name: 'amended-deed.pdf' }).getByTestId('signature-state');
    await expect(altered).toHaveAttribute('data-status', 'broken');
    await expect(altered).toContainText(en.signatureState.broken_one);
    await expect(altered).toContainText('changed after good-user signed it');
    await saveScreenshotAtBothSizes(page, 'compose-signature-state');
  });

  await test.step('the altered file is sent to its owner to sign: the ceremony shows the same alert above the pages', async () => {
    const headers = await apiHeadersOf(request, owner.email, owner.password);
    // Sent with a signature field for its signer (an ePak is not sent without, -62).
    const epak = await startedEpakThroughApi(request, {
      headers,
      file: { name: 'amended-deed.pdf', mimeType: 'application/pdf', buffer: tamperedSignedPdf() },
      subject,
      signingPolicy: 'QUICKSIGN',
      steps: [{ type: 'SIGN', recipients: [owner.email] }],
    });
    // The state found at upload goes with the document into the ePak.
    expect(epak.documents[0]!.signatureState?.status).toBe('broken');

    await page.goto(`/sign?ePakId=${epak.ePakId}`);
    await expect(page.getByRole('heading', { level: 1, name: subject })).toBeVisible();
    const note = page.getByTestId('signature-state');
    await expect(note).toHaveAttribute('data-status', 'broken');
    await expect(note).toContainText(en.signatureState.broken_one);
    await expect(page.locator('[data-testid="tag-editor-page"][data-rendered="true"]').first()).toBeVisible({ timeout: 20_000 });
    await saveScreenshotAtBothSizes(page, 'signing-signature-state');
  });
});
