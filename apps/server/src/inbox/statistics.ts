import {
  type Folder,
  FOLDERS,
  invalidInput,
  type Statistics,
  type StatisticsQuery,
  type UserStatistics,
  WEEKLY_SERIES_ALL,
  WEEKLY_SERIES_USER_OR_GROUP,
  type WeeklyChartSeries,
} from '@pakt/domain';
import { and, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../db/database';
import { epakInbox, epaks } from '../db/schema';
import type { EpakActor } from '../epaks/access';
import { folderCounts } from './list-inbox';

/**
 * The dashboard's numbers (spec §7 statistics, §9 chart scopes and series).
 *
 * Summary: for scope user, the caller's folder counts (as the inbox shows them); for scope all,
 * the tenant's ePaks by the folder their state puts them in (Draft, Pending for under way,
 * Completed, Rejected, Stopped, Expired; Deleted and Archived first), the person-only folders
 * (Inbox, Signed, Reviewed, Delegated) being 0 there.
 *
 * Weekly: ISO weeks (Monday 00:00 UTC to the next Monday), oldest first, this week last.
 * - created: ePaks composed that week (created_at);
 * - completed, stopped: ePaks that ended that week (ended_at) as Completed, or Stopped;
 * - pending: ePaks under way at the end of that week: sent before it ended, not ended by then
 *   (for this week: under way now);
 * and, for scope all only (the tenant's inbox side):
 * - received: ePaks sent that week (started_at), each reaching its first recipients then;
 * - signed, rejected: places signed, or rejected, that week (epak_recipients.acted_at and the
 *   place's status), each place counting once, so an ePak with three signers adds three.
 * Scope user counts the ePaks the caller owns; scope all every ePak of the tenant. Each series
 * is a range of an index: epaks_owner or epaks_tenant_created (created), epaks_tenant_ended
 * (completed, stopped, and pending's "not ended by then"), epaks_tenant_started (received),
 * epak_recipients_acted (signed, rejected).
 */

const WEEK_MS = 7 * 86_400_000;

/** Groups are built by administration (issue 7); until then their scopes are refused by name. */
function refuseGroups(scope: StatisticsQuery['scope']): void {
  if (scope === 'group' || scope === 'groupuser') {
    throw invalidInput('Group statistics arrive with groups, in administration; use scope user or all.', [
      { path: 'scope', message: 'groups are not available yet' },
    ]);
  }
}

export async function loadStatistics(options: { db: Db; actor: EpakActor; query: StatisticsQuery; now?: Date }): Promise<Statistics> {
  const { db, actor, query } = options;
  refuseGroups(query.scope);
  const scope = query.scope as 'user' | 'all';
  if (query.type === 'summary') {
    const folders = scope === 'user' ? await userFolders(db, actor) : await tenantFolders(db, actor.tenantId);
    return { type: 'summary', scope, folders };
  }
  const weeks = weekStarts(options.now ?? new Date(), query.weeks);
  const series = await weeklySeries(db, actor, scope, weeks);
  return { type: 'weekly', scope, weeks: weeks.map((monday) => monday.toISOString().slice(0, 10)), series };
}

async function userFolders(db: Db, actor: EpakActor): Promise<Record<Folder, number>> {
  const counts = await folderCounts(db, actor);
  return Object.fromEntries(FOLDERS.map((folder) => [folder, counts[folder]?.total ?? 0])) as Record<Folder, number>;
}

async function tenantFolders(db: Db, tenantId: string): Promise<Record<Folder, number>> {
  const folder = sql<string>`case when ${epaks.archivedAt} is not null then 'Archived' when ${epaks.deletedAt} is not null then 'Deleted'
    when ${epaks.status} = 'InProgress' then 'Pending' else ${epaks.status} end`;
  const rows = await db
    .select({ folder, n: sql<number>`count(*)`.mapWith(Number) })
    .from(epaks)
    .where(eq(epaks.tenantId, tenantId))
    .groupBy(folder);
  const out = Object.fromEntries(FOLDERS.map((f) => [f, 0])) as Record<Folder, number>;
  for (const row of rows) if ((FOLDERS as readonly string[]).includes(row.folder)) out[row.folder as Folder] = row.n;
  return out;
}

/** Mondays 00:00 UTC of the last `count` ISO weeks, oldest first, the week of `now` last. */
export function weekStarts(now: Date, count: number): Date[] {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const monday = today - ((now.getUTCDay() + 6) % 7) * 86_400_000;
  return Array.from({ length: count }, (_, i) => new Date(monday - (count - 1 - i) * WEEK_MS));
}

async function weeklySeries(db: Db, actor: EpakActor, scope: 'user' | 'all', weeks: Date[]): Promise<Partial<Record<WeeklyChartSeries, number[]>>> {
  const start = weeks[0]!;
  const end = new Date(weeks.at(-1)!.getTime() + WEEK_MS);
  const names: readonly WeeklyChartSeries[] = scope === 'all' ? WEEKLY_SERIES_ALL : WEEKLY_SERIES_USER_OR_GROUP;
  const series: Partial<Record<WeeklyChartSeries, number[]>> = Object.fromEntries(names.map((name) => [name, weeks.map(() => 0)]));
  const mine: SQL | undefined = scope === 'user' ? eq(epaks.ownerId, actor.userId) : undefined;
  // Grouped by position (group by 1): the week expression carries parameters, so a repeat of it would not be the same expression.
  const weekOf = (column: AnyPgColumn) => sql<number>`floor(extract(epoch from (${column} - ${start.toISOString()}::timestamptz)) / ${WEEK_MS / 1000})::int`;
  const add = (name: WeeklyChartSeries, week: number, n: number) => {
    const counts = series[name];
    if (counts && week >= 0 && week < counts.length) counts[week]! += n;
  };

  const created = weekOf(epaks.createdAt);
  const ended = weekOf(epaks.endedAt);
  const [createdRows, endedRows, pendingRows] = await Promise.all([
    db
      .select({ week: created, n: sql<number>`count(*)`.mapWith(Number) })
      .from(epaks)
      .where(and(eq(epaks.tenantId, actor.tenantId), mine, gte(epaks.createdAt, start), lt(epaks.createdAt, end)))
      .groupBy(sql`1`),
    db
      .select({ week: ended, status: epaks.status, n: sql<number>`count(*)`.mapWith(Number) })
      .from(epaks)
      .where(and(eq(epaks.tenantId, actor.tenantId), mine, gte(epaks.endedAt, start), lt(epaks.endedAt, end), sql`${epaks.status} in ('Completed', 'Stopped')`))
      .groupBy(sql`1`, sql`2`),
    pendingByWeek(db, actor.tenantId, scope === 'user' ? actor.userId : null, weeks),
  ]);
  for (const row of createdRows) add('created', row.week, row.n);
  for (const row of endedRows) add(row.status === 'Completed' ? 'completed' : 'stopped', row.week, row.n);
  pendingRows.forEach((n, week) => add('pending', week, n));

  if (scope === 'all') {
    const started = weekOf(epaks.startedAt);
    const [receivedRows, actedRows] = await Promise.all([
      db
        .select({ week: started, n: sql<number>`count(*)`.mapWith(Number) })
        .from(epaks)
        .where(and(eq(epaks.tenantId, actor.tenantId), gte(epaks.startedAt, start), lt(epaks.startedAt, end)))
        .groupBy(sql`1`),
      rowsOf<{ week: number; status: string; n: number }>(
        await db.execute(sql`
          select floor(extract(epoch from (r.acted_at - ${start.toISOString()}::timestamptz)) / ${WEEK_MS / 1000})::int as week, r.status, count(*)::int as n
          from epak_recipients r join epaks e on e.id = r.epak_id
          where r.acted_at >= ${start.toISOString()} and r.acted_at < ${end.toISOString()}
            and r.status in ('Signed', 'Rejected') and e.tenant_id = ${actor.tenantId}
          group by 1, 2`),
      ),
    ]);
    for (const row of receivedRows) add('received', row.week, row.n);
    for (const row of actedRows) add(row.status === 'Signed' ? 'signed' : 'rejected', Number(row.week), Number(row.n));
  }
  return series;
}

/**
 * ePaks under way at the end of each week: sent before that end, and not ended by then. Only
 * ePaks not ended before the first week's end can count, which the ended index finds (the not
 * ended ones, and those that ended since); each is then counted for every week it spans.
 */
async function pendingByWeek(db: Db, tenantId: string, ownerId: string | null, weeks: Date[]): Promise<number[]> {
  const ends = weeks.map((monday) => new Date(monday.getTime() + WEEK_MS).toISOString());
  const rows = rowsOf<{ week: number; n: number }>(
    await db.execute(sql`
      with candidates as (
        select e.started_at, e.ended_at from epaks e
        where e.tenant_id = ${tenantId} ${ownerId ? sql`and e.owner_id = ${ownerId}` : sql``}
          and (e.ended_at is null or e.ended_at >= ${ends[0]!}::timestamptz)
          and e.started_at < ${ends.at(-1)!}::timestamptz
      )
      select w.week::int as week, count(c.started_at)::int as n
      from unnest(array[${sql.join(ends.map((end) => sql`${end}::timestamptz`), sql`, `)}]) with ordinality as w(week_end, week)
      left join candidates c on c.started_at < w.week_end and (c.ended_at is null or c.ended_at >= w.week_end)
      group by w.week`),
  );
  const out = weeks.map(() => 0);
  for (const row of rows) out[Number(row.week) - 1] = Number(row.n);
  return out;
}

/** GET /msbapi/v1/users/statistics: the caller's tiles. */
export async function loadUserStatistics(options: { db: Db; actor: EpakActor; now?: Date }): Promise<UserStatistics> {
  const { db, actor } = options;
  const now = options.now ?? new Date();
  const mineIn = (folder: Folder) => and(eq(epakInbox.userId, actor.userId), eq(epakInbox.tenantId, actor.tenantId), eq(epakInbox.folder, folder));
  const [counts, [others], [soon]] = await Promise.all([
    folderCounts(db, actor),
    // Sent by the caller and waiting for someone else: their Pending rows of ePaks they own.
    db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(epakInbox)
      .innerJoin(epaks, eq(epaks.id, epakInbox.epakId))
      .where(and(mineIn('Pending'), eq(epaks.ownerId, actor.userId))),
    // Waiting for the caller and expiring within 7 days: a range of the Inbox folder's expiry index.
    db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(epakInbox)
      .where(and(mineIn('Inbox'), gte(epakInbox.expiresAt, now), lt(epakInbox.expiresAt, new Date(now.getTime() + WEEK_MS)))),
  ]);
  return { counts, awaitingMe: counts.Inbox.total, awaitingOthers: others?.n ?? 0, expiringSoon: soon?.n ?? 0 };
}

/** The rows of a raw query on either driver (node-postgres and PGlite both answer `{ rows }`). */
function rowsOf<T>(result: unknown): T[] {
  return ((result as { rows?: T[] }).rows ?? (result as T[])) as T[];
}
