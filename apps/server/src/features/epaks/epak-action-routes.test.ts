import {
  archiveEpak,
  bulkSignEpaks,
  cancelDelegation,
  createEpak,
  delegateEpak,
  deleteEpaks,
  editEpak,
  EpakDetail,
  getEpak,
  getSignatureBlocks,
  newTag,
  rejectEpak,
  remindRecipient,
  removeEpakRecipient,
  setEpakStatus,
  signEpakDocument,
  type SignerStatus,
  startEpak,
  type Tag,
  toggleEpakStar,
  updateEpakArchivalPeriod,
  updateEpakNotificationDate,
  updateSignatureBlocks,
  type WorkflowStateType,
} from '@pakt/domain';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { epakActivities, epakDocuments, epakRecipients, epaks, epakUserStates, memberships, outbox, tenantSettings, users } from '../../platform/db/schema';
import { makeMember, makeUser } from '../../test/factories';
import { inject } from '../../test/inject';
import { buildTestApp, type TestApp } from '../../test/test-app';
import { placeSignatureFields, signedInMember, uploadedDocument, workflowStateIds } from '../../test/app-factories';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

type Person = Awaited<ReturnType<typeof person>>;

const person = (role: 'signer' | 'custodian' | 'submitter' | 'admin' | 'registrar', tenant?: { id: string }, user?: NonNullable<Parameters<typeof makeMember>[1]>['user']) =>
  signedInMember(t, { role, ...(tenant ? { tenant } : {}), ...(user ? { user } : {}) });

const upload = (owner: Person) => uploadedDocument(t, { owner });
const stateIds = (owner: Person) => workflowStateIds(t, owner);

let uuidCounter = 0;
const tagUuid = () => `00000000-0000-4000-8000-${(++uuidCounter).toString().padStart(12, '0')}`;

/** A signature field and its reason (ESIGNATURE wants one per signature) for one signer in step `order`. */
const signatureFields = (email: string, order: number, y = 500): Tag[] => [
  newTag({ uuid: tagUuid(), type: 'signature', pageNumber: 1, positionX: 40, positionY: y, userEmail: email, wfsOrderId: order }),
  newTag({ uuid: tagUuid(), type: 'reason', pageNumber: 1, positionX: 300, positionY: y, userEmail: email, wfsOrderId: order }),
];

/**
 * A sent ePak of one one-page document: steps as [type, people or addresses], composed and
 * started by a custodian of the first person's tenant.
 */
async function sentEpak(owner: Person, steps: Array<[WorkflowStateType, Array<Person | string>]>, options: { tags?: Tag[]; expiresOn?: string; start?: boolean } = {}) {
  const doc = await upload(owner);
  const state = await stateIds(owner);
  const composed = await inject(t.app, createEpak, {
    as: owner,
    body: {
      subject: 'Lease of flat 3B',
      message: 'Please sign.',
      documentIds: [doc.documentId],
      steps: steps.map(([type, people]) => ({ workflowStateId: state(type), recipients: people.map((p) => ({ email: typeof p === 'string' ? p : p.user.email })) })),
      ...(options.expiresOn ? { expiresOn: options.expiresOn } : {}),
    },
  });
  expect(composed.statusCode, composed.body).toBe(200);
  const draft = EpakDetail.parse(composed.data);
  if (options.tags) {
    const placed = await inject(t.app, updateSignatureBlocks, { params: { ePakId: draft.ePakId, documentId: draft.documents[0]!.documentId }, body: { tags: options.tags }, as: owner });
    expect(placed.statusCode, placed.body).toBe(200);
  } else {
    // Every signer has a signature field, or the ePak is not sent (-62).
    await placeSignatureFields(t, { owner, epak: draft });
  }
  if (options.start === false) return draft;
  const started = await inject(t.app, startEpak, { params: { ePakId: draft.ePakId }, as: owner });
  expect(started.statusCode, started.body).toBe(200);
  return EpakDetail.parse(started.data);
}

async function detail(epakId: string, who: Person) {
  return EpakDetail.parse((await inject(t.app, getEpak, { params: { ePakId: epakId }, as: who })).data);
}

const statuses = (epak: EpakDetail) => epak.steps.map((step) => step.recipients.map((r) => `${r.email.split('@')[0]}:${r.status}`));

async function actions(epakId: string) {
  return (await t.database.db.select().from(epakActivities).where(eq(epakActivities.epakId, epakId)).orderBy(asc(epakActivities.seq))).map((row) => row.action);
}

async function mails(tenantId: string, kind?: string) {
  const rows = await t.database.db.select().from(outbox).where(eq(outbox.tenantId, tenantId)).orderBy(asc(outbox.createdAt));
  return rows.filter((row) => kind === undefined || row.kind === kind);
}

/** Everything an action on this ePak could change, to prove a refusal changed nothing. */
async function everything(epakId: string, tenantId: string) {
  const db = t.database.db;
  return JSON.stringify([
    await db.select().from(epaks).where(eq(epaks.id, epakId)),
    await db.select().from(epakRecipients).where(eq(epakRecipients.epakId, epakId)).orderBy(asc(epakRecipients.id)),
    await db.select().from(epakDocuments).where(eq(epakDocuments.epakId, epakId)),
    await db.select().from(epakActivities).where(eq(epakActivities.epakId, epakId)),
    await db.select().from(epakUserStates).where(eq(epakUserStates.epakId, epakId)),
    await db.select().from(outbox).where(eq(outbox.tenantId, tenantId)),
    await db.select({ n: users.id }).from(users),
  ]);
}

