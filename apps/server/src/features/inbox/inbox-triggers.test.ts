import { and, asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../platform/db/database';
import { epakDocuments, epakInbox, epakInboxCounts, epakRecipients, epaks, epakSteps, epakTagValues, epakUserStates, users } from '../../platform/db/schema';
import { makeTenant, makeUser } from '../../test/factories';
import { createTestDatabase, type TestDatabase } from '../../test/test-database';

/**
 * The triggers of migration 0017 on their own, with plain SQL: the inbox follows every change at
 * commit and only then, a rolled-back change leaves nothing, a change made after the deferred
 * events already fired (SET CONSTRAINTS ... IMMEDIATE) is synced again, counts follow rows
 * through cascades, and tag values follow the documents. The commands' side is in
 * routes/inbox-routes.test.ts.
 */
let database: TestDatabase;
let db: Db;
let tenant: { id: string };
let owner: { id: string };
let signer: { id: string };

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.db;
  tenant = await makeTenant(db);
  owner = await makeUser(db, { password: null });
  signer = await makeUser(db, { password: null });
});
afterAll(() => database.close());

const tx = <T>(work: (tx: Db) => Promise<T>) => db.transaction((raw) => work(raw));

async function rowsOf(epakId: string) {
  const rows = await db.select().from(epakInbox).where(eq(epakInbox.epakId, epakId));
  return rows.map((r) => `${r.userId === owner.id ? 'owner' : 'signer'}:${r.folder}${r.starred ? '*' : ''}${r.isRead ? '' : '+'}`).sort();
}

async function countsOf(userId: string): Promise<Record<string, [number, number]>> {
  const rows = await db.select().from(epakInboxCounts).where(and(eq(epakInboxCounts.userId, userId), eq(epakInboxCounts.tenantId, tenant.id)));
  return Object.fromEntries(rows.filter((r) => r.total !== 0 || r.unread !== 0).map((r) => [r.folder, [r.total, r.unread] as [number, number]]));
}

/** An ePak under way in step 1 with one signing place, written row by row in one transaction. */
async function epakUnderWay(work?: (tx: Db, epakId: string) => Promise<void>) {
  return tx(async (t) => {
    const [epak] = await t.insert(epaks).values({ tenantId: tenant.id, ownerId: owner.id, subject: 'Row by row', signingPolicy: 'ESIGNATURE', status: 'InProgress', currentStep: 1, startedAt: new Date() }).returning();
    const [step] = await t.insert(epakSteps).values({ epakId: epak!.id, position: 1, workflowStateId: epak!.id, name: 'Sign', type: 'SIGN' }).returning();
    await t.insert(epakRecipients).values({ epakId: epak!.id, stepId: step!.id, userId: signer.id, position: 1 });
    // Deferred: nothing is in the inbox until the transaction commits.
    expect(await t.select().from(epakInbox).where(eq(epakInbox.epakId, epak!.id))).toEqual([]);
    await work?.(t, epak!.id);
    return epak!.id;
  });
}

