/**
 * For durability.test.ts only: a data directory whose database is the server's own embedded
 * PostgreSQL (no DATABASE_URL), what the test needs to kill that PostgreSQL with the server and
 * to read it through the restarted server's postmaster, and a small HTTP client.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { PNG } from 'pngjs';
import { type Db, openDatabase } from '../platform/db/database';
import { stopOrphanPostmaster } from '../platform/db/embedded-postgres';
import { run } from './signing-support';
import { LocalFileStorage } from '../platform/storage/file-storage';
import { ServerProcess } from './sign-crash-support';

/** Whether a process runs (a zombie, killed and not yet reaped, does not). */
export function isRunning(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // pid (comm) state …: comm may hold spaces and parentheses, the state follows the last ')'.
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** Polls until `done`, every 10 ms; throws with `what` after the deadline. */
export async function waitUntil(done: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** pg_control's DBState (src/include/catalog/pg_control.h), in enum order. */
const DB_STATES = ['starting up', 'shut down', 'shut down in recovery', 'shutting down', 'in crash recovery', 'in archive recovery', 'in production'] as const;
export type ClusterState = (typeof DB_STATES)[number] | `unknown (${number})`;

/** The data directory the server runs in, its cluster at DATA_DIR/db. */
export class DurabilityEnvironment {
  private readonly onExit = () => this.stopPostmasterAtExit();

  private constructor(readonly dataDir: string) {
    process.once('exit', this.onExit);
  }

  /**
   * The data directory is on the temp directory's file system, not tmpfs (/dev/shm): the point
   * is a cluster that fsyncs to a real disk. A SIGKILL ends processes, not the machine, so the
   * page cache (and whatever was written but not yet fsynced) survives it either way: what this
   * test proves is that a confirmed step is committed before the 200 leaves, and that the
   * cluster recovers from its WAL after both the server and PostgreSQL die without shutdown.
   * What a power cut would lose is not tested here (fsync, full_page_writes and
   * synchronous_commit are on, so it should be nothing).
   */
  static create(): DurabilityEnvironment {
    return new DurabilityEnvironment(fs.mkdtempSync(path.join(os.tmpdir(), 'pakt-durability-')));
  }

  get dbDir(): string {
    return path.join(this.dataDir, 'db');
  }

  get storage(): LocalFileStorage {
    return new LocalFileStorage(path.join(this.dataDir, 'files'));
  }

  /** The server's environment: nothing inherited but PATH and HOME, and no DATABASE_URL. */
  serverEnv(): Record<string, string> {
    return {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: process.env.HOME ?? os.tmpdir(),
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: '0',
      PUBLIC_URL: 'http://localhost:3999',
      LOG_LEVEL: 'info',
      LOG_FORMAT: 'json',
      // The job queue plays no part in a sign (its mail is an outbox row of the sign's transaction).
      JOBS_ENABLED: 'false',
      DATA_DIR: this.dataDir,
      WEB_DIST_DIR: path.join(this.dataDir, 'no-web'),
      SEAL_KEY_ALGORITHM: 'ecdsa-p256',
      RATE_LIMIT_SIGN_IN_PER_MINUTE: '100000',
      RATE_LIMIT_PUBLIC_PER_MINUTE: '100000',
    };
  }

  startServer(): Promise<ServerProcess> {
    return ServerProcess.start(this.serverEnv());
  }

  /** The running postmaster, from postmaster.pid: its pid (line 1) and port (line 4). */
  postmaster(): { pid: number; port: number } {
    const lines = fs.readFileSync(path.join(this.dbDir, 'postmaster.pid'), 'utf8').split('\n');
    const pid = Number(lines[0]);
    const port = Number(lines[3]);
    if (!Number.isInteger(pid) || pid <= 0 || !Number.isInteger(port) || port <= 0) throw new Error(`postmaster.pid makes no sense:\n${lines.join('\n')}`);
    return { pid, port };
  }

  /** The superuser URL of the running cluster (the password initdb was given, kept in the cluster). */
  databaseUrl(): string {
    const password = fs.readFileSync(path.join(this.dbDir, 'pakt-password'), 'utf8').trim();
    return `postgres://pakt:${encodeURIComponent(password)}@127.0.0.1:${this.postmaster().port}/postgres`;
  }

  /** The database, read beside the running server through one connection of our own, closed after. */
  async withDatabase<T>(fn: (db: Db) => Promise<T>): Promise<T> {
    const database = await openDatabase({ url: this.databaseUrl(), poolSize: 1 });
    try {
      return await fn(database.db);
    } finally {
      await database.close();
    }
  }

  /**
   * Follows a server's start by its cluster's postmaster.pid, every 5 ms, for the report only:
   * when a postmaster other than `previousPid` wrote it, and when it said "ready" (line 8).
   */
  watchStart(previousPid: number): { readonly spawnedMs: number | null; readonly readyMs: number | null; stop(): void } {
    const from = performance.now();
    const file = path.join(this.dbDir, 'postmaster.pid');
    const seen: { spawnedMs: number | null; readyMs: number | null } = { spawnedMs: null, readyMs: null };
    const timer = setInterval(() => {
      let lines: string[];
      try {
        lines = fs.readFileSync(file, 'utf8').split('\n');
      } catch {
        return;
      }
      if (Number(lines[0]) === previousPid || !lines[0]) return;
      seen.spawnedMs ??= performance.now() - from;
      if (lines[7]?.trim() === 'ready') seen.readyMs ??= performance.now() - from;
    }, 5);
    return {
      get spawnedMs() {
        return seen.spawnedMs;
      },
      get readyMs() {
        return seen.readyMs;
      },
      stop: () => clearInterval(timer),
    };
  }

  /** What pg_control says of the cluster (the state is a uint32 after the system id and two versions). */
  clusterState(): ClusterState {
    const control = fs.readFileSync(path.join(this.dbDir, 'global', 'pg_control'));
    const state = control.readUInt32LE(16);
    return DB_STATES[state] ?? `unknown (${state})`;
  }

  /**
   * Every process of this cluster still running: PostgreSQL's processes (postmaster, backends,
   * auxiliaries) all work in the data directory, so their cwd tells them from other clusters'.
   */
  clusterProcesses(): Array<{ pid: number; command: string }> {
    const found: Array<{ pid: number; command: string }> = [];
    for (const entry of fs.readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        if (fs.readlinkSync(`/proc/${entry}/cwd`) !== this.dbDir) continue;
        const command = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
        if (isRunning(Number(entry))) found.push({ pid: Number(entry), command });
      } catch {
        // gone meanwhile, or a kernel thread
      }
    }
    return found;
  }

  /**
   * Stops whatever of the cluster still runs (a killed server's orphan: fast shutdown) and waits
   * until none of its processes is left; then removes the data directory unless it is kept.
   */
  async dispose(options: { keepDataDir: boolean }): Promise<void> {
    process.off('exit', this.onExit);
    try {
      if (fs.existsSync(this.dbDir)) {
        await stopOrphanPostmaster(this.dbDir);
        // Backends of a postmaster that was SIGKILLed end on their own once they notice.
        await waitUntil(() => this.clusterProcesses().length === 0, 30_000, `no process of ${this.dbDir} is left`);
      }
    } finally {
      if (!options.keepDataDir) fs.rmSync(this.dataDir, { recursive: true, force: true });
    }
  }

  /** The test process exits without dispose: ask a postmaster left behind to shut down (fast). */
  private stopPostmasterAtExit(): void {
    try {
      const { pid } = this.postmaster();
      if (isRunning(pid) && fs.readlinkSync(`/proc/${pid}/cwd`) === this.dbDir) process.kill(pid, 'SIGINT');
    } catch {
      // nothing running
    }
  }
}

export type Headers = Record<string, string>;

export interface Reply {
  status: number;
  json: { code?: number; data?: unknown } & Record<string, unknown>;
  bytes: Buffer;
}

/** fetch against the server of the moment (its port changes at each start). */
export class HttpClient {
  base = '';

  async call(method: string, url: string, headers: Headers, body?: unknown): Promise<Reply> {
    const raw = body instanceof Buffer;
    const res = await fetch(`${this.base}${url}`, {
      method,
      headers: { ...headers, ...(body === undefined || raw ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: raw ? new Uint8Array(body) : JSON.stringify(body) }),
    });
    const bytes = Buffer.from(await res.arrayBuffer());
    let json: Reply['json'] = {};
    if ((res.headers.get('content-type') ?? '').includes('json')) json = JSON.parse(bytes.toString('utf8')) as Reply['json'];
    return { status: res.status, json, bytes };
  }

  async ok(method: string, url: string, headers: Headers, body?: unknown): Promise<Record<string, unknown>> {
    const reply = await this.call(method, url, headers, body);
    if (reply.status !== 200) throw new Error(`${method} ${url}: ${reply.status} ${reply.bytes.toString('utf8').slice(0, 500)}`);
    return reply.json.data as Record<string, unknown>;
  }

  /**
   * POSTs JSON and calls `onOk` synchronously in the 'response' event of a 200, the moment its
   * status line and headers are parsed (before the body is read, before any promise settles).
   * The body is read afterwards: the server writes a small JSON answer with its headers, so it is
   * normally in hand already; `bodyLost` says when the kill came first.
   */
  postAndActOn200(url: string, headers: Headers, body: unknown, onOk: () => void): Promise<{ status: number; json: Reply['json'] | null; bodyLost: boolean; answeredMs: number }> {
    const payload = Buffer.from(JSON.stringify(body));
    const t0 = performance.now();
    return new Promise((resolve, reject) => {
      const req = http.request(
        `${this.base}${url}`,
        { method: 'POST', agent: false, headers: { ...headers, 'content-type': 'application/json', 'content-length': String(payload.length), connection: 'close' } },
        (res) => {
          const answeredMs = performance.now() - t0;
          if (res.statusCode === 200) onOk();
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          const finish = (bodyLost: boolean) => {
            let json: Reply['json'] | null = null;
            try {
              json = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Reply['json'];
            } catch {
              bodyLost = true;
            }
            resolve({ status: res.statusCode ?? 0, json, bodyLost, answeredMs });
          };
          res.once('end', () => finish(false));
          res.once('error', () => finish(true));
          res.once('aborted', () => finish(true));
        },
      );
      req.once('error', reject);
      req.end(payload);
    });
  }
}

export async function signIn(client: HttpClient, email: string, password: string, tenantId: string): Promise<Headers> {
  const res = await fetch(`${client.base}/msbapi/v1/authenticate`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username: email, password }).toString(),
  });
  if (res.status !== 200) throw new Error(`sign-in of ${email}: ${res.status} ${await res.text()}`);
  const grant = ((await res.json()) as { data: { accessToken: string } }).data;
  return { authorization: `Bearer ${grant.accessToken}`, 'x-tenant-id': tenantId };
}

export function drawnSignature(): string {
  const png = new PNG({ width: 60, height: 20 });
  for (let x = 5; x < 55; x++) {
    const at = ((10 + Math.round(4 * Math.sin(x / 5))) * 60 + x) * 4;
    png.data[at + 2] = 120;
    png.data[at + 3] = 255;
  }
  return `data:image/png;base64,${PNG.sync.write(png).toString('base64')}`;
}

export const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** pdfsig's and qpdf's verdict on a file. */
export function judgePdf(bytes: Buffer): { signatures: number; valid: number; qpdf: number | null; pdfsig: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pakt-durability-pdf-'));
  try {
    const file = path.join(dir, 'current.pdf');
    fs.writeFileSync(file, bytes);
    const sig = run('pdfsig', [file]);
    return {
      signatures: (sig.stdout.match(/^Signature #\d+:/gm) ?? []).length,
      valid: (sig.stdout.match(/Signature Validation: Signature is Valid\./g) ?? []).length,
      qpdf: run('qpdf', ['--check', file]).status,
      pdfsig: sig.stdout + sig.stderr,
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
