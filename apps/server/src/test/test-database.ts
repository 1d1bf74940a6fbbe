import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { type Database, openDatabase } from '../platform/db/database';
import { DirectoryLockedError, acquireDirectoryLock } from '../platform/db/directory-lock';
import { type EmbeddedPostgres, startEmbeddedPostgres, stopOrphanPostmaster } from '../platform/db/embedded-postgres';
import { startJobQueue } from '../platform/jobs/job-queue';
import { REPO_ROOT } from '../paths';

/**
 * The server suites run on one PostgreSQL per run: the one at TEST_DATABASE_URL, or an embedded
 * one the global setup starts (fsync off: a throwaway cluster). The setup hands its admin URL and
 * the run's template database to the test workers through these variables; a server process a
 * test starts inherits them too.
 */
const ADMIN_URL_VARIABLE = 'PAKT_TEST_ADMIN_URL';
const TEMPLATE_VARIABLE = 'PAKT_TEST_TEMPLATE';

/** Where embedded test clusters live, one directory per run. */
export const TEST_CLUSTERS_ROOT = path.join(REPO_ROOT, '.tmp', 'test-postgres');

/** The PostgreSQL the server suites run on (always PostgreSQL, now). */
export function testBackend(): { kind: 'postgres'; adminUrl: string } {
  const adminUrl = process.env[ADMIN_URL_VARIABLE];
  if (!adminUrl) throw new Error(`${ADMIN_URL_VARIABLE} is not set: the server suites start through apps/server/src/test/global-setup.ts`);
  return { kind: 'postgres', adminUrl };
}

/** This run's migrated template database: named per run, so that no run drops another's. */
export function templateDatabaseName(): string {
  const name = process.env[TEMPLATE_VARIABLE];
  if (!name) throw new Error(`${TEMPLATE_VARIABLE} is not set: the server suites start through apps/server/src/test/global-setup.ts`);
  return name;
}

export function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Migrates a database and lets pg-boss install its schema, as a server start would. */
export async function prepareDatabase(database: Database): Promise<void> {
  await database.migrate();
  const jobs = await startJobQueue({ executor: database, supervise: false });
  await jobs.stop();
}

async function withAdmin<T>(adminUrl: string, fn: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    return await fn(admin);
  } finally {
    await admin.end();
  }
}

/**
 * Clusters of earlier runs that were killed before their teardown: their directory lock names a
 * process that is gone. Their PostgreSQL may still run (an orphan): it is stopped, then removed.
 */
async function removeAbandonedClusters(): Promise<void> {
  let names: string[];
  try {
    names = fs.readdirSync(TEST_CLUSTERS_ROOT).filter((name) => !name.endsWith('.lock'));
  } catch {
    return;
  }
  for (const name of names) {
    const directory = path.join(TEST_CLUSTERS_ROOT, name);
    let lock;
    try {
      lock = acquireDirectoryLock(directory);
    } catch (error) {
      if (error instanceof DirectoryLockedError) continue; // another run's, alive
      throw error;
    }
    try {
      await stopOrphanPostmaster(path.join(directory, 'db'));
      fs.rmSync(directory, { recursive: true, force: true });
    } finally {
      lock.release();
    }
  }
}

/**
 * For the global setup: starts the run's PostgreSQL (unless TEST_DATABASE_URL names one), builds
 * the run's template, and sets the variables the workers read. The answer undoes it all.
 */
export async function startTestPostgres(): Promise<() => Promise<void>> {
  let adminUrl = process.env.TEST_DATABASE_URL;
  let embedded: EmbeddedPostgres | undefined;
  let release = () => {};
  let clusterDir: string | undefined;
  if (!adminUrl) {
    await removeAbandonedClusters();
    clusterDir = path.join(TEST_CLUSTERS_ROOT, `${process.pid}-${randomBytes(3).toString('hex')}`);
    release = acquireDirectoryLock(clusterDir).release;
    embedded = await startEmbeddedPostgres({ directory: path.join(clusterDir, 'db'), durable: false, onLog: reportTestPostgres });
    adminUrl = embedded.url;
  }
  const template = `pakt_template_${randomBytes(6).toString('hex')}`;
  process.env[ADMIN_URL_VARIABLE] = adminUrl;
  process.env[TEMPLATE_VARIABLE] = template;
  const url = adminUrl;
  await withAdmin(url, (admin) => admin.query(`CREATE DATABASE ${template}`));
  const database = await openDatabase({ url: databaseUrl(url, template), poolSize: 2 });
  try {
    await prepareDatabase(database);
  } finally {
    await database.close();
  }
  return async () => {
    await withAdmin(url, (admin) => admin.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`)).catch(() => {});
    await embedded?.stop();
    if (clusterDir) fs.rmSync(clusterDir, { recursive: true, force: true });
    release();
  };
}

/**
 * What the run's PostgreSQL says that is news: a FATAL or a PANIC. Tests drop databases WITH
 * (FORCE) and terminate backends on purpose, and each such connection's FATAL line is not news.
 */
function reportTestPostgres(line: string): void {
  // ERROR lines are the constraint violations and bad input that tests provoke on purpose.
  if (!/\b(FATAL|PANIC):/.test(line) || /terminating connection due to administrator command|the database system is shutting down/.test(line)) return;
  console.error(`[test postgres] ${line}`);
}

export type TestDatabase = Database & { location: string };

/** A fresh, migrated database for one test file, cloned from the run's template. Closing it drops it. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const { adminUrl } = testBackend();
  const name = `pakt_test_${randomUUID().replaceAll('-', '')}`;
  await withAdmin(adminUrl, (admin) => admin.query(`CREATE DATABASE ${name} TEMPLATE ${templateDatabaseName()}`));
  const database = await openDatabase({ url: databaseUrl(adminUrl, name), poolSize: 4 });
  return {
    ...database,
    location: name,
    async close() {
      await database.close();
      await withAdmin(adminUrl, (admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}
