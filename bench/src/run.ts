/**
 * `npm run bench`: the side-by-side benches of the same build.
 *
 *   npm run bench                       # the embedded PostgreSQL against an external one (bench/src/backends.ts):
 *                                       # Inbox page, ePak detail, upload; idle memory; prints the section
 *                                       # for docs/benchmarks.md
 *   npm run bench -- writes             # the write benches (bench/src/writes.ts) on a scratch database
 *                                       # of that PostgreSQL: signing, tag saves, bulk compose; p50/p95
 *   BENCH_DATABASE_URL=postgres://...   # the external PostgreSQL (a scratch database is made and dropped)
 *
 * The others run on their own: bench:upload, bench:seal, bench:inbox, bench:bulk (see package.json).
 */
import { PG_ADMIN_URL, scratchDatabase, versionOf } from './server-process';
import { runWriteBenches } from './writes';

/**
 * `npm run bench -- writes`: the write benches on the embedded default (a server on a fresh
 * DATA_DIR starts its own PostgreSQL), then on a scratch database of BENCH_DATABASE_URL, dropped
 * after; one table each.
 */
async function writes() {
  await runWriteBenches({ where: 'the embedded PostgreSQL, durable' });
  const scratch = await scratchDatabase('pakt_bench_writes');
  try {
    await runWriteBenches({ databaseUrl: scratch.url, where: `${await versionOf(scratch.url)} at ${new URL(PG_ADMIN_URL).host}, scratch database` });
  } finally {
    await scratch.drop();
  }
}

// backends.ts runs itself when imported (it is also `npm run bench:backends`).
await (process.argv.slice(2).includes('writes') ? writes() : import('./backends'));
