import {
  actOnEpakDocument,
  archiveEpak,
  cancelDelegation,
  delegateEpak,
  deleteEpaks,
  downloadEpakDocument,
  type EpakDetail,
  exchangeEasyToken,
  getEpak,
  getEpakActivity,
  newTag,
  rejectEpak,
  replaceEpakRecipient,
  type ReplaceRecipientBody,
  setEpakStatus,
  signEpakDocument,
  type Tag,
} from '@pakt/domain';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  epakActivities,
  epakDocumentRevisions,
  epakDocuments,
  epakInbox,
  epakInboxCounts,
  epakLinks,
  epakRecipients,
  epaks,
  memberships,
  notifications,
  outbox,
  tenantSettings,
  users,
} from '../../platform/db/schema';
import { makeMember, makeUser } from '../../test/factories';
import { inject } from '../../test/inject';
import { buildTestApp, type TestApp } from '../../test/test-app';
import { type PlacedFields, type SignedInMember, signatureValues, signedInMember, startedEpak } from '../../test/app-factories';
import { handOverTags } from './replace-recipient';
import { signDocument } from './sign';

/**
 * The owner replaces a recipient of a running ePak (issue 21): the place, its fields and the
 * request to act go to another person; the old person's links, inbox rows and access go. Every
 * refusal is checked to change nothing at all.
 */
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

let counter = 0;
/** An address no other test of the file uses. */
const address = (name: string) => `${name}-${++counter}@elsewhere.test`;

type Headers = Record<string, string>;
type Who = SignedInMember | { headers: Headers };

const db = () => t.database.db;

/** The ePak's modifiedOn as the owner's view reads it. */
const modifiedOn = async (owner: SignedInMember, ePakId: string) => (await inject(t.app, getEpak, { as: owner, params: { ePakId } })).data.modifiedOn;

const replace = (owner: Who, epak: { ePakId: string }, recipientId: string, body: ReplaceRecipientBody) =>
  inject(t.app, replaceEpakRecipient, { headers: owner.headers, params: { ePakId: epak.ePakId, recipientId }, body });

/** Signs every document of an ePak as `who`, filling the fields `email` had when the ePak was sent. */
async function signAll(who: Who, epak: EpakDetail, placed: PlacedFields, email: string, signerName = 'Signer Of Record') {
  let last;
  for (const doc of epak.documents) {
    await inject(t.app, actOnEpakDocument, { headers: who.headers, params: { epakId: epak.ePakId, documentId: doc.documentId, action: 'view' } });
    last = await inject(t.app, signEpakDocument, {
      headers: who.headers,
      params: { ePakId: epak.ePakId, documentId: doc.documentId },
      // An external signer types the name they sign under (issue 22); a member's is their profile's.
      body: { values: signatureValues(placed, doc.documentId, email), reason: 'Approved', signerName },
    });
    expect(last.statusCode, last.body).toBe(200);
  }
  return last!.data;
}

const mailsTo = async (recipient: string) => db().select().from(outbox).where(eq(outbox.recipient, recipient)).orderBy(asc(outbox.createdAt));
const linkIn = (body: string) => /\/emailsign\?token=([A-Za-z0-9_%-]+)/.exec(body)?.[1];
const linkSession = async (token: string) => {
  const exchanged = await inject(t.app, exchangeEasyToken, { params: { easytoken: decodeURIComponent(token) } });
  expect(exchanged.statusCode, exchanged.body).toBe(200);
  return { headers: { authorization: `Bearer ${exchanged.data.accessToken}` } };
};
const foldersOf = async (userId: string, ePakId: string) =>
  (await db().select({ folder: epakInbox.folder }).from(epakInbox).where(and(eq(epakInbox.userId, userId), eq(epakInbox.epakId, ePakId)))).map((row) => row.folder).sort();
const inboxCount = async (userId: string, tenantId: string) =>
  (await db().select().from(epakInboxCounts).where(and(eq(epakInboxCounts.userId, userId), eq(epakInboxCounts.tenantId, tenantId), eq(epakInboxCounts.folder, 'Inbox'))))[0]?.total ?? 0;
const tagsOf = async (ePakId: string) => (await db().select({ tags: epakDocuments.tags }).from(epakDocuments).where(eq(epakDocuments.epakId, ePakId))).flatMap((doc) => doc.tags as Tag[]);

