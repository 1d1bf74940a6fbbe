/**
 * Writes as the user waits for them: signing a step, saving a document's tags, and bulk-composed
 * rows. Each sample is one whole HTTP exchange timed from this side (the request's first byte to
 * the answer's last), one at a time over a keep-alive connection, as a person clicking would make
 * them; p50 and p95 over WRITES_SAMPLES samples (default 200) after a short warm-up. The load
 * average is printed before and after each scenario: on a shared machine it says what the
 * figures are worth. Tests never assert timings.
 *
 * The functions below take a running server (its base URL and a custodian's headers), so they
 * measure whatever database it was started on. `runWriteBenches` starts one as its own process
 * with the demo tenant, on the PostgreSQL at `databaseUrl`:
 *
 *   npm run bench -- writes                 # bench/src/run.ts: a scratch database on BENCH_DATABASE_URL
 *   WRITES_SAMPLES=200 WRITES_WARMUP=10     # samples per scenario, and requests before them not counted
 *   WRITES_BULK_ROWS=5                      # rows of each bulk-compose file in the latency samples
 *   WRITES_BULK_BIG_ROWS=1000               # rows of the one larger file whose throughput is measured
 *   BENCH_PORT=3413
 *
 * Scenarios:
 * - sign: the signer's one request to sign (PAdES revision of a one-page PDF, tag values, the
 *   step and ePak moved on, activity, mail, inbox at commit); every sample is a different ePak,
 *   composed, tagged and started through the API beforehand (not timed).
 * - tag save: the owner saves a draft's tag layout (PUT signatureblocks: ten tags, a composite with
 *   members among them, one text value changed each time), round-robin over ten drafts.
 * - bulk compose: each sample is a file of WRITES_BULK_ROWS rows, timed from the upload's first
 *   byte until the run reads "completed" through the API (polled every 25 ms): what the person who
 *   uploaded it waits for. The job's pick-up (pg-boss polls every 2 s) is part of that wait, so the
 *   server's own composing time per row (the run's finishedOn - startedOn, over its rows) is given
 *   beside it; then one file of WRITES_BULK_BIG_ROWS rows gives rows per second.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { newTag, type Tag } from '@pakt/domain';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { type Answer, startDemoServer, streamUpload } from './demo-server';

const SAMPLES = Number(process.env.WRITES_SAMPLES ?? 200);
const WARMUP = Number(process.env.WRITES_WARMUP ?? 10);
const BULK_ROWS = Number(process.env.WRITES_BULK_ROWS ?? 5);
const BULK_BIG_ROWS = Number(process.env.WRITES_BULK_BIG_ROWS ?? 1000);
const PORT = Number(process.env.BENCH_PORT ?? 3413);

/** A running server and a custodian signed in to it: all a scenario needs. */
export interface WriteTarget {
  readonly base: string;
  /** The custodian's access token and tenant. */
  readonly headers: Record<string, string>;
}

export interface Latencies {
  readonly scenario: string;
  readonly samples: number;
  readonly p50: number;
  readonly p95: number;
  readonly max: number;
  readonly mean: number;
  /** 1, 5 and 15 minutes, before the first sample and after the last. */
  readonly loadBefore: string;
  readonly loadAfter: string;
  /** Anything else the scenario measured, already formatted. */
  readonly notes: string[];
}

const loadavg = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)]!;
}

function summarize(scenario: string, ms: number[], loadBefore: string, notes: string[] = []): Latencies {
  const sorted = [...ms].sort((a, b) => a - b);
  return {
    scenario,
    samples: sorted.length,
    p50: percentile(sorted, 0.5),
    p95: percentile(sorted, 0.95),
    max: sorted.at(-1) ?? 0,
    mean: sorted.reduce((a, b) => a + b, 0) / Math.max(1, sorted.length),
    loadBefore,
    loadAfter: loadavg(),
    notes,
  };
}

