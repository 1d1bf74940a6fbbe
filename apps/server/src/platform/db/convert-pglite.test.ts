import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import PgBoss from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { PGBOSS_SCHEMA, defineJob, startJobQueue } from '../jobs/job-queue';
import { MIGRATIONS_DIR, REPO_ROOT } from '../../paths';
import {
  CONVERSION_PATHS,
  PgliteConversionError,
  classifyDatabaseDirectory,
  convertPgliteDataDirectory,
  resolveDataDirectory,
  splitSqlScript,
} from './convert-pglite';
import { openEmbeddedDatabase, type SqlExecutor } from './database';
import { CONVERT_COMMAND, LegacyDataDirectoryError, startEmbeddedPostgres } from './embedded-postgres';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'pakt-convert-pglite-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

/** Text that a naive split at semicolons, or a lost encoding, would break. */
const SUBJECT = "Lease; part 2\n'Quoted' -- not a comment; $$ not a body $$ /* nor this */ नमस्ते \\ done";
const JOB = defineJob({ name: 'convert-pglite-test', payload: z.object({ n: z.number() }), run: async () => {} });

interface Fixture {
  /** A DATA_DIR whose db is a PGlite directory, one migration behind, with rows and a pending job. */
  dataDir: string;
  tenantId: string;
  userId: string;
  jobId: string;
  migrations: number;
}
let fixture: Fixture;

function pgliteExecutor(client: PGlite): SqlExecutor {
  return {
    async executeSql(text, values) {
      // As the server's PGlite executor did: query() takes one statement, pg-boss also sends scripts.
      if (values && values.length > 0) return client.query(text, values);
      const results = await client.exec(text);
      return { rows: results.at(-1)?.rows ?? [] };
    },
  };
}

/** The migrations folder without its newest migration: a directory an older server left. */
function olderMigrations(): { folder: string; total: number } {
  const folder = path.join(root, 'migrations-older');
  fs.cpSync(MIGRATIONS_DIR, folder, { recursive: true });
  const journalFile = path.join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(fs.readFileSync(journalFile, 'utf8')) as { entries: unknown[] };
  const total = journal.entries.length;
  journal.entries.pop();
  fs.writeFileSync(journalFile, JSON.stringify(journal));
  return { folder, total };
}

async function buildPgliteDataDirectory(dataDir: string): Promise<Fixture> {
  const { folder, total } = olderMigrations();
  fs.mkdirSync(dataDir, { recursive: true });
  const client = await PGlite.create({ dataDir: path.join(dataDir, 'db'), extensions: { pg_trgm } });
  try {
    await migrate(drizzle(client), { migrationsFolder: folder });
    // Only columns every migration level has.
    const tenant = await client.query<{ id: string }>(`insert into tenants (name) values ('Acme Pvt Ltd') returning id`);
    const tenantId = tenant.rows[0]!.id;
    const user = await client.query<{ id: string }>(
      `insert into users (email, first_name, last_name, status) values ('asha@example.test', 'Asha', 'Rao', 'enabled') returning id`,
    );
    const userId = user.rows[0]!.id;
    await client.query(`insert into memberships (tenant_id, user_id, role, status) values ($1, $2, 'admin', 'active')`, [tenantId, userId]);
    await client.query(`insert into epaks (tenant_id, owner_id, subject, signing_policy) values ($1, $2, $3, 'sequential')`, [tenantId, userId, SUBJECT]);
    for (let i = 0; i < 2500; i++) {
      // More rows than one INSERT of the dump holds.
      await client.query(`insert into system_settings (key, value) values ($1, $2)`, [`test.${i}`, JSON.stringify({ i, note: 'a;b' })]);
    }
    // pg-boss installs its schema; a job waits in it, as one would when the old server stopped.
    const boss = new PgBoss({ db: pgliteExecutor(client), schema: PGBOSS_SCHEMA, supervise: false, schedule: false });
    await boss.start();
    await boss.createQueue(JOB.name, { name: JOB.name });
    const jobId = (await boss.send(JOB.name, { n: 7 }))!;
    await boss.stop({ graceful: false, close: false });
    return { dataDir, tenantId, userId, jobId, migrations: total };
  } finally {
    await client.close();
  }
}

/** A fresh copy of the fixture's data directory. */
function copyOfFixture(name: string): string {
  const dataDir = path.join(root, name);
  fs.cpSync(fixture.dataDir, dataDir, { recursive: true });
  return dataDir;
}

function listing(dir: string): string[] {
  return fs.readdirSync(dir).sort();
}

beforeAll(async () => {
  fixture = await buildPgliteDataDirectory(path.join(root, 'fixture'));
}, 300_000);

