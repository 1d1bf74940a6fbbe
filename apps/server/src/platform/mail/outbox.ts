import { toSingleLine } from '@pakt/domain';
import type { Db } from '../db/database';
import { type OutboxAttachment, outbox } from '../db/schema';

/**
 * A value for a mail header (subject, recipient): one line, whatever it was made from. Contracts
 * already keep line breaks out of subjects; this is the last guard, so no text of a user's can
 * ever start a header of its own ("\r\nBcc: ...") in a mail we send.
 */
export function mailHeaderValue(text: string): string {
  return toSingleLine(text).trim();
}

/**
 * Queues a message. Admins read the outbox in the app; delivery over SMTP (SMTP_URL) is a job
 * that picks rows up after commit, so a rolled-back command never mails anyone.
 *
 * `attachments` name stored documents, not bytes: delivery reads them from storage when it sends
 * (mail-delivery.ts), so a queued mail costs a row however large its files are.
 */
export async function queueEmail(options: {
  db: Db;
  tenantId: string | null;
  to: string;
  subject: string;
  body: string;
  kind: string;
  attachments?: readonly OutboxAttachment[];
}): Promise<void> {
  await options.db.insert(outbox).values({
    tenantId: options.tenantId,
    channel: 'email',
    recipient: mailHeaderValue(options.to),
    subject: mailHeaderValue(options.subject),
    body: options.body,
    kind: options.kind,
    attachments: options.attachments && options.attachments.length > 0 ? [...options.attachments] : null,
  });
}

/** Queues a text message. No SMS gateway is wired yet: administrators read them in the outbox. */
export async function queueSms(options: { db: Db; tenantId: string | null; to: string; body: string; kind: string }): Promise<void> {
  await options.db.insert(outbox).values({
    tenantId: options.tenantId,
    channel: 'sms',
    recipient: options.to,
    subject: 'SMS',
    body: options.body,
    kind: options.kind,
  });
}
