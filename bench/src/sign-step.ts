/**
 * One signer's step end to end (issue 23): the HTTP sign request on a running server, from the
 * request to its answer, which comes after the revision's tail is stored and the transaction that
 * records it has committed, side by side with one SHA-256 pass over the same file read from disk
 * in this process, the floor any signer pays.
 *
 * Set-up through the real API, untimed: the server runs as its own process (the bundle an install
 * runs, `--demo`: a tenant with a custodian and a signer), on the embedded PostgreSQL (or a scratch
 * database of an external one); the custodian uploads each file once, then composes, tags (one
 * signature field and a reason field for the signer) and starts one ePak per sample, since a step signs once; the
 * signer opens each document (as the signing page does). Timed: the signer's sign request, with a
 * drawn signature (a PNG) as the value; every round also times the hash pass, alternating which
 * goes first, and the files take turns, so the load of the machine falls on all alike.
 *
 * CPU per request is read from /proc for the processes of the run only: the server, everything
 * below it (the embedded postmaster and its backends), or the external database's backends of the
 * scratch database. Stored bytes per signature are the growth of DATA_DIR/files.
 *
 *   npm run bench:sign-step -w @pakt/bench     (this part alone; bench:seal runs it too)
 *   SEAL_SAMPLES=200       # timed sign requests per file (each a fresh ePak)
 *   SEAL_DATABASE=embedded # or external (BENCH_DATABASE_URL, a scratch database made and dropped)
 *   SEAL_CPU_PROF=1        # profile the server (node --cpu-prof), summed over the sign requests only
 *   SEAL_SERVER_FLAGS="--trace-gc" SEAL_SERVER_LOG=/tmp/server.log   # node flags for the server, and where its output goes
 *   SEAL_PAGES=500 SEAL_MB=20
 */
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import { actOnEpakDocument, authenticate, buildPath, createEpak, createSignatureBlocks, listWorkflowStates, newTag, signEpakDocument, startEpak, uploadDocument } from '@pakt/domain';
import { freePort } from '../../apps/server/src/platform/db/embedded-postgres';
import { REPO_ROOT } from '../../apps/server/src/paths';
import { type Answer, call, serverBundle, streamUpload } from './demo-server';
import { describeSource, makeSealFile, type Source, SOURCES } from './seal-files';
import { backendsOf, cpuBetween, cpuSnapshot, embeddedDatabaseUrl, loadavg, queryOnce, scratchDatabase, serverAndDatabasePids, versionOf } from './server-process';

export type SignStepDatabase = 'embedded' | 'external';

export interface MeasureSignStepsOptions {
  readonly files: ReadonlyArray<{ readonly source: Source; readonly file: string }>;
  readonly pages: number;
  /** Timed sign requests per file. */
  readonly samples: number;
  /** Untimed rounds first (JIT, caches). */
  readonly warmup: number;
  readonly database: SignStepDatabase;
  /** Profile the server process (written here, summarised over the sign requests). */
  readonly profileDir?: string | undefined;
}

export interface Stats {
  readonly p50: number;
  readonly p95: number;
  readonly mean: number;
  readonly min: number;
  readonly max: number;
}

export interface SignStepResult {
  readonly source: Source;
  readonly sizeMb: number;
  readonly samples: number;
  /** Wall time of the sign request, ms. */
  readonly sign: Stats;
  /** Wall time of one read + SHA-256 pass over the file, ms. */
  readonly hash: Stats;
  /** CPU ms per sign request, inside the request: the server process (and its children) and PostgreSQL's processes. */
  readonly cpuServerMs: number;
  readonly cpuDatabaseMs: number;
  /** CPU ms of the hash pass (this process). */
  readonly cpuHashMs: number;
  /** DATA_DIR/files growth per signature, bytes. */
  readonly storedBytesPerSign: number;
}

export interface SignStepRun {
  readonly results: SignStepResult[];
  readonly database: string;
  readonly loadBefore: string;
  readonly loadAfter: string;
  /** The 1-minute load average, averaged over the timed rounds. */
  readonly meanLoad: number;
  /** CPU ms per sign over the whole timed phase (background work the signs caused included, hash passes excluded). */
  readonly phaseCpuServerMsPerSign: number;
  readonly phaseCpuDatabaseMsPerSign: number;
  /** PostgreSQL transactions per sign over the timed phase (each statement outside a transaction is one): the round trips a sign makes, roughly. */
  readonly transactionsPerSign: number;
  readonly profile?: string | undefined;
}

