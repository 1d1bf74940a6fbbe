import { createHash } from 'node:crypto';
import { type Folder, FOLDERS, type FolderCounts, type InboxPage, type InboxQuery, type InboxSort } from '@pakt/domain';
import { and, eq, fillPlaceholders, type Placeholder, type SQL, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Db, SqlExecutor } from '../../platform/db/database';
import { epakInbox, epakInboxCounts } from '../../platform/db/schema';
import type { EpakActor } from '../epaks';
import { searchCondition } from './search';
import { pageSummaries, type SummaryJson, toEpakSummary } from './summaries';

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
  items: SummaryJson[];
  hits: Record<string, number> | null;
}

/**
 * GET /msbapi/v2/epaks: one page of one of the caller's folders, in one statement (see
 * inboxStatement). Without star or search filters the total is read from the kept counts; with
 * them it is counted over the same narrowed range.
 */
export async function listInbox(options: { database: SqlExecutor; actor: EpakActor; query: InboxQuery; now?: Date }): Promise<InboxPage> {
  const { actor, query } = options;
  const { text, params, name } = renderInboxStatement(actor, query);
  const { rows } = await options.database.executeSql(text, params, name ? { name } : undefined);
  const row = rows[0] as InboxStatementRow;
  const counts = toFolderCounts(row.counts.map(([folder, total, unread]) => ({ folder, total, unread })));
  const now = options.now ?? new Date();
  return {
    folder: query.folder,
    pg: query.pg,
    size: query.size,
    total: row.total ?? keptTotal(query, counts[query.folder]),
    items: row.items.map((item) => toEpakSummary(item, actor.userId, now)),
    counts,
    ...(row.hits ? { searchHits: toSearchHits(row.hits) } : {}),
  };
}

/** What one statement is built from: values, or placeholders filled at each execution. */
interface StatementInput {
  userId: string | Placeholder;
  tenantId: string | Placeholder;
  folder: string | Placeholder;
  starred?: boolean | Placeholder | undefined;
  isRead?: boolean | Placeholder | undefined;
  limit: number | Placeholder;
  offset: number | Placeholder;
  search?: SQL | undefined;
  sort: InboxSort;
  order: 'asc' | 'desc';
}

function inputOf(actor: EpakActor, query: InboxQuery): StatementInput {
  return {
    userId: actor.userId,
    tenantId: actor.tenantId,
    folder: query.folder,
    starred: query.starred === undefined ? undefined : query.starred === 'true',
    isRead: query.unread === undefined ? undefined : query.unread !== 'true',
    limit: query.size,
    offset: query.pg * query.size,
    search: query.searchKey && query.searchVal !== undefined ? searchCondition(actor.tenantId, query.searchKey, query.searchVal) : undefined,
    sort: query.sort,
    order: query.order,
  };
}

/**
 * The whole answer as one statement, one row: the caller's folder counts, the filtered total
 * (when the kept counts cannot give it), and the page's summaries in order. The page is one
 * range of the sort's index (ties broken by ePak id in the same direction, so pages never
 * overlap), numbered as it is read. One round trip instead of five: bench/inbox showed each
 * query's fixed cost (building it, its round trip) to be a large part of a request's. Exported
 * so a test can EXPLAIN exactly this statement.
 */
export function inboxStatement(actor: EpakActor, query: InboxQuery): SQL {
  return buildStatement(inputOf(actor, query));
}

function buildStatement(input: StatementInput): SQL {
  const column = SORT_COLUMNS[input.sort];
  const direction = sql.raw(input.order === 'asc' ? 'asc' : 'desc');
  const conditions: SQL[] = [eq(epakInbox.userId, input.userId), eq(epakInbox.tenantId, input.tenantId), eq(epakInbox.folder, input.folder)];
  if (input.starred !== undefined) conditions.push(eq(epakInbox.starred, input.starred));
  if (input.isRead !== undefined) conditions.push(eq(epakInbox.isRead, input.isRead));
  if (input.search) conditions.push(input.search);
  const where = and(...conditions);
  const filtered = input.starred !== undefined || input.search !== undefined;
  const summaries = pageSummaries({ userId: input.userId, tenantId: input.tenantId });
  return sql`
    with page as materialized (
      select ${epakInbox.epakId} as epak_id,
             row_number() over (order by ${column} ${direction}, ${epakInbox.epakId} ${direction}) as ord
      from ${epakInbox}
      where ${where}
      order by ${column} ${direction}, ${epakInbox.epakId} ${direction}
      limit ${input.limit} offset ${input.offset}
    ),
    ${summaries.ctes}
    select
      (select coalesce(json_agg(json_build_array(c.folder, c.total, c.unread)), '[]'::json)
         from epak_inbox_counts c where c.user_id = ${input.userId} and c.tenant_id = ${input.tenantId}) as counts,
      ${filtered ? sql`(select count(*)::int from ${epakInbox} where ${where})` : sql`null::int`} as total,
      ${summaries.items} as items,
      ${
        // With a search, its hits in each of the caller's folders: the inbox opens the folder where
        // they are rather than an empty one (issue 21). Bounded by the caller's own rows, as the page is.
        input.search
          ? sql`(select coalesce(json_object_agg(h.folder, h.n), '{}'::json) from (
                 select ${epakInbox.folder} as folder, count(*)::int as n from ${epakInbox}
                 where ${and(eq(epakInbox.userId, input.userId), eq(epakInbox.tenantId, input.tenantId), input.search)}
                 group by ${epakInbox.folder}) h)`
          : sql`null::json`
      } as hits`;
}

/** Rendered text per sort, order and filter set (searches aside), with its statement name. */
const rendered = new Map<string, { text: string; params: unknown[]; name: string }>();

/**
 * The statement's text and parameters. Without a search the text depends only on the sort, the
 * order and which filters are set: it is rendered once and prepared once per connection under
 * its own name. A search is rendered each time and planned each time: its best plan depends on
 * what is searched for, which a generic plan cannot know.
 */
function renderInboxStatement(actor: EpakActor, query: InboxQuery): { text: string; params: unknown[]; name?: string } {
  const input = inputOf(actor, query);
  if (input.search) {
    const { sql: text, params } = dialect.sqlToQuery(buildStatement(input));
    return { text, params };
  }
  const key = `${input.sort} ${input.order} ${input.starred === undefined ? '' : 's'}${input.isRead === undefined ? '' : 'r'}`;
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
        offset: sql.placeholder('offset'),
      }),
    );
    cached = { text, params, name: `inbox-${createHash('sha1').update(text).digest('base64url').slice(0, 20)}` };
    rendered.set(key, cached);
  }
  const values = { userId: input.userId, tenantId: input.tenantId, folder: input.folder, starred: input.starred, isRead: input.isRead, limit: input.limit, offset: input.offset };
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
