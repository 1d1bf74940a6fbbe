import fs from 'node:fs';
import path from 'node:path';
import {
  createEpak,
  createSignatureBlocks,
  DocumentSummary,
  downloadEpakDocument,
  EpakDetail,
  getEpak,
  getSignatureBlocks,
  listWorkflowStates,
  newTag,
  rejectEpak,
  searchDirectory,
  startEpak,
  type Tag,
  tagRect,
  tenantConfiguration,
  toBlockBounds,
  type TokenGrant,
  updateSignatureBlocks,
  uploadDocument,
  type WorkflowStateDefinition,
} from '@pakt/domain';
import { count, eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { epakActivities, epaks, memberships, tenantSettings, users } from '../../platform/db/schema';
import { GOOD_PASSWORD, makeMember, makeUser } from '../../test/factories';
import { bearer, signIn } from '../../test/sign-in';
import { buildTestApp, type TestApp } from '../../test/test-app';
import { CORPUS, corpusPdf } from '../../test/corpus';
import { inject } from '../../test/inject';
import { signatureFieldsFor } from '../../test/app-factories';

let t: TestApp;
afterEach(() => t.close());

async function custodian(tenant?: { id: string }) {
  const made = await makeMember(t.database.db, { role: 'custodian', ...(tenant ? { tenant } : {}) });
  const grant: TokenGrant = await signIn(t.app, made.user.email, GOOD_PASSWORD);
  return { ...made, headers: { ...bearer(grant), 'x-tenant-id': made.tenant.id } };
}

async function upload(headers: Record<string, string>, name: string) {
  const res = await inject(t.app, uploadDocument, { headers, file: { bytes: corpusPdf(name), name } });
  return DocumentSummary.parse(res.data);
}

async function states(headers: Record<string, string>) {
  const res = await inject(t.app, listWorkflowStates, { headers });
  const list = res.json().data.states as WorkflowStateDefinition[];
  return (type: string) => list.find((s) => s.type === type)!.workflowStateId;
}

/** Two documents (rotated pages, mixed sizes), a review then two signers, one of them new. */
async function draft() {
  const owner = await custodian();
  const reviewer = await makeMember(t.database.db, { role: 'custodian', tenant: owner.tenant });
  const signer = await makeUser(t.database.db, { email: 'asha.signer@example.test' });
  const rotated = await upload(owner.headers, 'rotate-0-90-180-270-arabic.pdf');
  const mixed = await upload(owner.headers, 'mixed-sizes-openoffice.pdf');
  const state = await states(owner.headers);
  const body = {
    subject: 'Sale deed, plot 14',
    message: 'Please review and sign.',
    documentIds: [rotated.documentId, mixed.documentId],
    steps: [
      { workflowStateId: state('REVIEW'), recipients: [{ email: reviewer.user.email }] },
      { workflowStateId: state('SIGN'), recipients: [{ email: signer.email }, { email: 'New.Person@Elsewhere.test' }] },
    ],
  };
  const res = await inject(t.app, createEpak, { headers: owner.headers, body: body });
  expect(res.statusCode, res.body).toBe(200);
  return { owner, body, state, epak: EpakDetail.parse(res.json().data) };
}

/** The path parameters of one document's signatureblocks. */
const blocksOf = (epak: EpakDetail, documentIndex: number) => ({ ePakId: epak.ePakId, documentId: epak.documents[documentIndex]!.documentId });

/** Pages 1 to 3 of rotate-0-90-180-270-arabic.pdf are turned 90, 180 and 270 degrees. */
const TURNED: Record<number, 0 | 90 | 180 | 270> = { 1: 90, 2: 180, 3: 270 };

/** A new tag of its type's size as shown; `rotate` is its page's, where the page-frame sides swap. */
const tag = (uuid: string, type: Tag['type'], pageNumber: number, x: number, y: number, userEmail?: string, rotate: 0 | 90 | 180 | 270 = 0) =>
  newTag({ uuid, type, pageNumber, positionX: x, positionY: y, ...(userEmail ? { userEmail } : {}) }, { rotate });

describe('composing an ePak', () => {
  it('keeps a draft with its own copy of the documents and resolves every recipient', async () => {
    t = await buildTestApp();
    const { epak } = await draft();
    expect(epak).toMatchObject({ subject: 'Sale deed, plot 14', status: 'Draft', signingPolicy: 'ESIGNATURE', signerCount: 2 });
    expect(epak.documents.map((d) => [d.name, d.pageCount, d.pages.map((p) => p.rotate)])).toEqual([
      ['rotate-0-90-180-270-arabic.pdf', 4, [90, 180, 270, 0]],
      ['mixed-sizes-openoffice.pdf', 3, [0, 0, 0]],
    ]);
    expect(epak.steps.map((s) => [s.order, s.type, s.recipients.map((r) => [r.email, r.type])])).toEqual([
      [1, 'REVIEW', [[expect.stringContaining('@example.test'), 'internal']]],
      [
        2,
        'SIGN',
        [
          ['asha.signer@example.test', 'internal'],
          ['new.person@elsewhere.test', 'external'],
        ],
      ],
    ]);
    const [invited] = await t.database.db.select().from(users).where(eq(users.email, 'new.person@elsewhere.test'));
    expect(invited).toMatchObject({ type: 'external', status: 'admininvited', passwordHash: null });
  });

  it('refuses a disabled recipient (-13), a cancelled invitation (-173), someone named twice, and storing nothing', async () => {
    t = await buildTestApp();
    const owner = await custodian();
    const doc = await upload(owner.headers, 'plain-1p-pdftex.pdf');
    const state = await states(owner.headers);
    const disabled = await makeMember(t.database.db, { tenant: owner.tenant });
    await t.database.db.update(memberships).set({ status: 'disabled' }).where(eq(memberships.userId, disabled.user.id));
    const cancelled = await makeUser(t.database.db, { status: 'cancelInvitation' });
    const compose = (email: string, also?: string) =>
      inject(t.app, createEpak, { headers: owner.headers, body: {
          subject: 'x',
          documentIds: [doc.documentId],
          steps: [{ workflowStateId: state('SIGN'), recipients: [{ email }, ...(also ? [{ email: also }] : [])] }],
        } });
    expect((await compose(disabled.user.email)).json()).toMatchObject({ code: -13, data: { email: disabled.user.email } });
    expect((await compose(cancelled.email)).json().code).toBe(-173);
    const twice = await compose('a@b.test', 'A@B.test');
    expect(twice.json()).toMatchObject({ code: -6, issues: [{ path: 'steps.0.recipients.1', message: 'already present' }] });
    expect((await t.database.db.select({ n: count() }).from(epaks))[0]!.n).toBe(0);

    await t.database.db.insert(tenantSettings).values({ tenantId: owner.tenant.id, settings: { skipNewUsers: true } });
    expect((await compose('stranger@nowhere.test')).json().code).toBe(-3);
    expect(await t.database.db.select().from(users).where(eq(users.email, 'stranger@nowhere.test'))).toEqual([]);
  });

  it('refuses recipients the tenant filters out (invalid filter) at their place, storing nothing, and suggests none of them', async () => {
    t = await buildTestApp();
    const owner = await custodian();
    const doc = await upload(owner.headers, 'plain-1p-pdftex.pdf');
    const state = await states(owner.headers);
    const colleague = await makeMember(t.database.db, { tenant: owner.tenant, role: 'custodian', user: { email: 'ravi@acme.test', firstName: 'Ravi', lastName: 'Iyer' } });
    const unverified = await makeMember(t.database.db, { tenant: owner.tenant, user: { email: 'rahul@acme.test', firstName: 'Rahul', lastName: 'Das' } });
    await t.database.db.update(users).set({ emailVerifiedAt: null }).where(eq(users.id, unverified.user.id));
    const compose = (...emails: string[]) =>
      inject(t.app, createEpak, { headers: owner.headers, body: { subject: 'x', documentIds: [doc.documentId], steps: [{ workflowStateId: state('SIGN'), recipients: emails.map((email) => ({ email })) }] } });
    await t.database.db.insert(tenantSettings).values({ tenantId: owner.tenant.id, settings: { recipientDomains: ['acme.test'], recipientsVerifiedOnly: true } });

    const refused = await compose(colleague.user.email, 'someone@elsewhere.test', unverified.user.email, 'new@acme.test');
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({
      code: -6,
      issues: [
        { path: 'steps.0.recipients.1', message: 'invalid filter: domain' },
        { path: 'steps.0.recipients.2', message: 'invalid filter: verified' },
        // Someone new would be invited unverified.
        { path: 'steps.0.recipients.3', message: 'invalid filter: verified' },
      ],
    });
    expect((await t.database.db.select({ n: count() }).from(epaks))[0]!.n).toBe(0);
    expect(await t.database.db.select().from(users).where(eq(users.email, 'new@acme.test'))).toEqual([]);
    expect((await compose(colleague.user.email)).statusCode).toBe(200);

    const suggested = async (q: string) =>
      (await inject(t.app, searchDirectory, { query: { q }, headers: owner.headers })).data.users.map((u) => u.email);
    expect(await suggested('ra')).toEqual(['ravi@acme.test']);

    // A role filter: only custodians may receive ePaks here.
    await t.database.db.update(tenantSettings).set({ settings: { recipientRoles: ['custodian'] } }).where(eq(tenantSettings.tenantId, owner.tenant.id));
    expect((await compose(colleague.user.email, unverified.user.email)).json().issues).toEqual([{ path: 'steps.0.recipients.1', message: 'invalid filter: role' }]);
    expect(await suggested('ra')).toContain('ravi@acme.test');
    expect(await suggested('ra')).not.toContain('rahul@acme.test');
  });

  it("applies the tenant's view-enforce option: a hidden choice is the tenant's, a shown one starts at its default", async () => {
    t = await buildTestApp();
    const owner = await custodian();
    const doc = await upload(owner.headers, 'plain-1p-pdftex.pdf');
    const state = await states(owner.headers);
    const compose = async (viewEnforced?: boolean) => {
      const res = await inject(t.app, createEpak, { headers: owner.headers, body: { subject: 'x', documentIds: [doc.documentId], steps: [{ workflowStateId: state('SIGN'), recipients: [{ email: 'a@b.test' }] }], ...(viewEnforced === undefined ? {} : { viewEnforced }) } });
      return EpakDetail.parse(res.json().data).viewEnforced;
    };
    const configured = async () => (await inject(t.app, tenantConfiguration, { headers: owner.headers })).json().data.viewEnforceOption;
    expect(await configured()).toBe('ShowWithDefaultOff');
    expect([await compose(), await compose(true)]).toEqual([false, true]);
    await t.database.db.insert(tenantSettings).values({ tenantId: owner.tenant.id, settings: { viewEnforceOption: 'HideWithDefaultOn' } });
    expect(await configured()).toBe('HideWithDefaultOn');
    expect([await compose(), await compose(false)]).toEqual([true, true]);
    await t.database.db.update(tenantSettings).set({ settings: { viewEnforceOption: 'ShowWithDefaultOn' } }).where(eq(tenantSettings.tenantId, owner.tenant.id));
    expect([await compose(), await compose(false)]).toEqual([true, false]);
  });

  it('uses only the caller\u2019s documents, and shows the ePak to nobody else', async () => {
    t = await buildTestApp();
    const { owner, body, epak } = await draft();
    const colleague = await custodian(owner.tenant);
    const theirs = await inject(t.app, createEpak, { headers: colleague.headers, body: body });
    expect(theirs.statusCode).toBe(404);
    expect((await inject(t.app, getEpak, { params: { ePakId: epak.ePakId }, headers: colleague.headers })).statusCode).toBe(404);
    expect((await inject(t.app, getEpak, { params: { ePakId: epak.ePakId }, headers: owner.headers })).json().data.ePakId).toBe(epak.ePakId);
  });
});

describe('placing tags (signatureblocks)', () => {
  it('keeps every tag where it was placed, on rotated pages and pages of other sizes', async () => {
    t = await buildTestApp();
    const { owner, epak } = await draft();
    const [buyer, newcomer] = epak.steps[1]!.recipients;
    const placed = [
      tag('11111111-1111-4111-8111-111111111111', 'signature', 2, 40.5, 600.25, buyer!.email),
      tag('22222222-2222-4222-8222-222222222222', 'timeStamp', 2, 40.5, 660, buyer!.email),
      tag('33333333-3333-4333-8333-333333333333', 'signature', 3, 300, 100, newcomer!.email, TURNED[3]),
      tag('44444444-4444-4444-8444-444444444444', 'reason', 3, 360, 100, newcomer!.email, TURNED[3]),
      tag('55555555-5555-4555-8555-555555555555', 'reason', 2, 40.5, 700, buyer!.email),
    ];
    // Ratios a client sends are not trusted: the server works them out from the position.
    const crafted = [{ ...placed[0]!, blockBounds: { top: 0.9, left: 0.9, heightRatio: 0.5, widthRatio: 0.5 } }, ...placed.slice(1)];
    const saved = await inject(t.app, createSignatureBlocks, { params: blocksOf(epak, 0), body: { tags: crafted }, headers: owner.headers });
    expect(saved.statusCode, saved.body).toBe(200);
    const read = await inject(t.app, getSignatureBlocks, { params: blocksOf(epak, 0), headers: owner.headers });
    const tags = read.data.tags;
    expect(tags[0]!.blockBounds).toEqual(toBlockBounds(tagRect(placed[0]!), epak.documents[0]!.pages[1]!));
    expect(tags.map((x) => [x.uuid, x.pageNumber, x.positionX, x.positionY, x.blockWidth, x.blockHeight])).toEqual(
      placed.map((x) => [x.uuid, x.pageNumber, x.positionX, x.positionY, x.blockWidth, x.blockHeight]),
    );
    // The other document is untouched, and a second save replaces the first.
    expect((await inject(t.app, getSignatureBlocks, { params: blocksOf(epak, 1), headers: owner.headers })).data.tags).toEqual([]);
    const again = await inject(t.app, updateSignatureBlocks, { params: blocksOf(epak, 0), body: { tags: placed.slice(2) }, headers: owner.headers });
    expect(again.data.tags).toHaveLength(3);
  });

  it('re-checks the placement rules: overlapping signatures, a tag off its page, someone not in the ePak', async () => {
    t = await buildTestApp();
    const { owner, epak } = await draft();
    const email = epak.steps[1]!.recipients[0]!.email;
    const overlapping = [
      tag('11111111-1111-4111-8111-111111111111', 'signature', 1, 100, 100, email),
      tag('22222222-2222-4222-8222-222222222222', 'signature', 1, 120, 110, epak.steps[1]!.recipients[1]!.email),
    ];
    const overlap = await inject(t.app, createSignatureBlocks, { params: blocksOf(epak, 1), body: { tags: overlapping }, headers: owner.headers });
    expect(overlap.statusCode).toBe(400);
    expect(overlap.json().issues).toEqual(
      expect.arrayContaining([{ path: 'tags.11111111-1111-4111-8111-111111111111', message: 'tagOverlappingError' }]),
    );
    // Page 2 of mixed-sizes is 649 x 323 pt: 300 pt down is past its bottom for a 50 pt tag.
    const off = await inject(t.app, createSignatureBlocks, {
      params: blocksOf(epak, 1),
      body: { tags: [tag('33333333-3333-4333-8333-333333333333', 'signature', 2, 10, 300, email)] },
      headers: owner.headers,
    });
    expect(off.json().issues).toEqual(expect.arrayContaining([{ path: 'tags.33333333-3333-4333-8333-333333333333', message: 'tagOutsidePage' }]));
    const stranger = await inject(t.app, createSignatureBlocks, {
      params: blocksOf(epak, 1),
      body: { tags: [tag('44444444-4444-4444-8444-444444444444', 'signature', 1, 10, 10, 'someone@else.test')] },
      headers: owner.headers,
    });
    expect(stranger.json().issues).toEqual([{ path: 'tags.44444444-4444-4444-8444-444444444444.userEmail', message: 'not a recipient of this ePak' }]);
    expect((await inject(t.app, getSignatureBlocks, { params: blocksOf(epak, 1), headers: owner.headers })).data.tags).toEqual([]);
  });
});

describe('tags carrying images', () => {
  it('takes a layout past the 1 MB default body limit (images travel inline as data URLs)', async () => {
    t = await buildTestApp();
    const { owner, epak } = await draft();
    const picture = `data:image/png;base64,${Buffer.alloc(450 * 1024, 7).toString('base64')}`;
    const placed = [
      { ...tag('11111111-1111-4111-8111-111111111111', 'image', 1, 20, 20), value: picture },
      { ...tag('22222222-2222-4222-8222-222222222222', 'image', 1, 20, 200), value: picture },
    ];
    const res = await inject(t.app, updateSignatureBlocks, { params: blocksOf(epak, 0), body: { tags: placed }, headers: owner.headers });
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    expect(JSON.stringify(placed).length).toBeGreaterThan(1024 * 1024);
  });
});

describe('the document as the editor shows it', () => {
  it('answers the ePak copy byte for byte, to its owner only', async () => {
    t = await buildTestApp();
    const { owner, epak } = await draft();
    const res = await inject(t.app, downloadEpakDocument, { params: blocksOf(epak, 1), headers: owner.headers });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.rawPayload.equals(fs.readFileSync(path.join(CORPUS, 'mixed-sizes-openoffice.pdf')))).toBe(true);
    const colleague = await custodian(owner.tenant);
    expect((await inject(t.app, downloadEpakDocument, { params: blocksOf(epak, 1), headers: colleague.headers })).statusCode).toBe(404);
  });
});