const quantile = (sorted: readonly number[], q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;

export function statsOf(values: readonly number[]): Stats {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: quantile(sorted, 0.5), p95: quantile(sorted, 0.95), mean: values.reduce((n, v) => n + v, 0) / values.length, min: sorted[0]!, max: sorted.at(-1)! };
}

// ---------------------------------------------------------------------------------------------
// A drawn signature: a small PNG with a stroke, as the signing page sends it
// ---------------------------------------------------------------------------------------------

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A 300 × 90 RGBA PNG with a dark blue wave on transparency, as a data URL. */
export function drawnSignature(): string {
  const [width, height] = [300, 90];
  const rows = Buffer.alloc((width * 4 + 1) * height);
  for (let x = 10; x < width - 10; x++) {
    const y = Math.round(height / 2 + 25 * Math.sin(x / 17) * Math.cos(x / 41));
    for (let dy = -1; dy <= 1; dy++) {
      const at = (y + dy) * (width * 4 + 1) + 1 + x * 4;
      rows.set([20, 30, 120, 255], at);
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 6, 0, 0, 0], 8); // 8 bits, RGBA, deflate, no filter method, no interlace
  const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), pngChunk('IHDR', header), pngChunk('IDAT', zlib.deflateSync(rows)), pngChunk('IEND', Buffer.alloc(0))]);
  return `data:image/png;base64,${png.toString('base64')}`;
}

// ---------------------------------------------------------------------------------------------
// The server
// ---------------------------------------------------------------------------------------------

interface Session {
  readonly email: string;
  readonly headers: Record<string, string>;
}

interface SigningServer {
  readonly server: ChildProcessByStdio<null, Readable, null>;
  readonly base: string;
  readonly custodian: Session;
  readonly signer: Session;
  stop(): Promise<void>;
}

const ok = (answer: Answer, what: string) => {
  if (answer.code !== 1) throw new Error(`${what} failed: ${answer.code} ${answer.message ?? JSON.stringify(answer)}`);
  return answer.data;
};

async function signInAs(base: string, email: string, password: string): Promise<Session> {
  const grant = ok(await call(authenticate.method, `${base}${authenticate.path}`, new URLSearchParams({ username: email, password }).toString()), `sign-in of ${email}`);
  const user = grant['user'] as { tenants: { tenantUuid: string }[] };
  return { email, headers: { authorization: `Bearer ${String(grant['accessToken'])}`, 'x-tenant-id': user.tenants[0]!.tenantUuid } };
}