// ---------------------------------------------------------------------------------------------
// HTTP: one request at a time over one keep-alive connection, timed to the answer's last byte
// ---------------------------------------------------------------------------------------------

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

interface Timed {
  readonly status: number;
  readonly answer: Answer;
  readonly ms: number;
}

function send(method: string, url: string, headers: Record<string, string>, body?: unknown): Promise<Timed> {
  const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const request = http.request(
      url,
      { method, agent, headers: { ...headers, ...(payload ? { 'content-type': 'application/json', 'content-length': String(payload.length) } : {}) } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          const ms = performance.now() - started;
          const text = Buffer.concat(chunks).toString('utf8');
          try {
            resolve({ status: response.statusCode ?? 0, answer: JSON.parse(text) as Answer, ms });
          } catch {
            reject(new Error(`${method} ${url}: HTTP ${response.statusCode} ${text.slice(0, 300)}`));
          }
        });
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}

/** The answer's data, or an error naming the call when the server said no. */
async function ok(what: string, call: Promise<Timed>): Promise<Record<string, unknown> & { readonly ms: number }> {
  const { status, answer, ms } = await call;
  if (status !== 200 || answer.code !== 1) throw new Error(`${what}: HTTP ${status}, code ${answer.code} ${answer.message ?? ''} ${JSON.stringify(answer).slice(0, 400)}`);
  return { ...answer.data, ms };
}

// ---------------------------------------------------------------------------------------------
// What the scenarios compose: a one-page PDF, a signer's tags, the demo's SIGN step
// ---------------------------------------------------------------------------------------------

/** A small drawn signature (60 × 20 px, a blue stroke), as the signing pad sends it. */
const DRAWN_SIGNATURE =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAADwAAAAUCAYAAADRA14pAAAApElEQVR4Ae3BwW2EQABDUU8PPrvOXwJ1cqYHJ2dEpN0NjCJl3tOyLMvyhw09xKE6OfZtaAKH6tuxb0NPc6hDdcGhDtVDHOpQzeBQh+oFDtXNHKpZHKo3OVQ3cKhDNYtD9SGHOlQfcqhmcahDdQOH6k0O1SwO1c0cqhc41KG6k0N1waEO1UMc6lBdcKhD9UtDP3CoTo59G5rAoTo59m1oWZblv/kC0AFGzK+E9WMAAAAASUVORK5CYII=';

async function writePdf(file: string, title: string): Promise<void> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const page = pdf.addPage([595, 842]);
  page.drawText(title, { x: 72, y: 770, size: 16, font });
  for (let line = 0; line < 30; line++) page.drawText(`Clause ${line + 1}. The parties agree to the terms set out in this clause.`, { x: 72, y: 730 - line * 20, size: 10, font });
  fs.writeFileSync(file, await pdf.save());
}

interface Setup {
  readonly email: string;
  readonly signStateId: string;
  readonly documentId: string;
}

async function setUp(target: WriteTarget, work: string): Promise<Setup> {
  const profile = await ok('profile', send('GET', `${target.base}/msbapi/v1/users/profile`, target.headers));
  const states = (await ok('workflow states', send('GET', `${target.base}/msbapi/v1/workflow/states`, target.headers)))['states'] as { workflowStateId: string; type: string }[];
  const file = path.join(work, 'agreement.pdf');
  await writePdf(file, 'Service agreement (write benchmark)');
  const uploaded = await streamUpload(`${target.base}/msbapi/v1/documents`, target.headers, {}, file, 'agreement.pdf', 'application/pdf');
  const document = JSON.parse(uploaded.body) as Answer;
  if (uploaded.status !== 200 || document.code !== 1) throw new Error(`upload: HTTP ${uploaded.status} ${uploaded.body.slice(0, 300)}`);
  return { email: String(profile['email']), signStateId: states.find((s) => s.type === 'SIGN')!.workflowStateId, documentId: String(document.data['documentId']) };
}

interface Draft {
  readonly epakId: string;
  readonly documentId: string;
  readonly rotate: 0 | 90 | 180 | 270;
}

