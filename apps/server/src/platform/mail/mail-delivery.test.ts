import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { asc, eq, ne } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { epakDocumentRevisions, epakDocuments, outbox } from '../db/schema';
import { pdfFileName } from '../../features/epaks/download';
import { startEpakWithEmailStep } from '../../test/email-step-support';
import { readCurrentDocument, revisionsOf } from '../../features/epaks/revisions';
import { LocalFileStorage } from '../storage/file-storage';
import { buildTestApp } from '../../test/test-app';
import { createTestDatabase, type TestDatabase } from '../../test/test-database';
import { pinnedDocumentOpener } from '../../features/epaks/pinned-document';
import { deliverOutbox, deliverQueued, MAX_DELIVERY_ATTEMPTS, type MailTransport, smsWebhookSender, smtpTransport } from './mail-delivery';
import { queueEmail, queueSms } from './outbox';

let database: TestDatabase;
let filesDir: string;
let storage: LocalFileStorage;
let server: SMTPServer;
let port: number;
const received: { to: string[]; data: string }[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  filesDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pakt-mail-files-'));
  storage = new LocalFileStorage(filesDir);
  // A real SMTP peer on loopback: the message crosses the protocol, not a mock.
  server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      let data = '';
      stream.on('data', (chunk: Buffer) => (data += chunk.toString()));
      stream.on('end', () => {
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), data });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await database.close();
  fs.rmSync(filesDir, { recursive: true, force: true });
});

describe('mail delivery', () => {
  it('sends queued mail over SMTP once and marks it sent', async () => {
    await queueEmail({ db: database.db, tenantId: null, to: 'asha@example.test', subject: 'Reset your Pakt password', body: 'Open https://pakt.test/x', kind: 'password-reset' });
    const transport = smtpTransport(`smtp://127.0.0.1:${port}`);
    expect(await deliverOutbox({ db: database.db, openAttachment: pinnedDocumentOpener(database.db, storage), transport, from: 'Pakt <no-reply@pakt.test>' })).toEqual({ sent: 1, failed: 0 });
    expect(received).toHaveLength(1);
    expect(received[0]!.to).toEqual(['asha@example.test']);
    expect(received[0]!.data).toContain('Subject: Reset your Pakt password');
    expect(received[0]!.data).toContain('Open https://pakt.test/x');
    const [row] = await database.db.select().from(outbox);
    expect(row!.sentAt).not.toBeNull();
    // Nothing left: a second run sends nothing more.
    expect(await deliverOutbox({ db: database.db, openAttachment: pinnedDocumentOpener(database.db, storage), transport, from: 'x@pakt.test' })).toEqual({ sent: 0, failed: 0 });
    expect(received).toHaveLength(1);
  });

  it('records a failure, retries it, and gives up after the attempt limit', async () => {
    await database.db.delete(outbox);
    await queueEmail({ db: database.db, tenantId: null, to: 'b@example.test', subject: 's', body: 'b', kind: 'test' });
    const failing: MailTransport = { sendMail: async () => Promise.reject(new Error('550 mailbox unavailable')) };
    for (let i = 0; i < MAX_DELIVERY_ATTEMPTS; i++) {
      expect(await deliverOutbox({ db: database.db, openAttachment: pinnedDocumentOpener(database.db, storage), transport: failing, from: 'x@pakt.test' })).toEqual({ sent: 0, failed: 1 });
    }
    expect(await deliverOutbox({ db: database.db, openAttachment: pinnedDocumentOpener(database.db, storage), transport: failing, from: 'x@pakt.test' })).toEqual({ sent: 0, failed: 0 });
    const [row] = await database.db.select().from(outbox).where(eq(outbox.recipient, 'b@example.test'));
    expect(row).toMatchObject({ sentAt: null, attempts: MAX_DELIVERY_ATTEMPTS, lastError: '550 mailbox unavailable' });
  });
});

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** The attached files of a message as nodemailer writes it (multipart/mixed, base64 parts). */
function attachmentsOf(raw: string): { filename: string; contentType: string; bytes: Buffer }[] {
  const boundary = /boundary="?([^";\r\n]+)"?/.exec(raw)?.[1];
  if (!boundary) return [];
  return raw
    .split(`--${boundary}`)
    .slice(1, -1)
    .flatMap((part) => {
      const split = part.indexOf('\r\n\r\n');
      const head = part.slice(0, split);
      const filename = /filename="?([^";\r\n]+)"?/.exec(head)?.[1];
      if (!filename || !/Content-Disposition: attachment/i.test(head)) return [];
      const contentType = /Content-Type: ([^;\r\n]+)/i.exec(head)![1]!;
      return [{ filename, contentType, bytes: Buffer.from(part.slice(split).replace(/\s+/g, ''), 'base64') }];
    });
}

