import { OUTBOX_PAGE_SIZE, type OutboxMessage, systemOutbox, tenantOutbox } from '@pakt/domain';
import { desc, eq, isNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../app-context';
import type { Db } from '../db/database';
import { outbox } from '../db/schema';
import { route } from '../http/route';

// Our bearer secrets all carry a pk?_ prefix (auth/secrets.ts); sign-in codes are six digits.
const SECRET = /\bpk[a-z]_[A-Za-z0-9_-]{20,}/g;
const CODE = /\b\d{6}\b/g;

/**
 * With SMTP (or an SMS relay) configured the message went to its owner, so admins reading the
 * outbox see it without the links and codes in it: an admin must not be able to take over an
 * account from here. Without it the outbox is the only way a message reaches anyone, so it is
 * shown whole (README).
 */
export function redactSecrets(body: string): string {
  return body.replace(SECRET, '[hidden]').replace(CODE, '[hidden]');
}

async function readOutbox(db: Db, tenantId: string | null, redact: Record<OutboxMessage['channel'], boolean>): Promise<OutboxMessage[]> {
  const rows = await db
    .select()
    .from(outbox)
    .where(tenantId ? eq(outbox.tenantId, tenantId) : isNull(outbox.tenantId))
    .orderBy(desc(outbox.createdAt))
    .limit(OUTBOX_PAGE_SIZE);
  return rows.map((r) => ({
    id: r.id,
    channel: r.channel,
    recipient: r.recipient,
    subject: r.subject,
    body: redact[r.channel] ? redactSecrets(r.body) : r.body,
    kind: r.kind,
    createdAt: r.createdAt.toISOString(),
    sentAt: r.sentAt?.toISOString() ?? null,
    lastError: r.lastError,
    attachments: (r.attachments ?? []).map((a) => ({ fileName: a.filename })),
  }));
}

export function registerOutboxRoutes(app: FastifyInstance, ctx: AppContext) {
  // Each channel is hidden once something really delivers it to its owner.
  const redact = { email: !!ctx.config.smtp, sms: !!ctx.config.sms };
  route(app, ctx, tenantOutbox, async ({ auth }) => ({ messages: await readOutbox(ctx.database.db, auth.tenant.id, redact) }));
  route(app, ctx, systemOutbox, async () => ({ messages: await readOutbox(ctx.database.db, null, redact) }));
}
