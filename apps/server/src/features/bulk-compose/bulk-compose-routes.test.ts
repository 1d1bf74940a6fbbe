import { type TagInput, downloadBulkComposeFailures, downloadBulkComposeHeader, getBulkComposeColumns, getBulkComposeRun, listBulkComposeRuns, updateTenantSettings, uploadBulkCompose } from '@pakt/domain';
import { parseCsv } from '../../platform/csv';
import { and, eq, sql } from 'drizzle-orm';
import { PDFDocument } from 'pdf-lib';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBulkCompose, sweepBulkComposeRuns } from './bulk-compose';
import { bulkComposeFailures, bulkComposeRuns, documentTemplates, epakDocuments, epakRecipients, epaks, outbox, users, workflows } from '../../platform/db/schema';
import { verifyActivityChain } from '../epaks/activity';
import { buildTestApp, type TestApp } from '../../test/test-app';
import { listStates } from '../workflows/workflows';
import { signedInMember } from '../../test/app-factories';
import { inject } from '../../test/inject';

/**
 * Bulk compose (issue 8): the header template of a document template, the upload's file-level
 * codes, the job making and starting one ePak per good row and recording the refused ones with
 * their field codes, the failed rows download, and no duplicates for the same file or a resumed
 * run. Anonymous callers, outsiders and wrong roles are walked by http/guarded-endpoints.test.ts.
 */
let t: TestApp;
type Who = { headers: Record<string, string>; user: { id: string; email: string }; tenant: { id: string } };

const member = (role: 'custodian' | 'signer' | 'admin', tenant?: { id: string }) => signedInMember(t, { role, ...(tenant ? { tenant } : {}) });

const tag = (init: Partial<TagInput>) => ({ uuid: crypto.randomUUID(), type: 'signature', pageNumber: 1, positionX: 50, positionY: 50, blockWidth: 150, blockHeight: 40, ...init });

/** A template: a one-page PDF, a SIGN step for a "Client" placeholder, a signature and reason for that place, and an Amount field. */
async function makeTemplate(who: Who, options: { workflow?: boolean; name?: string } = {}) {
  const db = t.database.db;
  const pdf = await PDFDocument.create();
  pdf.addPage([595, 842]);
  pdf.setTitle(`bulk ${crypto.randomUUID()}`);
  const bytes = Buffer.from(await pdf.save());
  const stored = await t.context.storage.put(Readable.from([bytes]));
  const sign = (await listStates(db, who.tenant.id)).find((state) => state.type === 'SIGN')!;
  const [workflow] = await db
    .insert(workflows)
    .values({ tenantId: who.tenant.id, ownerId: who.user.id, name: `Flow ${crypto.randomUUID()}`, signingPolicy: 'ESIGNATURE', steps: [{ workflowStateId: sign.id, recipients: [{ type: 'placeholder', label: 'Client' }] }] })
    .returning();
  const [row] = await db
    .insert(documentTemplates)
    .values({
      tenantId: who.tenant.id,
      ownerId: who.user.id,
      name: options.name ?? `Loan ${crypto.randomUUID().slice(0, 8)}`,
      documentName: 'loan.pdf',
      sha256: stored.sha256,
      size: stored.size,
      pageCount: 1,
      pages: [{ width: 595, height: 842, x: 0, y: 0, rotate: 0 }],
      tags: [
        tag({ userEmail: 'slot:1.1', wfsOrderId: 1 }),
        tag({ type: 'reason', userEmail: 'slot:1.1', wfsOrderId: 1, positionY: 150, blockHeight: 20 }),
        tag({ type: 'text', name: 'Amount', tagFor: 'custodian', positionY: 300, blockHeight: 20 }),
      ],
      signingPolicy: 'ESIGNATURE',
      workflowId: options.workflow === false ? null : workflow!.id,
    })
    .returning();
  return row!;
}

const HEADER = 'step1.recipient1.email,step1.recipient1.firstName,step1.recipient1.lastName,step1.recipient1.phone,step1.recipient1.countryCode,Amount';

