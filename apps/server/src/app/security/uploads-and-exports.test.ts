import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { DocumentSummary, EpakDetail, type WorkflowStateDefinition, createEpak, downloadBulkComposeFailures, editEpak, listWorkflowStates, startEpak, uploadBulkCompose } from '@pakt/domain';
import { parseCsv } from '../../platform/csv';
import { eq } from 'drizzle-orm';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBulkCompose } from '../../features/bulk-compose/bulk-compose';
import { documents, documentTemplates, epaks, outbox, workflows } from '../../platform/db/schema';
import { parserQueueOf } from '../../features/documents/parser-queue';
import { deliverOutbox, type MailTransport } from '../../platform/mail/mail-delivery';
import { pinnedDocumentOpener } from '../../features/epaks/pinned-document';
import { multipart } from '../../test/multipart';
import { buildTestApp, type TestApp } from '../../test/test-app';
import { listStates } from '../../features/workflows/workflows';
import { CORPUS } from '../../test/corpus';
import { placeSignatureFields, signedInMember } from '../../test/app-factories';
import { inject } from '../../test/inject';

/**
 * Security regression (issue 17, items 8 and 10), through the HTTP API on an install with two
 * tenants: a CSV export cannot carry a formula hidden behind a blank, an ePak subject cannot carry
 * a mail header, and uploads beyond the parsing queue are refused at once with a clear code.
 */
const PDF = fs.readFileSync(path.join(CORPUS, 'plain-1p-pdftex.pdf'));

let t: TestApp;
type Who = Awaited<ReturnType<typeof member>>;

const member = (role: 'custodian' | 'signer' | 'admin', tenant?: { id: string }) => signedInMember(t, { role, ...(tenant ? { tenant } : {}) });

const uploadPdf = (who: Who) => {
  // Raw: this file's security probes keep their calls raw (here, uploads racing for the parse queue).
  const body = multipart(PDF, 'contract.pdf');
  return t.app.inject({ method: 'POST', url: '/msbapi/v1/documents', headers: { ...who.headers, ...body.headers }, payload: body.payload });
};

let tenantA: Who;
let tenantB: Who;

beforeAll(async () => {
  // One parser and one place in line: small enough to fill from a test.
  t = await buildTestApp({ env: { DOCUMENT_PARSERS: '1', DOCUMENT_PARSE_QUEUE: '1' } });
  tenantA = await member('custodian');
  tenantB = await member('admin');
});
afterAll(() => t.close());

describe('CSV exports', () => {
  /** A bulk compose template in A: one SIGN step for a "Client", and an Amount field (as the bulk compose tests set one up). */
  async function bulkTemplate(who: Who) {
    const db = t.database.db;
    const pdf = await PDFDocument.create();
    pdf.addPage([595, 842]);
    pdf.setTitle(`security ${crypto.randomUUID()}`);
    const stored = await t.context.storage.put(Readable.from([Buffer.from(await pdf.save())]));
    const sign = (await listStates(db, who.tenant.id)).find((state) => state.type === 'SIGN')!;
    const [workflow] = await db
      .insert(workflows)
      .values({ tenantId: who.tenant.id, ownerId: who.user.id, name: `Flow ${crypto.randomUUID()}`, signingPolicy: 'ESIGNATURE', steps: [{ workflowStateId: sign.id, recipients: [{ type: 'placeholder', label: 'Client' }] }] })
      .returning();
    const tag = (init: object) => ({ uuid: crypto.randomUUID(), type: 'signature', pageNumber: 1, positionX: 50, positionY: 50, blockWidth: 150, blockHeight: 40, ...init });
    const [row] = await db
      .insert(documentTemplates)
      .values({
        tenantId: who.tenant.id,
        ownerId: who.user.id,
        name: `Loan ${crypto.randomUUID().slice(0, 8)}`,
        documentName: 'loan.pdf',
        sha256: stored.sha256,
        size: stored.size,
        pageCount: 1,
        pages: [{ width: 595, height: 842, x: 0, y: 0, rotate: 0 }],
        tags: [tag({ userEmail: 'slot:1.1', wfsOrderId: 1 }), tag({ type: 'text', name: 'Amount', tagFor: 'custodian', positionY: 300, blockHeight: 20 })],
        signingPolicy: 'ESIGNATURE',
        workflowId: workflow!.id,
      })
      .returning();
    return row!;
  }

  it('neutralises a formula behind a leading space or tab in the failed-rows export', async () => {
    const template = await bulkTemplate(tenantA);
    const header = 'step1.recipient1.email,step1.recipient1.firstName,step1.recipient1.lastName,Amount';
    // Refused rows (a bad address) come back as uploaded: the export is where a formula would run.
    const csv = [header, `not-an-address,Dee,Kay," =cmd|' /C calc'!A0"`, `also-bad,"\t=HYPERLINK(""http://evil"")",Roy," @SUM(1+1)"`].join('\r\n');
    const upload = await inject(t.app, uploadBulkCompose, { headers: tenantA.headers, body: { docTemplateId: template.id }, file: { bytes: csv, name: 'people.csv', type: 'text/csv' } });
    expect(upload.statusCode, upload.body).toBe(200);
    const runId = upload.json().data.run.runId as string;
    expect(await runBulkCompose({ db: t.database.db, storage: t.context.storage, runId, notify: { publicUrl: 'http://pakt.test', linkDays: 30 } })).toBe('completed');

    const exported = await inject(t.app, downloadBulkComposeFailures, { params: { runId }, headers: tenantA.headers });
    expect(exported.statusCode).toBe(200);
    const rows = parseCsv(exported.body);
    expect(rows[1]!.slice(0, 4)).toEqual(['not-an-address', 'Dee', 'Kay', `' =cmd|' /C calc'!A0`]);
    expect(rows[2]!.slice(1, 4)).toEqual([`'\t=HYPERLINK("http://evil")`, 'Roy', `' @SUM(1+1)`]);
    // No cell of the export starts, after blanks, with a formula character.
    for (const cell of rows.flat()) expect(cell).not.toMatch(/^[\s\p{Cc}]*[=+\-@]/u);

    // The other tenant cannot fetch it at all.
    const other = await inject(t.app, downloadBulkComposeFailures, { params: { runId }, headers: tenantB.headers });
    expect(other.statusCode).toBe(404);
  });
});

