/**
 * The embedded PostgreSQL against an external one (issue 18), side by side in one run, on the
 * same requests. Two servers run as their own processes, each with the demo tenant: one on a
 * fresh DATA_DIR with no DATABASE_URL (it starts its own PostgreSQL 18 on DATA_DIR/db), one on a
 * scratch database of the external PostgreSQL (BENCH_DATABASE_URL, dropped afterwards).
 *
 * - Idle memory: after first-run setup (initdb or not, migrations, demo seed) and a few requests,
 *   then BACKENDS_IDLE_SECONDS of quiet, the server process and every process below it (for the
 *   embedded one: its postmaster and the postmaster's children), VmRSS and Pss summed; for the
 *   external one the server process and its backends on the external PostgreSQL. Read again after
 *   the load, idle as long.
 * - Requests: each server gets BACKENDS_EPAKS ePaks in its custodian's Inbox, composed, tagged and
 *   started through the API (the custodian is the signer of their own ePaks). Then, per scenario,
 *   rounds of BACKENDS_SECONDS of autocannon (BENCH_CONNECTIONS connections; uploads: rounds of
 *   BACKENDS_UPLOADS_PER_ROUND uploads over BACKENDS_UPLOAD_CONNECTIONS) alternate between the
 *   two servers (embedded first in even rounds, external first in odd ones) until BACKENDS_ROUNDS
 *   rounds are done and each has at least BACKENDS_MIN_SAMPLES answers. Every answer's whole HTTP
 *   exchange is timed by autocannon; p50 and p95 are over all the 2xx answers of the rounds, req/s is
 *   answers over measured seconds. Scenarios: the Inbox page (50 rows) as installed (kept pages on),
 *   the ePak detail (round-robin over the ePaks), the upload of a small corpus PDF; then both servers
 *   are restarted with INBOX_PAGE_CACHE_ENTRIES=0 and the Inbox page is measured read afresh.
 *   Beside each: the CPU time per answer of the server process (with its children: an upload's
 *   sandbox) and of the database's processes, from /proc, which the machine's load changes less
 *   than the rates.
 *
 *   npm run bench:backends -w @pakt/bench
 *   BACKENDS_SECONDS=5 BACKENDS_ROUNDS=3 BACKENDS_MIN_SAMPLES=200 BENCH_CONNECTIONS=10
 *   BACKENDS_UPLOAD_CONNECTIONS=2 BACKENDS_UPLOADS_PER_ROUND=40
 *   BACKENDS_EPAKS=60 BACKENDS_IDLE_SECONDS=10 BACKENDS_PDF=/path/to/small.pdf
 *   BACKENDS_CACHE_OFF=0                 # skip the restart and the Inbox read afresh
 *   BENCH_DATABASE_URL=postgres://...    # the external PostgreSQL's admin URL
 *
 * Prints a section for docs/benchmarks.md. Tests never assert timings.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { newTag } from '@pakt/domain';
import { freePort } from '../../apps/server/src/platform/db/embedded-postgres';
import { REPO_ROOT } from '../../apps/server/src/paths';
import { type Answer, call, serverBundle, startDemoServer, streamUpload } from './demo-server';
import { backendsOf, cpuBetween, cpuSnapshot, embeddedDatabaseUrl, embeddedPostmaster, loadavg, mb, memoryOfProcesses, PG_ADMIN_URL, scratchDatabase, serverAndDatabasePids, type TreeMemory, versionOf } from './server-process';

const SECONDS = Number(process.env.BACKENDS_SECONDS ?? 5);
/**
 * An upload waits for a sandbox child, two at a time per server (DOCUMENT_PARSERS): uploads go over
 * that many connections (more would only queue), and a round is a number of uploads rather than a
 * time, so none is cut off at a round's end.
 */
