import { tenantOutbox } from '@pakt/domain';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { epakDocumentRevisions, epakDocuments, epakRecipients, outbox } from '../../platform/db/schema';
import { GOOD_PASSWORD, makeMember } from '../../test/factories';
import { bearer, signIn } from '../../test/sign-in';
import { buildTestApp, type TestApp } from '../../test/test-app';
import { pdfFileName } from './download';
import { startEpakWithEmailStep } from '../../test/email-step-support';
import { encodedAttachmentSize, MAIL_ATTACHMENT_LIMIT_BYTES, queueEngineEffects } from './notify';
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
