import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  actOnEpakDocument,
  attachToEpak,
  attachToTag,
  authorizeInPersonSigner,
  createEpak,
  createSignatureBlocks,
  DocumentSummary,
  downloadEpak,
  downloadEpakAttachment,
  downloadEpakDocument,
  EpakActivity,
  EpakDetail,
  getEpakActivity,
  exchangeEasyToken,
  getEpak,
  getSignatureBlocks,
  listEpakAttachments,
  listWorkflowStates,
  newTag,
  readProfile,
  rejectEpak,
  setEpakStatus,
  signEpakDocument,
  startEpak,
  type Tag,
  type TokenGrant,
  uploadDocument,
  verifyOtp,
} from '@pakt/domain';
import { asc, eq } from 'drizzle-orm';
import { PNG } from 'pngjs';
import { afterEach, describe, expect, it } from 'vitest';
import { epakActivities, epakDocumentRevisions, epaks, outbox } from '../../platform/db/schema';
import { readZip } from '../../test/audit-support';
import { run } from '../../test/signing-support';
import { GOOD_PASSWORD, makeMember } from '../../test/factories';
import { inject } from '../../test/inject';
import { placeSignatureFields, signatureValues } from '../../test/app-factories';
import { bearer, signIn } from '../../test/sign-in';
import { buildTestApp, type TestApp } from '../../test/test-app';
import { corpusPdf } from '../../test/corpus';

/**
 * The signing flow through the API (issue 5): a reviewer, two internal signers and an external
 * signer reached by the link in the outbox. Every signer's step is a PAdES revision; the result
 * verifies in pdfsig (three valid signatures) and passes qpdf --check.
 */

let t: TestApp;
afterEach(() => t.close());

type Headers = Record<string, string>;

async function member(role: 'custodian' | 'signer', tenant?: { id: string }, email?: string) {
  const made = await makeMember(t.database.db, { role, ...(tenant ? { tenant } : {}), ...(email ? { user: { email } } : {}) });
  const grant: TokenGrant = await signIn(t.app, made.user.email, GOOD_PASSWORD);
  return { ...made, headers: { ...bearer(grant), 'x-tenant-id': made.tenant.id } as Headers };
}

/** A small transparent PNG with a stroke: what a drawn signature arrives as. */
function drawnSignature(): string {
  const png = new PNG({ width: 60, height: 20 });
  for (let x = 5; x < 55; x++) {
    const y = 10 + Math.round(4 * Math.sin(x / 5));
    const at = (y * 60 + x) * 4;
    png.data[at] = 20;
    png.data[at + 1] = 30;
    png.data[at + 2] = 120;
    png.data[at + 3] = 255;
  }
  return `data:image/png;base64,${PNG.sync.write(png).toString('base64')}`;
}

/** One corpus file uploaded by `headers`' owner. */
async function uploadCorpus(headers: Headers, file: string) {
  const res = await inject(t.app, uploadDocument, { headers, file: { bytes: corpusPdf(file), name: file } });
  return DocumentSummary.parse(res.data);
}

async function workflowStates(headers: Headers) {
  return (await inject(t.app, listWorkflowStates, { headers })).data.states;
}

