/**
 * Converts a data directory made by an earlier Pakt, which embedded PGlite (PostgreSQL in
 * WebAssembly), into one for the embedded PostgreSQL this Pakt runs: `npm run db:convert-pglite`.
 *
 * PGlite 0.5 is PostgreSQL 18 too, and its directory says 18 in PG_VERSION; but it is a 32-bit
 * build (no float8 by value), so a native PostgreSQL refuses its files ("database files are
 * incompatible with server"). The rows have to be copied: PGlite opens the old directory, the
 * WebAssembly pg_dump of @electric-sql/pglite-tools dumps it as plain SQL, and the dump is restored
 * into a new cluster beside it, which then takes the old one's place. What marks a cluster made
 * by the embedded PostgreSQL is the password file its initdb leaves (embedded-postgres.ts); a
 * PGlite directory has none.
 *
 * Nothing is deleted: the old directory stays as DATA_DIR/db.pglite-backup and the dump as
 * DATA_DIR/db.pglite-dump.sql. Until the final renames, DATA_DIR/db is not touched, and the new
 * cluster (DATA_DIR/db.converting) is removed if any step fails.
 *
 * PGlite and pglite-tools are development dependencies of the server, used only here.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { PGlite as PGliteClass } from '@electric-sql/pglite';
import type { pg_trgm as PgTrgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { pgDump as PgDump } from '@electric-sql/pglite-tools/pg_dump';
import pg from 'pg';
import { REPO_ROOT } from '../../paths';
import { openDatabase } from './database';
import { DirectoryLockedError, acquireDirectoryLock } from './directory-lock';
import { EMBEDDED_MAJOR_VERSION, type EmbeddedPostgres, startEmbeddedPostgres, stopOrphanPostmaster } from './embedded-postgres';

/** Where the pieces go, beside DATA_DIR/db. */
export const CONVERSION_PATHS = {
  database: 'db',
  converting: 'db.converting',
  backup: 'db.pglite-backup',
  dump: 'db.pglite-dump.sql',
} as const;

/** The file initdb leaves in every cluster the embedded PostgreSQL made (embedded-postgres.ts). */
const EMBEDDED_PASSWORD_FILE = 'pakt-password';
/** The PostgreSQL major version of the PGlite earlier Pakts embedded (0.5.16: PostgreSQL 18.6). */
const PGLITE_MAJOR_VERSION = '18';

/**
 * pg_dump's options. pglite-tools adds `--inserts` (and `-U postgres -j 1 -f …`) itself: the dump
 * is plain SQL with no COPY … FROM stdin blocks, so it restores statement by statement through the
 * pg driver. Beyond that:
 * - `--rows-per-insert`: one INSERT per 1,000 rows instead of one per row (far fewer statements);
 * - `--no-owner`, `--no-privileges`: PGlite's objects belong to a `postgres` role that the new
 *   cluster does not have; there everything belongs to its superuser, as a fresh install's does;
 * - `--no-tablespaces`, `--encoding=UTF8`: nothing of PGlite's file layout, and text as stored.
 * Every schema is dumped: public, drizzle's migration journal (so `migrate()` continues from the
 * level the old server had reached) and pg-boss's (pending and scheduled jobs are kept; pg-boss
 * finds its schema at its version and leaves it be).
 */
export const PG_DUMP_ARGS = ['--no-owner', '--no-privileges', '--no-tablespaces', '--encoding=UTF8', '--rows-per-insert=1000'];

export class PgliteConversionError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PgliteConversionError';
  }
}

export type DatabaseDirectoryKind =
  /** No cluster there (no directory, or no PG_VERSION in it). */
  | 'none'
  /** Made by PGlite: to convert. */
  | 'pglite'
  /** Made by the embedded PostgreSQL: already converted (or never needed it). */
  | 'embedded'
  /** A PostgreSQL cluster of another major version: neither this PGlite nor this PostgreSQL opens it. */
  | 'unsupported';