function upload(who: Who, docTemplateId: string, csv: string, name = 'people.csv') {
  return inject(t.app, uploadBulkCompose, { as: who, body: { docTemplateId }, file: { bytes: csv, name, type: 'text/csv' } });
}

const work = (runId: string, extra: { batchRows?: number; analyzeAfterAtLeast?: number; onBatch?: (run: { processedRows: number }) => void; signal?: AbortSignal } = {}) =>
  runBulkCompose({ db: t.database.db, storage: t.context.storage, runId, notify: { publicUrl: 'http://pakt.test', linkDays: 30 }, ...extra });

const goodRows = (tag: string) => [
  `ann.${tag}@example.com,Ann,Lee,555-123-4567,IN,100`,
  `bob.${tag}@example.com,Bob,Roy,,,200`,
  `cy.${tag}@example.com,Cy,Das,,us,300`,
];
const badRows = ['not-an-address,Dee,Kay,,,"=HYPERLINK(""http://evil"")"', `eve@example.com,,Moss,,,400`];

beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

describe('the header template', () => {
  it("downloads the template's CSV header and describes its columns; another tenant's template is 404", async () => {
    const who = await member('custodian');
    const template = await makeTemplate(who);
    const res = await inject(t.app, downloadBulkComposeHeader, { params: { docTemplateId: template.id }, headers: who.headers });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.body).toBe(`${HEADER}\r\n`);
    const columns = await inject(t.app, getBulkComposeColumns, { params: { docTemplateId: template.id }, headers: who.headers });
    expect(columns.json().data.columns.filter((c: { mandatory: boolean }) => c.mandatory).map((c: { name: string; label: string }) => `${c.name}:${c.label}`)).toEqual([
      'step1.recipient1.email:Client',
      'step1.recipient1.firstName:Client',
      'step1.recipient1.lastName:Client',
    ]);
    const outsider = await member('custodian');
    const other = await inject(t.app, downloadBulkComposeHeader, { params: { docTemplateId: template.id }, headers: outsider.headers });
    expect(other.statusCode).toBe(404);
  });

  it('refuses a template without a workflow', async () => {
    const who = await member('custodian');
    const template = await makeTemplate(who, { workflow: false });
    const res = await inject(t.app, downloadBulkComposeHeader, { params: { docTemplateId: template.id }, headers: who.headers });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe(-6);
  });
});

