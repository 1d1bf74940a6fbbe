/**
 * What the benches that compare database backends share: a scratch database on an external
 * PostgreSQL, the address of a server's embedded PostgreSQL, the load average, and the memory of
 * a server and of its database, read from /proc (Linux). The server's process tree
 * holds the embedded PostgreSQL (its postmaster is a child of the node process, the backends and
 * auxiliary processes children of the postmaster). PostgreSQL processes share shared_buffers and
 * their code, so the sum of their resident sizes (VmRSS) counts those pages once per process;
 * the proportional set size (Pss, /proc/<pid>/smaps_rollup) divides each shared page among the
 * processes that map it, so the sum of Pss over the tree is what the tree costs the machine.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

/** The external PostgreSQL's admin URL (a scratch database is made there and dropped after). */
export const PG_ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** 1, 5 and 15 minutes. */
export const loadavg = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');

export interface ScratchDatabase {
  readonly name: string;
  readonly url: string;
  drop(): Promise<void>;
}

async function admin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** A new, empty database `<prefix>_<pid>` on the external PostgreSQL. */
export async function scratchDatabase(prefix: string): Promise<ScratchDatabase> {
  const name = `${prefix}_${process.pid}`;
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a plain database name: ${name}`);
  await admin(async (client) => {
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${name}`);
  });
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return { name, url: url.toString(), drop: () => admin(async (client) => void (await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`))) };
}

/** The processes of the external PostgreSQL serving one database (its backends; the postmaster and its helpers serve every database). */
export async function backendsOf(databaseName: string): Promise<number[]> {
  return admin(async (client) => (await client.query<{ pid: number }>('select pid from pg_stat_activity where datname = $1', [databaseName])).rows.map((r) => r.pid));
}

/**
 * A URL to the embedded PostgreSQL a server started on DATA_DIR/db: the superuser's password is in
 * the cluster's pakt-password file, the port on line 4 of postmaster.pid.
 */
export function embeddedDatabaseUrl(dataDir: string): string {
  const db = path.join(dataDir, 'db');
  const password = fs.readFileSync(path.join(db, 'pakt-password'), 'utf8').trim();
  const port = Number(fs.readFileSync(path.join(db, 'postmaster.pid'), 'utf8').split('\n')[3]);
  return `postgres://pakt:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`;
}

/** One query on its own connection. */
export async function queryOnce<T extends pg.QueryResultRow>(url: string, text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

/** PostgreSQL's version, as "PostgreSQL 18.1". */
export async function versionOf(url: string): Promise<string> {
  const [row] = await queryOnce<{ version: string }>(url, 'select version() as version');
  return row!.version.split(' on ')[0]!.split(' (')[0]!;
}

export interface ProcessMemory {
  readonly pid: number;
  readonly name: string;
  /** VmRSS: resident pages, shared ones counted in full. */
  readonly rssMb: number;
  /** VmHWM: the peak of VmRSS (since start, or since resetPeak). */
  readonly peakMb: number;
  /** Pss: resident pages, each shared one divided among the processes mapping it. */
  readonly pssMb: number;
}

export interface TreeMemory {
  readonly processes: readonly ProcessMemory[];
  readonly rssMb: number;
  readonly pssMb: number;
}

const parentOf = (pid: number): number | undefined => {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) state ppid …": comm may hold spaces and parentheses, so read after the last ')'.
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
};

/** `root` and every process below it. */
export function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    const parent = parentOf(pid);
    if (parent === undefined) continue;
    children.set(parent, [...(children.get(parent) ?? []), pid]);
  }
  const tree: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const pid = queue.shift()!;
    tree.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return tree;
}

