import type { Readable } from 'node:stream';
import { and, asc, eq, isNull, lt, notInArray, sql } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import { z } from 'zod';
import type { Db } from '../db/database';
import { outbox } from '../db/schema';
import { defineJob } from '../jobs/job-queue';
import type { OutboxAttachment } from '../db/schema';
import { mailHeaderValue } from './outbox';

export const DELIVERY_BATCH = 50;
/** A message that keeps failing is retried this many times, then left for an admin to see. */
export const MAX_DELIVERY_ATTEMPTS = 5;
/** An SMS relay that does not answer in this time counts as failed (and is retried). */
export const SMS_WEBHOOK_TIMEOUT_MS = 10_000;

type OutboxRow = typeof outbox.$inferSelect;
type Channel = OutboxRow['channel'];

export interface MailAttachment {
  filename: string;
  contentType: string;
  content: Readable | Buffer;
}

export interface MailTransport {
  sendMail(message: { from: string; to: string; subject: string; text: string; attachments?: MailAttachment[] }): Promise<unknown>;
}

export function smtpTransport(url: string): MailTransport {
  return nodemailer.createTransport(url);
}

/** Sends one text message by POSTing `{ to, text }` to the configured relay; anything but 2xx fails. */
export function smsWebhookSender(options: { webhookUrl: string; token: string | undefined }) {
  return async (row: OutboxRow): Promise<void> => {
    const response = await fetch(options.webhookUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(options.token ? { authorization: `Bearer ${options.token}` } : {}) },
      body: JSON.stringify({ to: row.recipient, text: row.body }),
      signal: AbortSignal.timeout(SMS_WEBHOOK_TIMEOUT_MS),
    });
    if (!response.ok) throw new Error(`SMS relay answered ${response.status} ${response.statusText}`.trim());
  };
}

/**
 * Sends what is queued on one channel, one message at a time, each in a transaction that holds
 * its row locked (FOR UPDATE SKIP LOCKED) until it is marked sent: another process delivering
 * side by side skips it, and a crash mid-send releases it for the next run.
 */
export async function deliverQueued(options: {
  db: Db;
  channel: Channel;
  send: (row: OutboxRow) => Promise<unknown>;
}): Promise<{ sent: number; failed: number }> {
  const { db } = options;
  let sent = 0;
  let failed = 0;
  // A message tried in this run is not tried again in it (a failure waits for the next run).
  const tried: string[] = [];
  for (let n = 0; n < DELIVERY_BATCH; n++) {
    const outcome = await db.transaction(async (tx) => {
      const [row] = await tx
        .select()
        .from(outbox)
        .where(
          and(
            eq(outbox.channel, options.channel),
            isNull(outbox.sentAt),
            lt(outbox.attempts, MAX_DELIVERY_ATTEMPTS),
            tried.length > 0 ? notInArray(outbox.id, tried) : undefined,
          ),
        )
        .orderBy(asc(outbox.createdAt))
        .limit(1)
        .for('update', { skipLocked: true });
      if (!row) return 'none' as const;
      tried.push(row.id);
      try {
        await options.send(row);
      } catch (error) {
        await tx.update(outbox).set({ attempts: sql`${outbox.attempts} + 1`, lastError: (error as Error).message.slice(0, 500) }).where(eq(outbox.id, row.id));
        return 'failed' as const;
      }
      await tx.update(outbox).set({ attempts: sql`${outbox.attempts} + 1`, sentAt: new Date(), lastError: null }).where(eq(outbox.id, row.id));
      return 'sent' as const;
    });
    if (outcome === 'none') break;
    if (outcome === 'sent') sent++;
    else failed++;
  }
  return { sent, failed };
}

/**
 * A message's attachments, read from storage now (the row holds references, never bytes). Each
 * is streamed, so a large document does not sit in memory once per recipient. Anything missing
 * throws before the transport is called: that message's attempt fails, the others go out.
 */
async function openAttachments(openAttachment: AttachmentOpener, row: OutboxRow): Promise<(MailAttachment & { content: Readable })[]> {
  const opened: (MailAttachment & { content: Readable })[] = [];
  try {
    for (const attachment of row.attachments ?? []) {
      const content = await openAttachment(attachment).catch((error: Error) => {
        throw new Error(`attachment ${attachment.filename}: ${error.message}`);
      });
      opened.push({ filename: attachment.filename, contentType: attachment.contentType, content });
    }
    return opened;
  } catch (error) {
    for (const attachment of opened) attachment.content.destroy();
    throw error;
  }
}

/**
 * Reads an attachment a queued message references (a document as it stood at a revision). The
 * feature that attaches documents provides it (epaks/pinned-document.ts), so mail knows nothing of
 * ePaks.
 */
export type AttachmentOpener = (attachment: OutboxAttachment) => Promise<Readable>;

/** Sends queued email over SMTP, with the attachments it references opened as it goes. */
export function deliverOutbox(options: { db: Db; openAttachment: AttachmentOpener; transport: MailTransport; from: string }): Promise<{ sent: number; failed: number }> {
  return deliverQueued({
    db: options.db,
    channel: 'email',
    send: async (row) => {
      const attachments = await openAttachments(options.openAttachment, row);
      try {
        return await options.transport.sendMail({
          from: options.from,
          // Cleaned again as it leaves: a row stored before subjects were kept to one line may hold a break.
          to: mailHeaderValue(row.recipient),
          subject: mailHeaderValue(row.subject),
          text: row.body,
          ...(attachments.length > 0 ? { attachments } : {}),
        });
      } finally {
        // A transport that failed before reading them to the end leaves them open, and a file with them.
        for (const attachment of attachments) attachment.content.destroy();
      }
    },
  });
}

export function deliverOutboxJob(options: { db: Db; openAttachment: AttachmentOpener; transport: MailTransport; from: string }) {
  return defineJob({
    name: 'mail.deliver-outbox',
    payload: z.object({}).default({}),
    retryLimit: 0,
    async run() {
      await deliverOutbox(options);
    },
  });
}

export function deliverSmsJob(options: { db: Db; webhookUrl: string; token: string | undefined }) {
  const send = smsWebhookSender(options);
  return defineJob({
    name: 'sms.deliver-outbox',
    payload: z.object({}).default({}),
    retryLimit: 0,
    async run() {
      await deliverQueued({ db: options.db, channel: 'sms', send });
    },
  });
}