/** The server bundle with `--demo` on `work/data`; its demo custodian and signer signed in. */
async function startSigningServer(options: { work: string; env: Record<string, string>; profileDir?: string | undefined }): Promise<SigningServer> {
  const port = await freePort();
  const profile = options.profileDir ? ['--cpu-prof', `--cpu-prof-dir=${options.profileDir}`] : [];
  // SEAL_SERVER_FLAGS="--trace-gc" and the like, for a closer look; SEAL_SERVER_LOG=file keeps what the server prints.
  const flags = (process.env.SEAL_SERVER_FLAGS ?? '').split(' ').filter(Boolean);
  const server = spawn(process.execPath, [...profile, ...flags, '--enable-source-maps', serverBundle(), '--demo'], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      DATA_DIR: path.join(options.work, 'data'),
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      // All the load comes from one address, and the set-up outlives the default 15-minute token.
      RATE_LIMIT_SIGN_IN_PER_MINUTE: '0',
      RATE_LIMIT_PUBLIC_PER_MINUTE: '0',
      ACCESS_TOKEN_TTL_SECONDS: String(24 * 3600),
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));
  const stop = async () => {
    if (server.exitCode !== null || server.signalCode !== null) return;
    // SIGTERM: the server closes (its embedded PostgreSQL too) and exits normally, so --cpu-prof writes its profile.
    server.kill('SIGTERM');
    const timer = setTimeout(() => server.kill('SIGKILL'), 30_000);
    await exited;
    clearTimeout(timer);
  };
  try {
    let out = '';
    const accounts = await new Promise<Map<string, { email: string; password: string }>>((resolve, reject) => {
      server.once('exit', () => reject(new Error(`server exited:\n${out}`)));
      const log = process.env.SEAL_SERVER_LOG;
      server.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        if (log) fs.appendFileSync(log, chunk);
        out += chunk;
        if (!/Sign in at/.test(out)) return;
        const found = new Map<string, { email: string; password: string }>();
        for (const match of out.matchAll(/^\s+(\w+)\s+(\S+@\S+)\s+(\S+)$/gm)) found.set(match[1]!, { email: match[2]!, password: match[3]! });
        resolve(found);
      });
    });
    const base = `http://127.0.0.1:${port}`;
    const [custodian, signer] = [accounts.get('custodian'), accounts.get('signer')];
    if (!custodian || !signer) throw new Error(`the demo accounts were not printed:\n${out}`);
    return { server, base, custodian: await signInAs(base, custodian.email, custodian.password), signer: await signInAs(base, signer.email, signer.password), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------
// Set-up: one started ePak per sample
// ---------------------------------------------------------------------------------------------

interface ReadyStep {
  readonly ePakId: string;
  readonly documentId: string;
  readonly tagUuid: string;
}

async function uploadOnce(base: string, custodian: Session, file: string, source: Source) {
  const uploaded = await streamUpload(`${base}${uploadDocument.path}`, custodian.headers, {}, file, `${source}.pdf`, 'application/pdf');
  const data = ok(JSON.parse(uploaded.body) as Answer, `upload of ${source}`);
  return { documentId: String(data['documentId']), pages: data['pages'] as Array<{ rotate: 0 | 90 | 180 | 270 }> };
}

async function prepareStep(options: {
  base: string;
  custodian: Session;
  signer: Session;
  signState: string;
  document: { documentId: string; pages: Array<{ rotate: 0 | 90 | 180 | 270 }> };
  pageNumber: number;
  label: string;
}): Promise<ReadyStep> {
  const { base, custodian, signer, document, pageNumber } = options;
  const epak = ok(
    await call(
      createEpak.method,
      `${base}${createEpak.path}`,
      {
        subject: `Seal bench ${options.label}`,
        documentIds: [document.documentId],
        signingPolicy: 'ESIGNATURE',
        viewEnforced: false,
        steps: [{ workflowStateId: options.signState, recipients: [{ email: signer.email }] }],
      },
      custodian.headers,
    ),
    'compose',
  );
  const ePakId = String(epak['ePakId']);
  const documentId = String((epak['documents'] as Array<{ documentId: string }>)[0]!.documentId);
  const tagUuid = crypto.randomUUID();
  const place = { pageNumber, userEmail: signer.email, wfsOrderId: 1 };
  const page = { rotate: document.pages[pageNumber - 1]!.rotate };
  // The default policy (ESIGNATURE) asks each signer for a reason as well: a field the server fills from the request's reason.
  const tags = [newTag({ uuid: tagUuid, type: 'signature', positionX: 60, positionY: 60, ...place }, page), newTag({ uuid: crypto.randomUUID(), type: 'reason', positionX: 60, positionY: 160, ...place }, page)];
  ok(await call(createSignatureBlocks.method, `${base}${buildPath(createSignatureBlocks.path, { ePakId, documentId })}`, { tags }, custodian.headers), 'signature fields');
  ok(await call(startEpak.method, `${base}${buildPath(startEpak.path, { ePakId })}`, {}, custodian.headers), 'start');
  // The signing page records that the signer opened the document before they sign.
  ok(await call(actOnEpakDocument.method, `${base}${buildPath(actOnEpakDocument.path, { epakId: ePakId, documentId, action: 'view' })}`, undefined, signer.headers), 'view');
  return { ePakId, documentId, tagUuid };
}

// ---------------------------------------------------------------------------------------------
// Timed rounds
// ---------------------------------------------------------------------------------------------

function directoryBytes(dir: string): number {
  if (!fs.existsSync(dir)) return 0;
  let total = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    total += entry.isDirectory() ? directoryBytes(full) : fs.statSync(full).size;
  }
  return total;
}

/** One read of the file from disk and one SHA-256 pass over it: wall ms and this process's CPU ms. */
function hashPass(file: string): { ms: number; cpuMs: number } {
  const cpu = process.cpuUsage();
  const started = performance.now();
  crypto.createHash('sha256').update(fs.readFileSync(file)).digest();
  const ms = performance.now() - started;
  const spent = process.cpuUsage(cpu);
  return { ms, cpuMs: (spent.user + spent.system) / 1000 };
}

/** Now on the monotonic clock, in µs: the clock V8's CPU profiles stamp their samples with. */
const monotonicMicros = () => Number(process.hrtime.bigint() / 1000n);