/** Everything a replacement could change, to prove a refusal changed nothing. */
async function everything(ePakId: string, tenantId: string) {
  return JSON.stringify([
    await db().select().from(epaks).where(eq(epaks.id, ePakId)),
    await db().select().from(epakRecipients).where(eq(epakRecipients.epakId, ePakId)).orderBy(asc(epakRecipients.id)),
    await db().select().from(epakDocuments).where(eq(epakDocuments.epakId, ePakId)).orderBy(asc(epakDocuments.id)),
    await db().select().from(epakActivities).where(eq(epakActivities.epakId, ePakId)).orderBy(asc(epakActivities.seq)),
    await db().select().from(epakLinks).where(eq(epakLinks.epakId, ePakId)).orderBy(asc(epakLinks.id)),
    await db().select().from(epakInbox).where(eq(epakInbox.epakId, ePakId)).orderBy(asc(epakInbox.userId), asc(epakInbox.folder)),
    await db().select().from(outbox).where(eq(outbox.tenantId, tenantId)).orderBy(asc(outbox.id)),
    await db().select().from(notifications).where(eq(notifications.tenantId, tenantId)).orderBy(asc(notifications.id)),
    await db().select().from(users).orderBy(asc(users.id)),
  ]);
}

async function expectRefused(ePakId: string, tenantId: string, call: () => Promise<{ statusCode: number; code: number | undefined; body: string }>, status: number, code: number) {
  const before = await everything(ePakId, tenantId);
  const res = await call();
  expect([res.statusCode, res.code], res.body).toEqual([status, code]);
  expect(await everything(ePakId, tenantId)).toBe(before);
  return JSON.parse(res.body) as { message: string; issues?: { path: string; message: string }[] };
}

/** Step 1: a member and an outsider sign; step 2: another member signs. */
async function liveEpak(options: { files?: string[]; external?: string } = {}) {
  const owner = await signedInMember(t, { role: 'custodian' });
  const member = await signedInMember(t, { role: 'signer', tenant: owner.tenant });
  const later = await signedInMember(t, { role: 'signer', tenant: owner.tenant });
  const external = options.external ?? address('outside');
  const started = await startedEpak(t, {
    owner,
    ...(options.files ? { files: options.files } : {}),
    steps: [
      { type: 'SIGN', recipients: [member, external] },
      { type: 'SIGN', recipients: [later] },
    ],
  });
  const { epak } = started;
  const [memberPlace, externalPlace] = epak.steps[0]!.recipients;
  return { ...started, member, later, external, memberPlace: memberPlace!, externalPlace: externalPlace!, laterPlace: epak.steps[1]!.recipients[0]! };
}

