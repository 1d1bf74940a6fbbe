import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { actOnEpakDocument, createSignatureBlocks, exchangeEasyToken, signEpakDocument, startEpak, type TagInput } from '@pakt/domain';
import { callData, composedEpakThroughApi } from './api';
import { e2eServer, expect, test, type ReceivedMail } from './fixtures';
import { apiHeadersOf, bundles, saveScreenshotAtBothSizes, signUpThroughApi } from './support';

const { en } = bundles;
const CORPUS = fileURLToPath(new URL('../../../shared/corpus/pdfs/', import.meta.url));

// This worker's server delivers over SMTP to a real SMTP server on loopback (fixtures.ts): mail
// is read as it arrived, not from the outbox.
test.use({ mailServer: true });

interface MimePart {
  readonly headers: string;
  readonly body: string;
}

/** The leaf parts of a MIME message, multiparts opened recursively (enough for the mail we send). */
function leafParts(raw: string): MimePart[] {
  const split = raw.indexOf('\r\n\r\n');
  const headers = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const body = raw.slice(split + 4);
  const boundary = /content-type:\s*multipart\/[^;]+;[^\r\n]*boundary="?([^";\r\n]+)"?/i.exec(headers)?.[1];
  if (!boundary) return [{ headers, body }];
  return body
    .split(`--${boundary}`)
    .slice(1)
    .filter((part) => !part.startsWith('--'))
    .flatMap((part) => leafParts(part.replace(/^\r\n/, '')));
}

/** A part's content, its transfer encoding undone. */
function decoded(part: MimePart): Buffer {
  const encoding = /content-transfer-encoding:\s*([\w-]+)/i.exec(part.headers)?.[1]?.toLowerCase();
  if (encoding === 'base64') return Buffer.from(part.body.replace(/\s+/g, ''), 'base64');
  if (encoding === 'quoted-printable') {
    return Buffer.from(part.body.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1');
  }
  return Buffer.from(part.body, 'latin1');
}

const subjectOf = (mail: ReceivedMail) => /^subject:\s*(.*)$/im.exec(mail.raw)?.[1]?.trim() ?? '';
const textOf = (mail: ReceivedMail) => decoded(leafParts(mail.raw).find((part) => /content-type:\s*text\/plain/i.test(part.headers))!).toString('utf8');
const pdfAttachments = (mail: ReceivedMail) => leafParts(mail.raw).filter((part) => /content-type:\s*application\/pdf/i.test(part.headers));

/** The newest mail to `to` whose subject starts with `subject`, once it has arrived. */
async function delivered(to: string, subject: string): Promise<ReceivedMail> {
  const find = () => [...e2eServer().mails!].reverse().find((mail) => mail.to.includes(to) && subjectOf(mail).startsWith(subject));
  await expect.poll(() => find() !== undefined, { message: `a mail "${subject}…" to ${to}`, timeout: 30_000 }).toBe(true);
  return find()!;
}

test('every participant of a completed ePak receives the signed documents by mail', async ({ page, request }) => {
  test.setTimeout(180_000);
  const owner = { email: 'devika@completion-mail.test', firstName: 'Devika', lastName: 'Rao', orgName: 'Rao Legal', password: 'Completion-mail-2026' };
  const signers = [
    { email: 'first.party@elsewhere.test', name: 'Irfan Sheikh' },
    { email: 'second.party@elsewhere.test', name: 'Lata Menon' },
  ];
  const subject = 'Partnership deed';
  let ePakId = '';

  await test.step('the owner signs up; the confirmation arrives over SMTP and the link in it works', async () => {
    await signUpThroughApi(request, owner);
    const confirm = textOf(await delivered(owner.email, 'Confirm your email address for Pakt'));
    const link = new URL(/https?:\/\/\S+/.exec(confirm)![0]);
    await page.goto(link.pathname + link.search);
    await expect(page.getByText(en.thanks.ready.replace('{{name}}', owner.firstName).replace('{{tenant}}', owner.orgName))).toBeVisible();
  });

  await test.step('an ePak to two outsiders, who each sign through their mailed link', async () => {
    const headers = await apiHeadersOf(request, owner.email, owner.password);
    const epak = await composedEpakThroughApi(request, {
      headers,
      file: { name: 'deed.pdf', mimeType: 'application/pdf', buffer: fs.readFileSync(`${CORPUS}plain-1p-libreoffice.pdf`) },
      subject,
      signingPolicy: 'QUICKSIGN',
      steps: [{ type: 'SIGN', recipients: signers.map((signer) => signer.email) }],
    });
    ePakId = epak.ePakId;
    const documentId = epak.documents[0]!.documentId;
    const tags: TagInput[] = signers.map((signer, index) => ({
      uuid: randomUUID(),
      type: 'signature',
      pageNumber: 1,
      positionX: 60 + index * 220,
      positionY: 620,
      blockWidth: 160,
      blockHeight: 44,
      userEmail: signer.email,
      wfsOrderId: 1,
    }));
    await callData(request, createSignatureBlocks, { headers, params: { ePakId, documentId }, body: { tags } });
    await callData(request, startEpak, { headers, params: { ePakId } });
    for (const [index, signer] of signers.entries()) {
      const asked = textOf(await delivered(signer.email, 'Please sign'));
      const token = /\/emailsign\?token=([A-Za-z0-9_-]+)/.exec(asked)![1]!;
      const { accessToken } = await callData(request, exchangeEasyToken, { params: { easytoken: token } });
      const linkHeaders = { authorization: `Bearer ${accessToken}` };
      // Read first: the tenant may ask that a document be opened before it is signed.
      await callData(request, actOnEpakDocument, { headers: linkHeaders, params: { epakId: ePakId, documentId, action: 'view' } });
      await callData(request, signEpakDocument, {
        headers: linkHeaders,
        params: { ePakId, documentId },
        body: { values: [{ uuid: tags[index]!.uuid, value: signer.name }], signerName: signer.name },
      });
    }
  });

  await test.step('the owner and both signers each get one "Completed" mail with the signed PDF attached', async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'pakt-completion-mail-'));
    for (const to of [owner.email, ...signers.map((signer) => signer.email)]) {
      const mail = await delivered(to, `Completed: ${subject}`);
      expect(e2eServer().mails!.filter((other) => other.to.includes(to) && subjectOf(other).startsWith('Completed:'))).toHaveLength(1);
      const [attachment, ...others] = pdfAttachments(mail);
      expect(others).toHaveLength(0);
      expect(attachment!.headers).toMatch(/filename="?deed\.pdf"?/i);
      const file = path.join(folder, `${to}.pdf`);
      fs.writeFileSync(file, decoded(attachment!));
      const checked = spawnSync('pdfsig', [file], { encoding: 'utf8' });
      expect((checked.stdout.match(/Signature Validation: Signature is Valid\./g) ?? []).length, checked.stdout).toBe(2);
      expect(checked.stdout).not.toContain('Digest Mismatch');
    }
    fs.rmSync(folder, { recursive: true, force: true });
  });

  await test.step('the owner sees the ePak completed', async () => {
    await page.goto(`/sign?ePakId=${ePakId}`);
    await expect(page.getByTestId('epak-status')).toHaveText(en.compose.status.Completed);
    await saveScreenshotAtBothSizes(page, 'completion-mail-owner');
  });
});
