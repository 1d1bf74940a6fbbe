import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outbox } from '../db/schema';
import { createTestDatabase, type TestDatabase } from '../test/test-database';
import { deliverOutbox, MAX_DELIVERY_ATTEMPTS, type MailTransport, smtpTransport } from './mail-delivery';
import { queueEmail } from './outbox';

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