describe("replacing an outsider of the step under way with someone new", () => {
  it('gives the place, its fields and a request to act to the new person; the old link and session stop working', async () => {
    const { owner, member, later, epak, placed, external, externalPlace, memberPlace } = await liveEpak();
    // The outsider opened their link before the owner noticed the mistyped address.
    const oldToken = linkIn((await mailsTo(external))[0]!.body)!;
    const oldSession = await linkSession(oldToken);
    const before = await modifiedOn(owner, epak.ePakId);
    const memberCountBefore = await inboxCount(member.user.id, owner.tenant.id);
    const newAddress = address('meera.shah');

    const res = await replace(owner, epak, externalPlace.recipientId, { modifiedOn: before, email: newAddress.toUpperCase(), firstName: ' Meera ', lastName: 'Shah' });
    expect(res.statusCode, res.body).toBe(200);
    const { recipient } = res.data;
    expect(res.data).toMatchObject({ ePakId: epak.ePakId, status: 'InProgress', currentStep: 1, replacedRecipientId: externalPlace.recipientId });
    expect(recipient).toMatchObject({ email: newAddress, firstName: 'Meera', lastName: 'Shah', type: 'external', status: 'Pending' });
    expect(recipient.recipientId).not.toBe(externalPlace.recipientId);
    expect(new Date(res.data.modifiedOn).getTime()).toBeGreaterThan(new Date(before).getTime());

    // The place is the new person's, at the same position of the same step.
    const detail = (await inject(t.app, getEpak, { as: owner, params: { ePakId: epak.ePakId } })).data;
    expect(detail.modifiedOn).toBe(res.data.modifiedOn);
    expect(detail.steps[0]!.recipients.map((r) => [r.recipientId, r.email, r.status])).toEqual([
      [memberPlace.recipientId, member.user.email, 'Pending'],
      [recipient.recipientId, newAddress, 'Pending'],
    ]);
    // Their fields went with the place, still in step 1.
    const tags = await tagsOf(epak.ePakId);
    expect(tags.filter((tag) => tag.userEmail === external)).toEqual([]);
    const moved = placed.flatMap((one) => one.tags).filter((tag) => tag.userEmail === external).map((tag) => tag.uuid);
    expect(moved.length).toBeGreaterThan(0);
    expect(tags.filter((tag) => moved.includes(tag.uuid)).map((tag) => [tag.userEmail, tag.wfsOrderId])).toEqual(moved.map(() => [newAddress, 1]));

    // The old link and the session it opened no longer reach the ePak.
    expect((await inject(t.app, exchangeEasyToken, { params: { easytoken: decodeURIComponent(oldToken) } })).code).toBe(-42);
    expect((await inject(t.app, getEpak, { headers: oldSession.headers, params: { ePakId: epak.ePakId } })).statusCode).toBe(404);
    const documentId = epak.documents[0]!.documentId;
    const refused = await inject(t.app, signEpakDocument, { headers: oldSession.headers, params: { ePakId: epak.ePakId, documentId }, body: { values: signatureValues(placed, documentId, external), reason: 'x' } });
    expect(refused.statusCode).toBe(404);

    // The new person is asked with a link of their own; the old one is told they are not needed.
    const asked = await mailsTo(newAddress);
    expect(asked.map((mail) => mail.kind)).toEqual(['epak_sign_request']);
    expect(asked[0]!.body).toContain('Hello Meera Shah');
    expect((await mailsTo(external)).map((mail) => mail.kind)).toEqual(['epak_sign_request', 'epak_recipient_replaced']);

    // The inbox follows: the new person has the ePak waiting, the old one nothing; the member is untouched.
    expect(await foldersOf(recipient.userId, epak.ePakId)).toEqual(['Inbox']);
    const [oldUser] = await db().select().from(users).where(eq(users.email, external));
    expect(await foldersOf(oldUser!.id, epak.ePakId)).toEqual([]);
    expect(await inboxCount(member.user.id, owner.tenant.id)).toBe(memberCountBefore);

    // One activity record, in a chain that still verifies.
    const [entry] = (await db().select().from(epakActivities).where(eq(epakActivities.epakId, epak.ePakId)).orderBy(asc(epakActivities.seq))).slice(-1);
    expect(entry).toMatchObject({
      action: 'recipientReplaced',
      actorId: owner.user.id,
      details: { recipientId: externalPlace.recipientId, email: external, step: 1, replacement: { recipientId: recipient.recipientId, email: newAddress, invited: true }, asked: true, linksRevoked: 1 },
    });
    const activity = await inject(t.app, getEpakActivity, { as: owner, params: { ePakId: epak.ePakId } });
    expect(activity.data.chainValid).toBe(true);
    expect(activity.data.entries.at(-1)!.action).toBe('recipientReplaced');

    // The new person signs through their link, and the ePak goes on to completion in their name.
    const newSession = await linkSession(linkIn(asked[0]!.body)!);
    await signAll(member, epak, placed, member.user.email);
    // The name the owner gave them is offered, and they sign under it (the ceremony sends it back).
    expect((await inject(t.app, getEpak, { headers: newSession.headers, params: { ePakId: epak.ePakId } })).data.viewer).toMatchObject({ signerName: 'Meera Shah', nameRequired: true });
    expect((await signAll(newSession, epak, placed, external, 'Meera Shah')).signerStatus).toBe('Signed');
    expect((await signAll(later, epak, placed, later.user.email)).epakStatus).toBe('Completed');
    const download = await inject(t.app, downloadEpakDocument, { as: owner, params: { ePakId: epak.ePakId, documentId } });
    expect(download.statusCode).toBe(200);
    const names = [...download.rawPayload.toString('latin1').matchAll(/\/Name <([0-9A-Fa-f]*)>/g)].map((match) => Buffer.from(match[1]!, 'hex').toString('latin1'));
    expect(names).toContain('Meera Shah');
    expect(names).toHaveLength(3);
    expect(names.join('|')).not.toContain(external.split('@')[0]!);
  });
});

