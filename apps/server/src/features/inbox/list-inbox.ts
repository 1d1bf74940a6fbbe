import { createHash } from 'node:crypto';
import { type Folder, FOLDERS, type FolderCounts, type InboxPage, type InboxQuery, type InboxSort } from '@pakt/domain';
import { and, eq, fillPlaceholders, type Placeholder, type SQL, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Db, SqlExecutor } from '../../platform/db/database';
import { epakInbox, epakInboxCounts } from '../../platform/db/schema';
import type { EpakActor } from '../epaks';
import { decodeInboxCursor, encodeInboxCursor, type InboxCursor } from './inbox-cursor';
import { searchCondition } from './search';
import { type PlaceRow, pageSummaries, type SummaryRow, toEpakSummaries } from './summaries';

/** Each sort's column: each has its index (person, tenant, folder, column, ePak id). */
const SORT_COLUMNS = {
  sentOn: epakInbox.sentAt,
  modifiedOn: epakInbox.modifiedAt,
  subject: epakInbox.subjectKey,
  expiredOn: epakInbox.expiresAt,
} as const satisfies Record<InboxSort, unknown>;

const dialect = new PgDialect();

/** The one row of the inbox statement, as the drivers parse it (json columns as values). */
export interface InboxStatementRow {
  counts: Array<[string, number, number]>;
  total: number | null;
  items: SummaryRow[];
  places: PlaceRow[];
  hits: Record<string, number> | null;
  /** The page's last row's sort key and id when another page follows (keys of dates in UTC, without the Z). */
  next: [string | null, string] | null;
}

/**
 * GET /msbapi/v2/epaks: one page of one of the caller's folders, in one statement (see
 * inboxStatement). Without star or search filters the total is read from the kept counts; with
 * them it is counted over the same narrowed range. With a cursor the page starts after the row
 * it names (keyset), else at `pg` pages in (OFFSET); both answer the cursor of the page after.
 */
export async function listInbox(options: { database: SqlExecutor; actor: EpakActor; query: InboxQuery; now?: Date }): Promise<InboxPage> {
  const { actor, query } = options;
  const after = query.cursor === undefined ? undefined : decodeInboxCursor(query.cursor, query);
  const { text, params, name } = renderInboxStatement(actor, query, after);
  const { rows } = await options.database.executeSql(text, params, name ? { name } : undefined);
  const row = rows[0] as InboxStatementRow;
  const counts = toFolderCounts(row.counts.map(([folder, total, unread]) => ({ folder, total, unread })));
  const now = options.now ?? new Date();
  return {
    folder: query.folder,
    pg: query.pg,
    size: query.size,
    total: row.total ?? keptTotal(query, counts[query.folder]),
    items: toEpakSummaries(row.items, row.places, actor.userId, now),
    counts,
    ...(row.hits ? { searchHits: toSearchHits(row.hits) } : {}),
    nextCursor: row.next ? encodeInboxCursor({ folder: query.folder, sort: query.sort, order: query.order, key: cursorKey(query.sort, row.next[0]), id: row.next[1] }) : null,
  };
}

/** A date key as the cursor carries it: PostgreSQL's JSON of the UTC timestamp, marked UTC. */
function cursorKey(sort: InboxSort, key: string | null): string | null {
  return key === null || sort === 'subject' ? key : `${key}Z`;
}

/**
 * Where a keyset page starts: after the row with this key and id. `keyIsNull` is part of the
 * statement's shape (see keysetRange), the key and id are its values.
 */
interface After {
  key: string | null | Placeholder;
  id: string | Placeholder;
  keyIsNull: boolean;
}

/** What one statement is built from: values, or placeholders filled at each execution. */
interface StatementInput {
  userId: string | Placeholder;
  tenantId: string | Placeholder;
  folder: string | Placeholder;
  starred?: boolean | Placeholder | undefined;
  isRead?: boolean | Placeholder | undefined;
  /** The page's size; one row more is read, to know whether another page follows. */
  limit: number | Placeholder;
  /** limit + 1 (a parameter of its own: LIMIT takes no arithmetic on a prepared parameter's type guess). */
  fetch: number | Placeholder;
  offset: number | Placeholder;
  after?: After | undefined;
  search?: SQL | undefined;
  sort: InboxSort;
  order: 'asc' | 'desc';
}

function inputOf(actor: EpakActor, query: InboxQuery, after?: InboxCursor): StatementInput {
  return {
    userId: actor.userId,
    tenantId: actor.tenantId,
    folder: query.folder,
    starred: query.starred === undefined ? undefined : query.starred === 'true',
    isRead: query.unread === undefined ? undefined : query.unread !== 'true',
    limit: query.size,
    fetch: query.size + 1,
    // A cursor replaces the page number: the page starts after its row, not after pg pages.
    offset: after ? 0 : query.pg * query.size,
    after: after ? { key: after.key, id: after.id, keyIsNull: after.key === null } : undefined,
    search: query.searchKey && query.searchVal !== undefined ? searchCondition(actor.tenantId, query.searchKey, query.searchVal) : undefined,
    sort: query.sort,
    order: query.order,
  };
}

