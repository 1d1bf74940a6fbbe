import { DomainError, type Folder, FOLDERS, INBOX_SORTS, type InboxPage, InboxQuery, type InboxSort } from '@pakt/domain';
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { epaks } from '../../platform/db/schema';
import { makeTenant, makeUser } from '../../test/factories';
import { createTestDatabase, type TestDatabase } from '../../test/test-database';
import { encodeInboxCursor } from './inbox-cursor';
import { listInbox } from './list-inbox';

/**
 * Keyset pages (a cursor) against OFFSET pages (pg): the same rows, page by page, for every
 * folder, sort and order, with ties in every sort key (equal dates, dates a microsecond apart,
 * subjects equal but for case, no expiry), and what happens when ePaks change between pages.
 * The ePaks are written straight to their tables: the inbox triggers make the rows.
 */
let database: TestDatabase;
type Who = 'owner' | 'signer' | 'reviewer' | 'delegate';
const actors = {} as Record<Who, { tenantId: string; userId: string }>;
const SIZE = 10;
/** 150 ePaks: the owner's Pending then holds exactly 50, five full pages and no sixth. */
const EPAKS = 150;

beforeAll(async () => {
  database = await createTestDatabase();
  const db = database.db;
  const tenant = await makeTenant(db);
  for (const who of ['owner', 'signer', 'reviewer', 'delegate'] as const) actors[who] = { tenantId: tenant.id, userId: (await makeUser(db, { password: null })).id };
  const { owner, signer, reviewer, delegate } = actors;
  // One kind per ePak, round robin: every folder is someone's. Step 1 reviews (the reviewer),
  // step 2 signs (the signer, and for a delegation the delegate after them).
  await db.transaction(async (tx) => {
    await tx.execute(sql`
      create temp table plan on commit drop as
      select i, gen_random_uuid() as id, gen_random_uuid() as step1, gen_random_uuid() as step2, gen_random_uuid() as signer_place,
             (array['draft','step1','step2','completed','rejected','stopped','expired','delegated','deleted','archived','completed','step2'])[i % 12 + 1] as kind
      from generate_series(0, ${EPAKS - 1}) as i`);
    await tx.execute(sql`
      insert into epaks (id, tenant_id, owner_id, subject, signing_policy, status, current_step, created_at, started_at, updated_at, expires_at, ended_at, deleted_at, archived_at)
      select id, ${tenant.id}::uuid, ${owner.userId}::uuid,
             -- subjects equal but for case: one subject key for three of them
             (array['Lease', 'LEASE', 'lease', 'NDA', 'Offer'])[i % 5 + 1],
             'ESIGNATURE',
             case when kind = 'draft' then 'Draft' when kind in ('step1', 'step2', 'delegated') then 'InProgress'
                  when kind in ('completed', 'deleted', 'archived') then 'Completed' when kind = 'rejected' then 'Rejected'
                  when kind = 'stopped' then 'Stopped' else 'Expired' end,
             case when kind = 'step1' then 1 when kind in ('step2', 'delegated') then 2 end,
             timestamptz '2024-01-01 00:00:00Z' + (i % 7) * interval '1 hour' + (i % 2) * interval '1 microsecond',
             -- seven sending times, half of them a microsecond later: ties, and keys a millisecond cannot tell apart
             case when kind <> 'draft' then timestamptz '2024-01-01 00:00:00Z' + (i % 7) * interval '1 hour' + (i % 2) * interval '1 microsecond' end,
             timestamptz '2024-02-01 00:00:00Z' + (i % 4) * interval '1 day',
             case when i % 4 = 0 then null else timestamptz '2025-01-01 00:00:00Z' + (i % 3) * interval '1 day' end,
             case when kind in ('completed', 'deleted', 'archived', 'rejected', 'stopped', 'expired') then timestamptz '2024-03-01 00:00:00Z' end,
             case when kind = 'deleted' then timestamptz '2024-03-02 00:00:00Z' end,
             case when kind = 'archived' then timestamptz '2024-03-03 00:00:00Z' end
      from plan order by i`);
    await tx.execute(sql`
      insert into epak_steps (id, epak_id, position, workflow_state_id, name, type)
      select step1, id, 1, '00000000-0000-4000-8000-000000000001'::uuid, 'Review', 'REVIEW' from plan
      union all
      select step2, id, 2, '00000000-0000-4000-8000-000000000002'::uuid, 'Sign', 'SIGN' from plan`);
    await tx.execute(sql`
      insert into epak_recipients (epak_id, step_id, user_id, position, status)
      select id, step1, ${reviewer.userId}::uuid, 1, case when kind in ('draft', 'step1') then 'Pending' else 'Reviewed' end from plan`);
    await tx.execute(sql`
      insert into epak_recipients (id, epak_id, step_id, user_id, position, status)
      select signer_place, id, step2, ${signer.userId}::uuid, 1,
             case when kind in ('draft', 'step1', 'step2') then 'Pending' when kind in ('completed', 'deleted', 'archived') then 'Signed'
                  when kind = 'rejected' then 'Rejected' when kind = 'delegated' then 'Delegated' else 'Skipped' end
      from plan`);
    await tx.execute(sql`
      insert into epak_recipients (epak_id, step_id, user_id, position, status, delegated_from_id)
      select id, step2, ${delegate.userId}::uuid, 2, 'DelegatePending', signer_place from plan where kind = 'delegated'`);
    // The signer has read every other ePak and starred every third.
    await tx.execute(sql`
      insert into epak_user_states (epak_id, user_id, starred, read_at)
      select id, ${signer.userId}::uuid, i % 3 = 0, case when i % 2 = 0 then now() end from plan where i % 2 = 0 or i % 3 = 0`);
  });
}, 120_000);
afterAll(() => database.close());