describe('a signature the old recipient was sealing when they were replaced', () => {
  it('is refused when it comes to be stored (-28), and nothing of it lands on the new person\'s place', async () => {
    const { owner, member, epak, placed, memberPlace } = await liveEpak();
    const colleague = await signedInMember(t, { role: 'signer', tenant: owner.tenant });
    const documentId = epak.documents[0]!.documentId;
    await inject(t.app, actOnEpakDocument, { as: member, params: { epakId: epak.ePakId, documentId, action: 'view' } });
    let replacedId: string | null = null;
    const signing = signDocument({
      ctx: t.context,
      actor: { tenantId: owner.tenant.id, userId: member.user.id },
      epakId: epak.ePakId,
      documentId,
      body: { action: 'SIGN', values: signatureValues(placed, documentId, member.user.email), reason: 'Approved' },
      // The owner replaces the member while their signature is being sealed.
      afterBlobStored: async () => {
        const res = await replace(owner, epak, memberPlace.recipientId, { modifiedOn: await modifiedOn(owner, epak.ePakId), email: colleague.user.email });
        expect(res.statusCode, res.body).toBe(200);
        replacedId = res.data.recipient.recipientId;
      },
    });
    await expect(signing).rejects.toMatchObject({ code: -28 });
    expect(replacedId).not.toBeNull();
    expect(await db().select().from(epakDocumentRevisions).where(eq(epakDocumentRevisions.epakDocumentId, documentId))).toEqual([]);
    const [place] = await db().select().from(epakRecipients).where(eq(epakRecipients.id, replacedId!));
    expect(place).toMatchObject({ userId: colleague.user.id, status: 'Pending', actedAt: null });
  });
});

describe("replacing a member with another member of the tenant", () => {
  it('finds the colleague by address: they are asked in the app and by mail, the member is told and loses the ePak', async () => {
    const { owner, member, epak, memberPlace } = await liveEpak();
    const colleague = await signedInMember(t, { role: 'signer', tenant: owner.tenant });
    const counts = { member: await inboxCount(member.user.id, owner.tenant.id), colleague: await inboxCount(colleague.user.id, owner.tenant.id) };
    const res = await replace(owner, epak, memberPlace.recipientId, { modifiedOn: await modifiedOn(owner, epak.ePakId), email: colleague.user.email, firstName: 'Ignored', lastName: 'Name' });
    expect(res.statusCode, res.body).toBe(200);
    // A known person keeps their own name.
    expect(res.data.recipient).toMatchObject({ userId: colleague.user.id, firstName: colleague.user.firstName, type: 'internal', status: 'Pending' });

    const mail = await mailsTo(colleague.user.email);
    expect(mail.map((m) => m.kind)).toEqual(['epak_sign_request']);
    // A member opens it in the app: no signing link is made for them.
    expect(mail[0]!.body).toContain(`/sign?ePakId=${epak.ePakId}`);
    expect(await db().select().from(epakLinks).where(eq(epakLinks.recipientId, res.data.recipient.recipientId))).toEqual([]);
    const told = await db().select().from(notifications).where(and(eq(notifications.epakId, epak.ePakId), inArray(notifications.userId, [member.user.id, colleague.user.id])));
    expect(told.map((n) => [n.userId === member.user.id ? 'member' : 'colleague', n.type]).sort()).toEqual([
      ['colleague', 'signRequest'],
      ['member', 'epakReassignment'],
      // The request of the step's start.
      ['member', 'signRequest'],
    ]);

    expect(await foldersOf(member.user.id, epak.ePakId)).toEqual([]);
    expect(await foldersOf(colleague.user.id, epak.ePakId)).toEqual(['Inbox']);
    expect(await inboxCount(member.user.id, owner.tenant.id)).toBe(counts.member - 1);
    expect(await inboxCount(colleague.user.id, owner.tenant.id)).toBe(counts.colleague + 1);
    expect((await inject(t.app, getEpak, { as: member, params: { ePakId: epak.ePakId } })).statusCode).toBe(404);
    const seen = await inject(t.app, getEpak, { as: colleague, params: { ePakId: epak.ePakId } });
    expect(seen.data.viewer).toMatchObject({ canAct: true, recipientId: res.data.recipient.recipientId });
  });
});

