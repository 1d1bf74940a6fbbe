import { type Folder, FOLDERS, type FolderCounts, type InboxPage, type InboxQuery, type InboxSort } from '@pakt/domain';
import { and, asc, desc, eq, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../db/database';
import { epakInbox, epakInboxCounts } from '../db/schema';
import type { EpakActor } from '../epaks/access';
import { searchCondition } from './search';
import { loadEpakSummaries } from './summaries';

/** Each sort's column: each has its index (person, tenant, folder, column, ePak id). */
const SORT_COLUMNS = {
  sentOn: epakInbox.sentAt,
  modifiedOn: epakInbox.modifiedAt,
  subject: epakInbox.subjectKey,
  expiredOn: epakInbox.expiresAt,
} as const satisfies Record<InboxSort, unknown>;

/**
 * GET /msbapi/v2/epaks: one page of one of the caller's folders. The page is one range of the
 * sort's index (ties broken by ePak id in the same direction, so pages never overlap); starred,
 * unread and the search narrow it. Without star or search filters the total is read from the
 * kept counts; with them it is counted over the same narrowed range.
 */
export async function listInbox(options: { db: Db; actor: EpakActor; query: InboxQuery; now?: Date }): Promise<InboxPage> {
  const { db, actor, query } = options;
  const where = inboxWhere(actor, query);
  const [page, counts] = await Promise.all([inboxPageQuery(db, actor, query), folderCounts(db, actor)]);
  const total = await totalOf(db, where, query, counts[query.folder]);
  const summaries = await loadEpakSummaries(db, actor, page.map((row) => row.epakId), options.now);
  return {
    folder: query.folder,
    pg: query.pg,
    size: query.size,
    total,
    // A row whose ePak changed between the two reads is left out rather than shown half-known.
    items: page.flatMap((row) => summaries.get(row.epakId) ?? []),
    counts,
  };
}

function inboxWhere(actor: EpakActor, query: InboxQuery): SQL | undefined {
  const conditions: SQL[] = [eq(epakInbox.userId, actor.userId), eq(epakInbox.tenantId, actor.tenantId), eq(epakInbox.folder, query.folder)];
  if (query.starred !== undefined) conditions.push(eq(epakInbox.starred, query.starred === 'true'));
  if (query.unread !== undefined) conditions.push(eq(epakInbox.isRead, query.unread !== 'true'));
  if (query.searchKey && query.searchVal !== undefined) conditions.push(searchCondition(actor.tenantId, query.searchKey, query.searchVal));
  return and(...conditions);
}

/** The ids of one page, in order (exported so a test can EXPLAIN exactly this query). */
export function inboxPageQuery(db: Db, actor: EpakActor, query: InboxQuery) {
  const direction = query.order === 'asc' ? asc : desc;
  return db
    .select({ epakId: epakInbox.epakId })
    .from(epakInbox)
    .where(inboxWhere(actor, query))
    .orderBy(direction(SORT_COLUMNS[query.sort]), direction(epakInbox.epakId))
    .limit(query.size)
    .offset(query.pg * query.size);
}

async function totalOf(db: Db, where: SQL | undefined, query: InboxQuery, count: { total: number; unread: number }): Promise<number> {
  if (query.starred === undefined && !query.searchKey) {
    if (query.unread === 'true') return count.unread;
    if (query.unread === 'false') return count.total - count.unread;
    return count.total;
  }
  const [row] = await db.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(epakInbox).where(where);
  return row?.n ?? 0;
}

/** The caller's twelve folder counts (zeros included), from the rows the inbox trigger keeps. */
export async function folderCounts(db: Db, actor: EpakActor): Promise<FolderCounts> {
  const rows = await db
    .select({ folder: epakInboxCounts.folder, total: epakInboxCounts.total, unread: epakInboxCounts.unread })
    .from(epakInboxCounts)
    .where(and(eq(epakInboxCounts.userId, actor.userId), eq(epakInboxCounts.tenantId, actor.tenantId)));
  const counts = Object.fromEntries(FOLDERS.map((folder) => [folder, { total: 0, unread: 0 }])) as Record<Folder, { total: number; unread: number }>;
  for (const row of rows) {
    if ((FOLDERS as readonly string[]).includes(row.folder)) counts[row.folder as Folder] = { total: row.total, unread: row.unread };
  }
  return counts;
}