describe('the inbox triggers', () => {
  it('sync an ePak written row by row once it commits', async () => {
    const id = await epakUnderWay();
    expect(await rowsOf(id)).toEqual(['owner:Pending+', 'signer:Inbox+'].sort());
  });

  it('leave nothing behind when the transaction rolls back', async () => {
    const before = await db.select({ n: sql<number>`count(*)::int` }).from(epakInbox);
    await expect(
      epakUnderWay(async () => {
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(await db.select({ n: sql<number>`count(*)::int` }).from(epakInbox)).toEqual(before);
  });

  it('sync again what changed after the deferred events fired early', async () => {
    const id = await epakUnderWay(async (t, epakId) => {
      await t.execute(sql`set constraints all immediate`);
      expect((await t.select().from(epakInbox).where(eq(epakInbox.epakId, epakId))).length).toBe(2);
      await t.execute(sql`set constraints all deferred`);
      await t.update(epakRecipients).set({ status: 'Signed' }).where(eq(epakRecipients.epakId, epakId));
      await t.update(epaks).set({ status: 'Completed', currentStep: null, endedAt: new Date() }).where(eq(epaks.id, epakId));
    });
    expect(await rowsOf(id)).toEqual(['owner:Completed+', 'signer:Completed+', 'signer:Signed+'].sort());
  });

  it("follow a person's star and read state, and keep the counts with them", async () => {
    const id = await epakUnderWay();
    const signerBefore = await countsOf(signer.id);
    await db.insert(epakUserStates).values({ epakId: id, userId: signer.id, starred: true, readAt: new Date() });
    expect(await rowsOf(id)).toEqual(['owner:Pending+', 'signer:Inbox*'].sort());
    expect((await countsOf(signer.id)).Inbox).toEqual([signerBefore.Inbox![0], signerBefore.Inbox![1] - 1]);
    // The list of documents opened is not the inbox's business: no sync, nothing changes.
    await db.update(epakUserStates).set({ viewedDocumentIds: ['x'] }).where(eq(epakUserStates.epakId, id));
    expect(await rowsOf(id)).toEqual(['owner:Pending+', 'signer:Inbox*'].sort());
  });

  it('take the rows away with the ePak, and the counts with them', async () => {
    const id = await epakUnderWay();
    const before = await countsOf(owner.id);
    await db.delete(epaks).where(eq(epaks.id, id));
    expect(await rowsOf(id)).toEqual([]);
    expect((await countsOf(owner.id)).Pending).toEqual([before.Pending![0] - 1, before.Pending![1] - 1]);
  });

  it('let a person be deleted with their rows and counts', async () => {
    const gone = await makeUser(db, { password: null });
    const id = await tx(async (t) => {
      const [epak] = await t.insert(epaks).values({ tenantId: tenant.id, ownerId: owner.id, subject: 'For someone leaving', signingPolicy: 'ESIGNATURE', status: 'InProgress', currentStep: 1, startedAt: new Date() }).returning();
      const [step] = await t.insert(epakSteps).values({ epakId: epak!.id, position: 1, workflowStateId: epak!.id, name: 'Sign', type: 'SIGN' }).returning();
      await t.insert(epakRecipients).values({ epakId: epak!.id, stepId: step!.id, userId: gone.id, position: 1 });
      return epak!.id;
    });
    expect(await db.select().from(epakInboxCounts).where(eq(epakInboxCounts.userId, gone.id))).toHaveLength(1);
    await db.delete(users).where(eq(users.id, gone.id));
    expect(await db.select().from(epakInboxCounts).where(eq(epakInboxCounts.userId, gone.id))).toEqual([]);
    // Their place went with them (cascade); the owner's row is still right.
    expect(await rowsOf(id)).toEqual(['owner:Pending+']);
  });
});

describe('the tag value trigger', () => {
  it('keeps the filled text values of a document, composites included, and drops them with it', async () => {
    const [epak] = await db.insert(epaks).values({ tenantId: tenant.id, ownerId: owner.id, subject: 'Tagged', signingPolicy: 'ESIGNATURE' }).returning();
    const tag = (uuid: string, type: string, value: unknown, extra: Record<string, unknown> = {}) => ({ uuid, type, value, name: '', ...extra });
    const [doc] = await db
      .insert(epakDocuments)
      .values({
        epakId: epak!.id,
        position: 1,
        name: 'a.pdf',
        sha256: 'x',
        size: 1,
        pageCount: 1,
        pages: [],
        tags: [
          tag('t1', 'text', 'Flat 4B', { label: 'Address' }),
          tag('t2', 'signature', 'data:image/png;base64,AAAA'),
          tag('t3', 'text', '   '),
          tag('t4', 'multiSelect', ['Red', 'Blue'], { name: 'Colours' }),
          tag('t5', 'composite', null, { children: [tag('t6', 'reason', 'Approved')] }),
          tag('t7', 'text', 'data:image/png;base64,BBBB'),
        ],
      })
      .returning();
    const values = async () =>
      (await db.select().from(epakTagValues).where(eq(epakTagValues.epakDocumentId, doc!.id)).orderBy(asc(epakTagValues.tagUuid))).map((v) => [v.tagUuid, v.name, v.value, v.tenantId === tenant.id]);
    expect(await values()).toEqual([
      ['t1', 'Address', 'Flat 4B', true],
      ['t4', 'Colours', 'Red, Blue', true],
      ['t6', 'reason', 'Approved', true],
    ]);
    await db.update(epakDocuments).set({ tags: [tag('t1', 'text', 'Flat 5C', { label: 'Address' })] }).where(eq(epakDocuments.id, doc!.id));
    expect(await values()).toEqual([['t1', 'Address', 'Flat 5C', true]]);
    await db.delete(epakDocuments).where(eq(epakDocuments.id, doc!.id));
    expect(await values()).toEqual([]);
  });
});