const page = (who: Who, query: Partial<InboxQuery> & { folder: Folder }) => listInbox({ database, actor: actors[who], query: InboxQuery.parse(query) });
const ids = (p: InboxPage) => p.items.map((item) => item.id);

/** Every page of a folder by page number, until one is short: the pages, and one past the end. */
async function offsetPages(who: Who, query: Partial<InboxQuery> & { folder: Folder }): Promise<InboxPage[]> {
  const pages: InboxPage[] = [];
  for (let pg = 0; ; pg++) {
    const next = await page(who, { ...query, size: SIZE, pg });
    pages.push(next);
    if (next.items.length < SIZE) return pages;
  }
}

/** Every page of a folder by following each answer's cursor from the first page. */
async function keysetPages(who: Who, query: Partial<InboxQuery> & { folder: Folder }): Promise<InboxPage[]> {
  const pages = [await page(who, { ...query, size: SIZE })];
  while (pages.at(-1)!.nextCursor) pages.push(await page(who, { ...query, size: SIZE, cursor: pages.at(-1)!.nextCursor! }));
  return pages;
}

const ORDERS = ['asc', 'desc'] as const;

describe('keyset pages', () => {
  it('cover the seed: every folder has rows for someone, and the owner has exactly five full pages of Pending', async () => {
    const filled = new Set<Folder>();
    for (const who of Object.keys(actors) as Who[]) {
      const { counts } = await page(who, { folder: 'Inbox' });
      for (const folder of FOLDERS) if (counts[folder].total > 0) filled.add(folder);
    }
    expect([...filled].sort()).toEqual([...FOLDERS].sort());
    expect((await page('owner', { folder: 'Pending' })).total).toBe(50);
  });

  it.each(INBOX_SORTS.flatMap((sort) => ORDERS.map((order) => [sort, order] as const)))(
    'sorted by %s %s are the OFFSET pages, page by page, for every person and folder',
    async (sort: InboxSort, order) => {
      for (const who of Object.keys(actors) as Who[]) {
        for (const folder of FOLDERS) {
          const filters = who === 'signer' ? [{}, { unread: 'true' as const }, { starred: 'true' as const }] : [{}];
          for (const filter of filters) {
            const query = { folder, sort, order, ...filter };
            const byOffset = await offsetPages(who, query);
            const byKeyset = await keysetPages(who, query);
            const label = `${who} ${folder} ${sort} ${order} ${JSON.stringify(filter)}`;
            const total = byOffset[0]!.total;
            // The OFFSET path ends on a short page (possibly empty); the keyset path on the last page with rows.
            const offsetWithRows = byOffset.filter((p, n) => p.items.length > 0 || n === 0);
            expect(byKeyset.map(ids), label).toEqual(offsetWithRows.map(ids));
            expect(byKeyset.flatMap(ids), label).toHaveLength(total);
            expect(new Set(byKeyset.flatMap(ids)).size, label).toBe(total);
            // Each answer's cursor is the same whichever way the page was read, and the last page has none.
            expect(byKeyset.map((p) => p.nextCursor), label).toEqual(offsetWithRows.map((p) => p.nextCursor));
            expect(byKeyset.at(-1)!.nextCursor, label).toBeNull();
          }
        }
      }
    },
    120_000,
  );

  it("give each ePak's folders for the caller as the folders it is listed in (the inbox trigger's rows)", async () => {
    for (const who of Object.keys(actors) as Who[]) {
      const listedIn = new Map<string, Folder[]>();
      const said = new Map<string, string[]>();
      for (const folder of FOLDERS) {
        for (const item of (await offsetPages(who, { folder })).flatMap((p) => p.items)) {
          listedIn.set(item.id, [...(listedIn.get(item.id) ?? []), folder]);
          said.set(item.id, item.folders);
        }
      }
      expect(listedIn.size, who).toBeGreaterThan(0);
      for (const [id, folders] of listedIn) expect(said.get(id), `${who} ${id}`).toEqual([...folders].sort());
    }
  });

  it('read the rows that did not move, neither repeated nor skipped, when ePaks change between pages (OFFSET repeats one)', async () => {
    const query = { folder: 'Pending' as const, sort: 'sentOn' as const, order: 'desc' as const, size: SIZE };
    const before = (await offsetPages('owner', query)).flatMap(ids);
    const first = await page('owner', query);
    expect(ids(first)).toEqual(before.slice(0, SIZE));
    const left = before[2]!; // on the first page, leaves the folder
    const leftLater = before[SIZE + 3]!; // after the cursor, leaves the folder
    const moved = before[SIZE + 5]!; // after the cursor, moves to the top
    const saved = await database.db.select().from(epaks).where(inArray(epaks.id, [left, leftLater, moved]));
    try {
      await database.db.update(epaks).set({ status: 'Stopped', currentStep: null }).where(eq(epaks.id, left));
      await database.db.update(epaks).set({ status: 'Stopped', currentStep: null }).where(eq(epaks.id, leftLater));
      await database.db.update(epaks).set({ startedAt: new Date('2030-01-01T00:00:00Z') }).where(eq(epaks.id, moved));
      const [added] = await database.db
        .insert(epaks)
        .values({ tenantId: actors.owner.tenantId, ownerId: actors.owner.userId, subject: 'Newest', signingPolicy: 'ESIGNATURE', status: 'InProgress', startedAt: new Date('2031-01-01T00:00:00Z') })
        .returning({ id: epaks.id });
      // An owner's ePak under way with no places is in their Pending folder.
      const now = (await offsetPages('owner', query)).flatMap(ids);
      expect(now.slice(0, 2)).toEqual([added!.id, moved]);

      const second = await page('owner', { ...query, cursor: first.nextCursor! });
      const unmovedAfterCursor = before.slice(SIZE).filter((id) => id !== leftLater && id !== moved);
      expect(ids(second)).toEqual(unmovedAfterCursor.slice(0, SIZE));
      expect(ids(second).filter((id) => ids(first).includes(id))).toEqual([]);
      // The same page by number: two rows came before it and one went, so its first row is the first page's last again.
      const byNumber = await page('owner', { ...query, pg: 1 });
      expect(ids(byNumber)[0]).toBe(before[SIZE - 1]);
    } finally {
      for (const row of saved) await database.db.update(epaks).set({ status: row.status, currentStep: row.currentStep, startedAt: row.startedAt }).where(eq(epaks.id, row.id));
      await database.db.delete(epaks).where(eq(epaks.subject, 'Newest'));
    }
  });
});

