/**
 * Start to /alive (issue 23): how long a restart keeps people waiting. The server is started as
 * `npm start` runs it (the esbuild bundle, apps/server/dist/main.mjs) and, side by side and
 * interleaved, from its TypeScript sources through tsx's loader (how `npm run dev -w
 * @pakt/server` runs it), on one warm data directory with the embedded PostgreSQL: first-run
 * setup and the cluster's initdb happen once, before any timed start. Each sample is the wall
 * time from spawning node to the first 200 of GET /msbapi/public/alive; the server is then
 * stopped with SIGTERM and waited for, so the next start meets a stopped cluster as a restart does.
 *
 *   npm run bench:start -w @pakt/bench            (20 starts of each, interleaved)
 *   START_RUNS=50 npm run bench:start -w @pakt/bench
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadavg } from './server-process';

const root = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
const runs = Number(process.env.START_RUNS ?? '20');
const port = Number(process.env.START_PORT ?? '3987');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pakt-bench-start-'));

const variants = {
  bundle: ['--enable-source-maps', path.join(root, 'apps/server/dist/main.mjs')],
  tsx: ['--import', 'tsx', path.join(root, 'apps/server/src/app/main.ts')],
} as const;
type Variant = keyof typeof variants;

async function alive(): Promise<boolean> {
  try {
    return (await fetch(`http://127.0.0.1:${port}/msbapi/public/alive`)).status === 200;
  } catch {
    return false;
  }
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** Milliseconds from spawn to the first 200 of /alive. */
async function startOnce(variant: Variant): Promise<number> {
  const t0 = performance.now();
  const child = spawn(process.execPath, [...variants[variant]], {
    cwd: root,
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${variant} exited with ${child.exitCode} before /alive answered`);
      if (await alive()) return performance.now() - t0;
      await new Promise((r) => setTimeout(r, 10));
    }
  } finally {
    await stop(child);
  }
}

const quantile = (sorted: readonly number[], q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;

const build = spawnSync(process.execPath, [path.join(root, 'scripts/build-server.mjs')], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

try {
  console.log(`Start to /alive on a warm data directory (${dataDir}), ${runs} starts of each, interleaved`);
  // The first start makes the cluster and runs first-run setup and every migration: not a restart.
  console.log(`first start (initdb, migrations): ${(await startOnce('bundle')).toFixed(0)} ms`);
  const before = loadavg();
  const samples: Record<Variant, number[]> = { bundle: [], tsx: [] };
  for (let i = 0; i < runs; i++) {
    for (const variant of (i % 2 === 0 ? ['bundle', 'tsx'] : ['tsx', 'bundle']) as Variant[]) samples[variant].push(await startOnce(variant));
  }
  const after = loadavg();
  console.log('\n| server | starts | p50 | p95 | max |\n|---|---:|---:|---:|---:|');
  for (const variant of Object.keys(samples) as Variant[]) {
    const sorted = [...samples[variant]].sort((a, b) => a - b);
    console.log(`| ${variant} | ${sorted.length} | ${quantile(sorted, 0.5).toFixed(0)} ms | ${quantile(sorted, 0.95).toFixed(0)} ms | ${sorted.at(-1)!.toFixed(0)} ms |`);
  }
  const median = (v: Variant) => quantile([...samples[v]].sort((a, b) => a - b), 0.5);
  console.log(`\ntsx / bundle (medians): ${(median('tsx') / median('bundle')).toFixed(2)}x`);
  console.log(`load average before ${before}, after ${after}`);
} finally {
  fs.rmSync(dataDir, { recursive: true, force: true });
}