async function expectRefused(epakId: string, tenantId: string, call: () => Promise<{ statusCode: number; json: () => { code: number; message?: string } }>, status: number, code: number) {
  const before = await everything(epakId, tenantId);
  const res = await call();
  expect([res.statusCode, res.json().code], JSON.stringify(res.json())).toEqual([status, code]);
  expect(await everything(epakId, tenantId)).toBe(before);
  return res.json();
}

describe('the star', () => {
  it("flips the caller's own star, on and off, without touching the ePak or anyone else's", async () => {
    const owner = await person('custodian');
    const signer = await person('signer', owner.tenant);
    const epak = await sentEpak(owner, [['SIGN', [signer]]]);
    const toggle = (who: Person) => inject(t.app, toggleEpakStar, { params: { ePakId: epak.ePakId }, as: who });
    const [before] = await t.database.db.select().from(epaks).where(eq(epaks.id, epak.ePakId));
    expect((await toggle(signer)).data).toEqual({ ePakId: epak.ePakId, starred: true });
    expect((await detail(epak.ePakId, signer)).viewer!.starred).toBe(true);
    expect((await detail(epak.ePakId, owner)).viewer!.starred).toBe(false);
    expect((await toggle(signer)).data.starred).toBe(false);
    expect((await toggle(owner)).data.starred).toBe(true);
    const [after] = await t.database.db.select().from(epaks).where(eq(epaks.id, epak.ePakId));
    expect(after!.updatedAt).toEqual(before!.updatedAt);
    const colleague = await person('signer', owner.tenant);
    expect((await toggle(colleague)).statusCode).toBe(404);
  });
});

describe('deleting ePaks', () => {
  it('stops one under way and moves it to Deleted; afterwards every action is -46', async () => {
    const owner = await person('custodian');
    const signer = await person('signer', owner.tenant);
    const epak = await sentEpak(owner, [['SIGN', [signer]]]);
    const draft = await sentEpak(owner, [['SIGN', [signer]]], { start: false });
    const res = await inject(t.app, deleteEpaks, { body: { ePakIds: [epak.ePakId, draft.ePakId] }, as: owner });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.data.results).toEqual([
      { ePakId: epak.ePakId, result: 'DELETED', status: 'Stopped' },
      { ePakId: draft.ePakId, result: 'DELETED', status: 'Draft' },
    ]);
    const [row] = await t.database.db.select().from(epaks).where(eq(epaks.id, epak.ePakId));
    expect(row).toMatchObject({ status: 'Stopped', deletedBy: owner.user.id, currentStep: null });
    expect(row!.deletedAt).toBeInstanceOf(Date);
    expect(row!.endedAt).toBeInstanceOf(Date);
    expect(statuses(await detail(epak.ePakId, owner))).toEqual([[`${signer.user.email.split('@')[0]}:Skipped`]]);
    expect(await actions(epak.ePakId)).toEqual(['composed', 'started', 'stopped', 'deleted']);

    // A second delete says so; any action afterwards is -46.
    expect((await inject(t.app, deleteEpaks, { body: { ePakIds: [epak.ePakId] }, as: owner })).data.results[0]!.result).toBe('ALREADY_DELETED');
    await expectRefused(epak.ePakId, owner.tenant.id, () => inject(t.app, archiveEpak, { params: { epakId: epak.ePakId }, as: owner }), 410, -46);
    await expectRefused(epak.ePakId, owner.tenant.id, () => inject(t.app, rejectEpak, { params: { ePakId: epak.ePakId }, body: { comment: 'no' }, as: signer }), 410, -46);
    await expectRefused(epak.ePakId, owner.tenant.id, () => inject(t.app, delegateEpak, { params: { ePakId: epak.ePakId }, body: { email: 'someone@else.test' }, as: signer }), 410, -46);
    await expectRefused(
      epak.ePakId,
      owner.tenant.id,
      () => inject(t.app, editEpak, { body: { ePakId: epak.ePakId, modifiedOn: row!.updatedAt.toISOString(), subject: 'x' }, as: owner }),
      410,
      -46,
    );
  });

  it("reports an ePak that is not the caller's as NOT_FOUND, whoever's it is, and deletes nothing of it", async () => {
    const owner = await person('custodian');
    const other = await person('custodian', owner.tenant);
    const epak = await sentEpak(owner, [['SIGN', [other]]]);
    const before = await everything(epak.ePakId, owner.tenant.id);
    const missing = '00000000-0000-4000-8000-00000000dead';
    const res = await inject(t.app, deleteEpaks, { body: { ePakIds: [epak.ePakId, missing] }, as: other });
    expect(res.data.results).toEqual([
      { ePakId: epak.ePakId, result: 'NOT_FOUND', status: null },
      { ePakId: missing, result: 'NOT_FOUND', status: null },
    ]);
    expect(await everything(epak.ePakId, owner.tenant.id)).toBe(before);
    expect((await inject(t.app, deleteEpaks, { body: { ePakIds: [] }, as: other })).code).toBe(-6);
    // A signer may not delete at all (epak.compose).
    const signer = await person('signer', owner.tenant);
    expect((await inject(t.app, deleteEpaks, { body: { ePakIds: [epak.ePakId] }, as: signer })).statusCode).toBe(403);
  });
});