/** One process's memory, or undefined when it has gone meanwhile. */
export function processMemory(pid: number): ProcessMemory | undefined {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const rollup = fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
    const kb = (text: string, field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? 0);
    const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    // A postgres backend names itself in its command line ("postgres: pakt postgres 127.0.0.1(…) idle").
    const name = cmdline[0]?.startsWith('postgres:') ? cmdline.join(' ').slice(0, 60) : path.basename(cmdline[0] ?? /^Name:\s+(.*)$/m.exec(status)![1]!);
    return { pid, name, rssMb: kb(status, 'VmRSS') / 1024, peakMb: kb(status, 'VmHWM') / 1024, pssMb: kb(rollup, 'Pss') / 1024 };
  } catch {
    return undefined;
  }
}

/** The memory of these processes (each counted once), summed. */
export function memoryOfProcesses(pids: Iterable<number>): TreeMemory {
  const processes = [...new Set(pids)].map(processMemory).filter((m): m is ProcessMemory => m !== undefined);
  return { processes, rssMb: processes.reduce((n, p) => n + p.rssMb, 0), pssMb: processes.reduce((n, p) => n + p.pssMb, 0) };
}

/** CPU clock ticks per second in /proc/<pid>/stat (USER_HZ: 100 on Linux for x86 and arm). */
const TICKS_PER_SECOND = 100;

/** CPU seconds (user + system) per process, its ended children included, and whether it is PostgreSQL's. */
export type CpuSnapshot = ReadonlyMap<number, { seconds: number; database: boolean }>;

/**
 * CPU seconds spent so far by each of these processes, including their children that have ended
 * (cutime, cstime: an upload's sandbox child, a backend of the embedded postmaster that exited).
 */
export function cpuSnapshot(pids: Iterable<number>): CpuSnapshot {
  const snapshot = new Map<number, { seconds: number; database: boolean }>();
  for (const pid of new Set(pids)) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // After "pid (comm)": state is field 3, so utime..cstime (14..17) are at 11..14 here.
      const ticks = Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
      snapshot.set(pid, { seconds: ticks / TICKS_PER_SECOND, database: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')).startsWith('postgres') });
    } catch {
      // gone meanwhile
    }
  }
  return snapshot;
}

/**
 * The CPU seconds spent between two snapshots, by PostgreSQL's processes and by the others: a
 * process in both counts its difference, one that appeared since counts all of its time, one
 * that ended since (and whose parent is not in the snapshots to collect it) is lost.
 */
export function cpuBetween(before: CpuSnapshot, after: CpuSnapshot): { server: number; database: number } {
  const spent = { server: 0, database: 0 };
  for (const [pid, now] of after) spent[now.database ? 'database' : 'server'] += now.seconds - (before.get(pid)?.seconds ?? 0);
  return spent;
}

/** The server process, everything below it, and the embedded postmaster's tree when `dataDir` holds one, plus `extraPids`. */
export function serverAndDatabasePids(serverPid: number, dataDir?: string, extraPids: Iterable<number> = []): number[] {
  const pids = new Set(processTree(serverPid));
  const postmaster = dataDir ? embeddedPostmaster(dataDir) : undefined;
  if (postmaster !== undefined) for (const pid of processTree(postmaster)) pids.add(pid);
  for (const pid of extraPids) pids.add(pid);
  return [...pids];
}

/** The postmaster of the embedded PostgreSQL on DATA_DIR/db: line 1 of its postmaster.pid. */
export function embeddedPostmaster(dataDir: string): number | undefined {
  try {
    const pid = Number(fs.readFileSync(path.join(dataDir, 'db', 'postmaster.pid'), 'utf8').split('\n')[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The server process, everything below it, and the embedded cluster's processes when `dataDir`
 * holds one (they are below the server already; read again from postmaster.pid in case a
 * postmaster was ever left without its parent).
 */
export function serverAndDatabaseMemory(serverPid: number, dataDir?: string, extraPids: Iterable<number> = []): TreeMemory {
  return memoryOfProcesses(serverAndDatabasePids(serverPid, dataDir, extraPids));
}

export const mb = (n: number) => `${n.toFixed(0)} MB`;