/**
 * The whole answer as one statement, one row: the caller's folder counts, the filtered total
 * (when the kept counts cannot give it), the page's ePaks in order and their places, and where
 * the next page starts. The page is one range of the sort's index, ordered by the sort key then the ePak id in
 * the same direction: a total order (one row per ePak in a folder), so OFFSET pages and keyset
 * pages are the same rows and pages never overlap. One round trip instead of five: bench/inbox
 * showed each query's fixed cost (building it, its round trip) to be a large part of a
 * request's. Exported so a test can EXPLAIN exactly this statement.
 */
export function inboxStatement(actor: EpakActor, query: InboxQuery): SQL {
  const after = query.cursor === undefined ? undefined : decodeInboxCursor(query.cursor, query);
  return buildStatement(inputOf(actor, query, after));
}

function buildStatement(input: StatementInput): SQL {
  const direction = sql.raw(input.order === 'asc' ? 'asc' : 'desc');
  const conditions: SQL[] = [eq(epakInbox.userId, input.userId), eq(epakInbox.tenantId, input.tenantId), eq(epakInbox.folder, input.folder)];
  if (input.starred !== undefined) conditions.push(eq(epakInbox.starred, input.starred));
  if (input.isRead !== undefined) conditions.push(eq(epakInbox.isRead, input.isRead));
  if (input.search) conditions.push(input.search);
  const where = and(...conditions)!;
  const filtered = input.starred !== undefined || input.search !== undefined;
  const summaries = pageSummaries({ userId: input.userId, tenantId: input.tenantId });
  // The key of the next page's cursor: dates in UTC, so the cursor does not depend on the
  // session's time zone (PostgreSQL's JSON of a timestamp is ISO 8601 whatever DateStyle is).
  const cursorKey = input.sort === 'subject' ? sql`p.k` : sql`(p.k at time zone 'UTC')`;
  return sql`
    with probe as materialized (
      select r.epak_id, r.k, row_number() over (order by r.k ${direction}, r.epak_id ${direction}) as ord
      from (${pageRange(input, where)}) r
    ),
    page as (select epak_id, ord from probe where ord <= ${input.limit}),
    ${summaries.ctes}
    select
      (select coalesce(json_agg(json_build_array(c.folder, c.total, c.unread)), '[]'::json)
         from epak_inbox_counts c where c.user_id = ${input.userId} and c.tenant_id = ${input.tenantId}) as counts,
      ${filtered ? sql`(select count(*)::int from ${epakInbox} where ${where})` : sql`null::int`} as total,
      ${summaries.items} as items,
      ${summaries.places} as places,
      ${
        // With a search, its hits in each of the caller's folders: the inbox opens the folder where
        // they are rather than an empty one (issue 21). Bounded by the caller's own rows, as the page is.
        input.search
          ? sql`(select coalesce(json_object_agg(h.folder, h.n), '{}'::json) from (
                 select ${epakInbox.folder} as folder, count(*)::int as n from ${epakInbox}
                 where ${and(eq(epakInbox.userId, input.userId), eq(epakInbox.tenantId, input.tenantId), input.search)}
                 group by ${epakInbox.folder}) h)`
          : sql`null::json`
      } as hits,
      (select json_build_array(${cursorKey}, p.epak_id) from probe p
        where p.ord = ${input.limit} and exists (select 1 from probe x where x.ord > ${input.limit})) as next`;
}

/**
 * The page's rows, one more than the page (epak_id, k: the sort key), in page order. Without a
 * cursor: `offset` rows in, one range of the sort's index. With a cursor: the rows after
 * (key, id) in the same order, by a row comparison on the same index, so the range starts where
 * the cursor's row was and a deep page reads what the first does.
 *
 * Rows without an expiry sort last going up and first going down (PostgreSQL's default, which
 * the index scan gives both ways). A row comparison never matches them, so where the rows after
 * the cursor cross from dated to undated rows (up from a date, down from an undated row) the
 * range is two index ranges, each cut at the page, merged in order.
 */
