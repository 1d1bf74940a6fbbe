import {
  cancelDelegation,
  createEpak,
  delegateEpak,
  deleteEpaks,
  type Endpoint,
  type EndpointInput,
  EpakDetail,
  listNotifications,
  listWorkflowStates,
  markNotificationsRead,
  newTag,
  Notification,
  rejectEpak,
  removeEpakRecipient,
  setEpakStatus,
  signEpakDocument,
  startEpak,
  type Tag,
  type TokenGrant,
  updateSignatureBlocks,
  type WorkflowStateType,
} from '@pakt/domain';
import { asc, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memberships, notifications } from '../../platform/db/schema';
import { GOOD_PASSWORD, makeMember } from '../../test/factories';
import { type Caller, inject } from '../../test/inject';
import { bearer, signIn } from '../../test/sign-in';
import { buildTestApp, type TestApp } from '../../test/test-app';
import { signatureFieldsFor, uploadedDocument } from '../../test/app-factories';

/**
 * Who is notified of what (spec §4 "Notification handling by type"), through the real API:
 * compose, start, review, sign, reject, delegate, take back, remove, delete. Then the caller's
 * own list and marking read, which never reach anyone else's notifications.
 */

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

type Person = Awaited<ReturnType<typeof person>>;

async function person(role: 'signer' | 'custodian' | 'admin' | 'super_admin', tenant?: { id: string }, firstName = 'Asha') {
  const made = await makeMember(t.database.db, { role, ...(tenant ? { tenant } : {}), user: { firstName, lastName: 'Rao' } });
  const grant: TokenGrant = await signIn(t.app, made.user.email, GOOD_PASSWORD);
  return { ...made, grant, headers: { ...bearer(grant), 'x-tenant-id': made.tenant.id } };
}

async function ok<E extends Endpoint>(endpoint: E, who: Caller, input: EndpointInput<E> = {} as EndpointInput<E>) {
  const res = await inject(t.app, endpoint, { ...input, as: who });
  expect(res.statusCode, `${endpoint.method} ${endpoint.path}: ${res.body}`).toBe(200);
  return res.data;
}

let uuidCounter = 0;
const tagUuid = () => `00000000-0000-4000-8000-${(++uuidCounter).toString().padStart(12, '0')}`;
const signatureFields = (email: string, order: number, y = 500): Tag[] => [
  newTag({ uuid: tagUuid(), type: 'signature', pageNumber: 1, positionX: 40, positionY: y, userEmail: email, wfsOrderId: order }),
  newTag({ uuid: tagUuid(), type: 'reason', pageNumber: 1, positionX: 300, positionY: y, userEmail: email, wfsOrderId: order }),
];

/** A sent ePak of one one-page document, steps as [type, people or addresses]. */
async function sentEpak(owner: Person, steps: Array<[WorkflowStateType, Array<Person | string>]>, options: { tags?: Tag[]; start?: boolean; subject?: string } = {}) {
  const doc = await uploadedDocument(t, { owner });
  const states = (await ok(listWorkflowStates, owner)).states;
  const state = (type: WorkflowStateType) => states.find((s) => s.type === type)!.workflowStateId;
  const draft = EpakDetail.parse(
    await ok(createEpak, owner, {
      body: {
        subject: options.subject ?? 'Lease of flat 3B',
        documentIds: [doc.documentId],
        steps: steps.map(([type, people]) => ({ workflowStateId: state(type), recipients: people.map((p) => ({ email: typeof p === 'string' ? p : p.user.email })) })),
      },
    }),
  );
  // Every signer needs a signature field before the ePak is sent (-62): those `tags` leave without one get one.
  const tags = [...(options.tags ?? []), ...signatureFieldsFor(draft, { alongside: options.tags ?? [] }).flatMap((one) => one.tags)];
  if (tags.length > 0) await ok(updateSignatureBlocks, owner, { params: { ePakId: draft.ePakId, documentId: draft.documents[0]!.documentId }, body: { tags } });
  if (options.start === false) return draft;
  return EpakDetail.parse(await ok(startEpak, owner, { params: { ePakId: draft.ePakId } }));
}

/** One person's notification rows, oldest first, as [type, ePak id]. */
async function received(who: Person): Promise<Array<[string, string | null]>> {
  const rows = await t.database.db.select().from(notifications).where(eq(notifications.userId, who.user.id)).orderBy(asc(notifications.createdAt), asc(notifications.type));
  return rows.map((row) => [row.type, row.epakId]);
}

