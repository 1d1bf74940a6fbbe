/**
 * The inbox at scale (issue 6): one tenant with 1,000,000 ePaks on PostgreSQL, then
 *   - p95 latency of a 50-row page of GET /msbapi/v2/epaks for two people (the owner who sent
 *     everything, and a signer who is a recipient of everything) × 12 folders × 4 sorts, and
 *   - authenticated requests per second (autocannon) on the signer's Inbox and the owner's Pending,
 *     read afresh (the server's page cache off) and as installed (the cache on), with the CPU time
 *     per request of the server, PostgreSQL and the load generator, and two reference calls.
 * Results go to their own section of docs/benchmarks.md. Tests never assert timings.
 *
 *   npm run bench:inbox -w @pakt/bench
 *   INBOX_EPAKS=50000          # how many ePaks (default 1,000,000)
 *   INBOX_REQUESTS=40          # sequential requests per person × folder × sort
 *   BENCH_CONNECTIONS=10 BENCH_SECONDS=10
 *   BENCH_DATABASE_URL=postgres://...   # admin URL of the PostgreSQL server (a scratch database is made and dropped)
 *   BENCH_CPU_PROF=1           # write a CPU profile of the server process and print its hottest functions
 *   INBOX_KEEP_DATABASE=1      # keep the seeded database (its URL is printed) instead of dropping it
 *   INBOX_SEED_ONLY=1          # seed, keep the database and stop: seeding need not wait for a quiet machine...
 *   INBOX_REUSE_DATABASE=pakt_bench_inbox_<pid>   # ...and measure on it later, when the machine is quiet
 *
 * The server runs in a child process (this file started with --serve) so that the load generator
 * and the server do not share one event loop: on 2 cores that alone would halve the throughput.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { FOLDERS, INBOX_SORTS, InboxQuery } from '@pakt/domain';
import { PgDialect } from 'drizzle-orm/pg-core';
import { hashPassword } from '../../apps/server/src/features/auth/secrets';
import { loadConfig } from '../../apps/server/src/platform/config';
import { openDatabase } from '../../apps/server/src/platform/db/database';
import { REPO_ROOT } from '../../apps/server/src/paths';
import { inboxStatement } from '../../apps/server/src/features/inbox/list-inbox';
import { startServer } from '../../apps/server/src/app/server';

const EPAKS = Number(process.env.INBOX_EPAKS ?? 1_000_000);
const REQUESTS = Number(process.env.INBOX_REQUESTS ?? 40);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const PG_ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const CPU_PROF = process.env.BENCH_CPU_PROF === '1';
const PAGE_SIZE = 50;
const REVIEWERS = 100;
const PASSWORD = 'Bench-Inbox-2026!';
/** Page numbers the sequential requests cycle through: mostly the first pages, some deep ones. */
const PAGES = [0, 1, 0, 2, 5, 0, 10, 3, 20, 0, 1, 15];
const P95_TARGET_MS = 30;
const RPS_TARGET = 1500;

type Folder = (typeof FOLDERS)[number];
type Sort = (typeof INBOX_SORTS)[number];

interface Seeded {
  tenantId: string;
  owner: { id: string; email: string };
  signer: { id: string; email: string };
  seconds: number;
  rows: Record<string, number>;
  inboxTotals: Record<'owner' | 'signer', Record<string, number>>;
}

// ---------------------------------------------------------------------------------------------
// Server child process
// ---------------------------------------------------------------------------------------------

async function serve() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pakt-bench-inbox-'));
  const server = await startServer(
    loadConfig({
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'warn',
      DATA_DIR: dataDir,
      JOBS_ENABLED: 'false',
      // The tokens must outlive the run (the default is 15 minutes).
      ACCESS_TOKEN_TTL_SECONDS: '3600',
      DATABASE_URL: process.env.INBOX_SERVER_DATABASE_URL,
      ...(process.env.INBOX_PAGE_CACHE_ENTRIES ? { INBOX_PAGE_CACHE_ENTRIES: process.env.INBOX_PAGE_CACHE_ENTRIES } : {}),
    }),
  );
  process.stdout.write(`LISTENING ${server.url}\n`);
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await server.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
    // A normal exit, so that --cpu-prof writes its profile.
    process.exit(0);
  };
  // The parent closes our stdin to stop us, and a parent that dies closes it too.
  process.stdin.on('data', () => void stop());
  process.stdin.on('end', () => void stop());
  process.stdin.resume();
}

