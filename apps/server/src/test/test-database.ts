import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { type Database, openDatabase } from '../db/database';
import { startJobQueue } from '../jobs/job-queue';
import { REPO_ROOT } from '../paths';

/** Which backend the server suites run on: PGlite unless TEST_DATABASE_URL names a server. */
export function testBackend(): { kind: 'pglite' } | { kind: 'postgres'; adminUrl: string } {
  const url = process.env.TEST_DATABASE_URL;
  return url ? { kind: 'postgres', adminUrl: url } : { kind: 'pglite' };
}

export const TEMPLATE_ROOT = path.join(REPO_ROOT, '.tmp', 'test-template');

export function templateDatabaseName(): string {
  return 'pakt_test_template';
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

export async function buildTemplate(): Promise<void> {
  const backend = testBackend();
  if (backend.kind === 'pglite') {
    const dir = path.join(TEMPLATE_ROOT, `pglite-${process.pid}`);
    fs.rmSync(dir, { recursive: true, force: true });
    const database = await openDatabase({ kind: 'pglite', dataDir: dir, lock: false });
    await prepareDatabase(database);
    await database.close();
    fs.writeFileSync(path.join(TEMPLATE_ROOT, 'current'), dir);
    return;
  }
  const admin = new pg.Client({ connectionString: backend.adminUrl });
  await admin.connect();
  try {
    const name = templateDatabaseName();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${name}`);
    const database = await openDatabase({ kind: 'postgres', url: databaseUrl(backend.adminUrl, name), poolSize: 2 });
    await prepareDatabase(database);
    await database.close();
  } finally {
    await admin.end();
  }
}

export type TestDatabase = Database & { location: string };

/**
 * A fresh, migrated database for one test file: a copy of the PGlite template directory
 * (about a second, where initdb takes ~13 s), or a PostgreSQL database cloned from the template.
 * Closing it deletes it.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const backend = testBackend();
  if (backend.kind === 'pglite') {
    const template = fs.readFileSync(path.join(TEMPLATE_ROOT, 'current'), 'utf8');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pakt-test-db-'));
    fs.cpSync(template, dir, { recursive: true });
    const database = await openDatabase({ kind: 'pglite', dataDir: dir });
    return {
      ...database,
      location: dir,
      async close() {
        await database.close();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const name = `pakt_test_${randomUUID().replaceAll('-', '')}`;
  const admin = new pg.Client({ connectionString: backend.adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${templateDatabaseName()}`);
  } finally {
    await admin.end();
  }
  const database = await openDatabase({ kind: 'postgres', url: databaseUrl(backend.adminUrl, name), poolSize: 4 });
  return {
    ...database,
    location: name,
    async close() {
      await database.close();
      const drop = new pg.Client({ connectionString: backend.adminUrl });
      await drop.connect();
      try {
        await drop.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await drop.end();
      }
    },
  };
}
