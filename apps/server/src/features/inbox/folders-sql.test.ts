import { EPAK_STATUSES, type EpakStatus, type InboxPlace, inboxFolders, SIGNER_STATUSES, type SignerStatus } from '@pakt/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/test-database';

/**
 * The inbox trigger (migration 0017) decides folders with a SQL copy of the domain's
 * inboxFolders. Both are run over every combination of ePak status, step under way (none, 1..3),
 * deleted, archived, owner or not, and no place, one place or two places (every signer status in
 * steps 1..3): 145,344 cases, computed by the database in one query and compared one by one.
 */
let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

interface Row {
  status: EpakStatus;
  current_step: number | null;
  deleted: boolean;
  archived: boolean;
  is_owner: boolean;
  statuses: SignerStatus[];
  orders: number[];
  folders: string[];
}

const list = (values: readonly string[]) => values.map((v) => `('${v}')`).join(', ');

describe('pakt_inbox_folders', () => {
  it('agrees with inboxFolders on every combination', async () => {
    const { rows } = await database.executeSql(
      `with statuses(s) as (values ${list(EPAK_STATUSES)}),
            place(ps, po) as (select p, o from (values ${list(SIGNER_STATUSES)}) as v(p), generate_series(1, 3) as o),
            places(statuses, orders) as (
              select '{}'::text[], '{}'::int[]
              union all select array[ps], array[po] from place
              union all select array[a.ps, b.ps], array[a.po, b.po] from place a, place b
            ),
            cases as (
              select s as status, step as current_step, deleted, archived, is_owner, statuses, orders
              from statuses,
                   (select null::int as step union all select generate_series(1, 3)) steps,
                   (values (false), (true)) d(deleted),
                   (values (false), (true)) a(archived),
                   (values (false), (true)) o(is_owner),
                   places
            )
       select status, current_step, deleted, archived, is_owner, statuses, orders,
              pakt_inbox_folders(status, current_step, deleted, archived, is_owner, statuses, orders) as folders
       from cases`,
      [],
    );
    const cases = rows as Row[];
    expect(cases).toHaveLength(EPAK_STATUSES.length * 4 * 2 * 2 * 2 * (1 + 27 + 27 * 27));
    const disagreements: string[] = [];
    for (const row of cases) {
      const places: InboxPlace[] = row.statuses.map((status, i) => ({ status, stepOrder: row.orders[i]! }));
      const expected = inboxFolders({
        status: row.status,
        currentStep: row.current_step,
        deleted: row.deleted,
        archived: row.archived,
        isOwner: row.is_owner,
        places,
      });
      if (JSON.stringify(expected) !== JSON.stringify(row.folders)) {
        disagreements.push(`${JSON.stringify({ ...row, folders: undefined })}: TS ${expected.join(',')} SQL ${row.folders.join(',')}`);
      }
    }
    expect(disagreements.slice(0, 10)).toEqual([]);
    // Not vacuous: every folder comes up somewhere.
    expect(new Set(cases.flatMap((row) => row.folders)).size).toBe(12);
  });
});