/** A draft with one SIGN step whose only place is the custodian's own: they sign what they send. */
async function composeDraft(target: WriteTarget, setup: Setup, subject: string): Promise<Draft> {
  const epak = await ok(
    'compose',
    send('POST', `${target.base}/msbapi/v2/epak`, target.headers, {
      subject,
      documentIds: [setup.documentId],
      viewEnforced: false,
      steps: [{ workflowStateId: setup.signStateId, recipients: [{ email: setup.email }] }],
    }),
  );
  const documents = epak['documents'] as { documentId: string; pages: { rotate: 0 | 90 | 180 | 270 }[] }[];
  return { epakId: String(epak['ePakId']), documentId: documents[0]!.documentId, rotate: documents[0]!.pages[0]!.rotate };
}

/**
 * Ten tags of a contract: the signer's signature, reason and fields, a composite (signature with
 * name and date beneath), and fields the owner fills. `variant` changes one text value.
 */
function contractTags(epak: Draft, signer: string, variant: number): Tag[] {
  const uuid = (n: number) => `${epak.epakId.slice(0, 24)}${String(n).padStart(12, '0')}`;
  const place = (n: number, type: Tag['type'], x: number, y: number) => ({ uuid: uuid(n), type, pageNumber: 1, positionX: x, positionY: y });
  // The signer's tags carry their address; the owner's fields are filled at compose time.
  const tag = (n: number, type: Tag['type'], x: number, y: number, extra: Partial<Tag> = {}) => ({ ...newTag({ ...place(n, type, x, y), userEmail: signer }, { rotate: epak.rotate }), ...extra }) as Tag;
  const ownerField = (n: number, x: number, y: number, name: string, value: string) => ({ ...newTag(place(n, 'text', x, y), { rotate: epak.rotate }), name, value, tagFor: 'custodian' }) as Tag;
  return [
    tag(1, 'signature', 40, 40),
    tag(2, 'reason', 40, 100),
    tag(3, 'text', 40, 140, { name: 'Address', validations: { required: { value: true } } }),
    tag(4, 'text', 40, 180, { name: 'Phone' }),
    tag(5, 'composite', 300, 40, { children: [tag(6, 'signature', 300, 40), tag(7, 'text', 300, 100), tag(8, 'timeStamp', 300, 130)] }),
    ownerField(9, 300, 200, 'Contract number', `C-${variant}`),
    ownerField(10, 300, 240, 'Amount', String(1000 + variant)),
  ];
}

// ---------------------------------------------------------------------------------------------
// Scenarios
// ---------------------------------------------------------------------------------------------

/** The owner saves a draft's tags: one text value changed at each save, ten drafts in turn. */
export async function benchTagSaves(target: WriteTarget, options: { samples: number; warmup: number; work: string }): Promise<Latencies> {
  const setup = await setUp(target, options.work);
  const drafts: Draft[] = [];
  for (let n = 0; n < 10; n++) drafts.push(await composeDraft(target, setup, `Tag save bench ${n}`));
  const save = (i: number) => {
    const draft = drafts[i % drafts.length]!;
    return ok('tag save', send('PUT', `${target.base}/msbapi/v2/epaks/${draft.epakId}/documents/${draft.documentId}/signatureblocks`, target.headers, { tags: contractTags(draft, setup.email, i) }));
  };
  for (let i = 0; i < options.warmup; i++) await save(i);
  const loadBefore = loadavg();
  const ms: number[] = [];
  for (let i = 0; i < options.samples; i++) ms.push((await save(options.warmup + i)).ms);
  return summarize('save a draft document\'s tags (PUT signatureblocks, 10 tags)', ms, loadBefore);
}