describe('archiving', () => {
  it('archives an ePak that has ended, once (-47 after); one under way is -6; a recipient 403, a stranger 404', async () => {
    const owner = await person('custodian');
    const signer = await person('signer', owner.tenant);
    const epak = await sentEpak(owner, [['SIGN', [signer]]]);
    const archive = (who: Person) => inject(t.app, archiveEpak, { params: { epakId: epak.ePakId }, as: who });
    const underWay = await expectRefused(epak.ePakId, owner.tenant.id, () => archive(owner), 400, -6);
    expect(underWay.message).toMatch(/InProgress/);
    await expectRefused(epak.ePakId, owner.tenant.id, () => archive(signer), 403, -11);
    const stranger = await person('custodian', owner.tenant);
    await expectRefused(epak.ePakId, owner.tenant.id, () => archive(stranger), 404, -1);

    expect((await inject(t.app, rejectEpak, { params: { ePakId: epak.ePakId }, body: { comment: 'Wrong flat.' }, as: signer })).statusCode).toBe(200);
    const res = await archive(owner);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.data).toMatchObject({ ePakId: epak.ePakId, status: 'Rejected' });
    expect(await actions(epak.ePakId)).toEqual(['composed', 'started', 'rejected', 'archived']);
    await expectRefused(epak.ePakId, owner.tenant.id, () => archive(owner), 409, -47);
  });
});

describe('the notification date and the archival period', () => {
  it('lets the owner set them, records each change, and refuses a recipient (403) and bad values (-6)', async () => {
    const owner = await person('custodian');
    const signer = await person('signer', owner.tenant);
    const expiresOn = new Date(Date.now() + 10 * 24 * 3600_000).toISOString();
    const epak = await sentEpak(owner, [['SIGN', [signer]]], { expiresOn });
    const date = new Date(Date.now() + 24 * 3600_000).toISOString();
    const res = await inject(t.app, updateEpakNotificationDate, { body: { ePakId: epak.ePakId, notificationStartDate: date }, as: owner });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.data).toEqual({ ePakId: epak.ePakId, notificationStartDate: date });
    expect((await detail(epak.ePakId, owner)).notificationStartDate).toBe(date);
    await expectRefused(epak.ePakId, owner.tenant.id, () => inject(t.app, updateEpakNotificationDate, { body: { ePakId: epak.ePakId, notificationStartDate: date }, as: signer }), 403, -11);
    const late = new Date(Date.now() + 20 * 24 * 3600_000).toISOString();
    await expectRefused(epak.ePakId, owner.tenant.id, () => inject(t.app, updateEpakNotificationDate, { body: { ePakId: epak.ePakId, notificationStartDate: late }, as: owner }), 400, -6);

    const period = await inject(t.app, updateEpakArchivalPeriod, { params: { ePakId: epak.ePakId }, body: { archivalPeriodDays: 90 }, as: owner });
    expect(period.data).toEqual({ ePakId: epak.ePakId, archivalPeriodDays: 90 });
    const [row] = await t.database.db.select().from(epaks).where(eq(epaks.id, epak.ePakId));
    expect(row!.archivalPeriodDays).toBe(90);
    await expectRefused(epak.ePakId, owner.tenant.id, () => inject(t.app, updateEpakArchivalPeriod, { params: { ePakId: epak.ePakId }, body: { archivalPeriodDays: 0 }, as: owner }), 400, -6);
    await expectRefused(epak.ePakId, owner.tenant.id, () => inject(t.app, updateEpakArchivalPeriod, { params: { ePakId: epak.ePakId }, body: { archivalPeriodDays: 3651 }, as: owner }), 400, -6);
    await expectRefused(epak.ePakId, owner.tenant.id, () => inject(t.app, updateEpakArchivalPeriod, { params: { ePakId: epak.ePakId }, body: { archivalPeriodDays: 30 }, as: signer }), 403, -11);
    expect(await actions(epak.ePakId)).toEqual(['composed', 'started', 'edited', 'edited']);

    // Once rejected, notifications have nothing left to announce (-23).
    await inject(t.app, rejectEpak, { params: { ePakId: epak.ePakId }, body: { comment: 'No.' }, as: signer });
    await expectRefused(epak.ePakId, owner.tenant.id, () => inject(t.app, updateEpakNotificationDate, { body: { ePakId: epak.ePakId, notificationStartDate: null }, as: owner }), 409, -23);
  });
});

