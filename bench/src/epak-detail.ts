/**
 * The ePak detail at scale (issue 23): GET /msbapi/v2/epaks/{id} on PostgreSQL with 100,000 ePaks,
 * for the owner who sent them all and for a signer who is a recipient of every one, over thousands
 * of different ePaks (never one id repeated), beside an inbox page read afresh (page cache off) in
 * the same run. Measured: requests per second (autocannon), the CPU time per request of the server
 * process and of its own PostgreSQL backends, and p95 from sequential requests.
 *
 * With EPAK_DETAIL_BASELINE_REF, the same is measured side by side, interleaved, on a second server
 * that runs the ePak detail as it was: a copy of this tree in which the files of the change
 * (EPAK_DETAIL_BASELINE_FILES) are taken from that git commit. Both servers answer from one
 * database, and every answer of one is compared with the other's.
 *
 *   npm run bench:epak-detail -w @pakt/bench
 *   EPAK_DETAIL_BASELINE_REF=<commit before the change>   # measure the old loader side by side
 *   EPAK_DETAIL_EPAKS=100000   BENCH_CONNECTIONS=10 BENCH_SECONDS=10   EPAK_DETAIL_SAMPLES=400   EPAK_DETAIL_ROUNDS=3
 *   BENCH_CPU_PROF=1           # write a CPU profile of the current server process and print its hottest functions
 *   BENCH_DATABASE_URL=postgres://...   # admin URL of the PostgreSQL server (a scratch database is made and dropped)
 *
 * Results go to their own section of docs/benchmarks.md. Tests never assert timings.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { fillPlaceholders } from 'drizzle-orm';
import { hashPassword } from '../../apps/server/src/features/auth/secrets';
import { openDatabase } from '../../apps/server/src/platform/db/database';
import { epakDetailStatement } from '../../apps/server/src/features/epaks/epak-detail-sql';
import { REPO_ROOT } from '../../apps/server/src/paths';
import type * as ServerModule from '../../apps/server/src/app/server';
import type * as ConfigModule from '../../apps/server/src/platform/config';
import { cpuBetween, cpuSnapshot, loadavg, queryOnce, scratchDatabase, versionOf } from './server-process';

const EPAKS = Number(process.env.EPAK_DETAIL_EPAKS ?? 100_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const SAMPLES = Number(process.env.EPAK_DETAIL_SAMPLES ?? 400);
/** Rounds of the rate measurements, each side measured once per round, which side first alternating. */
const ROUNDS = Number(process.env.EPAK_DETAIL_ROUNDS ?? 3);
const BASELINE_REF = process.env.EPAK_DETAIL_BASELINE_REF;
/** The files of the one-statement ePak detail: in the baseline they are what BASELINE_REF had. */
const BASELINE_FILES = (
  process.env.EPAK_DETAIL_BASELINE_FILES ??
  [
    'apps/server/src/features/epaks/compose.ts',
    'apps/server/src/features/epaks/access.ts',
    'apps/server/src/features/epaks/recipient-verification.ts',
    'apps/server/src/features/rubber-stamps/rubber-stamps.ts',
    'apps/server/src/features/rubber-stamps/index.ts',
  ].join(',')
)
  .split(',')
  .filter(Boolean);
const REVIEWERS = 100;
const PASSWORD = 'Bench-Detail-2026!';
/** Different ePaks each person's requests go through (shuffled), so no answer is one repeated id's. */
const IDS_PER_PERSON = 5000;
const RPS_TARGET = 1500;
/** Write a CPU profile of the (current) server process and print its hottest functions. */
const CPU_PROF = process.env.BENCH_CPU_PROF === '1';

type Person = 'owner' | 'signer';
type Side = 'current' | 'baseline';

interface Seeded {
  tenantId: string;
  owner: { id: string; email: string };
  signer: { id: string; email: string };
  seconds: number;
  rows: Record<string, number>;
  ids: Record<Person, string[]>;
}

// ---------------------------------------------------------------------------------------------
// Server child process: this file with --serve, importing the server of EPAK_DETAIL_SERVER_ROOT
// ---------------------------------------------------------------------------------------------

async function serve() {
  const root = process.env.EPAK_DETAIL_SERVER_ROOT ?? REPO_ROOT;
  const { startServer } = (await import(pathToFileURL(path.join(root, 'apps/server/src/app/server.ts')).href)) as typeof ServerModule;
  const { loadConfig } = (await import(pathToFileURL(path.join(root, 'apps/server/src/platform/config.ts')).href)) as typeof ConfigModule;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pakt-bench-epak-detail-'));
  const server = await startServer(
    loadConfig({
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'warn',
      DATA_DIR: dataDir,
      JOBS_ENABLED: 'false',
      ACCESS_TOKEN_TTL_SECONDS: '3600',
      // Every inbox page read afresh from the database.
      INBOX_PAGE_CACHE_ENTRIES: '0',
      DATABASE_URL: process.env.EPAK_DETAIL_DATABASE_URL,
    }),
  );
  process.stdout.write(`LISTENING ${server.url}\n`);
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await server.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  };
  // The parent closes our stdin to stop us, and a parent that dies closes it too.
  process.stdin.on('data', () => void stop());
  process.stdin.on('end', () => void stop());
  process.stdin.resume();
}

interface ServerProcess {
  side: Side;
  url: string;
  child: ChildProcess;
  /** Its pool's connections carry this application_name, so its backends can be told apart. */
  applicationName: string;
  stop(): Promise<void>;
}

