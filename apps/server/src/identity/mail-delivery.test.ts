import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outbox } from '../db/schema';
import { createTestDatabase, type TestDatabase } from '../test/test-database';
import { deliverOutbox, deliverQueued, MAX_DELIVERY_ATTEMPTS, type MailTransport, smsWebhookSender, smtpTransport } from './mail-delivery';
import { queueEmail, queueSms } from './outbox';

let database: TestDatabase;
let server: SMTPServer;
let port: number;
const received: { to: string[]; data: string }[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
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
});

describe('mail delivery', () => {
  it('sends queued mail over SMTP once and marks it sent', async () => {
    await queueEmail({ db: database.db, tenantId: null, to: 'asha@example.test', subject: 'Reset your Pakt password', body: 'Open https://pakt.test/x', kind: 'password-reset' });
    const transport = smtpTransport(`smtp://127.0.0.1:${port}`);
    expect(await deliverOutbox({ db: database.db, transport, from: 'Pakt <no-reply@pakt.test>' })).toEqual({ sent: 1, failed: 0 });
    expect(received).toHaveLength(1);
    expect(received[0]!.to).toEqual(['asha@example.test']);
    expect(received[0]!.data).toContain('Subject: Reset your Pakt password');
    expect(received[0]!.data).toContain('Open https://pakt.test/x');
    const [row] = await database.db.select().from(outbox);
    expect(row!.sentAt).not.toBeNull();
    // Nothing left: a second run sends nothing more.
    expect(await deliverOutbox({ db: database.db, transport, from: 'x@pakt.test' })).toEqual({ sent: 0, failed: 0 });
    expect(received).toHaveLength(1);
  });

  it('records a failure, retries it, and gives up after the attempt limit', async () => {
    await database.db.delete(outbox);
    await queueEmail({ db: database.db, tenantId: null, to: 'b@example.test', subject: 's', body: 'b', kind: 'test' });
    const failing: MailTransport = { sendMail: async () => Promise.reject(new Error('550 mailbox unavailable')) };
    for (let i = 0; i < MAX_DELIVERY_ATTEMPTS; i++) {
      expect(await deliverOutbox({ db: database.db, transport: failing, from: 'x@pakt.test' })).toEqual({ sent: 0, failed: 1 });
    }
    expect(await deliverOutbox({ db: database.db, transport: failing, from: 'x@pakt.test' })).toEqual({ sent: 0, failed: 0 });
    const [row] = await database.db.select().from(outbox).where(eq(outbox.recipient, 'b@example.test'));
    expect(row).toMatchObject({ sentAt: null, attempts: MAX_DELIVERY_ATTEMPTS, lastError: '550 mailbox unavailable' });
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