const UPLOAD_CONNECTIONS = Number(process.env.BACKENDS_UPLOAD_CONNECTIONS ?? 2);
const UPLOADS_PER_ROUND = Number(process.env.BACKENDS_UPLOADS_PER_ROUND ?? 40);
const ROUNDS = Number(process.env.BACKENDS_ROUNDS ?? 3);
const MIN_SAMPLES = Number(process.env.BACKENDS_MIN_SAMPLES ?? 200);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const EPAKS = Number(process.env.BACKENDS_EPAKS ?? 60);
const IDLE_SECONDS = Number(process.env.BACKENDS_IDLE_SECONDS ?? 10);
const CACHE_OFF = process.env.BACKENDS_CACHE_OFF !== '0';
const PDF = process.env.BACKENDS_PDF ?? path.join(REPO_ROOT, '../shared/corpus/pdfs/plain-1p-pdftex.pdf');
const INBOX_PATH = '/msbapi/v2/epaks?folder=Inbox&pg=0&size=50&sort=sentOn&order=desc';
/** Embedded throughput at least this share of the external one. */
const RATIO_TARGET = 0.85;
const MEMORY_TARGET_MB = 350;

type Label = 'embedded' | 'external';

interface Backend {
  readonly label: Label;
  readonly work: string;
  readonly dataDir: string;
  readonly env: Record<string, string>;
  readonly port: number;
  readonly base: string;
  readonly headers: Record<string, string>;
  /** The external scratch database's name (its backends are counted in its memory). */
  readonly databaseName?: string;
  readonly firstStartSeconds: number;
  server: ChildProcess;
  epakIds: string[];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function startBackend(label: Label, env: Record<string, string>, databaseName?: string): Promise<Backend> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), `pakt-bench-backends-${label}-`));
  const port = await freePort();
  const allEnv = { ACCESS_TOKEN_TTL_SECONDS: String(6 * 3600), ...env };
  const started = performance.now();
  const demo = await startDemoServer({ work, port, env: allEnv });
  return {
    label,
    work,
    dataDir: path.join(work, 'data'),
    env: allEnv,
    port,
    base: demo.base,
    headers: demo.headers,
    ...(databaseName ? { databaseName } : {}),
    firstStartSeconds: (performance.now() - started) / 1000,
    server: demo.server,
    epakIds: [],
  };
}

async function stopServer(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null) return;
  const exited = new Promise((resolve) => server.once('exit', resolve));
  server.kill('SIGTERM');
  const timer = setTimeout(() => server.kill('SIGKILL'), 30_000);
  await exited;
  clearTimeout(timer);
}