export function classifyDatabaseDirectory(directory: string): { kind: DatabaseDirectoryKind; version?: string } {
  let version: string;
  try {
    version = fs.readFileSync(path.join(directory, 'PG_VERSION'), 'utf8').trim();
  } catch {
    return { kind: 'none' };
  }
  if (version === EMBEDDED_MAJOR_VERSION && fs.existsSync(path.join(directory, EMBEDDED_PASSWORD_FILE))) return { kind: 'embedded', version };
  if (version === PGLITE_MAJOR_VERSION) return { kind: 'pglite', version };
  return { kind: 'unsupported', version };
}

/**
 * The data directory the command works on: its argument, else DATA_DIR, else the repository's
 * ./data (the server's own default, config.ts). Relative paths resolve against the directory npm
 * was started from (INIT_CWD), as the server's do.
 */
export function resolveDataDirectory(argument: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  const base = env.INIT_CWD ?? process.cwd();
  if (argument) return path.resolve(base, argument);
  if (env.DATA_DIR) return path.resolve(base, env.DATA_DIR);
  return path.join(REPO_ROOT, 'data');
}

export interface TableRowCount {
  schema: string;
  table: string;
  rows: number;
}

export interface ConversionResult {
  outcome: 'converted' | 'already-converted';
  /** DATA_DIR/db */
  database: string;
  /** The old PGlite directory, when converted. */
  backup?: string;
  /** The SQL dump it was copied through, when converted. */
  dump?: string;
  /** Every table copied, with its row count (checked equal on both sides). */
  tables: TableRowCount[];
}

export interface ConversionOptions {
  /** The DATA_DIR whose `db` to convert. */
  dataDir: string;
  /** Each line of progress, for a person to read. */
  log?: (line: string) => void;
  /** false only in tests: the new cluster is made and filled with fsync off. */
  durable?: boolean;
}

export async function convertPgliteDataDirectory(options: ConversionOptions): Promise<ConversionResult> {
  const log = options.log ?? (() => {});
  const dataDir = path.resolve(options.dataDir);
  const database = path.join(dataDir, CONVERSION_PATHS.database);
  const converting = path.join(dataDir, CONVERSION_PATHS.converting);
  const backup = path.join(dataDir, CONVERSION_PATHS.backup);
  const dumpFile = path.join(dataDir, CONVERSION_PATHS.dump);

  if (!fs.existsSync(dataDir)) {
    throw new PgliteConversionError(`${dataDir} does not exist: nothing to convert. Give the DATA_DIR of the earlier Pakt: ${usage()}`);
  }
  // Read before the lock: a mistyped path should not get a db.lock file made in it.
  const before = classifyDatabaseDirectory(database);
  const interrupted = before.kind === 'none' && !fs.existsSync(database) && fs.existsSync(backup) && classifyDatabaseDirectory(converting).kind === 'embedded';
  const alreadyConverted = () => {
    log(`${database} is already a PostgreSQL ${EMBEDDED_MAJOR_VERSION} directory: nothing to convert.`);
    return { outcome: 'already-converted' as const, database, tables: [] };
  };
  // Said without the lock: a server running on a converted directory is no reason to refuse.
  if (!interrupted && check(before, database) === 'already-converted') return alreadyConverted();
  if (!interrupted) checkOwner(database);

  const lock = lockDataDirectory(database);
  try {
    if (interrupted && !fs.existsSync(database)) return finishInterruptedSwap({ database, converting, backup, log });
    // Looked at again under the lock: another run may have converted it meanwhile.
    if (check(classifyDatabaseDirectory(database), database) === 'already-converted') return alreadyConverted();
    if (fs.existsSync(backup)) {
      throw new PgliteConversionError(
        `${backup} already exists (from an earlier conversion?) and would be overwritten. Nothing was changed. ` +
          'Move it out of the data directory, then run the conversion again.',
      );
    }
    const tables = await copyIntoNewCluster({ database, converting, dumpFile, log, durable: options.durable ?? true });
    swap({ dataDir, database, converting, backup });
    report({ database, backup, dumpFile, tables, log });
    return { outcome: 'converted', database, backup, dump: dumpFile, tables };
  } finally {
    lock.release();
  }
}