describe('mail with documents attached (EMAIL steps)', () => {
  const from = 'Pakt <no-reply@pakt.test>';

  it('sends the documents as they stood at the step, read from storage when sending', async () => {
    const t = await buildTestApp();
    try {
      const { first, second, records, outsider, epak, signAll } = await startEpakWithEmailStep(t);
      const db = t.database.db;
      const docs = await db.select().from(epakDocuments).where(eq(epakDocuments.epakId, epak.ePakId)).orderBy(asc(epakDocuments.position));
      const currentDigests = async () => Promise.all(docs.map(async (doc) => sha256(await readCurrentDocument(t.context.storage, doc, await revisionsOf(db, doc.id)))));
      await signAll(first);
      const atStep = await currentDigests();
      // Signed again after the step: the mail must still carry the files as they were before.
      await signAll(second);
      const later = await currentDigests();
      expect(later).not.toEqual(atStep);

      const before = received.length;
      const queued = (await db.select().from(outbox)).length;
      const transport = smtpTransport(`smtp://127.0.0.1:${port}`);
      expect(await deliverOutbox({ db, openAttachment: pinnedDocumentOpener(db, t.context.storage), transport, from })).toEqual({ sent: queued, failed: 0 });
      const mails = received.slice(before);
      for (const to of [records.user.email, outsider]) {
        const mail = mails.find((m) => m.to[0] === to);
        expect(mail, to).toBeDefined();
        expect(mail!.data).toContain('Open them here: ');
        const files = attachmentsOf(mail!.data);
        expect(files.map((f) => [f.filename, f.contentType])).toEqual(docs.map((doc) => [pdfFileName(doc.name), 'application/pdf']));
        expect(files.map((f) => sha256(f.bytes))).toEqual(atStep);
      }
      // Mail without attachments goes out as before.
      const signRequest = mails.find((m) => m.to[0] === second.user.email);
      expect(signRequest && attachmentsOf(signRequest.data)).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it('fails only the messages whose stored file is missing, and retries them like any failure', async () => {
    const t = await buildTestApp();
    try {
      const { first, epak, signAll } = await startEpakWithEmailStep(t);
      const db = t.database.db;
      await signAll(first);
      const [doc] = await db.select().from(epakDocuments).where(eq(epakDocuments.epakId, epak.ePakId)).orderBy(asc(epakDocuments.position));
      const [revision] = await db.select().from(epakDocumentRevisions).where(eq(epakDocumentRevisions.epakDocumentId, doc!.id));
      await t.context.storage.delete(revision!.tailSha256);

      const others = await db.select().from(outbox).where(ne(outbox.kind, 'epak_documents'));
      const before = received.length;
      const transport = smtpTransport(`smtp://127.0.0.1:${port}`);
      expect(await deliverOutbox({ db, openAttachment: pinnedDocumentOpener(db, t.context.storage), transport, from })).toEqual({ sent: others.length, failed: 2 });
      expect(received.length - before).toBe(others.length);
      const failed = await db.select().from(outbox).where(eq(outbox.kind, 'epak_documents'));
      for (const row of failed) {
        expect(row).toMatchObject({ sentAt: null, attempts: 1 });
        expect(row.lastError).toBe(`attachment ${row.attachments![0]!.filename}: stored file ${revision!.tailSha256} of document ${doc!.id} is missing`);
      }
      // Tried again at the next run, as the attempt limit allows.
      expect(await deliverOutbox({ db, openAttachment: pinnedDocumentOpener(db, t.context.storage), transport, from })).toEqual({ sent: 0, failed: 2 });
    } finally {
      await t.close();
    }
  });

  it('aborts a message whose stored file was damaged instead of sending other bytes', async () => {
    const t = await buildTestApp();
    try {
      const { first, epak, signAll } = await startEpakWithEmailStep(t);
      const db = t.database.db;
      await signAll(first);
      const [doc] = await db.select().from(epakDocuments).where(eq(epakDocuments.epakId, epak.ePakId)).orderBy(asc(epakDocuments.position));
      const [revision] = await db.select().from(epakDocumentRevisions).where(eq(epakDocumentRevisions.epakDocumentId, doc!.id));
      const blob = path.join(t.context.config.filesDir, revision!.tailSha256.slice(0, 2), revision!.tailSha256.slice(2, 4), revision!.tailSha256);
      const damaged = fs.readFileSync(blob);
      const middle = damaged.length >> 1;
      damaged.writeUInt8(damaged.readUInt8(middle) ^ 0xff, middle);
      fs.writeFileSync(blob, damaged);

      const before = received.length;
      const transport = smtpTransport(`smtp://127.0.0.1:${port}`);
      const result = await deliverOutbox({ db, openAttachment: pinnedDocumentOpener(db, t.context.storage), transport, from });
      expect(result.failed).toBe(2);
      // Neither EMAIL-step recipient received anything.
      const recipients = (await db.select().from(outbox).where(eq(outbox.kind, 'epak_documents'))).map((row) => row.recipient);
      expect(received.slice(before).filter((m) => recipients.includes(m.to[0]!))).toEqual([]);
      for (const row of await db.select().from(outbox).where(eq(outbox.kind, 'epak_documents'))) {
        expect(row.sentAt).toBeNull();
        expect(row.lastError).toContain('does not match its stored revisions');
      }
    } finally {
      await t.close();
    }
  });
});

describe('SMS delivery through the relay webhook', () => {
  it('POSTs each text as JSON with the bearer token, once, and records a refusal for retry', async () => {
    await database.db.delete(outbox);
    const hits: { auth: string | undefined; body: unknown }[] = [];
    let status = 202;
    const relay = createServer((req: IncomingMessage, res) => {
      let raw = '';
      req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
      req.on('end', () => {
        hits.push({ auth: req.headers.authorization, body: JSON.parse(raw) });
        res.writeHead(status).end();
      });
    });
    await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
    try {
      const webhookUrl = `http://127.0.0.1:${(relay.address() as AddressInfo).port}/sms`;
      const send = smsWebhookSender({ webhookUrl, token: 'relay-secret' });
      await queueSms({ db: database.db, tenantId: null, to: '+91 98450 12345', body: 'Pakt sign-in code: 123456.', kind: 'otp' });
      // Mail is not this channel's business.
      await queueEmail({ db: database.db, tenantId: null, to: 'c@example.test', subject: 's', body: 'b', kind: 'test' });
      expect(await deliverQueued({ db: database.db, channel: 'sms', send })).toEqual({ sent: 1, failed: 0 });
      expect(hits).toEqual([{ auth: 'Bearer relay-secret', body: { to: '+91 98450 12345', text: 'Pakt sign-in code: 123456.' } }]);
      expect(await deliverQueued({ db: database.db, channel: 'sms', send })).toEqual({ sent: 0, failed: 0 });

      status = 503;
      await queueSms({ db: database.db, tenantId: null, to: '+91 90000 00000', body: 'x', kind: 'otp' });
      expect(await deliverQueued({ db: database.db, channel: 'sms', send })).toEqual({ sent: 0, failed: 1 });
      const [failed] = await database.db.select().from(outbox).where(eq(outbox.recipient, '+91 90000 00000'));
      expect(failed).toMatchObject({ sentAt: null, attempts: 1, lastError: 'SMS relay answered 503 Service Unavailable' });
      const [mail] = await database.db.select().from(outbox).where(eq(outbox.channel, 'email'));
      expect(mail).toMatchObject({ sentAt: null, attempts: 0 });
    } finally {
      await new Promise<void>((resolve) => relay.close(() => resolve()));
    }
  });
});

describe('mail headers', () => {
  it('are one line when queued and when sent: no header can be injected through a subject', async () => {
    await database.db.delete(outbox);
    received.length = 0;
    await queueEmail({ db: database.db, tenantId: null, to: 'asha@example.test\r\n', subject: 'Please sign: Offer\r\nBcc: thief@evil.test', body: 'Hello', kind: 'epak_sign_request' });
    // A row stored before subjects were kept to one line, or written around queueEmail.
    await database.db.insert(outbox).values({ tenantId: null, channel: 'email', recipient: 'ravi@example.test', subject: 'Old\nBcc: thief@evil.test\u2028X-Evil: 1', body: 'Hi', kind: 'epak_reminder' });
    const queued = await database.db.select().from(outbox).orderBy(asc(outbox.createdAt));
    expect(queued.find((row) => row.kind === 'epak_sign_request')).toMatchObject({ recipient: 'asha@example.test', subject: 'Please sign: Offer Bcc: thief@evil.test' });

    const handed: { to: string; subject: string }[] = [];
    const smtp = smtpTransport(`smtp://127.0.0.1:${port}`);
    const watching: MailTransport = {
      sendMail: (message) => {
        handed.push({ to: message.to, subject: message.subject });
        return smtp.sendMail(message);
      },
    };
    expect(await deliverOutbox({ db: database.db, openAttachment: pinnedDocumentOpener(database.db, storage), transport: watching, from: 'Pakt <no-reply@pakt.test>' })).toEqual({ sent: 2, failed: 0 });
    expect(handed.map((m) => m.subject).sort()).toEqual(['Old Bcc: thief@evil.test X-Evil: 1', 'Please sign: Offer Bcc: thief@evil.test']);
    expect(handed.every((m) => !/[\r\n\u2028]/.test(m.to + m.subject))).toBe(true);
    // On the wire: nobody else got it, and no header line of the sender's choosing.
    expect(received.flatMap((m) => m.to).sort()).toEqual(['asha@example.test', 'ravi@example.test']);
    for (const message of received) expect(message.data).not.toMatch(/^(Bcc|X-Evil):/im);
  });
});