async function composeAndStart(file = 'incremental-pdf20.pdf') {
  const owner = await member('custodian');
  const reviewer = await member('custodian', owner.tenant);
  const first = await member('signer', owner.tenant);
  const second = await member('signer', owner.tenant);
  const external = 'outside.signer@elsewhere.test';
  const doc = await uploadCorpus(owner.headers, file);
  const list = await workflowStates(owner.headers);
  const state = (type: string) => list.find((s) => s.type === type)!.workflowStateId;
  const composed = await inject(t.app, createEpak, {
    body: {
      subject: 'Lease renewal',
      documentIds: [doc.documentId],
      viewEnforced: true,
      steps: [
        { workflowStateId: state('REVIEW'), recipients: [{ email: reviewer.user.email }] },
        { workflowStateId: state('SIGN'), recipients: [{ email: first.user.email }, { email: second.user.email }, { email: external }] },
      ],
    },
    as: owner,
  });
  expect(composed.statusCode, composed.body).toBe(200);
  const epak = EpakDetail.parse(composed.data);
  const documentId = epak.documents[0]!.documentId;
  const tag = (uuid: string, type: Tag['type'], x: number, y: number, email: string, extra: Partial<Tag> = {}) =>
    ({ ...newTag({ uuid, type, pageNumber: 1, positionX: x, positionY: y, userEmail: email }, { rotate: epak.documents[0]!.pages[0]!.rotate }), ...extra }) as Tag;
  const tags = [
    tag('00000000-0000-4000-8000-000000000001', 'signature', 40, 40, first.user.email),
    tag('00000000-0000-4000-8000-000000000002', 'reason', 40, 100, first.user.email),
    tag('00000000-0000-4000-8000-000000000003', 'timeStamp', 40, 130, first.user.email),
    tag('00000000-0000-4000-8000-000000000004', 'signature', 220, 40, second.user.email),
    tag('00000000-0000-4000-8000-000000000005', 'reason', 220, 100, second.user.email),
    tag('00000000-0000-4000-8000-000000000006', 'text', 220, 130, second.user.email, { validations: { required: { value: true } } }),
    tag('00000000-0000-4000-8000-000000000007', 'signature', 40, 200, external),
    tag('00000000-0000-4000-8000-000000000008', 'reason', 40, 260, external),
  ];
  const saved = await inject(t.app, createSignatureBlocks, { params: { ePakId: epak.ePakId, documentId }, body: { tags }, as: owner });
  expect(saved.statusCode, saved.body).toBe(200);
  const started = await inject(t.app, startEpak, { params: { ePakId: epak.ePakId }, as: owner });
  expect(started.statusCode, started.body).toBe(200);
  return { owner, reviewer, first, second, external, epak, documentId };
}

