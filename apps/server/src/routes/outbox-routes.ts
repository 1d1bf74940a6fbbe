import { OUTBOX_PAGE_SIZE, type OutboxMessage, systemOutbox, tenantOutbox } from '@pakt/domain';
import { desc, eq, isNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../app-context';
import type { Db } from '../db/database';
import { outbox } from '../db/schema';
import { route } from '../http/route';

async function readOutbox(db: Db, tenantId: string | null): Promise<OutboxMessage[]> {
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
    body: r.body,
    kind: r.kind,
    createdAt: r.createdAt.toISOString(),
    sentAt: r.sentAt?.toISOString() ?? null,
    lastError: r.lastError,
  }));
}

export function registerOutboxRoutes(app: FastifyInstance, ctx: AppContext) {
  route(app, ctx, tenantOutbox, async ({ auth }) => ({ messages: await readOutbox(ctx.database.db, auth.tenant.id) }));
  route(app, ctx, systemOutbox, async () => ({ messages: await readOutbox(ctx.database.db, null) }));
}