async function latest(who: Person) {
  const [row] = await t.database.db.select().from(notifications).where(eq(notifications.userId, who.user.id)).orderBy(desc(notifications.createdAt));
  return row!;
}

/** Signs the one document with the signer's signature fields among `tags` (text: drawn by the server). */
async function signAll(epak: EpakDetail, signer: Person, tags: readonly Tag[], reason?: string) {
  const mine = tags.filter((tag) => tag.type === 'signature' && tag.userEmail === signer.user.email);
  return ok(signEpakDocument, signer, {
    params: { ePakId: epak.ePakId, documentId: epak.documents[0]!.documentId },
    body: {
      values: mine.map((tag) => ({ uuid: tag.uuid, value: `${signer.user.firstName} Rao` })),
      ...(reason ? { reason } : {}),
    },
  });
}

describe('who is notified of what', () => {
  it('asks each step in turn; the owner hears the reviewer\'s comment, the signer\'s reason and the end', async () => {
    const owner = await person('custodian', undefined, 'Owen');
    const reviewer = await person('signer', owner.tenant, 'Ravi');
    const signer = await person('signer', owner.tenant, 'Sita');
    const tags = signatureFields(signer.user.email, 2);
    const epak = await sentEpak(owner, [['REVIEW', [reviewer]], ['SIGN', [signer]]], { tags });

    expect(await received(reviewer)).toEqual([['reviewRequest', epak.ePakId]]);
    expect(await latest(reviewer)).toMatchObject({ title: 'Please review: Lease of flat 3B', body: 'Owen Rao asks you to review "Lease of flat 3B".', tenantId: owner.tenant.id, readAt: null });
    expect(await received(signer)).toEqual([]);
    expect(await received(owner)).toEqual([]);

    await ok(setEpakStatus, reviewer, { body: { ePakId: epak.ePakId, status: 'Reviewed', comment: 'Clause 4 is fine now.' } });
    expect(await received(signer)).toEqual([['signRequest', epak.ePakId]]);
    expect(await received(owner)).toEqual([['reviewerComments', epak.ePakId]]);
    expect((await latest(owner)).body).toBe('Ravi Rao reviewed "Lease of flat 3B": Clause 4 is fine now.');

    await signAll(epak, signer, tags, 'Agreed');
    expect(await received(owner)).toEqual([
      ['reviewerComments', epak.ePakId],
      ['signCompleted', epak.ePakId],
      ['signerComments', epak.ePakId],
    ]);
    const rows = await t.database.db.select().from(notifications).where(eq(notifications.userId, owner.user.id));
    expect(rows.find((row) => row.type === 'signerComments')!.body).toBe('Sita Rao signed "Lease of flat 3B": Agreed');
    // Nobody is told of their own action.
    expect(await received(reviewer)).toEqual([['reviewRequest', epak.ePakId]]);
    expect(await received(signer)).toEqual([['signRequest', epak.ePakId]]);
  });

  it('a review without a comment, or a signature without a reason, is no comment', async () => {
    const owner = await person('custodian');
    const reviewer = await person('signer', owner.tenant);
    const signer = await person('signer', owner.tenant);
    const tags = signatureFields(signer.user.email, 2);
    const epak = await sentEpak(owner, [['REVIEW', [reviewer]], ['SIGN', [signer]]], { tags });
    await ok(setEpakStatus, reviewer, { body: { ePakId: epak.ePakId, status: 'Reviewed' } });
    await signAll(epak, signer, tags);
    expect(await received(owner)).toEqual([['signCompleted', epak.ePakId]]);
  });

  it('tells the owner of a rejection with its comment, and no one else', async () => {
    const owner = await person('custodian');
    const a = await person('signer', owner.tenant, 'Anil');
    const b = await person('signer', owner.tenant);
    const epak = await sentEpak(owner, [['SIGN', [a, b]]]);
    await ok(rejectEpak, a, { params: { ePakId: epak.ePakId }, body: { comment: 'Wrong flat number.' } });
    expect(await received(owner)).toEqual([['signDeclined', epak.ePakId]]);
    expect((await latest(owner)).body).toBe('Anil Rao rejected "Lease of flat 3B". Comment: Wrong flat number.');
    expect(await received(a)).toEqual([['signRequest', epak.ePakId]]);
    expect(await received(b)).toEqual([['signRequest', epak.ePakId]]);
  });

  it('gives the delegate a place, and tells them when it is taken back; the original is asked again', async () => {
    const owner = await person('custodian');
    const signer = await person('signer', owner.tenant, 'Meera');
    const agent = await person('signer', owner.tenant);
    const epak = await sentEpak(owner, [['SIGN', [signer]]]);
    await ok(delegateEpak, signer, { params: { ePakId: epak.ePakId }, body: { email: agent.user.email, comment: 'On leave until May.' } });
    expect(await received(agent)).toEqual([['epakDelegated', epak.ePakId]]);
    expect((await latest(agent)).body).toBe('Meera Rao handed their place in "Lease of flat 3B" over to you. On leave until May.');
    expect(await received(signer)).toEqual([['signRequest', epak.ePakId]]);

    // The owner takes it back: the delegate is told, the original is asked again.
    const cancel = (who: Person) => ok(cancelDelegation, who, { params: { ePakId: epak.ePakId, userEmail: agent.user.email, workflowStateId: epak.steps[0]!.workflowStateId } });
    await cancel(owner);
    expect(await received(agent)).toEqual([
      ['epakDelegated', epak.ePakId],
      ['epakReassignment', epak.ePakId],
    ]);
    expect(await received(signer)).toEqual([
      ['signRequest', epak.ePakId],
      ['signRequest', epak.ePakId],
    ]);
    expect(await received(owner)).toEqual([]);

    // The original takes a second delegation back themselves: only the delegate is told.
    await ok(delegateEpak, signer, { params: { ePakId: epak.ePakId }, body: { email: agent.user.email } });
    await cancel(signer);
    expect((await received(agent)).map(([type]) => type)).toEqual(['epakDelegated', 'epakReassignment', 'epakDelegated', 'epakReassignment']);
    expect(await received(signer)).toHaveLength(2);
  });

  it('tells a removed recipient who had been asked, not one whose step had not come', async () => {
    const owner = await person('custodian');
    const a = await person('signer', owner.tenant);
    const b = await person('signer', owner.tenant);
    const later = await person('signer', owner.tenant);
    // Reviewers: a signer always has a signature field (-62 at start), which keeps them in place (-107).
    const epak = await sentEpak(owner, [['REVIEW', [a, b]], ['REVIEW', [later]]]);
    const recipientOf = (who: Person) => epak.steps.flatMap((step) => step.recipients).find((r) => r.userId === who.user.id)!.recipientId;
    await ok(removeEpakRecipient, owner, { params: { ePakId: epak.ePakId }, body: { recipientId: recipientOf(later) } });
    await ok(removeEpakRecipient, owner, { params: { ePakId: epak.ePakId }, body: { recipientId: recipientOf(b) } });
    expect(await received(later)).toEqual([]);
    expect(await received(b)).toEqual([
      ['reviewRequest', epak.ePakId],
      ['epakReassignment', epak.ePakId],
    ]);
    expect((await latest(b)).body).toMatch(/removed you from "Lease of flat 3B"/);
    expect(await received(a)).toEqual([['reviewRequest', epak.ePakId]]);
  });

  it('tells the people an ePak had reached that it was deleted; a draft tells nobody', async () => {
    const owner = await person('custodian');
    const reviewer = await person('signer', owner.tenant);
    const signer = await person('signer', owner.tenant);
    const later = await person('signer', owner.tenant);
    const epak = await sentEpak(owner, [['REVIEW', [reviewer]], ['SIGN', [signer]], ['SIGN', [later]]]);
    await ok(setEpakStatus, reviewer, { body: { ePakId: epak.ePakId, status: 'Reviewed' } });
    const draft = await sentEpak(owner, [['SIGN', [later]]], { start: false });
    const deleted = await ok(deleteEpaks, owner, { body: { ePakIds: [epak.ePakId, draft.ePakId] } });
    expect(deleted.results.map((r: { result: string }) => r.result)).toEqual(['DELETED', 'DELETED']);
    expect(await received(reviewer)).toEqual([
      ['reviewRequest', epak.ePakId],
      ['epakDeleted', epak.ePakId],
    ]);
    expect(await received(signer)).toEqual([
      ['signRequest', epak.ePakId],
      ['epakDeleted', epak.ePakId],
    ]);
    expect(await received(later)).toEqual([]);
    expect(await received(owner)).toEqual([]);
  });

  it('writes nothing for an external recipient, who is mailed instead', async () => {
    const owner = await person('custodian');
    const epak = await sentEpak(owner, [['SIGN', ['outside.person@elsewhere.test']]]);
    const rows = await t.database.db.select().from(notifications).where(eq(notifications.epakId, epak.ePakId));
    expect(rows).toEqual([]);
  });
});