/** Stops the server and starts it again on the same data (no --demo: it is seeded), with `extra` in its environment. */
async function restart(backend: Backend, extra: Record<string, string>): Promise<void> {
  await stopServer(backend.server);
  const server = spawn(process.execPath, ['--enable-source-maps', serverBundle()], {
    cwd: REPO_ROOT,
    env: { ...process.env, DATA_DIR: backend.dataDir, HOST: '127.0.0.1', PORT: String(backend.port), LOG_LEVEL: 'warn', RATE_LIMIT_SIGN_IN_PER_MINUTE: '0', RATE_LIMIT_PUBLIC_PER_MINUTE: '0', ...backend.env, ...extra },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  backend.server = server;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`${backend.label} server exited (${server.exitCode}) on restart`);
    try {
      if ((await fetch(`${backend.base}/msbapi/public/alive`)).status === 200) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${backend.label} server did not answer within 120 s of its restart`);
    await sleep(200);
  }
}

function ok(answer: Answer, what: string): Record<string, unknown> {
  if (answer.code !== 1) throw new Error(`${what} failed: ${answer.code} ${answer.message ?? ''}`);
  return answer.data;
}

/** The server process and its database's processes (embedded: the cluster; external: its backends for this database). */
async function pidsOf(backend: Backend): Promise<number[]> {
  const extra = backend.databaseName ? await backendsOf(backend.databaseName) : [];
  return serverAndDatabasePids(backend.server.pid!, backend.label === 'embedded' ? backend.dataDir : undefined, extra);
}

const memoryOf = async (backend: Backend): Promise<TreeMemory> => memoryOfProcesses(await pidsOf(backend));

/** A few requests a person makes on arriving: their profile, the inbox, the liveness check. */
async function aFewRequests(backend: Backend): Promise<void> {
  ok(await call('GET', `${backend.base}/msbapi/v1/users/profile`, undefined, backend.headers), 'profile');
  ok(await call('GET', `${backend.base}${INBOX_PATH}`, undefined, backend.headers), 'inbox');
  for (let i = 0; i < 3; i++) await fetch(`${backend.base}/msbapi/public/alive`);
}

/** EPAKS ePaks in the custodian's Inbox: each composed on the same uploaded document, a signature and a reason for the custodian, started. */
async function seedInbox(backend: Backend): Promise<number> {
  const started = performance.now();
  const { base, headers } = backend;
  const email = String(ok(await call('GET', `${base}/msbapi/v1/users/profile`, undefined, headers), 'profile')['email']);
  const states = ok(await call('GET', `${base}/msbapi/v1/workflow/states`, undefined, headers), 'states')['states'] as { workflowStateId: string; type: string }[];
  const sign = states.find((s) => s.type === 'SIGN')!;
  const uploaded = await streamUpload(`${base}/msbapi/v1/documents`, headers, {}, PDF, path.basename(PDF), 'application/pdf');
  const documentId = String(ok(JSON.parse(uploaded.body) as Answer, 'upload')['documentId']);
  for (let n = 0; n < EPAKS; n++) {
    const epak = ok(
      await call('POST', `${base}/msbapi/v2/epak`, { subject: `Backends bench ${n + 1}`, documentIds: [documentId], viewEnforced: false, steps: [{ workflowStateId: sign.workflowStateId, recipients: [{ email }] }] }, headers),
      'compose',
    );
    const ePakId = String(epak['ePakId']);
    const document = (epak['documents'] as { documentId: string; pages: { rotate: 0 | 90 | 180 | 270 }[] }[])[0]!;
    const tag = (type: 'signature' | 'reason', positionY: number) => newTag({ uuid: crypto.randomUUID(), type, pageNumber: 1, positionX: 60, positionY, userEmail: email }, { rotate: document.pages[0]!.rotate });
    ok(await call('PUT', `${base}/msbapi/v2/epaks/${ePakId}/documents/${document.documentId}/signatureblocks`, { tags: [tag('signature', 60), tag('reason', 150)] }, headers), 'tags');
    ok(await call('POST', `${base}/msbapi/v2/epaks/${ePakId}/start`, undefined, headers), 'start');
    backend.epakIds.push(ePakId);
  }
  return (performance.now() - started) / 1000;
}

interface Scenario {
  readonly key: string;
  readonly name: string;
  /** What autocannon sends (besides connections, duration and the custodian's headers): `path` goes on the server's URL. */
  request(backend: Backend): Partial<autocannon.Options> & { path?: string };
  /** One request by hand, its answer checked, before any round. */
  check(backend: Backend): Promise<void>;
  /** Requests per round, instead of SECONDS of them. */
  readonly amount?: number;
  /** Connections, instead of CONNECTIONS. */
  readonly connections?: number;
}

const boundary = '----pakt-bench-backends';
const uploadBody = () =>
  Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${path.basename(PDF)}"\r\nContent-Type: application/pdf\r\n\r\n`),
    fs.readFileSync(PDF),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);

const inboxScenario = (key: string, name: string): Scenario => ({
  key,
  name,
  request: () => ({ method: 'GET', path: INBOX_PATH }),
  async check(backend) {
    const page = ok(await call('GET', `${backend.base}${INBOX_PATH}`, undefined, backend.headers), 'inbox');
    const items = (page['items'] as unknown[]).length;
    if (page['total'] !== EPAKS || items !== Math.min(50, EPAKS)) throw new Error(`${backend.label} inbox: total ${String(page['total'])}, ${items} items; expected ${EPAKS}`);
  },
});

const SCENARIOS: Scenario[] = [
  inboxScenario('inbox', `Inbox page (GET /msbapi/v2/epaks, 50 of ${EPAKS} rows, kept pages on as installed)`),
  {
    key: 'detail',
    name: 'ePak detail (GET /msbapi/v2/epaks/{id}, round-robin)',
    request: (backend) => ({ requests: backend.epakIds.map((id) => ({ method: 'GET' as const, path: `/msbapi/v2/epaks/${id}` })) }),
    async check(backend) {
      const detail = ok(await call('GET', `${backend.base}/msbapi/v2/epaks/${backend.epakIds[0]}`, undefined, backend.headers), 'detail');
      if (detail['ePakId'] !== backend.epakIds[0]) throw new Error(`${backend.label} detail: another ePak answered`);
    },
  },
  {
    key: 'upload',
    name: `upload a ${(fs.statSync(PDF).size / 1024).toFixed(0)} KB corpus PDF (POST /msbapi/v1/documents, ${path.basename(PDF)})`,
    amount: UPLOADS_PER_ROUND,
    connections: UPLOAD_CONNECTIONS,
    request: () => ({ method: 'POST', path: '/msbapi/v1/documents', body: uploadBody(), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } }),
    async check(backend) {
      const uploaded = await streamUpload(`${backend.base}/msbapi/v1/documents`, backend.headers, {}, PDF, path.basename(PDF), 'application/pdf');
      ok(JSON.parse(uploaded.body) as Answer, 'upload');
    },
  },
];