describe('delegation', () => {
  it('hands a waiting place to a colleague with the fields that were its, mails them, and records it', async () => {
    const owner = await person('custodian');
    const signer = await person('signer', owner.tenant);
    const other = await person('signer', owner.tenant);
    const agent = await person('signer', owner.tenant);
    const epak = await sentEpak(owner, [['SIGN', [signer, other]]], { tags: [...signatureFields(signer.user.email, 1), ...signatureFields(other.user.email, 1, 600)] });
    const res = await inject(t.app, delegateEpak, { params: { ePakId: epak.ePakId }, body: { email: agent.user.email.toUpperCase(), comment: 'On leave until May.' }, as: signer });
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.data;
    expect(answer).toMatchObject({ ePakId: epak.ePakId, status: 'InProgress', delegate: { userId: agent.user.id, email: agent.user.email, status: 'Pending' } });
    const rows = await t.database.db.select().from(epakRecipients).where(eq(epakRecipients.epakId, epak.ePakId)).orderBy(asc(epakRecipients.position));
    expect(rows.map((r) => [r.userId, r.status, r.delegatedFromId, r.position])).toEqual([
      [signer.user.id, 'Delegated', null, 1],
      [other.user.id, 'Pending', null, 2],
      [agent.user.id, 'Pending', answer.recipientId, 3],
    ]);
    // The signer's fields are the agent's now; the other signer's stay theirs.
    const [doc] = await t.database.db.select().from(epakDocuments).where(eq(epakDocuments.epakId, epak.ePakId));
    expect((doc!.tags as Tag[]).map((tag) => tag.userEmail)).toEqual([agent.user.email, agent.user.email, other.user.email, other.user.email]);
    const [mail] = await mails(owner.tenant.id, 'epak_delegated');
    expect(mail).toMatchObject({ recipient: agent.user.email });
    expect(mail!.body).toContain('On leave until May.');
    expect(await actions(epak.ePakId)).toEqual(['composed', 'started', 'delegated']);
    const viewer = (await detail(epak.ePakId, agent)).viewer!;
    expect([viewer.canAct, viewer.status]).toEqual([true, 'Pending']);
    expect((await detail(epak.ePakId, signer)).viewer!.canAct).toBe(false);
  });

  it('invites an unknown address as an external user who is DelegatePending until they register; refuses it when the tenant invites nobody new (-3)', async () => {
    const owner = await person('custodian');
    const signer = await person('signer', owner.tenant);
    const epak = await sentEpak(owner, [['REVIEW', [signer]]]);
    const res = await inject(t.app, delegateEpak, { params: { ePakId: epak.ePakId }, body: { email: 'Stand.In@Elsewhere.test' }, as: signer });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.data.delegate).toMatchObject({ email: 'stand.in@elsewhere.test', status: 'DelegatePending' });
    const [invited] = await t.database.db.select().from(users).where(eq(users.email, 'stand.in@elsewhere.test'));
    expect(invited).toMatchObject({ type: 'external', status: 'invitewithdelegation', passwordHash: null });

    const again = await sentEpak(owner, [['REVIEW', [signer]]]);
    await t.database.db.insert(tenantSettings).values({ tenantId: owner.tenant.id, settings: { skipNewUsers: true } });
    await expectRefused(again.ePakId, owner.tenant.id, () => inject(t.app, delegateEpak, { params: { ePakId: again.ePakId }, body: { email: 'nobody@nowhere.test' }, as: signer }), 404, -3);
  });

  it('refuses delegating to oneself or to someone of the step (-163), a place not waiting (-28), disabled (-13) and cancelled (-173) people, changing nothing', async () => {
    const owner = await person('custodian');
    const reviewer = await person('signer', owner.tenant);
    const signer = await person('signer', owner.tenant);
    const other = await person('signer', owner.tenant);
    const epak = await sentEpak(owner, [['REVIEW', [reviewer, other]], ['SIGN', [signer]]]);
    const delegate = (who: Person, email: string) => () => inject(t.app, delegateEpak, { params: { ePakId: epak.ePakId }, body: { email }, as: who });
    const self = await expectRefused(epak.ePakId, owner.tenant.id, delegate(reviewer, reviewer.user.email), 422, -163);
    expect(self.message).toMatch(/yourself/);
    const twice = await expectRefused(epak.ePakId, owner.tenant.id, delegate(reviewer, other.user.email), 422, -163);
    expect(twice.message).toMatch(/already a recipient of this step/);
    // The signer's step is not under way yet; the owner has no place to hand over.
    await expectRefused(epak.ePakId, owner.tenant.id, delegate(signer, 'agent@elsewhere.test'), 409, -28);
    await expectRefused(epak.ePakId, owner.tenant.id, delegate(owner, 'agent@elsewhere.test'), 409, -28);
    const disabled = await makeMember(t.database.db, { tenant: owner.tenant });
    await t.database.db.update(memberships).set({ status: 'disabled' }).where(eq(memberships.userId, disabled.user.id));
    await expectRefused(epak.ePakId, owner.tenant.id, delegate(reviewer, disabled.user.email), 403, -13);
    const cancelled = await makeUser(t.database.db, { status: 'cancelInvitation' });
    await expectRefused(epak.ePakId, owner.tenant.id, delegate(reviewer, cancelled.email), 403, -173);
    const wrongStep = await expectRefused(
      epak.ePakId,
      owner.tenant.id,
      () => inject(t.app, delegateEpak, { params: { ePakId: epak.ePakId }, body: { email: 'agent@elsewhere.test', workflowStateId: epak.steps[1]!.workflowStateId }, as: reviewer }),
      409,
      -28,
    );
    expect(wrongStep.message).toMatch(/step/);
    const stranger = await person('signer', owner.tenant);
    await expectRefused(epak.ePakId, owner.tenant.id, delegate(stranger, 'agent@elsewhere.test'), 404, -1);
  });

  it('lets the one who delegated, or the owner, take the place back before the delegate acts, not once the ePak has ended (-23); the delegate may not (403)', async () => {
    const owner = await person('custodian');
    const signer = await person('signer', owner.tenant);
    const agent = await person('signer', owner.tenant);
    const epak = await sentEpak(owner, [['SIGN', [signer]]], { tags: signatureFields(signer.user.email, 1) });
    const stepId = epak.steps[0]!.workflowStateId;
    const delegateTo = async () => expect((await inject(t.app, delegateEpak, { params: { ePakId: epak.ePakId }, body: { email: agent.user.email }, as: signer })).statusCode).toBe(200);
    const cancel = (email: string, who: Person) => inject(t.app, cancelDelegation, { params: { ePakId: epak.ePakId, userEmail: email, workflowStateId: stepId }, as: who });

    await delegateTo();
    await expectRefused(epak.ePakId, owner.tenant.id, () => cancel(agent.user.email, agent), 403, -11);
    const back = await cancel(agent.user.email, signer);
    expect(back.statusCode, back.body).toBe(200);
    expect(back.data).toMatchObject({ ePakId: epak.ePakId, status: 'InProgress', recipientStatus: 'Pending' });
    let rows = await t.database.db.select().from(epakRecipients).where(eq(epakRecipients.epakId, epak.ePakId));
    expect(rows.map((r) => [r.userId, r.status])).toEqual([[signer.user.id, 'Pending']]);
    const [doc] = await t.database.db.select().from(epakDocuments).where(eq(epakDocuments.epakId, epak.ePakId));
    expect((doc!.tags as Tag[]).map((tag) => tag.userEmail)).toEqual([signer.user.email, signer.user.email]);
    // The agent no longer sees it.
    expect((await inject(t.app, getEpak, { params: { ePakId: epak.ePakId }, as: agent })).statusCode).toBe(404);
    // The one who took it back is not mailed about it.
    expect(await mails(owner.tenant.id, 'epak_sign_request')).toHaveLength(1);

    // The owner takes it back too, naming the one who delegated; the signer is told.
    await delegateTo();
    const byOwner = await cancel(signer.user.email, owner);
    expect(byOwner.statusCode, byOwner.body).toBe(200);
    expect(await mails(owner.tenant.id, 'epak_sign_request')).toHaveLength(2);

    // Once the delegate has acted (here: rejected), the place stays theirs.
    await delegateTo();
    expect((await inject(t.app, rejectEpak, { params: { ePakId: epak.ePakId }, body: { comment: 'Not mine to sign.' }, as: agent })).statusCode).toBe(200);
    await expectRefused(epak.ePakId, owner.tenant.id, () => cancel(agent.user.email, signer), 409, -23);
    rows = await t.database.db.select().from(epakRecipients).where(eq(epakRecipients.epakId, epak.ePakId));
    expect(await actions(epak.ePakId)).toEqual(['composed', 'started', 'delegated', 'delegationCancelled', 'delegated', 'delegationCancelled', 'delegated', 'rejected']);
    const stranger = await person('signer', owner.tenant);
    await expectRefused(epak.ePakId, owner.tenant.id, () => cancel(agent.user.email, stranger), 404, -1);
  });

  it('refuses taking back once the delegate has acted (-28) while the ePak goes on', async () => {
    const owner = await person('custodian');
    const reviewer = await person('signer', owner.tenant);
    const colleague = await person('signer', owner.tenant);
    const agent = await person('signer', owner.tenant);
    const epak = await sentEpak(owner, [['REVIEW', [reviewer, colleague]]]);
    expect((await inject(t.app, delegateEpak, { params: { ePakId: epak.ePakId }, body: { email: agent.user.email }, as: reviewer })).statusCode).toBe(200);
    const reviewed = await inject(t.app, setEpakStatus, { body: { ePakId: epak.ePakId, status: 'Reviewed' }, as: agent });
    expect(reviewed.statusCode, reviewed.body).toBe(200);
    const refused = await expectRefused(
      epak.ePakId,
      owner.tenant.id,
      () => inject(t.app, cancelDelegation, { params: { ePakId: epak.ePakId, userEmail: agent.user.email, workflowStateId: epak.steps[0]!.workflowStateId }, as: owner }),
      409,
      -28,
    );
    expect(refused.message).toMatch(/already acted/);
  });
});

