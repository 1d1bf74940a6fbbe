import type { InboxPage, InboxQuery } from '@pakt/domain';
import type { SqlExecutor } from '../../platform/db/database';
import type { EpakActor } from '../epaks';
import type { PageCache } from './page-cache';

/** A page as it was answered, and until when it may be answered again at the latest. */
export interface KeptPage<T> {
  value: T;
  /** Epoch ms: the first moment something on the page changes by the clock alone. */
  validUntil: number;
}

const VERSION_SQL = 'select version from epak_inbox_versions where user_id = $1 and tenant_id = $2';

/**
 * An inbox page from the process's kept pages when the caller's inbox version is the one it was
 * read at (and the clock has not changed it since), else read afresh by `read` and kept. A
 * search is always read afresh: what it matches is not all in the caller's inbox rows.
 */
export async function keptInboxPage<T>(options: {
  database: SqlExecutor;
  actor: EpakActor;
  query: InboxQuery;
  cache: PageCache<KeptPage<T>>;
  read: () => Promise<KeptPage<T>>;
  now?: number;
}): Promise<T> {
  const { database, actor, query, cache } = options;
  if (!cache.enabled || query.searchKey) return (await options.read()).value;
  const now = options.now ?? Date.now();
  const { rows } = await database.executeSql(VERSION_SQL, [actor.userId, actor.tenantId], { name: 'inbox-version' });
  // bigint arrives as a string from pg; a person without inbox rows yet has no version row.
  const version = Number((rows[0] as { version: string | number } | undefined)?.version ?? 0);
  const key = `${actor.userId} ${actor.tenantId} ${query.folder} ${query.sort} ${query.order} ${query.pg} ${query.size} ${query.starred ?? ''} ${query.unread ?? ''} ${query.cursor ?? ''}`;
  const kept = cache.get(key, version, now);
  if (kept && now < kept.validUntil) return kept.value;
  // The version is read before the page: a page read after a later change is kept under the
  // older version and only ever refreshed early, never served late.
  const fresh = await options.read();
  cache.set(key, version, fresh, now);
  return fresh.value;
}

/** When the page changes by the clock alone: the first retention date still to come on it. */
export function changesByClockAt(page: InboxPage, now: number): number {
  let at = Number.POSITIVE_INFINITY;
  for (const item of page.items) {
    if (item.retentionDate === null || item.archivalPeriodOver) continue;
    const retention = Date.parse(item.retentionDate);
    if (retention > now && retention < at) at = retention;
  }
  return at;
}