describe('replacing someone of a step still to come', () => {
  it('asks nobody now; the new person is asked when the step comes', async () => {
    const { owner, member, epak, placed, external, later, laterPlace } = await liveEpak();
    const next = await signedInMember(t, { role: 'signer', tenant: owner.tenant });
    const res = await replace(owner, epak, laterPlace.recipientId, { modifiedOn: await modifiedOn(owner, epak.ePakId), email: next.user.email });
    expect(res.statusCode, res.body).toBe(200);
    expect(await mailsTo(next.user.email)).toEqual([]);
    expect(await mailsTo(later.user.email)).toEqual([]);
    expect(await db().select().from(notifications).where(and(eq(notifications.epakId, epak.ePakId), inArray(notifications.userId, [later.user.id, next.user.id])))).toEqual([]);
    expect(await foldersOf(next.user.id, epak.ePakId)).toEqual([]);
    expect((await db().select().from(epakActivities).where(eq(epakActivities.epakId, epak.ePakId)).orderBy(asc(epakActivities.seq))).at(-1)!.details).toMatchObject({ step: 2, asked: false });

    // Step 1 done: the ePak moves on to the new person.
    await signAll(member, epak, placed, member.user.email);
    const [link] = await mailsTo(external);
    await signAll(await linkSession(linkIn(link!.body)!), epak, placed, external);
    expect((await mailsTo(next.user.email)).map((m) => m.kind)).toEqual(['epak_sign_request']);
    expect(await foldersOf(next.user.id, epak.ePakId)).toEqual(['Inbox']);
    expect((await signAll(next, epak, placed, later.user.email)).epakStatus).toBe('Completed');
  });
});

describe("replacing a delegate", () => {
  it('keeps the place a delegation: the new delegate waits as one, and the delegation can still be taken back', async () => {
    const owner = await signedInMember(t, { role: 'custodian' });
    const reviewer = await signedInMember(t, { role: 'signer', tenant: owner.tenant });
    const { epak } = await startedEpak(t, { owner, steps: [{ type: 'REVIEW', recipients: [reviewer] }] });
    const delegated = await inject(t.app, delegateEpak, { as: reviewer, params: { ePakId: epak.ePakId }, body: { email: address('agent') } });
    expect(delegated.statusCode, delegated.body).toBe(200);
    expect(delegated.data.delegate.status).toBe('DelegatePending');

    const newAgent = address('agent');
    const res = await replace(owner, epak, delegated.data.delegate.recipientId, { modifiedOn: await modifiedOn(owner, epak.ePakId), email: newAgent });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.data.recipient).toMatchObject({ email: newAgent, status: 'DelegatePending', firstName: newAgent.split('@')[0] });
    const [place] = await db().select().from(epakRecipients).where(eq(epakRecipients.id, res.data.recipient.recipientId));
    expect(place!.delegatedFromId).toBe(delegated.data.recipientId);

    const back = await inject(t.app, cancelDelegation, { as: owner, params: { ePakId: epak.ePakId, userEmail: newAgent, workflowStateId: epak.steps[0]!.workflowStateId } });
    expect(back.statusCode, back.body).toBe(200);
    expect(back.data).toMatchObject({ recipientId: delegated.data.recipientId, recipientStatus: 'Pending' });
  });
});

