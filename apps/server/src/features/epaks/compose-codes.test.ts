import {
  createEpak,
  createSignatureBlocks,
  type EpakDetail,
  getEpak,
  newTag,
  startEpak,
  type Tag,
} from '@pakt/domain';
import { asc, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { epakActivities, epakDocuments, epaks, outbox, users } from '../../platform/db/schema';
import {
  composedEpak,
  type SignedInMember,
  signedInMember,
  uploadedDocument,
  workflowStateIds,
} from '../../test/app-factories';
import { inject } from '../../test/inject';
import { buildTestApp, type TestApp } from '../../test/test-app';

/**
 * The compose and start codes of spec §8 that issue 21 gives a situation to: -62 (a signer without
 * a signature field, at start), -109 (an ePak without a document), -176 (a document twice in one
 * ePak) and -169 (an ePak's own copy of a document given to compose). Each refusal leaves what was
 * stored as it was.
 */

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

/** Everything compose or start could write, to prove a refusal wrote nothing. */
async function everything() {
  const all = async (table: string) => JSON.stringify((await t.database.executeSql(`select * from "${table}" order by id`, [])).rows);
  return [
    await all('epaks'),
    await all('epak_documents'),
    await all('epak_steps'),
    await all('epak_recipients'),
    await all('epak_activities'),
    await all('outbox'),
    await all('users'),
  ].join('\n');
}

const signature = (uuid: string, userEmail: string, wfsOrderId: number, y: number): Tag =>
  newTag({ uuid, type: 'signature', pageNumber: 1, positionX: 40, positionY: y, userEmail, wfsOrderId });
const reason = (uuid: string, userEmail: string, wfsOrderId: number, y: number): Tag =>
  newTag({ uuid, type: 'reason', pageNumber: 1, positionX: 220, positionY: y, userEmail, wfsOrderId });

const place = (owner: SignedInMember, epak: EpakDetail, tags: Tag[]) =>
  inject(t.app, createSignatureBlocks, { as: owner, params: { ePakId: epak.ePakId, documentId: epak.documents[0]!.documentId }, body: { tags } });
const start = (owner: SignedInMember, epak: EpakDetail) => inject(t.app, startEpak, { as: owner, params: { ePakId: epak.ePakId } });

describe('starting an ePak whose signer has no signature field (-62)', () => {
  it('is refused naming every signer without one, and the draft stays as it was', async () => {
    const owner = await signedInMember(t);
    const buyer = await signedInMember(t, { role: 'signer', tenant: owner.tenant, user: { firstName: 'Meera', lastName: 'Nair' } });
    const { epak } = await composedEpak(t, { owner, steps: [{ type: 'SIGN', recipients: [buyer, 'Outside.Counsel@Elsewhere.test'] }] });
    const before = await everything();

    const refused = await start(owner, epak);
    expect([refused.statusCode, refused.code], refused.body).toEqual([422, -62]);
    const body = refused.json();
    expect(body.message).toContain(`Meera Nair (${buyer.user.email})`);
    expect(body.message).toContain('outside.counsel@elsewhere.test');
    expect(body.data).toEqual({
      withoutSignatureField: [buyer.user.email, 'outside.counsel@elsewhere.test'],
      signers: [
        { email: buyer.user.email, name: 'Meera Nair', stepOrder: 1 },
        { email: 'outside.counsel@elsewhere.test', name: 'outside.counsel', stepOrder: 1 },
      ],
    });
    expect(await everything()).toBe(before);
    const [row] = await t.database.db.select().from(epaks).where(eq(epaks.id, epak.ePakId));
    expect([row!.status, row!.startedAt]).toEqual(['Draft', null]);
  });

  it('names only the signer still without one when the others have theirs, then sends once every signer has one', async () => {
    const owner = await signedInMember(t);
    const buyer = await signedInMember(t, { role: 'signer', tenant: owner.tenant });
    const seller = await signedInMember(t, { role: 'signer', tenant: owner.tenant, user: { firstName: 'Ravi', lastName: 'Iyer' } });
    const { epak } = await composedEpak(t, { owner, steps: [{ type: 'SIGN', recipients: [buyer, seller] }] });
    const mine = [signature('11111111-1111-4111-8111-111111111111', buyer.user.email, 1, 60), reason('22222222-2222-4222-8222-222222222222', buyer.user.email, 1, 60)];
    expect((await place(owner, epak, mine)).statusCode).toBe(200);
    const before = await everything();

    const refused = await start(owner, epak);
    expect([refused.statusCode, refused.code], refused.body).toEqual([422, -62]);
    expect(refused.json().message).toContain(`Ravi Iyer (${seller.user.email})`);
    expect(refused.json().message).not.toContain(buyer.user.email);
    expect(refused.json().data.withoutSignatureField).toEqual([seller.user.email]);
    expect(await everything()).toBe(before);

    const theirs = [signature('33333333-3333-4333-8333-333333333333', seller.user.email, 1, 160), reason('44444444-4444-4444-8444-444444444444', seller.user.email, 1, 160)];
    expect((await place(owner, epak, [...mine, ...theirs])).statusCode).toBe(200);
    const sent = await start(owner, epak);
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.data.status).toBe('InProgress');
  });

  it('asks the same of an in-person signer, counts a signature block as their field, and lets a review without signers go', async () => {
    const owner = await signedInMember(t);
    const host = await signedInMember(t, { role: 'signer', tenant: owner.tenant });
    const fields = { signingPolicy: 'QUICKSIGN' as const };
    const { epak } = await composedEpak(t, { owner, fields, steps: [{ type: 'INPERSONSIGN', recipients: [host] }] });
    const refused = await start(owner, epak);
    expect([refused.statusCode, refused.code]).toEqual([422, -62]);
    expect(refused.json().data.withoutSignatureField).toEqual([host.user.email]);

    // The editor's signature block: a composite without members, whose value is the signature.
    const block = newTag({ uuid: '55555555-5555-4555-8555-555555555555', type: 'composite', pageNumber: 1, positionX: 40, positionY: 60, userEmail: host.user.email, wfsOrderId: 1 });
    expect((await place(owner, epak, [block])).statusCode).toBe(200);
    expect((await start(owner, epak)).statusCode).toBe(200);

    const reviewer = await signedInMember(t, { role: 'custodian', tenant: owner.tenant });
    const { epak: review } = await composedEpak(t, { owner, steps: [{ type: 'REVIEW', recipients: [reviewer] }] });
    expect((await start(owner, review)).statusCode).toBe(200);
  });
});