/** Refuses what is not a PGlite directory; says which of the harmless cases it is. */
function check(state: { kind: DatabaseDirectoryKind; version?: string }, database: string): 'convert' | 'already-converted' {
  switch (state.kind) {
    case 'pglite':
      return 'convert';
    case 'embedded':
      return 'already-converted';
    case 'none':
      throw new PgliteConversionError(
        `There is no database in ${database}: nothing to convert. ` +
          `If the earlier Pakt kept its data elsewhere, give that DATA_DIR: ${usage()}`,
      );
    case 'unsupported':
      throw new PgliteConversionError(
        `${database} holds a PostgreSQL ${state.version} cluster, which is neither an earlier Pakt's PGlite directory ` +
          `(PostgreSQL ${PGLITE_MAJOR_VERSION}) nor one of this Pakt's. It is left as it is.`,
      );
  }
}

/**
 * As root, the new cluster belongs to the `postgres` user (embedded-postgres.ts), which a server
 * run as another user could not start. A PGlite directory of such a server is converted by that
 * user, so that the new one is theirs.
 */
function checkOwner(database: string): void {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return;
  const owner = fs.statSync(database).uid;
  if (owner === 0) return;
  throw new PgliteConversionError(
    `${database} belongs to the user with uid ${owner}, presumably the one Pakt runs as, but the conversion runs as root, ` +
      `and would make a directory that user cannot start. Run it as that user (for example: sudo -u "#${owner}" ${usage()}). Nothing was changed.`,
  );
}

function usage(): string {
  return 'npm run db:convert-pglite -- <DATA_DIR>';
}

function lockDataDirectory(database: string): { release: () => void } {
  try {
    return acquireDirectoryLock(database);
  } catch (error) {
    if (error instanceof DirectoryLockedError) {
      throw new PgliteConversionError(
        `A Pakt server is running on this data directory (pid ${error.holder.pid} on ${error.holder.hostname}, ` +
          `since ${error.holder.startedAt}; lock file ${database}.lock). Stop it, then run the conversion again. Nothing was changed.`,
        { cause: error },
      );
    }
    throw error;
  }
}

/**
 * Dumps the PGlite directory and restores the dump into a new cluster at `converting`, migrated
 * and checked. On any failure the new cluster is removed and `database` is as it was.
 */
async function copyIntoNewCluster(args: {
  database: string;
  converting: string;
  dumpFile: string;
  log: (line: string) => void;
  durable: boolean;
}): Promise<TableRowCount[]> {
  const { database, converting, dumpFile, log, durable } = args;
  let server: EmbeddedPostgres | undefined;
  try {
    // Left by a run that was killed: ours to remove (we hold the lock), after its PostgreSQL if it runs on.
    if (fs.existsSync(converting)) {
      log(`Removing ${converting}, left by an earlier conversion that did not finish.`);
      await removeCluster(converting);
    }

    const { PGlite, pg_trgm, pgDump } = await loadPglite();
    log(`Reading the PGlite database in ${database}…`);
    // pg_trgm backs the global search's trigram indexes (migration 0016): PGlite cannot open the
    // directory without it.
    const source = await PGlite.create({ dataDir: database, extensions: { pg_trgm } });
    let sourceCounts: TableRowCount[];
    let dump: string;
    try {
      sourceCounts = await countRows(async (text) => (await source.query<Record<string, string>>(text)).rows);
      const file = await pgDump({ pg: source, args: PG_DUMP_ARGS, fileName: CONVERSION_PATHS.dump });
      dump = await file.text();
    } finally {
      await source.close();
    }
    writeDurably(dumpFile, dump);
    log(`Dumped ${sourceCounts.length} tables (${sum(sourceCounts)} rows) to ${dumpFile} (${megabytes(Buffer.byteLength(dump))}).`);

    log(`Starting PostgreSQL ${EMBEDDED_MAJOR_VERSION} on a new directory, ${converting}…`);
    server = await startEmbeddedPostgres({ directory: converting, durable, onLog: (line) => log(`  [postgres] ${line}`) });
    const statements = splitSqlScript(dump);
    log(`Restoring the dump (${statements.length} statements)…`);
    const targetCounts = await restore(server.url, statements);
    compareCounts(sourceCounts, targetCounts);

    log('Bringing the schema up to this version of Pakt…');
    const target = await openDatabase({ url: server.url, poolSize: 2, kind: 'embedded' });
    try {
      await target.migrate();
      await target.executeSql('ANALYZE');
    } finally {
      await target.close();
    }
    await server.stop();
    server = undefined;
    return sourceCounts;
  } catch (error) {
    await server?.stop().catch(() => {});
    let leftover = '';
    try {
      await removeCluster(converting);
    } catch (cleanup) {
      leftover = ` The partial copy ${converting} could not be removed (${(cleanup as Error).message}); remove it before trying again.`;
    }
    throw new PgliteConversionError(
      `The conversion failed: ${describe(error)}\n\nNothing was changed: ${database} is as it was` +
        (leftover ? '.' : `, and the partial copy ${converting} was removed.`) +
        leftover +
        (fs.existsSync(dumpFile) ? ` The dump is kept in ${dumpFile}.` : ''),
      { cause: error },
    );
  }
}