describe('reminders', () => {
  it('mails a waiting recipient of the step under way, at most once an hour; -28 for anyone not waiting; owner only', async () => {
    const owner = await person('custodian');
    const signer = await person('signer', owner.tenant);
    const later = await person('signer', owner.tenant);
    const epak = await sentEpak(owner, [['SIGN', [signer]], ['SIGN', [later]]]);
    const remind = (who: Person, state: SignerStatus, order: number, as: Person = owner) =>
      inject(t.app, remindRecipient, { params: { ePakId: epak.ePakId, userId: who.user.id, state, wfOrderId: order }, as });
    const res = await remind(signer, 'Pending', 1);
    expect(res.statusCode, res.body).toBe(200);
    const recipientId = epak.steps[0]!.recipients[0]!.recipientId;
    expect(res.data).toMatchObject({ ePakId: epak.ePakId, recipientId });
    const [row] = await t.database.db.select().from(epakRecipients).where(eq(epakRecipients.id, recipientId));
    expect(row!.lastRemindedAt?.toISOString()).toBe(res.data.remindedOn);
    const reminders = await mails(owner.tenant.id, 'epak_reminder');
    expect(reminders.map((m) => m.recipient)).toEqual([signer.user.email]);
    expect(reminders[0]!.subject).toMatch(/^Reminder/);
    expect(await actions(epak.ePakId)).toEqual(['composed', 'started', 'reminded']);

    const soon = await expectRefused(epak.ePakId, owner.tenant.id, () => remind(signer, 'Pending', 1), 400, -6);
    expect(soon.message).toMatch(/one reminder an hour/);
    // After the hour has passed, another one goes.
    await t.database.db.update(epakRecipients).set({ lastRemindedAt: new Date(Date.now() - 61 * 60_000) }).where(eq(epakRecipients.id, recipientId));
    expect((await remind(signer, 'Pending', 1)).statusCode).toBe(200);

    await expectRefused(epak.ePakId, owner.tenant.id, () => remind(later, 'Pending', 2), 409, -28);
    await expectRefused(epak.ePakId, owner.tenant.id, () => remind(signer, 'DelegatePending', 1), 409, -28);
    await expectRefused(epak.ePakId, owner.tenant.id, () => remind(later, 'Pending', 1), 404, -1);
    await expectRefused(epak.ePakId, owner.tenant.id, () => remind(signer, 'Pending', 1, signer), 403, -11);
    // Raw: 'Nonsense' is no signer status, so the contract's type refuses it; the server must too.
    const nonsense = `/msbapi/v2/epak/${epak.ePakId}/user/${signer.user.id}/state/Nonsense/wforder/1/reminder`;
    await expectRefused(epak.ePakId, owner.tenant.id, () => t.app.inject({ method: 'POST', url: nonsense, headers: owner.headers }), 400, -6);
  });
});