describe('starting an ePak', () => {
  const start = (epak: EpakDetail, headers: Record<string, string>) => inject(t.app, startEpak, { params: { ePakId: epak.ePakId }, headers });
  const activity = async (epakId: string) =>
    (await t.database.db.select().from(epakActivities).where(eq(epakActivities.epakId, epakId)).orderBy(epakActivities.seq)).map((row) => row.action);

  it('sends a draft whose signature fields are for exactly its signers, once', async () => {
    t = await buildTestApp();
    const { owner, epak } = await draft();
    const [buyer, newcomer] = epak.steps[1]!.recipients;
    const placed = [
      tag('11111111-1111-4111-8111-111111111111', 'signature', 2, 40, 600, buyer!.email),
      tag('22222222-2222-4222-8222-222222222222', 'reason', 2, 40, 700, buyer!.email),
      tag('33333333-3333-4333-8333-333333333333', 'signature', 3, 300, 100, newcomer!.email, TURNED[3]),
      tag('44444444-4444-4444-8444-444444444444', 'reasonFreeText', 3, 360, 100, newcomer!.email, TURNED[3]),
    ];
    expect((await inject(t.app, updateSignatureBlocks, { params: blocksOf(epak, 0), body: { tags: placed }, headers: owner.headers })).statusCode).toBe(200);
    const res = await start(epak, owner.headers);
    expect(res.statusCode, res.body).toBe(200);
    const sent = EpakDetail.parse(res.json().data);
    // The engine puts the ePak at its first step, the review, with everyone waiting.
    expect([sent.status, sent.currentStep]).toEqual(['InProgress', 1]);
    expect(sent.steps.flatMap((step) => step.recipients.map((r) => r.status))).toEqual(['Pending', 'Pending', 'Pending']);
    expect(await activity(epak.ePakId)).toEqual(['composed', 'started']);
    // A started ePak is not started again, and its tags are no longer placed through signatureblocks.
    const again = await start(epak, owner.headers);
    expect(again.statusCode).toBe(400);
    expect((await inject(t.app, updateSignatureBlocks, { params: blocksOf(epak, 0), body: { tags: [] }, headers: owner.headers })).statusCode).toBe(400);
    expect(await activity(epak.ePakId)).toEqual(['composed', 'started']);
  });

  it('runs EMAIL steps at once: a workflow that only mails is completed when started', async () => {
    t = await buildTestApp();
    const owner = await custodian();
    const doc = await upload(owner.headers, 'plain-1p-pdftex.pdf');
    const state = await states(owner.headers);
    const composed = await inject(t.app, createEpak, { headers: owner.headers, body: { subject: 'For the record', documentIds: [doc.documentId], steps: [{ workflowStateId: state('EMAIL'), recipients: [{ email: 'archive@acme.test' }] }] } });
    const epak = EpakDetail.parse(composed.json().data);
    const res = await start(epak, owner.headers);
    const sent = EpakDetail.parse(res.json().data);
    expect([sent.status, sent.currentStep, sent.steps[0]!.recipients[0]!.status]).toEqual(['Completed', null, 'Emailed']);
    const [started] = await t.database.db.select().from(epakActivities).where(eq(epakActivities.action, 'started'));
    expect((started!.details as { effects: unknown[] }).effects).toEqual([
      { type: 'mailDocuments', order: 1, recipientIds: [sent.steps[0]!.recipients[0]!.recipientId] },
      { type: 'completed' },
    ]);
  });

  it('refuses -62 for a draft without signature fields, naming its signers, and stays a draft', async () => {
    t = await buildTestApp();
    const { owner, epak } = await draft();
    const res = await start(epak, owner.headers);
    expect(res.statusCode).toBe(422);
    expect(res.json().code).toBe(-62);
    expect(res.json().message).toContain('Asha Rao (asha.signer@example.test)');
    expect(res.json().data.withoutSignatureField).toEqual(['asha.signer@example.test', 'new.person@elsewhere.test']);
    const [row] = await t.database.db.select().from(epaks).where(eq(epaks.id, epak.ePakId));
    expect([row!.status, row!.startedAt]).toEqual(['Draft', null]);
    expect(await activity(epak.ePakId)).toEqual(['composed']);
  });

  it('refuses -62 when the signature fields are for fewer signers than the workflow has, naming the one without, and stays a draft', async () => {
    t = await buildTestApp();
    const { owner, epak } = await draft();
    const [buyer, newcomer] = epak.steps[1]!.recipients;
    const placed = [
      tag('11111111-1111-4111-8111-111111111111', 'signature', 2, 40, 600, buyer!.email),
      tag('22222222-2222-4222-8222-222222222222', 'reason', 2, 40, 700, buyer!.email),
    ];
    await inject(t.app, updateSignatureBlocks, { params: blocksOf(epak, 0), body: { tags: placed }, headers: owner.headers });
    const res = await start(epak, owner.headers);
    expect(res.statusCode).toBe(422);
    expect(res.json().code).toBe(-62);
    expect(res.json().data).toMatchObject({ withoutSignatureField: [newcomer!.email] });
    const [row] = await t.database.db.select().from(epaks).where(eq(epaks.id, epak.ePakId));
    expect(row!.status).toBe('Draft');
    expect(row!.startedAt).toBeNull();
    expect(await activity(epak.ePakId)).toEqual(['composed']);
  });

  it('refuses -107 for a signature field that is nobody\u2019s', async () => {
    t = await buildTestApp();
    const { owner, epak } = await draft();
    const [buyer, newcomer] = epak.steps[1]!.recipients;
    const placed = [
      tag('11111111-1111-4111-8111-111111111111', 'signature', 2, 40, 600, buyer!.email),
      tag('22222222-2222-4222-8222-222222222222', 'reason', 2, 40, 700, buyer!.email),
      tag('33333333-3333-4333-8333-333333333333', 'signature', 3, 300, 100, newcomer!.email, TURNED[3]),
      tag('44444444-4444-4444-8444-444444444444', 'reason', 3, 360, 100, newcomer!.email, TURNED[3]),
      tag('55555555-5555-4555-8555-555555555555', 'signature', 1, 300, 300, undefined, TURNED[1]),
      tag('66666666-6666-4666-8666-666666666666', 'reason', 1, 360, 300, undefined, TURNED[1]),
    ];
    expect((await inject(t.app, updateSignatureBlocks, { params: blocksOf(epak, 0), body: { tags: placed }, headers: owner.headers })).statusCode).toBe(200);
    const res = await start(epak, owner.headers);
    expect(res.json().code).toBe(-107);
    expect(res.json().data.unassignedFields).toEqual(['55555555-5555-4555-8555-555555555555']);
  });

  it('refuses -49 at start when a signer has no reason field (a draft may be saved without one)', async () => {
    t = await buildTestApp();
    const { owner, epak } = await draft();
    const [buyer, newcomer] = epak.steps[1]!.recipients;
    const placed = [
      tag('11111111-1111-4111-8111-111111111111', 'signature', 2, 40, 600, buyer!.email),
      tag('33333333-3333-4333-8333-333333333333', 'signature', 3, 300, 100, newcomer!.email, TURNED[3]),
      tag('44444444-4444-4444-8444-444444444444', 'reason', 3, 360, 100, newcomer!.email, TURNED[3]),
    ];
    const saved = await inject(t.app, updateSignatureBlocks, { params: blocksOf(epak, 0), body: { tags: placed }, headers: owner.headers });
    expect(saved.statusCode, saved.body).toBe(200);
    const res = await start(epak, owner.headers);
    expect(res.statusCode).toBe(422);
    expect(res.json().code).toBe(-49);
    expect(res.json().issues).toEqual([{ path: 'tags.11111111-1111-4111-8111-111111111111', message: 'reasonTagNotSelected' }]);
  });
});

