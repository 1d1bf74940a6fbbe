import { invalidInput, notFound, type BuiltInReasonKey, type SigningReason } from '@pakt/domain';
import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/database';
import { reasons } from '../../platform/db/schema';
import { recordAdminAction } from '../../platform/audit-log';

type ReasonRow = typeof reasons.$inferSelect;

/** PostgreSQL's unique violation: words taken by a concurrent request. */
const isUniqueViolation = (error: unknown) =>
  (error as { code?: string }).code === '23505' || (error as { cause?: { code?: string } }).cause?.code === '23505';

const textTaken = () => invalidInput('This reason is in the list already.', [{ path: 'text', message: 'already in the list' }]);

function presentReason(row: ReasonRow): SigningReason {
  return {
    reasonId: row.id,
    key: row.key as BuiltInReasonKey | null,
    text: row.text,
    position: row.position,
    enabled: row.enabled,
    isDefault: row.isDefault,
  };
}

/**
 * The tenant's reasons in their order. They exist from the tenant's creation on (a trigger of
 * migration 0022 seeds the built-in four), so reading never writes.
 */
export async function listReasons(db: Db, tenantId: string): Promise<SigningReason[]> {
  const rows = await db.select().from(reasons).where(eq(reasons.tenantId, tenantId)).orderBy(asc(reasons.position));
  return rows.map(presentReason);
}

/** What the signing ceremony offers: the enabled reasons, the default first, then in order. */
export async function listCeremonyReasons(db: Db, tenantId: string): Promise<SigningReason[]> {
  const all = await listReasons(db, tenantId);
  const enabled = all.filter((reason) => reason.enabled);
  return [...enabled.filter((reason) => reason.isDefault), ...enabled.filter((reason) => !reason.isDefault)];
}

/** The tenant's rows, locked in order, so two admins changing the list at once take turns. */
async function lockReasons(db: Db, tenantId: string): Promise<ReasonRow[]> {
  return db.select().from(reasons).where(eq(reasons.tenantId, tenantId)).orderBy(asc(reasons.position)).for('update');
}

function sameWords(a: string, b: string) {
  return a.toLowerCase() === b.toLowerCase();
}

/** Admin: adds an enabled reason at the end of the list; the audit record commits with it. */
export async function createReason(options: { db: Db; tenantId: string; actorId: string; text: string }): Promise<SigningReason> {
  const { tenantId } = options;
  try {
    return await options.db.transaction(async (db) => {
      const rows = await lockReasons(db, tenantId);
      if (rows.some((row) => sameWords(row.text, options.text))) throw textTaken();
      const position = rows.reduce((last, row) => Math.max(last, row.position), 0) + 1;
      // A tenant whose list is somehow empty gets its first reason as the default (§9).
      const [row] = await db
        .insert(reasons)
        .values({ tenantId, text: options.text, position, isDefault: !rows.some((r) => r.isDefault) })
        .returning();
      await recordAdminAction({
        db,
        tenantId,
        actorId: options.actorId,
        action: 'reason_created',
        target: { type: 'reason', id: row!.id, label: row!.text },
        details: { position },
      });
      return presentReason(row!);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw textTaken();
    throw error;
  }
}

/**
 * Admin: changes one reason's words, its enabled flag, its place, or makes it the default. All
 * of it in one transaction with one audit record; a change that changes nothing records nothing.
 * The default stays enabled (the ceremony lists it first), so disabling it is refused and making
 * a disabled reason the default enables it. New words make a built-in reason the tenant's own.
 */
export async function updateReason(options: {
  db: Db;
  tenantId: string;
  actorId: string;
  reasonId: string;
  text?: string | undefined;
  enabled?: boolean | undefined;
  position?: number | undefined;
  isDefault?: true | undefined;
}): Promise<SigningReason[]> {
  const { tenantId } = options;
  try {
    return await options.db.transaction(async (db) => {
      const rows = await lockReasons(db, tenantId);
      const row = rows.find((r) => r.id === options.reasonId);
      // Another tenant's reason is not found, like none at all: nothing leaks.
      if (!row) throw notFound('No such reason.');
      const details: Record<string, unknown> = {};
      const changes: Partial<ReasonRow> = {};

      if (options.text !== undefined && options.text !== row.text) {
        if (rows.some((r) => r.id !== row.id && sameWords(r.text, options.text!))) throw textTaken();
        changes.text = options.text;
        changes.key = null;
        details['text'] = { from: row.text, to: options.text };
      }
      const makeDefault = options.isDefault === true && !row.isDefault;
      const enabled = makeDefault ? true : (options.enabled ?? row.enabled);
      if (!enabled && row.isDefault) {
        throw invalidInput('The default reason cannot be disabled: make another reason the default first.', [
          { path: 'enabled', message: 'the default reason stays enabled' },
        ]);
      }
      if (enabled !== row.enabled) {
        changes.enabled = enabled;
        details['enabled'] = enabled;
      }
      if (makeDefault) {
        // The old default gives way first: one default per tenant is a unique index.
        await db.update(reasons).set({ isDefault: false, updatedAt: new Date() }).where(and(eq(reasons.tenantId, tenantId), eq(reasons.isDefault, true)));
        changes.isDefault = true;
        details['isDefault'] = true;
      }
      if (Object.keys(changes).length > 0) {
        await db.update(reasons).set({ ...changes, updatedAt: new Date() }).where(eq(reasons.id, row.id));
      }

      let ordered = rows;
      if (options.position !== undefined) {
        const from = rows.indexOf(row) + 1;
        const at = Math.min(options.position, rows.length) - 1;
        const others = rows.filter((r) => r.id !== row.id);
        ordered = [...others.slice(0, at), row, ...others.slice(at)];
        for (const [index, r] of ordered.entries()) {
          if (r.position !== index + 1) await db.update(reasons).set({ position: index + 1 }).where(eq(reasons.id, r.id));
        }
        if (at + 1 !== from) details['position'] = { from, to: at + 1 };
      }

      if (Object.keys(details).length > 0) {
        await recordAdminAction({
          db,
          tenantId,
          actorId: options.actorId,
          action: 'reason_changed',
          target: { type: 'reason', id: row.id, label: changes.text ?? row.text },
          details,
        });
      }
      return listReasons(db, tenantId);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw textTaken();
    throw error;
  }
}
