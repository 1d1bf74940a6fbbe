import {
  delegateEpak,
  downloadEpak,
  EpakDetail,
  exchangeEasyToken,
  getEpak,
  rejectEpak,
  removeEpakRecipient,
  setEpakStatus,
  signEpakDocument,
  tenantOutbox,
  type TenantSettings,
} from '@pakt/domain';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { epakDocumentRevisions, epakDocuments, epakLinks, epakRecipients, outbox, tenantSettings } from '../../platform/db/schema';
import { GOOD_PASSWORD, makeMember } from '../../test/factories';
import { bearer, signIn } from '../../test/sign-in';
import { buildTestApp, type TestApp } from '../../test/test-app';
import { pdfFileName } from './download';
import { startEpakWithEmailStep } from '../../test/email-step-support';
import { signatureValues, signedInMember, startedEpak } from '../../test/app-factories';
import { digestSecret } from '../auth';
import { exchangeSigningLink } from './links';
import { appLink, encodedAttachmentSize, MAIL_ATTACHMENT_LIMIT_BYTES, queueEngineEffects } from './notify';
import { inject } from '../../test/inject';

let t: TestApp;
afterEach(() => t.close());

const documentMails = () => t.database.db.select().from(outbox).where(eq(outbox.kind, 'epak_documents')).orderBy(asc(outbox.recipient));

/** The revision each document of the ePak is at now, by position. */
async function latestRevisions(epakId: string) {
  const docs = await t.database.db.select().from(epakDocuments).where(eq(epakDocuments.epakId, epakId)).orderBy(asc(epakDocuments.position));
  const revisions = await t.database.db
    .select()
    .from(epakDocumentRevisions)
    .where(
      inArray(
        epakDocumentRevisions.epakDocumentId,
        docs.map((d) => d.id),
      ),
    )
    .orderBy(asc(epakDocumentRevisions.seq));
  return docs.map((doc) => ({ doc, revision: revisions.filter((r) => r.epakDocumentId === doc.id).at(-1) ?? null }));
}

describe('an EMAIL step', () => {
  it('mails each recipient the documents as they stood, pinned against later signatures', async () => {
    t = await buildTestApp();
    const { first, second, records, outsider, epak, signAll } = await startEpakWithEmailStep(t);
    // Nothing is mailed before the step before it is done.
    expect(await documentMails()).toEqual([]);

    await signAll(first);
    const atStep = await latestRevisions(epak.ePakId);
    const [firstRecipient] = await t.database.db.select().from(epakRecipients).where(eq(epakRecipients.userId, first.user.id));
    // The first signer's revision is the one current when the step ran.
    expect(atStep.map(({ revision }) => revision?.recipientId)).toEqual([firstRecipient!.id, firstRecipient!.id]);
    const expected = atStep.map(({ doc, revision }) => ({ filename: pdfFileName(doc.name), contentType: 'application/pdf', documentId: doc.id, revisionId: revision!.id }));

    const mails = await documentMails();
    expect(mails.map((m) => m.recipient)).toEqual([outsider, records.user.email].sort());
    for (const mail of mails) {
      expect(mail.attachments).toEqual(expected);
      expect(mail.subject).toBe('Documents: Supply agreement');
      expect(mail.body).toContain('They are attached as they stand now.');
      for (const doc of epak.documents) expect(mail.body).toContain(`- ${doc.name}`);
    }
    // The link stays: the member opens the app, the outsider gets a link of their own.
    expect(mails.find((m) => m.recipient === records.user.email)!.body).toContain(`/sign?ePakId=${epak.ePakId}`);
    expect(mails.find((m) => m.recipient === outsider)!.body).toMatch(/\/emailsign\?token=pks_/);

    // The second signer signs after the step: what was mailed still names the earlier revision.
    await signAll(second);
    const after = await latestRevisions(epak.ePakId);
    expect(after.map(({ revision }) => revision!.id)).not.toEqual(expected.map((a) => a.revisionId));
    expect((await documentMails()).map((m) => m.attachments)).toEqual([expected, expected]);
  });

  it('shows admins the attached file names in the outbox, not their content', async () => {
    t = await buildTestApp();
    const { owner, first, records, epak, signAll } = await startEpakWithEmailStep(t);
    await signAll(first);
    const admin = await makeMember(t.database.db, { role: 'admin', tenant: owner.tenant });
    const grant = await signIn(t.app, admin.user.email, GOOD_PASSWORD);
    const res = await inject(t.app, tenantOutbox, { headers: { ...bearer(grant), 'x-tenant-id': owner.tenant.id } });
    expect(res.statusCode, res.body).toBe(200);
    const listed = (res.json().data.messages as { recipient: string; attachments: unknown }[]).find((m) => m.recipient === records.user.email);
    expect(listed!.attachments).toEqual(epak.documents.map((doc) => ({ fileName: pdfFileName(doc.name) })));
  });

  it('sends the link alone, and says why, when the documents are too large to attach', async () => {
    t = await buildTestApp();
    const { records, epak } = await startEpakWithEmailStep(t);
    const [recipient] = await t.database.db
      .select()
      .from(epakRecipients)
      .where(and(eq(epakRecipients.epakId, epak.ePakId), eq(epakRecipients.userId, records.user.id)));
    const docs = await t.database.db.select().from(epakDocuments).where(eq(epakDocuments.epakId, epak.ePakId));
    // What the two documents weigh in a mail (nobody has signed yet: the files as composed).
    const encoded = docs.reduce((sum, doc) => sum + encodedAttachmentSize(doc.size), 0);
    const mail = async (limit: number) => {
      await t.database.db.delete(outbox);
      await queueEngineEffects(t.database.db, {
        epakId: epak.ePakId,
        publicUrl: 'https://pakt.test',
        linkDays: 7,
        effects: [{ type: 'mailDocuments', order: 2, recipientIds: [recipient!.id] }],
        mailAttachmentLimitBytes: limit,
      });
      const [row] = await documentMails();
      return row!;
    };
    // At the limit the files go; one byte under it they do not.
    const atLimit = await mail(encoded);
    expect(atLimit.attachments?.map((a) => a.revisionId)).toEqual([null, null]);
    const over = await mail(encoded - 1);
    expect(over.attachments).toBeNull();
    expect(over.body).toContain('too large to attach');
    expect(over.body).toContain(`Open them here: https://pakt.test/sign?ePakId=${epak.ePakId}`);
  });
});