describe('signing an ePak', () => {
  it('takes a reviewer, two internal signers and an external signer to three valid signatures', async () => {
    t = await buildTestApp();
    const { owner, reviewer, first, second, external, epak, documentId } = await composeAndStart();
    const db = t.database.db;

    // The reviewer is asked first; view enforcement holds the review until the document is opened.
    expect((await db.select().from(outbox).where(eq(outbox.recipient, reviewer.user.email)))[0]).toMatchObject({ kind: 'epak_review_request' });
    const early = await inject(t.app, setEpakStatus, { body: { ePakId: epak.ePakId, status: 'Reviewed' }, as: reviewer });
    expect(early.json()).toMatchObject({ code: -6, issues: [{ path: 'viewEnforced' }] });
    expect((await inject(t.app, signEpakDocument, { params: { ePakId: epak.ePakId, documentId }, body: { values: [] }, as: reviewer })).code).toBe(-6);
    // A signer cannot act before their step (-28).
    expect((await inject(t.app, signEpakDocument, { params: { ePakId: epak.ePakId, documentId }, body: { values: [] }, as: first })).code).toBe(-28);
    const viewed = await inject(t.app, actOnEpakDocument, { params: { epakId: epak.ePakId, documentId, action: 'view' }, as: reviewer });
    expect(viewed.data).toMatchObject({ isRead: true, eligibleForAction: true, canAct: true, stepType: 'REVIEW' });
    const reviewed = await inject(t.app, setEpakStatus, { body: { ePakId: epak.ePakId, status: 'Reviewed' }, as: reviewer });
    expect(reviewed.data).toMatchObject({ status: 'InProgress', signerStatus: 'Reviewed' });

    // The signing step's people are mailed: the internal ones a link into the app, the external
    // one a signing link, which no answer to the sender ever shows.
    const mails = await db.select().from(outbox).where(eq(outbox.kind, 'epak_sign_request')).orderBy(asc(outbox.createdAt));
    expect(mails.map((m) => m.recipient).sort()).toEqual([first.user.email, second.user.email, external].sort());
    expect(mails.find((m) => m.recipient === first.user.email)!.body).toContain(`/sign?ePakId=${epak.ePakId}`);
    const link = /\/emailsign\?token=([A-Za-z0-9_-]+)/.exec(mails.find((m) => m.recipient === external)!.body)![1]!;
    const ownerView = await inject(t.app, getEpak, { params: { ePakId: epak.ePakId }, as: owner });
    expect(ownerView.body).not.toContain(link);

    // A required field left empty is named (-6); values for someone else's field are refused.
    await inject(t.app, actOnEpakDocument, { params: { epakId: epak.ePakId, documentId, action: 'view' }, as: second });
    const missing = await inject(t.app, signEpakDocument, {
      params: { ePakId: epak.ePakId, documentId },
      body: {
        values: [{ uuid: '00000000-0000-4000-8000-000000000004', value: drawnSignature() }],
      },
      as: second,
    });
    expect(missing.json()).toMatchObject({ code: -6, issues: [{ path: 'values.00000000-0000-4000-8000-000000000006' }] });
    // White space is not an answer: the ceremony shows the field as missing, and so does the server.
    const blank = await inject(t.app, signEpakDocument, {
      params: { ePakId: epak.ePakId, documentId },
      body: {
        values: [
          { uuid: '00000000-0000-4000-8000-000000000004', value: drawnSignature() },
          { uuid: '00000000-0000-4000-8000-000000000006', value: '   ' },
        ],
      },
      as: second,
    });
    expect(blank.json()).toMatchObject({ code: -6, issues: [{ path: 'values.00000000-0000-4000-8000-000000000006' }] });
    const foreign = await inject(t.app, signEpakDocument, {
      params: { ePakId: epak.ePakId, documentId },
      body: {
        values: [{ uuid: '00000000-0000-4000-8000-000000000001', value: 'x' }],
      },
      as: second,
    });
    expect(foreign.json()).toMatchObject({ code: -6, issues: [{ message: 'this field is not yours to fill' }] });

    // The external signer: the link becomes a session for this ePak only.
    expect((await inject(t.app, exchangeEasyToken, { params: { easytoken: 'pks_not-a-real-token-at-all' } })).code).toBe(-42);
    const exchanged = await inject(t.app, exchangeEasyToken, { params: { easytoken: link } });
    expect(exchanged.statusCode, exchanged.body).toBe(200);
    const linkHeaders = { authorization: `Bearer ${exchanged.data.accessToken}` };
    expect((await inject(t.app, readProfile, { headers: linkHeaders })).statusCode).toBe(403);
    expect((await inject(t.app, getEpak, { params: { ePakId: owner.tenant.id }, headers: linkHeaders })).statusCode).toBe(404);
    const externalView = await inject(t.app, getEpak, { params: { ePakId: epak.ePakId }, headers: linkHeaders });
    expect(externalView.statusCode, externalView.body).toBe(200);
    const asExternal = EpakDetail.parse(externalView.data);
    // Known only by address: the ceremony asks for their name (issue 22), and no name is guessed from the address.
    expect(asExternal.viewer).toMatchObject({ canAct: true, stepType: 'SIGN', eligibleForAction: false, nameRequired: true, signerName: null });
    await inject(t.app, actOnEpakDocument, { params: { epakId: epak.ePakId, documentId, action: 'view' }, headers: linkHeaders });
    const externalBody = { values: [{ uuid: '00000000-0000-4000-8000-000000000007', value: drawnSignature() }], reason: 'I agree' };
    const nameless = await inject(t.app, signEpakDocument, { params: { ePakId: epak.ePakId, documentId }, body: externalBody, headers: linkHeaders });
    expect(nameless.json()).toMatchObject({ code: -6, issues: [{ path: 'signerName', message: 'required' }] });
    expect(await db.select().from(epakDocumentRevisions)).toEqual([]);
    const externalSigned = await inject(t.app, signEpakDocument, {
      params: { ePakId: epak.ePakId, documentId },
      body: { ...externalBody, signerName: 'Olivia  Outsider' },
      headers: linkHeaders,
    });
    expect(externalSigned.data, externalSigned.body).toMatchObject({ documentStatus: 'Signed', signerStatus: 'Signed', epakStatus: 'InProgress', revision: 1 });
    // Their typed name is who signed: in "Who signs", and in what the ceremony greets them by.
    const afterExternal = EpakDetail.parse((await inject(t.app, getEpak, { params: { ePakId: epak.ePakId }, as: owner })).data);
    const externalRow = afterExternal.steps.flatMap((step) => step.recipients).find((r) => r.email === external)!;
    expect(`${externalRow.firstName} ${externalRow.lastName}`.trim()).toBe('Olivia Outsider');
    const externalAgain = EpakDetail.parse((await inject(t.app, getEpak, { params: { ePakId: epak.ePakId }, headers: linkHeaders })).data);
    expect(externalAgain.viewer).toMatchObject({ signerName: 'Olivia Outsider', nameRequired: false });

    // The first signer; a retry answers the same and appends nothing.
    await inject(t.app, actOnEpakDocument, { params: { epakId: epak.ePakId, documentId, action: 'view' }, as: first });
    const firstBody = { values: [{ uuid: '00000000-0000-4000-8000-000000000001', value: drawnSignature() }], reason: 'Approved' };
    const once = await inject(t.app, signEpakDocument, { params: { ePakId: epak.ePakId, documentId }, body: firstBody, as: first });
    const again = await inject(t.app, signEpakDocument, { params: { ePakId: epak.ePakId, documentId }, body: firstBody, as: first });
    expect(once.data).toMatchObject({ revision: 2, signerStatus: 'Signed' });
    expect(again.data).toEqual(once.data);

    const last = await inject(t.app, signEpakDocument, {
      params: { ePakId: epak.ePakId, documentId },
      body: {
        values: [
          { uuid: '00000000-0000-4000-8000-000000000004', value: drawnSignature() },
          { uuid: '00000000-0000-4000-8000-000000000006', value: 'Flat 4B' },
        ],
        reason: 'Witness',
      },
      as: second,
    });
    expect(last.data, last.body).toMatchObject({ revision: 3, epakStatus: 'Completed', remainingDocumentIds: [] });
    // Everyone who took part is mailed the completed ePak, once each.
    expect((await db.select().from(outbox).where(eq(outbox.kind, 'epak_completed'))).map((m) => m.recipient).sort()).toEqual(
      [owner.user.email, reviewer.user.email, first.user.email, second.user.email, external].sort(),
    );
    // Too late to reject (-72).
    expect((await inject(t.app, rejectEpak, { params: { ePakId: epak.ePakId }, body: { comment: 'no' }, as: first })).code).toBe(-72);

    // The owner downloads: three signatures, all valid; qpdf is happy.
    const download = await inject(t.app, downloadEpakDocument, { params: { ePakId: epak.ePakId, documentId }, as: owner });
    expect(download.statusCode).toBe(200);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pakt-signed-'));
    const file = path.join(dir, 'signed.pdf');
    fs.writeFileSync(file, download.rawPayload);
    const sig = run('pdfsig', [file]);
    expect((sig.stdout.match(/^Signature #\d+:/gm) ?? []).length, sig.stdout).toBe(3);
    expect((sig.stdout.match(/Signature Validation: Signature is Valid\./g) ?? []).length, sig.stdout).toBe(3);
    const qpdf = run('qpdf', ['--check', file]);
    expect(qpdf.status, qpdf.stdout + qpdf.stderr).toBe(0);
    const text = run('pdftotext', [file, '-']).stdout;
    expect(text).toContain('Flat 4B');
    // The signature dictionary's /Name is the external signer's typed name, not their address.
    expect(download.rawPayload.toString('latin1').toLowerCase()).toContain(`/name <${Buffer.from('Olivia Outsider', 'latin1').toString('hex')}>`);
    fs.rmSync(dir, { recursive: true, force: true });

    // Each revision appends to the one before it, and the activity says so with hashes.
    const revisions = await db.select().from(epakDocumentRevisions).orderBy(asc(epakDocumentRevisions.seq));
    expect(revisions.map((r) => r.seq)).toEqual([1, 2, 3]);
    expect(revisions[1]!.predecessorSha256).toBe(revisions[0]!.sha256);
    const actions = (await db.select().from(epakActivities).where(eq(epakActivities.epakId, epak.ePakId)).orderBy(asc(epakActivities.seq))).map((a) => a.action);
    expect(actions).toEqual(['composed', 'started', 'reviewed', 'documentSigned', 'signed', 'documentSigned', 'signed', 'documentSigned', 'signed']);
    const activity = await inject(t.app, getEpakActivity, { params: { ePakId: epak.ePakId }, as: owner });
    const externalEntries = EpakActivity.parse(activity.data).entries.filter((entry) => entry.actor?.email === external);
    expect(externalEntries.map((entry) => [entry.action, entry.actor?.name])).toEqual([
      ['documentSigned', 'Olivia Outsider'],
      ['signed', 'Olivia Outsider'],
    ]);
  });

  it('keeps strangers out: another tenant 404, a link session on another endpoint 403', async () => {
    t = await buildTestApp();
    const { epak, documentId } = await composeAndStart('plain-1p-pdftex.pdf');
    const stranger = await member('custodian');
    for (const [endpoint, call] of [
      [getEpak, () => inject(t.app, getEpak, { params: { ePakId: epak.ePakId }, as: stranger })],
      [signEpakDocument, () => inject(t.app, signEpakDocument, { params: { ePakId: epak.ePakId, documentId }, body: { values: [] }, as: stranger })],
      [actOnEpakDocument, () => inject(t.app, actOnEpakDocument, { params: { epakId: epak.ePakId, documentId, action: 'view' }, as: stranger })],
      [downloadEpakDocument, () => inject(t.app, downloadEpakDocument, { params: { ePakId: epak.ePakId, documentId }, as: stranger })],
    ] as const) {
      const res = await call();
      expect(res.statusCode, `${endpoint.method} ${endpoint.path}`).toBe(404);
    }
    // Someone of the same tenant who is not a recipient is told the same.
    const colleague = await member('signer', stranger.tenant.id === epak.ownerId ? undefined : undefined);
    expect((await inject(t.app, getEpak, { params: { ePakId: epak.ePakId }, as: colleague })).statusCode).toBe(404);
  });

  it('the owner stops an ePak under way; a recipient may not', async () => {
    t = await buildTestApp();
    const { owner, reviewer, epak } = await composeAndStart('plain-1p-pdftex.pdf');
    expect((await inject(t.app, setEpakStatus, { body: { ePakId: epak.ePakId, status: 'Stopped' }, as: reviewer })).statusCode).toBe(403);
    const stopped = await inject(t.app, setEpakStatus, { body: { ePakId: epak.ePakId, status: 'Stopped' }, as: owner });
    expect(stopped.data).toMatchObject({ status: 'Stopped' });
    const after = EpakDetail.parse((await inject(t.app, getEpak, { params: { ePakId: epak.ePakId }, as: reviewer })).data);
    expect(after.steps.flatMap((s) => s.recipients.map((r) => r.status))).toEqual(['Skipped', 'Skipped', 'Skipped', 'Skipped']);
    expect(after.viewer?.canAct).toBe(false);
  });
});

describe('signing in person', () => {
  it('lets the host hand over the device once the signer has confirmed the mailed code', async () => {
    t = await buildTestApp();
    const owner = await member('custodian');
    const signer = await member('signer', owner.tenant);
    const other = await member('signer', owner.tenant);
    const doc = await uploadCorpus(owner.headers, 'plain-1p-pdftex.pdf');
    const list = await workflowStates(owner.headers);
    const inPersonState = list.find((s) => s.type === 'INPERSONSIGN')!.workflowStateId;
    const epak = EpakDetail.parse(
      (
        await inject(t.app, createEpak, {
          body: {
            subject: 'Counter agreement',
            documentIds: [doc.documentId],
            steps: [{ workflowStateId: inPersonState, recipients: [{ email: signer.user.email }] }, { workflowStateId: inPersonState, recipients: [{ email: other.user.email }] }],
          },
          as: owner,
        })
      ).data,
    );
    const placed = await placeSignatureFields(t, { owner, epak });
    expect((await inject(t.app, startEpak, { params: { ePakId: epak.ePakId }, as: owner })).statusCode).toBe(200);
    const documentId = epak.documents[0]!.documentId;
    const recipientId = epak.steps[0]!.recipients[0]!.recipientId;
    // The host is told; the signer alone, on their own device, cannot sign this step.
    const [hostMail] = await t.database.db.select().from(outbox).where(eq(outbox.kind, 'epak_inperson_request'));
    expect(hostMail).toMatchObject({ recipient: owner.user.email });
    expect((await inject(t.app, signEpakDocument, { params: { ePakId: epak.ePakId, documentId }, body: { values: [] }, as: signer })).json()).toMatchObject({ code: -6, issues: [{ message: 'INPERSONSIGN' }] });
    // Only the owner hosts; the next step's signer is not waited for yet.
    expect((await inject(t.app, authorizeInPersonSigner, { body: { ePakId: epak.ePakId, recipientId }, as: signer })).statusCode).toBe(403);
    expect((await inject(t.app, authorizeInPersonSigner, { body: { ePakId: epak.ePakId, recipientId: epak.steps[1]!.recipients[0]!.recipientId }, as: owner })).code).toBe(-28);

    const started = await inject(t.app, authorizeInPersonSigner, { body: { ePakId: epak.ePakId, recipientId }, as: owner });
    const otpId = started.data.otpId!;
    // One live code at a time: asking again at once is refused (-198).
    expect((await inject(t.app, authorizeInPersonSigner, { body: { ePakId: epak.ePakId, recipientId }, as: owner })).code).toBe(-198);
    const [codeMail] = await t.database.db.select().from(outbox).where(eq(outbox.kind, 'epak_inperson_code'));
    expect(codeMail!.recipient).toBe(signer.user.email);
    const code = /code is (\d{6})/.exec(codeMail!.body)![1]!;
    // The challenge is no way to sign in as the signer.
    const asSignIn = await inject(t.app, verifyOtp, { body: { otpId, code } });
    expect(asSignIn.code).toBe(-196);
    const wrong = code === '000000' ? '111111' : '000000';
    expect((await inject(t.app, authorizeInPersonSigner, { body: { ePakId: epak.ePakId, recipientId, otpId, code: wrong }, as: owner })).code).toBe(-138);
    const confirmed = await inject(t.app, authorizeInPersonSigner, { body: { ePakId: epak.ePakId, recipientId, otpId, code }, as: owner });
    expect(confirmed.data).toMatchObject({ signer: { email: signer.user.email } });
    const signerHeaders = { authorization: `Bearer ${confirmed.data.signAuthToken}` };
    // The same code does not work twice.
    expect((await inject(t.app, authorizeInPersonSigner, { body: { ePakId: epak.ePakId, recipientId, otpId, code }, as: owner })).json()).toMatchObject({
      code: -196,
      message: expect.stringContaining('send a new code'),
    });

    const signed = await inject(t.app, signEpakDocument, { params: { ePakId: epak.ePakId, documentId }, body: { values: signatureValues(placed, documentId, signer.user.email), reason: 'Signed at the counter' }, headers: signerHeaders });
    expect(signed.data, signed.body).toMatchObject({ signerStatus: 'Signed', epakStatus: 'InProgress' });
    // The token reaches this ePak only.
    expect((await inject(t.app, readProfile, { headers: signerHeaders })).statusCode).toBe(403);
  });
});

describe('attachments', () => {
  it('takes a file for the signer\'s attachment field, shows its name, draws it when they sign, and zips it with the documents', async () => {
    t = await buildTestApp();
    const owner = await member('custodian');
    const signer = await member('signer', owner.tenant);
    const doc = await uploadCorpus(owner.headers, 'plain-1p-pdftex.pdf');
    const list = await workflowStates(owner.headers);
    const epak = EpakDetail.parse(
      (
        await inject(t.app, createEpak, {
          body: {
            subject: 'KYC',
            signingPolicy: 'QUICKSIGN',
            documentIds: [doc.documentId],
            steps: [{ workflowStateId: list.find((s) => s.type === 'SIGN')!.workflowStateId, recipients: [{ email: signer.user.email }] }],
          },
          as: owner,
        })
      ).data,
    );
    const documentId = epak.documents[0]!.documentId;
    const attachmentTag = {
      ...newTag({ uuid: '00000000-0000-4000-8000-0000000000a1', type: 'attachment', pageNumber: 1, positionX: 40, positionY: 300, userEmail: signer.user.email }),
      validations: { required: { value: true } },
      maxUpload: 50,
    } as Tag;
    const tags = [newTag({ uuid: '00000000-0000-4000-8000-0000000000a2', type: 'signature', pageNumber: 1, positionX: 40, positionY: 40, userEmail: signer.user.email }), attachmentTag];
    expect((await inject(t.app, createSignatureBlocks, { params: { ePakId: epak.ePakId, documentId }, body: { tags }, as: owner })).statusCode).toBe(200);
    expect((await inject(t.app, startEpak, { params: { ePakId: epak.ePakId }, as: owner })).statusCode).toBe(200);

    const attachTo = { ePakId: epak.ePakId, docId: documentId, tagId: attachmentTag.uuid };
    const send = (headers: Headers, bytes: Buffer, name: string) => inject(t.app, attachToTag, { params: attachTo, headers, file: { bytes, name } });
    // Nothing waits for the owner; not a kind of file we take; not past the field's 50 KB.
    expect((await send(owner.headers, Buffer.from('%PDF-1.4'), 'id.pdf')).json().code).toBe(-28);
    expect((await send(signer.headers, Buffer.from('MZ'), 'tool.exe')).json()).toMatchObject({ code: -6, issues: [{ path: 'file', message: 'exe' }] });
    expect((await send(signer.headers, Buffer.alloc(60 * 1024, 1), 'big.pdf')).json()).toMatchObject({ code: -6, issues: [{ message: 'maxSizeExceeded' }] });
    // A required attachment field left empty holds the signature back.
    const signature = { uuid: '00000000-0000-4000-8000-0000000000a2', value: drawnSignature() };
    expect((await inject(t.app, signEpakDocument, { params: { ePakId: epak.ePakId, documentId }, body: { values: [signature] }, as: signer })).json()).toMatchObject({
      code: -6,
      issues: [{ path: `values.${attachmentTag.uuid}` }],
    });
    const idCard = Buffer.from('%PDF-1.4 a scanned identity card');
    expect((await send(signer.headers, Buffer.from('first try'), 'old.pdf')).statusCode).toBe(200);
    const attached = await send(signer.headers, idCard, 'id-card.pdf');
    expect(attached.json().data).toMatchObject({ name: 'id-card.pdf', size: idCard.length, tagUuid: attachmentTag.uuid });
    // The owner adds a supporting file to the ePak as a whole.
    expect((await inject(t.app, attachToEpak, { params: { ePakId: epak.ePakId }, headers: owner.headers, file: { bytes: Buffer.from('terms'), name: 'terms.docx' } })).statusCode).toBe(200);
    const listed = (await inject(t.app, listEpakAttachments, { params: { ePakId: epak.ePakId }, as: signer })).data.attachments;
    expect(listed.map((a) => a.name)).toEqual(['id-card.pdf', 'terms.docx']);
    const one = await inject(t.app, downloadEpakAttachment, { params: { ePakId: epak.ePakId, attachmentId: listed[0]!.attachmentId }, as: owner });
    expect(one.rawPayload.equals(idCard)).toBe(true);
    const blocks = (await inject(t.app, getSignatureBlocks, { params: { ePakId: epak.ePakId, documentId }, as: signer })).data.tags;
    expect(blocks.find((tag) => tag.uuid === attachmentTag.uuid)!.value).toBe('id-card.pdf');

    const signed = await inject(t.app, signEpakDocument, { params: { ePakId: epak.ePakId, documentId }, body: { values: [signature] }, as: signer });
    expect(signed.data, signed.body).toMatchObject({ epakStatus: 'Completed' });
    const zip = readZip((await inject(t.app, downloadEpak, { params: { ePakId: epak.ePakId }, as: owner })).rawPayload);
    expect(zip.map((entry) => entry.name).sort()).toEqual(['attachments/id-card.pdf', 'attachments/terms.docx', 'certificate-of-completion.pdf', 'plain-1p-pdftex.pdf']);
    const pdf = zip.find((entry) => entry.name === 'plain-1p-pdftex.pdf')!.data;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pakt-attached-'));
    fs.writeFileSync(path.join(dir, 'signed.pdf'), pdf);
    expect(run('pdftotext', [path.join(dir, 'signed.pdf'), '-']).stdout).toContain('id-card.pdf');
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe('an ePak past its expiry', () => {
  it('takes no signature once its time is up, even before the expiry job has closed it', async () => {
    t = await buildTestApp();
    const { reviewer, epak, documentId } = await composeAndStart('plain-1p-pdftex.pdf');
    await inject(t.app, actOnEpakDocument, { params: { epakId: epak.ePakId, documentId, action: 'view' }, as: reviewer });
    await t.database.db.update(epaks).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(epaks.id, epak.ePakId));
    const late = await inject(t.app, setEpakStatus, { body: { ePakId: epak.ePakId, status: 'Reviewed' }, as: reviewer });
    expect(late.json()).toMatchObject({ code: -6, issues: [{ path: 'expiresOn', message: 'expired' }] });
    expect((await inject(t.app, rejectEpak, { params: { ePakId: epak.ePakId }, body: { comment: 'late' }, as: reviewer })).code).toBe(-6);
  });
});

describe('a retried sign', () => {
  it('answers as the first did even when the same person now waits in the next step', async () => {
    t = await buildTestApp();
    const owner = await member('custodian');
    const signer = await member('signer', owner.tenant);
    const doc = await uploadCorpus(owner.headers, 'plain-1p-pdftex.pdf');
    const list = await workflowStates(owner.headers);
    const sign = list.find((s) => s.type === 'SIGN')!.workflowStateId;
    const epak = EpakDetail.parse(
      (
        await inject(t.app, createEpak, {
          body: {
            subject: 'Two rounds',
            signingPolicy: 'QUICKSIGN',
            documentIds: [doc.documentId],
            steps: [{ workflowStateId: sign, recipients: [{ email: signer.user.email }] }, { workflowStateId: sign, recipients: [{ email: signer.user.email }] }],
          },
          as: owner,
        })
      ).data,
    );
    const documentId = epak.documents[0]!.documentId;
    const place = (uuid: string, order: number, x: number) => ({ ...newTag({ uuid, type: 'signature', pageNumber: 1, positionX: x, positionY: 40, userEmail: signer.user.email }), wfsOrderId: order }) as Tag;
    const tags = [place('00000000-0000-4000-8000-0000000000b1', 1, 40), place('00000000-0000-4000-8000-0000000000b2', 2, 240)];
    expect((await inject(t.app, createSignatureBlocks, { params: { ePakId: epak.ePakId, documentId }, body: { tags }, as: owner })).statusCode).toBe(200);
    expect((await inject(t.app, startEpak, { params: { ePakId: epak.ePakId }, as: owner })).statusCode).toBe(200);
    const first = { values: [{ uuid: '00000000-0000-4000-8000-0000000000b1', value: drawnSignature() }] };
    const once = await inject(t.app, signEpakDocument, { params: { ePakId: epak.ePakId, documentId }, body: first, as: signer });
    expect(once.data, once.body).toMatchObject({ revision: 1, epakStatus: 'InProgress' });
    // The answer was lost; the retry comes while the second round waits for the same person.
    expect((await inject(t.app, signEpakDocument, { params: { ePakId: epak.ePakId, documentId }, body: first, as: signer })).data).toMatchObject({ revision: 1 });
    const second = await inject(t.app, signEpakDocument, { params: { ePakId: epak.ePakId, documentId }, body: { values: [{ uuid: '00000000-0000-4000-8000-0000000000b2', value: drawnSignature() }] }, as: signer });
    expect(second.data).toMatchObject({ revision: 2, epakStatus: 'Completed' });
    // Retries after the end answer each round's own revision.
    expect((await inject(t.app, signEpakDocument, { params: { ePakId: epak.ePakId, documentId }, body: first, as: signer })).data).toMatchObject({ revision: 1 });
    expect(await t.database.db.select().from(epakDocumentRevisions)).toHaveLength(2);
  });
});
