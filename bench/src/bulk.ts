/**
 * Bulk compose at scale (issues 8 and 18), on the embedded PostgreSQL and on an external one, one
 * after the other in one run. For each, the real server runs as its own process with the demo
 * tenant (embedded: a fresh DATA_DIR and no DATABASE_URL; external: a scratch database of
 * BENCH_DATABASE_URL, dropped afterwards); the demo custodian makes a workflow with a "Client"
 * placeholder and a document template (signature, reason and an Amount field for that place)
 * through the API, then uploads a CSV of BULK_ROWS rows (default 100,000, every row a new person)
 * and polls the run until it is completed.
 *
 * Reported per backend: the time from the upload's first byte to the completed run; the server's
 * own composing time (the run's finishedOn - startedOn) and rows per second over it; the rate over
 * each tenth of the rows, from the database (each batch's ePaks carry the batch transaction's start
 * in created_at; a tenth runs from its first batch's start to the next tenth's, the last to the
 * run's finishedOn), so the first and the last 10,000 of 100,000 rows can be compared, with what a
 * row cost in each tenth (CPU, write-ahead log, blocks read, from counters read every 5 s); memory of the
 * server process and its database's processes (VmRSS and Pss summed, sampled every 5 s); the CPU
 * time per row of the server process (with its children) and of PostgreSQL's processes (embedded:
 * the cluster; external: this database's backends), which the machine's load does not change much;
 * and the load average before and after.
 *
 *   npm run bench:bulk -w @pakt/bench        (Linux: /proc is where memory is read)
 *   BULK_ROWS=100000                         # rows of the file
 *   BULK_BACKENDS=embedded,external          # which, in this order
 *   BULK_ANALYZE_SECONDS=30                  # on a database whose server has autovacuum off: ANALYZE it
 *                                            # this often during the run, as autovacuum would (default 0: never)
 *   BENCH_DATABASE_URL=postgres://...        # the external PostgreSQL's admin URL
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { freePort } from '../../apps/server/src/platform/db/embedded-postgres';
import { type Answer, call, resetPeak, startDemoServer, streamUpload } from './demo-server';
import { backendsOf, cpuBetween, type CpuSnapshot, cpuSnapshot, embeddedDatabaseUrl, loadavg, mb, memoryOfProcesses, queryOnce, scratchDatabase, type ScratchDatabase, serverAndDatabasePids, type TreeMemory, versionOf } from './server-process';

const ROWS = Number(process.env.BULK_ROWS ?? 100_000);
const BACKENDS = (process.env.BULK_BACKENDS ?? 'embedded,external').split(',').map((b) => b.trim()) as Label[];
const ANALYZE_SECONDS = Number(process.env.BULK_ANALYZE_SECONDS ?? 0);
/** The flatness target: the last tenth's rate within this share of the first tenth's. */
const FLAT_WITHIN = 0.25;
/** The throughput target: twice the 223 rows/s last recorded (PGlite, 10,000 rows). */
const RATE_TARGET = 446;

type Label = 'embedded' | 'external';

/** A CSV of `rows` rows written a slice at a time; every row a different new person. */
function writeCsv(file: string, rows: number, tag: string): void {
  const fd = fs.openSync(file, 'w');
  fs.writeSync(fd, 'step1.recipient1.email,step1.recipient1.firstName,step1.recipient1.lastName,step1.recipient1.phone,step1.recipient1.countryCode,Amount\r\n');
  for (let start = 1; start <= rows; start += 1000) {
    let chunk = '';
    for (let row = start; row < Math.min(start + 1000, rows + 1); row++) chunk += `person${row}.${tag}@bulk.example,First${row},Last${row},555-123-4567,IN,${row * 10}\r\n`;
    fs.writeSync(fd, chunk);
  }
  fs.closeSync(fd);
}

const ok = (answer: Answer, what: string) => {
  if (answer.code !== 1) throw new Error(`${what} failed: ${answer.code} ${answer.message}`);
  return answer.data;
};