const AFRESH = inboxScenario('inbox-afresh', `Inbox page, read afresh (the same, INBOX_PAGE_CACHE_ENTRIES=0)`);

interface Round {
  readonly latencies: number[];
  readonly seconds: number;
  readonly non2xx: number;
  readonly errors: number;
  /** CPU seconds of the server process (with its children) and of the database's processes over the round. */
  cpu?: { server: number; database: number };
}

async function drive(backend: Backend, scenario: Scenario, size: { seconds: number } | { amount: number }): Promise<Round> {
  const { path: requestPath, ...request } = scenario.request(backend);
  const latencies: number[] = [];
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon({ url: `${backend.base}${requestPath ?? ''}`, connections: scenario.connections ?? CONNECTIONS, ...('amount' in size ? { amount: size.amount } : { duration: size.seconds }),
        // Seconds an answer may take before it counts as an error: a loaded machine makes uploads slow, not wrong.
        timeout: 120,
        ...request, headers: { ...backend.headers, ...request.headers } }, (error: unknown, done) =>
      error ? reject(error instanceof Error ? error : new Error(String(error))) : resolve(done),
    );
    // Each answer's whole exchange, from the request's first byte to the answer's last, in ms.
    instance.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
      if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
    });
  });
  return { latencies, seconds: result.duration, non2xx: result.non2xx, errors: result.errors };
}

interface Measured {
  readonly backend: Label;
  readonly scenario: string;
  readonly samples: number;
  readonly requestsPerSecond: number;
  readonly p50: number;
  readonly p95: number;
  readonly p99: number;
  readonly rounds: number;
  readonly failures: number;
  /** CPU milliseconds per answer: the server process (with its children), the database's processes. */
  readonly cpuMs: { server: number; database: number };
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)] ?? Number.NaN;
}

