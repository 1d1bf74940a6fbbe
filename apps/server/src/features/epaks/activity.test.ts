import { and, asc, eq, sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../../platform/db/database';
import { epakActivities, epaks } from '../../platform/db/schema';
import { makeMember } from '../../test/factories';
import { createTestDatabase, type TestDatabase } from '../../test/test-database';
import { activityHash, canonicalJson, GENESIS_HASH, recordEpakActivity, verifyActivityChain } from './activity';

let database: TestDatabase;
let db: Db;
let epakId: string;
let actorId: string;

beforeEach(async () => {
  database = await createTestDatabase();
  db = database.db;
  const { tenant, user } = await makeMember(db, { role: 'custodian' });
  actorId = user.id;
  const [epak] = await db.insert(epaks).values({ tenantId: tenant.id, ownerId: user.id, subject: 'Lease', signingPolicy: 'ESIGNATURE' }).returning();
  epakId = epak!.id;
});
afterEach(() => database.close());

const SHA_A = 'a'.repeat(64);
const SHA_B = 'b'.repeat(64);

async function record(action: 'composed' | 'started' | 'signed' | 'rejected', details: Record<string, unknown> = {}, ip: string | null = '203.0.113.7') {
  await db.transaction(async (tx) => {
    await tx.select().from(epaks).where(eq(epaks.id, epakId)).for('update');
    await recordEpakActivity(tx, { epakId, actorId, action, details, ip });
  });
}

const rows = () => db.select().from(epakActivities).where(eq(epakActivities.epakId, epakId)).orderBy(asc(epakActivities.seq));

describe('canonical JSON', () => {
  it('sorts keys at every level and leaves out undefined', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { z: 1, y: 'é' }], c: null }, u: undefined })).toBe('{"a":{"c":null,"d":[1,{"y":"é","z":1}]},"b":1}');
  });
});

describe('the activity hash chain', () => {
  it('links every entry to the one before, from 64 zeros, with hashes that match the stored rows', async () => {
    await record('composed', { documents: 1, steps: 1 }, null);
    await record('started', { effects: [{ type: 'notifyStep', order: 1 }] });
    await record('signed', { documentId: '5f0b7b6e-0000-4000-8000-000000000001', before: SHA_A, after: SHA_B, nested: { b: 2, a: 1 } });
    const stored = await rows();
    expect(stored.map((r) => r.seq)).toEqual([1, 2, 3]);
    expect(stored[0]!.prevHash).toBe(GENESIS_HASH);
    expect(stored[1]!.prevHash).toBe(stored[0]!.hash);
    expect(stored[2]!.prevHash).toBe(stored[1]!.hash);
    for (const row of stored) {
      expect(row.hash).toMatch(/^[0-9a-f]{64}$/);
      // What is stored (jsonb reorders keys; `at` to the millisecond) hashes to the stored hash.
      expect(activityHash(row.prevHash!, row)).toBe(row.hash);
    }
    expect(await verifyActivityChain(db, epakId)).toMatchObject({ ok: true, entries: 3, lastHash: stored[2]!.hash });
  });

  it('detects an edit of a stored entry', async () => {
    await record('composed');
    await record('started');
    await record('signed', { documentId: 'd', before: SHA_A, after: SHA_B });
    await record('rejected', { comment: 'Wrong plot number' });
    // Someone with database access rewrites what a signer signed.
    await db
      .update(epakActivities)
      .set({ details: { documentId: 'd', before: SHA_A, after: 'c'.repeat(64) } })
      .where(and(eq(epakActivities.epakId, epakId), eq(epakActivities.seq, 3)));
    expect(await verifyActivityChain(db, epakId)).toMatchObject({ ok: false, brokenAt: 3 });
  });

  it('detects a recomputed hash (the next link breaks), a removed entry, and a changed time', async () => {
    await record('composed');
    await record('started');
    await record('rejected', { comment: 'no' });
    const [, second] = await rows();
    const forged = { ...second!, action: 'stopped' };
    await db
      .update(epakActivities)
      .set({ action: 'stopped', hash: activityHash(second!.prevHash!, forged) })
      .where(eq(epakActivities.id, second!.id));
    expect(await verifyActivityChain(db, epakId)).toMatchObject({ ok: false, brokenAt: 3 });

    await db.update(epakActivities).set({ action: 'started', hash: second!.hash }).where(eq(epakActivities.id, second!.id));
    expect((await verifyActivityChain(db, epakId)).ok).toBe(true);
    await db.update(epakActivities).set({ at: new Date(second!.at.getTime() + 1) }).where(eq(epakActivities.id, second!.id));
    expect(await verifyActivityChain(db, epakId)).toMatchObject({ ok: false, brokenAt: 2 });
    await db.update(epakActivities).set({ at: second!.at }).where(eq(epakActivities.id, second!.id));

    await db.delete(epakActivities).where(eq(epakActivities.id, second!.id));
    expect(await verifyActivityChain(db, epakId)).toMatchObject({ ok: false, brokenAt: 3 });
  });

  it('runs the chain through entries written before chaining, and refuses an unchained entry after a chained one', async () => {
    // Two rows as the earlier code wrote them: no hashes, `at` from the database clock (µs).
    await db.insert(epakActivities).values([
      { epakId, seq: 1, actorId, action: 'composed', details: { documents: 1 } },
      { epakId, seq: 2, actorId, action: 'started', details: {}, ip: '198.51.100.1' },
    ]);
    expect((await verifyActivityChain(db, epakId)).ok).toBe(true);
    await record('signed', { documentId: 'd', before: SHA_A, after: SHA_B });
    const stored = await rows();
    expect(stored[2]!.seq).toBe(3);
    expect(stored[2]!.prevHash).not.toBe(GENESIS_HASH);
    expect(await verifyActivityChain(db, epakId)).toMatchObject({ ok: true, entries: 3 });
    await record('rejected', { comment: 'x' });
    expect((await verifyActivityChain(db, epakId)).ok).toBe(true);

    // Editing a legacy row now breaks the link of the first chained entry.
    await db.execute(sql`update epak_activities set details = '{"documents": 2}' where epak_id = ${epakId} and seq = 1`);
    expect(await verifyActivityChain(db, epakId)).toMatchObject({ ok: false, brokenAt: 3 });
    await db.execute(sql`update epak_activities set details = '{"documents": 1}' where epak_id = ${epakId} and seq = 1`);
    expect((await verifyActivityChain(db, epakId)).ok).toBe(true);

    // Dropping the hash of a chained entry does not make it "legacy".
    await db.update(epakActivities).set({ hash: null, prevHash: null }).where(and(eq(epakActivities.epakId, epakId), eq(epakActivities.seq, 4)));
    expect(await verifyActivityChain(db, epakId)).toMatchObject({ ok: false, brokenAt: 4 });
  });

  it('is valid and empty for an ePak with no activity', async () => {
    expect(await verifyActivityChain(db, epakId)).toEqual({ ok: true, entries: 0, lastHash: GENESIS_HASH });
  });
});