function pageRange(input: StatementInput, where: SQL): SQL {
  const column = SORT_COLUMNS[input.sort];
  const direction = sql.raw(input.order === 'asc' ? 'asc' : 'desc');
  const ordered = sql`order by ${column} ${direction}, ${epakInbox.epakId} ${direction}`;
  const range = (condition: SQL | undefined) =>
    sql`select ${epakInbox.epakId} as epak_id, ${column} as k from ${epakInbox} where ${condition ? and(where, condition) : where} ${ordered} limit ${input.fetch}`;
  const { after } = input;
  if (!after) return sql`${range(undefined)} offset ${input.offset}`;
  const beyond = sql.raw(input.order === 'asc' ? '>' : '<');
  const id = sql`${after.id}::uuid`;
  if (!after.keyIsNull) {
    const key = input.sort === 'subject' ? sql`${after.key}::text` : sql`${after.key}::timestamptz`;
    const dated = range(sql`(${column}, ${epakInbox.epakId}) ${beyond} (${key}, ${id})`);
    // Up from a date, the undated rows come after every dated one.
    if (input.sort !== 'expiredOn' || input.order === 'desc') return dated;
    return sql`select * from ((${dated}) union all (${range(sql`${column} is null`)})) u order by k asc, epak_id asc limit ${input.fetch}`;
  }
  const undated = range(sql`${column} is null and ${epakInbox.epakId} ${beyond} ${id}`);
  // Down from an undated row, every dated row comes after the undated ones.
  if (input.order === 'asc') return undated;
  return sql`select * from ((${undated}) union all (${range(sql`${column} is not null`)})) u order by k desc, epak_id desc limit ${input.fetch}`;
}

/** Rendered text per sort, order, filter set and kind of cursor (searches aside), with its statement name. */
const rendered = new Map<string, { text: string; params: unknown[]; name: string }>();

/**
 * The statement's text and parameters. Without a search the text depends only on the sort, the
 * order, which filters are set and the kind of start (pg, a cursor's row, a cursor's undated
 * row): it is rendered once and prepared once per connection under its own name. A search is
 * rendered each time and planned each time: its best plan depends on what is searched for, which
 * a generic plan cannot know.
 */
function renderInboxStatement(actor: EpakActor, query: InboxQuery, cursor: InboxCursor | undefined): { text: string; params: unknown[]; name?: string } {
  const input = inputOf(actor, query, cursor);
  if (input.search) {
    const { sql: text, params } = dialect.sqlToQuery(buildStatement(input));
    return { text, params };
  }
  const start = !input.after ? 'pg' : input.after.keyIsNull ? 'after-undated' : 'after';
  const key = `${input.sort} ${input.order} ${input.starred === undefined ? '' : 's'}${input.isRead === undefined ? '' : 'r'} ${start}`;
  let cached = rendered.get(key);
  if (!cached) {
    const { sql: text, params } = dialect.sqlToQuery(
      buildStatement({
        ...input,
        userId: sql.placeholder('userId'),
        tenantId: sql.placeholder('tenantId'),
        folder: sql.placeholder('folder'),
        starred: input.starred === undefined ? undefined : sql.placeholder('starred'),
        isRead: input.isRead === undefined ? undefined : sql.placeholder('isRead'),
        limit: sql.placeholder('limit'),
        fetch: sql.placeholder('fetch'),
        offset: sql.placeholder('offset'),
        after: input.after ? { key: sql.placeholder('afterKey'), id: sql.placeholder('afterId'), keyIsNull: input.after.keyIsNull } : undefined,
      }),
    );
    cached = { text, params, name: `inbox-${createHash('sha1').update(text).digest('base64url').slice(0, 20)}` };
    rendered.set(key, cached);
  }
  const values = {
    userId: input.userId,
    tenantId: input.tenantId,
    folder: input.folder,
    starred: input.starred,
    isRead: input.isRead,
    limit: input.limit,
    fetch: input.fetch,
    offset: input.offset,
    afterKey: input.after?.key,
    afterId: input.after?.id,
  };
  return { text: cached.text, params: fillPlaceholders(cached.params, values), name: cached.name };
}

/** Every folder's number of search hits, zeros included, folders the caller does not have left out. */
function toSearchHits(hits: Record<string, number>): Record<Folder, number> {
  return Object.fromEntries(FOLDERS.map((folder) => [folder, hits[folder] ?? 0])) as Record<Folder, number>;
}

function keptTotal(query: InboxQuery, count: { total: number; unread: number }): number {
  if (query.unread === 'true') return count.unread;
  if (query.unread === 'false') return count.total - count.unread;
  return count.total;
}

function toFolderCounts(rows: ReadonlyArray<{ folder: string; total: number; unread: number }>): FolderCounts {
  const counts = Object.fromEntries(FOLDERS.map((folder) => [folder, { total: 0, unread: 0 }])) as Record<Folder, { total: number; unread: number }>;
  for (const row of rows) {
    if ((FOLDERS as readonly string[]).includes(row.folder)) counts[row.folder as Folder] = { total: row.total, unread: row.unread };
  }
  return counts;
}

/** The caller's twelve folder counts (zeros included), from the rows the inbox trigger keeps. */
export async function folderCounts(db: Db, actor: EpakActor): Promise<FolderCounts> {
  const rows = await db
    .select({ folder: epakInboxCounts.folder, total: epakInboxCounts.total, unread: epakInboxCounts.unread })
    .from(epakInboxCounts)
    .where(and(eq(epakInboxCounts.userId, actor.userId), eq(epakInboxCounts.tenantId, actor.tenantId)));
  return toFolderCounts(rows);
}