/** The template: a one-page PDF, a SIGN step for "Client", signature + reason for that place, an Amount field. */
async function makeTemplate(base: string, headers: Record<string, string>, work: string): Promise<string> {
  const states = ok(await call('GET', `${base}/msbapi/v1/workflow/states`, undefined, headers), 'states')['states'] as { workflowStateId: string; type: string }[];
  const sign = states.find((s) => s.type === 'SIGN')!;
  const workflow = ok(
    await call('POST', `${base}/msbapi/v2/workflows`, { name: `Bulk bench ${Date.now()}`, signingPolicy: 'ESIGNATURE', steps: [{ workflowStateId: sign.workflowStateId, recipients: [{ type: 'placeholder', label: 'Client' }] }] }, headers),
    'workflow',
  );
  const pdf = await PDFDocument.create();
  pdf.addPage([595, 842]).drawText('Bulk compose benchmark', { x: 72, y: 770, size: 14 });
  const pdfFile = path.join(work, 'template.pdf');
  fs.writeFileSync(pdfFile, await pdf.save());
  const uploaded = await streamUpload(`${base}/msbapi/v1/documenttemplate/upload`, headers, { name: `Bulk bench ${Date.now()}`, workflowId: String(workflow['workflowId']) }, pdfFile, 'template.pdf', 'application/pdf');
  const template = ok(JSON.parse(uploaded.body) as Answer, 'template upload');
  const tag = (init: Record<string, unknown>) => ({ uuid: crypto.randomUUID(), type: 'signature', pageNumber: 1, positionX: 60, positionY: 60, blockWidth: 150, blockHeight: 40, ...init });
  ok(
    await call(
      'PUT',
      `${base}/msbapi/v1/documenttemplates/${String(template['docTemplateId'])}`,
      {
        tags: [
          tag({ userEmail: 'slot:1.1', wfsOrderId: 1 }),
          tag({ type: 'reason', userEmail: 'slot:1.1', wfsOrderId: 1, positionY: 150, blockHeight: 20 }),
          tag({ type: 'text', name: 'Amount', tagFor: 'custodian', positionY: 300, blockHeight: 20 }),
        ],
      },
      headers,
    ),
    'template tags',
  );
  return String(template['docTemplateId']);
}

interface Tenth {
  readonly firstRow: number;
  readonly rows: number;
  readonly seconds: number;
  readonly rowsPerSecond: number;
  /** From the 5-second samples, interpolated to the tenth's first and last row (undefined without two samples). */
  readonly perRow?: PerRow;
}

/** What one row cost over a stretch of the run. */
interface PerRow {
  readonly cpuServerMs: number;
  readonly cpuDatabaseMs: number;
  /** Write-ahead log written, KB, and full-page images in it (cluster-wide: pg_stat_wal). */
  readonly walKb: number;
  readonly fullPageImages: number;
  /** Blocks the database read from the OS (not found in shared_buffers). */
  readonly blocksRead: number;
  /** The 1-minute load average, averaged over the samples in the stretch. */
  readonly load: number;
}

/** Counters read every 5 s during a run, with the rows made so far. */
interface Sample {
  readonly processed: number;
  readonly cpuServer: number;
  readonly cpuDatabase: number;
  readonly walBytes: number;
  readonly fullPageImages: number;
  readonly blocksRead: number;
  readonly load: number;
}

/** Each counter at `row`, interpolated between the samples around it. */
function counterAt(samples: readonly Sample[], row: number): Sample | undefined {
  const after = samples.findIndex((s) => s.processed >= row);
  if (after < 0) return undefined;
  if (after === 0 || samples[after]!.processed === row) return samples[after];
  const [a, b] = [samples[after - 1]!, samples[after]!];
  const f = (row - a.processed) / (b.processed - a.processed);
  const at = (key: keyof Sample) => a[key] + (b[key] - a[key]) * f;
  return { processed: row, cpuServer: at('cpuServer'), cpuDatabase: at('cpuDatabase'), walBytes: at('walBytes'), fullPageImages: at('fullPageImages'), blocksRead: at('blocksRead'), load: at('load') };
}

function perRowBetween(samples: readonly Sample[], from: number, to: number): PerRow | undefined {
  const [a, b] = [counterAt(samples, from), counterAt(samples, to)];
  if (!a || !b || to <= from) return undefined;
  const rows = to - from;
  const inside = samples.filter((s) => s.processed >= from && s.processed <= to);
  return {
    cpuServerMs: ((b.cpuServer - a.cpuServer) * 1000) / rows,
    cpuDatabaseMs: ((b.cpuDatabase - a.cpuDatabase) * 1000) / rows,
    walKb: (b.walBytes - a.walBytes) / 1024 / rows,
    fullPageImages: (b.fullPageImages - a.fullPageImages) / rows,
    blocksRead: (b.blocksRead - a.blocksRead) / rows,
    load: inside.length > 0 ? inside.reduce((n, s) => n + s.load, 0) / inside.length : (a.load + b.load) / 2,
  };
}