describe('removing a recipient (deleteSigner)', () => {
  it('removes someone who has not acted; a step under way left with nobody to wait for moves on', async () => {
    const owner = await person('custodian');
    const reviewer = await person('signer', owner.tenant);
    const a = await person('signer', owner.tenant);
    const b = await person('signer', owner.tenant);
    // Reviewers: a signer always has a signature field now (-62 at start), which holds them in place (-107 below).
    const epak = await sentEpak(owner, [['REVIEW', [reviewer]], ['REVIEW', [a, b]]]);
    const remove = (recipientId: string, who: Person = owner) => inject(t.app, removeEpakRecipient, { params: { ePakId: epak.ePakId }, body: { recipientId }, as: who });
    // From a later step: it simply waits for fewer people.
    const first = await remove(epak.steps[1]!.recipients[1]!.recipientId);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.data).toEqual({ ePakId: epak.ePakId, status: 'InProgress', currentStep: 1 });
    expect((await detail(epak.ePakId, owner)).steps[1]!.recipients.map((r) => r.userId)).toEqual([a.user.id]);
    expect((await inject(t.app, getEpak, { params: { ePakId: epak.ePakId }, as: b })).statusCode).toBe(404);
    // From the step under way: the first review is skipped and the next reviewer is asked.
    const second = await remove(epak.steps[0]!.recipients[0]!.recipientId);
    expect(second.data).toEqual({ ePakId: epak.ePakId, status: 'InProgress', currentStep: 2 });
    expect((await mails(owner.tenant.id, 'epak_review_request')).map((m) => m.recipient)).toEqual([reviewer.user.email, a.user.email]);
    expect(await actions(epak.ePakId)).toEqual(['composed', 'started', 'signerRemoved', 'signerRemoved']);

    await expectRefused(epak.ePakId, owner.tenant.id, () => remove(epak.steps[1]!.recipients[0]!.recipientId, a), 403, -11);
    await expectRefused(epak.ePakId, owner.tenant.id, () => remove('00000000-0000-4000-8000-000000000001'), 404, -1);
    // The last one out completes the ePak.
    const last = await remove(epak.steps[1]!.recipients[0]!.recipientId);
    expect(last.data).toEqual({ ePakId: epak.ePakId, status: 'Completed', currentStep: null });
  });

  it('refuses someone who has acted (-28); a signer removed takes their unsigned fields along, and the ePak can finish', async () => {
    const owner = await person('custodian');
    const reviewer = await person('signer', owner.tenant);
    const signer = await person('signer', owner.tenant, { email: 'kiran.signer@example.test', firstName: 'Kiran', lastName: 'Shah' });
    const other = await person('signer', owner.tenant, { email: 'lata.signer@example.test' });
    const epak = await sentEpak(owner, [['REVIEW', [reviewer]], ['SIGN', [signer, other]]], {
      tags: [...signatureFields('kiran.signer@example.test', 2), ...signatureFields('lata.signer@example.test', 2, 120)],
    });
    expect((await inject(t.app, setEpakStatus, { body: { ePakId: epak.ePakId, status: 'Reviewed' }, as: reviewer })).statusCode).toBe(200);
    const remove = (recipientId: string) => () => inject(t.app, removeEpakRecipient, { params: { ePakId: epak.ePakId }, body: { recipientId }, as: owner });
    await expectRefused(epak.ePakId, owner.tenant.id, remove(epak.steps[0]!.recipients[0]!.recipientId), 409, -28);
    // Before issue 21's -62 a signer could be sent with no field; now every signer has one, so
    // removing a signer removes their fields (-107 would have held every signer in place).
    const removed = await remove(epak.steps[1]!.recipients[0]!.recipientId)();
    expect(removed.statusCode, removed.body).toBe(200);
    const documentId = epak.documents[0]!.documentId;
    const left = (await inject(t.app, getSignatureBlocks, { params: { ePakId: epak.ePakId, documentId }, as: owner })).data.tags;
    expect(left.map((tag) => tag.userEmail)).toEqual(['lata.signer@example.test', 'lata.signer@example.test']);
    const [record] = await t.database.db.select().from(epakActivities).where(and(eq(epakActivities.epakId, epak.ePakId), eq(epakActivities.action, 'signerRemoved')));
    expect(record!.details).toMatchObject({ email: 'kiran.signer@example.test', fieldsRemoved: 2 });
    // The one left signs, and the ePak completes.
    const signed = await inject(t.app, signEpakDocument, { params: { ePakId: epak.ePakId, documentId }, body: { values: left.filter((tag) => tag.type === 'signature').map((tag) => ({ uuid: tag.uuid, value: 'Lata' })), reason: 'Approved' }, as: other });
    expect(signed.statusCode, signed.body).toBe(200);
    expect((await detail(epak.ePakId, owner)).status).toBe('Completed');
  });
});