describe('convertPgliteDataDirectory', () => {
  it('is needed: the server refuses a real PGlite directory at start, naming this command, and changes nothing', async () => {
    const dataDir = copyOfFixture('refused');
    const before = listing(path.join(dataDir, 'db'));
    const refusal = startEmbeddedPostgres({ directory: path.join(dataDir, 'db') });
    await expect(refusal).rejects.toThrow(LegacyDataDirectoryError);
    await expect(refusal).rejects.toThrow(`${CONVERT_COMMAND} -- ${dataDir}`);
    expect(listing(path.join(dataDir, 'db'))).toEqual(before);
    expect(listing(dataDir)).toEqual(['db']);
  });

  it('copies every row into a PostgreSQL directory, migrated, and keeps the PGlite one and the dump', async () => {
    const dataDir = copyOfFixture('convert');
    const lines: string[] = [];
    const result = await convertPgliteDataDirectory({ dataDir, durable: false, log: (line) => lines.push(line) });

    expect(result.outcome).toBe('converted');
    expect(listing(dataDir)).toEqual(['db', CONVERSION_PATHS.backup, CONVERSION_PATHS.dump]);
    expect(classifyDatabaseDirectory(path.join(dataDir, 'db')).kind).toBe('embedded');
    expect(classifyDatabaseDirectory(path.join(dataDir, CONVERSION_PATHS.backup)).kind).toBe('pglite');
    expect(fs.statSync(path.join(dataDir, CONVERSION_PATHS.dump)).mode & 0o777).toBe(0o600);
    const counted = (table: string) => result.tables.find((t) => `${t.schema}.${t.table}` === table)?.rows;
    expect(counted('public.tenants')).toBe(1);
    expect(counted('public.epaks')).toBe(1);
    expect(counted('public.system_settings')).toBe(2500);
    expect(counted('pgboss.job')).toBe(1);
    expect(counted('drizzle.__drizzle_migrations')).toBe(fixture.migrations - 1);
    expect(lines.join('\n')).toMatch(/public\.system_settings\s+2500/);

    const database = await openEmbeddedDatabase({ directory: path.join(dataDir, 'db'), durable: false });
    try {
      const rows = async (text: string, values: unknown[] = []) => (await database.executeSql(text, values)).rows;
      expect(await rows('select id, name from tenants')).toEqual([{ id: fixture.tenantId, name: 'Acme Pvt Ltd' }]);
      expect(await rows('select id, email from users')).toEqual([{ id: fixture.userId, email: 'asha@example.test' }]);
      // Migrated after the restore: the newest migration, which the PGlite directory lacked, is applied.
      expect(await rows('select count(*)::int as n from drizzle.__drizzle_migrations')).toEqual([{ n: fixture.migrations }]);
      expect(await rows('select subject from epaks')).toEqual([{ subject: SUBJECT }]);
      expect(await rows(`select value from system_settings where key = 'test.2499'`)).toEqual([{ value: { i: 2499, note: 'a;b' } }]);
      // The trigram index of the global search was rebuilt and answers.
      expect(await rows(`select count(*)::int as n from epaks where lower(subject) like '%part 2%'`)).toEqual([{ n: 1 }]);
      // The pending job survived, and pg-boss takes its schema as it finds it.
      const jobs = await startJobQueue({ executor: database, supervise: false });
      try {
        expect(await jobs.state(JOB, fixture.jobId)).toBe('created');
      } finally {
        await jobs.stop();
      }
    } finally {
      await database.close();
    }

    // The backup still opens in PGlite, with the rows it had.
    const backup = await PGlite.create({ dataDir: path.join(dataDir, CONVERSION_PATHS.backup), extensions: { pg_trgm } });
    try {
      expect((await backup.query('select subject from epaks')).rows).toEqual([{ subject: SUBJECT }]);
    } finally {
      await backup.close();
    }

    const again: string[] = [];
    const second = await convertPgliteDataDirectory({ dataDir, durable: false, log: (line) => again.push(line) });
    expect(second.outcome).toBe('already-converted');
    expect(again.join('\n')).toMatch(/already/);
    expect(listing(dataDir)).toEqual(['db', CONVERSION_PATHS.backup, CONVERSION_PATHS.dump]);

    // Stopped between its two renames, a run leaves no db: the next one finishes the move.
    fs.renameSync(path.join(dataDir, 'db'), path.join(dataDir, CONVERSION_PATHS.converting));
    const finished: string[] = [];
    expect((await convertPgliteDataDirectory({ dataDir, durable: false, log: (line) => finished.push(line) })).outcome).toBe('converted');
    expect(finished.join('\n')).toMatch(/stopped just before its end/);
    expect(listing(dataDir)).toEqual(['db', CONVERSION_PATHS.backup, CONVERSION_PATHS.dump]);
    expect(classifyDatabaseDirectory(path.join(dataDir, 'db')).kind).toBe('embedded');
  }, 300_000);

  it('refuses while a server holds the data directory, and changes nothing', async () => {
    const dataDir = copyOfFixture('locked');
    // A live process of this host (our parent) holds the lock, as a running server would.
    fs.writeFileSync(path.join(dataDir, 'db.lock'), JSON.stringify({ pid: process.ppid, hostname: os.hostname(), startedAt: new Date().toISOString() }));
    const before = listing(dataDir);
    const attempt = convertPgliteDataDirectory({ dataDir });
    await expect(attempt).rejects.toThrow(PgliteConversionError);
    await expect(attempt).rejects.toThrow(`A Pakt server is running on this data directory (pid ${process.ppid}`);
    expect(listing(dataDir)).toEqual(before);
    expect(classifyDatabaseDirectory(path.join(dataDir, 'db')).kind).toBe('pglite');
  });

  it.runIf(process.getuid?.() === 0)('as root, refuses a directory of another user, whose server could not start the result', async () => {
    const dataDir = copyOfFixture('owned');
    fs.chownSync(path.join(dataDir, 'db'), 4321, 4321);
    await expect(convertPgliteDataDirectory({ dataDir })).rejects.toThrow(/belongs to the user with uid 4321.*Run it as that user/s);
    expect(listing(dataDir)).toEqual(['db']);
  });

  it('leaves db as it was and removes the new directory when a step fails', async () => {
    const dataDir = copyOfFixture('failing');
    // A migration journal that lost its entries: migrate() starts again from the first migration,
    // after the restore, and fails on the tables that are there.
    const client = await PGlite.create({ dataDir: path.join(dataDir, 'db'), extensions: { pg_trgm } });
    await client.exec('delete from drizzle.__drizzle_migrations');
    await client.close();

    // Left by a run that was killed: removed first.
    fs.mkdirSync(path.join(dataDir, CONVERSION_PATHS.converting));
    fs.writeFileSync(path.join(dataDir, CONVERSION_PATHS.converting, 'PG_VERSION'), '18\n');
    const lines: string[] = [];
    const attempt = convertPgliteDataDirectory({ dataDir, durable: false, log: (line) => lines.push(line) });
    await expect(attempt).rejects.toThrow(/The conversion failed: .*already exists/s);
    expect(lines.join('\n')).toMatch(/left by an earlier conversion/);
    await expect(attempt).rejects.toThrow(/Nothing was changed/);
    expect(listing(dataDir)).toEqual(['db', CONVERSION_PATHS.dump]);
    expect(classifyDatabaseDirectory(path.join(dataDir, 'db')).kind).toBe('pglite');
    expect(fs.existsSync(path.join(dataDir, 'db.lock'))).toBe(false);
  }, 300_000);

  it('says there is nothing to convert where there is no database', async () => {
    const dataDir = path.join(root, 'empty');
    fs.mkdirSync(dataDir);
    await expect(convertPgliteDataDirectory({ dataDir })).rejects.toThrow(/no database in .*nothing to convert/);
    await expect(convertPgliteDataDirectory({ dataDir: path.join(root, 'missing') })).rejects.toThrow(/does not exist: nothing to convert/);
    expect(listing(dataDir)).toEqual([]);
  });
});