describe('rejecting an ePak', () => {
  it('lets the recipient of the step under way end it with a comment; afterwards -23, and nobody else is asked', async () => {
    t = await buildTestApp();
    const owner = await custodian();
    const reviewer = await makeMember(t.database.db, { role: 'signer', tenant: owner.tenant });
    const signer = await makeMember(t.database.db, { role: 'signer', tenant: owner.tenant });
    const doc = await upload(owner.headers, 'plain-1p-pdftex.pdf');
    const state = await states(owner.headers);
    const composed = await inject(t.app, createEpak, { headers: owner.headers, body: {
        subject: 'Lease',
        documentIds: [doc.documentId],
        steps: [
          { workflowStateId: state('REVIEW'), recipients: [{ email: reviewer.user.email }] },
          { workflowStateId: state('SIGN'), recipients: [{ email: signer.user.email }] },
        ],
      } });
    const epak = EpakDetail.parse(composed.json().data);
    const headersOf = async (user: { email: string }) => ({ ...bearer(await signIn(t.app, user.email, GOOD_PASSWORD)), 'x-tenant-id': owner.tenant.id });
    const rejectAs = async (headers: Record<string, string>, comment = 'The rent is wrong.') =>
      inject(t.app, rejectEpak, { params: { ePakId: epak.ePakId }, headers, body: { comment } });
    const signerHeaders = await headersOf(signer.user);
    const reviewerHeaders = await headersOf(reviewer.user);

    // A draft is its owner's alone: its recipients learn of it when it is sent.
    expect((await rejectAs(reviewerHeaders)).statusCode).toBe(404);
    for (const { documentId, tags } of signatureFieldsFor(epak)) {
      expect((await inject(t.app, createSignatureBlocks, { params: { ePakId: epak.ePakId, documentId }, body: { tags }, headers: owner.headers })).statusCode).toBe(200);
    }
    expect((await inject(t.app, startEpak, { params: { ePakId: epak.ePakId }, headers: owner.headers })).statusCode).toBe(200);
    // The signer's step is not under way yet.
    expect((await rejectAs(signerHeaders)).json().code).toBe(-28);
    // A colleague who is not in the ePak does not learn it exists.
    const colleague = await makeMember(t.database.db, { role: 'signer', tenant: owner.tenant });
    expect((await rejectAs(await headersOf(colleague.user))).statusCode).toBe(404);
    expect((await rejectAs(reviewerHeaders, '   ')).json().code).toBe(-6);

    const rejected = await rejectAs(reviewerHeaders);
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect(rejected.json().data).toEqual({ ePakId: epak.ePakId, status: 'Rejected' });
    const detail = EpakDetail.parse((await inject(t.app, getEpak, { params: { ePakId: epak.ePakId }, headers: owner.headers })).json().data);
    expect(detail.steps.map((step) => step.recipients[0]!.status)).toEqual(['Rejected', 'NotRequired']);
    expect(detail.currentStep).toBeNull();
    expect((await rejectAs(signerHeaders)).json().code).toBe(-23);
    const [record] = await t.database.db.select().from(epakActivities).where(eq(epakActivities.action, 'rejected'));
    expect(record).toMatchObject({ actorId: reviewer.user.id, details: { comment: 'The rent is wrong.' } });
  });
});