/** The signer signs: one request per ePak, each ePak composed, tagged and started beforehand. */
export async function benchSigning(target: WriteTarget, options: { samples: number; warmup: number; work: string }): Promise<Latencies> {
  const setup = await setUp(target, options.work);
  const ready: Draft[] = [];
  const prepared = performance.now();
  for (let n = 0; n < options.warmup + options.samples; n++) {
    const draft = await composeDraft(target, setup, `Signing bench ${n}`);
    await ok('tags', send('PUT', `${target.base}/msbapi/v2/epaks/${draft.epakId}/documents/${draft.documentId}/signatureblocks`, target.headers, { tags: contractTags(draft, setup.email, n) }));
    await ok('start', send('POST', `${target.base}/msbapi/v2/epaks/${draft.epakId}/start`, target.headers));
    ready.push(draft);
  }
  const preparedSeconds = (performance.now() - prepared) / 1000;
  const sign = async (draft: Draft) => {
    const tags = contractTags(draft, setup.email, 0);
    const signed = await ok(
      'sign',
      send('POST', `${target.base}/msbapi/v2/epaks/${draft.epakId}/documents/${draft.documentId}/sign`, target.headers, {
        reason: 'I approve this document',
        values: [
          { uuid: tags[0]!.uuid, value: DRAWN_SIGNATURE },
          { uuid: tags[2]!.uuid, value: 'Flat 4B, Pune' },
          { uuid: tags[4]!.children![0]!.uuid, value: DRAWN_SIGNATURE },
        ],
      }),
    );
    if (signed['epakStatus'] !== 'Completed') throw new Error(`sign: the ePak is ${String(signed['epakStatus'])}, not Completed`);
    return signed.ms;
  };
  for (const draft of ready.slice(0, options.warmup)) await sign(draft);
  const loadBefore = loadavg();
  const ms: number[] = [];
  for (const draft of ready.slice(options.warmup)) ms.push(await sign(draft));
  return summarize('sign a step (POST .../sign: PAdES revision, tags, step and ePak completed)', ms, loadBefore, [
    `${ready.length} ePaks composed, tagged and started through the API first in ${preparedSeconds.toFixed(1)} s (3 requests each, not timed here)`,
  ]);
}

/** A document template for bulk compose: a SIGN step for a "Client" placeholder, their signature and reason, an Amount field. */
async function bulkTemplate(target: WriteTarget, work: string): Promise<string> {
  const states = (await ok('workflow states', send('GET', `${target.base}/msbapi/v1/workflow/states`, target.headers)))['states'] as { workflowStateId: string; type: string }[];
  const sign = states.find((s) => s.type === 'SIGN')!;
  const workflow = await ok(
    'workflow',
    send('POST', `${target.base}/msbapi/v2/workflows`, target.headers, {
      name: `Write bench ${Date.now()}`,
      signingPolicy: 'ESIGNATURE',
      steps: [{ workflowStateId: sign.workflowStateId, recipients: [{ type: 'placeholder', label: 'Client' }] }],
    }),
  );
  const file = path.join(work, 'template.pdf');
  await writePdf(file, 'Loan agreement (bulk compose benchmark)');
  const uploaded = await streamUpload(`${target.base}/msbapi/v1/documenttemplate/upload`, target.headers, { name: `Write bench ${Date.now()}`, workflowId: String(workflow['workflowId']) }, file, 'template.pdf', 'application/pdf');
  const template = JSON.parse(uploaded.body) as Answer;
  if (uploaded.status !== 200 || template.code !== 1) throw new Error(`template upload: HTTP ${uploaded.status} ${uploaded.body.slice(0, 300)}`);
  const docTemplateId = String(template.data['docTemplateId']);
  const tag = (init: Record<string, unknown>) => ({ uuid: crypto.randomUUID(), type: 'signature', pageNumber: 1, positionX: 60, positionY: 60, blockWidth: 150, blockHeight: 40, ...init });
  await ok(
    'template tags',
    send('PUT', `${target.base}/msbapi/v1/documenttemplates/${docTemplateId}`, target.headers, {
      tags: [
        tag({ userEmail: 'slot:1.1', wfsOrderId: 1 }),
        tag({ type: 'reason', userEmail: 'slot:1.1', wfsOrderId: 1, positionY: 150, blockHeight: 20 }),
        tag({ type: 'text', name: 'Amount', tagFor: 'custodian', positionY: 300, blockHeight: 20 }),
      ],
    }),
  );
  return docTemplateId;
}