async function removeCluster(directory: string): Promise<void> {
  if (!fs.existsSync(directory)) return;
  await stopOrphanPostmaster(directory);
  fs.rmSync(directory, { recursive: true, force: true });
}

type PgliteModules = {
  PGlite: typeof PGliteClass;
  pg_trgm: typeof PgTrgm;
  pgDump: typeof PgDump;
};

/** Imported only here, and late: a server installed without dev dependencies still starts. */
async function loadPglite(): Promise<PgliteModules> {
  try {
    const [{ PGlite }, { pg_trgm }, { pgDump }] = await Promise.all([
      import('@electric-sql/pglite'),
      import('@electric-sql/pglite/contrib/pg_trgm'),
      import('@electric-sql/pglite-tools/pg_dump'),
    ]);
    return { PGlite, pg_trgm, pgDump };
  } catch (error) {
    throw new PgliteConversionError(
      `The converter needs @electric-sql/pglite and @electric-sql/pglite-tools, which come with Pakt's development ` +
        `dependencies: run "npm install" (without --omit=dev) in the repository, then the conversion again (${(error as Error).message}).`,
      { cause: error },
    );
  }
}

const quoteIdentifier = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Every table but the catalogs' (partitioned ones included), with its exact row count. */
async function countRows(query: (text: string) => Promise<Record<string, string>[]>): Promise<TableRowCount[]> {
  const tables = await query(
    `select n.nspname as schema, c.relname as table
       from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
      where c.relkind in ('r', 'p')
        and n.nspname not in ('pg_catalog', 'information_schema')
        and n.nspname not like 'pg\\_toast%' and n.nspname not like 'pg\\_temp%'
      order by 1, 2`,
  );
  const counts: TableRowCount[] = [];
  for (const { schema, table } of tables) {
    const [row] = await query(`select count(*)::text as rows from ${quoteIdentifier(schema!)}.${quoteIdentifier(table!)}`);
    counts.push({ schema: schema!, table: table!, rows: Number(row!.rows) });
  }
  return counts;
}

/** Runs the dump's statements in one transaction: the new cluster gets all of it or nothing. */
async function restore(url: string, statements: string[]): Promise<TableRowCount[]> {
  const client = new pg.Client({ connectionString: url, application_name: 'pakt-convert-pglite' });
  client.on('error', () => {});
  await client.connect();
  try {
    await client.query('BEGIN');
    for (const [index, statement] of statements.entries()) {
      try {
        await client.query(statement);
      } catch (error) {
        throw new PgliteConversionError(
          `restoring the dump failed at statement ${index + 1} of ${statements.length}: ${(error as Error).message}\n    ${preview(statement)}`,
          { cause: error },
        );
      }
    }
    await client.query('COMMIT');
    return await countRows(async (text) => (await client.query<Record<string, string>>(text)).rows);
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    await client.end().catch(() => {});
  }
}