describe('resolveDataDirectory', () => {
  it('takes the argument, else DATA_DIR, relative to where npm was started, else the repository data', () => {
    expect(resolveDataDirectory('./data', { INIT_CWD: '/srv/pakt' })).toBe('/srv/pakt/data');
    expect(resolveDataDirectory('/var/lib/pakt', { INIT_CWD: '/srv/pakt', DATA_DIR: '/elsewhere' })).toBe('/var/lib/pakt');
    expect(resolveDataDirectory(undefined, { INIT_CWD: '/srv/pakt', DATA_DIR: 'store' })).toBe('/srv/pakt/store');
    expect(resolveDataDirectory(undefined, {})).toBe(path.join(REPO_ROOT, 'data'));
  });
});

describe('splitSqlScript', () => {
  it('splits at semicolons outside strings, names, bodies and comments, and drops \\restrict lines', () => {
    const script = [
      '\\restrict abc123',
      "SET client_encoding = 'UTF8';",
      '-- a comment; with a semicolon',
      "INSERT INTO public.t VALUES (1, 'a;\nb', 'it''s; fine'), (2, E'back\\\\slash\\'; quote', '');",
      'CREATE FUNCTION public.f() RETURNS trigger LANGUAGE plpgsql AS $_$ begin perform 1; return new; end $_$;',
      'CREATE TABLE "odd;name" (x$y int, "q""uote;" text); /* block; /* nested; */ still */',
      'SELECT $$a;b$$;',
      '\\unrestrict abc123',
      '',
    ].join('\n');
    expect(splitSqlScript(script)).toEqual([
      "SET client_encoding = 'UTF8';",
      "-- a comment; with a semicolon\nINSERT INTO public.t VALUES (1, 'a;\nb', 'it''s; fine'), (2, E'back\\\\slash\\'; quote', '');",
      'CREATE FUNCTION public.f() RETURNS trigger LANGUAGE plpgsql AS $_$ begin perform 1; return new; end $_$;',
      'CREATE TABLE "odd;name" (x$y int, "q""uote;" text);',
      '/* block; /* nested; */ still */\nSELECT $$a;b$$;',
    ]);
    expect(splitSqlScript('SELECT 1; -- the end\nSELECT 2')).toEqual(['SELECT 1;', '-- the end\nSELECT 2']);
    expect(() => splitSqlScript("SELECT 'open")).toThrow(/ends inside a string/);
    expect(() => splitSqlScript('\\connect other')).toThrow(/psql command/);
  });
});