describe('the attachment limit', () => {
  it('is 10 MiB, counted as base64 in 76-character lines', () => {
    expect(MAIL_ATTACHMENT_LIMIT_BYTES).toBe(10 * 1024 * 1024);
    expect(encodedAttachmentSize(0)).toBe(0);
    expect(encodedAttachmentSize(57)).toBe(78);
    expect(encodedAttachmentSize(58)).toBe(84);
  });
});

const completionMails = () => t.database.db.select().from(outbox).where(eq(outbox.kind, 'epak_completed')).orderBy(asc(outbox.recipient));
const setTenant = (tenantId: string, settings: TenantSettings) => t.database.db.insert(tenantSettings).values({ tenantId, settings });
const DAY_MS = 24 * 3600_000;

describe('the completion mail', () => {
  it('goes to everyone who took part, once each, with the signed documents attached', async () => {
    t = await buildTestApp();
    const { owner, first, records, second, outsider, epak, signAll } = await startEpakWithEmailStep(t);
    await signAll(first);
    // Nothing is mailed as complete before the end.
    expect(await completionMails()).toEqual([]);
    await signAll(second);

    const atEnd = await latestRevisions(epak.ePakId);
    // The last signature is in what is attached.
    const [secondPlace] = await t.database.db.select().from(epakRecipients).where(eq(epakRecipients.userId, second.user.id));
    expect(atEnd.map(({ revision }) => revision?.recipientId)).toEqual([secondPlace!.id, secondPlace!.id]);
    const expected = atEnd.map(({ doc, revision }) => ({ filename: pdfFileName(doc.name), contentType: 'application/pdf', documentId: doc.id, revisionId: revision!.id }));

    const mails = await completionMails();
    expect(mails.map((m) => m.recipient)).toEqual([owner.user.email, first.user.email, records.user.email, second.user.email, outsider].sort());
    for (const mail of mails) {
      expect(mail.subject).toBe('Completed: Supply agreement');
      expect(mail.attachments).toEqual(expected);
      expect(mail.body).toContain('They are attached as signed.');
      expect(mail.body).toContain('certificate of completion');
      for (const doc of epak.documents) expect(mail.body).toContain(`- ${doc.name}`);
    }
    // Members open the app; the outsider gets a link of their own, good for the tenant's days.
    for (const member of [owner, first, records, second]) {
      const body = mails.find((m) => m.recipient === member.user.email)!.body;
      expect(body).toContain(`Open it here: ${appLink(t.context.config.publicUrl, { id: epak.ePakId, tenantId: owner.tenant.id })}`);
      expect(body).not.toContain('/emailsign');
    }
    expect(mails.find((m) => m.recipient === outsider)!.body).toMatch(/Open it here: \S+\/emailsign\?token=pks_\S+\nThis link opens the completed ePak, to read and download, until \d{4}-\d\d-\d\d /);
  });

  it('leaves out whoever handed their place on or was removed, and mails a person of two steps once', async () => {
    t = await buildTestApp();
    const owner = await signedInMember(t, { role: 'custodian' });
    const [a, b, c, d] = await Promise.all(['a', 'b', 'c', 'd'].map(() => signedInMember(t, { role: 'signer', tenant: owner.tenant })));
    const { epak, placed } = await startedEpak(t, {
      owner,
      steps: [
        { type: 'SIGN', recipients: [a!, b!, d!] },
        { type: 'REVIEW', recipients: [a!] },
      ],
    });
    const sign = async (who: typeof a, fieldsOf: string) => {
      for (const doc of epak.documents) {
        const res = await inject(t.app, signEpakDocument, { params: { ePakId: epak.ePakId, documentId: doc.documentId }, body: { values: signatureValues(placed, doc.documentId, fieldsOf) }, as: who! });
        expect(res.statusCode, res.body).toBe(200);
      }
    };
    // b hands their place to c; the owner takes d out of the step.
    expect((await inject(t.app, delegateEpak, { params: { ePakId: epak.ePakId }, body: { email: c!.user.email }, as: b! })).statusCode).toBe(200);
    const [dPlace] = await t.database.db.select().from(epakRecipients).where(and(eq(epakRecipients.epakId, epak.ePakId), eq(epakRecipients.userId, d!.user.id)));
    expect((await inject(t.app, removeEpakRecipient, { params: { ePakId: epak.ePakId }, body: { recipientId: dPlace!.id }, as: owner })).statusCode).toBe(200);
    await sign(a, a!.user.email);
    await sign(c, b!.user.email);
    expect((await inject(t.app, setEpakStatus, { body: { ePakId: epak.ePakId, status: 'Reviewed' }, as: a! })).data).toMatchObject({ status: 'Completed' });

    expect((await completionMails()).map((m) => m.recipient)).toEqual([owner.user.email, a!.user.email, c!.user.email].sort());
  });

  it('goes to the owner alone when the tenant says so', async () => {
    t = await buildTestApp();
    const { owner, first, second, signAll } = await startEpakWithEmailStep(t);
    await setTenant(owner.tenant.id, { completionMailRecipients: 'owner' });
    await signAll(first);
    await signAll(second);
    const mails = await completionMails();
    expect(mails.map((m) => m.recipient)).toEqual([owner.user.email]);
    expect(mails[0]!.attachments).toHaveLength(2);
  });

  it('gives links instead of attachments when the documents are too large for a mail', async () => {
    t = await buildTestApp();
    const { owner, first, second, records, outsider, epak, signAll } = await startEpakWithEmailStep(t);
    await signAll(first);
    await signAll(second);
    const docs = await latestRevisions(epak.ePakId);
    const encoded = docs.reduce((sum, { revision }) => sum + encodedAttachmentSize(revision!.size), 0);
    const complete = async (limit: number) => {
      await t.database.db.delete(outbox);
      await queueEngineEffects(t.database.db, { epakId: epak.ePakId, publicUrl: 'https://pakt.test', linkDays: 7, effects: [{ type: 'completed' }], mailAttachmentLimitBytes: limit });
      return completionMails();
    };
    expect((await complete(encoded)).every((mail) => mail.attachments?.length === 2)).toBe(true);
    const over = await complete(encoded - 1);
    expect(over.map((m) => m.recipient)).toEqual([owner.user.email, first.user.email, records.user.email, second.user.email, outsider].sort());
    for (const mail of over) {
      expect(mail.attachments).toBeNull();
      expect(mail.body).toContain('too large to attach');
    }
    expect(over.find((m) => m.recipient === records.user.email)!.body).toContain(`Open it here: https://pakt.test/sign?ePakId=${epak.ePakId}&tenant=${owner.tenant.id}`);
    expect(over.find((m) => m.recipient === outsider)!.body).toMatch(/Open it here: https:\/\/pakt\.test\/emailsign\?token=pks_/);
  });

  it("opens the completed ePak read-only for an outsider, until the tenant's days are over", async () => {
    t = await buildTestApp();
    const { owner, first, second, outsider, epak, signAll } = await startEpakWithEmailStep(t);
    await setTenant(owner.tenant.id, { completedLinkDays: 3 });
    await signAll(first);
    await signAll(second);
    const completedAt = Date.now();
    const mail = (await completionMails()).find((m) => m.recipient === outsider)!;
    const token = decodeURIComponent(/\/emailsign\?token=(\S+)/.exec(mail.body)![1]!);

    // The link's row: good for three days from the end.
    const [link] = await t.database.db.select().from(epakLinks).where(eq(epakLinks.tokenHash, digestSecret(token)));
    expect(Math.abs(link!.expiresAt.getTime() - (completedAt + 3 * DAY_MS))).toBeLessThan(60_000);

    const exchanged = await inject(t.app, exchangeEasyToken, { params: { easytoken: token } });
    expect(exchanged.statusCode, exchanged.body).toBe(200);
    const headers = { authorization: `Bearer ${exchanged.data.accessToken}` };
    const view = await inject(t.app, getEpak, { params: { ePakId: epak.ePakId }, headers });
    expect(view.statusCode, view.body).toBe(200);
    const detail = EpakDetail.parse(view.data);
    expect(detail.status).toBe('Completed');
    expect(detail.viewer).toMatchObject({ canAct: false });
    // Read and download, never act: there is nothing left to act on.
    expect((await inject(t.app, downloadEpak, { params: { ePakId: epak.ePakId }, headers })).statusCode).toBe(200);
    expect((await inject(t.app, rejectEpak, { params: { ePakId: epak.ePakId }, body: { comment: 'no' }, headers })).statusCode).not.toBe(200);

    // Within the days it opens; after them it answers -42 like any spent link.
    await expect(exchangeSigningLink({ db: t.database.db, token, now: new Date(completedAt + 3 * DAY_MS - 120_000) })).resolves.toMatchObject({ ePakId: epak.ePakId });
    await expect(exchangeSigningLink({ db: t.database.db, token, now: new Date(completedAt + 3 * DAY_MS + 120_000) })).rejects.toMatchObject({ code: -42 });
  });

  it('is queued with the change that completes the ePak: rolled back, nobody is mailed', async () => {
    t = await buildTestApp();
    const { first, second, epak, signAll } = await startEpakWithEmailStep(t);
    await signAll(first);
    await signAll(second);
    await t.database.db.delete(outbox);
    const links = await t.database.db.select().from(epakLinks).where(eq(epakLinks.epakId, epak.ePakId));
    await expect(
      t.database.db.transaction(async (tx) => {
        await queueEngineEffects(tx, { epakId: epak.ePakId, publicUrl: 'https://pakt.test', linkDays: 7, effects: [{ type: 'completed' }] });
        expect((await tx.select().from(outbox)).length).toBe(5);
        throw new Error('the sign failed after the mail was queued');
      }),
    ).rejects.toThrow('the sign failed');
    expect(await t.database.db.select().from(outbox)).toEqual([]);
    // Nor is the outsider's new link kept.
    expect(await t.database.db.select().from(epakLinks).where(eq(epakLinks.epakId, epak.ePakId))).toEqual(links);
  });

  it('is not sent for a rejected or a stopped ePak: the owner hears of the end alone, as before', async () => {
    t = await buildTestApp();
    const rejected = await startEpakWithEmailStep(t);
    expect((await inject(t.app, rejectEpak, { params: { ePakId: rejected.epak.ePakId }, body: { comment: 'Wrong figures' }, as: rejected.first })).statusCode).toBe(200);
    const stopped = await startEpakWithEmailStep(t);
    await stopped.signAll(stopped.first);
    expect((await inject(t.app, setEpakStatus, { body: { ePakId: stopped.epak.ePakId, status: 'Stopped' }, as: stopped.owner })).data).toMatchObject({ status: 'Stopped' });

    expect(await completionMails()).toEqual([]);
    const ends = await t.database.db.select().from(outbox).where(inArray(outbox.kind, ['epak_rejected', 'epak_stopped']));
    expect(ends.map((m) => [m.kind, m.recipient]).sort()).toEqual(
      [
        ['epak_rejected', rejected.owner.user.email],
        ['epak_stopped', stopped.owner.user.email],
      ].sort(),
    );
  });
});