/** An error and its causes (drizzle wraps the server's error in one naming the query), shortened. */
function describe(error: unknown): string {
  const parts: string[] = [];
  for (let current: unknown = error; current instanceof Error && parts.length < 4; current = current.cause) {
    // Ours already say what caused them.
    if (current instanceof PgliteConversionError) {
      parts.unshift(current.message);
      break;
    }
    parts.unshift(preview(current.message));
  }
  return parts.length > 0 ? parts.join('\n  while: ') : String(error);
}

function preview(statement: string): string {
  const text = statement
    .split('\n')
    .filter((line) => !line.startsWith('--'))
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

function compareCounts(source: TableRowCount[], target: TableRowCount[]): void {
  const key = (t: TableRowCount) => `${t.schema}.${t.table}`;
  const restored = new Map(target.map((t) => [key(t), t.rows]));
  const differences = source
    .filter((t) => restored.get(key(t)) !== t.rows)
    .map((t) => `${key(t)}: ${t.rows} rows in PGlite, ${restored.get(key(t)) ?? 'no table'} after the restore`);
  if (differences.length > 0) throw new PgliteConversionError(`the copy does not match the original:\n  ${differences.join('\n  ')}`);
}

/**
 * Splits a pg_dump plain-SQL script into statements at the semicolons outside string literals
 * ('…', E'…'), quoted identifiers, dollar-quoted bodies and comments. psql's \restrict and
 * \unrestrict lines (pg_dump 17.6 and later) are dropped; any other psql command is refused, as
 * nothing but psql could run it.
 */
export function splitSqlScript(sql: string): string[] {
  const statements: string[] = [];
  const n = sql.length;
  let start = 0;
  let i = 0;
  let hasContent = false;
  const identifierChar = (c: string | undefined) => c !== undefined && /[\p{L}\p{N}_$]/u.test(c);
  const unterminated = (what: string, at: number): never => {
    throw new PgliteConversionError(`the dump ends inside ${what} begun at character ${at}`);
  };
  while (i < n) {
    const c = sql[i]!;
    const next = sql[i + 1];
    if (c === '-' && next === '-') {
      const end = sql.indexOf('\n', i);
      i = end === -1 ? n : end + 1;
    } else if (c === '/' && next === '*') {
      const begun = i;
      let depth = 1;
      i += 2;
      while (depth > 0) {
        if (i >= n) unterminated('a comment', begun);
        if (sql[i] === '/' && sql[i + 1] === '*') {
          depth++;
          i += 2;
        } else if (sql[i] === '*' && sql[i + 1] === '/') {
          depth--;
          i += 2;
        } else i++;
      }
    } else if (c === '\\' && !hasContent) {
      const end = sql.indexOf('\n', i);
      const line = sql.slice(i, end === -1 ? n : end).trim();
      if (!/^\\(un)?restrict\b/.test(line)) throw new PgliteConversionError(`the dump holds a psql command the converter cannot run: ${line}`);
      i = end === -1 ? n : end + 1;
      start = i;
    } else if (c === "'") {
      const begun = i;
      // E'…' takes backslash escapes; a standard string only doubles its quotes.
      const escapes = (sql[i - 1] === 'E' || sql[i - 1] === 'e') && !identifierChar(sql[i - 2]);
      i++;
      for (;;) {
        if (i >= n) unterminated('a string', begun);
        if (escapes && sql[i] === '\\') i += 2;
        else if (sql[i] === "'") {
          if (sql[i + 1] === "'") i += 2;
          else break;
        } else i++;
      }
      i++;
      hasContent = true;
    } else if (c === '"') {
      const begun = i;
      i++;
      for (;;) {
        const end = sql.indexOf('"', i);
        if (end === -1) unterminated('a quoted name', begun);
        if (sql[end + 1] === '"') i = end + 2;
        else {
          i = end + 1;
          break;
        }
      }
      hasContent = true;
    } else if (c === '$' && !identifierChar(sql[i - 1])) {
      const tag = /^\$(?:[\p{L}_][\p{L}\p{N}_]*)?\$/u.exec(sql.slice(i, i + 100))?.[0];
      if (tag) {
        const end = sql.indexOf(tag, i + tag.length);
        if (end === -1) unterminated(`a ${tag}-quoted body`, i);
        i = end + tag.length;
      } else i++;
      hasContent = true;
    } else if (c === ';') {
      statements.push(sql.slice(start, i + 1).trim());
      i++;
      start = i;
      hasContent = false;
    } else {
      if (!hasContent && !/\s/.test(c)) hasContent = true;
      i++;
    }
  }
  if (hasContent) statements.push(sql.slice(start).trim());
  return statements;
}

/** The new cluster takes the old one's place; the old one stays beside it. */
function swap(args: { dataDir: string; database: string; converting: string; backup: string }): void {
  const { dataDir, database, converting, backup } = args;
  const failed = (error: unknown, state: string) =>
    new PgliteConversionError(`The converted copy was complete, but moving it into place failed (${(error as Error).message}). ${state}`, { cause: error });
  try {
    fs.renameSync(database, backup);
  } catch (error) {
    fs.rmSync(converting, { recursive: true, force: true });
    throw failed(error, `Nothing was changed: ${database} is as it was, and ${converting} was removed.`);
  }
  try {
    fs.renameSync(converting, database);
  } catch (error) {
    try {
      fs.renameSync(backup, database);
    } catch {
      throw failed(error, `The PGlite directory is now ${backup} and the converted one ${converting}: rename ${converting} to ${database} by hand.`);
    }
    fs.rmSync(converting, { recursive: true, force: true });
    throw failed(error, `Nothing was changed: ${database} is as it was, and ${converting} was removed.`);
  }
  fsyncDirectory(dataDir);
}

/**
 * A run stopped between the two renames leaves no `db`, the old one as the backup and the new,
 * complete one (the renames come only after every check) as `db.converting`: finish it, rather
 * than let the next server start make an empty cluster in place of `db`.
 */
function finishInterruptedSwap(args: { database: string; converting: string; backup: string; log: (line: string) => void }): ConversionResult {
  const { database, converting, backup, log } = args;
  fs.renameSync(converting, database);
  fsyncDirectory(path.dirname(database));
  log(`An earlier conversion had stopped just before its end: ${converting} is now ${database}. The PGlite directory is kept as ${backup}.`);
  return { outcome: 'converted', database, backup, tables: [] };
}

function report(args: { database: string; backup: string; dumpFile: string; tables: TableRowCount[]; log: (line: string) => void }): void {
  const { database, backup, dumpFile, tables, log } = args;
  const filled = tables.filter((t) => t.rows > 0);
  const width = Math.max(0, ...filled.map((t) => `${t.schema}.${t.table}`.length));
  log('');
  log(`Converted ${database} from PGlite to PostgreSQL ${EMBEDDED_MAJOR_VERSION}. Rows copied, and checked equal on both sides:`);
  for (const t of filled) log(`  ${`${t.schema}.${t.table}`.padEnd(width)}  ${t.rows}`);
  log(`  ${tables.length} tables, ${sum(tables)} rows${tables.length > filled.length ? ` (${tables.length - filled.length} tables empty)` : ''}.`);
  log(`The PGlite directory is kept as ${backup}, and the dump as ${dumpFile}; remove them once you are satisfied.`);
  log('Start Pakt as usual.');
}

const sum = (tables: TableRowCount[]) => tables.reduce((total, t) => total + t.rows, 0);
const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** Written whole or not at all, readable by its owner only (it holds every row: password hashes too). */
function writeDurably(file: string, text: string): void {
  const temporary = `${file}.${process.pid}.tmp`;
  const fd = fs.openSync(temporary, 'w', 0o600);
  try {
    fs.writeFileSync(fd, text);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(temporary, file);
  fsyncDirectory(path.dirname(file));
}

function fsyncDirectory(directory: string): void {
  let fd: number | undefined;
  try {
    fd = fs.openSync(directory, 'r');
    fs.fsyncSync(fd);
  } catch {
    // Not every platform lets a directory be synced; the renames stand either way.
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}
