import { OUTBOX_PAGE_SIZE, type OutboxMessage, systemOutbox, tenantOutbox } from '@pakt/domain';
import { desc, eq, type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../http/app-context';
import type { Db } from '../../platform/db/database';
import { outbox, tenants } from '../../platform/db/schema';
import { route } from '../../http/route';

// Our bearer secrets all carry a pk?_ prefix (auth/secrets.ts); sign-in codes are six digits.
const SECRET = /\bpk[a-z]_[A-Za-z0-9_-]{20,}/g;
const CODE = /\b\d{6}\b/g;

/**
 * Once SMTP (or an SMS relay) delivers a channel, its messages went to their owners, and root
 * reads them without the links and codes in them. Defence in depth: a body reaches root alone.
 */
export function redactSecrets(body: string): string {
  return body.replace(SECRET, '[hidden]').replace(CODE, '[hidden]');
}

type BodyView = 'none' | Record<OutboxMessage['channel'], 'whole' | 'redacted'>;

async function readOutbox(db: Db, where: SQL | undefined, view: BodyView): Promise<OutboxMessage[]> {
  const rows = await db
    .select({ message: outbox, tenantName: tenants.name })
    .from(outbox)
    .leftJoin(tenants, eq(tenants.id, outbox.tenantId))
    .where(where)
    .orderBy(desc(outbox.createdAt))
    .limit(OUTBOX_PAGE_SIZE);
  return rows.map(({ message: r, tenantName }) => ({
    id: r.id,
    channel: r.channel,
    recipient: r.recipient,
    subject: r.subject,
    body: view === 'none' ? null : view[r.channel] === 'redacted' ? redactSecrets(r.body) : r.body,
    tenantName,
    kind: r.kind,
    createdAt: r.createdAt.toISOString(),
    sentAt: r.sentAt?.toISOString() ?? null,
    lastError: r.lastError,
    attachments: (r.attachments ?? []).map((a) => ({ fileName: a.filename })),
  }));
}

/**
 * Who reads what (docs/security.md, "The outbox"). A tenant admin sees their tenant's messages
 * (to whom, what about, when, whether they went) but never a text: invitation codes, reset and
 * signing links are the recipient's secrets, and an admin who could read them could take over
 * accounts of other tenants (issue 17). Root, the operator's account, reads every tenant's
 * messages; while nothing delivers a channel, root sees its texts whole, since root is then the
 * one who hands invitations and links on (the README says so, and the server at start).
 */
export function registerOutboxRoutes(app: FastifyInstance, ctx: AppContext) {
  const rootView: BodyView = { email: ctx.config.smtp ? 'redacted' : 'whole', sms: ctx.config.sms ? 'redacted' : 'whole' };
  route(app, ctx, tenantOutbox, async ({ auth }) => ({ messages: await readOutbox(ctx.database.db, eq(outbox.tenantId, auth.tenant.id), 'none') }));
  route(app, ctx, systemOutbox, async ({ query }) => ({
    // Addresses are stored as typed; the filter comes lower-cased (contract), so compare alike.
    messages: await readOutbox(ctx.database.db, query.recipient ? sql`lower(${outbox.recipient}) = ${query.recipient}` : undefined, rootView),
  }));
}