async function startServerProcess(side: Side, databaseUrl: string, root: string, profileDir?: string): Promise<ServerProcess> {
  const applicationName = `pakt-bench-detail-${side}-${process.pid}`;
  const profile = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  const child = spawn(process.execPath, [...process.execArgv, ...profile, fileURLToPath(import.meta.url), '--serve'], {
    cwd: path.join(root, 'bench'),
    // pg takes application_name from PGAPPNAME.
    env: { ...process.env, EPAK_DETAIL_DATABASE_URL: databaseUrl, EPAK_DETAIL_SERVER_ROOT: root, PGAPPNAME: applicationName },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const lines = readline.createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      if (line.startsWith('LISTENING ')) resolve(line.slice('LISTENING '.length).trim());
      else console.log(`[${side} server] ${line}`);
    });
    child.once('exit', (code) => reject(new Error(`${side} server exited (${code}) before listening`)));
  });
  return {
    side,
    url,
    child,
    applicationName,
    async stop() {
      child.stdin?.end();
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/**
 * A copy of this tree (tracked and untracked files, ignored ones left out) in which BASELINE_FILES
 * are what `ref` had: the ePak detail as it was, everything else as it is. node_modules are linked,
 * the workspace packages to the copy's own.
 */
function baselineTree(ref: string): { root: string; remove: () => void } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'pakt-epak-detail-baseline-'));
  const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: REPO_ROOT, maxBuffer: 64 * 1024 * 1024 })
    .toString('utf8')
    .split('\0')
    .filter((file) => file && /^(apps\/server|packages\/domain|bench)\/|^[^/]+\.json$/.test(file));
  for (const file of listed) {
    const from = path.join(REPO_ROOT, file);
    if (!fs.existsSync(from)) continue;
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.copyFileSync(from, path.join(root, file));
  }
  for (const file of BASELINE_FILES) {
    const target = path.join(root, file);
    try {
      fs.writeFileSync(target, execFileSync('git', ['show', `${ref}:${file}`], { cwd: REPO_ROOT, maxBuffer: 16 * 1024 * 1024 }));
    } catch {
      fs.rmSync(target, { force: true }); // not in that commit
    }
  }
  const modules = path.join(root, 'node_modules');
  fs.mkdirSync(path.join(modules, '@pakt'), { recursive: true });
  for (const entry of fs.readdirSync(path.join(REPO_ROOT, 'node_modules'))) {
    if (entry !== '@pakt') fs.symlinkSync(path.join(REPO_ROOT, 'node_modules', entry), path.join(modules, entry));
  }
  fs.symlinkSync(path.join(root, 'packages/domain'), path.join(modules, '@pakt/domain'));
  fs.symlinkSync(path.join(root, 'apps/server'), path.join(modules, '@pakt/server'));
  return { root, remove: () => fs.rmSync(root, { recursive: true, force: true }) };
}

// ---------------------------------------------------------------------------------------------
// Seed
// ---------------------------------------------------------------------------------------------

/** How the ePaks are spread, by a hash of their number: kind, share in percent. */
const KINDS: ReadonlyArray<[kind: string, percent: number]> = [
  ['draft', 5],
  ['reviewing', 15], // waiting for the reviewer (step 1)
  ['signing', 20], // reviewed, waiting for the signers (step 2)
  ['delegated', 3], // the heavy signer handed their place to another member
  ['completed', 40],
  ['rejected', 7], // the signer rejected
  ['completed_deleted', 5],
  ['completed_archived', 5],
];

function kindCase(): string {
  let upper = 0;
  const whens = KINDS.map(([kind, percent]) => {
    upper += percent;
    return `WHEN h1 % 100 < ${upper} THEN '${kind}'`;
  });
  if (upper !== 100) throw new Error(`kinds add up to ${upper}%, not 100%`);
  return `CASE ${whens.join(' ')} END`;
}