describe('ePak subjects and mail headers', () => {
  it('stores and mails a subject with a CRLF header injection as one line', async () => {
    const upload = await uploadPdf(tenantA);
    expect(upload.statusCode, upload.body).toBe(200);
    const documentId = DocumentSummary.parse(upload.json().data).documentId;
    const states = (await inject(t.app, listWorkflowStates, { headers: tenantA.headers })).json().data.states as WorkflowStateDefinition[];
    const sign = states.find((s) => s.type === 'SIGN')!.workflowStateId;
    // The recipient is tenant B's admin: the mail crosses tenants, the injected Bcc must not.
    const created = await inject(t.app, createEpak, { headers: tenantA.headers, body: { subject: 'Offer\r\nBcc: thief@evil.test', documentIds: [documentId], steps: [{ workflowStateId: sign, recipients: [{ email: tenantB.user.email }] }] } });
    expect(created.statusCode, created.body).toBe(200);
    const epak = EpakDetail.parse(created.json().data);
    expect(epak.subject).toBe('Offer Bcc: thief@evil.test');
    const [stored] = await t.database.db.select({ subject: epaks.subject }).from(epaks).where(eq(epaks.id, epak.ePakId));
    expect(stored!.subject).toBe('Offer Bcc: thief@evil.test');

    await placeSignatureFields(t, { owner: tenantA, epak });
    const started = await inject(t.app, startEpak, { params: { ePakId: epak.ePakId }, headers: tenantA.headers });
    expect(started.statusCode, started.body).toBe(200);
    const mails = await t.database.db.select().from(outbox).where(eq(outbox.recipient, tenantB.user.email));
    expect(mails.map((m) => m.subject)).toEqual(['Please sign: Offer Bcc: thief@evil.test']);

    // The edit path too. (Raw read of modifiedOn: this file's security probes keep their calls raw.)
    const edited = await inject(t.app, editEpak, { headers: tenantA.headers, body: { ePakId: epak.ePakId, modifiedOn: (await t.app.inject({ method: 'GET', url: `/msbapi/v2/epaks/${epak.ePakId}`, headers: tenantA.headers })).json().data.modifiedOn, subject: 'Offer v2\nX-Evil: 1\u2028Cc: thief@evil.test' } });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().data.subject).toBe('Offer v2 X-Evil: 1 Cc: thief@evil.test');

    // What goes to nodemailer is one line, and only to the recipient.
    const handed: { to: string; subject: string }[] = [];
    const transport: MailTransport = {
      sendMail: async (message) => {
        handed.push({ to: message.to, subject: message.subject });
        return {};
      },
    };
    await deliverOutbox({ db: t.database.db, openAttachment: pinnedDocumentOpener(t.database.db, t.context.storage), transport, from: 'Pakt <no-reply@pakt.test>' });
    const toB = handed.filter((m) => m.to === tenantB.user.email);
    expect(toB.map((m) => m.subject)).toEqual(['Please sign: Offer Bcc: thief@evil.test']);
    expect(handed.every((m) => !/[\r\n\u2028\u2029]/.test(m.to + m.subject))).toBe(true);
  });
});

describe('parallel uploads', () => {
  /** Lets the event loop run until `done` holds: a condition, not a duration. */
  async function until(done: () => boolean) {
    for (let turns = 0; !done(); turns++) {
      if (turns > 100_000) throw new Error('the condition never held');
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }

  it('waits for a turn, refuses beyond the queue with -2 / 503 and Retry-After, and stores nothing refused', async () => {
    const queue = parserQueueOf(t.context);
    // A parse in progress, held until the test lets it go.
    let release!: () => void;
    const held = queue.run(() => new Promise<void>((resolve) => (release = resolve)));
    await until(() => queue.running === 1);

    const countOf = async (who: Who) => (await t.database.db.select().from(documents).where(eq(documents.ownerId, who.user.id))).length;
    const beforeA = await countOf(tenantA);
    const beforeB = await countOf(tenantB);

    // Tenant A's upload takes the one place in line...
    const waiting = uploadPdf(tenantA);
    await until(() => queue.waiting === 1);
    // ...so tenant B's is refused at once, before any child starts.
    const refused = await uploadPdf(tenantB);
    expect(refused.statusCode).toBe(503);
    expect(refused.json()).toMatchObject({ code: -2, data: { retryAfterSeconds: expect.any(Number) } });
    expect(refused.json().message).toMatch(/busy/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(await countOf(tenantB)).toBe(beforeB);

    release();
    await held;
    const served = await waiting;
    expect(served.statusCode, served.body).toBe(200);
    expect(await countOf(tenantA)).toBe(beforeA + 1);
    expect({ running: queue.running, waiting: queue.waiting }).toEqual({ running: 0, waiting: 0 });

    // With the line free again, B's upload goes through.
    const retried = await uploadPdf(tenantB);
    expect(retried.statusCode, retried.body).toBe(200);
    expect(await countOf(tenantB)).toBe(beforeB + 1);
  });
});
