import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/database';
import { epakActivities } from '../db/schema';

/** The ePak actions recorded so far; the workflow engine adds its own. */
export type EpakActivityAction = 'composed' | 'started' | 'rejected';

/**
 * Appends one entry to an ePak's activity, inside the caller's transaction so the change and its
 * record commit together. The caller holds the ePak's row lock (SELECT … FOR UPDATE), which is
 * what keeps `seq` gapless; the unique index on (epak_id, seq) backs that up.
 */
export async function recordEpakActivity(
  tx: Db,
  entry: { epakId: string; actorId: string | null; action: EpakActivityAction; details?: Record<string, unknown>; ip?: string | null },
): Promise<void> {
  const [last] = await tx
    .select({ seq: sql<number>`coalesce(max(${epakActivities.seq}), 0)`.mapWith(Number) })
    .from(epakActivities)
    .where(eq(epakActivities.epakId, entry.epakId));
  await tx.insert(epakActivities).values({
    epakId: entry.epakId,
    seq: (last?.seq ?? 0) + 1,
    actorId: entry.actorId,
    action: entry.action,
    details: entry.details ?? {},
    ip: entry.ip ?? null,
  });
}