interface BulkRun {
  /** The upload request alone. */
  readonly uploadMs: number;
  /** From the upload's first byte to the run read as completed. */
  readonly waitedMs: number;
  /** The server's own composing time: the run's finishedOn - startedOn. */
  readonly composingMs: number;
  readonly rows: number;
}

let csvCounter = 0;

/** Uploads a CSV of `rows` new people and polls the run until it has completed. */
async function bulkRun(target: WriteTarget, work: string, docTemplateId: string, rows: number): Promise<BulkRun> {
  const tag = `${process.pid}-${Date.now()}-${++csvCounter}`;
  const csv = path.join(work, `bulk-${tag}.csv`);
  let text = 'step1.recipient1.email,step1.recipient1.firstName,step1.recipient1.lastName,step1.recipient1.phone,step1.recipient1.countryCode,Amount\r\n';
  for (let row = 1; row <= rows; row++) text += `person${row}.${tag}@bulk.example,First${row},Last${row},555-123-4567,IN,${row * 10}\r\n`;
  fs.writeFileSync(csv, text);
  const started = performance.now();
  const result = await streamUpload(`${target.base}/msbapi/v1/bulkcompose/upload`, target.headers, { docTemplateId }, csv, `bulk-${tag}.csv`, 'text/csv');
  const uploadMs = performance.now() - started;
  fs.rmSync(csv);
  const answer = JSON.parse(result.body) as Answer;
  if (result.status !== 200 || answer.code !== 1) throw new Error(`bulk upload: HTTP ${result.status} ${result.body.slice(0, 300)}`);
  const runId = (answer.data['run'] as { runId: string }).runId;
  for (;;) {
    const run = (await ok('bulk run', send('GET', `${target.base}/msbapi/v1/bulkcompose/runs/${runId}`, target.headers)))['run'] as Record<string, unknown>;
    if (run['status'] === 'completed' || run['status'] === 'failed') {
      const waitedMs = performance.now() - started;
      if (run['status'] !== 'completed' || run['createdEpaks'] !== rows) throw new Error(`bulk run did not make every ePak: ${JSON.stringify(run)}`);
      const composingMs = Date.parse(String(run['finishedOn'])) - Date.parse(String(run['startedOn']));
      return { uploadMs, waitedMs, composingMs, rows };
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * Bulk compose as its uploader waits for it: `samples` files of `rows` rows, one after another,
 * then one file of `bigRows` rows for the rate.
 */
export async function benchBulkCompose(
  target: WriteTarget,
  options: { samples: number; warmup: number; rows: number; bigRows: number; work: string },
): Promise<Latencies[]> {
  const docTemplateId = await bulkTemplate(target, options.work);
  for (let i = 0; i < Math.min(options.warmup, 3); i++) await bulkRun(target, options.work, docTemplateId, options.rows);
  const loadBefore = loadavg();
  const runs: BulkRun[] = [];
  for (let i = 0; i < options.samples; i++) runs.push(await bulkRun(target, options.work, docTemplateId, options.rows));
  const waited = summarize(`bulk compose a file of ${options.rows} rows, upload to completed as polled (includes the job's pick-up)`, runs.map((r) => r.waitedMs), loadBefore, [
    `upload request alone: p50 ${fmt(percentile(sorted(runs.map((r) => r.uploadMs)), 0.5))} ms, p95 ${fmt(percentile(sorted(runs.map((r) => r.uploadMs)), 0.95))} ms`,
  ]);
  const perRow = summarize(`bulk compose, server composing time per row (run's finishedOn - startedOn / ${options.rows})`, runs.map((r) => r.composingMs / r.rows), loadBefore);
  const bigLoadBefore = loadavg();
  const big = await bulkRun(target, options.work, docTemplateId, options.bigRows);
  const rate: Latencies = {
    scenario: `bulk compose a file of ${options.bigRows} rows (one run)`,
    samples: 1,
    p50: big.waitedMs,
    p95: big.waitedMs,
    max: big.waitedMs,
    mean: big.waitedMs,
    loadBefore: bigLoadBefore,
    loadAfter: loadavg(),
    notes: [
      `${options.bigRows} rows composed in ${(big.composingMs / 1000).toFixed(1)} s by the server (${Math.round((options.bigRows * 1000) / big.composingMs)} rows/s), ` +
        `${(big.waitedMs / 1000).toFixed(1)} s from the upload to completed as polled`,
    ],
  };
  return [waited, perRow, rate];
}

const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const fmt = (ms: number) => (ms >= 100 ? ms.toFixed(0) : ms.toFixed(1));

// ---------------------------------------------------------------------------------------------
// A run of all three, on a server of its own
// ---------------------------------------------------------------------------------------------

export function renderWrites(results: readonly Latencies[], where: string): string {
  return [
    `## Writes as the user waits for them (${where})`,
    '',
    `Run: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, Node ${process.version}, ${os.cpus().length} cores, ` +
      `sequential requests over one keep-alive connection, ${WARMUP} warm-up requests per scenario not counted.`,
    '',
    '| scenario | samples | p50 ms | p95 ms | max ms | mean ms | load average before → after |',
    '|---|---:|---:|---:|---:|---:|---|',
    ...results.map((r) => `| ${r.scenario} | ${r.samples} | ${fmt(r.p50)} | ${fmt(r.p95)} | ${fmt(r.max)} | ${fmt(r.mean)} | ${r.loadBefore} → ${r.loadAfter} |`),
    '',
    ...results.flatMap((r) => r.notes.map((note) => `- ${r.scenario}: ${note}`)),
    '',
  ].join('\n');
}

/**
 * Starts the server (its own process, demo tenant) on the PostgreSQL at `databaseUrl`, or on
 * whatever database the server opens by itself when none is given, runs the three scenarios and
 * prints their table. The caller owns the database.
 */
export async function runWriteBenches(options: { databaseUrl?: string; where: string }): Promise<Latencies[]> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'pakt-bench-writes-'));
  console.log(`write benches on ${options.where}: ${SAMPLES} samples per scenario; load average ${loadavg()}`);
  const { server, base, headers } = await startDemoServer({
    work,
    port: PORT,
    env: {
      // The run outlives the default 15-minute access token.
      ACCESS_TOKEN_TTL_SECONDS: String(6 * 3600),
      ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
    },
  });
  try {
    const target: WriteTarget = { base, headers };
    const results: Latencies[] = [];
    const run = async (name: string, scenario: () => Promise<Latencies | Latencies[]>) => {
      const started = performance.now();
      const measured = [await scenario()].flat();
      for (const r of measured) console.log(`  ${r.scenario}: p50 ${fmt(r.p50)} ms, p95 ${fmt(r.p95)} ms, max ${fmt(r.max)} ms (${r.samples} samples; load ${r.loadBefore} → ${r.loadAfter})`);
      console.log(`  ${name} done in ${((performance.now() - started) / 1000).toFixed(0)} s`);
      results.push(...measured);
    };
    await run('tag saves', () => benchTagSaves(target, { samples: SAMPLES, warmup: WARMUP, work }));
    await run('signing', () => benchSigning(target, { samples: SAMPLES, warmup: WARMUP, work }));
    await run('bulk compose', () => benchBulkCompose(target, { samples: SAMPLES, warmup: WARMUP, rows: BULK_ROWS, bigRows: BULK_BIG_ROWS, work }));
    console.log(`\n${renderWrites(results, options.where)}`);
    return results;
  } finally {
    agent.destroy();
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    fs.rmSync(work, { recursive: true, force: true });
  }
}