describe('GET /msbapi/v2/notifications and PUT …/read', () => {
  it("lists the caller's own in this tenant, newest first, with the unread count; marks read only their own", async () => {
    const owner = await person('custodian');
    const signer = await person('signer', owner.tenant);
    const colleague = await person('signer', owner.tenant);
    // The signer is a member of a second tenant too, where they have a notification of their own.
    const elsewhere = await person('custodian');
    await t.database.db.insert(memberships).values({ tenantId: elsewhere.tenant.id, userId: signer.user.id, role: 'signer', status: 'active' });
    const there = await sentEpak(elsewhere, [['SIGN', [signer]]], { subject: 'Elsewhere' });

    const first = await sentEpak(owner, [['SIGN', [signer, colleague]]], { subject: 'First' });
    const second = await sentEpak(owner, [['SIGN', [signer]]], { subject: 'Second' });
    const list = await ok(listNotifications, signer);
    expect(list.unread).toBe(2);
    const items = list.items.map((item: unknown) => Notification.parse(item));
    expect(items.map((n: Notification) => [n.notificationType, n.epak?.id, n.title, n.isRead])).toEqual([
      ['signRequest', second.ePakId, 'Please sign: Second', false],
      ['signRequest', first.ePakId, 'Please sign: First', false],
    ]);
    expect((await ok(listNotifications, signer, { query: { limit: 1 } })).items).toHaveLength(1);
    const inOtherTenant = await ok(listNotifications, { headers: { ...bearer(signer.grant), 'x-tenant-id': elsewhere.tenant.id } });
    expect(inOtherTenant.items.map((n: Notification) => n.epak?.id)).toEqual([there.ePakId]);

    // Marking read: the colleague's id and the other tenant's are left alone.
    const colleagueId = (await ok(listNotifications, colleague)).items[0]!.id;
    const marked = await ok(markNotificationsRead, signer, { body: { ids: [items[1]!.id, colleagueId, inOtherTenant.items[0]!.id] } });
    expect(marked).toEqual({ updated: 1 });
    expect((await ok(listNotifications, colleague)).unread).toBe(1);
    const after = await ok(listNotifications, signer);
    expect([after.unread, after.items.map((n: Notification) => n.isRead)]).toEqual([1, [false, true]]);
    expect(await ok(markNotificationsRead, signer, { body: {} })).toEqual({ updated: 1 });
    expect(await ok(markNotificationsRead, signer, { body: {} })).toEqual({ updated: 0 });
    expect((await ok(listNotifications, { headers: { ...bearer(signer.grant), 'x-tenant-id': elsewhere.tenant.id } })).unread).toBe(1);
  });

  it('answers an outsider 404 and a super admin 403, and changes nothing', async () => {
    const owner = await person('custodian');
    const signer = await person('signer', owner.tenant);
    await sentEpak(owner, [['SIGN', [signer]]]);
    const outsider = await person('custodian');
    const superAdmin = await person('super_admin', owner.tenant);
    const snapshot = async () => JSON.stringify(await t.database.db.select().from(notifications).orderBy(asc(notifications.id)));
    const before = await snapshot();
    const asOutsider = { headers: { ...outsider.headers, 'x-tenant-id': owner.tenant.id } };
    for (const call of [(who: Caller) => inject(t.app, listNotifications, { as: who }), (who: Caller) => inject(t.app, markNotificationsRead, { body: {}, as: who })]) {
      const res = await call(asOutsider);
      expect([res.statusCode, res.code]).toEqual([404, -1]);
      const refused = await call(superAdmin);
      expect([refused.statusCode, refused.code]).toEqual([403, -11]);
    }
    expect(await snapshot()).toBe(before);
    // Bad input is named.
    const bad = await inject(t.app, markNotificationsRead, { body: { ids: ['not-a-uuid'] }, as: signer });
    expect([bad.statusCode, bad.code]).toEqual([400, -6]);
    expect((await inject(t.app, listNotifications, { query: { limit: 0 }, as: signer })).code).toBe(-6);
    expect(await snapshot()).toBe(before);
  });
});