interface Result {
  readonly label: Label;
  readonly version: string;
  readonly rows: number;
  readonly fileMb: number;
  readonly acceptedSeconds: number;
  readonly waitedSeconds: number;
  readonly composingSeconds: number;
  readonly run: Record<string, unknown>;
  readonly tenths: Tenth[];
  /** CPU time per row of the server process (and its children) and of the database's processes. */
  readonly cpuMsPerRow: { server: number; database: number };
  readonly before: TreeMemory;
  readonly peakRssMb: number;
  readonly peakPssMb: number;
  readonly serverPeakMb: number;
  readonly loadBefore: string;
  readonly loadAfter: string;
}

/** The rate over each tenth of the rows, from each batch's transaction start (epaks.created_at). */
async function tenthsOf(databaseUrl: string, runId: string, rows: number, finishedAt: Date, samples: readonly Sample[]): Promise<Tenth[]> {
  const size = Math.max(1, Math.ceil(rows / 10));
  const found = await queryOnce<{ tenth: number; rows: string; started: Date }>(
    databaseUrl,
    `select (bulk_row - 1) / $2 as tenth, count(*) as rows, min(created_at) as started
       from epaks where bulk_run_id = $1 group by 1 order by 1`,
    [runId, size],
  );
  return found.map((tenth, at) => {
    const end = found[at + 1]?.started ?? finishedAt;
    const seconds = (end.getTime() - tenth.started.getTime()) / 1000;
    const firstRow = tenth.tenth * size + 1;
    const perRow = perRowBetween(samples, firstRow - 1, firstRow - 1 + Number(tenth.rows));
    return { firstRow, rows: Number(tenth.rows), seconds, rowsPerSecond: Number(tenth.rows) / seconds, ...(perRow ? { perRow } : {}) };
  });
}