/** Warm-up, then alternating rounds until both have ROUNDS rounds and MIN_SAMPLES answers. */
async function sideBySide(backends: readonly Backend[], scenario: Scenario): Promise<{ results: Measured[]; loadBefore: string; loadAfter: string }> {
  for (const backend of backends) await scenario.check(backend);
  for (const backend of backends) {
    const warm = await drive(backend, scenario, scenario.amount === undefined ? { seconds: 2 } : { amount: 4 });
    if (warm.non2xx + warm.errors > 0) throw new Error(`${scenario.key} warm-up on ${backend.label}: ${warm.latencies.length} answers, ${warm.non2xx} non-2xx, ${warm.errors} errors`);
  }
  const rounds = new Map<Label, Round[]>(backends.map((b) => [b.label, []]));
  const loadBefore = loadavg();
  const samples = (label: Label) => rounds.get(label)!.reduce((n, r) => n + r.latencies.length, 0);
  for (let round = 0; round < ROUNDS || backends.some((b) => samples(b.label) < MIN_SAMPLES); round++) {
    if (round >= ROUNDS * 10) throw new Error(`${scenario.key}: fewer than ${MIN_SAMPLES} answers after ${round} rounds`);
    const order = round % 2 === 0 ? backends : [...backends].reverse();
    for (const backend of order) {
      // A second apart: what a round left running (an upload's sandbox child) ends before the next begins.
      await sleep(1000);
      const cpuBefore = cpuSnapshot(await pidsOf(backend));
      const measured = await drive(backend, scenario, scenario.amount === undefined ? { seconds: SECONDS } : { amount: scenario.amount });
      measured.cpu = cpuBetween(cpuBefore, cpuSnapshot(await pidsOf(backend)));
      rounds.get(backend.label)!.push(measured);
      if (measured.non2xx + measured.errors > 0) throw new Error(`${scenario.key} on ${backend.label}: ${measured.non2xx} non-2xx answers, ${measured.errors} errors`);
      console.log(`  ${scenario.key} round ${round + 1} ${backend.label}: ${measured.latencies.length} answers in ${measured.seconds} s${measured.non2xx + measured.errors > 0 ? `, ${measured.non2xx} non-2xx, ${measured.errors} errors` : ''} (load ${loadavg()})`);
    }
  }
  const results = backends.map((backend): Measured => {
    const all = rounds.get(backend.label)!;
    const latencies = all.flatMap((r) => r.latencies).sort((a, b) => a - b);
    const seconds = all.reduce((n, r) => n + r.seconds, 0);
    return {
      backend: backend.label,
      scenario: scenario.key,
      samples: latencies.length,
      requestsPerSecond: latencies.length / seconds,
      p50: percentile(latencies, 0.5),
      p95: percentile(latencies, 0.95),
      p99: percentile(latencies, 0.99),
      rounds: all.length,
      failures: all.reduce((n, r) => n + r.non2xx + r.errors, 0),
      cpuMs: {
        server: (all.reduce((n, r) => n + (r.cpu?.server ?? 0), 0) * 1000) / latencies.length,
        database: (all.reduce((n, r) => n + (r.cpu?.database ?? 0), 0) * 1000) / latencies.length,
      },
    };
  });
  return { results, loadBefore, loadAfter: loadavg() };
}

const ms = (n: number) => (n >= 100 ? n.toFixed(0) : n.toFixed(1));

async function idleMemory(backends: readonly Backend[]): Promise<{ memory: Map<Label, TreeMemory>; load: string }> {
  await sleep(IDLE_SECONDS * 1000);
  const memory = new Map<Label, TreeMemory>();
  for (const backend of backends) memory.set(backend.label, await memoryOf(backend));
  return { memory, load: loadavg() };
}

function describeTree(tree: TreeMemory): string {
  const postgres = tree.processes.filter((p) => p.name.startsWith('postgres'));
  const others = tree.processes.filter((p) => !p.name.startsWith('postgres'));
  const part = (list: typeof tree.processes) => `RSS ${mb(list.reduce((n, p) => n + p.rssMb, 0))}, Pss ${mb(list.reduce((n, p) => n + p.pssMb, 0))}`;
  return `${others.map((p) => p.name).join(' + ')} (${part(others)})${postgres.length > 0 ? ` + ${postgres.length} postgres processes (${part(postgres)})` : ''}`;
}

