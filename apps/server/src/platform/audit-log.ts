import { fullName } from '@pakt/domain';
import type { AdminAuditAction, AdminAuditEntry, AdminAuditQuery } from '@pakt/domain';
import { and, count, desc, eq, gte, ilike, lt, type SQL, sql } from 'drizzle-orm';
import type { Db } from './db/database';
import { adminAuditLog, users } from './db/schema';
import { containing } from './db/sql';

/**
 * Records one administrative change. Call it with the transaction that makes the change, so the
 * change and its record commit together or not at all. `details` says what changed (names,
 * roles, counts) and never holds a secret.
 */
export async function recordAdminAction(options: {
  db: Db;
  tenantId: string;
  actorId: string;
  action: AdminAuditAction;
  target: { type: AdminAuditEntry['targetType']; id?: string | null; label?: string | null };
  details?: Record<string, unknown>;
}): Promise<void> {
  await options.db.insert(adminAuditLog).values({
    tenantId: options.tenantId,
    actorId: options.actorId,
    action: options.action,
    targetType: options.target.type,
    targetId: options.target.id ?? null,
    targetLabel: options.target.label ?? null,
    details: options.details ?? {},
    // The moment of the write, not of the transaction's start (now()): the records of one
    // transaction keep their order in the log.
    createdAt: sql`clock_timestamp()`,
  });
}

const DAY_MS = 86_400_000;

/** GET /msbapi/v2/admin/audit: one page of the tenant's log, newest first. */
export async function listAdminAudit(options: { db: Db; tenantId: string; query: AdminAuditQuery }): Promise<{
  total: number;
  pg: number;
  size: number;
  items: AdminAuditEntry[];
}> {
  const { db, tenantId, query } = options;
  const conditions: SQL[] = [eq(adminAuditLog.tenantId, tenantId)];
  if (query.action) conditions.push(eq(adminAuditLog.action, query.action));
  if (query.actorId) conditions.push(eq(adminAuditLog.actorId, query.actorId));
  if (query.target) conditions.push(ilike(adminAuditLog.targetLabel, containing(query.target)));
  if (query.from) conditions.push(gte(adminAuditLog.createdAt, new Date(`${query.from}T00:00:00.000Z`)));
  if (query.to) conditions.push(lt(adminAuditLog.createdAt, new Date(Date.parse(`${query.to}T00:00:00.000Z`) + DAY_MS)));
  const where = and(...conditions);
  const [rows, [total]] = await Promise.all([
    db
      .select({ entry: adminAuditLog, actor: { id: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName } })
      .from(adminAuditLog)
      .leftJoin(users, eq(users.id, adminAuditLog.actorId))
      .where(where)
      .orderBy(desc(adminAuditLog.createdAt), desc(adminAuditLog.id))
      .limit(query.size)
      .offset(query.pg * query.size),
    db.select({ n: count() }).from(adminAuditLog).where(where),
  ]);
  return {
    total: total?.n ?? 0,
    pg: query.pg,
    size: query.size,
    items: rows.map(({ entry, actor }) => ({
      id: entry.id,
      action: entry.action as AdminAuditAction,
      createdOn: entry.createdAt.toISOString(),
      actor: actor ? { userId: actor.id, email: actor.email, name: fullName(actor) } : null,
      targetType: entry.targetType as AdminAuditEntry['targetType'],
      targetId: entry.targetId,
      targetLabel: entry.targetLabel,
      details: entry.details as Record<string, unknown>,
    })),
  };
}