async function runOn(label: Label, scratch: ScratchDatabase | undefined): Promise<Result> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), `pakt-bench-bulk-${label}-`));
  const dataDir = path.join(work, 'data');
  let server: ChildProcess | undefined;
  try {
    const demo = await startDemoServer({
      work,
      port: await freePort(),
      env: {
        // A long run outlives the default 15-minute access token.
        ACCESS_TOKEN_TTL_SECONDS: String(24 * 3600),
        ...(scratch ? { DATABASE_URL: scratch.url } : {}),
      },
    });
    server = demo.server;
    const { base, headers } = demo;
    const pid = server.pid!;
    const databaseUrl = scratch ? scratch.url : embeddedDatabaseUrl(dataDir);
    const autovacuum = (await queryOnce<{ autovacuum: string }>(databaseUrl, 'show autovacuum'))[0]!.autovacuum;
    // Without autovacuum nothing analyzes the tables as they grow: plans made while they were small stay.
    const analyzing = ANALYZE_SECONDS > 0 && autovacuum === 'off';
    const version = `${await versionOf(databaseUrl)}, autovacuum ${autovacuum}${analyzing ? `, ANALYZE by the bench every ${ANALYZE_SECONDS} s` : ''}`;
    const pids = async () => serverAndDatabasePids(pid, scratch ? undefined : dataDir, scratch ? await backendsOf(scratch.name) : []);
    const memory = async () => memoryOfProcesses(await pids());
    const samples: Sample[] = [];
    let cpuStart: CpuSnapshot = new Map();
    const sample = async (processed: number) => {
      const [counters] = await queryOnce<{ wal_bytes: number; wal_fpi: number; blks_read: number }>(
        databaseUrl,
        `select (select wal_bytes from pg_stat_wal)::float8 as wal_bytes, (select wal_fpi from pg_stat_wal)::float8 as wal_fpi, blks_read::float8 as blks_read
           from pg_stat_database where datname = current_database()`,
      );
      const cpu = cpuBetween(cpuStart, cpuSnapshot(await pids()));
      samples.push({ processed, cpuServer: cpu.server, cpuDatabase: cpu.database, walBytes: counters!.wal_bytes, fullPageImages: counters!.wal_fpi, blocksRead: counters!.blks_read, load: os.loadavg()[0]! });
    };

    const docTemplateId = await makeTemplate(base, headers, work);
    const tag = `${label}${ROWS}`;
    const csv = path.join(work, `${tag}.csv`);
    writeCsv(csv, ROWS, tag);
    // A few seconds of quiet after the set-up requests, so that the memory before is the resting one.
    await new Promise((resolve) => setTimeout(resolve, 5000));
    const before = await memory();
    resetPeak(pid);
    const loadBefore = loadavg();
    const cpuBefore = cpuSnapshot(await pids());
    cpuStart = cpuBefore;
    await sample(0);
    console.log(`${label} (${version}): ${ROWS} rows, server and database ${mb(before.rssMb)} RSS, ${mb(before.pssMb)} Pss; load ${loadBefore}`);
    const started = Date.now();
    const result = await streamUpload(`${base}/msbapi/v1/bulkcompose/upload`, headers, { docTemplateId }, csv, `${tag}.csv`, 'text/csv');
    const acceptedSeconds = (Date.now() - started) / 1000;
    const run = ok(JSON.parse(result.body) as Answer, 'bulk upload')['run'] as { runId: string };
    let last: Record<string, unknown> = run;
    let peakRssMb = before.rssMb;
    let peakPssMb = before.pssMb;
    let lastSample = 0;
    let lastPrint = Date.now();
    let lastAnalyze = Date.now();
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      if (analyzing && Date.now() - lastAnalyze >= ANALYZE_SECONDS * 1000) {
        lastAnalyze = Date.now();
        await queryOnce(databaseUrl, 'ANALYZE');
      }
      last = ok(await call('GET', `${base}/msbapi/v1/bulkcompose/runs/${run.runId}`, undefined, headers), 'run')['run'] as Record<string, unknown>;
      if (Date.now() - lastSample >= 5000 || last['status'] === 'completed') {
        lastSample = Date.now();
        await sample(Number(last['processedRows']));
        const now = await memory();
        peakRssMb = Math.max(peakRssMb, now.rssMb);
        peakPssMb = Math.max(peakPssMb, now.pssMb);
      }
      if (Date.now() - lastPrint > 30_000) {
        lastPrint = Date.now();
        console.log(`  ${label}: ${String(last['processedRows'])} of ${ROWS} rows after ${((Date.now() - started) / 1000).toFixed(0)} s; load ${loadavg()}`);
      }
      if (last['status'] === 'completed' || last['status'] === 'failed') break;
    }
    const waitedSeconds = (Date.now() - started) / 1000;
    const loadAfter = loadavg();
    const cpu = cpuBetween(cpuBefore, cpuSnapshot(await pids()));
    const cpuMsPerRow = { server: (cpu.server * 1000) / ROWS, database: (cpu.database * 1000) / ROWS };
    if (last['status'] !== 'completed' || last['createdEpaks'] !== ROWS) throw new Error(`${label}: the run did not make every ePak: ${JSON.stringify(last)}`);
    const finishedAt = new Date(String(last['finishedOn']));
    const composingSeconds = (finishedAt.getTime() - new Date(String(last['startedOn'])).getTime()) / 1000;
    const tenths = await tenthsOf(databaseUrl, run.runId, ROWS, finishedAt, samples);
    const serverPeakMb = Number(/^VmHWM:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
    const measured: Result = { label, version, rows: ROWS, fileMb: fs.statSync(csv).size / 1024 / 1024, acceptedSeconds, waitedSeconds, composingSeconds, run: last, tenths, cpuMsPerRow, before, peakRssMb, peakPssMb, serverPeakMb, loadBefore, loadAfter };
    console.log(
      `  ${label}: completed in ${waitedSeconds.toFixed(1)} s (composing ${composingSeconds.toFixed(1)} s, ${(ROWS / composingSeconds).toFixed(0)} rows/s; CPU per row: server ${cpuMsPerRow.server.toFixed(2)} ms, PostgreSQL ${cpuMsPerRow.database.toFixed(2)} ms); tenths: ${tenths.map((t) => t.rowsPerSecond.toFixed(0)).join(', ')} rows/s; load ${loadAfter}`,
    );
    return measured;
  } finally {
    if (server && server.exitCode === null) {
      const exited = new Promise((resolve) => server!.once('exit', resolve));
      server.kill('SIGTERM');
      await exited;
    }
    fs.rmSync(work, { recursive: true, force: true });
  }
}