describe('refusals, each changing nothing', () => {
  it('answers an outsider 404, a recipient 403 and a stale view -306', async () => {
    const { owner, member, epak, externalPlace } = await liveEpak();
    const current = await modifiedOn(owner, epak.ePakId);
    const body = { modifiedOn: current, email: address('someone') };
    const stranger = await signedInMember(t, { role: 'custodian', tenant: owner.tenant });
    const otherTenant = await signedInMember(t, { role: 'custodian' });
    await expectRefused(epak.ePakId, owner.tenant.id, () => replace(stranger, epak, externalPlace.recipientId, body), 404, -1);
    await expectRefused(epak.ePakId, owner.tenant.id, () => replace(otherTenant, epak, externalPlace.recipientId, body), 404, -1);
    await expectRefused(epak.ePakId, owner.tenant.id, () => replace(member, epak, externalPlace.recipientId, body), 403, -11);
    await expectRefused(epak.ePakId, owner.tenant.id, () => replace(owner, epak, '00000000-0000-4000-8000-000000000000', body), 404, -1);
    const stale = await expectRefused(epak.ePakId, owner.tenant.id, () => replace(owner, epak, externalPlace.recipientId, { ...body, modifiedOn: new Date(Date.parse(current) - 1000).toISOString() }), 409, -306);
    expect(stale.message).toMatch(/reload/);
  });

  it('refuses the same person twice in one step (-6), with their own address or another of the step', async () => {
    const { owner, member, epak, external, externalPlace, memberPlace } = await liveEpak();
    const current = await modifiedOn(owner, epak.ePakId);
    const twice = await expectRefused(epak.ePakId, owner.tenant.id, () => replace(owner, epak, externalPlace.recipientId, { modifiedOn: current, email: member.user.email }), 400, -6);
    expect(twice.message).toMatch(/already a recipient of this step/);
    expect(twice.issues).toEqual([{ path: 'email', message: 'already in this step' }]);
    const same = await expectRefused(epak.ePakId, owner.tenant.id, () => replace(owner, epak, externalPlace.recipientId, { modifiedOn: current, email: external }), 400, -6);
    expect(same.message).toMatch(/already holds this place/);
    // Someone of another step may be added here: they then sign twice, at two steps.
    expect((await replace(owner, epak, memberPlace.recipientId, { modifiedOn: current, email: epak.steps[1]!.recipients[0]!.email })).statusCode).toBe(200);
  });

  it('refuses someone who acted (-28), also on one document of two, and a finished step (-28)', async () => {
    const { owner, member, epak, placed, memberPlace, externalPlace, external } = await liveEpak({ files: ['plain-1p-pdftex.pdf', 'plain-1p-pdftex.pdf'] });
    const firstDoc = epak.documents[0]!.documentId;
    await inject(t.app, actOnEpakDocument, { as: member, params: { epakId: epak.ePakId, documentId: firstDoc, action: 'view' } });
    const one = await inject(t.app, signEpakDocument, { as: member, params: { ePakId: epak.ePakId, documentId: firstDoc }, body: { values: signatureValues(placed, firstDoc, member.user.email), reason: 'Approved' } });
    expect(one.statusCode, one.body).toBe(200);
    const body = async () => ({ modifiedOn: await modifiedOn(owner, epak.ePakId), email: address('someone') });
    const partly = await expectRefused(epak.ePakId, owner.tenant.id, async () => replace(owner, epak, memberPlace.recipientId, await body()), 409, -28);
    expect(partly.message).toMatch(/already signed 1 document/);

    await signAll(member, epak, placed, member.user.email);
    const acted = await expectRefused(epak.ePakId, owner.tenant.id, async () => replace(owner, epak, memberPlace.recipientId, await body()), 409, -28);
    expect(acted.message).toMatch(/already acted \(Signed\)/);
    const [link] = await mailsTo(external);
    await signAll(await linkSession(linkIn(link!.body)!), epak, placed, external);
    // Step 1 is finished; step 2 is under way.
    await expectRefused(epak.ePakId, owner.tenant.id, async () => replace(owner, epak, externalPlace.recipientId, await body()), 409, -28);
  });

  it('refuses an ePak that ended (-72 completed, -23 rejected, -6 stopped), was deleted (-46) or archived (-47)', async () => {
    const owner = await signedInMember(t, { role: 'custodian' });
    const signer = await signedInMember(t, { role: 'signer', tenant: owner.tenant });
    const waiting = await signedInMember(t, { role: 'signer', tenant: owner.tenant });
    const make = () => startedEpak(t, { owner, steps: [{ type: 'SIGN', recipients: [signer, waiting] }] });
    const tryOn = (epak: EpakDetail) => async () =>
      replace(owner, epak, epak.steps[0]!.recipients[1]!.recipientId, { modifiedOn: await modifiedOn(owner, epak.ePakId), email: address('someone') });

    const completed = await startedEpak(t, { owner, steps: [{ type: 'SIGN', recipients: [signer] }, { type: 'SIGN', recipients: [waiting] }] });
    await signAll(signer, completed.epak, completed.placed, signer.user.email);
    await signAll(waiting, completed.epak, completed.placed, waiting.user.email);
    await expectRefused(completed.epak.ePakId, owner.tenant.id, async () => replace(owner, completed.epak, completed.epak.steps[1]!.recipients[0]!.recipientId, { modifiedOn: await modifiedOn(owner, completed.epak.ePakId), email: address('someone') }), 409, -72);

    const rejected = (await make()).epak;
    expect((await inject(t.app, rejectEpak, { as: signer, params: { ePakId: rejected.ePakId }, body: { comment: 'Wrong flat' } })).statusCode).toBe(200);
    await expectRefused(rejected.ePakId, owner.tenant.id, tryOn(rejected), 409, -23);

    const stopped = (await make()).epak;
    expect((await inject(t.app, setEpakStatus, { as: owner, body: { ePakId: stopped.ePakId, status: 'Stopped', comment: 'Wrong tenant' } })).statusCode).toBe(200);
    await expectRefused(stopped.ePakId, owner.tenant.id, tryOn(stopped), 400, -6);
    expect((await inject(t.app, archiveEpak, { as: owner, params: { epakId: stopped.ePakId } })).statusCode).toBe(200);
    await expectRefused(stopped.ePakId, owner.tenant.id, tryOn(stopped), 409, -47);

    const deleted = (await make()).epak;
    expect((await inject(t.app, deleteEpaks, { as: owner, body: { ePakIds: [deleted.ePakId] } })).data.results[0]!.result).toBe('DELETED');
    await expectRefused(deleted.ePakId, owner.tenant.id, tryOn(deleted), 410, -46);
  });

  it('refuses people compose would refuse: disabled (-13), a cancelled invitation (-173), a new address when nobody new is invited (-3)', async () => {
    const { owner, epak, externalPlace } = await liveEpak();
    const to = async (email: string) => () => modifiedOn(owner, epak.ePakId).then((current) => replace(owner, epak, externalPlace.recipientId, { modifiedOn: current, email }));
    const disabled = await makeMember(db(), { tenant: owner.tenant });
    await db().update(memberships).set({ status: 'disabled' }).where(eq(memberships.userId, disabled.user.id));
    await expectRefused(epak.ePakId, owner.tenant.id, await to(disabled.user.email), 403, -13);
    const cancelled = await makeUser(db(), { status: 'cancelInvitation' });
    await expectRefused(epak.ePakId, owner.tenant.id, await to(cancelled.email), 403, -173);
    await db().insert(tenantSettings).values({ tenantId: owner.tenant.id, settings: { skipNewUsers: true } });
    await expectRefused(epak.ePakId, owner.tenant.id, await to(address('nobody')), 404, -3);
  });
});