describe('an ePak without a document (-109)', () => {
  it('is refused at compose, storing nothing, not even the invited recipient', async () => {
    const owner = await signedInMember(t);
    const state = await workflowStateIds(t, owner);
    const before = await everything();
    const res = await inject(t.app, createEpak, {
      as: owner,
      body: { subject: 'Nothing attached', documentIds: [], steps: [{ workflowStateId: state('SIGN'), recipients: [{ email: 'nobody-yet@elsewhere.test' }] }] },
    });
    expect([res.statusCode, res.code], res.body).toEqual([422, -109]);
    expect(res.json().issues).toEqual([{ path: 'documentIds', message: 'required' }]);
    expect(await everything()).toBe(before);
    expect(await t.database.db.select().from(users).where(eq(users.email, 'nobody-yet@elsewhere.test'))).toEqual([]);
  });

  it('is refused at start for a draft that has lost its documents, which stays a draft', async () => {
    const owner = await signedInMember(t);
    const reviewer = await signedInMember(t, { role: 'custodian', tenant: owner.tenant });
    const { epak } = await composedEpak(t, { owner, steps: [{ type: 'REVIEW', recipients: [reviewer] }] });
    await t.database.db.delete(epakDocuments).where(eq(epakDocuments.epakId, epak.ePakId));
    const before = await everything();
    const res = await start(owner, epak);
    expect([res.statusCode, res.code], res.body).toEqual([422, -109]);
    expect(await everything()).toBe(before);
    const activity = await t.database.db.select({ action: epakActivities.action }).from(epakActivities).where(eq(epakActivities.epakId, epak.ePakId)).orderBy(asc(epakActivities.seq));
    expect(activity.map((row) => row.action)).toEqual(['composed']);
    expect((await t.database.db.select({ n: count() }).from(outbox).where(eq(outbox.tenantId, owner.tenant.id)))[0]!.n).toBe(0);
  });
});

describe('documents given to compose', () => {
  it('refuses one document twice (-176), at the second place, storing nothing; copies uploaded apart may go together', async () => {
    const owner = await signedInMember(t);
    const document = await uploadedDocument(t, { owner });
    const state = await workflowStateIds(t, owner);
    const body = (documentIds: string[]) => ({ subject: 'Twice', documentIds, steps: [{ workflowStateId: state('SIGN'), recipients: [{ email: owner.user.email }] }] });
    const before = await everything();
    const res = await inject(t.app, createEpak, { as: owner, body: body([document.documentId, document.documentId]) });
    expect([res.statusCode, res.code], res.body).toEqual([409, -176]);
    expect(res.json().issues).toEqual([{ path: 'documentIds.1', message: 'already present' }]);
    expect(await everything()).toBe(before);

    const copy = await uploadedDocument(t, { owner });
    expect(copy.sha256).toBe(document.sha256);
    const both = await inject(t.app, createEpak, { as: owner, body: body([document.documentId, copy.documentId]) });
    expect(both.statusCode, both.body).toBe(200);
    expect(both.data.documents.map((one) => one.sourceDocumentId)).toEqual([document.documentId, copy.documentId]);
  });

  it("refuses an ePak's own copy of a document (-169), naming the ePak and its source; to anyone else it does not exist", async () => {
    const owner = await signedInMember(t);
    const { epak } = await composedEpak(t, { owner });
    const copy = epak.documents[0]!;
    const state = await workflowStateIds(t, owner);
    const body = { subject: 'Again', documentIds: [copy.documentId], steps: [{ workflowStateId: state('SIGN'), recipients: [{ email: owner.user.email }] }] };
    const colleague = await signedInMember(t, { tenant: owner.tenant });
    const before = await everything();

    const res = await inject(t.app, createEpak, { as: owner, body });
    expect([res.statusCode, res.code], res.body).toEqual([409, -169]);
    expect(res.json().data).toEqual({ documentId: copy.documentId, ePakId: epak.ePakId, sourceDocumentId: copy.sourceDocumentId });
    expect(res.json().message).toContain('Test agreement');
    expect(res.json().issues).toEqual([{ path: 'documentIds.0', message: 'used in an ePak' }]);
    expect(await everything()).toBe(before);

    const theirs = await inject(t.app, createEpak, { as: colleague, body });
    expect(theirs.statusCode).toBe(404);
    expect(await everything()).toBe(before);
    // The ePak itself is untouched and still shows the copy.
    expect((await inject(t.app, getEpak, { as: owner, params: { ePakId: epak.ePakId } })).data.documents[0]!.documentId).toBe(copy.documentId);
  });
});