async function seed(url: string): Promise<Seeded> {
  const started = performance.now();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const q = async (label: string, text: string, values?: unknown[]) => {
    const t = performance.now();
    const result = await client.query(text, values);
    console.log(`  ${label}: ${result.rowCount ?? 0} rows, ${((performance.now() - t) / 1000).toFixed(1)} s`);
    return result;
  };
  try {
    const hash = await hashPassword(PASSWORD);
    const { rows: ids } = await client.query<{ tenant: string; owner: string; signer: string }>(
      'SELECT gen_random_uuid() AS tenant, gen_random_uuid() AS owner, gen_random_uuid() AS signer',
    );
    const { tenant: tenantId, owner: ownerId, signer: signerId } = ids[0]!;
    const owner = { id: ownerId, email: 'owner@detail-bench.test' };
    const signer = { id: signerId, email: 'signer@detail-bench.test' };
    await client.query(`SET work_mem = '256MB'`);
    await client.query('SET synchronous_commit = off');

    // With the triggers on: a tenant's signing reasons are seeded by its trigger.
    await q('tenant', `INSERT INTO tenants (id, name) VALUES ($1, 'Detail bench')`, [tenantId]);
    await q('tenant settings', `INSERT INTO tenant_settings (tenant_id, settings) VALUES ($1, '{"geolocationType": "OPTIONAL"}')`, [tenantId]);
    await q(
      'users',
      `INSERT INTO users (id, email, first_name, last_name, status, email_verified_at, password_hash)
       VALUES ($1, $2, 'Olivia', 'Owner', 'enabled', now(), $3), ($4, $5, 'Sanjay', 'Signer', 'enabled', now(), $3)`,
      [owner.id, owner.email, hash, signer.id, signer.email],
    );
    await client.query(`CREATE TEMP TABLE reviewers AS SELECT n, gen_random_uuid() AS id FROM generate_series(0, ${REVIEWERS - 1}) n`);
    await client.query(
      `INSERT INTO users (id, email, first_name, last_name, status, email_verified_at)
       SELECT id, 'member-' || n || '@detail-bench.test',
              (ARRAY['Asha','Ravi','Meera','John','Fatima','Chen','Lena','Kofi','Priya','Tom'])[1 + n % 10],
              (ARRAY['Rao','Iyer','Smith','Khan','Wong','Müller','Mensah','Das','Brown','Garcia'])[1 + (n / 10) % 10],
              'enabled', now()
       FROM reviewers`,
    );
    await q(
      'memberships',
      `INSERT INTO memberships (tenant_id, user_id, role, status)
       SELECT $1::uuid, $2::uuid, 'custodian', 'active' UNION ALL
       SELECT $1::uuid, $3::uuid, 'signer', 'active' UNION ALL
       SELECT $1::uuid, id, 'signer', 'active' FROM reviewers`,
      [tenantId, owner.id, signer.id],
    );

    // The bulk without triggers (and foreign-key checks); the inbox is synced afterwards by the
    // trigger's own function, ePak by ePak.
    await client.query('SET session_replication_role = replica');
    await q(
      'plan',
      `CREATE TEMP TABLE plan AS
       WITH h AS MATERIALIZED (
         SELECT i, ('x' || substr(m, 1, 8))::bit(32)::bigint AS h1, ('x' || substr(m, 9, 8))::bit(32)::bigint AS h2,
                ('x' || substr(m, 17, 8))::bit(32)::bigint AS h3
         FROM (SELECT i, md5(i::text) AS m FROM generate_series(1, $1::int) i) s
       ),
       k AS MATERIALIZED (SELECT h.*, ${kindCase()} AS kind FROM h)
       SELECT i, gen_random_uuid() AS id, gen_random_uuid() AS step1, gen_random_uuid() AS step2,
              gen_random_uuid() AS rec_reviewer, gen_random_uuid() AS rec_signer, gen_random_uuid() AS rec_second, gen_random_uuid() AS rec_delegate,
              kind, h1, h2, h3,
              1 + h2 % 3 AS documents,
              -- half of them have a second signer after the heavy one
              h3 % 2 = 0 AS two_signers,
              h3 % 10 = 0 AS verify,
              r.ids[1 + (h1 / 100) % ${REVIEWERS}] AS reviewer,
              r.ids[1 + (h1 / 10000) % ${REVIEWERS}] AS second,
              r.ids[1 + (h2 / 100) % ${REVIEWERS}] AS delegate,
              now() - make_interval(mins => (h2 % (730 * 24 * 60))::int) AS created
       FROM k CROSS JOIN (SELECT array_agg(id ORDER BY n) AS ids FROM reviewers) r`,
      [EPAKS],
    );
    // A delegate is never the second signer of the same step (delegate.ts refuses that).
    await client.query(`UPDATE plan SET delegate = NULL WHERE kind <> 'delegated' OR delegate = second`);
    await client.query(`UPDATE plan SET kind = 'signing' WHERE kind = 'delegated' AND delegate IS NULL`);
    await q(
      'epaks',
      `INSERT INTO epaks (id, tenant_id, owner_id, subject, message, status, signing_policy, expires_at, started_at, current_step,
                          ended_at, deleted_at, deleted_by, archived_at, archival_period_days, view_enforced, created_at, updated_at)
       SELECT id, $1, $2,
              (ARRAY['Lease agreement','Non-disclosure agreement','Offer letter','Purchase order','Vendor contract','Sale deed'])[1 + h3 % 6] || ' #' || i,
              CASE WHEN h1 % 3 = 0 THEN 'Please review and sign.' END,
              CASE WHEN kind = 'draft' THEN 'Draft' WHEN kind IN ('reviewing', 'signing', 'delegated') THEN 'InProgress'
                   WHEN kind = 'rejected' THEN 'Rejected' ELSE 'Completed' END,
              'ESIGNATURE',
              CASE WHEN h2 % 10 <> 0 THEN created + make_interval(days => 30 + (h2 % 91)::int) END,
              CASE WHEN kind <> 'draft' THEN created + interval '10 minutes' END,
              CASE WHEN kind = 'reviewing' THEN 1 WHEN kind IN ('signing', 'delegated') THEN 2 END,
              CASE WHEN kind IN ('completed', 'rejected', 'completed_deleted', 'completed_archived') THEN created + interval '3 days' END,
              CASE WHEN kind = 'completed_deleted' THEN created + interval '4 days' END,
              CASE WHEN kind = 'completed_deleted' THEN $2::uuid END,
              CASE WHEN kind = 'completed_archived' THEN created + interval '40 days' END,
              CASE WHEN kind = 'completed_archived' THEN 30 END,
              h3 % 4 = 0,
              created, created + interval '3 days'
       FROM plan`,
      [tenantId, owner.id],
    );
    await client.query(
      `CREATE TEMP TABLE docs AS
       SELECT p.id AS epak_id, gen_random_uuid() AS doc_id, d AS position, 1 + (p.h3 + d) % 12 AS pages
       FROM plan p CROSS JOIN LATERAL generate_series(1, p.documents) d`,
    );
    await client.query('ANALYZE plan');
    await client.query('ANALYZE docs');
    await q(
      'epak_documents',
      `INSERT INTO epak_documents (id, epak_id, position, name, sha256, size, page_count, pages, tags)
       SELECT doc_id, epak_id, position, 'Document ' || position || '.pdf', md5(doc_id::text) || md5(epak_id::text), 100000 * pages, pages,
              (SELECT jsonb_agg(CASE WHEN n % 5 = 0 THEN '{"width": 841.89, "height": 595.28, "x": 0, "y": 0, "rotate": 90}'::jsonb
                                     ELSE '{"width": 595.28, "height": 841.89, "x": 0, "y": 0, "rotate": 0}'::jsonb END)
               FROM generate_series(1, docs.pages) n),
              '[]'::jsonb
       FROM docs`,
    );
    await q(
      'epak_steps',
      `INSERT INTO epak_steps (id, epak_id, position, workflow_state_id, name, type)
       SELECT step1, id, 1, '00000000-0000-4000-8000-000000000001'::uuid, 'Review', 'REVIEW' FROM plan
       UNION ALL
       SELECT step2, id, 2, '00000000-0000-4000-8000-000000000002'::uuid, 'Sign', 'SIGN' FROM plan`,
    );
    await q(
      'epak_recipients',
      `INSERT INTO epak_recipients (id, epak_id, step_id, user_id, position, status, delegated_from_id, acted_at, verification_required)
       SELECT rec_reviewer, id, step1, reviewer, 1,
              CASE WHEN kind IN ('draft', 'reviewing') THEN 'Pending' ELSE 'Reviewed' END, NULL::uuid,
              CASE WHEN kind NOT IN ('draft', 'reviewing') THEN created + interval '1 day' END, false FROM plan
       UNION ALL
       SELECT rec_signer, id, step2, $1::uuid, 1,
              CASE WHEN kind IN ('draft', 'reviewing', 'signing') THEN 'Pending' WHEN kind = 'delegated' THEN 'Delegated'
                   WHEN kind = 'rejected' THEN 'Rejected' ELSE 'Signed' END, NULL::uuid,
              CASE WHEN kind NOT IN ('draft', 'reviewing', 'signing') THEN created + interval '2 days' END, verify FROM plan
       UNION ALL
       SELECT rec_second, id, step2, second, 2,
              CASE WHEN kind = 'rejected' THEN 'NotRequired' WHEN kind LIKE 'completed%' THEN 'Signed' ELSE 'Pending' END, NULL::uuid,
              CASE WHEN kind LIKE 'completed%' THEN created + interval '3 days' END, false FROM plan WHERE two_signers
       UNION ALL
       SELECT rec_delegate, id, step2, delegate, 3, 'DelegatePending', rec_signer, NULL::timestamptz, verify FROM plan WHERE kind = 'delegated'`,
      [signer.id],
    );
    // One revision per document for every place that signed it, in order.
    await q(
      'epak_document_revisions',
      `INSERT INTO epak_document_revisions (epak_document_id, seq, recipient_id, predecessor_sha256, sha256, size, tail_sha256, tail_size, created_at)
       SELECT d.doc_id, s.seq, s.recipient, md5(d.doc_id::text || s.seq) || md5(s.seq::text), md5(d.doc_id::text || s.seq || 'after') || md5('x'),
              100000 * d.pages + 20000 * s.seq, md5(d.doc_id::text || s.seq || 'tail') || md5('y'), 20000, p.created + make_interval(days => 1 + s.seq)
       FROM plan p JOIN docs d ON d.epak_id = p.id
       CROSS JOIN LATERAL (VALUES (1, p.rec_signer), (2, CASE WHEN p.two_signers THEN p.rec_second END)) s(seq, recipient)
       WHERE p.kind LIKE 'completed%' AND s.recipient IS NOT NULL`,
    );
    // The signer has opened six in ten of the ePaks sent to them (every document) and starred one in
    // twenty; the owner has read three in ten.
    await q(
      'epak_user_states',
      `INSERT INTO epak_user_states (epak_id, user_id, starred, read_at, viewed_document_ids)
       WITH viewed AS (SELECT epak_id, jsonb_agg(doc_id ORDER BY position) AS ids FROM docs GROUP BY epak_id)
       SELECT p.id, $1::uuid, p.h2 % 20 = 0, CASE WHEN p.kind LIKE 'completed%' THEN p.created + interval '2 days' END, v.ids
       FROM plan p JOIN viewed v ON v.epak_id = p.id WHERE p.kind <> 'draft' AND p.h2 % 10 < 6
       UNION ALL
       SELECT p.id, $2::uuid, p.h3 % 30 = 0, p.created + interval '3 days', '[]'::jsonb FROM plan p WHERE p.h3 % 10 < 3`,
      [signer.id, owner.id],
    );

    // The inbox (for the inbox page measured beside the detail) in one statement, by the trigger's
    // own rules (pakt_inbox_folders, as bench/src/inbox.ts builds it); the counts trigger runs once,
    // on the whole transition table. Checked below against pakt_sync_inbox on a sample.
    await client.query('SET session_replication_role = origin');
    await q(
      'epak_inbox',
      `INSERT INTO epak_inbox (user_id, tenant_id, folder, epak_id, sent_at, modified_at, subject_key, expires_at, starred, is_read)
       WITH places AS (
         SELECT r.epak_id, r.user_id,
                array_agg(r.status ORDER BY st.position, r.position) AS statuses,
                array_agg(st.position ORDER BY st.position, r.position) AS orders
         FROM epak_recipients r JOIN epak_steps st ON st.id = r.step_id
         GROUP BY r.epak_id, r.user_id
       ),
       people AS (
         SELECT epak_id, user_id, statuses, orders FROM places
         UNION ALL
         SELECT e.id, e.owner_id, '{}'::text[], '{}'::integer[] FROM epaks e
         WHERE NOT EXISTS (SELECT 1 FROM places p WHERE p.epak_id = e.id AND p.user_id = e.owner_id)
       )
       SELECT p.user_id, e.tenant_id, f.folder, e.id, coalesce(e.started_at, e.created_at), e.updated_at, lower(e.subject), e.expires_at,
              coalesce(s.starred, false), s.read_at IS NOT NULL
       FROM people p
       JOIN epaks e ON e.id = p.epak_id
       CROSS JOIN LATERAL unnest(pakt_inbox_folders(
         e.status, e.current_step, e.deleted_at IS NOT NULL, e.archived_at IS NOT NULL, p.user_id = e.owner_id, p.statuses, p.orders
       )) AS f(folder)
       LEFT JOIN epak_user_states s ON s.epak_id = e.id AND s.user_id = p.user_id`,
    );
    await verifyInboxSample(client);
    await q('vacuum analyze', 'VACUUM ANALYZE');

    const rows: Record<string, number> = {};
    for (const table of ['epaks', 'epak_documents', 'epak_steps', 'epak_recipients', 'epak_document_revisions', 'epak_user_states', 'epak_inbox']) {
      const { rows: r } = await client.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`);
      rows[table] = Number(r[0]!.n);
    }
    // Each person's ePaks, shuffled: the owner's all, the signer's those sent (a draft is the owner's alone).
    const { rows: ownerIds } = await client.query<{ id: string }>(`SELECT id FROM plan ORDER BY md5(id::text) LIMIT ${IDS_PER_PERSON}`);
    const { rows: signerIds } = await client.query<{ id: string }>(`SELECT id FROM plan WHERE kind <> 'draft' ORDER BY md5(id::text || 's') LIMIT ${IDS_PER_PERSON}`);
    return {
      tenantId,
      owner,
      signer,
      seconds: (performance.now() - started) / 1000,
      rows,
      ids: { owner: ownerIds.map((r) => r.id), signer: signerIds.map((r) => r.id) },
    };
  } finally {
    await client.end();
  }
}

/**
 * The set-built inbox must be what the trigger's function writes: 400 ePaks synced again with
 * pakt_sync_inbox inside a transaction, compared, rolled back.
 */
async function verifyInboxSample(client: pg.Client) {
  await client.query('BEGIN');
  try {
    await client.query('CREATE TEMP TABLE sample ON COMMIT DROP AS SELECT id FROM plan ORDER BY md5(i::text) LIMIT 400');
    await client.query('CREATE TEMP TABLE inbox_before ON COMMIT DROP AS SELECT i.* FROM epak_inbox i JOIN sample s ON s.id = i.epak_id');
    await client.query('SELECT pakt_sync_inbox(id) FROM sample');
    const { rows } = await client.query<{ n: string }>(`SELECT count(*) AS n FROM (
      (SELECT i.* FROM epak_inbox i JOIN sample s ON s.id = i.epak_id EXCEPT ALL SELECT * FROM inbox_before)
      UNION ALL
      (SELECT * FROM inbox_before EXCEPT ALL SELECT i.* FROM epak_inbox i JOIN sample s ON s.id = i.epak_id)
    ) d`);
    if (Number(rows[0]!.n) !== 0) throw new Error(`the set-built inbox differs from pakt_sync_inbox in ${rows[0]!.n} rows`);
    console.log('  verified: pakt_sync_inbox on 400 sampled ePaks changes no inbox row');
  } finally {
    await client.query('ROLLBACK');
  }
}

// ---------------------------------------------------------------------------------------------
// Measurements
// ---------------------------------------------------------------------------------------------

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

function get(url: string, headers: Record<string, string>): Promise<{ status: number; body: string; ms: number }> {
  return new Promise((resolve, reject) => {
    const t = performance.now();
    const req = http.get(url, { agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), ms: performance.now() - t }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

async function signIn(base: string, email: string): Promise<string> {
  const res = await fetch(new URL('/msbapi/v1/authenticate', base), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username: email, password: PASSWORD }).toString(),
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`sign-in of ${email} failed: ${res.status} ${text}`);
  return (JSON.parse(text) as { data: { accessToken: string } }).data.accessToken;
}

const detailPath = (id: string) => `/msbapi/v2/epaks/${id}`;
const INBOX_PATH = '/msbapi/v2/epaks?folder=Inbox&pg=0&size=50&sort=sentOn&order=desc';

interface Throughput {
  side: Side;
  label: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  requests: number;
  /** CPU time per request (ms), read from /proc over the measured seconds. */
  cpu: { server: number; postgres: number; loadGenerator: number };
  load: string;
}

/** The PostgreSQL backends of one server's pool (its application_name). */
async function backendsOf(databaseUrl: string, server: ServerProcess): Promise<number[]> {
  const rows = await queryOnce<{ pid: number }>(databaseUrl, 'SELECT pid FROM pg_stat_activity WHERE application_name = $1', [server.applicationName]);
  return rows.map((r) => r.pid);
}

/** autocannon on `paths` in turn (one path per request), after a 2 s warm-up. */
async function measureThroughput(options: {
  server: ServerProcess;
  databaseUrl: string;
  label: string;
  paths: readonly string[];
  headers: Record<string, string>;
}): Promise<Throughput> {
  const { server, paths, headers } = options;
  let next = 0;
  const requests = [{ method: 'GET' as const, setupRequest: (request: autocannon.Request) => ({ ...request, path: paths[next++ % paths.length]! }) }];
  await autocannon({ url: server.url, connections: CONNECTIONS, duration: 2, headers, requests });
  const pids = [server.child.pid!, ...(await backendsOf(options.databaseUrl, server))];
  const before = cpuSnapshot(pids);
  const self = process.cpuUsage();
  const r = await autocannon({ url: server.url, connections: CONNECTIONS, duration: SECONDS, headers, requests });
  const used = process.cpuUsage(self);
  const after = cpuSnapshot([...pids, ...(await backendsOf(options.databaseUrl, server))]);
  const spent = cpuBetween(before, after);
  const perRequest = (seconds: number) => (seconds * 1000) / Math.max(1, r.requests.total);
  const t: Throughput = {
    side: server.side,
    label: options.label,
    requestsPerSecond: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors,
    requests: r.requests.total,
    cpu: { server: perRequest(spent.server), postgres: perRequest(spent.database), loadGenerator: perRequest((used.user + used.system) / 1e6) },
    load: loadavg(),
  };
  console.log(
    `  ${t.side.padEnd(8)} ${t.label}: ${Math.round(t.requestsPerSecond)} req/s, p50 ${t.p50} ms, p99 ${t.p99} ms, non-2xx ${t.non2xx}, errors ${t.errors}; ` +
      `CPU ms/request: server ${t.cpu.server.toFixed(2)}, postgres ${t.cpu.postgres.toFixed(2)}, autocannon ${t.cpu.loadGenerator.toFixed(2)}; load ${t.load}`,
  );
  return t;
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)]!;
}

/**
 * Every answer of one server compared with the other's for the same caller and ePak, and each
 * checked: 200 and the ePak asked for. The signed documents of a place are compared as a set: the
 * old loader asked for them in no order.
 */
function normalised(body: string): string {
  const answer = JSON.parse(body) as { data: { viewer?: { signedDocumentIds: string[] } } };
  answer.data.viewer?.signedDocumentIds.sort();
  return JSON.stringify(answer);
}

/** The hottest functions (self time) of a V8 CPU profile (as bench/src/inbox.ts reads one). */
function summarizeProfile(dir: string): string | undefined {
  const file = fs.readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
  if (!file) return undefined;
  const profile = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as {
    nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number } }>;
    samples: number[];
  };
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  for (const id of profile.samples) {
    const f = byId.get(id)!.callFrame;
    const where = f.url ? `${f.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\/(apps|packages)\//, '$1/')}:${f.lineNumber + 1}` : '';
    const key = `${f.functionName || '(anonymous)'} ${where}`.trim();
    self.set(key, (self.get(key) ?? 0) + 1);
  }
  return [...self]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 25)
    .map(([k, n]) => `${((100 * n) / profile.samples.length).toFixed(1).padStart(5)}%  ${k}`)
    .join('\n');
}

/** The statement as the server prepares it, EXPLAINed with a generic plan as the server runs it, for one caller and ePak. */
async function explainDetail(url: string, values: { epakId: string; tenantId: string; userId: string }): Promise<string> {
  const database = await openDatabase({ kind: 'postgres', url });
  try {
    const { sql: text, params } = epakDetailStatement(database.db).toSQL();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query('SET plan_cache_mode = force_generic_plan');
      await client.query(`PREPARE detail AS ${text}`);
      const filled = fillPlaceholders(params, values).map((v) => `'${String(v)}'`);
      const { rows } = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) EXECUTE detail(${filled.join(', ')})`);
      return rows.map((r) => r['QUERY PLAN']).join('\n');
    } finally {
      await client.end();
    }
  } finally {
    await database.close();
  }
}

// ---------------------------------------------------------------------------------------------
// Report
// ---------------------------------------------------------------------------------------------

const fmt = (n: number) => n.toLocaleString('en-US');

interface Latency {
  side: Side;
  person: Person;
  samples: number;
  p50: number;
  p95: number;
  max: number;
}

function render(args: {
  seeded: Seeded;
  throughput: Throughput[];
  latency: Latency[];
  compared: number;
  loadBefore: string;
  loadAfter: string;
  pgVersion: string;
  baseline: string | undefined;
}): string {
  const { seeded, throughput, latency } = args;
  const sides: Side[] = args.baseline ? ['current', 'baseline'] : ['current'];
  const mean = (side: Side, label: string, pick: (t: Throughput) => number) => {
    const runs = throughput.filter((t) => t.side === side && t.label === label);
    return runs.reduce((n, t) => n + pick(t), 0) / Math.max(1, runs.length);
  };
  const labels = [...new Set(throughput.map((t) => t.label))];
  const sideName = (side: Side) => (side === 'current' ? 'one statement' : 'separate queries');
  const ownerRate = mean('current', labels[0]!, (t) => t.requestsPerSecond);
  const signerRate = mean('current', labels[1]!, (t) => t.requestsPerSecond);
  const lines = [
    `## ePak detail at ${fmt(EPAKS)} ePaks`,
    '',
    `Run: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, \`${args.baseline ? `EPAK_DETAIL_BASELINE_REF=${args.baseline} ` : ''}npm run bench:epak-detail -w @pakt/bench\` (bench/src/epak-detail.ts),`,
    `Node ${process.version}, ${os.cpus().length} cores, ${args.pgVersion} (the system PostgreSQL on 127.0.0.1), each server in its own process with its default pool of 10.`,
    `**Load average ${args.loadBefore} before the measurements and ${args.loadAfter} after** (1, 5, 15 min)${
      Number(args.loadBefore.split(' ')[0]) < 1.5 ? '.' : ': other work shared the two cores (other sessions ran tests and benches), so these are figures from a busy machine.'
    }`,
    '',
    `Seed (set-based, ${args.seeded.seconds.toFixed(0)} s): one tenant; an owner who sent all ${fmt(EPAKS)} ePaks; a signer in step 2 (SIGN) of every one, half of`,
    `them with a second signer after them; ${REVIEWERS} other members reviewing (step 1). ${KINDS.map(([k, p]) => `${k.replaceAll('_', ' ')} ${p}%`).join(', ')}.`,
    `1 to 3 documents per ePak (1 to 12 pages each), a revision per document for every place that signed it, one in ten signer places`,
    `asking for verification, one in four ePaks view-enforced. Rows: ${Object.entries(seeded.rows)
      .map(([table, n]) => `${table} ${fmt(n)}`)
      .join(', ')}; the inbox built in one statement by the trigger's rules (\`pakt_inbox_folders\`), checked against \`pakt_sync_inbox\` on 400 ePaks.`,
    '',
    `Each request asks for a different ePak: ${fmt(IDS_PER_PERSON)} ids per person, shuffled, in turn (the signer's leave out drafts, which are`,
    `the owner's alone). The inbox page is the signer's Inbox, page 0, 50 rows, sentOn, with the page cache off.`,
    args.baseline
      ? `"${sideName('baseline')}" is this tree with ${BASELINE_FILES.map((f) => `\`${path.basename(f)}\``).join(', ')} as at \`${args.baseline}\` (the fourteen queries of loadEpakDetail and loadViewer); ` +
        `"${sideName('current')}" is the prepared statement of \`apps/server/src/features/epaks/epak-detail-sql.ts\`. Both servers ran at once on one database and were measured in turn, ` +
        `interleaved; ${fmt(args.compared)} answers of each were compared: byte for byte the same (signed documents compared as a set).`
      : '',
    '',
    'The one statement (epak-detail-sql.ts): the ePak by its primary key with its documents (and revision counts), steps and recipients, and the',
    "caller's places (with the documents signed there and where verification stands), read state, record, the tenant's settings, reasons and",
    'the passcode flag, each a subquery on an index, the lists aggregated to JSON arrays by PostgreSQL; rubber stamps only when the chooser',
    'could offer them. Prepared once per connection under a name and planned generically (plan_cache_mode=force_generic_plan, database.ts).',
    "The visibility policy (packages/domain) and the viewer's rules are applied in TypeScript, as before.",
    '',
    `### Requests per second (autocannon, ${CONNECTIONS} connections, ${SECONDS} s after a 2 s warm-up; the mean of the runs)`,
    '',
    'CPU per request: milliseconds of CPU time (user + system, from /proc) spent over the measured seconds by the server process and by the',
    "PostgreSQL backends of its own pool (told apart by application_name), and by the load generator, divided by the requests answered.",
    '',
    '| request | loader | runs | req/s | p50 | p99 | CPU ms/request: server | PostgreSQL | autocannon | load (1 min) |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---|',
    ...labels.flatMap((label) =>
      sides.map((side) => {
        const runs = throughput.filter((t) => t.side === side && t.label === label);
        return `| ${label} | ${label.startsWith('inbox') ? `(the same code, ${side} server)` : sideName(side)} | ${runs.length} | ${fmt(Math.round(mean(side, label, (t) => t.requestsPerSecond)))} | ${mean(side, label, (t) => t.p50).toFixed(1)} ms | ${mean(side, label, (t) => t.p99).toFixed(1)} ms | ${mean(side, label, (t) => t.cpu.server).toFixed(2)} | ${mean(side, label, (t) => t.cpu.postgres).toFixed(2)} | ${mean(side, label, (t) => t.cpu.loadGenerator).toFixed(2)} | ${runs.map((t) => t.load.split(' ')[0]).join(', ')} |`;
      }),
    ),
    '',
    `### Latency of one request (sequential, one keep-alive connection, ${SAMPLES} different ePaks per cell, interleaved in chunks)`,
    '',
    '| person | loader | samples | p50 | p95 | max |',
    '|---|---|---:|---:|---:|---:|',
    ...latency.map((l) => `| ${l.person} | ${sideName(l.side)} | ${l.samples} | ${l.p50.toFixed(2)} ms | ${l.p95.toFixed(2)} ms | ${l.max.toFixed(1)} ms |`),
    '',
    '### Target',
    '',
    `- at least ${fmt(RPS_TARGET)} req/s for the owner's and a signer's view at ${fmt(EPAKS)} ePaks: **${ownerRate >= RPS_TARGET && signerRate >= RPS_TARGET ? 'met' : 'not met'}**` +
      ` (owner ${fmt(Math.round(ownerRate))}, signer ${fmt(Math.round(signerRate))} req/s, under the load average above).`,
  ];
  // What the CPU per request allows: the server, its PostgreSQL backends and the load generator
  // share the two cores, so with nothing else running the rate cannot exceed cores / CPU per request.
  const perRequest = (label: string) => mean('current', label, (t) => t.cpu.server + t.cpu.postgres + t.cpu.loadGenerator);
  const bound = (label: string) => Math.round((os.cpus().length * 1000) / Math.max(0.001, perRequest(label)));
  lines.push(
    `- What the CPU per request allows: server + PostgreSQL + load generator spent ${perRequest(labels[0]!).toFixed(2)} ms (owner) and ${perRequest(labels[1]!).toFixed(2)} ms (signer)` +
      ` per request, so ${os.cpus().length} cores given wholly to this run would carry at most about ${fmt(bound(labels[0]!))} and ${fmt(bound(labels[1]!))} req/s.` +
      ' CPU time per request is itself inflated when the cores are shared this heavily, so on a quiet machine the costs, and this bound, are likely better: not measured here.',
  );
  if (args.baseline) {
    for (const [i, label] of labels.slice(0, 2).entries()) {
      const ratio = mean('current', label, (t) => t.requestsPerSecond) / Math.max(1, mean('baseline', label, (t) => t.requestsPerSecond));
      const cpu = (side: Side) => mean(side, label, (t) => t.cpu.server + t.cpu.postgres);
      lines.push(
        `- ${i === 0 ? "owner's" : "signer's"} view against the separate queries, side by side: ${ratio.toFixed(2)}× the requests per second, ` +
          `${(cpu('baseline') / Math.max(0.001, cpu('current'))).toFixed(2)}× less CPU (server + PostgreSQL) per request.`,
      );
    }
    const inbox = labels[2]!;
    lines.push(
      `- against an inbox page read afresh in the same run: the signer's view costs ${(mean('current', labels[1]!, (t) => t.cpu.server + t.cpu.postgres) / Math.max(0.001, mean('current', inbox, (t) => t.cpu.server + t.cpu.postgres))).toFixed(2)}× its CPU` +
        ` (the separate queries: ${(mean('baseline', labels[1]!, (t) => t.cpu.server + t.cpu.postgres) / Math.max(0.001, mean('current', inbox, (t) => t.cpu.server + t.cpu.postgres))).toFixed(2)}×).`,
    );
  }
  lines.push('');
  return lines.join('\n');
}