describe('editing a sent ePak', () => {
  it('changes the subject, message and expiry against the version the editor loaded (-306 when it moved underneath)', async () => {
    const owner = await person('custodian');
    const signer = await person('signer', owner.tenant);
    const epak = await sentEpak(owner, [['SIGN', [signer]]]);
    const expiresOn = new Date(Date.now() + 5 * 24 * 3600_000).toISOString();
    const res = await inject(t.app, editEpak, { body: { ePakId: epak.ePakId, modifiedOn: epak.modifiedOn, subject: 'Lease of flat 3C', message: '', expiresOn }, as: owner });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.data).toMatchObject({ ePakId: epak.ePakId, subject: 'Lease of flat 3C', message: null, expiresOn });
    const after = await detail(epak.ePakId, owner);
    expect([after.subject, after.message, after.expiresOn, after.modifiedOn]).toEqual(['Lease of flat 3C', null, expiresOn, res.data.modifiedOn]);
    const [record] = await t.database.db.select().from(epakActivities).where(and(eq(epakActivities.epakId, epak.ePakId), eq(epakActivities.action, 'edited')));
    expect(record!.details).toMatchObject({ changes: { subject: { from: 'Lease of flat 3B', to: 'Lease of flat 3C' }, message: { from: 'Please sign.', to: null } } });

    // The editor still holding the first version is told it changed.
    const stale = await expectRefused(epak.ePakId, owner.tenant.id, () => inject(t.app, editEpak, { body: { ePakId: epak.ePakId, modifiedOn: epak.modifiedOn, subject: 'Mine' }, as: owner }), 409, -306);
    expect(stale.message).toMatch(/reload/);
    await expectRefused(epak.ePakId, owner.tenant.id, () => inject(t.app, editEpak, { body: { ePakId: epak.ePakId, modifiedOn: after.modifiedOn, subject: 'Mine' }, as: signer }), 403, -11);
    const past = new Date(Date.now() - 60_000).toISOString();
    await expectRefused(epak.ePakId, owner.tenant.id, () => inject(t.app, editEpak, { body: { ePakId: epak.ePakId, modifiedOn: after.modifiedOn, expiresOn: past }, as: owner }), 400, -6);
  });

  it('refuses a completed ePak (-72)', async () => {
    const owner = await person('custodian');
    const reviewer = await person('signer', owner.tenant);
    const epak = await sentEpak(owner, [['REVIEW', [reviewer]]]);
    expect((await inject(t.app, setEpakStatus, { body: { ePakId: epak.ePakId, status: 'Reviewed' }, as: reviewer })).statusCode).toBe(200);
    const done = await detail(epak.ePakId, owner);
    expect(done.status).toBe('Completed');
    await expectRefused(epak.ePakId, owner.tenant.id, () => inject(t.app, editEpak, { body: { ePakId: epak.ePakId, modifiedOn: done.modifiedOn, subject: 'Late' }, as: owner }), 409, -72);
  });
});