describe('a cursor', () => {
  const expectRefused = async (promise: Promise<unknown>, message: RegExp) => {
    const error = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe(-6);
    expect((error as DomainError).message).toMatch(message);
  };

  it("of another person only positions the caller's own folder", async () => {
    const signers = await page('signer', { folder: 'Inbox', size: SIZE });
    const reviewers = (await offsetPages('reviewer', { folder: 'Inbox' })).flatMap(ids);
    expect(signers.nextCursor).not.toBeNull();
    const borrowed = await page('reviewer', { folder: 'Inbox', size: 100, cursor: signers.nextCursor! });
    for (const id of ids(borrowed)) expect(reviewers).toContain(id);
  });

  it('of another folder, sort or order, or not one of ours, is refused (-6)', async () => {
    const pending = await page('owner', { folder: 'Pending', size: SIZE });
    const cursor = pending.nextCursor!;
    await expectRefused(page('owner', { folder: 'Completed', cursor }), /another folder, sort or order/);
    await expectRefused(page('owner', { folder: 'Pending', sort: 'subject', cursor }), /another folder, sort or order/);
    await expectRefused(page('owner', { folder: 'Pending', order: 'asc', cursor }), /another folder, sort or order/);
    const forged = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const id = ids(pending)[0]!;
    for (const bad of [
      'abc',
      forged({ folder: 'Pending' }),
      forged([2, 'Pending', 'sentOn', 'desc', '2024-01-01T00:00:00Z', id]),
      forged([1, 'Pending', 'sentOn', 'desc', '2024-01-01T00:00:00Z', 'not-an-id']),
    ]) {
      await expectRefused(page('owner', { folder: 'Pending', cursor: bad }), /not one of the inbox/);
    }
    for (const key of [null, "x'; drop table epaks; --", '0000-01-01T00:00:00Z', '2024-02-30T00:00:00Z', '2024-01-01']) {
      await expectRefused(page('owner', { folder: 'Pending', cursor: encodeInboxCursor({ folder: 'Pending', sort: 'sentOn', order: 'desc', key, id }) }), /sort key/);
    }
  });

  it('with any subject is only a position: text that looks like SQL is a value', async () => {
    const cursor = encodeInboxCursor({ folder: 'Pending', sort: 'subject', order: 'asc', key: "lease'; drop table epaks; --", id: '00000000-0000-4000-8000-000000000000' });
    const answer = await page('owner', { folder: 'Pending', sort: 'subject', order: 'asc', size: 100, cursor });
    const pending = (await offsetPages('owner', { folder: 'Pending' })).flatMap(ids);
    for (const id of ids(answer)) expect(pending).toContain(id);
    expect((await page('owner', { folder: 'Pending' })).total).toBe(50);
  });
});