describe('handOverTags', () => {
  const at = (y: number, who: Partial<Tag>) => newTag({ uuid: `00000000-0000-4000-8000-00000000000${y}`, type: 'signature', pageNumber: 1, positionX: 10, positionY: y * 40, ...who });
  const from = { email: 'old@example.test', userId: '11111111-1111-4111-8111-111111111111' };
  const to = { email: 'new@example.test', userId: '22222222-2222-4222-8222-222222222222' };

  it("moves the place's fields to the new person in that step, and pins the new person's step-less fields to their own step", () => {
    const tags = [at(1, { userEmail: from.email, wfsOrderId: 1, userUuid: from.userId }), at(2, { userEmail: to.email }), at(3, { userEmail: from.email, wfsOrderId: 2 })];
    const result = handOverTags(tags, { from, to, order: 1, fromOnlyPlace: false, toOrder: 2 });
    expect(result.moved).toBe(1);
    expect(result.tags.map((tag) => [tag.userEmail, tag.wfsOrderId, tag.userUuid])).toEqual([
      [to.email, 1, to.userId],
      // Theirs at step 2; without the pin it would be theirs to fill at step 1 too.
      [to.email, 2, undefined],
      [from.email, 2, undefined],
    ]);
  });

  it('moves a step-less field of the only place of the old person, and leaves an ambiguous one of the new person alone', () => {
    const result = handOverTags([at(1, { userEmail: from.email }), at(2, { userEmail: to.email })], { from, to, order: 1, fromOnlyPlace: true, toOrder: null });
    expect(result.tags.map((tag) => [tag.userEmail, tag.wfsOrderId])).toEqual([
      [to.email, 1],
      [to.email, undefined],
    ]);
  });
});
