import {
  actOnEpakDocument,
  archiveEpak,
  bulkSignEpaks,
  createEpak,
  createGroup,
  createWorkflow,
  delegateEpak,
  deleteEpaks,
  deleteGroup,
  type Endpoint,
  type EndpointInput,
  EpakDetail,
  type Folder,
  FOLDERS,
  getEpak,
  getStatistics,
  getUserStatistics,
  type InboxSort,
  InboxPage,
  listEpaks,
  listWorkflowStates,
  markEpakRead,
  newTag,
  rejectEpak,
  type SearchType,
  setEpakStatus,
  startEpak,
  type Tag,
  toggleEpakStar,
  type TokenGrant,
  updateSignatureBlocks,
  UserStatistics,
  type WorkflowStateType,
} from '@pakt/domain';
import { and, asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { epakInbox, epakInboxCounts, epakInboxVersions, epaks, epakTagValues, epakUserStates, memberships, users } from '../../platform/db/schema';
import { loadStatistics } from './statistics';
import { expireDueEpaks } from '../epaks/expire-epaks';
import { GOOD_PASSWORD, makeMember, makeTenant, makeUser } from '../../test/factories';
import { type Caller, inject } from '../../test/inject';
import { bearer, signIn } from '../../test/sign-in';
import { buildTestApp, type TestApp } from '../../test/test-app';
import { signatureFieldsFor, uploadedDocument } from '../../test/app-factories';

/**
 * The inbox, its search and the statistics against a world with known answers: every folder is
 * reached through the real commands (compose, start, review, sign, reject, stop, expire, delete,
 * archive, delegate), so what is asserted is what the inbox trigger made of them.
 */

let t: TestApp;
type Person = Awaited<ReturnType<typeof person>>;

async function person(role: 'signer' | 'custodian' | 'admin' | 'registrar', tenant: { id: string } | undefined, firstName: string, lastName: string) {
  const made = await makeMember(t.database.db, { role, ...(tenant ? { tenant } : {}), user: { firstName, lastName } });
  const grant: TokenGrant = await signIn(t.app, made.user.email, GOOD_PASSWORD);
  return { ...made, headers: { ...bearer(grant), 'x-tenant-id': made.tenant.id } as Record<string, string> };
}

/** The same person speaking in another of their tenants. */
const inTenant = (who: Person, tenantId: string): Person => ({ ...who, headers: { ...who.headers, 'x-tenant-id': tenantId } });

async function ok<E extends Endpoint>(endpoint: E, who: Caller, input: EndpointInput<E> = {} as EndpointInput<E>) {
  const res = await inject(t.app, endpoint, { ...input, as: who });
  expect(res.statusCode, `${endpoint.method} ${endpoint.path}: ${res.body}`).toBe(200);
  return res.data;
}

let uuidCounter = 0;
const tagUuid = () => `00000000-0000-4000-8000-${(++uuidCounter).toString().padStart(12, '0')}`;

/** Composes (and unless told otherwise starts) an ePak of one one-page document. */
async function sentEpak(
  owner: Person,
  subject: string,
  steps: Array<[WorkflowStateType, Person[]]>,
  options: { start?: boolean; expiresOn?: string; workflowId?: string; tags?: Tag[] } = {},
): Promise<string> {
  const doc = await uploadedDocument(t, { owner });
  const states = (await ok(listWorkflowStates, owner)).states;
  const state = (type: WorkflowStateType) => states.find((s) => s.type === type)!.workflowStateId;
  const draft = EpakDetail.parse(
    await ok(createEpak, owner, {
      body: {
        subject,
        documentIds: [doc.documentId],
        steps: steps.map(([type, people]) => ({ workflowStateId: state(type), recipients: people.map((p) => ({ email: p.user.email })) })),
        ...(options.expiresOn ? { expiresOn: options.expiresOn } : {}),
        ...(options.workflowId ? { workflowId: options.workflowId } : {}),
      },
    }),
  );
  // Every signer needs a signature field before the ePak is sent (-62): those `tags` leave without one get one.
  const fields = options.start === false ? [] : signatureFieldsFor(draft, { alongside: options.tags ?? [] }).flatMap((one) => one.tags);
  const tags = [...(options.tags ?? []), ...fields];
  if (tags.length > 0) await ok(updateSignatureBlocks, owner, { params: { ePakId: draft.ePakId, documentId: draft.documents[0]!.documentId }, body: { tags } });
  if (options.start !== false) await ok(startEpak, owner, { params: { ePakId: draft.ePakId } });
  return draft.ePakId;
}

const bulkSign = async (who: Person, epakId: string, reason = 'Approved') => {
  const data = await ok(bulkSignEpaks, who, { body: { ePakIds: [epakId], reason } });
  expect(data.results[0], JSON.stringify(data)).toMatchObject({ result: 'SIGNED' });
};
const review = (who: Person, epakId: string) => ok(setEpakStatus, who, { body: { ePakId: epakId, status: 'Reviewed' } });

// The world: tenant A with an owner, a reviewer, two signers, a delegate, an admin and a
// registrar; tenant B with its own owner and ePak, to which S2 also belongs.
let O: Person, R: Person, S1: Person, S2: Person, D: Person, AD: Person, RG: Person, MB: Person;
type EpakName = 'draft' | 'review' | 'signing' | 'completed' | 'rejected' | 'stopped' | 'expired' | 'deleted' | 'archived' | 'delegated' | 'fromR' | 'inB';
const E = {} as Record<EpakName, string>;
const nameOf = (id: string) => Object.entries(E).find(([, value]) => value === id)?.[0] ?? id;
const DAY = 86_400_000;
const soon = new Date(Date.now() + 3 * DAY);

beforeAll(async () => {
  t = await buildTestApp();
  O = await person('custodian', undefined, 'Olga', 'Owens');
  const A = O.tenant;
  R = await person('custodian', A, 'Ravi', 'Reddy');
  S1 = await person('signer', A, 'Sara', 'Singh');
  S2 = await person('signer', A, 'Tomas', 'Thorn');
  D = await person('signer', A, 'Dev', 'Das');
  AD = await person('admin', A, 'Ada', 'Admin');
  RG = await person('registrar', A, 'Reg', 'Istrar');
  MB = await person('custodian', undefined, 'Bina', 'Bose');
  await t.database.db.insert(memberships).values({ tenantId: MB.tenant.id, userId: S2.user.id, role: 'signer', status: 'active' });

  E.draft = await sentEpak(O, 'Draft: office lease', [['SIGN', [S1]]], { start: false });
  E.review = await sentEpak(O, 'Quarterly review', [['REVIEW', [R]], ['SIGN', [S1, S2]]]);
  E.signing = await sentEpak(O, 'Lease of flat 3B', [['REVIEW', [R]], ['SIGN', [S1, S2]]]);
  await review(R, E.signing);
  await bulkSign(S1, E.signing);
  E.completed = await sentEpak(O, 'Completed NDA', [['SIGN', [S1]]]);
  await bulkSign(S1, E.completed);
  E.rejected = await sentEpak(O, 'Rejected offer', [['SIGN', [S1, S2]]]);
  await ok(rejectEpak, S2, { params: { ePakId: E.rejected }, body: { comment: 'Not at this price.' } });
  E.stopped = await sentEpak(O, 'Stopped memo', [['SIGN', [S1]]]);
  await ok(setEpakStatus, O, { body: { ePakId: E.stopped, status: 'Stopped' } });
  E.expired = await sentEpak(O, 'Expired permit', [['REVIEW', [R]], ['SIGN', [S1]]], { expiresOn: new Date(Date.now() + DAY).toISOString() });
  await review(R, E.expired);
  expect(await expireDueEpaks({ db: t.database.db, mail: { publicUrl: 'http://localhost', linkDays: 7 }, now: new Date(Date.now() + 2 * DAY) })).toEqual([E.expired]);
  E.deleted = await sentEpak(O, 'Deleted quote', [['SIGN', [S1]]]);
  await ok(deleteEpaks, O, { body: { ePakIds: [E.deleted] } });
  E.archived = await sentEpak(O, 'Archived deed', [['SIGN', [S1]]]);
  await bulkSign(S1, E.archived);
  await ok(archiveEpak, O, { params: { epakId: E.archived } });
  E.delegated = await sentEpak(O, 'Vendor contract', [['SIGN', [S2]]]);
  await ok(delegateEpak, S2, { params: { ePakId: E.delegated }, body: { email: D.user.email } });

  // Ravi's ePak for Tomas: from a workflow template, with an expiry and a value the owner filled.
  const workflowId = await procurementWorkflow();
  E.fromR = await sentEpak(R, 'Invoice 42_A%', [['SIGN', [S2]]], {
    expiresOn: '2031-06-15T12:00:00.000Z',
    workflowId,
    tags: [newTag({ uuid: tagUuid(), type: 'text', pageNumber: 1, positionX: 40, positionY: 300, value: 'PO-7781', name: 'Order number' })],
  });
  E.inB = await sentEpak(MB, 'Lease of flat 3B', [['SIGN', [inTenant(S2, MB.tenant.id)]]]);

  // Known sort keys for the owner's Pending folder (review, signing, delegated), and the dates
  // the search looks for. Written straight to epaks: the trigger carries them into the inbox.
  const set = (id: string, values: Partial<typeof epaks.$inferInsert>) => t.database.db.update(epaks).set(values).where(eq(epaks.id, id));
  await set(E.review, { startedAt: new Date('2020-01-03T00:00:00Z'), updatedAt: new Date('2020-02-01T00:00:00Z'), expiresAt: null });
  await set(E.signing, { startedAt: new Date('2020-01-01T00:00:00Z'), updatedAt: new Date('2020-02-03T00:00:00Z'), expiresAt: new Date('2031-01-01T09:00:00Z') });
  await set(E.delegated, { startedAt: new Date('2020-01-02T00:00:00Z'), updatedAt: new Date('2020-02-02T00:00:00Z'), expiresAt: soon });
  await set(E.fromR, { createdAt: new Date('2029-05-06T23:30:00Z') });
}, 180_000);
afterAll(() => t.close());

async function procurementWorkflow(): Promise<string> {
  const states = (await ok(listWorkflowStates, AD)).states;
  const data = await ok(createWorkflow, AD, {
    body: {
      name: 'Procurement approval',
      steps: [{ workflowStateId: states.find((s) => s.type === 'SIGN')!.workflowStateId, recipients: [{ type: 'placeholder', label: 'Buyer' }] }],
    },
  });
  return data.workflowId;
}

type ListParams = NonNullable<EndpointInput<typeof listEpaks>['query']>;

async function list(who: Person, params: ListParams = {}) {
  const answer = await ok(listEpaks, who, { query: params });
  // The server writes this answer without parsing it by the response schema: every answer here
  // is, and must come out as it went in (no field missing, none extra, none of another shape).
  const page = InboxPage.parse(answer);
  expect(page).toEqual(answer);
  return page;
}

const names = async (who: Person, params: ListParams = {}) => (await list(who, params)).items.map((item) => nameOf(item.id));

/** Every folder's ePaks for one person, by name, non-empty folders only. */
async function foldersOf(who: Person) {
  const out: Partial<Record<Folder, string[]>> = {};
  for (const folder of FOLDERS) {
    const found = (await names(who, { folder, size: 100, sort: 'subject', order: 'asc' })).sort();
    if (found.length > 0) out[folder] = found;
  }
  return out;
}

describe('the folders', () => {
  it('put each ePak where the rules say, for each person', async () => {
    expect(await foldersOf(O)).toEqual({
      Draft: ['draft'],
      Pending: ['delegated', 'review', 'signing'],
      Completed: ['completed'],
      Rejected: ['rejected'],
      Stopped: ['stopped'],
      Expired: ['expired'],
      Deleted: ['deleted'],
      Archived: ['archived'],
    });
    expect(await foldersOf(R)).toEqual({
      Inbox: ['review'],
      Pending: ['fromR', 'signing'],
      Reviewed: ['expired', 'signing'],
      Expired: ['expired'],
    });
    // Stopped, expired, deleted and rejected ePaks closed Sara's places before she was asked: none of hers.
    expect(await foldersOf(S1)).toEqual({
      Signed: ['completed', 'signing'],
      Pending: ['signing'],
      Completed: ['completed'],
      Archived: ['archived'],
    });
    expect(await foldersOf(S2)).toEqual({
      Inbox: ['fromR', 'signing'],
      Rejected: ['rejected'],
      Delegated: ['delegated'],
      Pending: ['delegated'],
    });
    expect(await foldersOf(D)).toEqual({ Inbox: ['delegated'] });
  });

  it('counts every folder, zeros and unread included, for the caller in their tenant', async () => {
    const page = await list(O, { folder: 'Pending' });
    expect(Object.keys(page.counts).sort()).toEqual([...FOLDERS].sort());
    expect(page.counts).toMatchObject({
      Inbox: { total: 0, unread: 0 },
      Pending: { total: 3, unread: 3 },
      Draft: { total: 1, unread: 1 },
      Archived: { total: 1, unread: 1 },
      Signed: { total: 0, unread: 0 },
    });
    expect(page.total).toBe(3);
    // The counts are exactly the rows (the count trigger kept up with every change).
    const rows = await t.database.db.select().from(epakInboxCounts);
    const recount = await t.database.db
      .select({ userId: epakInbox.userId, tenantId: epakInbox.tenantId, folder: epakInbox.folder, total: sql<number>`count(*)::int`, unread: sql<number>`(count(*) filter (where not ${epakInbox.isRead}))::int` })
      .from(epakInbox)
      .groupBy(epakInbox.userId, epakInbox.tenantId, epakInbox.folder);
    const key = (r: { userId: string; tenantId: string; folder: string }) => `${r.userId}/${r.tenantId}/${r.folder}`;
    expect(Object.fromEntries(rows.filter((r) => r.total !== 0 || r.unread !== 0).map((r) => [key(r), [r.total, r.unread]]))).toEqual(
      Object.fromEntries(recount.map((r) => [key(r), [r.total, r.unread]])),
    );
  });

  it('describes each ePak as the caller sees it', async () => {
    const page = await list(S2, { folder: 'Inbox', sort: 'subject', order: 'asc' });
    const signing = page.items.find((item) => item.id === E.signing)!;
    expect(signing).toMatchObject({
      subject: 'Lease of flat 3B',
      ePakName: 'Lease of flat 3B',
      status: 'InProgress',
      signingPolicy: 'ESIGNATURE',
      sentOn: '2020-01-01T00:00:00.000Z',
      modifiedOn: '2020-02-03T00:00:00.000Z',
      expiredOn: '2031-01-01T09:00:00.000Z',
      retentionDate: null,
      deletedOn: null,
      archivalPeriodOver: false,
      ownerId: O.user.id,
      ownerFirstName: 'Olga',
      ownerLastName: 'Owens',
      ownerUserName: O.user.email,
      // Reviewed and Signed of three places.
      progressPercent: 67,
      currentWorkflowStateId: 2,
      currentWorkflowStateAction: 'SIGN',
      currentStatePendingSigners: [{ userId: S2.user.id, name: 'Tomas Thorn', email: S2.user.email, status: 'Pending' }],
      signerStatus: 'Pending',
      folders: ['Inbox'],
      isRead: false,
    });
    const completed = (await list(S1, { folder: 'Signed', sort: 'subject', order: 'asc' })).items.find((item) => item.id === E.completed)!;
    expect(completed).toMatchObject({ status: 'Completed', progressPercent: 100, currentWorkflowStateId: null, currentWorkflowStateAction: null, currentStatePendingSigners: [], signerStatus: 'Signed', folders: ['Completed', 'Signed'] });
    const deleted = (await list(O, { folder: 'Deleted' })).items[0]!;
    expect(deleted).toMatchObject({ id: E.deleted, status: 'Stopped', signerStatus: null, folders: ['Deleted'] });
    expect(deleted.deletedOn).not.toBeNull();
  });

  it('gives the retention date once ended with an archival period, and says when it is over', async () => {
    const db = t.database.db;
    await db.update(epaks).set({ endedAt: new Date('2026-01-01T00:00:00Z'), archivalPeriodDays: 30 }).where(eq(epaks.id, E.completed));
    const [completed] = (await list(O, { folder: 'Completed' })).items;
    expect(completed).toMatchObject({ retentionDate: '2026-01-31T00:00:00.000Z', archivalPeriodOver: true });
    await db.update(epaks).set({ archivalPeriodDays: 36_500 }).where(eq(epaks.id, E.completed));
    expect((await list(O, { folder: 'Completed' })).items[0]).toMatchObject({ retentionDate: '2125-12-08T00:00:00.000Z', archivalPeriodOver: false });
  });
});

describe('the kept pages', () => {
  it('answers a repeated page from what it kept, and afresh once anything the summaries show changes', async () => {
    const db = t.database.db;
    const first = (await list(O, { folder: 'Completed' })).items.find((item) => item.id === E.completed)!;
    const viewEnforced = first.viewEnforced;
    // A renamed owner is not something the sync hears of: the kept page still shows the old name
    // (for at most PAGE_CACHE_MAX_AGE_MS), which shows that the page was kept.
    await db.update(users).set({ firstName: 'Renamed' }).where(eq(users.id, O.user.id));
    try {
      expect((await list(O, { folder: 'Completed' })).items.find((item) => item.id === E.completed)!.ownerFirstName).toBe(first.ownerFirstName);
      // A summary field that no inbox row copies still changes the owner's inbox version...
      const versionOf = async () =>
        (await db.select().from(epakInboxVersions).where(and(eq(epakInboxVersions.userId, O.user.id), eq(epakInboxVersions.tenantId, O.tenant.id))))[0]?.version ?? 0;
      const before = await versionOf();
      await db.update(epaks).set({ viewEnforced: !viewEnforced }).where(eq(epaks.id, E.completed));
      expect(await versionOf()).toBeGreaterThan(before);
      // ...so the next page is read afresh, the rename with it.
      const after = (await list(O, { folder: 'Completed' })).items.find((item) => item.id === E.completed)!;
      expect(after).toMatchObject({ viewEnforced: !viewEnforced, ownerFirstName: 'Renamed' });
    } finally {
      await db.update(epaks).set({ viewEnforced }).where(eq(epaks.id, E.completed));
      await db.update(users).set({ firstName: first.ownerFirstName }).where(eq(users.id, O.user.id));
    }
  });
});

describe('sorting and paging', () => {
  it.each<[InboxSort, 'asc' | 'desc', string[]]>([
    ['sentOn', 'desc', ['review', 'delegated', 'signing']],
    ['sentOn', 'asc', ['signing', 'delegated', 'review']],
    ['modifiedOn', 'desc', ['signing', 'delegated', 'review']],
    ['modifiedOn', 'asc', ['review', 'delegated', 'signing']],
    ['subject', 'asc', ['signing', 'review', 'delegated']],
    ['subject', 'desc', ['delegated', 'review', 'signing']],
    // No expiry is "never": last going forward, first going back.
    ['expiredOn', 'asc', ['delegated', 'signing', 'review']],
    ['expiredOn', 'desc', ['review', 'signing', 'delegated']],
  ])('sorts by %s %s', async (sort, order, expected) => {
    expect(await names(O, { folder: 'Pending', sort, order })).toEqual(expected);
  });

  it('pages through equal sort keys by ePak id, without gaps or repeats', async () => {
    const db = t.database.db;
    const at = new Date('2021-06-01T00:00:00Z');
    const seeded = await db
      .insert(epaks)
      .values(Array.from({ length: 25 }, (_, i) => ({ tenantId: D.tenant.id, ownerId: D.user.id, subject: `Bulk draft ${i}`, signingPolicy: 'ESIGNATURE', createdAt: at, updatedAt: at })))
      .returning({ id: epaks.id });
    const expected = seeded.map((row) => row.id).sort().reverse();
    const pages = await Promise.all([0, 1, 2, 3].map((pg) => list(D, { folder: 'Draft', size: 10, pg })));
    expect(pages.map((page) => page.items.length)).toEqual([10, 10, 5, 0]);
    expect(pages.flatMap((page) => page.items.map((item) => item.id))).toEqual(expected);
    expect(pages.map((page) => [page.pg, page.size, page.total])).toEqual([
      [0, 10, 25],
      [1, 10, 25],
      [2, 10, 25],
      [3, 10, 25],
    ]);
    const ascending = await list(D, { folder: 'Draft', size: 10, pg: 2, order: 'asc' });
    expect(ascending.items.map((item) => item.id)).toEqual([...expected].reverse().slice(20));
    // The same pages by cursor: each answer names where the next starts, and the last none.
    const byCursor = [pages[0]!];
    while (byCursor.at(-1)!.nextCursor) byCursor.push(await list(D, { folder: 'Draft', size: 10, cursor: byCursor.at(-1)!.nextCursor! }));
    expect(byCursor.map((page) => page.items.map((item) => item.id))).toEqual(pages.slice(0, 3).map((page) => page.items.map((item) => item.id)));
    expect(pages.map((page) => page.nextCursor === null)).toEqual([false, false, true, true]);
  });

  it('refuses a page size, sort or cursor it does not offer (-6)', async () => {
    // Raw: most of these the contract's query type refuses already; the server must refuse them too.
    for (const query of ['size=7', 'sort=owner', 'folder=Outbox', 'pg=-1', 'searchKey=from&searchVal=someone', 'searchKey=createdOn&searchVal=2024-02-30', 'searchKey=subject', 'cursor=a+b', 'cursor=abc']) {
      const res = await t.app.inject({ method: 'GET', url: `/msbapi/v2/epaks?${query}`, headers: O.headers });
      expect([res.statusCode, res.json().code], query).toEqual([400, -6]);
    }
  });
});

describe('the star and unread filters', () => {
  it('narrow the folder and its total', async () => {
    await ok(toggleEpakStar, S2, { params: { ePakId: E.signing } });
    await ok(markEpakRead, S2, { params: { ePakId: E.fromR }, body: { isRead: true } });
    const inbox = { folder: 'Inbox', sort: 'subject', order: 'asc' } as const;
    expect(await names(S2, { ...inbox, starred: 'true' })).toEqual(['signing']);
    expect(await names(S2, { ...inbox, starred: 'false' })).toEqual(['fromR']);
    expect(await names(S2, { ...inbox, unread: 'true' })).toEqual(['signing']);
    expect(await names(S2, { ...inbox, unread: 'false' })).toEqual(['fromR']);
    expect(await names(S2, { ...inbox, unread: 'false', starred: 'true' })).toEqual([]);
    expect((await list(S2, { ...inbox, unread: 'true' })).total).toBe(1);
    expect((await list(S2, { ...inbox, starred: 'true' })).total).toBe(1);
    const page = await list(S2, inbox);
    expect(page.counts.Inbox).toEqual({ total: 2, unread: 1 });
    expect(page.items.map((item) => [nameOf(item.id), item.starred, item.isRead])).toEqual([
      ['fromR', false, true],
      ['signing', true, false],
    ]);
  });
});

describe('the search', () => {
  const inbox = { folder: 'Inbox', sort: 'subject', order: 'asc' } as const;
  const search = (searchKey: SearchType, searchVal: string) => names(S2, { ...inbox, searchKey, searchVal });

  it.each<[SearchType, string, string[]]>([
    ['all', 'FLAT 3b', ['signing']],
    ['all', 'ravi', ['fromR']],
    ['all', 'Ravi Reddy', ['fromR']],
    ['all', 'po-778', ['fromR']],
    ['all', 'zzz', []],
    ['subject', 'lease', ['signing']],
    // % and _ are what they are, not wildcards.
    ['subject', '_', ['fromR']],
    ['subject', '%', ['fromR']],
    ['subject', 'e_s', []],
    ['workflow', 'PROCUREMENT', ['fromR']],
    ['workflow', 'payroll', []],
    ['createdOn', '2029-05-06', ['fromR']],
    ['createdOn', '2029-05-07', []],
    ['expiresOn', '2031-06-15', ['fromR']],
    ['expiresOn', '2031-01-01', ['signing']],
    ['epakTag', '7781', ['fromR']],
    ['epakTag', 'ravi', []],
  ])('%s "%s" finds exactly %j', async (key, value, expected) => {
    expect(await search(key, value)).toEqual(expected);
  });

  it('finds by owner (from) and by recipient (to)', async () => {
    expect(await search('from', O.user.id)).toEqual(['signing']);
    expect(await search('from', R.user.id)).toEqual(['fromR']);
    expect(await search('all', R.user.email.slice(0, 12))).toEqual(['fromR']);
    expect(await search('to', S1.user.id)).toEqual(['signing']);
    expect(await search('to', D.user.id)).toEqual([]);
    // Searching narrows the total too.
    expect((await list(S2, { ...inbox, searchKey: 'subject', searchVal: 'lease' })).total).toBe(1);
  });

  it("counts the search's hits in every folder, so the inbox can open the one where they are", async () => {
    // The owner's lease sits in Pending (and a draft of one in Draft), not in their Inbox: the hits say where to look.
    const found = await list(O, { folder: 'Inbox', searchKey: 'subject', searchVal: 'lease' });
    expect(found.items).toEqual([]);
    expect(found.searchHits).toEqual({ ...Object.fromEntries(FOLDERS.map((f) => [f, 0])), Pending: 1, Draft: 1 });
    // Without a search there are none to count.
    expect((await list(O, { folder: 'Inbox' })).searchHits).toBeUndefined();
    // A person's hits are their own: the signer's Inbox holds it.
    expect((await list(S2, { ...inbox, searchKey: 'subject', searchVal: 'lease' })).searchHits?.Inbox).toBe(1);
  });

  it('keeps the filled tag values of the document, not its signatures', async () => {
    const values = await t.database.db.select({ epakId: epakTagValues.epakId, name: epakTagValues.name, value: epakTagValues.value }).from(epakTagValues).orderBy(asc(epakTagValues.value));
    expect(values.filter((v) => v.epakId === E.fromR)).toEqual([{ epakId: E.fromR, name: 'Order number', value: 'PO-7781' }]);
    // Sara's reason ("Approved") was filled when she signed; her signature was not indexed.
    expect(values.filter((v) => v.epakId === E.signing)).toEqual([{ epakId: E.signing, name: 'reason', value: 'Approved' }]);
  });
});

describe('tenancy', () => {
  it("shows a person of two tenants only the tenant's ePaks they asked with", async () => {
    const inB = inTenant(S2, MB.tenant.id);
    expect(await names(inB, { folder: 'Inbox' })).toEqual(['inB']);
    expect(await names(inB, { folder: 'Inbox', searchKey: 'all', searchVal: 'flat 3b' })).toEqual(['inB']);
    expect(await names(inB, { folder: 'Inbox', searchKey: 'from', searchVal: O.user.id })).toEqual([]);
    expect((await list(inB, { folder: 'Inbox' })).counts.Inbox).toEqual({ total: 1, unread: 1 });
    expect(await names(S2, { folder: 'Inbox', searchKey: 'all', searchVal: 'flat 3b' })).toEqual(['signing']);
    // Tenant B's own member sees nothing of tenant A's, whatever they search.
    for (const folder of FOLDERS) expect(await names(MB, { folder, size: 100 })).toEqual(folder === 'Pending' ? ['inB'] : []);
    expect(await names(MB, { folder: 'Pending', searchKey: 'to', searchVal: S2.user.id })).toEqual(['inB']);
  });

  it("gives a registrar their dashboard (spec §2, §6: dashboard and epaks): their inbox, their numbers; an outsider of the tenant 404", async () => {
    // Issue 21: the registrar landed on "You don't have access to this page" because all three answered -11.
    const inbox = await list(RG, { folder: 'Inbox' });
    expect(inbox.items).toEqual([]);
    expect(inbox.counts.Inbox).toEqual({ total: 0, unread: 0 });
    const summary = await ok(getStatistics, RG, { query: { type: 'summary', scope: 'user' } });
    expect(summary).toEqual({ type: 'summary', scope: 'user', folders: Object.fromEntries(FOLDERS.map((f) => [f, 0])) });
    UserStatistics.parse(await ok(getUserStatistics, RG, {}));
    // Their tenant's charts stay the admins' (statistics.tenant).
    const tenantWide = await inject(t.app, getStatistics, { query: { type: 'summary', scope: 'all' }, as: RG });
    expect([tenantWide.statusCode, tenantWide.code]).toEqual([403, -11]);
    const res = await inject(t.app, listEpaks, { as: { headers: { ...MB.headers, 'x-tenant-id': O.tenant.id } } });
    expect(res.statusCode).toBe(404);
  });
});

/** Every row read state could touch, to show a refusal changed nothing. */
async function readState() {
  const db = t.database.db;
  return JSON.stringify([
    await db.select().from(epakUserStates).orderBy(asc(epakUserStates.epakId), asc(epakUserStates.userId)),
    await db.select().from(epakInbox).orderBy(asc(epakInbox.epakId), asc(epakInbox.userId), asc(epakInbox.folder)),
    await db.select().from(epakInboxCounts).orderBy(asc(epakInboxCounts.userId), asc(epakInboxCounts.tenantId), asc(epakInboxCounts.folder)),
    await db.select().from(epaks).orderBy(asc(epaks.id)),
  ]);
}

describe('marking read and unread', () => {
  it("changes the caller's own read state, its rows and their unread counts", async () => {
    const mark = (isRead: boolean) => ok(markEpakRead, R, { params: { ePakId: E.review }, body: { isRead } });
    expect((await list(R, { folder: 'Inbox' })).counts.Inbox).toEqual({ total: 1, unread: 1 });
    expect(await mark(true)).toEqual({ id: E.review, isRead: true });
    expect((await list(R, { folder: 'Inbox' })).counts.Inbox).toEqual({ total: 1, unread: 0 });
    expect((await list(R, { folder: 'Inbox' })).items[0]!.isRead).toBe(true);
    // The owner's own read state is untouched.
    expect((await list(O, { folder: 'Pending' })).counts.Pending.unread).toBe(3);
    const [first] = await t.database.db.select().from(epakUserStates).where(and(eq(epakUserStates.epakId, E.review), eq(epakUserStates.userId, R.user.id)));
    // Marking read again keeps the first read time.
    await mark(true);
    const [again] = await t.database.db.select().from(epakUserStates).where(and(eq(epakUserStates.epakId, E.review), eq(epakUserStates.userId, R.user.id)));
    expect(again!.readAt).toEqual(first!.readAt);
    expect(await mark(false)).toEqual({ id: E.review, isRead: false });
    expect((await list(R, { folder: 'Inbox' })).counts.Inbox).toEqual({ total: 1, unread: 1 });
  });

  it('opening every document still marks the ePak read', async () => {
    const detail = EpakDetail.parse(await ok(getEpak, D, { params: { ePakId: E.delegated } }));
    await ok(actOnEpakDocument, D, { params: { epakId: E.delegated, documentId: detail.documents[0]!.documentId, action: 'view' } });
    expect((await list(D, { folder: 'Inbox' })).counts.Inbox).toEqual({ total: 1, unread: 0 });
  });

  it('works on an ePak put away (deleted, archived) for whoever sees it', async () => {
    expect(await ok(markEpakRead, S1, { params: { ePakId: E.archived }, body: { isRead: true } })).toEqual({ id: E.archived, isRead: true });
    expect((await list(S1, { folder: 'Archived' })).counts.Archived).toEqual({ total: 1, unread: 0 });
  });

  it.each([
    ['a member of another tenant', () => MB, 404, -1],
    ['a person of both tenants, asking in the other one', () => inTenant(S2, MB.tenant.id), 404, -1],
    ['a colleague with no place in it', () => AD, 404, -1],
    ['a recipient of a draft', () => S1, 404, -1],
    ['a registrar with no place in it', () => RG, 404, -1],
  ] as const)('refuses %s and changes nothing', async (_, who, status, code) => {
    const epakId = who() === S1 ? E.draft : E.signing;
    const before = await readState();
    const res = await inject(t.app, markEpakRead, { params: { ePakId: epakId }, body: { isRead: true }, as: who() });
    expect([res.statusCode, res.code]).toEqual([status, code]);
    expect(await readState()).toBe(before);
  });
});

describe('statistics', () => {
  it("answers the caller's summary, and their weekly series of four", async () => {
    const summary = await ok(getStatistics, O, { query: { type: 'summary', scope: 'user' } });
    expect(summary).toEqual({
      type: 'summary',
      scope: 'user',
      folders: { ...Object.fromEntries(FOLDERS.map((f) => [f, 0])), Draft: 1, Pending: 3, Completed: 1, Rejected: 1, Stopped: 1, Expired: 1, Deleted: 1, Archived: 1 },
    });
    const weekly = await ok(getStatistics, O, { query: { type: 'weekly', scope: 'user', weeks: 2 } });
    expect(weekly.type === 'weekly' && Object.keys(weekly.series).sort()).toEqual(['completed', 'created', 'pending', 'stopped']);
    expect(weekly.type === 'weekly' && weekly.weeks).toHaveLength(2);
  });

  it('answers the tenant its seven series for an admin, and 403 to anyone else, changing nothing', async () => {
    const weekly = await ok(getStatistics, AD, { query: { type: 'weekly', scope: 'all' } });
    expect(weekly.type === 'weekly' && Object.keys(weekly.series).sort()).toEqual(['completed', 'created', 'pending', 'received', 'rejected', 'signed', 'stopped']);
    const before = await readState();
    for (const who of [O, S1]) {
      const res = await inject(t.app, getStatistics, { query: { type: 'summary', scope: 'all' }, as: who });
      expect([res.statusCode, res.code]).toEqual([403, -11]);
    }
    expect(await readState()).toBe(before);
  });

  it("counts the ePaks of the caller's groups (group), and a member's for their manager or an admin (groupuser)", async () => {
    const stats = (who: Person, query: NonNullable<EndpointInput<typeof getStatistics>['query']>) => ok(getStatistics, who, { query });
    const group = await ok(createGroup, AD, { body: { groupName: 'Stats team', userIds: [O.user.id, S1.user.id], managerId: S1.user.id } });
    try {
      // Olga sent the eight ePaks of the user summary above (Sanjay none); the tenant holds others'.
      const olgaAndSanjay = { ...Object.fromEntries(FOLDERS.map((f) => [f, 0])), Draft: 1, Pending: 3, Completed: 1, Rejected: 1, Stopped: 1, Expired: 1, Deleted: 1, Archived: 1 };
      // The manager may open Olga's own numbers; Olga, a member, nobody's.
      const olga = { userId: O.user.id, firstName: 'Olga', lastName: 'Owens', email: O.user.email };
      expect(await stats(S1, { type: 'summary', scope: 'group' })).toEqual({ type: 'summary', scope: 'group', folders: olgaAndSanjay, members: [olga] });
      expect(await stats(O, { type: 'summary', scope: 'group' })).toEqual({ type: 'summary', scope: 'group', folders: olgaAndSanjay, members: [] });
      const all = await stats(AD, { type: 'summary', scope: 'all' });
      expect(all.type === 'summary' && all.folders).not.toEqual(olgaAndSanjay);
      // Someone in no group: nothing.
      expect(await stats(S2, { type: 'summary', scope: 'group' })).toEqual({ type: 'summary', scope: 'group', folders: Object.fromEntries(FOLDERS.map((f) => [f, 0])), members: [] });
      const weekly = await stats(S1, { type: 'weekly', scope: 'group', weeks: 4 });
      expect(weekly.type === 'weekly' && Object.keys(weekly.series).sort()).toEqual(['completed', 'created', 'pending', 'stopped']);

      // The manager, and an admin, read a member's own numbers; a member does not read the manager's.
      const olgas = await stats(O, { type: 'summary', scope: 'user' });
      expect(await stats(S1, { type: 'summary', scope: 'groupuser', userId: O.user.id })).toEqual({ ...olgas, scope: 'groupuser' });
      expect(await stats(AD, { type: 'summary', scope: 'groupuser', userId: O.user.id })).toEqual({ ...olgas, scope: 'groupuser' });
      const before = await readState();
      const refused = await inject(t.app, getStatistics, { query: { type: 'summary', scope: 'groupuser', userId: S1.user.id }, as: O });
      expect([refused.statusCode, refused.code]).toEqual([404, -1]);
      const noOne = await inject(t.app, getStatistics, { query: { type: 'summary', scope: 'groupuser' }, as: S1 });
      expect([noOne.statusCode, noOne.code]).toEqual([400, -6]);
      expect(await readState()).toBe(before);
    } finally {
      await ok(deleteGroup, AD, { params: { groupId: group.groupId } });
    }
  });

  it("gives the caller's tiles", async () => {
    expect(UserStatistics.parse(await ok(getUserStatistics, O))).toMatchObject({ awaitingMe: 0, awaitingOthers: 3, expiringSoon: 0 });
    expect(UserStatistics.parse(await ok(getUserStatistics, S2))).toMatchObject({ awaitingMe: 2, awaitingOthers: 0, expiringSoon: 0 });
    // The delegated ePak expires in three days and waits for Dev.
    expect(UserStatistics.parse(await ok(getUserStatistics, D))).toMatchObject({ awaitingMe: 1, awaitingOthers: 0, expiringSoon: 1 });
  });

  it('counts each week exactly (a seeded tenant, a fixed clock)', async () => {
    const db = t.database.db;
    const tenant = await makeTenant(db);
    const [u1, u2, signer] = [await makeUser(db), await makeUser(db), await makeUser(db)];
    const other = await makeTenant(db);
    const d = (iso: string) => new Date(`${iso}T12:00:00Z`);
    const epak = async (values: Partial<typeof epaks.$inferInsert>) =>
      (await db.insert(epaks).values({ tenantId: tenant.id, ownerId: u1.id, subject: 'Seeded', signingPolicy: 'ESIGNATURE', ...values }).returning())[0]!;
    const e1 = await epak({ createdAt: d('2025-02-25'), startedAt: d('2025-02-25'), endedAt: d('2025-03-04'), status: 'Completed' });
    const e2 = await epak({ createdAt: d('2025-03-04'), startedAt: d('2025-03-05'), status: 'InProgress', currentStep: 1 });
    await epak({ createdAt: d('2025-01-10'), startedAt: d('2025-01-10'), endedAt: d('2025-03-11'), status: 'Stopped' });
    await epak({ createdAt: d('2025-03-11') });
    const e5 = await epak({ ownerId: u2.id, createdAt: d('2025-02-26'), startedAt: d('2025-02-26'), endedAt: d('2025-02-27'), status: 'Rejected' });
    const elsewhere = (await db.insert(epaks).values({ tenantId: other.id, ownerId: u1.id, subject: 'Elsewhere', signingPolicy: 'ESIGNATURE', createdAt: d('2025-03-04'), startedAt: d('2025-03-04'), status: 'InProgress' }).returning())[0]!;
    const place = async (epakId: string, status: string, actedAt: Date | null) => {
      const { rows } = (await db.execute(sql`insert into epak_steps (epak_id, position, workflow_state_id, name, type) values (${epakId}, 1, gen_random_uuid(), 'Sign', 'SIGN') returning id`)) as unknown as { rows: Array<{ id: string }> };
      await db.execute(sql`insert into epak_recipients (epak_id, step_id, user_id, position, status, acted_at) values (${epakId}, ${rows[0]!.id}, ${signer.id}, 1, ${status}, ${actedAt})`);
    };
    await place(e1.id, 'Signed', d('2025-03-04'));
    await place(e1.id, 'Signed', d('2025-02-28'));
    await place(e5.id, 'Rejected', d('2025-02-27'));
    await place(e2.id, 'Pending', null);
    await place(elsewhere.id, 'Signed', d('2025-03-04'));

    const now = new Date('2025-03-12T08:00:00Z');
    const weekly = (scope: 'user' | 'all', userId = u1.id) =>
      loadStatistics({ db, actor: { tenantId: tenant.id, userId }, query: { type: 'weekly', scope, weeks: 3 }, now });
    expect(await weekly('user')).toEqual({
      type: 'weekly',
      scope: 'user',
      weeks: ['2025-02-24', '2025-03-03', '2025-03-10'],
      series: { created: [1, 1, 1], completed: [0, 1, 0], stopped: [0, 0, 1], pending: [2, 2, 1] },
    });
    expect(await weekly('all')).toEqual({
      type: 'weekly',
      scope: 'all',
      weeks: ['2025-02-24', '2025-03-03', '2025-03-10'],
      series: { created: [2, 1, 1], completed: [0, 1, 0], stopped: [0, 0, 1], pending: [2, 2, 1], received: [2, 1, 0], signed: [1, 1, 0], rejected: [1, 0, 0] },
    });
    expect((await weekly('user', u2.id)).type === 'weekly' && (await weekly('user', u2.id))).toMatchObject({ series: { created: [1, 0, 0], pending: [0, 0, 0] } });
    expect(await loadStatistics({ db, actor: { tenantId: tenant.id, userId: u1.id }, query: { type: 'summary', scope: 'all', weeks: 8 }, now })).toEqual({
      type: 'summary',
      scope: 'all',
      folders: { ...Object.fromEntries(FOLDERS.map((f) => [f, 0])), Completed: 1, Pending: 1, Stopped: 1, Draft: 1, Rejected: 1 },
    });
  });
});