export async function measureSignSteps(options: MeasureSignStepsOptions): Promise<SignStepRun> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'pakt-bench-sign-step-'));
  const dataDir = path.join(work, 'data');
  const scratch = options.database === 'external' ? await scratchDatabase('pakt_bench_seal') : undefined;
  let running: SigningServer | undefined;
  try {
    running = await startSigningServer({ work, env: scratch ? { DATABASE_URL: scratch.url } : {}, profileDir: options.profileDir });
    const { base, custodian, signer, server } = running;
    const databaseUrl = scratch ? scratch.url : embeddedDatabaseUrl(dataDir);
    const database = `${options.database} ${await versionOf(databaseUrl)}`;
    const pids = async () => serverAndDatabasePids(server.pid!, scratch ? undefined : dataDir, scratch ? await backendsOf(scratch.name) : []);

    const { states } = ok(await call(listWorkflowStates.method, `${base}${listWorkflowStates.path}`, undefined, custodian.headers), 'workflow states') as unknown as {
      states: Array<{ workflowStateId: string; type: string }>;
    };
    const signState = states.find((state) => state.type === 'SIGN')!.workflowStateId;
    const pageNumber = Math.max(1, Math.floor(options.pages / 2));
    const rounds = options.warmup + options.samples;
    const steps = new Map<Source, ReadyStep[]>();
    for (const { source, file } of options.files) {
      const started = performance.now();
      const document = await uploadOnce(base, custodian, file, source);
      // One at a time: two composes of one custodian at once can deadlock in PostgreSQL (seen
      // once here, answered -2), and the set-up is not what is measured.
      const ready: ReadyStep[] = [];
      for (let index = 0; index < rounds; index++) ready.push(await prepareStep({ base, custodian, signer, signState, document, pageNumber, label: `${source} ${index + 1}` }));
      steps.set(source, ready);
      console.log(`  ${source}: uploaded once and ${rounds} ePaks started in ${((performance.now() - started) / 1000).toFixed(0)} s; load ${loadavg()}`);
    }

    const value = drawnSignature();
    const sign = async (step: ReadyStep) => {
      const url = `${base}${buildPath(signEpakDocument.path, { ePakId: step.ePakId, documentId: step.documentId })}`;
      const before = cpuSnapshot(await pids());
      const window: [number, number] = [monotonicMicros(), 0];
      const started = performance.now();
      const answer = await call(signEpakDocument.method, url, { action: 'SIGN', values: [{ uuid: step.tagUuid, value }], reason: 'I approve this document' }, signer.headers);
      const ms = performance.now() - started;
      window[1] = monotonicMicros();
      const cpu = cpuBetween(before, cpuSnapshot(await pids()));
      const result = ok(answer, 'sign');
      if (result['revision'] !== 1 || result['documentStatus'] !== 'Signed') throw new Error(`unexpected sign answer ${JSON.stringify(result)}`);
      return { ms, cpu, window };
    };

    const measured = new Map<Source, { sign: number[]; hash: number[]; cpuServer: number; cpuDatabase: number; cpuHash: number }>(
      options.files.map(({ source }) => [source, { sign: [], hash: [], cpuServer: 0, cpuDatabase: 0, cpuHash: 0 }]),
    );
    const windows: Array<[number, number, Source]> = [];
    const loads: number[] = [];
    const filesDir = path.join(dataDir, 'files');
    const transactions = async () =>
      Number((await queryOnce<{ n: string }>(databaseUrl, 'select xact_commit + xact_rollback as n from pg_stat_database where datname = current_database()'))[0]!.n);
    let transactionsBefore = 0;
    let storedBefore = 0;
    let phaseBefore = cpuSnapshot([]);
    let loadBefore = loadavg();
    for (let round = 0; round < rounds; round++) {
      const timed = round >= options.warmup;
      if (round === options.warmup) {
        storedBefore = directoryBytes(filesDir);
        // PostgreSQL publishes a backend's counters at most once a second: let the set-up's reach them first.
        await new Promise((resolve) => setTimeout(resolve, 1500));
        transactionsBefore = await transactions();
        loadBefore = loadavg();
        phaseBefore = cpuSnapshot(await pids());
        console.log(`  timing ${options.samples} rounds; load ${loadBefore}`);
      }
      // The files take turns going first, and so do the sign request and the hash pass.
      const files = round % 2 === 0 ? options.files : [...options.files].reverse();
      for (const { source, file } of files) {
        const into = measured.get(source)!;
        const doHash = () => {
          const pass = hashPass(file);
          if (timed) {
            into.hash.push(pass.ms);
            into.cpuHash += pass.cpuMs;
          }
        };
        const doSign = async () => {
          const signed = await sign(steps.get(source)![round]!);
          if (timed) {
            into.sign.push(signed.ms);
            into.cpuServer += signed.cpu.server;
            into.cpuDatabase += signed.cpu.database;
            windows.push([...signed.window, source]);
          }
        };
        if (Math.floor(round / 2) % 2 === 0) {
          doHash();
          await doSign();
        } else {
          await doSign();
          doHash();
        }
      }
      if (timed) loads.push(os.loadavg()[0]!);
      if (timed && (round - options.warmup + 1) % 50 === 0) console.log(`  ${round - options.warmup + 1} of ${options.samples} rounds; load ${loadavg()}`);
    }
    const phase = cpuBetween(phaseBefore, cpuSnapshot(await pids()));
    const loadAfter = loadavg();
    await new Promise((resolve) => setTimeout(resolve, 1500));
    // Less this bench's own two reads of the counter.
    const transactionsPerSign = ((await transactions()) - transactionsBefore - 1) / (options.samples * options.files.length);
    const stored = directoryBytes(filesDir) - storedBefore;
    const signs = options.samples * options.files.length;
    const results = options.files.map(({ source, file }): SignStepResult => {
      const m = measured.get(source)!;
      return {
        source,
        sizeMb: fs.statSync(file).size / 1024 / 1024,
        samples: m.sign.length,
        sign: statsOf(m.sign),
        hash: statsOf(m.hash),
        cpuServerMs: (m.cpuServer * 1000) / m.sign.length,
        cpuDatabaseMs: (m.cpuDatabase * 1000) / m.sign.length,
        cpuHashMs: m.cpuHash / m.hash.length,
        // Both files' tails land in one directory: each signature's share.
        storedBytesPerSign: stored / signs,
      };
    });
    await running.stop();
    const profile = options.profileDir ? summarizeProfile(options.profileDir, windows) : undefined;
    return {
      results,
      database,
      loadBefore,
      loadAfter,
      meanLoad: loads.reduce((n, l) => n + l, 0) / loads.length,
      phaseCpuServerMsPerSign: (phase.server * 1000) / signs,
      phaseCpuDatabaseMsPerSign: (phase.database * 1000) / signs,
      transactionsPerSign,
      profile,
    };
  } finally {
    await running?.stop();
    await scratch?.drop();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// The server's CPU profile, over the sign requests only
// ---------------------------------------------------------------------------------------------

interface CpuProfile {
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }>;
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** Functions whose inclusive share is worth a line: the steps of signDocument and what they call. */
const STEPS = [
  'signDocument',
  'attemptSign',
  'loadVisibleEpak',
  'loadViewer',
  'resolveStampUses',
  'fillSignerTags',
  'ensureTenantSeal',
  'revisionsOf',
  'readCurrentDocumentHashed',
  'prepareForSealing',
  'sealRevision',
  'openPdfFile',
  'appendRevision',
  'signDigest',
  'put',
  'presentResult',
  'recordEpakActivity',
  'queueEngineEffects',
];

/**
 * Where the server's time went during the sign requests: samples of the profile inside the
 * request windows (V8 stamps them on the monotonic clock, as process.hrtime reads it here), by
 * self time, and the inclusive share of the sign path's steps. "(idle)" is the server waiting
 * (for PostgreSQL, fsync, the network).
 */
function summarizeProfile(dir: string, windows: ReadonlyArray<readonly [number, number, Source]>): string | undefined {
  const file = fs.readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
  if (!file) return undefined;
  // Kept beside the profile (start, end, file), for a closer look at the same windows.
  fs.writeFileSync(path.join(dir, 'sign-windows.json'), JSON.stringify(windows));
  const profile = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const sorted = [...windows].sort((a, b) => a[0] - b[0]);
  const inside = (t: number) => {
    let lo = 0;
    let hi = sorted.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (t < sorted[mid]![0]) hi = mid - 1;
      else if (t > sorted[mid]![1]) lo = mid + 1;
      else return true;
    }
    return false;
  };
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let total = 0;
  let at = profile.startTime;
  profile.samples.forEach((id, index) => {
    at += profile.timeDeltas[index] ?? 0;
    if (!inside(at)) return;
    total += 1;
    const f = byId.get(id)!.callFrame;
    const where = f.url ? `${path.basename(f.url)}:${f.lineNumber + 1}` : '';
    const key = `${f.functionName || '(anonymous)'} ${where}`.trim();
    self.set(key, (self.get(key) ?? 0) + 1);
    const seen = new Set<string>();
    for (let node: number | undefined = id; node !== undefined; node = parent.get(node)) seen.add(byId.get(node)!.callFrame.functionName);
    for (const name of seen) if (STEPS.includes(name)) inclusive.set(name, (inclusive.get(name) ?? 0) + 1);
  });
  if (total === 0) return undefined;
  const share = (n: number) => `${((100 * n) / total).toFixed(1).padStart(5)}%`;
  return [
    `${total} samples inside ${windows.length} sign requests.`,
    'Self time:',
    ...[...self]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 20)
      .map(([k, n]) => `${share(n)}  ${k}`),
    'Inclusive (the sign path):',
    ...STEPS.filter((name) => inclusive.has(name)).map((name) => `${share(inclusive.get(name)!)}  ${name}`),
  ].join('\n');
}

