/**
 * Sealing one signer's step on a large PDF (issues 5 and 23), in two parts of one run.
 *
 * 1. Sealing alone, in-process: our incremental update (read the file, seal, write the tail), side
 *    by side with one SHA-256 pass over the file (the floor any signer pays) and with what a
 *    pdf-lib pipeline does: one load and one full save of the whole file per signer (draw, save,
 *    hash, sign, write). Each run happens in a fresh child process, so its peak memory (VmHWM
 *    from /proc) is its own, and times the second of two runs there, as a warm server would;
 *    runs alternate between pipelines and the medians are compared. No database, storage or HTTP:
 *    this is the sealing code's own cost, not what a signer waits for.
 * 2. What a signer waits for (sign-step.ts): the HTTP sign request on a running server with
 *    PostgreSQL, from request to committed revision, interleaved with a SHA-256 pass over the
 *    same file, p50 and p95 over SEAL_SAMPLES fresh ePaks per file.
 *
 * Both on two 500-page, 20 MB files: synthetic pages and real-world pages (seal-files.ts).
 *
 *   npm run bench:seal -w @pakt/bench
 *   SEAL_PAGES=500 SEAL_MB=20
 *   SEAL_RUNS=5            # part 1: runs per pipeline and file
 *   SEAL_SAMPLES=200       # part 2: timed sign requests per file (0: skip part 2)
 *   SEAL_DATABASE=embedded # part 2: or external (BENCH_DATABASE_URL)
 *   SEAL_CPU_PROF=1        # part 2: profile the server over the sign requests
 */
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PDFDocument } from 'pdf-lib';
import { shownSizeOfRect, textAppearance, type Rotation } from '../../apps/server/src/platform/sealing/appearance';
import { sealRevision } from '../../apps/server/src/platform/sealing/seal';
import { maxCmsSize, signDigest } from '../../apps/server/src/platform/signing/cms';
import { createTenantCa, issueSealCertificate, type TenantCertificate } from '../../apps/server/src/platform/signing/tenant-ca';
import { describeSource, makeSealFile, type Source, SOURCES } from './seal-files';
import { loadavg } from './server-process';
import { measureSignSteps, renderSignSteps, type SignStepDatabase, type SignStepRun } from './sign-step';

const PAGES = Number(process.env.SEAL_PAGES ?? 500);
const MEGABYTES = Number(process.env.SEAL_MB ?? 20);
const RUNS = Number(process.env.SEAL_RUNS ?? 5);
const SAMPLES = Number(process.env.SEAL_SAMPLES ?? 200);
/** The end-to-end target: a signing step within this many hash passes. */
const TARGET = 3;
const PIPELINES = ['hash', 'incremental', 'resave'] as const;
type Pipeline = (typeof PIPELINES)[number];
const LABELS: Record<Pipeline, string> = {
  hash: 'one SHA-256 pass over the file (the floor)',
  incremental: 'ours: incremental update + PAdES seal (RSA 3072), tail written',
  resave: 'pdf-lib: one load and one full save per signer (draw, save, SHA-256, sign, file written)',
};

interface Keys {
  readonly ca: TenantCertificate;
  readonly seal: TenantCertificate;
}

function peakMb(): number {
  const status = fs.readFileSync('/proc/self/status', 'utf8');
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)![1]) / 1024;
}

