/**
 * Side-by-side HTTP benchmark of the same build on its two database backends. Each scenario
 * starts a real server on a loopback port, warms it up, then drives it with autocannon for a
 * fixed, bounded time. Results go to docs/benchmarks.md as ratios measured in one run, because
 * absolute numbers from a shared 2-core machine mean little on their own.
 *
 *   npm run bench                       # PGlite, plus PostgreSQL when reachable
 *   BENCH_DATABASE_URL=postgres://...   # which PostgreSQL server to use (a scratch database is made)
 *   BENCH_SECONDS=10 BENCH_CONNECTIONS=10
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { loadConfig } from '../../apps/server/src/config';
import { REPO_ROOT } from '../../apps/server/src/paths';
import { startServer } from '../../apps/server/src/server';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const PG_ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

interface Measurement {
  scenario: string;
  backend: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  requests: number;
}

async function measure(scenario: string, backend: string, url: string): Promise<Measurement> {
  // Warm-up: JIT, connection pools and PGlite's first queries are not what we measure.
  await autocannon({ url, connections: CONNECTIONS, duration: 2 });
  const result = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS });
  return {
    scenario,
    backend,
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
    requests: result.requests.total,
  };
}

async function withServer<T>(env: NodeJS.ProcessEnv, fn: (baseUrl: string) => Promise<T>): Promise<T> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pakt-bench-'));
  const server = await startServer(
    loadConfig({ HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'warn', DATA_DIR: dataDir, JOBS_ENABLED: 'true', ...env }),
  );
  try {
    return await fn(server.url);
  } finally {
    await server.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function postgresScratchDatabase(): Promise<{ url: string; drop: () => Promise<void> } | undefined> {
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  try {
    await admin.connect();
  } catch (error) {
    console.warn(`PostgreSQL not reachable at ${PG_ADMIN_URL} (${(error as Error).message}); PGlite only.`);
    return undefined;
  }
  const name = `pakt_bench_${process.pid}`;
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: PG_ADMIN_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

const SCENARIOS = [
  { name: 'GET /msbapi/public/alive', path: '/msbapi/public/alive' },
  { name: 'GET /msbapi/public/configuration', path: '/msbapi/public/configuration' },
];

async function main() {
  const results: Measurement[] = [];
  await withServer({}, async (base) => {
    for (const s of SCENARIOS) results.push(await measure(s.name, 'PGlite', new URL(s.path, base).toString()));
  });
  const scratch = await postgresScratchDatabase();
  if (scratch) {
    try {
      await withServer({ DATABASE_URL: scratch.url }, async (base) => {
        for (const s of SCENARIOS) results.push(await measure(s.name, 'PostgreSQL', new URL(s.path, base).toString()));
      });
    } finally {
      await scratch.drop();
    }
  }
  for (const r of results) {
    if (r.errors > 0 || r.non2xx > 0) throw new Error(`${r.scenario} on ${r.backend}: ${r.errors} errors, ${r.non2xx} non-2xx`);
  }
  const report = render(results);
  // Other benchmarks (bench/src/upload.ts) keep their own sections below this one.
  const doc = path.join(REPO_ROOT, 'docs/benchmarks.md');
  const current = fs.existsSync(doc) ? fs.readFileSync(doc, 'utf8') : '';
  const others = current.indexOf('\n## Large upload');
  fs.writeFileSync(doc, others >= 0 ? `${report}${current.slice(others + 1)}` : report);
  console.log(report);
}

function render(results: Measurement[]): string {
  const rows = SCENARIOS.map((s) => {
    const lite = results.find((r) => r.scenario === s.name && r.backend === 'PGlite');
    const pgr = results.find((r) => r.scenario === s.name && r.backend === 'PostgreSQL');
    const ratio = lite && pgr ? (pgr.requestsPerSecond / lite.requestsPerSecond).toFixed(2) : 'n/a';
    const cell = (m?: Measurement) => (m ? `${Math.round(m.requestsPerSecond)} req/s, p50 ${m.p50} ms, p99 ${m.p99} ms` : 'not run');
    return `| ${s.name} | ${cell(lite)} | ${cell(pgr)} | ${ratio} |`;
  });
  return [
    '# Benchmarks',
    '',
    'Measured side by side in one run by `npm run bench` (bench/src/run.ts). Each row starts the real',
    'server on a loopback port, warms it up for 2 s, then drives it with autocannon. Absolute numbers',
    'depend on the machine; compare the ratios. Tests never assert timings.',
    '',
    `Run: ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${os.cpus().length} cores, ` +
      `${CONNECTIONS} connections, ${SECONDS} s per scenario.`,
    '',
    '## Embedded PGlite vs PostgreSQL',
    '',
    '| scenario | PGlite | PostgreSQL | PostgreSQL / PGlite throughput |',
    '|---|---|---|---|',
    ...rows,
    '',
    'Reading: `alive` runs `select 1` on the database for every request; `configuration` reads one',
    'row of system_settings. PGlite runs PostgreSQL in WebAssembly inside the server process and',
    'serializes queries on one connection; PostgreSQL serves a 10-connection pool from another process.',
    '',
  ].join('\n');
}

await main();
