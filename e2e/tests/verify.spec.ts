import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { createSignatureBlocks, downloadEpak, downloadEpakDocument, signEpakDocument, startEpak } from '@pakt/domain';
import { call, callData, composedEpakThroughApi } from './api';
import { expect, test } from './fixtures';
import { apiHeadersOf, bundles, expectValidSignedPdf, saveScreenshotAtBothSizes, signUpAndConfirm } from './support';

const { en } = bundles;
const V = en.verify;
const CORPUS = fileURLToPath(new URL('../../../shared/corpus/pdfs/', import.meta.url));
// E2E_SCREENSHOT_DIR collects this journey's pictures (the certificate's page) apart from the others'.
const SHOTS = process.env.E2E_SCREENSHOT_DIR ?? '/tmp/verify-shots';

/** One entry of a zip (the downloads store entries uncompressed), found through the central directory. */
function zipEntry(zip: Buffer, name: string): Buffer {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  let at = zip.readUInt32LE(end + 16);
  for (let entry = 0; entry < zip.readUInt16LE(end + 10); entry++) {
    const size = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const local = zip.readUInt32LE(at + 42);
    if (zip.subarray(at + 46, at + 46 + nameLength).toString('utf8') === name) {
      const data = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
      return zip.subarray(data, data + size);
    }
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  throw new Error(`no ${name} in the zip`);
}

// Desktop only: the same steps on the same elements at both sizes; the phone's fit is checked
// from this run (saveScreenshotAtBothSizes).
test('a stranger verifies a Pakt-sealed PDF at /verify, then a tampered copy', async ({ browser, page, request }, testInfo) => {
  test.setTimeout(180_000);
  const project = testInfo.project.name;
  const owner = { email: `anika.${project}@verify.test`, firstName: 'Anika', lastName: 'Bose', orgName: `Bose Traders ${project}`, password: 'Verify-password-2025' };
  const subject = `Supply agreement (${project})`;
  let sealed: Buffer = Buffer.alloc(0);
  let certificate: Buffer = Buffer.alloc(0);

  await test.step('an owner signs a document through Pakt and keeps the signed PDF', async () => {
    await signUpAndConfirm(page, request, owner);
    const headers = await apiHeadersOf(request, owner.email, owner.password);
    const epak = await composedEpakThroughApi(request, {
      headers,
      file: { name: 'supply.pdf', mimeType: 'application/pdf', buffer: fs.readFileSync(`${CORPUS}plain-1p-libreoffice.pdf`) },
      subject,
      signingPolicy: 'ESIGNATURE',
      steps: [{ type: 'SIGN', recipients: [owner.email] }],
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
    // The ePak has ended: its download carries the certificate of completion, with its QR code.
    const zip = await call(request, downloadEpak, { headers, params: { ePakId: epak.ePakId } });
    expect(zip.ok()).toBe(true);
    certificate = zipEntry(Buffer.from(await zip.body()), 'certificate-of-completion.pdf');
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

    // The report to keep: a PDF sealed by this install, checked again on the server.
    const saving = stranger.waitForEvent('download');
    await stranger.getByRole('button', { name: V.downloadPdf }).click();
    const download = await saving;
    expect(download.suggestedFilename()).toBe('supply-signed - verification report.pdf');
    const { folder, pdf } = expectValidSignedPdf(fs.readFileSync(await download.path()), 1, 'pakt-report-');
    expect(execFileSync('pdftotext', [pdf, '-'], { encoding: 'utf8' })).toContain('Valid: every signature is intact');
    if (process.env.E2E_SCREENSHOTS === '1') {
      fs.mkdirSync(SHOTS, { recursive: true });
      execFileSync('pdftoppm', ['-r', '80', '-f', '1', '-l', '1', '-png', '-singlefile', pdf, path.join(SHOTS, 'verification-report-page-1')]);
    }
    fs.rmSync(folder, { recursive: true, force: true });
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
  await test.step('the certificate’s QR code opens the public record, and the signed PDF is compared with it in the browser', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pakt-certificate-'));
    fs.writeFileSync(path.join(dir, 'certificate.pdf'), certificate);
    // The address printed beside the code, as someone without a phone would type it.
    const text = execFileSync('pdftotext', ['-raw', path.join(dir, 'certificate.pdf'), '-'], { encoding: 'utf8' }).replace(/\s+/g, '');
    const link = /https?:\/\/[^/]+(\/verify\?record=[0-9a-f-]{36}\.[0-9a-f]{64}\.[A-Za-z0-9_-]{43})/.exec(text);
    expect(link, text.slice(0, 1500)).not.toBeNull();
    if (process.env.E2E_SCREENSHOTS === '1') {
      fs.mkdirSync(SHOTS, { recursive: true });
      execFileSync('pdftoppm', ['-r', '100', '-f', '1', '-l', '1', '-png', '-singlefile', path.join(dir, 'certificate.pdf'), path.join(SHOTS, 'certificate-page-1')]);
    }
    fs.rmSync(dir, { recursive: true, force: true });

    await stranger.goto(link![1]!);
    const record = stranger.getByTestId('verify-record');
    await expect(record).toContainText(V.record.heading);
    await expect(record).toContainText(owner.orgName);
    // The tenant did not allow names on the public record.
    await expect(stranger.getByTestId('verify-record-private')).toBeVisible();
    await drop('supply-signed.pdf', sealed);
    await expect(stranger.getByTestId('verify-record-match')).toHaveAttribute('data-match', 'true');
    await expect(stranger.getByTestId('verify-record-match')).toContainText(V.record.match.replace('{{number}}', '1'));
    await saveScreenshotAtBothSizes(stranger, 'verify-record');
    await stranger.getByRole('button', { name: V.record.checkSignatures }).click();
    await expect(stranger.getByTestId('verify-verdict')).toHaveAttribute('data-verdict', 'valid', { timeout: 30_000 });
  });
  await context.close();
});