describe('the directory for recipient fields', () => {
  it('finds active members by the start of a name or address, from 2 characters, and nobody else', async () => {
    t = await buildTestApp();
    const owner = await custodian();
    await makeMember(t.database.db, { tenant: owner.tenant, user: { email: 'meera.nair@acme.test', firstName: 'Meera', lastName: 'Nair' } });
    await makeMember(t.database.db, { tenant: owner.tenant, user: { email: 'mehul@acme.test', firstName: 'Mehul', lastName: 'Shah' } });
    const gone = await makeMember(t.database.db, { tenant: owner.tenant, user: { email: 'meena@acme.test', firstName: 'Meena', lastName: 'Iyer' } });
    await t.database.db.update(memberships).set({ status: 'disabled' }).where(eq(memberships.userId, gone.user.id));
    await makeMember(t.database.db, { user: { email: 'meera@other.test', firstName: 'Meera', lastName: 'Other' } });
    const search = (q: string) => inject(t.app, searchDirectory, { query: { q }, headers: owner.headers });
    expect((await search('me')).data.users.map((u) => u.email)).toEqual(['meera.nair@acme.test', 'mehul@acme.test']);
    expect((await search('NAIR')).data.users.map((u) => u.email)).toEqual(['meera.nair@acme.test']);
    expect((await search('meera n')).data.users).toHaveLength(1);
    expect((await search('%')).code).toBe(-6);
    expect((await search('m%')).data.users).toEqual([]);
  });
});