describe('bulk sign', () => {
  it('signs every document where nothing of the caller is left to fill, and skips the rest with the reason', async () => {
    const owner = await person('custodian');
    const signer = await person('signer', owner.tenant);
    const reviewer = await person('signer', owner.tenant);
    const ready = await sentEpak(owner, [['SIGN', [signer]]], { tags: signatureFields(signer.user.email, 1) });
    const bare = await sentEpak(owner, [['SIGN', [signer, reviewer]]]);
    const needsText = await sentEpak(owner, [['SIGN', [signer]]], {
      tags: [
        ...signatureFields(signer.user.email, 1),
        newTag({ uuid: tagUuid(), type: 'text', pageNumber: 1, positionX: 40, positionY: 300, userEmail: signer.user.email, wfsOrderId: 1, validations: { required: { value: true, message: 'Flat number' } } }),
      ],
    });
    const review = await sentEpak(owner, [['REVIEW', [signer]]]);
    const notYet = await sentEpak(owner, [['REVIEW', [reviewer]], ['SIGN', [signer]]]);
    const theirs = await sentEpak(owner, [['SIGN', [reviewer]]]);
    const ids = [ready.ePakId, bare.ePakId, needsText.ePakId, review.ePakId, notYet.ePakId, theirs.ePakId];
    const res = await inject(t.app, bulkSignEpaks, { body: { ePakIds: ids, reason: 'Approved' }, as: signer });
    expect(res.statusCode, res.body).toBe(200);
    const results = res.data.results;
    expect(results.map((r) => [r.result, r.code])).toEqual([
      ['SIGNED', null],
      ['SIGNED', null],
      ['SKIPPED', -6],
      ['SKIPPED', null],
      ['SKIPPED', -28],
      ['SKIPPED', null],
    ]);
    expect(results[2]!.reason).toMatch(/need filling in/);
    expect(results[3]!.reason).toMatch(/review/);
    expect(results[5]!.reason).toBe('No such ePak.');
    expect((await detail(ready.ePakId, owner)).status).toBe('Completed');
    // The other signer of the bare ePak has still to sign.
    expect(statuses(await detail(bare.ePakId, owner))[0]!.map((s) => s.split(':')[1])).toEqual(['Signed', 'Pending']);
    // The signature field took the signer's name, the reason the one given.
    const [doc] = await t.database.db.select().from(epakDocuments).where(eq(epakDocuments.epakId, ready.ePakId));
    expect((doc!.tags as Tag[]).map((tag) => [tag.type, tag.value, tag.status])).toEqual([
      ['signature', `${signer.user.firstName} ${signer.user.lastName}`, 'done'],
      ['reason', 'Approved', 'done'],
    ]);
    // A skipped ePak is untouched.
    const untouched = await t.database.db.select().from(epakActivities).where(inArray(epakActivities.epakId, [needsText.ePakId, review.ePakId]));
    expect(untouched.map((r) => r.action).sort()).toEqual(['composed', 'composed', 'started', 'started']);
  });

  it("lets a delegate sign in the place they were given, with the fields that were the delegator's", async () => {
    const owner = await person('custodian');
    const signer = await person('signer', owner.tenant);
    const agent = await person('signer', owner.tenant, { firstName: 'Meera', lastName: 'Nair' });
    const epak = await sentEpak(owner, [['SIGN', [signer]]], { tags: signatureFields(signer.user.email, 1) });
    expect((await inject(t.app, delegateEpak, { params: { ePakId: epak.ePakId }, body: { email: agent.user.email }, as: signer })).statusCode).toBe(200);
    // The one who delegated has nothing left to sign here.
    expect((await inject(t.app, bulkSignEpaks, { body: { ePakIds: [epak.ePakId] }, as: signer })).data.results[0]).toMatchObject({ result: 'SKIPPED', code: -28 });
    const res = await inject(t.app, bulkSignEpaks, { body: { ePakIds: [epak.ePakId], reason: 'For Asha' }, as: agent });
    expect(res.data.results[0], res.body).toMatchObject({ result: 'SIGNED' });
    const done = await detail(epak.ePakId, owner);
    expect([done.status, statuses(done)[0]!.map((s) => s.split(':')[1])]).toEqual(['Completed', ['Delegated', 'Signed']]);
    const [doc] = await t.database.db.select().from(epakDocuments).where(eq(epakDocuments.epakId, epak.ePakId));
    expect((doc!.tags as Tag[]).map((tag) => [tag.userEmail, tag.value])).toEqual([
      [agent.user.email, 'Meera Nair'],
      [agent.user.email, 'For Asha'],
    ]);
  });

  it('skips a view-enforced ePak the caller has not read', async () => {
    const owner = await person('custodian');
    const signer = await person('signer', owner.tenant);
    const doc = await upload(owner);
    const state = await stateIds(owner);
    const composed = await inject(t.app, createEpak, {
      as: owner,
      body: {
        subject: 'Read me first',
        documentIds: [doc.documentId],
        steps: [{ workflowStateId: state('SIGN'), recipients: [{ email: signer.user.email }] }],
        viewEnforced: true,
      },
    });
    const epakId = composed.data.ePakId;
    await placeSignatureFields(t, { owner, epak: composed.data });
    expect((await inject(t.app, startEpak, { params: { ePakId: epakId }, as: owner })).statusCode).toBe(200);
    const res = await inject(t.app, bulkSignEpaks, { body: { ePakIds: [epakId] }, as: signer });
    expect(res.data.results[0]).toMatchObject({ result: 'SKIPPED', reason: expect.stringMatching(/read before/) });
  });
});
