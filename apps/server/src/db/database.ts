import fs from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { MIGRATIONS_DIR } from '../paths';
import { acquireDirectoryLock } from './directory-lock';
import * as schema from './schema';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
export type DatabaseKind = 'pglite' | 'postgres';

/** Raw SQL access for libraries that bring their own queries (pg-boss). */
export interface SqlExecutor {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

export interface Database extends SqlExecutor {
  readonly kind: DatabaseKind;
  readonly db: Db;
  ping(): Promise<void>;
  migrate(): Promise<void>;
  close(): Promise<void>;
}

export type DatabaseOptions =
  | { kind: 'pglite'; dataDir: string; lock?: boolean }
  | { kind: 'postgres'; url: string; poolSize?: number };

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  return options.kind === 'pglite' ? openPglite(options) : openPostgres(options);
}

async function openPglite(options: { dataDir: string; lock?: boolean }): Promise<Database> {
  // The lock comes first: opening the directory twice is what it prevents.
  const lock = options.lock === false ? undefined : acquireDirectoryLock(options.dataDir);
  try {
    fs.mkdirSync(options.dataDir, { recursive: true });
    const client = await PGlite.create({ dataDir: options.dataDir });
    const db = drizzlePglite({ client, schema }) as unknown as Db;
    return {
      kind: 'pglite',
      db,
      async executeSql(text, values) {
        // PGlite's query() takes one statement; pg-boss also sends parameterless scripts.
        if (values && values.length > 0) return client.query(text, values);
        const results = await client.exec(text);
        return { rows: results.at(-1)?.rows ?? [] };
      },
      async ping() {
        await client.query('select 1');
      },
      async migrate() {
        await migratePglite(db as never, { migrationsFolder: MIGRATIONS_DIR });
      },
      async close() {
        try {
          if (!client.closed) await client.close();
        } finally {
          lock?.release();
        }
      },
    };
  } catch (error) {
    lock?.release();
    throw error;
  }
}

async function openPostgres(options: { url: string; poolSize?: number }): Promise<Database> {
  const pool = new pg.Pool({ connectionString: options.url, max: options.poolSize ?? 10 });
  // A pool emits errors of idle clients (server restart); without a listener Node would crash.
  pool.on('error', () => {});
  const db = drizzlePg({ client: pool, schema }) as unknown as Db;
  await pool.query('select 1');
  let closed = false;
  return {
    kind: 'postgres',
    db,
    executeSql: (text, values) => pool.query(text, values),
    async ping() {
      await pool.query('select 1');
    },
    async migrate() {
      await migratePg(db as never, { migrationsFolder: MIGRATIONS_DIR });
    },
    async close() {
      if (closed) return;
      closed = true;
      await pool.end();
    },
  };
}
