import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/test-database';

/**
 * Database.listen on the backend the suite runs on: NOTIFY arrives at commit only, and after
 * an unlisten no more. On PostgreSQL the listening connection is lost on purpose (its backend
 * terminated) and comes back on its own, listening again.
 */

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

/** Collects payloads; `next()` waits for the next one (or fails after a deadline). */
function collector() {
  const received: string[] = [];
  let wake: (() => void) | null = null;
  return {
    received,
    handler: (payload: string) => {
      received.push(payload);
      wake?.();
    },
    async next(): Promise<string> {
      const deadline = Date.now() + 15_000;
      while (received.length === 0) {
        if (Date.now() > deadline) throw new Error('no notification arrived');
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, 200);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
      return received.shift()!;
    },
  };
}

const send = (channel: string, payload: string, rollBack = false) =>
  database.db
    .transaction(async (tx) => {
      await (tx).execute(sql`select pg_notify(${channel}, ${payload})`);
      if (rollBack) throw new Error('rolled back');
    })
    .catch((error: unknown) => {
      if (!rollBack) throw error;
    });

describe('Database.listen', () => {
  it('hears what commits, not what rolls back, until it stops listening', async () => {
    const heard = collector();
    const stop = await database.listen('pakt_listen_test', heard.handler);
    await send('pakt_listen_test', 'lost', true);
    await send('pakt_listen_test', 'one');
    await send('pakt_other_channel', 'elsewhere');
    await send('pakt_listen_test', 'two');
    expect([await heard.next(), await heard.next()]).toEqual(['one', 'two']);
    await stop();
    await send('pakt_listen_test', 'after');
    // A notification sent after `two` would have arrived before this one on a channel still heard.
    const still = collector();
    const stopStill = await database.listen('pakt_listen_test_2', still.handler);
    await send('pakt_listen_test_2', 'marker');
    expect(await still.next()).toBe('marker');
    expect(heard.received).toEqual([]);
    await stopStill();
  });

  it('reconnects after losing its connection and listens again', async () => {
    const heard = collector();
    let reconnected: Date | null = null;
    const stop = await database.listen('pakt_listen_lost', heard.handler, { onReconnect: (lostAt) => (reconnected = lostAt) });
    await send('pakt_listen_lost', 'before');
    expect(await heard.next()).toBe('before');
    const { rows } = await database.executeSql(
      "select pid, pg_terminate_backend(pid) as done from pg_stat_activity where datname = current_database() and application_name = 'pakt-listen'",
    );
    expect(rows).toHaveLength(1);
    // pg_terminate_backend only signals the backend: until it has exited it may still deliver a
    // NOTIFY on the old connection, which would be heard before any reconnection. Wait it out.
    const { pid } = rows[0] as { pid: number };
    for (let gone = false; !gone; ) {
      gone = (await database.executeSql('select 1 from pg_stat_activity where pid = $1', [pid])).rows.length === 0;
      if (!gone) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    // Sent until heard: the ones sent while it is away are lost, as NOTIFY is.
    const deadline = Date.now() + 20_000;
    let n = 0;
    while (heard.received.length === 0 && Date.now() < deadline) {
      await send('pakt_listen_lost', `after-${++n}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(heard.received[0]).toMatch(/^after-\d+$/);
    expect(reconnected).toBeInstanceOf(Date);
    await stop();
  });
});