describe('uploading a bulk file', () => {
  it('makes and starts an ePak per good row, and records the bad rows with their field codes', async () => {
    const who = await member('custodian');
    const template = await makeTemplate(who);
    const csv = [HEADER, ...goodRows('a'), ...badRows].join('\r\n');
    const res = await upload(who, template.id, csv);
    expect(res.statusCode, res.body).toBe(200);
    const { run, existing } = res.json().data;
    expect(existing).toBe(false);
    expect(run).toMatchObject({ status: 'queued', totalRows: 5, docTemplateId: template.id, templateName: template.name, fileName: 'people.csv' });

    expect(await work(run.runId)).toBe('completed');
    const got = await inject(t.app, getBulkComposeRun, { params: { runId: run.runId }, headers: who.headers });
    expect(got.statusCode, got.body).toBe(200);
    const data = got.json().data;
    expect(data.run).toMatchObject({ status: 'completed', processedRows: 5, createdEpaks: 3, failedRows: 2, code: -174 });
    expect(data.header).toEqual(HEADER.split(','));
    expect(data.failures.map((f: { row: number; errors: { field: string; code: number }[] }) => [f.row, f.errors.map((e) => `${e.field}:${e.code}`)])).toEqual([
      [4, ['step1.recipient1.email:-1']],
      [5, ['step1.recipient1.firstName:-2']],
    ]);

    const made = await t.database.db.select().from(epaks).where(eq(epaks.bulkRunId, run.runId));
    expect(made.map((e) => e.bulkRow).sort()).toEqual([1, 2, 3]);
    for (const epak of made) {
      expect(epak).toMatchObject({ status: 'InProgress', currentStep: 1, docTemplateId: template.id, ownerId: who.user.id, tenantId: who.tenant.id });
      expect((await verifyActivityChain(t.database.db, epak.id)).ok).toBe(true);
    }
    // Row 1's person: a new external user with the row's names, the signature bound to them, the Amount filled.
    const first = made.find((e) => e.bulkRow === 1)!;
    // Told apart by the row's person.
    expect(first.subject).toBe(`${template.name} – Ann Lee`);
    const [recipient] = await t.database.db.select({ email: users.email, firstName: users.firstName, type: users.type, status: epakRecipients.status }).from(epakRecipients).innerJoin(users, eq(users.id, epakRecipients.userId)).where(eq(epakRecipients.epakId, first.id));
    expect(recipient).toEqual({ email: 'ann.a@example.com', firstName: 'Ann', type: 'external', status: 'Pending' });
    const [doc] = await t.database.db.select().from(epakDocuments).where(eq(epakDocuments.epakId, first.id));
    const tags = doc!.tags as { type: string; userEmail?: string; value: unknown }[];
    expect(tags.filter((tg) => tg.type === 'signature').map((tg) => tg.userEmail)).toEqual(['ann.a@example.com']);
    expect(tags.find((tg) => tg.type === 'text')?.value).toBe('100');
    expect(doc!.sha256).toBe(template.sha256);
    // The first step's people are asked to sign, as start asks them.
    const mails = await t.database.db.select().from(outbox).where(eq(outbox.recipient, 'ann.a@example.com'));
    expect(mails.map((m) => m.kind)).toEqual(['epak_sign_request']);

    const csvRes = await inject(t.app, downloadBulkComposeFailures, { params: { runId: run.runId }, headers: who.headers });
    expect(csvRes.statusCode).toBe(200);
    expect(csvRes.headers['content-disposition']).toContain('people-failed-rows.csv');
    const rows = parseCsv(csvRes.body);
    expect(rows[0]).toEqual([...HEADER.split(','), 'errors']);
    expect(rows[1]).toEqual(['not-an-address', 'Dee', 'Kay', '', '', `'=HYPERLINK("http://evil")`, 'step1.recipient1.email: -1 Not an e-mail address.']);
    expect(rows[2]![6]).toContain('step1.recipient1.firstName: -2');

    const list = await inject(t.app, listBulkComposeRuns, { headers: who.headers });
    expect(list.json().data.runs.map((r: { runId: string }) => r.runId)).toEqual([run.runId]);
  });

  it("gives every signer the tenant's verification mode's default (issue 22): no per-row choice", async () => {
    const who = await member('custodian');
    const superAdmin = await signedInMember(t, { role: 'super_admin', tenant: who.tenant });
    expect((await inject(t.app, updateTenantSettings, { as: superAdmin, body: { settings: { verificationMode: 'DefaultSelectiveON' } } })).statusCode).toBe(200);
    const template = await makeTemplate(who);
    const res = await upload(who, template.id, [HEADER, ...goodRows('v')].join('\r\n'));
    expect(await work(res.json().data.run.runId)).toBe('completed');
    const made = await t.database.db
      .select({ required: epakRecipients.verificationRequired })
      .from(epakRecipients)
      .innerJoin(epaks, eq(epaks.id, epakRecipients.epakId))
      .where(eq(epaks.bulkRunId, res.json().data.run.runId));
    expect(made.map((row) => row.required)).toEqual([true, true, true]);
  });

  it('answers the same run for the same file, and makes no ePak twice', async () => {
    const who = await member('custodian');
    const template = await makeTemplate(who);
    const csv = [HEADER, ...goodRows('b')].join('\n');
    const first = (await upload(who, template.id, csv)).json().data;
    await work(first.run.runId);
    const again = await upload(who, template.id, csv, 'renamed.csv');
    expect(again.statusCode).toBe(200);
    expect(again.json().data).toMatchObject({ existing: true, run: { runId: first.run.runId, status: 'completed', createdEpaks: 3 } });
    expect(await work(first.run.runId)).toBeNull();
    expect((await t.database.db.select().from(epaks).where(eq(epaks.bulkRunId, first.run.runId))).length).toBe(3);
    const runs = await t.database.db.select().from(bulkComposeRuns).where(eq(bulkComposeRuns.templateId, template.id));
    expect(runs).toHaveLength(1);
  });

  it('carries a run on after a crash without making any row twice', async () => {
    const who = await member('custodian');
    const template = await makeTemplate(who);
    const csv = [HEADER, ...goodRows('c'), badRows[0]!].join('\n');
    const { run } = (await upload(who, template.id, csv)).json().data;
    // The process dies after the first batch of two rows committed.
    await expect(
      work(run.runId, {
        batchRows: 2,
        onBatch: () => {
          throw new Error('crash');
        },
      }),
    ).rejects.toThrow('crash');
    const [stopped] = await t.database.db.select().from(bulkComposeRuns).where(eq(bulkComposeRuns.id, run.runId));
    expect(stopped).toMatchObject({ status: 'failed', processedRows: 2, createdEpaks: 2 });
    // A crash that left it running, progress lost as well: the unique row index still holds.
    await t.database.db.update(bulkComposeRuns).set({ status: 'running', processedRows: 0, error: null }).where(eq(bulkComposeRuns.id, run.runId));
    expect(await work(run.runId, { batchRows: 2 })).toBe('completed');
    const [done] = await t.database.db.select().from(bulkComposeRuns).where(eq(bulkComposeRuns.id, run.runId));
    expect(done).toMatchObject({ status: 'completed', processedRows: 4, createdEpaks: 3, failedRows: 1 });
    expect((await t.database.db.select().from(epaks).where(eq(epaks.bulkRunId, run.runId))).map((e) => e.bulkRow).sort()).toEqual([1, 2, 3]);
    expect(await t.database.db.select().from(bulkComposeFailures).where(eq(bulkComposeFailures.runId, run.runId))).toHaveLength(1);
  });

  it('goes back to the queue with its progress when the process stops, and the sweep carries it on', async () => {
    const who = await member('custodian');
    const template = await makeTemplate(who);
    const { run } = (await upload(who, template.id, [HEADER, ...goodRows('s')].join('\n'))).json().data;
    // Shutdown is asked for while the first batch is being written.
    const stopping = new AbortController();
    expect(await work(run.runId, { batchRows: 1, signal: stopping.signal, onBatch: () => stopping.abort() })).toBe('stopped');
    const [stopped] = await t.database.db.select().from(bulkComposeRuns).where(eq(bulkComposeRuns.id, run.runId));
    expect(stopped).toMatchObject({ status: 'queued', processedRows: 1, createdEpaks: 1, error: null });
    // An hour on, as another process's sweep would see it.
    expect(await sweepBulkComposeRuns({ db: t.database.db, now: new Date(Date.now() + 3600_000) })).toContain(run.runId);
    expect(await work(run.runId, { batchRows: 1 })).toBe('completed');
    const [done] = await t.database.db.select().from(bulkComposeRuns).where(eq(bulkComposeRuns.id, run.runId));
    expect(done).toMatchObject({ status: 'completed', processedRows: 3, createdEpaks: 3, failedRows: 0 });
    expect((await t.database.db.select().from(epaks).where(eq(epaks.bulkRunId, run.runId))).map((e) => e.bulkRow).sort()).toEqual([1, 2, 3]);
  });

  it('re-queues a failed run when the same file is uploaded again', async () => {
    const who = await member('custodian');
    const template = await makeTemplate(who);
    const csv = [HEADER, ...goodRows('d')].join('\n');
    const { run } = (await upload(who, template.id, csv)).json().data;
    await t.database.db.update(bulkComposeRuns).set({ status: 'failed', error: { code: -1, message: 'stopped' } }).where(eq(bulkComposeRuns.id, run.runId));
    const again = (await upload(who, template.id, csv)).json().data;
    expect(again).toMatchObject({ existing: true, run: { runId: run.runId, status: 'queued', code: 1 } });
    expect(await work(run.runId)).toBe('completed');
  });

  it('analyzes the tables it grows once it has made as many ePaks as their statistics counted', async () => {
    const who = await member('custodian');
    const template = await makeTemplate(who);
    const rowsOf = (tag: string, n: number) => Array.from({ length: n }, (_, i) => `p${i}.${tag}@example.com,P,Q,,,${i}`);
    const single = <T,>(result: unknown) => (result as { rows: T[] }).rows[0]!;
    // Manual ANALYZEs only: autovacuum's own are counted apart (autoanalyze_count).
    const analyzed = async () => single<{ n: number }>(await t.database.db.execute(sql`select analyze_count::int as n from pg_stat_user_tables where relname = 'epak_recipients'`)).n;
    await t.database.db.execute(sql`analyze epaks`);
    const counted = single<{ n: number }>(await t.database.db.execute(sql`select reltuples::int as n from pg_class where relname = 'epaks'`)).n;
    const before = await analyzed();

    const first = (await upload(who, template.id, [HEADER, ...rowsOf('g', 3)].join('\n'))).json().data.run;
    expect(await work(first.runId, { batchRows: 1, analyzeAfterAtLeast: 1_000_000 })).toBe('completed');
    expect(await analyzed()).toBe(before);

    // As many ePaks as were counted (at least one) grow the tables enough: one ANALYZE, then no more.
    const second = (await upload(who, template.id, [HEADER, ...rowsOf('h', counted + 1)].join('\n'))).json().data.run;
    expect(await work(second.runId, { batchRows: 1, analyzeAfterAtLeast: 1 })).toBe('completed');
    expect(await analyzed()).toBe(before + 1);
  });

  it.each([
    ['an empty file', '', -182],
    ['a header alone', `${HEADER}\n`, -182],
    ['a mandatory column missing', 'step1.recipient1.email,step1.recipient1.firstName\na@b.co,A', -181],
    ['a column the template lacks', `${HEADER},Other\n`, -175],
  ])('refuses %s at once with its code and makes no run', async (_name, csv, code) => {
    const who = await member('custodian');
    const template = await makeTemplate(who);
    const res = await upload(who, template.id, csv);
    expect(res.statusCode).toBe(422);
    expect(res.json().code).toBe(code);
    expect(await t.database.db.select().from(bulkComposeRuns).where(eq(bulkComposeRuns.templateId, template.id))).toHaveLength(0);
  });

  it('refuses more rows than the install allows (-143), a limit set by configuration', async () => {
    const who = await member('custodian');
    const template = await makeTemplate(who);
    const limits = t.context.config.bulkCompose;
    t.context.config.bulkCompose = { ...limits, maxRows: 2 };
    try {
      const res = await upload(who, template.id, [HEADER, ...goodRows('e')].join('\n'));
      expect(res.json().code).toBe(-143);
    } finally {
      t.context.config.bulkCompose = limits;
    }
  });

  it("answers 404 for another tenant's template or run, and changes nothing", async () => {
    const who = await member('custodian');
    const template = await makeTemplate(who);
    const { run } = (await upload(who, template.id, [HEADER, ...goodRows('f')].join('\n'))).json().data;
    const outsider = await member('custodian');
    const before = await t.database.db.select().from(bulkComposeRuns);
    expect((await upload(outsider, template.id, [HEADER, ...goodRows('g')].join('\n'))).statusCode).toBe(404);
    for (const endpoint of [getBulkComposeRun, downloadBulkComposeFailures]) {
      expect((await inject(t.app, endpoint, { params: { runId: run.runId }, headers: outsider.headers })).statusCode).toBe(404);
    }
    // A colleague in the same tenant does not see someone else's run either.
    const colleague = await member('custodian', who.tenant);
    expect((await inject(t.app, getBulkComposeRun, { params: { runId: run.runId }, headers: colleague.headers })).statusCode).toBe(404);
    expect(await t.database.db.select().from(bulkComposeRuns)).toEqual(before);
    expect(await t.database.db.select().from(epaks).where(and(eq(epaks.tenantId, outsider.tenant.id)))).toHaveLength(0);
  });
});
