import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { MIGRATIONS_DIR } from '../../paths';
import { acquireDirectoryLock } from './directory-lock';
import { type EmbeddedPostgres, startEmbeddedPostgres } from './embedded-postgres';
import * as schema from './schema';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** `embedded`: the PostgreSQL this process started on DATA_DIR/db; `postgres`: one at DATABASE_URL. */
export type DatabaseKind = 'embedded' | 'postgres';

/** Raw SQL access for libraries that bring their own queries (pg-boss), and for hot paths. */
export interface SqlExecutor {
  /**
   * `name` makes it a prepared statement (parsed and planned once per connection): only for
   * constant text, since a name stands for one text per connection.
   */
  executeSql(text: string, values?: unknown[], options?: { name?: string }): Promise<{ rows: unknown[] }>;
}

/** What `listen` is told besides each payload. */
export interface ListenOptions {
  /**
   * Called after the listening connection was lost and is listening again. NOTIFY is not
   * queued for a listener that is away, so whoever cares catches up from the tables.
   */
  onReconnect?: (lostAt: Date) => void;
}

export interface Database extends SqlExecutor {
  readonly kind: DatabaseKind;
  readonly db: Db;
  /**
   * LISTENs on a channel: `handler` gets each NOTIFY payload sent on it, after the sender's
   * transaction commits (a rolled-back one sends nothing). Resolves once listening; the answer
   * stops it.
   */
  listen(channel: string, handler: (payload: string) => void, options?: ListenOptions): Promise<() => Promise<void>>;
  ping(): Promise<void>;
  migrate(): Promise<void>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  url: string;
  poolSize?: number;
  /** Only for what the server reports; both kinds run the same driver, pool and queries. */
  kind?: DatabaseKind;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolSize ?? 10,
    // Only named statements are prepared (the sign-in lookup, the inbox's): their text is fixed
    // and their plan does not depend on the values, so planning them once per connection is
    // right. PostgreSQL's default would plan them afresh at each call when it guesses a custom
    // plan cheaper (bench/inbox at 1,000,000 ePaks: about 1 ms of planning per inbox request).
    // drizzle's and pg-boss's unnamed statements are planned per call either way.
    // JIT off: these are short OLTP queries, and a trigger's query whose estimate crosses the JIT
    // thresholds compiled at every call for 0.5 to 2.3 s (issue 18). An external server may have
    // it on; our sessions do not.
    options: '-c plan_cache_mode=force_generic_plan -c jit=off',
  });
  // A pool emits errors of idle clients (server restart); without a listener Node would crash.
  pool.on('error', () => {});
  const db = drizzlePg({ client: pool, schema }) as unknown as Db;
  try {
    await pool.query('select 1');
  } catch (error) {
    await pool.end().catch(() => {});
    throw error;
  }
  let closed = false;
  const listener = new PostgresListener(options.url);
  return {
    kind: options.kind ?? 'postgres',
    db,
    executeSql: (text, values, opts) => (opts?.name ? pool.query({ name: opts.name, text, values: values ?? [] }) : pool.query(text, values)),
    listen: (channel, handler, listenOptions) => listener.listen(channel, handler, listenOptions),
    async ping() {
      await pool.query('select 1');
    },
    async migrate() {
      await migratePg(db as never, { migrationsFolder: MIGRATIONS_DIR });
    },
    async close() {
      if (closed) return;
      closed = true;
      await listener.close();
      await pool.end();
    },
  };
}

export interface EmbeddedDatabaseOptions {
  /** The cluster's directory, DATA_DIR/db; locked while open. */
  directory: string;
  /** false only for throwaway test clusters (fsync off). */
  durable?: boolean;
  poolSize?: number;
  onLog?: (line: string) => void;
  /** PostgreSQL went away under us: the process cannot serve and should exit to be restarted. */
  onUnexpectedExit?: (code: number | null, signal: NodeJS.Signals | null) => void;
}

/**
 * Starts the embedded PostgreSQL on `directory` and opens it. The directory lock comes first: two
 * servers on one data directory would each try to own its PostgreSQL. Closing stops PostgreSQL
 * (fast shutdown) and releases the lock.
 */
export async function openEmbeddedDatabase(options: EmbeddedDatabaseOptions): Promise<Database & { server: EmbeddedPostgres }> {
  const lock = acquireDirectoryLock(options.directory);
  let server: EmbeddedPostgres | undefined;
  try {
    server = await startEmbeddedPostgres(options);
    const database = await openDatabase({ url: server.url, poolSize: options.poolSize, kind: 'embedded' });
    const running = server;
    return {
      ...database,
      server: running,
      async close() {
        try {
          await database.close();
        } finally {
          await running.stop();
          lock.release();
        }
      },
    };
  } catch (error) {
    await server?.stop().catch(() => {});
    lock.release();
    throw error;
  }
}