function render(results: readonly Result[]): string {
  const rate = (r: Result) => r.rows / r.composingSeconds;
  const first = (r: Result) => r.tenths[0]!.rowsPerSecond;
  const lastTenth = (r: Result) => r.tenths.at(-1)!.rowsPerSecond;
  const tenthRows = results[0]?.tenths[0]?.rows ?? 0;
  return [
    '## Bulk compose (CSV to started ePaks)',
    '',
    `Run: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, Node ${process.version}, ${os.cpus().length} cores, \`npm run bench:bulk -w @pakt/bench\` (bench/src/bulk.ts), ` +
      `no pause between batches of 200 rows (BULK_BATCH_PAUSE_MS 0), one backend after the other.`,
    '',
    '| backend | rows | file | upload answered | until completed | server composing | rows/s | first / last ' +
      `${tenthRows.toLocaleString('en')} rows, rows/s | last / first | CPU ms per row: server, PostgreSQL | server + database RSS, Pss before | peak during (sampled 5 s) | server alone peak | load average before → after |`,
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|---|---:|---|',
    ...results.map(
      (r) =>
        `| ${r.label} (${r.version}) | ${r.rows.toLocaleString('en')} | ${r.fileMb.toFixed(1)} MB | ${r.acceptedSeconds.toFixed(1)} s | ${r.waitedSeconds.toFixed(1)} s | ${r.composingSeconds.toFixed(1)} s | ` +
        `**${rate(r).toFixed(0)}** | ${first(r).toFixed(0)} / ${lastTenth(r).toFixed(0)} | ${(lastTenth(r) / first(r)).toFixed(2)} | ${r.cpuMsPerRow.server.toFixed(2)}, ${r.cpuMsPerRow.database.toFixed(2)} | ${mb(r.before.rssMb)}, ${mb(r.before.pssMb)} | ${mb(r.peakRssMb)}, ${mb(r.peakPssMb)} | ${mb(r.serverPeakMb)} | ${r.loadBefore} → ${r.loadAfter} |`,
    ),
    '',
    "Each tenth of the rows: rate, and per row (from counters read every 5 s, interpolated to the tenth's ends) the CPU time of the server and of",
    "PostgreSQL, the write-ahead log written and its full-page images (pg_stat_wal: the whole server's, others' writes included on the",
    'external one), blocks read from the OS, and the 1-minute load average over the tenth:',
    '',
    ...results.flatMap((r) => [
      `${r.label}:`,
      '',
      '| rows from | rows/s | CPU ms/row server | CPU ms/row PostgreSQL | WAL KB/row | full-page images/row | blocks read/row | load |',
      '|---:|---:|---:|---:|---:|---:|---:|---:|',
      ...r.tenths.map((t) => {
        const p = t.perRow;
        const cells = p ? [p.cpuServerMs.toFixed(2), p.cpuDatabaseMs.toFixed(2), p.walKb.toFixed(1), p.fullPageImages.toFixed(2), p.blocksRead.toFixed(2), p.load.toFixed(1)] : ['', '', '', '', '', ''];
        return `| ${t.firstRow.toLocaleString('en')} | ${t.rowsPerSecond.toFixed(0)} | ${cells.join(' | ')} |`;
      }),
      '',
    ]),
    'Targets:',
    '',
    ...results.map(
      (r) =>
        `- ${r.label}: ${rate(r).toFixed(0)} rows/s (target ≥ ${RATE_TARGET}): ${rate(r) >= RATE_TARGET ? 'met' : 'not met'}; ` +
        `last tenth ${((lastTenth(r) / first(r) - 1) * 100).toFixed(0)}% against the first (target within ${FLAT_WITHIN * 100}%): ${Math.abs(lastTenth(r) / first(r) - 1) <= FLAT_WITHIN ? 'met' : 'not met'}.`,
    ),
    '',
  ].join('\n');
}

async function main() {
  if (!fs.existsSync('/proc/self/smaps_rollup')) throw new Error('This benchmark reads memory from /proc (Linux).');
  if (process.env.DATABASE_URL) throw new Error('Unset DATABASE_URL: the embedded server must start without one (BENCH_DATABASE_URL names the external PostgreSQL).');
  console.log(`bulk compose bench: ${ROWS} rows on ${BACKENDS.join(', ')}; ${os.cpus().length} cores, Node ${process.version}, load average ${loadavg()}`);
  const results: Result[] = [];
  for (const label of BACKENDS) {
    if (label === 'embedded') {
      results.push(await runOn(label, undefined));
      continue;
    }
    if (label !== 'external') throw new Error(`BULK_BACKENDS: ${String(label)} is neither embedded nor external`);
    const scratch = await scratchDatabase('pakt_bench_bulk');
    try {
      results.push(await runOn(label, scratch));
    } finally {
      await scratch.drop();
    }
  }
  console.log(`\n${render(results)}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
