import {
  type Folder,
  FOLDERS,
  fullName,
  invalidInput,
  notFound,
  type Statistics,
  type StatisticsMember,
  type StatisticsQuery,
  type UserStatistics,
  WEEKLY_SERIES_ALL,
  WEEKLY_SERIES_USER_OR_GROUP,
  type WeeklyChartSeries,
} from '@pakt/domain';
import { and, eq, gte, lt, ne, sql, type SQL } from 'drizzle-orm';
import { alias, type AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../../platform/db/database';
import { epakInbox, epaks, groupMembers, memberships, users } from '../../platform/db/schema';
import type { EpakActor } from '../epaks';
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

/**
 * Whose ePaks a scope counts: one person (user: the caller; groupuser: a member of one of the
 * caller's groups), the people of the caller's groups (group), or the whole tenant (all).
 */
type Owners = { person: string } | { people: string[] } | 'tenant';

export async function loadStatistics(options: {
  db: Db;
  actor: EpakActor;
  query: StatisticsQuery;
  /** The caller may read any member's numbers (the tenant's administrators), not only their groups'. */
  anyMember?: boolean;
  now?: Date;
}): Promise<Statistics> {
  const { db, actor, query } = options;
  const scope = query.scope;
  const owners = await ownersOf({ db, actor, query, anyMember: options.anyMember === true });
  if (query.type === 'summary') {
    const folders =
      typeof owners === 'object' && 'person' in owners ? await userFolders(db, { tenantId: actor.tenantId, userId: owners.person }) : await ownedFolders(db, actor.tenantId, owners);
    if (scope !== 'group') return { type: 'summary', scope, folders };
    return { type: 'summary', scope, folders, members: await pickableMembers(db, actor, options.anyMember === true) };
  }
  const weeks = weekStarts(options.now ?? new Date(), query.weeks);
  const series = await weeklySeries(db, actor.tenantId, owners, weeks);
  return { type: 'weekly', scope, weeks: weeks.map((monday) => monday.toISOString().slice(0, 10)), series };
}

async function ownersOf(options: { db: Db; actor: EpakActor; query: StatisticsQuery; anyMember: boolean }): Promise<Owners> {
  const { db, actor, query } = options;
  switch (query.scope) {
    case 'user':
      return { person: actor.userId };
    case 'all':
      return 'tenant';
    case 'group': {
      // Everyone in any group the caller is in (the caller too); no groups, no one.
      const rows = await db
        .selectDistinct({ userId: theirs.userId })
        .from(mine)
        .innerJoin(theirs, eq(theirs.groupId, mine.groupId))
        .where(and(eq(mine.tenantId, actor.tenantId), eq(mine.userId, actor.userId)));
      return { people: rows.map((row) => row.userId) };
    }
    case 'groupuser': {
      if (!query.userId) throw invalidInput('Say whose numbers: userId, a member of one of your groups.', [{ path: 'userId', message: 'required for scope groupuser' }]);
      if (query.userId === actor.userId) return { person: actor.userId };
      if (!options.anyMember) {
        // A group's manager reads their members' numbers; members do not read each other's.
        const [shared] = await db
          .select({ groupId: mine.groupId })
          .from(mine)
          .innerJoin(theirs, eq(theirs.groupId, mine.groupId))
          .where(and(eq(mine.tenantId, actor.tenantId), eq(mine.userId, actor.userId), eq(mine.isManager, true), eq(theirs.userId, query.userId)))
          .limit(1);
        if (!shared) throw notFound('No member of a group you manage has this id.');
      } else {
        const [member] = await db
          .select({ userId: memberships.userId })
          .from(memberships)
          .where(and(eq(memberships.tenantId, actor.tenantId), eq(memberships.userId, query.userId)));
        if (!member) throw notFound('No member of this tenant has this id.');
      }
      return { person: query.userId };
    }
  }
}

/** Whom the caller may open with scope groupuser: their managed groups' members (any of their groups' for an admin), not themself. */
async function pickableMembers(db: Db, actor: EpakActor, anyMember: boolean): Promise<StatisticsMember[]> {
  const rows = await db
    .selectDistinct({ userId: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email })
    .from(mine)
    .innerJoin(theirs, eq(theirs.groupId, mine.groupId))
    .innerJoin(users, eq(users.id, theirs.userId))
    .where(and(eq(mine.tenantId, actor.tenantId), eq(mine.userId, actor.userId), anyMember ? undefined : eq(mine.isManager, true), ne(theirs.userId, actor.userId)));
  return rows.sort((a, b) => fullName(a).localeCompare(fullName(b)) || a.email.localeCompare(b.email));
}

const mine = alias(groupMembers, 'mine');
const theirs = alias(groupMembers, 'theirs');

/** The owner condition of a scope on `column` (epaks.owner_id by default; undefined: the whole tenant). */
function ownedBy(owners: Owners, column: AnyPgColumn | SQL = epaks.ownerId): SQL | undefined {
  if (owners === 'tenant') return undefined;
  if ('person' in owners) return sql`${column} = ${owners.person}`;
  // An empty group set owns nothing; `in ()` is not SQL.
  return owners.people.length === 0 ? sql`false` : sql`${column} in (${sql.join(owners.people.map((id) => sql`${id}::uuid`), sql`, `)})`;
}

async function userFolders(db: Db, actor: EpakActor): Promise<Record<Folder, number>> {
  const counts = await folderCounts(db, actor);
  return Object.fromEntries(FOLDERS.map((folder) => [folder, counts[folder]?.total ?? 0])) as Record<Folder, number>;
}

async function ownedFolders(db: Db, tenantId: string, owners: Owners): Promise<Record<Folder, number>> {
  const folder = sql<string>`case when ${epaks.archivedAt} is not null then 'Archived' when ${epaks.deletedAt} is not null then 'Deleted'
    when ${epaks.status} = 'InProgress' then 'Pending' else ${epaks.status} end`;
  const rows = await db
    .select({ folder, n: sql<number>`count(*)`.mapWith(Number) })
    .from(epaks)
    .where(and(eq(epaks.tenantId, tenantId), ownedBy(owners)))
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

async function weeklySeries(db: Db, tenantId: string, owners: Owners, weeks: Date[]): Promise<Partial<Record<WeeklyChartSeries, number[]>>> {
  const scope = owners === 'tenant' ? 'all' : 'owned';
  const start = weeks[0]!;
  const end = new Date(weeks.at(-1)!.getTime() + WEEK_MS);
  const names: readonly WeeklyChartSeries[] = scope === 'all' ? WEEKLY_SERIES_ALL : WEEKLY_SERIES_USER_OR_GROUP;
  const series: Partial<Record<WeeklyChartSeries, number[]>> = Object.fromEntries(names.map((name) => [name, weeks.map(() => 0)]));
  const owned = ownedBy(owners);
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
      .where(and(eq(epaks.tenantId, tenantId), owned, gte(epaks.createdAt, start), lt(epaks.createdAt, end)))
      .groupBy(sql`1`),
    db
      .select({ week: ended, status: epaks.status, n: sql<number>`count(*)`.mapWith(Number) })
      .from(epaks)
      .where(and(eq(epaks.tenantId, tenantId), owned, gte(epaks.endedAt, start), lt(epaks.endedAt, end), sql`${epaks.status} in ('Completed', 'Stopped')`))
      .groupBy(sql`1`, sql`2`),
    // Its own query names epaks e.
    pendingByWeek(db, tenantId, ownedBy(owners, sql`e.owner_id`), weeks),
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
        .where(and(eq(epaks.tenantId, tenantId), gte(epaks.startedAt, start), lt(epaks.startedAt, end)))
        .groupBy(sql`1`),
      rowsOf<{ week: number; status: string; n: number }>(
        await db.execute(sql`
          select floor(extract(epoch from (r.acted_at - ${start.toISOString()}::timestamptz)) / ${WEEK_MS / 1000})::int as week, r.status, count(*)::int as n
          from epak_recipients r join epaks e on e.id = r.epak_id
          where r.acted_at >= ${start.toISOString()} and r.acted_at < ${end.toISOString()}
            and r.status in ('Signed', 'Rejected') and e.tenant_id = ${tenantId}
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
async function pendingByWeek(db: Db, tenantId: string, owned: SQL | undefined, weeks: Date[]): Promise<number[]> {
  const ends = weeks.map((monday) => new Date(monday.getTime() + WEEK_MS).toISOString());
  const rows = rowsOf<{ week: number; n: number }>(
    await db.execute(sql`
      with candidates as (
        select e.started_at, e.ended_at from epaks e
        where e.tenant_id = ${tenantId} ${owned ? sql`and ${owned}` : sql``}
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

/** The rows of a raw query on either driver (node-postgres answers `{ rows }`). */
function rowsOf<T>(result: unknown): T[] {
  return ((result as { rows?: T[] }).rows ?? (result as T[])) as T[];
}
