import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/test-database';
import { outbox } from '../db/schema';
import { queueEmail } from './outbox';
import { deliverAfterCommit } from './queued-mail';

/**
 * The outbox delivers itself: a commit that queued mail nudges delivery once, whatever queued it
 * and however many messages; a transaction that rolls back, or queues nothing, does not.
 */

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

/** Resolves once a NOTIFY sent now on `channel` has come back: anything committed before it has arrived too. */
async function roundTrip(channel: string): Promise<void> {
  let stop: (() => Promise<void>) | undefined;
  await new Promise<void>((resolve, reject) => {
    void database
      .listen(channel, () => resolve())
      .then((unlisten) => {
        stop = unlisten;
        return database.db.execute(sql`select pg_notify(${channel}, 'probe')`);
      })
      .catch(reject);
  });
  await stop?.();
}

const mail = (n: number) => ({ tenantId: null, to: `queued-${n}@example.test`, subject: 'Hello', body: 'Hi', kind: 'test' });

describe('deliverAfterCommit', () => {
  it('nudges once per commit that queued mail, never for a rollback or before the commit', async () => {
    let nudges = 0;
    let nudged: (() => void) | null = null;
    const stop = await deliverAfterCommit(database, () => {
      nudges += 1;
      nudged?.();
    });
    try {
      const next = () => new Promise<void>((resolve) => (nudged = resolve));

      // Queued but not committed yet: nothing, even after a later notification came back.
      let seenBeforeCommit = -1;
      const arrived = next();
      await database.db.transaction(async (tx) => {
        await queueEmail({ db: tx, ...mail(1) });
        await queueEmail({ db: tx, ...mail(2) });
        // Many rows in one statement, as bulk compose queues them.
        await tx.insert(outbox).values([1, 2].map((n) => ({ tenantId: null, channel: 'email' as const, recipient: `bulk-${n}@example.test`, subject: 's', body: 'b', kind: 'test' })));
        await roundTrip('queued_mail_probe');
        seenBeforeCommit = nudges;
      });
      await arrived;
      expect([seenBeforeCommit, nudges]).toEqual([0, 1]);

      // Rolled back: the notification is never sent.
      await expect(
        database.db.transaction(async (tx) => {
          await queueEmail({ db: tx, ...mail(3) });
          throw new Error('changed my mind');
        }),
      ).rejects.toThrow('changed my mind');
      await roundTrip('queued_mail_probe');
      await new Promise((resolve) => setImmediate(resolve));
      expect(nudges).toBe(1);
    } finally {
      await stop();
    }
  });
});