async function runPipeline(pipeline: Pipeline, file: string, keys: Keys): Promise<number> {
  const chain = [keys.ca.certificatePem];
  const sign = (digest: Buffer) => signDigest({ digest, key: keys.seal.privateKeyPkcs8Pem, certificate: keys.seal.certificatePem, chain });
  const started = process.hrtime.bigint();
  const source = fs.readFileSync(file);
  if (pipeline === 'hash') {
    crypto.createHash('sha256').update(source).digest();
  } else if (pipeline === 'incremental') {
    // The generated pages are upright A4: no need to open the file twice to learn that.
    const pageIndex = Math.floor(PAGES / 2);
    const rotate: Rotation = 0;
    const rect = [72, 72, 222, 122] as const;
    const sealed = await sealRevision({
      source,
      signature: {
        pageIndex,
        rect,
        appearance: textAppearance({ ...shownSizeOfRect(rect, rotate), rotate, lines: ['Signed by Asha Rao'], border: true }),
        fieldName: 'Signature 1',
        signerName: 'Asha Rao',
        signedAt: new Date(),
      },
      cmsMaxSize: maxCmsSize({ certificate: keys.seal.certificatePem, chain }),
      sign,
    });
    // An incremental revision is the old file plus a tail: storage keeps the tail (a few KB)
    // and serves the previous revision's bytes before it, so only the tail is written.
    fs.writeFileSync(`${file}.sealed-tail`, sealed.tail);
  } else {
    // What a pipeline built on pdf-lib does for every signer: load the whole file, save it whole.
    const doc = await PDFDocument.load(source);
    const page = doc.getPage(Math.floor(PAGES / 2));
    page.drawText('Signed by Asha Rao', { x: 72, y: 72, size: 12 });
    const saved = Buffer.from(await doc.save());
    sign(crypto.createHash('sha256').update(saved).digest());
    fs.writeFileSync(`${file}.resaved`, saved);
  }
  return Number(process.hrtime.bigint() - started) / 1e6;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

interface InProcess {
  readonly source: Source;
  readonly sizeMb: number;
  readonly ms: Record<Pipeline, number>;
  readonly peakMb: Record<Pipeline, number>;
}

async function main() {
  const child = process.argv.find((arg) => arg.startsWith('--pipeline='));
  if (child) {
    const [pipeline, file, keysFile] = [child.split('=')[1] as Pipeline, process.argv.at(-2)!, process.argv.at(-1)!];
    const keys = JSON.parse(fs.readFileSync(keysFile, 'utf8')) as Keys;
    // A server seals in a warm process: one untimed run first, so what is timed is the work,
    // not the JIT compiling it.
    await runPipeline(pipeline, file, keys);
    const ms = await runPipeline(pipeline, file, keys);
    process.stdout.write(JSON.stringify({ ms, peakMb: peakMb() }));
    return;
  }
  // SEAL_KEEP=dir keeps the generated files (and keys) there, for profiling one pipeline alone.
  const kept = process.env.SEAL_KEEP;
  const dir = kept ? (fs.mkdirSync(kept, { recursive: true }), kept) : fs.mkdtempSync(path.join(os.tmpdir(), 'pakt-bench-seal-'));
  try {
    const ca = await createTenantCa({ tenantName: 'Bench Ltd', keyAlgorithm: 'rsa-3072' });
    const keys: Keys = { ca, seal: await issueSealCertificate({ ca, tenantName: 'Bench Ltd' }) };
    const keysFile = path.join(dir, 'keys.json');
    fs.writeFileSync(keysFile, JSON.stringify(keys));
    const self = fileURLToPath(import.meta.url);
    const files: Array<{ source: Source; file: string }> = [];
    for (const source of SOURCES) {
      const file = path.join(dir, `${source}.pdf`);
      await makeSealFile(source, { file, pages: PAGES, megabytes: MEGABYTES });
      files.push({ source, file });
    }
    const loadBefore = loadavg();
    console.log(`part 1, sealing alone: ${RUNS} runs per pipeline and file; load ${loadBefore}`);
    const inProcess = files.map(({ source, file }) => measureInProcess(source, file, keysFile, self));
    const loadBetween = loadavg();
    let endToEnd: SignStepRun | undefined;
    if (SAMPLES > 0) {
      console.log(`part 2, the HTTP signing step: ${SAMPLES} samples per file; load ${loadBetween}`);
      const profileDir = process.env.SEAL_CPU_PROF === '1' ? fs.mkdtempSync(path.join(os.tmpdir(), 'pakt-bench-seal-prof-')) : undefined;
      endToEnd = await measureSignSteps({
        files,
        pages: PAGES,
        samples: SAMPLES,
        warmup: Number(process.env.SEAL_WARMUP ?? 5),
        database: (process.env.SEAL_DATABASE ?? 'embedded') as SignStepDatabase,
        profileDir,
      });
      if (endToEnd.profile) console.log(`\nServer CPU profile over the sign requests:\n${endToEnd.profile}\n(profile kept in ${profileDir})`);
    }
    console.log(`\n${render({ inProcess, loadBefore, loadBetween, endToEnd })}`);
  } finally {
    if (!kept) fs.rmSync(dir, { recursive: true, force: true });
  }
}

function measureInProcess(source: Source, file: string, keysFile: string, self: string): InProcess {
  const results: Record<Pipeline, { ms: number[]; peakMb: number[] }> = { hash: { ms: [], peakMb: [] }, incremental: { ms: [], peakMb: [] }, resave: { ms: [], peakMb: [] } };
  for (let run = 0; run < RUNS; run++) {
    for (const pipeline of PIPELINES) {
      const out = spawnSync(process.execPath, ['--import', 'tsx', self, `--pipeline=${pipeline}`, file, keysFile], { encoding: 'utf8', maxBuffer: 1 << 20 });
      if (out.status !== 0) throw new Error(`${pipeline} failed: ${out.stderr}`);
      const { ms, peakMb: peak } = JSON.parse(out.stdout) as { ms: number; peakMb: number };
      results[pipeline].ms.push(ms);
      results[pipeline].peakMb.push(peak);
    }
  }
  const of = (pick: (r: { ms: number[]; peakMb: number[] }) => number[]) =>
    Object.fromEntries(PIPELINES.map((pipeline) => [pipeline, median(pick(results[pipeline]))])) as Record<Pipeline, number>;
  const measured: InProcess = { source, sizeMb: fs.statSync(file).size / (1024 * 1024), ms: of((r) => r.ms), peakMb: of((r) => r.peakMb) };
  console.log(
    `  ${source}: ${PIPELINES.map((p) => `${p} ${measured.ms[p].toFixed(0)} ms (peak ${measured.peakMb[p].toFixed(0)} MB)`).join(', ')}; ` +
      `resave / incremental ${(measured.ms.resave / measured.ms.incremental).toFixed(1)}x, incremental / hash ${(measured.ms.incremental / measured.ms.hash).toFixed(1)}x`,
  );
  return measured;
}

function render(args: { inProcess: InProcess[]; loadBefore: string; loadBetween: string; endToEnd: SignStepRun | undefined }): string {
  const { inProcess, endToEnd } = args;
  return [
    "## Sealing one signer's step (20 MB, 500 pages)",
    '',
    `Run: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, Node ${process.version}, ${os.cpus().length} cores, \`npm run bench:seal -w @pakt/bench\` ` +
      `(bench/src/seal.ts, bench/src/sign-step.ts), ${PAGES} pages, ${MEGABYTES} MB.`,
    '',
    '### What a signer waits for: the HTTP sign request, end to end',
    '',
    ...(endToEnd ? renderSignSteps(endToEnd, TARGET) : ['(not run: SEAL_SAMPLES=0)']),
    '',
    '### Sealing alone, in-process (no database, storage or HTTP)',
    '',
    `${RUNS} runs per pipeline and file, each in a fresh child process timing its second run, alternating; medians. Load average before ${args.loadBefore}, after ${args.loadBetween}.`,
    '',
    `| file | ${PIPELINES.map((p) => LABELS[p]).join(' | ')} | pdf-lib resave / ours | ours / hash |`,
    '|---|---:|---:|---:|---:|---:|',
    ...inProcess.map(
      (r) =>
        `| ${describeSource[r.source]}, ${r.sizeMb.toFixed(1)} MB | ${PIPELINES.map((p) => `${r.ms[p].toFixed(0)} ms (${r.peakMb[p].toFixed(0)} MB)`).join(' | ')} | ` +
        `${(r.ms.resave / r.ms.incremental).toFixed(1)}x | ${(r.ms.incremental / r.ms.hash).toFixed(1)}x |`,
    ),
    '',
  ].join('\n');
}

await main();
