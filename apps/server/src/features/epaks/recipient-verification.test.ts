import {
  authorizeInPersonSigner,
  composeFromDocumentTemplate,
  confirmVerificationCode,
  createEpak,
  delegateEpak,
  DocumentSummary,
  type EndpointInput,
  EpakDetail,
  exchangeEasyToken,
  getEpak,
  getEpakActivity,
  listWorkflowStates,
  rejectEpak,
  sendVerificationCode,
  setEpakStatus,
  signEpakDocument,
  startEpak,
  tenantConfiguration,
  updateTenantSettings,
  uploadDocument,
  type VerificationMode,
  type WorkflowStateType,
} from '@pakt/domain';
import { and, asc, desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { epakActivities, epakDocumentRevisions, epakDocuments, epakRecipients, epaks, outbox } from '../../platform/db/schema';
import { placeSignatureFields, signatureValues, signedInMember, uploadedDocumentTemplate } from '../../test/app-factories';
import { corpusPdf } from '../../test/corpus';
import { inject } from '../../test/inject';
import { buildTestApp, type TestApp } from '../../test/test-app';
import { verificationLockEnd } from './recipient-verification';

/**
 * Signer verification (issue 22, spec §9 verification modes): compose fixes who must confirm a
 * one-time code; the code goes out through the outbox and is shown in no answer; signing (-151)
 * and delegating (-152) wait for it with nothing changed; wrong codes are counted per code (the
 * fifth voids it) and across codes (a lock that doubles).
 */
let t: TestApp;
type Headers = Record<string, string>;
type Who = Awaited<ReturnType<typeof signedInMember>>;

let Super: Who, Owner: Who, Signer: Who, Other: Who;
beforeAll(async () => {
  t = await buildTestApp();
  Super = await signedInMember(t, { role: 'super_admin' });
  Owner = await signedInMember(t, { role: 'custodian', tenant: Super.tenant });
  Signer = await signedInMember(t, { role: 'signer', tenant: Super.tenant, user: { phone: '+91 98765 43210' } });
  Other = await signedInMember(t, { role: 'signer', tenant: Super.tenant });
});
afterAll(() => t.close());

async function setMode(mode: VerificationMode | null) {
  const res = await inject(t.app, updateTenantSettings, { body: { settings: { verificationMode: mode } }, as: Super });
  expect(res.statusCode, res.body).toBe(200);
}

let counter = 0;
type StepSpec = { type: WorkflowStateType; recipients: { email: string; verify?: boolean }[] };

/** A draft as Owner, one document, the steps given. */
async function composed(steps: StepSpec[]) {
  const uploaded = await inject(t.app, uploadDocument, { as: Owner, file: { bytes: corpusPdf('plain-1p-pdftex.pdf'), name: 'plain.pdf' } });
  const doc = DocumentSummary.parse(uploaded.data);
  const states = (await inject(t.app, listWorkflowStates, { as: Owner })).data.states;
  counter += 1;
  const res = await inject(t.app, createEpak, {
    body: {
      subject: `Verified lease ${counter}`,
      documentIds: [doc.documentId],
      viewEnforced: false,
      steps: steps.map((step) => ({ workflowStateId: states.find((s) => s.type === step.type)!.workflowStateId, recipients: step.recipients })),
    },
    as: Owner,
  });
  expect(res.statusCode, res.body).toBe(200);
  return EpakDetail.parse(res.data);
}

/** Started, with a signature field for each signer; `values(email)` fills theirs. */
async function started(steps: StepSpec[]) {
  const epak = await composed(steps);
  const placed = await placeSignatureFields(t, { owner: Owner, epak });
  const begun = await inject(t.app, startEpak, { params: { ePakId: epak.ePakId }, as: Owner });
  expect(begun.statusCode, begun.body).toBe(200);
  const documentId = epak.documents[0]!.documentId;
  return { ePakId: epak.ePakId, documentId, values: (email: string) => signatureValues(placed, documentId, email) };
}

const sendCode = (ePakId: string, headers: Headers, channel: 'email' | 'sms' = 'email') => inject(t.app, sendVerificationCode, { params: { ePakId }, body: { channel }, headers });
const confirm = (ePakId: string, headers: Headers, code: string) => inject(t.app, confirmVerificationCode, { params: { ePakId }, body: { code }, headers });
const sign = (ePakId: string, documentId: string, headers: Headers, body: EndpointInput<typeof signEpakDocument>['body']) =>
  inject(t.app, signEpakDocument, { params: { ePakId, documentId }, body, headers });
const viewerOf = async (ePakId: string, headers: Headers) => EpakDetail.parse((await inject(t.app, getEpak, { params: { ePakId }, headers })).data).viewer!;

/** The code in the last verification mail (or text) to `to`. */
async function lastCode(to: string): Promise<string> {
  const [message] = await t.database.db
    .select()
    .from(outbox)
    .where(and(eq(outbox.recipient, to), eq(outbox.kind, 'epak_verification_code')))
    .orderBy(desc(outbox.createdAt))
    .limit(1);
  return /(\d{6})/.exec(message!.body)![1]!;
}

/** A code that is not `code`. */
const wrongFor = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

async function placeOf(ePakId: string, userId: string) {
  const [row] = await t.database.db.select().from(epakRecipients).where(and(eq(epakRecipients.epakId, ePakId), eq(epakRecipients.userId, userId)));
  return row!;
}

/** Lets a new code be asked for at once (the resend wait is a minute). */
async function allowResend(recipientId: string) {
  await t.database.db.update(epakRecipients).set({ verificationCodeSentAt: sql`now() - interval '2 minutes'` }).where(eq(epakRecipients.id, recipientId));
}

/** Every row of the ePak a sign or a delegation would write, for "nothing changed". */
async function rowsOf(ePakId: string): Promise<string> {
  const db = t.database.db;
  const documents = await db.select().from(epakDocuments).where(eq(epakDocuments.epakId, ePakId));
  return JSON.stringify([
    await db.select().from(epaks).where(eq(epaks.id, ePakId)),
    documents,
    await db.select().from(epakDocumentRevisions).where(eq(epakDocumentRevisions.epakDocumentId, documents[0]!.id)),
    await db.select().from(epakRecipients).where(eq(epakRecipients.epakId, ePakId)).orderBy(asc(epakRecipients.id)),
    await db.select().from(epakActivities).where(eq(epakActivities.epakId, ePakId)).orderBy(asc(epakActivities.seq)),
    (await db.select().from(outbox)).length,
  ]);
}

const actionsOf = async (ePakId: string) =>
  (await t.database.db.select().from(epakActivities).where(eq(epakActivities.epakId, ePakId)).orderBy(asc(epakActivities.seq))).map((row) => row.action);

describe('compose fixes who must verify', () => {
  it.each([
    // mode: [chose on, chose off, chose nothing]
    ['ON', [true, true, true]],
    ['OFF', [false, false, false]],
    ['DefaultSelectiveON', [true, false, true]],
    ['DefaultSelectiveOFF', [true, false, false]],
  ] as const)('%s', async (mode, [whenOn, whenOff, whenUnsaid]) => {
    await setMode(mode);
    const on = `on-${counter}@elsewhere.test`;
    const off = `off-${counter}@elsewhere.test`;
    const epak = await composed([
      // A reviewer is never asked, whatever is chosen for them.
      { type: 'REVIEW', recipients: [{ email: Other.user.email, verify: true }] },
      { type: 'SIGN', recipients: [{ email: on, verify: true }, { email: off, verify: false }, { email: Signer.user.email }] },
    ]);
    const stored = await t.database.db.select().from(epakRecipients).where(eq(epakRecipients.epakId, epak.ePakId));
    const shown = epak.steps.flatMap((step) => step.recipients);
    const byEmail = (email: string) => ({
      stored: stored.find((row) => row.userId === shown.find((r) => r.email === email)!.userId)!.verificationRequired,
      shown: shown.find((r) => r.email === email)!.verificationRequired,
    });
    expect(byEmail(Other.user.email)).toEqual({ stored: false, shown: false });
    expect(byEmail(on)).toEqual({ stored: whenOn, shown: whenOn });
    expect(byEmail(off)).toEqual({ stored: whenOff, shown: whenOff });
    expect(byEmail(Signer.user.email)).toEqual({ stored: whenUnsaid, shown: whenUnsaid });
  });

  it('tells compose the mode in force', async () => {
    await setMode('DefaultSelectiveOFF');
    expect((await inject(t.app, tenantConfiguration, { as: Owner })).data.verificationMode).toBe('DefaultSelectiveOFF');
    await setMode(null);
    expect((await inject(t.app, tenantConfiguration, { as: Owner })).data.verificationMode).toBe('OFF');
  });

  it('applies the mode to an ePak composed from a document template too', async () => {
    await setMode('DefaultSelectiveON');
    const template = await uploadedDocumentTemplate(t, { owner: Owner });
    const states = (await inject(t.app, listWorkflowStates, { as: Owner })).data.states;
    const res = await inject(t.app, composeFromDocumentTemplate, {
      params: { docTemplateId: template.docTemplateId },
      body: { subject: 'From a template', steps: [{ workflowStateId: states.find((s) => s.type === 'SIGN')!.workflowStateId, recipients: [{ email: Signer.user.email }] }] },
      as: Owner,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.data.steps[0]!.recipients[0]!.verificationRequired).toBe(true);
  });

  it('asks nobody when the tenant sets no mode', async () => {
    await setMode(null);
    const epak = await composed([{ type: 'SIGN', recipients: [{ email: Signer.user.email, verify: true }] }]);
    expect(epak.steps[0]!.recipients[0]!.verificationRequired).toBe(false);
  });
});

describe('a verified signer', () => {
  it('gets a code by mail that no answer shows, and signs only after confirming it', async () => {
    await setMode('ON');
    const { ePakId, documentId, values } = await started([{ type: 'SIGN', recipients: [{ email: Signer.user.email }, { email: Other.user.email }] }]);
    const before = await viewerOf(ePakId, Signer.headers);
    expect(before.verification).toMatchObject({ required: true, verified: false, codeOutstanding: false, resendAt: null, lockedUntil: null, maskedPhone: '********3210' });
    expect(before.verification!.maskedEmail).toMatch(/^.{2}\*\*\*@/);
    expect(before.verification!.maskedEmail).not.toBe(Signer.user.email);

    // Refused before anything is sealed or stored: -151 to sign, -152 to delegate.
    const untouched = await rowsOf(ePakId);
    const refusedSign = await sign(ePakId, documentId, Signer.headers, { values: values(Signer.user.email), reason: 'Agreed' });
    expect(refusedSign.statusCode).toBe(422);
    expect(refusedSign.json()).toMatchObject({ code: -151 });
    const refusedDelegate = await inject(t.app, delegateEpak, { params: { ePakId }, body: { email: 'someone.else@elsewhere.test' }, headers: Signer.headers });
    expect(refusedDelegate.json()).toMatchObject({ code: -152 });
    expect(await rowsOf(ePakId)).toBe(untouched);

    const sent = await sendCode(ePakId, Signer.headers);
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.data).toMatchObject({ channel: 'email', sentTo: before.verification!.maskedEmail, expiresIn: 600, resendAfter: 60 });
    expect(sent.data.verification).toMatchObject({ codeOutstanding: true, attemptsLeft: 5 });
    const code = await lastCode(Signer.user.email);
    // The code is in the signer's mail only: not in any answer, not in the log, not in the row.
    expect(sent.body).not.toContain(code);
    for (const headers of [Signer.headers, Owner.headers]) {
      expect((await inject(t.app, getEpak, { params: { ePakId }, headers })).body).not.toContain(code);
    }
    expect((await inject(t.app, getEpakActivity, { params: { ePakId }, headers: Owner.headers })).body).not.toContain(code);
    const place = await placeOf(ePakId, Signer.user.id);
    expect(place.verificationCodeHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(place)).not.toContain(`"${code}"`);
    const [sentEntry] = await t.database.db.select().from(epakActivities).where(and(eq(epakActivities.epakId, ePakId), eq(epakActivities.action, 'verificationCodeSent')));
    expect(sentEntry!.details).toEqual({ recipientId: place.id, channel: 'email', sentTo: before.verification!.maskedEmail });

    // Asked again within the minute: -198 with the wait.
    const soon = await sendCode(ePakId, Signer.headers);
    expect(soon.json()).toMatchObject({ code: -198 });
    expect(soon.json().data.resendAfter).toBeGreaterThan(50);
    expect((await viewerOf(ePakId, Signer.headers)).verification!.resendAt).not.toBeNull();

    const wrong = await confirm(ePakId, Signer.headers, wrongFor(code));
    expect(wrong.json()).toMatchObject({ code: -138, data: { attemptsLeft: 4 } });
    const right = await confirm(ePakId, Signer.headers, code);
    expect(right.statusCode, right.body).toBe(200);
    expect(right.data).toMatchObject({ verified: true, verification: { required: true, verified: true, codeOutstanding: false } });
    // Confirmed again (an answer lost on the way): still verified, nothing more written.
    const entries = await actionsOf(ePakId);
    expect((await confirm(ePakId, Signer.headers, code)).data).toMatchObject({ verified: true });
    expect(await actionsOf(ePakId)).toEqual(entries);
    expect(entries.slice(-3)).toEqual(['verificationCodeSent', 'verificationFailed', 'signerVerified']);
    expect((await placeOf(ePakId, Signer.user.id)).verifiedAt).not.toBeNull();
    expect((await viewerOf(ePakId, Signer.headers)).verification).toMatchObject({ verified: true });

    const signed = await sign(ePakId, documentId, Signer.headers, { values: values(Signer.user.email), reason: 'Agreed' });
    expect(signed.statusCode, signed.body).toBe(200);
    expect(signed.data).toMatchObject({ signerStatus: 'Signed' });
  });

  it('sends by text to a phone on record, and refuses text without one (-6)', async () => {
    await setMode('ON');
    const { ePakId } = await started([{ type: 'SIGN', recipients: [{ email: Signer.user.email }, { email: Other.user.email }] }]);
    const texted = await sendCode(ePakId, Signer.headers, 'sms');
    expect(texted.statusCode, texted.body).toBe(200);
    expect(texted.data).toMatchObject({ channel: 'sms', sentTo: '********3210' });
    const [text] = await t.database.db.select().from(outbox).where(and(eq(outbox.recipient, '+91 98765 43210'), eq(outbox.kind, 'epak_verification_code'))).orderBy(desc(outbox.createdAt)).limit(1);
    expect(text!.channel).toBe('sms');
    expect(texted.body).not.toContain(/(\d{6})/.exec(text!.body)![1]!);

    expect((await viewerOf(ePakId, Other.headers)).verification!.maskedPhone).toBeNull();
    const noPhone = await sendCode(ePakId, Other.headers, 'sms');
    expect(noPhone.json()).toMatchObject({ code: -6, issues: [{ path: 'channel', message: 'noPhone' }] });
  });

  it('refuses an expired code (-196), and a code tried wrongly five times (-217)', async () => {
    await setMode('ON');
    const { ePakId } = await started([{ type: 'SIGN', recipients: [{ email: Signer.user.email }] }]);
    const place = await placeOf(ePakId, Signer.user.id);
    expect((await confirm(ePakId, Signer.headers, '123456')).json()).toMatchObject({ code: -196 });

    await sendCode(ePakId, Signer.headers);
    const expiring = await lastCode(Signer.user.email);
    await t.database.db.update(epakRecipients).set({ verificationCodeExpiresAt: sql`now() - interval '1 second'` }).where(eq(epakRecipients.id, place.id));
    expect((await confirm(ePakId, Signer.headers, expiring)).json()).toMatchObject({ code: -196 });

    await allowResend(place.id);
    await sendCode(ePakId, Signer.headers);
    const code = await lastCode(Signer.user.email);
    for (const left of [4, 3, 2, 1]) expect((await confirm(ePakId, Signer.headers, wrongFor(code))).json()).toMatchObject({ code: -138, data: { attemptsLeft: left } });
    expect((await confirm(ePakId, Signer.headers, wrongFor(code))).json()).toMatchObject({ code: -217 });
    // The code is void: even the right one no longer works, and a new one must be asked for.
    expect((await confirm(ePakId, Signer.headers, code)).json()).toMatchObject({ code: -196 });
    expect((await actionsOf(ePakId)).filter((action) => action === 'verificationFailed')).toHaveLength(5);
    expect(await placeOf(ePakId, Signer.user.id)).toMatchObject({ verificationAttempts: 5, verificationFailures: 5, verifiedAt: null, verificationCodeHash: null });
  });

  it('locks after ten wrong codes in a row, twice as long the next time, until a right code', async () => {
    await setMode('ON');
    const { ePakId } = await started([{ type: 'SIGN', recipients: [{ email: Signer.user.email }] }]);
    const { id } = await placeOf(ePakId, Signer.user.id);
    /** Ten wrong tries over two codes: the last answers the lock with its wait. */
    const tenWrong = async () => {
      let last: Awaited<ReturnType<typeof confirm>> | undefined;
      for (let round = 0; round < 2; round++) {
        await allowResend(id);
        expect((await sendCode(ePakId, Signer.headers)).statusCode).toBe(200);
        const code = await lastCode(Signer.user.email);
        for (let i = 0; i < 5; i++) last = await confirm(ePakId, Signer.headers, wrongFor(code));
      }
      return last!;
    };
    const first = await tenWrong();
    expect(first.json()).toMatchObject({ code: -217 });
    expect(first.headers['retry-after']).toBeDefined();
    const firstWait = first.json().data.retryAfter as number;
    expect(firstWait).toBeGreaterThan(14 * 60);
    expect(firstWait).toBeLessThanOrEqual(15 * 60);
    // While locked nothing is sent or checked, not even after the resend wait.
    await allowResend(id);
    expect((await sendCode(ePakId, Signer.headers)).json()).toMatchObject({ code: -217 });
    expect((await viewerOf(ePakId, Signer.headers)).verification!.lockedUntil).not.toBeNull();

    await t.database.db.update(epakRecipients).set({ verificationLockedUntil: sql`now() - interval '1 second'` }).where(eq(epakRecipients.id, id));
    const second = await tenWrong();
    const secondWait = second.json().data.retryAfter as number;
    expect(secondWait).toBeGreaterThan(29 * 60);
    expect(secondWait).toBeLessThanOrEqual(30 * 60);

    // Once the lock has run out, a right code verifies and starts the count afresh.
    await t.database.db.update(epakRecipients).set({ verificationLockedUntil: sql`now() - interval '1 second'` }).where(eq(epakRecipients.id, id));
    await allowResend(id);
    await sendCode(ePakId, Signer.headers);
    expect((await confirm(ePakId, Signer.headers, await lastCode(Signer.user.email))).statusCode).toBe(200);
    expect(await placeOf(ePakId, Signer.user.id)).toMatchObject({ verificationFailures: 0, verificationLockedUntil: null });
  });

  it('delegates once verified, and the delegate verifies afresh', async () => {
    await setMode('ON');
    const { ePakId } = await started([{ type: 'SIGN', recipients: [{ email: Signer.user.email }] }]);
    await sendCode(ePakId, Signer.headers);
    expect((await confirm(ePakId, Signer.headers, await lastCode(Signer.user.email))).statusCode).toBe(200);
    const delegated = await inject(t.app, delegateEpak, { params: { ePakId }, body: { email: Other.user.email }, headers: Signer.headers });
    expect(delegated.statusCode, delegated.body).toBe(200);
    expect(await placeOf(ePakId, Other.user.id)).toMatchObject({ verificationRequired: true, verifiedAt: null });
    expect((await viewerOf(ePakId, Other.headers)).verification).toMatchObject({ required: true, verified: false });
  });

  it('reviews and rejects without a code', async () => {
    await setMode('ON');
    const first = await started([
      { type: 'REVIEW', recipients: [{ email: Other.user.email }] },
      { type: 'SIGN', recipients: [{ email: Signer.user.email }] },
    ]);
    expect((await viewerOf(first.ePakId, Other.headers)).verification).toMatchObject({ required: false });
    // A reviewer has nothing to verify (-6).
    expect((await sendCode(first.ePakId, Other.headers)).json()).toMatchObject({ code: -6 });
    const reviewed = await inject(t.app, setEpakStatus, { body: { ePakId: first.ePakId, status: 'Reviewed' }, headers: Other.headers });
    expect(reviewed.statusCode, reviewed.body).toBe(200);
    const rejected = await inject(t.app, rejectEpak, { params: { ePakId: first.ePakId }, body: { comment: 'Wrong figures' }, headers: Signer.headers });
    expect(rejected.statusCode, rejected.body).toBe(200);
  });

  it('keeps outsiders out (404), and tells a signer of a later step that nothing waits (-28)', async () => {
    await setMode('ON');
    const { ePakId } = await started([
      { type: 'SIGN', recipients: [{ email: Signer.user.email }] },
      { type: 'SIGN', recipients: [{ email: Other.user.email }] },
    ]);
    const elsewhere = await signedInMember(t, { role: 'signer' });
    const bystander = await signedInMember(t, { role: 'signer', tenant: Super.tenant });
    for (const who of [elsewhere, bystander]) {
      const before = await rowsOf(ePakId);
      expect((await sendCode(ePakId, who.headers)).statusCode).toBe(404);
      expect((await confirm(ePakId, who.headers, '123456')).statusCode).toBe(404);
      expect(await rowsOf(ePakId)).toBe(before);
    }
    expect((await sendCode(ePakId, Other.headers)).json()).toMatchObject({ code: -28 });
    expect((await confirm(ePakId, Other.headers, '123456')).json()).toMatchObject({ code: -28 });
  });

  it('works in a signing-link session: an external signer confirms the mailed code and signs', async () => {
    await setMode('DefaultSelectiveOFF');
    const external = `verified-outsider-${counter}@elsewhere.test`;
    const { ePakId, documentId, values } = await started([{ type: 'SIGN', recipients: [{ email: external, verify: true }] }]);
    const [request] = await t.database.db.select().from(outbox).where(and(eq(outbox.recipient, external), eq(outbox.kind, 'epak_sign_request')));
    const token = /\/emailsign\?token=([A-Za-z0-9_-]+)/.exec(request!.body)![1]!;
    const exchanged = await inject(t.app, exchangeEasyToken, { params: { easytoken: token } });
    expect(exchanged.statusCode, exchanged.body).toBe(200);
    const link = { authorization: `Bearer ${exchanged.data.accessToken}` };

    expect((await viewerOf(ePakId, link)).verification).toMatchObject({ required: true, verified: false, maskedPhone: null });
    expect((await sign(ePakId, documentId, link, { values: values(external), reason: 'Agreed', signerName: 'Meera Iyer' })).json()).toMatchObject({ code: -151 });
    expect((await sendCode(ePakId, link)).statusCode).toBe(200);
    expect((await confirm(ePakId, link, await lastCode(external))).statusCode).toBe(200);
    const signed = await sign(ePakId, documentId, link, { values: values(external), reason: 'Agreed', signerName: 'Meera Iyer' });
    expect(signed.statusCode, signed.body).toBe(200);
    expect(signed.data).toMatchObject({ signerStatus: 'Signed', epakStatus: 'Completed' });
  });

  it('counts an in-person signer\'s confirmed code as verification: they sign on the host\'s device without a second code', async () => {
    await setMode('ON');
    const { ePakId, documentId, values } = await started([{ type: 'INPERSONSIGN', recipients: [{ email: Signer.user.email }] }]);
    const { id: recipientId } = await placeOf(ePakId, Signer.user.id);
    const asked = await inject(t.app, authorizeInPersonSigner, { body: { ePakId, recipientId }, as: Owner });
    expect(asked.statusCode, asked.body).toBe(200);
    const [mail] = await t.database.db.select().from(outbox).where(and(eq(outbox.recipient, Signer.user.email), eq(outbox.kind, 'epak_inperson_code'))).orderBy(desc(outbox.createdAt)).limit(1);
    const code = /code is (\d{6})/.exec(mail!.body)![1]!;
    const handed = await inject(t.app, authorizeInPersonSigner, { body: { ePakId, recipientId, otpId: asked.data.otpId!, code }, as: Owner });
    expect(handed.statusCode, handed.body).toBe(200);
    expect((await placeOf(ePakId, Signer.user.id)).verifiedAt).not.toBeNull();
    expect((await actionsOf(ePakId)).at(-1)).toBe('signerVerified');
    const device = { authorization: `Bearer ${handed.data.signAuthToken}` };
    const signed = await sign(ePakId, documentId, device, { values: values(Signer.user.email), reason: 'Agreed' });
    expect(signed.statusCode, signed.body).toBe(200);
  });
});

describe('the lock\'s arithmetic', () => {
  it('locks on every tenth wrong code in a row, doubling from 15 minutes, at most a day', () => {
    const now = new Date('2025-01-01T00:00:00Z');
    const minutes = (failures: number) => {
      const end = verificationLockEnd(failures, now);
      return end ? (end.getTime() - now.getTime()) / 60_000 : null;
    };
    expect([1, 5, 9, 11, 19].map(minutes)).toEqual([null, null, null, null, null]);
    expect([10, 20, 30, 40].map(minutes)).toEqual([15, 30, 60, 120]);
    expect(minutes(200)).toBe(24 * 60);
    expect(minutes(10_000)).toBe(24 * 60);
  });
});