const quoteIdentifier = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Reconnect delays after losing the LISTEN connection: doubling from 100 ms up to 10 s. */
export const LISTEN_RETRY_MS = { first: 100, max: 10_000 } as const;

/**
 * LISTEN on PostgreSQL needs a connection of its own for as long as it listens: a pooled one
 * goes back to the pool (and to other queries) after each query. This keeps one pg.Client
 * outside the pool, opened at the first listen. When it is lost (a server restart, a
 * terminated backend, the network) it reconnects with backoff and LISTENs again on every
 * channel; notifications sent meanwhile are gone, so each listener's onReconnect is told.
 */
class PostgresListener {
  private readonly handlers = new Map<string, Set<(payload: string) => void>>();
  private readonly reconnectHandlers = new Set<(lostAt: Date) => void>();
  private client: pg.Client | null = null;
  private connecting: Promise<pg.Client> | null = null;
  private retryTimer: NodeJS.Timeout | null = null;
  private retryMs: number = LISTEN_RETRY_MS.first;
  private lostAt: Date | null = null;
  private closed = false;

  constructor(private readonly url: string) {}

  async listen(channel: string, handler: (payload: string) => void, options: ListenOptions = {}): Promise<() => Promise<void>> {
    if (this.closed) throw new Error('the database is closed');
    let set = this.handlers.get(channel);
    const first = !set;
    if (!set) this.handlers.set(channel, (set = new Set()));
    set.add(handler);
    const onReconnect = options.onReconnect;
    if (onReconnect) this.reconnectHandlers.add(onReconnect);
    try {
      const client = await this.connected();
      // A connection opened just now listens on every channel already; LISTEN twice is harmless.
      if (first) await client.query(`LISTEN ${quoteIdentifier(channel)}`);
    } catch (error) {
      set.delete(handler);
      if (set.size === 0) this.handlers.delete(channel);
      if (onReconnect) this.reconnectHandlers.delete(onReconnect);
      throw error;
    }
    return async () => {
      if (onReconnect) this.reconnectHandlers.delete(onReconnect);
      const current = this.handlers.get(channel);
      if (!current?.delete(handler) || current.size > 0) return;
      this.handlers.delete(channel);
      await this.client?.query(`UNLISTEN ${quoteIdentifier(channel)}`).catch(() => {});
    };
  }

  /** The listening connection, opening it (and LISTENing on every channel) when there is none. */
  private connected(): Promise<pg.Client> {
    if (this.client) return Promise.resolve(this.client);
    this.connecting ??= this.open().finally(() => {
      this.connecting = null;
    });
    return this.connecting;
  }

  private async open(): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: this.url, application_name: 'pakt-listen' });
    client.on('notification', (message) => {
      for (const handler of this.handlers.get(message.channel) ?? []) handler(message.payload ?? '');
    });
    // 'error' without a listener would crash the process; 'end' follows it, and is where we act.
    client.on('error', () => {});
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      for (const channel of this.handlers.keys()) await client.query(`LISTEN ${quoteIdentifier(channel)}`);
    } catch (error) {
      client.removeAllListeners('end');
      await client.end().catch(() => {});
      throw error;
    }
    if (this.closed) {
      await client.end().catch(() => {});
      throw new Error('the database is closed');
    }
    this.client = client;
    return client;
  }

  private lost(client: pg.Client): void {
    if (this.client !== client) return;
    this.client = null;
    this.lostAt ??= new Date();
    if (!this.closed) this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.retryTimer || this.closed) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.connected().then(
        () => {
          const lostAt = this.lostAt ?? new Date();
          this.lostAt = null;
          this.retryMs = LISTEN_RETRY_MS.first;
          for (const handler of this.reconnectHandlers) handler(lostAt);
        },
        () => {
          this.retryMs = Math.min(this.retryMs * 2, LISTEN_RETRY_MS.max);
          this.scheduleReconnect();
        },
      );
    }, this.retryMs);
    // A process shutting down does not wait for a reconnect.
    this.retryTimer.unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    const client = this.client ?? (await this.connecting?.catch(() => null)) ?? null;
    this.client = null;
    if (client) {
      client.removeAllListeners('end');
      await client.end().catch(() => {});
    }
  }
}