// ---------------------------------------------------------------------------------------------
// Report
// ---------------------------------------------------------------------------------------------

const ms = (n: number) => `${n.toFixed(0)} ms`;

/** The table of the end-to-end run, side by side with the hash pass, and the target line per file. */
export function renderSignSteps(run: SignStepRun, target: number): string[] {
  return [
    `Database: ${run.database}. Load average (1, 5, 15 min) before ${run.loadBefore}, after ${run.loadAfter}; 1-minute mean over the rounds ${run.meanLoad.toFixed(1)}.`,
    '',
    '| file | samples | HTTP sign request p50 / p95 / mean | SHA-256 pass p50 / p95 / mean | sign / hash p50 | sign / hash p95 | CPU per sign: server, PostgreSQL | CPU per hash pass | stored per signature |',
    '|---|---:|---|---|---:|---:|---|---:|---:|',
    ...run.results.map(
      (r) =>
        `| ${describeSource[r.source]}, ${r.sizeMb.toFixed(1)} MB | ${r.samples} | ${ms(r.sign.p50)} / ${ms(r.sign.p95)} / ${ms(r.sign.mean)} | ${ms(r.hash.p50)} / ${ms(r.hash.p95)} / ${ms(r.hash.mean)} | ` +
        `**${(r.sign.p50 / r.hash.p50).toFixed(1)}x** | ${(r.sign.p95 / r.hash.p95).toFixed(1)}x | ${ms(r.cpuServerMs)}, ${ms(r.cpuDatabaseMs)} | ${ms(r.cpuHashMs)} | ${(r.storedBytesPerSign / 1024).toFixed(1)} KB |`,
    ),
    '',
    `CPU over the whole timed phase, per sign (background work the signs caused included, idle polling too): server ${ms(run.phaseCpuServerMsPerSign)}, PostgreSQL ${ms(run.phaseCpuDatabaseMsPerSign)}; ` +
      `PostgreSQL transactions per sign (a statement outside a transaction counts as one): ${run.transactionsPerSign.toFixed(1)}.`,
    '',
    ...run.results.map((r) => {
      const ratio = r.sign.p50 / r.hash.p50;
      return `- ${describeSource[r.source]}: the signing step is ${ratio.toFixed(1)}x the hash pass at p50 and ${(r.sign.p95 / r.hash.p95).toFixed(1)}x at p95 (target: within ${target}x): ${ratio <= target ? 'met' : 'not met'} at p50, ${r.sign.p95 / r.hash.p95 <= target ? 'met' : 'not met'} at p95.`;
    }),
  ];
}

async function main() {
  const pages = Number(process.env.SEAL_PAGES ?? 500);
  const megabytes = Number(process.env.SEAL_MB ?? 20);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pakt-bench-sign-step-files-'));
  const profileDir = process.env.SEAL_CPU_PROF === '1' ? fs.mkdtempSync(path.join(os.tmpdir(), 'pakt-bench-sign-step-prof-')) : undefined;
  try {
    const files = [];
    for (const source of SOURCES) {
      const file = path.join(dir, `${source}.pdf`);
      await makeSealFile(source, { file, pages, megabytes });
      files.push({ source, file });
    }
    const run = await measureSignSteps({
      files,
      pages,
      samples: Number(process.env.SEAL_SAMPLES ?? 200),
      warmup: Number(process.env.SEAL_WARMUP ?? 5),
      database: (process.env.SEAL_DATABASE ?? 'embedded') as SignStepDatabase,
      profileDir,
    });
    console.log(`\n${renderSignSteps(run, 3).join('\n')}`);
    if (run.profile) console.log(`\nServer CPU profile over the sign requests:\n${run.profile}\n(profile kept in ${profileDir})`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