async function startServerProcess(
  databaseUrl: string,
  options: { profileDir?: string | undefined; pageCacheEntries?: number } = {},
): Promise<{ url: string; child: ChildProcess; stop: () => Promise<void> }> {
  const { profileDir } = options;
  const self = fileURLToPath(import.meta.url);
  const args = [...process.execArgv, ...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []), self, '--serve'];
  const child = spawn(process.execPath, args, {
    env: {
      ...process.env,
      INBOX_SERVER_DATABASE_URL: databaseUrl,
      ...(options.pageCacheEntries === undefined ? {} : { INBOX_PAGE_CACHE_ENTRIES: String(options.pageCacheEntries) }),
    },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const lines = readline.createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      if (line.startsWith('LISTENING ')) resolve(line.slice('LISTENING '.length).trim());
      else console.log(`[server] ${line}`);
    });
    child.once('exit', (code) => reject(new Error(`server process exited (${code}) before listening`)));
  });
  return {
    url,
    child,
    async stop() {
      child.stdin?.end();
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Scratch database and seed
// ---------------------------------------------------------------------------------------------

/** Where a seed's description is kept beside its database, for INBOX_REUSE_DATABASE. */
function seedRecordOf(databaseName: string): string {
  return path.join(os.tmpdir(), `${databaseName}.seed.json`);
}

/** A database seeded by an earlier INBOX_SEED_ONLY=1 run. */
function reusedDatabase(name: string): { url: string; drop: () => Promise<void> } {
  if (!/^pakt_bench_inbox_\d+$/.test(name)) throw new Error(`INBOX_REUSE_DATABASE: ${name} is not a bench database`);
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: async () => {} };
}

async function scratchDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  const name = `pakt_bench_inbox_${process.pid}`;
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

/**
 * How the ePaks are spread, by a hash of their number (so status does not follow the dates):
 * kind, share in percent. Signer and reviewer statuses follow what the engine leaves behind
 * (packages/domain/src/engine): a rejection closes open places as NotRequired, a stop or an
 * expiry as Skipped; a delegation marks the place Delegated and adds a DelegatePending one.
 */
const KINDS: ReadonlyArray<[kind: string, percent: number]> = [
  ['draft', 4],
  ['step1', 12], // waiting for the reviewer
  ['step2', 12], // reviewed, waiting for the heavy signer
  ['step2_delegated', 2], // the heavy signer handed their place to another member
  ['completed', 32],
  ['rejected_by_signer', 6],
  ['rejected_by_reviewer', 2],
  ['stopped', 4], // stopped at step 2, before the signer acted
  ['stopped_delegated', 1],
  ['expired', 4],
  ['expired_delegated', 1],
  ['completed_deleted', 5],
  ['rejected_deleted', 2],
  ['draft_deleted', 1],
  ['stopped_deleted', 2],
  ['completed_archived', 10],
];

function kindCase(): string {
  let upper = 0;
  const whens = KINDS.map(([kind, percent]) => {
    upper += percent;
    return `WHEN p < ${upper} THEN '${kind}'`;
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
    const [ownerHash, signerHash] = await Promise.all([hashPassword(PASSWORD), hashPassword(PASSWORD)]);
    const { rows: ids } = await client.query<{ tenant: string; owner: string; signer: string }>(
      'SELECT gen_random_uuid() AS tenant, gen_random_uuid() AS owner, gen_random_uuid() AS signer',
    );
    const { tenant: tenantId, owner: ownerId, signer: signerId } = ids[0]!;
    const owner = { id: ownerId, email: 'owner@inbox-bench.test' };
    const signer = { id: signerId, email: 'signer@inbox-bench.test' };

    await client.query(`SET work_mem = '256MB'`);
    await client.query(`SET maintenance_work_mem = '512MB'`);
    await client.query('SET synchronous_commit = off');
    // Skips the deferred per-row inbox triggers (and the foreign-key checks) while loading: the
    // inbox is built below in one set-based statement instead of a million syncs.
    await client.query('SET session_replication_role = replica');

    await q('tenant', `INSERT INTO tenants (id, name) VALUES ($1, 'Inbox bench')`, [tenantId]);
    await q(
      'users',
      `INSERT INTO users (id, email, first_name, last_name, status, email_verified_at, password_hash)
       VALUES ($1, $2, 'Olivia', 'Owner', 'enabled', now(), $3), ($4, $5, 'Sanjay', 'Signer', 'enabled', now(), $6)`,
      [owner.id, owner.email, ownerHash, signer.id, signer.email, signerHash],
    );
    await q(
      'reviewers',
      `CREATE TEMP TABLE reviewers AS
       SELECT n, gen_random_uuid() AS id FROM generate_series(0, ${REVIEWERS - 1}) n`,
    );
    await client.query(
      `INSERT INTO users (id, email, first_name, last_name, status, email_verified_at)
       SELECT id, 'reviewer-' || n || '@inbox-bench.test',
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

    // One row per ePak with everything derived from four independent hashes of its number.
    await q(
      'seed plan',
      `CREATE TEMP TABLE plan AS
       -- MATERIALIZED: inlined, every use of kind would recompute the hashes (md5 per WHEN).
       WITH h AS MATERIALIZED (
         SELECT i,
                ('x' || substr(m, 1, 8))::bit(32)::bigint AS h1,
                ('x' || substr(m, 9, 8))::bit(32)::bigint AS h2,
                ('x' || substr(m, 17, 8))::bit(32)::bigint AS h3,
                ('x' || substr(m, 25, 8))::bit(32)::bigint AS h4
         FROM (SELECT i, md5(i::text) AS m FROM generate_series(1, $1::int) i) s
       ),
       k AS (
         SELECT h.*, h1 % 100 AS p, (h1 / 100) % ${REVIEWERS} AS reviewer_no, (h1 / 10000) % ${REVIEWERS - 1} AS delegate_off,
                -- created over the last two years, to the minute
                now() - make_interval(mins => (h2 % (730 * 24 * 60))::int) AS created
         FROM h
       ),
       kk AS MATERIALIZED (SELECT k.*, ${kindCase()} AS kind FROM k)
       SELECT i, gen_random_uuid() AS id, gen_random_uuid() AS step1, gen_random_uuid() AS step2,
              gen_random_uuid() AS rec_reviewer, gen_random_uuid() AS rec_signer, gen_random_uuid() AS rec_delegate,
              kind, h3, h4,
              r.ids[1 + reviewer_no] AS reviewer, r.ids[1 + (reviewer_no + 1 + delegate_off) % ${REVIEWERS}] AS delegate,
              CASE WHEN kind LIKE 'draft%' THEN 'Draft' WHEN kind LIKE 'step%' THEN 'InProgress'
                   WHEN kind LIKE 'completed%' THEN 'Completed' WHEN kind LIKE 'rejected%' THEN 'Rejected'
                   WHEN kind LIKE 'stopped%' THEN 'Stopped' ELSE 'Expired' END AS status,
              CASE WHEN kind = 'step1' THEN 1 WHEN kind LIKE 'step2%' THEN 2 END AS current_step,
              CASE WHEN kind LIKE 'draft%' OR kind = 'step1' THEN 'Pending'
                   WHEN kind = 'rejected_by_reviewer' THEN 'Rejected'
                   ELSE 'Reviewed' END AS reviewer_status,
              CASE WHEN kind LIKE 'draft%' OR kind IN ('step1', 'step2') THEN 'Pending'
                   WHEN kind = 'rejected_by_reviewer' THEN 'NotRequired'
                   WHEN kind LIKE '%delegated' THEN 'Delegated'
                   WHEN kind LIKE 'completed%' THEN 'Signed'
                   WHEN kind IN ('rejected_by_signer', 'rejected_deleted') THEN 'Rejected'
                   ELSE 'Skipped' END AS signer_status,
              CASE WHEN kind = 'step2_delegated' THEN 'DelegatePending' WHEN kind LIKE '%delegated' THEN 'Skipped' END AS delegate_status,
              kind LIKE '%deleted' AS deleted,
              kind = 'completed_archived' AS archived,
              created,
              CASE WHEN kind NOT LIKE 'draft%' THEN least(now(), created + make_interval(mins => (h3 % 600)::int)) END AS started
       FROM kk CROSS JOIN (SELECT array_agg(id ORDER BY n) AS ids FROM reviewers) r`,
      [EPAKS],
    );
    await client.query('ANALYZE plan');
    // The last change: a few days after the start (or creation), never in the future.
    await client.query(
      `ALTER TABLE plan ADD COLUMN updated timestamptz, ADD COLUMN expires timestamptz, ADD COLUMN reviewed timestamptz, ADD COLUMN signed timestamptz`,
    );
    await q(
      'seed plan dates',
      `UPDATE plan SET
         updated = least(now(), coalesce(started, created) + make_interval(hours => (h3 % (20 * 24))::int)),
         reviewed = CASE WHEN started IS NOT NULL THEN least(now(), started + make_interval(hours => (h3 % 48)::int)) END,
         signed = CASE WHEN started IS NOT NULL THEN least(now(), started + make_interval(hours => 48 + (h3 % (10 * 24))::int)) END,
         -- one in ten without an expiry date; the others 30 to 120 days after they were sent
         expires = CASE WHEN h4 % 10 = 0 THEN NULL ELSE coalesce(started, created) + make_interval(days => 30 + (h4 % 91)::int) END`,
    );

    await q(
      'epaks',
      `INSERT INTO epaks (id, tenant_id, owner_id, subject, message, status, signing_policy, expires_at, started_at, current_step,
                          ended_at, deleted_at, deleted_by, archived_at, archival_period_days, created_at, updated_at)
       SELECT id, $1, $2,
              (ARRAY['Lease agreement','Non-disclosure agreement','Offer letter','Purchase order','Invoice approval',
                     'Vendor contract','Loan sanction','Board resolution','Consent form','Service agreement',
                     'Change request','Expense claim','Power of attorney','Sale deed','Employment contract'])[1 + (h3 / 7) % 15]
                || ' — ' || (ARRAY['Mumbai','Pune','Delhi','Chennai','Kolkata','Bengaluru','Hyderabad','Jaipur'])[1 + (h4 / 11) % 8]
                || ' ' || (ARRAY['Q1','Q2','Q3','Q4'])[1 + (h4 / 13) % 4] || ' #' || i,
              NULL, status, 'ESIGNATURE',
              CASE WHEN kind LIKE 'expired%' THEN least(updated, coalesce(expires, updated)) ELSE expires END,
              started, current_step,
              CASE WHEN status IN ('Completed', 'Rejected', 'Stopped', 'Expired') THEN updated END,
              CASE WHEN deleted THEN least(now(), updated + interval '1 day') END,
              CASE WHEN deleted THEN $2::uuid END,
              CASE WHEN archived THEN least(now(), updated + interval '30 days') END,
              CASE WHEN archived THEN 30 END,
              created,
              CASE WHEN deleted THEN least(now(), updated + interval '1 day')
                   WHEN archived THEN least(now(), updated + interval '30 days') ELSE updated END
       FROM plan`,
      [tenantId, owner.id],
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
      `INSERT INTO epak_recipients (id, epak_id, step_id, user_id, position, status, delegated_from_id, acted_at)
       SELECT rec_reviewer, id, step1, reviewer, 1, reviewer_status, NULL::uuid,
              CASE WHEN reviewer_status IN ('Reviewed', 'Rejected') THEN reviewed END FROM plan
       UNION ALL
       SELECT rec_signer, id, step2, $1::uuid, 1, signer_status, NULL::uuid,
              CASE WHEN signer_status IN ('Signed', 'Rejected', 'Delegated') THEN signed END FROM plan
       UNION ALL
       SELECT rec_delegate, id, step2, delegate, 2, delegate_status, rec_signer, NULL::timestamptz FROM plan WHERE delegate_status IS NOT NULL`,
      [signer.id],
    );
    // The signer has opened six in ten ePaks and starred one in twenty; the owner three in ten and one in thirty.
    await q(
      'epak_user_states',
      `INSERT INTO epak_user_states (epak_id, user_id, starred, read_at)
       SELECT id, $1::uuid, h4 % 100 < 5, coalesce(signed, updated) FROM plan WHERE h4 % 100 < 60 AND started IS NOT NULL
       UNION ALL
       SELECT id, $2::uuid, (h4 / 100) % 100 < 3, updated FROM plan WHERE (h4 / 100) % 100 < 30`,
      [signer.id, owner.id],
    );

    // The inbox in one statement, by the trigger's own rules (pakt_inbox_folders), the people of
    // an ePak gathered as pakt_sync_inbox gathers them. The counts trigger runs once, on the
    // whole transition table.
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
    // VACUUM as well: as autovacuum leaves a table at rest, with its visibility map set, so a page
    // is read from the inbox index alone (no heap fetch per entry), as in production.
    await q('vacuum analyze', 'VACUUM ANALYZE');

    await verifyCounts(client, tenantId, { owner: owner.id, signer: signer.id });
    await verifyAgainstTrigger(client);

    const rows: Record<string, number> = {};
    for (const table of ['epaks', 'epak_steps', 'epak_recipients', 'epak_user_states', 'epak_inbox', 'epak_inbox_counts']) {
      const { rows: r } = await client.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`);
      rows[table] = Number(r[0]!.n);
    }
    const inboxTotals = { owner: {}, signer: {} } as Seeded['inboxTotals'];
    const { rows: totals } = await client.query<{ user_id: string; folder: string; total: number }>(
      'SELECT user_id, folder, total FROM epak_inbox_counts WHERE tenant_id = $1 AND user_id IN ($2, $3)',
      [tenantId, owner.id, signer.id],
    );
    for (const f of FOLDERS) {
      inboxTotals.owner[f] = 0;
      inboxTotals.signer[f] = 0;
    }
    for (const t of totals) inboxTotals[t.user_id === owner.id ? 'owner' : 'signer'][t.folder] = t.total;
    return { tenantId, owner, signer, seconds: (performance.now() - started) / 1000, rows, inboxTotals };
  } finally {
    await client.end();
  }
}

/** The kept counts must agree with the rows, per folder, for both people; anything else is a bug. */
async function verifyCounts(client: pg.Client, tenantId: string, people: Record<'owner' | 'signer', string>) {
  const { rows } = await client.query<{ person: string; folder: string; kept_total: number; kept_unread: number; rows_total: number; rows_unread: number }>(
    `SELECT u.person, f.folder,
            coalesce(c.total, 0) AS kept_total, coalesce(c.unread, 0) AS kept_unread,
            coalesce(x.n, 0)::int AS rows_total, coalesce(x.unread, 0)::int AS rows_unread
     FROM (VALUES ('owner', $2::uuid), ('signer', $3::uuid)) u(person, user_id)
     CROSS JOIN unnest($4::text[]) f(folder)
     LEFT JOIN epak_inbox_counts c ON c.user_id = u.user_id AND c.tenant_id = $1 AND c.folder = f.folder
     LEFT JOIN (
       SELECT user_id, folder, count(*) AS n, count(*) FILTER (WHERE NOT is_read) AS unread
       FROM epak_inbox WHERE tenant_id = $1 AND user_id IN ($2, $3) GROUP BY user_id, folder
     ) x ON x.user_id = u.user_id AND x.folder = f.folder
     ORDER BY 1, 2`,
    [tenantId, people.owner, people.signer, [...FOLDERS]],
  );
  const wrong = rows.filter((r) => r.kept_total !== r.rows_total || r.kept_unread !== r.rows_unread);
  if (wrong.length > 0) {
    console.error(wrong);
    throw new Error(`epak_inbox_counts disagrees with epak_inbox for ${wrong.length} person × folder pairs`);
  }
  console.log('  verified: epak_inbox_counts = count(*) of epak_inbox, per folder, for owner and signer (total and unread)');
}

/**
 * The bulk-built inbox must be what the per-ePak trigger function would have written: re-sync a
 * sample of ePaks of every kind with pakt_sync_inbox inside a transaction, compare, roll back.
 */
async function verifyAgainstTrigger(client: pg.Client) {
  await client.query('BEGIN');
  try {
    await client.query(`CREATE TEMP TABLE sample ON COMMIT DROP AS
      SELECT id FROM (SELECT id, kind, row_number() OVER (PARTITION BY kind ORDER BY i) AS n FROM plan) s WHERE n <= 40`);
    await client.query(`CREATE TEMP TABLE inbox_before ON COMMIT DROP AS
      SELECT i.* FROM epak_inbox i JOIN sample s ON s.id = i.epak_id`);
    await client.query('SELECT pakt_sync_inbox(id) FROM sample');
    const { rows } = await client.query<{ n: string }>(`SELECT count(*) AS n FROM (
      (SELECT i.* FROM epak_inbox i JOIN sample s ON s.id = i.epak_id EXCEPT ALL SELECT * FROM inbox_before)
      UNION ALL
      (SELECT * FROM inbox_before EXCEPT ALL SELECT i.* FROM epak_inbox i JOIN sample s ON s.id = i.epak_id)
    ) d`);
    const { rows: sampled } = await client.query<{ n: string }>('SELECT count(*) AS n FROM sample');
    if (Number(rows[0]!.n) !== 0) throw new Error(`bulk-built inbox differs from pakt_sync_inbox in ${rows[0]!.n} rows`);
    console.log(`  verified: pakt_sync_inbox on ${sampled[0]!.n} sampled ePaks (40 of each kind) changes no inbox row`);
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

interface Cell {
  p50: number;
  p95: number;
  max: number;
}
type Person = 'owner' | 'signer';

function percentile(sorted: number[], p: number): number {
  return sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)]!;
}

function inboxPath(folder: Folder, sort: Sort, order: 'asc' | 'desc', pg: number) {
  return `/msbapi/v2/epaks?folder=${folder}&pg=${pg}&size=${PAGE_SIZE}&sort=${sort}&order=${order}`;
}

async function measureLatencies(base: string, headers: Record<Person, Record<string, string>>, totals: Seeded['inboxTotals']) {
  const cells = {} as Record<Person, Record<Folder, Record<Sort, Cell>>>;
  let requests = 0;
  for (const person of ['signer', 'owner'] as const) {
    cells[person] = {} as Record<Folder, Record<Sort, Cell>>;
    for (const folder of FOLDERS) {
      cells[person][folder] = {} as Record<Sort, Cell>;
      for (const sort of INBOX_SORTS) {
        const ms: number[] = [];
        for (let n = 0; n < REQUESTS; n++) {
          const pg = PAGES[n % PAGES.length]!;
          // Both orders, alternating: newest first is the default, oldest first the other click.
          const order = n % 2 === 0 ? 'desc' : 'asc';
          const res = await get(new URL(inboxPath(folder, sort, order, pg), base).toString(), headers[person]);
          requests++;
          if (res.status !== 200) throw new Error(`${person} ${folder} ${sort} pg=${pg}: HTTP ${res.status} ${res.body.slice(0, 300)}`);
          const page = (JSON.parse(res.body) as { data: { total: number; items: unknown[] } }).data;
          const expected = Math.max(0, Math.min(PAGE_SIZE, page.total - pg * PAGE_SIZE));
          if (page.items.length !== expected) throw new Error(`${person} ${folder} ${sort} pg=${pg}: ${page.items.length} items, expected ${expected} (total ${page.total})`);
          if (page.total !== totals[person][folder]) throw new Error(`${person} ${folder}: total ${page.total}, seeded ${totals[person][folder]}`);
          ms.push(res.ms);
        }
        ms.sort((a, b) => a - b);
        cells[person][folder][sort] = { p50: percentile(ms, 0.5), p95: percentile(ms, 0.95), max: ms.at(-1)! };
      }
      const row = INBOX_SORTS.map((s) => {
        const c = cells[person][folder][s];
        return `${s} ${c.p50.toFixed(1)}/${c.p95.toFixed(1)}/${c.max.toFixed(1)}`;
      });
      console.log(`  ${person.padEnd(6)} ${folder.padEnd(9)} (${String(totals[person][folder]).padStart(7)} rows)  p50/p95/max ms: ${row.join('  ')}`);
    }
  }
  return { cells, requests };
}

interface Throughput {
  label: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  requests: number;
  /** CPU time per request (ms), read from /proc over the measured seconds. */
  cpu: { server: number; postgres: number; loadGenerator: number };
}

/** User + system CPU seconds of a process, from /proc/<pid>/stat (Linux). */
function cpuSecondsOf(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/** CPU seconds of every PostgreSQL process (backends, writer, WAL...) on this machine. */
function postgresCpuSeconds(): number {
  let total = 0;
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (fs.readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === 'postgres') total += cpuSecondsOf(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return total;
}

async function measureThroughput(label: string, url: string, headers: Record<string, string>, serverPid: number): Promise<Throughput> {
  // Warm-up: JIT, the pool's connections and the plan cache are not what we measure.
  await autocannon({ url, connections: CONNECTIONS, duration: 2, headers });
  const before = { server: cpuSecondsOf(serverPid), postgres: postgresCpuSeconds(), self: process.cpuUsage() };
  const r = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS, headers });
  const self = process.cpuUsage(before.self);
  const perRequest = (seconds: number) => (seconds * 1000) / Math.max(1, r.requests.total);
  const cpu = {
    server: perRequest(cpuSecondsOf(serverPid) - before.server),
    postgres: perRequest(postgresCpuSeconds() - before.postgres),
    loadGenerator: perRequest((self.user + self.system) / 1e6),
  };
  const t = { label, requestsPerSecond: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx, errors: r.errors, requests: r.requests.total, cpu };
  console.log(
    `  ${label}: ${Math.round(t.requestsPerSecond)} req/s, p50 ${t.p50} ms, p99 ${t.p99} ms, non-2xx ${t.non2xx}, errors ${t.errors}; ` +
      `CPU ms per request: server ${cpu.server.toFixed(2)}, postgres ${cpu.postgres.toFixed(2)}, autocannon ${cpu.loadGenerator.toFixed(2)}`,
  );
  return t;
}

/** The inbox statement of list-inbox.ts, EXPLAINed as the server sends it. */
async function explainSlowest(url: string, tenantId: string, userId: string, folder: Folder, sort: Sort): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const out: string[] = [];
  try {
    const deepest = Math.max(...PAGES);
    for (const [order, pgNo] of [
      ['desc', 0],
      ['asc', deepest],
    ] as const) {
      const query = InboxQuery.parse({ folder, sort, order, pg: pgNo, size: PAGE_SIZE });
      const statement = new PgDialect().sqlToQuery(inboxStatement({ tenantId, userId }, query));
      const { rows: plan } = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${statement.sql}`, statement.params);
      out.push(`-- the inbox statement (list-inbox.ts inboxStatement), ${order}, pg=${pgNo}`, ...plan.map((r) => r['QUERY PLAN']));
    }
  } finally {
    await client.end();
  }
  return out.join('\n');
}

/** The hottest functions (self time) of a V8 CPU profile. */
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
  const total = profile.samples.length;
  return [...self]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 15)
    .map(([k, n]) => `${((100 * n) / total).toFixed(1).padStart(5)}%  ${k}`)
    .join('\n');
}

// ---------------------------------------------------------------------------------------------
// Report
// ---------------------------------------------------------------------------------------------

const fmt = (n: number) => n.toLocaleString('en-US');
const loadavg = () => fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

function render(args: {
  seeded: Seeded;
  cells: Record<Person, Record<Folder, Record<Sort, Cell>>>;
  requests: number;
  throughput: Throughput[];
  loadBefore: string;
  loadAfter: string;
  worst: { person: Person; folder: Folder; sort: Sort; cell: Cell };
  explain?: string;
  profile?: string;
  pgVersion: string;
  sharedBuffers: string;
}): string {
  const { seeded, cells, throughput, worst } = args;
  const p95Met = worst.cell.p95 < P95_TARGET_MS;
  const inbox = throughput[0]!;
  const afresh = throughput[2]!;
  const rpsMet = inbox.requestsPerSecond >= RPS_TARGET;
  const table = (person: Person) => [
    `| folder | rows | ${INBOX_SORTS.join(' | ')} |`,
    `|---|---:|${INBOX_SORTS.map(() => '---:').join('|')}|`,
    ...FOLDERS.map((f) => `| ${f} | ${fmt(seeded.inboxTotals[person][f] ?? 0)} | ${INBOX_SORTS.map((s) => cells[person][f][s].p95.toFixed(1)).join(' | ')} |`),
  ];
  const all = (Object.values(cells) as Array<Record<Folder, Record<Sort, Cell>>>).flatMap((byFolder) => Object.values(byFolder).flatMap((bySort) => Object.values(bySort)));
  const medianP50 = all.map((c) => c.p50).sort((a, b) => a - b)[Math.floor(all.length / 2)]!;
  const lines = [
    `## Inbox at ${fmt(EPAKS)} ePaks (PostgreSQL)`,
    '',
    `Run: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, \`npm run bench:inbox -w @pakt/bench\` (bench/src/inbox.ts), Node ${process.version},`,
    `${os.cpus().length} cores, ${args.pgVersion} (shared_buffers ${args.sharedBuffers}), server in its own process with its default pool of 10.`,
    `**Load average ${args.loadBefore} before the measurements and ${args.loadAfter} after** (1, 5, 15 min)${
      Number(args.loadBefore.split(' ')[0]) < 2 ? ': nothing else was running.' : ': other work shared the two cores, so these are numbers from a busy machine.'
    }`,
    '',
    `Seed: one tenant; an owner (custodian) who sent all ${fmt(EPAKS)} ePaks; a heavy signer in the SIGN step (2) of`,
    `every one; ${REVIEWERS} other members reviewing (REVIEW step 1, one each). Statuses spread over every folder:`,
    KINDS.map(([k, p]) => `${k.replaceAll('_', ' ')} ${p}%`).join(', ') + '.',
    'Dates spread over two years, one in ten without an expiry; the signer has read six in ten and starred one in twenty.',
    `Loaded set-based in ${args.seeded.seconds.toFixed(0)} s (${fmt(seeded.rows.epaks!)} epaks, ${fmt(seeded.rows.epak_steps!)} steps, ${fmt(seeded.rows.epak_recipients!)} places,`,
    `${fmt(seeded.rows.epak_user_states!)} user states, **${fmt(seeded.rows.epak_inbox!)} inbox rows**), the inbox built with the trigger's own`,
    '`pakt_inbox_folders` in one statement, then VACUUM ANALYZE (as autovacuum leaves tables at rest); checked after loading: the kept counts equal `count(*)` per folder for',
    'both people, and `pakt_sync_inbox` on a sample of every kind changes no row.',
    '',
    `### p95 of one 50-row page (ms), ${REQUESTS} sequential requests per cell`,
    '',
    `Each cell: ${REQUESTS} requests over one keep-alive connection, orders alternating desc/asc, pages`,
    `${[...new Set(PAGES)].sort((a, b) => a - b).join(', ')} (page 0 most often); every answer checked: 200, the folder's total, and`,
    `min(50, total − pg·50) items. ${fmt(args.requests)} requests in all; median p50 ${medianP50.toFixed(1)} ms.`,
    '',
    'Heavy signer (recipient of every ePak):',
    '',
    ...table('signer'),
    '',
    'Owner (sent every ePak):',
    '',
    ...table('owner'),
    '',
    `Worst p95: **${worst.cell.p95.toFixed(1)} ms** (${worst.person}, ${worst.folder}, ${worst.sort}; p50 ${worst.cell.p50.toFixed(1)}, max ${worst.cell.max.toFixed(1)}).`,
    '',
    `### Requests per second (autocannon, ${CONNECTIONS} connections, ${SECONDS} s after a 2 s warm-up)`,
    '',
    'The latency matrix above is measured with the page cache off: every page is read from the database. As installed, each',
    'server process keeps answered pages (INBOX_PAGE_CACHE_ENTRIES, default 500) and answers a repeated one after one small query',
    "(the caller's inbox version, which the inbox sync bumps whenever any of their ePaks changes in anything a summary shows);",
    'the rates below give both.',
    '',
    'CPU per request: milliseconds of CPU time (user + system, from /proc) spent over the measured seconds by the server process, by',
    'all PostgreSQL processes and by the load generator, divided by the requests answered; on 2 cores their sum bounds the rate.',
    '',
    '| request | req/s | p50 | p99 | non-2xx | CPU ms/request: server | PostgreSQL | autocannon |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    ...throughput.map(
      (t) =>
        `| ${t.label} | ${fmt(Math.round(t.requestsPerSecond))} | ${t.p50} ms | ${t.p99} ms | ${t.non2xx} | ${t.cpu.server.toFixed(2)} | ${t.cpu.postgres.toFixed(2)} | ${t.cpu.loadGenerator.toFixed(2)} |`,
    ),
    '',
    '### Targets',
    '',
    `- p95 under ${P95_TARGET_MS} ms for every folder × sort: **${p95Met ? 'met' : 'not met'}** (worst ${worst.cell.p95.toFixed(1)} ms).`,
    `- at least ${fmt(RPS_TARGET)} authenticated requests per second (signer's Inbox, page 0, as installed): **${rpsMet ? 'met' : 'not met'}** (${fmt(Math.round(inbox.requestsPerSecond))} req/s).`,
    `  With every page read afresh from the database (cache off): ${afresh.requestsPerSecond >= RPS_TARGET ? 'met' : 'not met'} (${fmt(Math.round(afresh.requestsPerSecond))} req/s).`,
    `- Load average during the run: ${args.loadBefore} → ${args.loadAfter} on ${os.cpus().length} cores.`,
  ];
  if (args.explain) {
    lines.push(
      '',
      `Where the time of the worst cell goes: the server's queries for it (list-inbox.ts, summaries.ts), EXPLAIN ANALYZE:`,
      '',
      '```',
      args.explain,
      '```',
    );
  }
  if (args.profile) {
    lines.push('', 'Server CPU profile over the run, hottest functions by self time:', '', '```', args.profile, '```');
  }
  lines.push('');
  return lines.join('\n');
}