async function main() {
  if (!fs.existsSync('/proc/self/smaps_rollup')) throw new Error('This benchmark reads memory from /proc (Linux 4.14 or later).');
  if (process.env.DATABASE_URL) throw new Error('Unset DATABASE_URL: the embedded server must start without one (BENCH_DATABASE_URL names the external PostgreSQL).');
  const started = new Date();
  console.log(`backends bench: ${os.cpus().length} cores, Node ${process.version}, load average ${loadavg()}`);
  const scratch = await scratchDatabase('pakt_bench_backends');
  const backends: Backend[] = [];
  try {
    const loadAtStart = loadavg();
    backends.push(await startBackend('embedded', {}));
    backends.push(await startBackend('external', { DATABASE_URL: scratch.url }, scratch.name));
    const [embedded, external] = backends as [Backend, Backend];
    const versions = { embedded: await versionOf(embeddedDatabaseUrl(embedded.dataDir)), external: await versionOf(scratch.url) };
    console.log(`first start: embedded ${embedded.firstStartSeconds.toFixed(1)} s (${versions.embedded}, postmaster ${embeddedPostmaster(embedded.dataDir)}), external ${external.firstStartSeconds.toFixed(1)} s (${versions.external})`);

    for (const backend of backends) await aFewRequests(backend);
    const idleAfterSetup = await idleMemory(backends);
    for (const backend of backends) console.log(`idle after first-run setup, ${backend.label}: RSS ${mb(idleAfterSetup.memory.get(backend.label)!.rssMb)}, Pss ${mb(idleAfterSetup.memory.get(backend.label)!.pssMb)} — ${describeTree(idleAfterSetup.memory.get(backend.label)!)}`);

    const seedSeconds = new Map<Label, number>();
    for (const backend of backends) seedSeconds.set(backend.label, await seedInbox(backend));
    console.log(`seeded ${EPAKS} ePaks: ${backends.map((b) => `${b.label} ${seedSeconds.get(b.label)!.toFixed(1)} s`).join(', ')}`);

    const measured: { scenario: Scenario; results: Measured[]; loadBefore: string; loadAfter: string }[] = [];
    for (const scenario of SCENARIOS) measured.push({ scenario, ...(await sideBySide(backends, scenario)) });
    const idleAfterLoad = await idleMemory(backends);
    for (const backend of backends) console.log(`idle after the load, ${backend.label}: RSS ${mb(idleAfterLoad.memory.get(backend.label)!.rssMb)}, Pss ${mb(idleAfterLoad.memory.get(backend.label)!.pssMb)} — ${describeTree(idleAfterLoad.memory.get(backend.label)!)}`);
    if (CACHE_OFF) {
      for (const backend of backends) await restart(backend, { INBOX_PAGE_CACHE_ENTRIES: '0' });
      measured.push({ scenario: AFRESH, ...(await sideBySide(backends, AFRESH)) });
    }
    const loadAtEnd = loadavg();

    for (const m of measured) for (const r of m.results) if (r.failures > 0) throw new Error(`${m.scenario.key} on ${r.backend}: ${r.failures} non-2xx answers or errors`);

    const lines: string[] = [
      '## Embedded PostgreSQL vs external PostgreSQL',
      '',
      `Run: ${started.toISOString().slice(0, 16).replace('T', ' ')} UTC, \`npm run bench:backends -w @pakt/bench\` (bench/src/backends.ts), Node ${process.version}, ${os.cpus().length} cores, ` +
        `${CONNECTIONS} connections (uploads ${UPLOAD_CONNECTIONS}, the server's sandbox children at once), rounds of ${SECONDS} s (uploads: ${UPLOADS_PER_ROUND} of them) alternating between the two servers (at least ${ROUNDS} each and ${MIN_SAMPLES} answers), after a warm-up of 2 s (4 uploads) each. ` +
        `**Load average ${loadAtStart} at the start, ${loadAtEnd} at the end** (1, 5, 15 min).`,
      '',
      `Embedded: ${versions.embedded} started by the server on a fresh DATA_DIR (no DATABASE_URL; durable, shared_buffers 128MB, JIT off). ` +
        `External: ${versions.external} at ${new URL(PG_ADMIN_URL).host}, a scratch database dropped afterwards. Both servers run as their own processes with their default pool of 10 ` +
        `and the demo tenant; the custodian has ${EPAKS} started ePaks in their Inbox (composed, tagged and started through the API).`,
      '',
      '| request | embedded: req/s, p50, p95 | external: req/s, p50, p95 | embedded / external throughput | answers (embedded, external) | CPU ms per answer, server + PostgreSQL: embedded; external | load average before → after |',
      '|---|---|---|---:|---|---|---|',
      ...measured.map(({ scenario, results, loadBefore, loadAfter }) => {
        const [e, x] = [results.find((r) => r.backend === 'embedded')!, results.find((r) => r.backend === 'external')!];
        const cell = (r: Measured) => `${r.requestsPerSecond.toFixed(r.requestsPerSecond >= 10 ? 0 : 2)} req/s, ${ms(r.p50)} ms, ${ms(r.p95)} ms`;
        const cpu = (r: Measured) => `${r.cpuMs.server.toFixed(2)} + ${r.cpuMs.database.toFixed(2)}`;
        return `| ${scenario.name} | ${cell(e)} | ${cell(x)} | ${(e.requestsPerSecond / x.requestsPerSecond).toFixed(2)} | ${e.samples}, ${x.samples} | ${cpu(e)}; ${cpu(x)} | ${loadBefore} → ${loadAfter} |`;
      }),
      '',
      `Memory of the server process and its database's processes (/proc: VmRSS summed, and Pss from smaps_rollup summed), idle ${IDLE_SECONDS} s:`,
      '',
      '| when | embedded RSS | embedded Pss | external RSS | external Pss | load average |',
      '|---|---:|---:|---:|---:|---|',
      ...[
        ['after first-run setup and a few requests', idleAfterSetup],
        ['after the load above', idleAfterLoad],
      ].map(([when, idle]) => {
        const { memory, load } = idle as Awaited<ReturnType<typeof idleMemory>>;
        const [e, x] = [memory.get('embedded')!, memory.get('external')!];
        return `| ${String(when)} | ${mb(e.rssMb)} | ${mb(e.pssMb)} | ${mb(x.rssMb)} | ${mb(x.pssMb)} | ${load} |`;
      }),
      '',
      `- Embedded, after first-run setup: ${describeTree(idleAfterSetup.memory.get('embedded')!)}; after the load: ${describeTree(idleAfterLoad.memory.get('embedded')!)}.`,
      `- External, after first-run setup: ${describeTree(idleAfterSetup.memory.get('external')!)}; after the load: ${describeTree(idleAfterLoad.memory.get('external')!)} (the external postmaster and its helpers serve every database and are not counted).`,
      `- First start (initdb for the embedded one, migrations, demo seed, sign-in): embedded ${embedded.firstStartSeconds.toFixed(1)} s, external ${external.firstStartSeconds.toFixed(1)} s. ` +
        `Seeding ${EPAKS} ePaks (3 requests each): embedded ${seedSeconds.get('embedded')!.toFixed(1)} s, external ${seedSeconds.get('external')!.toFixed(1)} s.`,
      '',
    ];
    const idleE = idleAfterSetup.memory.get('embedded')!;
    const targets = [
      ...measured.map(({ scenario, results }) => {
        const ratio = results.find((r) => r.backend === 'embedded')!.requestsPerSecond / results.find((r) => r.backend === 'external')!.requestsPerSecond;
        return `- ${scenario.key}: embedded / external ${ratio.toFixed(2)} (target ≥ ${RATIO_TARGET}): ${ratio >= RATIO_TARGET ? 'met' : 'not met'}.`;
      }),
      `- idle memory of the embedded server and its PostgreSQL (Pss) ${mb(idleE.pssMb)} (RSS ${mb(idleE.rssMb)}); target under ${MEMORY_TARGET_MB} MB: ${idleE.pssMb < MEMORY_TARGET_MB ? 'met' : 'not met'} (Pss), ${idleE.rssMb < MEMORY_TARGET_MB ? 'met' : 'not met'} (RSS).`,
    ];
    console.log(`\n${lines.join('\n')}\nTargets:\n${targets.join('\n')}\n`);
  } finally {
    for (const backend of backends) {
      await stopServer(backend.server).catch(() => {});
      fs.rmSync(backend.work, { recursive: true, force: true });
    }
    await scratch.drop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
