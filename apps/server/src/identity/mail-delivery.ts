import { and, asc, eq, isNull, lt, sql } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import { z } from 'zod';
import type { Db } from '../db/database';
import { outbox } from '../db/schema';
import { defineJob } from '../jobs/job-queue';

export const DELIVERY_BATCH = 50;
/** A message that keeps failing is retried this many times, then left for an admin to see. */
export const MAX_DELIVERY_ATTEMPTS = 5;

export interface MailTransport {
  sendMail(message: { from: string; to: string; subject: string; text: string }): Promise<unknown>;
}

export function smtpTransport(url: string): MailTransport {
  return nodemailer.createTransport(url);
}

/**
 * Sends queued email over SMTP. Each message is claimed by setting its attempt count under a
 * row lock (SKIP LOCKED), so several processes can deliver side by side without sending twice.
 */
export async function deliverOutbox(options: { db: Db; transport: MailTransport; from: string }): Promise<{ sent: number; failed: number }> {
  const { db } = options;
  let sent = 0;
  let failed = 0;
  const claimed = await db.transaction(async (tx) => {
    const rows = await tx
      .select()
      .from(outbox)
      .where(and(eq(outbox.channel, 'email'), isNull(outbox.sentAt), lt(outbox.attempts, MAX_DELIVERY_ATTEMPTS)))
      .orderBy(asc(outbox.createdAt))
      .limit(DELIVERY_BATCH)
      .for('update', { skipLocked: true });
    for (const row of rows) {
      await tx.update(outbox).set({ attempts: sql`${outbox.attempts} + 1` }).where(eq(outbox.id, row.id));
    }
    return rows;
  });
  for (const row of claimed) {
    try {
      await options.transport.sendMail({ from: options.from, to: row.recipient, subject: row.subject, text: row.body });
      await db.update(outbox).set({ sentAt: new Date(), lastError: null }).where(eq(outbox.id, row.id));
      sent++;
    } catch (error) {
      await db.update(outbox).set({ lastError: (error as Error).message.slice(0, 500) }).where(eq(outbox.id, row.id));
      failed++;
    }
  }
  return { sent, failed };
}

export function deliverOutboxJob(options: { db: Db; transport: MailTransport; from: string }) {
  return defineJob({
    name: 'mail.deliver-outbox',
    payload: z.object({}).default({}),
    retryLimit: 0,
    async run() {
      await deliverOutbox(options);
    },
  });
}