/** Replaces this benchmark's section of docs/benchmarks.md (any ePak count), leaving the others as they are. */
function writeSection(section: string) {
  const doc = path.join(REPO_ROOT, 'docs/benchmarks.md');
  const current = fs.existsSync(doc) ? fs.readFileSync(doc, 'utf8') : '# Benchmarks\n';
  const heading = /^## ePak detail at [\d,]+ ePaks$/m;
  const match = heading.exec(current);
  let next: string;
  if (match) {
    const rest = current.slice(match.index + match[0].length);
    const after = rest.search(/^## /m);
    next = current.slice(0, match.index) + section + (after >= 0 ? `\n${rest.slice(after)}` : '');
  } else {
    next = `${current.replace(/\n*$/, '\n\n')}${section}`;
  }
  fs.writeFileSync(doc, next.replace(/\n*$/, '\n'));
}

// ---------------------------------------------------------------------------------------------

async function main() {
  console.log(`ePak detail bench: ${fmt(EPAKS)} ePaks, load average ${loadavg()}`);
  const scratch = await scratchDatabase('pakt_bench_epak_detail');
  const baseline = BASELINE_REF ? baselineTree(BASELINE_REF) : undefined;
  const servers: ServerProcess[] = [];
  const profileDir = CPU_PROF ? fs.mkdtempSync(path.join(os.tmpdir(), 'pakt-epak-detail-prof-')) : undefined;
  try {
    const database = await openDatabase({ kind: 'postgres', url: scratch.url });
    try {
      await database.migrate();
    } finally {
      await database.close();
    }
    console.log('seeding:');
    const seeded = await seed(scratch.url);
    console.log(`seeded in ${seeded.seconds.toFixed(1)} s:`, seeded.rows);

    servers.push(await startServerProcess('current', scratch.url, REPO_ROOT, profileDir));
    if (baseline) servers.push(await startServerProcess('baseline', scratch.url, baseline.root));
    for (const server of servers) console.log(`${server.side} server at ${server.url}`);
    const tokens = { owner: await signIn(servers[0]!.url, seeded.owner.email), signer: await signIn(servers[0]!.url, seeded.signer.email) };
    const headers: Record<Person, Record<string, string>> = {
      owner: { authorization: `Bearer ${tokens.owner}`, 'x-tenant-id': seeded.tenantId },
      signer: { authorization: `Bearer ${tokens.signer}`, 'x-tenant-id': seeded.tenantId },
    };

    // Every answer checked (200, the ePak asked for), and the two servers' answers compared.
    let compared = 0;
    for (const person of ['owner', 'signer'] as const) {
      for (const id of seeded.ids[person].slice(0, 300)) {
        const bodies: string[] = [];
        for (const server of servers) {
          const res = await get(new URL(detailPath(id), server.url).toString(), headers[person]);
          const data = (JSON.parse(res.body) as { data?: { ePakId?: string } }).data;
          if (res.status !== 200 || data?.ePakId !== id) throw new Error(`${server.side} ${person} ${id}: HTTP ${res.status} ${res.body.slice(0, 300)}`);
          bodies.push(normalised(res.body));
        }
        if (bodies.length === 2) {
          if (bodies[0] !== bodies[1]) throw new Error(`${person} ${id}: the answers differ\n${bodies[0]}\n${bodies[1]}`);
          compared++;
        }
      }
    }
    console.log(`checked: ${servers.length === 2 ? `${compared} answers identical on both servers` : 'answers 200'}`);

    const loadBefore = loadavg();
    console.log(`throughput (load average ${loadBefore}):`);
    const throughput: Throughput[] = [];
    const rounds = ROUNDS;
    for (let round = 0; round < rounds; round++) {
      // Alternate which side goes first, so neither always runs on a warmer (or busier) machine.
      const order = round % 2 === 0 ? servers : [...servers].reverse();
      for (const server of order) {
        const common = { server, databaseUrl: scratch.url };
        throughput.push(await measureThroughput({ ...common, label: "owner's view", paths: seeded.ids.owner.map(detailPath), headers: headers.owner }));
        throughput.push(await measureThroughput({ ...common, label: "signer's view", paths: seeded.ids.signer.map(detailPath), headers: headers.signer }));
        throughput.push(await measureThroughput({ ...common, label: 'inbox page (cache off)', paths: [INBOX_PATH], headers: headers.signer }));
      }
    }
    for (const t of throughput) {
      if (t.non2xx > 0 || t.errors > 0) throw new Error(`${t.side} ${t.label}: ${t.non2xx} non-2xx answers, ${t.errors} errors`);
    }

    console.log('latency:');
    const latency: Latency[] = [];
    const chunk = 50;
    const samples = new Map<string, number[]>();
    for (let from = 0; from < SAMPLES; from += chunk) {
      for (const person of ['owner', 'signer'] as const) {
        for (const server of from % (2 * chunk) === 0 ? servers : [...servers].reverse()) {
          const key = `${server.side} ${person}`;
          const list = samples.get(key) ?? [];
          // Different ePaks from the rates' first ones, in the same order on both servers.
          for (const id of seeded.ids[person].slice(1000 + from, 1000 + Math.min(SAMPLES, from + chunk))) {
            const res = await get(new URL(detailPath(id), server.url).toString(), headers[person]);
            if (res.status !== 200) throw new Error(`${key} ${id}: HTTP ${res.status}`);
            list.push(res.ms);
          }
          samples.set(key, list);
        }
      }
    }
    for (const person of ['owner', 'signer'] as const) {
      for (const server of servers) {
        const ms = [...samples.get(`${server.side} ${person}`)!].sort((a, b) => a - b);
        latency.push({ side: server.side, person, samples: ms.length, p50: percentile(ms, 0.5), p95: percentile(ms, 0.95), max: ms.at(-1)! });
        console.log(`  ${server.side.padEnd(8)} ${person}: ${ms.length} samples, p50 ${percentile(ms, 0.5).toFixed(2)} ms, p95 ${percentile(ms, 0.95).toFixed(2)} ms`);
      }
    }
    const loadAfter = loadavg();
    console.log(
      `EXPLAIN of the statement, the signer's view of one ePak:\n${await explainDetail(scratch.url, { epakId: seeded.ids.signer[0]!, tenantId: seeded.tenantId, userId: seeded.signer.id })}`,
    );

    const section = render({ seeded, throughput, latency, compared, loadBefore, loadAfter, pgVersion: await versionOf(scratch.url), baseline: BASELINE_REF });
    writeSection(section);
    console.log(`\n${section}`);
  } finally {
    for (const server of servers) await server.stop().catch(() => {});
    await scratch.drop();
    baseline?.remove();
    const profile = profileDir ? summarizeProfile(profileDir) : undefined;
    if (profile) console.log(`current server's CPU profile, self time:\n${profile}\n(kept in ${profileDir})`);
  }
}

if (process.argv.includes('--serve')) await serve();
else await main();