/** Replaces this benchmark's section of docs/benchmarks.md (any ePak count), leaving the others as they are. */
function writeSection(section: string) {
  const doc = path.join(REPO_ROOT, 'docs/benchmarks.md');
  const current = fs.existsSync(doc) ? fs.readFileSync(doc, 'utf8') : '# Benchmarks\n';
  const heading = /^## Inbox at [\d,]+ ePaks \(PostgreSQL\)$/m;
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
  console.log(`inbox bench: ${fmt(EPAKS)} ePaks, load average ${loadavg()}`);
  const reuse = process.env.INBOX_REUSE_DATABASE;
  const scratch = reuse ? reusedDatabase(reuse) : await scratchDatabase();
  let server: Awaited<ReturnType<typeof startServerProcess>> | undefined;
  const profileDir = CPU_PROF ? fs.mkdtempSync(path.join(os.tmpdir(), 'pakt-inbox-prof-')) : undefined;
  try {
    // Migrated by the server's own code, as a fresh install would be (a reused database gets what
    // came since its seed).
    const database = await openDatabase({ kind: 'postgres', url: scratch.url });
    try {
      await database.migrate();
    } finally {
      await database.close();
    }
    let seeded: Seeded;
    if (reuse) {
      seeded = JSON.parse(fs.readFileSync(seedRecordOf(reuse), 'utf8')) as Seeded;
      console.log(`reusing ${reuse}, seeded earlier in ${seeded.seconds.toFixed(1)} s:`, seeded.rows);
    } else {
      console.log('seeding:');
      seeded = await seed(scratch.url);
      console.log(`seeded in ${seeded.seconds.toFixed(1)} s:`, seeded.rows);
      fs.writeFileSync(seedRecordOf(new URL(scratch.url).pathname.slice(1)), JSON.stringify(seeded));
      if (process.env.INBOX_SEED_ONLY === '1') {
        console.log(`seeded database kept for INBOX_REUSE_DATABASE=${new URL(scratch.url).pathname.slice(1)}`);
        return;
      }
    }

    // First with the page cache off, so that every page is read from the database: the latency
    // matrix and the uncached rates. Then with the cache as installed, for the repeated page.
    server = await startServerProcess(scratch.url, { profileDir, pageCacheEntries: 0 });
    console.log(`server at ${server.url} (page cache off)`);
    const tokens = { owner: await signIn(server.url, seeded.owner.email), signer: await signIn(server.url, seeded.signer.email) };
    const headers: Record<Person, Record<string, string>> = {
      owner: { authorization: `Bearer ${tokens.owner}`, 'x-tenant-id': seeded.tenantId },
      signer: { authorization: `Bearer ${tokens.signer}`, 'x-tenant-id': seeded.tenantId },
    };

    const loadBefore = loadavg();
    console.log(`latency (load average ${loadBefore}):`);
    // A short warm-up so the first cell does not pay for JIT and cold connections.
    for (let n = 0; n < 30; n++) await get(new URL(inboxPath('Inbox', 'sentOn', 'desc', n % 3), server.url).toString(), headers.signer);
    const { cells, requests } = await measureLatencies(server.url, headers, seeded.inboxTotals);
    console.log('throughput:');
    const at = (url: string) => new URL(url, server!.url).toString();
    const throughput = [
      await measureThroughput("signer's Inbox, page 0, sentOn, 50 rows, read afresh (cache off)", at(inboxPath('Inbox', 'sentOn', 'desc', 0)), headers.signer, server.child.pid!),
      await measureThroughput("owner's Pending, page 0, sentOn, 50 rows, read afresh (cache off)", at(inboxPath('Pending', 'sentOn', 'desc', 0)), headers.owner, server.child.pid!),
      // For comparison, what the request costs without its rows: the same call on an empty folder
      // (sign-in check, tenant, counts, page query), and the framework alone (no sign-in, no query).
      await measureThroughput("signer's Draft (empty), same call, 0 rows (cache off)", at(inboxPath('Draft', 'sentOn', 'desc', 0)), headers.signer, server.child.pid!),
      await measureThroughput('GET /msbapi/public/alive (no sign-in, no query)', at('/msbapi/public/alive'), {}, server.child.pid!),
    ];
    await server.stop();
    server = await startServerProcess(scratch.url);
    console.log(`server at ${server.url} (page cache as installed)`);
    throughput.unshift(
      await measureThroughput("signer's Inbox, page 0, sentOn, 50 rows (page cache on, the default)", at(inboxPath('Inbox', 'sentOn', 'desc', 0)), headers.signer, server.child.pid!),
      await measureThroughput("owner's Pending, page 0, sentOn, 50 rows (page cache on, the default)", at(inboxPath('Pending', 'sentOn', 'desc', 0)), headers.owner, server.child.pid!),
    );
    const loadAfter = loadavg();
    for (const t of throughput) {
      if (t.non2xx > 0 || t.errors > 0) throw new Error(`${t.label}: ${t.non2xx} non-2xx answers, ${t.errors} errors`);
    }

    let worst: { person: Person; folder: Folder; sort: Sort; cell: Cell } | undefined;
    for (const person of ['signer', 'owner'] as const) {
      for (const folder of FOLDERS) {
        for (const sort of INBOX_SORTS) {
          const cell = cells[person][folder][sort];
          if (!worst || cell.p95 > worst.cell.p95) worst = { person, folder, sort, cell };
        }
      }
    }
    const targetsMet = worst!.cell.p95 < P95_TARGET_MS && throughput[0]!.requestsPerSecond >= RPS_TARGET;
    const explain = await explainSlowest(scratch.url, seeded.tenantId, seeded[worst!.person].id, worst!.folder, worst!.sort);
    console.log(`EXPLAIN ANALYZE of the worst cell (${worst!.person} ${worst!.folder} ${worst!.sort}):\n${explain}`);

    await server.stop();
    server = undefined;
    const profile = profileDir ? summarizeProfile(profileDir) : undefined;
    if (profile) console.log(`server CPU profile, self time:\n${profile}`);

    const admin = new pg.Client({ connectionString: scratch.url });
    await admin.connect();
    const { rows: v } = await admin.query<{ v: string; sb: string }>(`SELECT split_part(version(), ' ', 2) AS v, current_setting('shared_buffers') AS sb`);
    await admin.end();

    const section = render({
      seeded,
      cells,
      requests,
      throughput,
      loadBefore,
      loadAfter,
      worst: worst!,
      explain: targetsMet ? undefined : explain,
      profile,
      pgVersion: `PostgreSQL ${v[0]!.v}`,
      sharedBuffers: v[0]!.sb,
    });
    writeSection(section);
    console.log(`\n${section}`);
  } finally {
    await server?.stop().catch(() => {});
    // INBOX_KEEP_DATABASE=1 keeps the seeded database for a closer look (drop it by hand); so do
    // a seed-only run and a reusing one.
    if (process.env.INBOX_KEEP_DATABASE === '1' || process.env.INBOX_SEED_ONLY === '1' || reuse) console.log(`database kept: ${scratch.url}`);
    else await scratch.drop();
    // The profile stays for a closer look (chrome://inspect or any .cpuprofile viewer).
    if (profileDir) console.log(`CPU profile kept in ${profileDir}`);
  }
}

if (process.argv.includes('--serve')) await serve();
else await main();
