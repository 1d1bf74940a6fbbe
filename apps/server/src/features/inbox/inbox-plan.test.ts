import { INBOX_SORTS, InboxQuery, type InboxSort } from '@pakt/domain';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTenant, makeUser } from '../../test/factories';
import { createTestDatabase, type TestDatabase } from '../../test/test-database';
import { PgDialect } from 'drizzle-orm/pg-core';
import { encodeInboxCursor } from './inbox-cursor';
import { inboxStatement } from './list-inbox';

/**
 * A page of a folder must stay one range of the sort's index however many ePaks there are:
 * no scan of the person's other folders, no sort of the whole folder. With 12,000 ePaks of four
 * owners (a quarter each drafts, under way, completed, stopped), analysed, the planner's choice
 * for every sort and direction is checked. A folder holds 750 rows: at half that, a bitmap scan
 * and a sort won whenever VACUUM could not mark the pages all-visible (a clean-clone CI run, with
 * other files' sessions in the cluster), so the test depended on the visibility map rather
 * than on the index; at 750 the range wins either way (checked with the VACUUM left out).
 */
let database: TestDatabase;
let actor: { tenantId: string; userId: string };

beforeAll(async () => {
  database = await createTestDatabase();
  const db = database.db;
  const tenant = await makeTenant(db);
  const owners: Array<{ id: string }> = [];
  for (let i = 0; i < 4; i++) owners.push(await makeUser(db, { password: null }));
  actor = { tenantId: tenant.id, userId: owners[0]!.id };
  // The test cluster runs with synchronous_commit off, and a commit not yet flushed leaves its
  // rows without the "committed" hint, so VACUUM would not mark their pages all-visible. This
  // one commit waits for its flush, as every commit of a durable install does.
  await db.transaction(async (tx) => {
    await tx.execute(sql`set local synchronous_commit = on`);
    await tx.execute(sql`
    insert into epaks (tenant_id, owner_id, subject, signing_policy, status, created_at, started_at, ended_at, updated_at, expires_at)
    select ${tenant.id}::uuid,
           (array[${sql.join(owners.map((o) => sql`${o.id}::uuid`), sql`, `)}])[i % 4 + 1],
           'Subject ' || i,
           'ESIGNATURE',
           (array['Draft', 'InProgress', 'Completed', 'Stopped'])[(i / 4) % 4 + 1],
           now() - i * interval '1 hour',
           case when (i / 4) % 4 > 0 then now() - i * interval '1 hour' end,
           case when (i / 4) % 4 > 1 then now() end,
           now() - i * interval '1 minute',
           case when i % 3 = 0 then now() + i * interval '1 day' end
    from generate_series(0, 11999) as i`);
  });
  // As autovacuum would have it: the visibility map lets the page be read from the index alone
  // (when it can; the seed is large enough that the plan does not depend on it).
  await database.executeSql('vacuum analyze epak_inbox', []);
}, 120_000);
afterAll(() => database.close());

const INDEX_OF_SORT = { sentOn: 'epak_inbox_sent', modifiedOn: 'epak_inbox_modified', subject: 'epak_inbox_subject', expiredOn: 'epak_inbox_expires' } as const;

describe('a page of a folder', () => {
  it('has the rows the seed made', async () => {
    const { rows } = await database.executeSql(`select folder, count(*)::int as n from epak_inbox where user_id = $1 group by folder order by folder`, [actor.userId]);
    expect(rows).toEqual([
      { folder: 'Completed', n: 750 },
      { folder: 'Draft', n: 750 },
      { folder: 'Pending', n: 750 },
      { folder: 'Stopped', n: 750 },
    ]);
  });

  /** The plan of the page's rows (the probe CTE's subtree); the summaries' small per-ePak sorts (folders, places) are not in it. */
  async function pagePlan(query: InboxQuery): Promise<string> {
    const statement = new PgDialect().sqlToQuery(inboxStatement(actor, query));
    const { rows } = await database.executeSql(`explain ${statement.sql}`, statement.params);
    const lines = (rows as Array<{ 'QUERY PLAN': string }>).map((row) => row['QUERY PLAN']);
    const start = lines.findIndex((line) => line.trim() === 'CTE probe');
    expect(start, lines.join('\n')).toBeGreaterThanOrEqual(0);
    const depth = (line: string) => line.length - line.trimStart().length;
    const end = lines.findIndex((line, i) => i > start && depth(line) <= depth(lines[start]!));
    return lines.slice(start, end === -1 ? undefined : end).join('\n');
  }
  const indexScans = (plan: string, sort: InboxSort) => plan.match(new RegExp(`Index (Only )?Scan( Backward)? using ${INDEX_OF_SORT[sort]} on epak_inbox`, 'g'))?.length ?? 0;
  const SORTS_AND_ORDERS = INBOX_SORTS.flatMap((sort) => (['asc', 'desc'] as const).map((order) => [sort, order] as const));
  /** A cursor after some row of the owner's Pending folder, with a key of each sort's type (or none). */
  const cursorOf = (sort: InboxSort, order: 'asc' | 'desc', key: string | null) =>
    encodeInboxCursor({ folder: 'Pending', sort, order, key, id: '80000000-0000-4000-8000-000000000000' });

  it.each(SORTS_AND_ORDERS)('sorted by %s %s, page 2 by number, is one index range', async (sort, order) => {
    const plan = await pagePlan(InboxQuery.parse({ folder: 'Pending', sort, order, pg: 2 }));
    expect(indexScans(plan, sort), plan).toBe(1);
    expect(plan, plan).not.toMatch(/\bSort\b/);
  });

  it.each(SORTS_AND_ORDERS)('sorted by %s %s, a page after a cursor is one index range (two for a crossing into undated rows)', async (sort, order) => {
    const key = sort === 'subject' ? 'subject 2000' : '2024-06-01T00:00:00.123456Z';
    const plan = await pagePlan(InboxQuery.parse({ folder: 'Pending', sort, order, cursor: cursorOf(sort, order, key) }));
    // Up from a date the undated rows come next: a second range, merged in order, each cut at the page.
    const crossing = sort === 'expiredOn' && order === 'asc';
    expect(indexScans(plan, sort), plan).toBe(crossing ? 2 : 1);
    expect(plan, plan).not.toMatch(/Seq Scan|Bitmap/);
    if (!crossing) expect(plan, plan).not.toMatch(/\bSort\b/);
  });

  it.each(['asc', 'desc'] as const)('sorted by expiredOn %s, a page after an undated row reads the undated rows by id (and down, then the dated ones)', async (order) => {
    const plan = await pagePlan(InboxQuery.parse({ folder: 'Pending', sort: 'expiredOn', order, cursor: cursorOf('expiredOn', order, null) }));
    expect(indexScans(plan, 'expiredOn'), plan).toBe(order === 'desc' ? 2 : 1);
    expect(plan, plan).not.toMatch(/Seq Scan|Bitmap/);
  });
});
