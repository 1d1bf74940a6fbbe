import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { REPO_ROOT } from '../../paths';
import { openEmbeddedDatabase } from './database';
import { CONVERT_COMMAND, EmbeddedPostgresError, LegacyDataDirectoryError, startEmbeddedPostgres } from './embedded-postgres';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'pakt-embedded-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

async function query<T>(url: string, text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text)).rows as T[];
  } finally {
    await client.end();
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Every file under a directory with its size and modification time: what "unchanged" means here. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const file = path.join(entry.parentPath, entry.name);
    const stat = fs.statSync(file);
    out[path.relative(dir, file)] = `${stat.size}:${stat.mtimeMs}`;
  }
  return out;
}

describe('embedded PostgreSQL', () => {
  const durableDir = path.join(root, 'durable', 'db');

  it('makes a cluster on first start, keeps the data across restarts, and runs durable with JIT off', async () => {
    const first = await startEmbeddedPostgres({ directory: durableDir });
    try {
      expect(first.url).toMatch(/^postgres:\/\/pakt:[^@]+@127\.0\.0\.1:\d+\/postgres$/);
      const [settings] = await query<Record<string, string>>(
        first.url,
        "select current_setting('fsync') as fsync, current_setting('full_page_writes') as fpw, current_setting('synchronous_commit') as sc, current_setting('jit') as jit, current_setting('listen_addresses') as listen, current_setting('server_version_num') as version",
      );
      expect(settings).toEqual({ fsync: 'on', fpw: 'on', sc: 'on', jit: 'off', listen: '127.0.0.1', version: expect.stringMatching(/^18/) });
      await query(first.url, 'create table kept (n int); insert into kept values (42)');
      // The password is not in the URL of anyone who did not read the data directory.
      await expect(query(first.url.replace(/:[^:@]+@/, ':wrong@'), 'select 1')).rejects.toThrow(/password authentication failed/);
    } finally {
      await first.stop();
    }
    expect(isAlive(first.pid)).toBe(false);
    const second = await startEmbeddedPostgres({ directory: durableDir });
    try {
      expect(await query(second.url, 'select n from kept')).toEqual([{ n: 42 }]);
    } finally {
      await second.stop();
    }
  });

  it('stops an orphaned PostgreSQL left by a killed server, and keeps what it had committed', async () => {
    const dir = path.join(root, 'orphan', 'db');
    // A server process that starts the database, commits a row, says so and is then SIGKILLed:
    // its PostgreSQL runs on, an orphan holding the directory.
    const script = `
      import { startEmbeddedPostgres } from ${JSON.stringify(path.join(REPO_ROOT, 'apps/server/src/platform/db/embedded-postgres.ts'))};
      import pg from 'pg';
      const server = await startEmbeddedPostgres({ directory: ${JSON.stringify(dir)} });
      const client = new pg.Client({ connectionString: server.url });
      await client.connect();
      await client.query('create table confirmed (n int); insert into confirmed values (7)');
      console.log('committed ' + server.pid);
      setInterval(() => {}, 1000);
    `;
    // Inside the repository, where `pg` resolves.
    fs.mkdirSync(path.join(REPO_ROOT, '.tmp'), { recursive: true });
    const scriptFile = path.join(REPO_ROOT, '.tmp', `orphan-owner-${process.pid}.mts`);
    fs.writeFileSync(scriptFile, script);
    onTestFinished(() => fs.rmSync(scriptFile, { force: true }));
    const child = spawn(process.execPath, ['--import', 'tsx', scriptFile], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    const postmasterPid = await new Promise<number>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const match = /committed (\d+)/.exec(out);
        if (match) resolve(Number(match[1]));
      });
      child.once('exit', (code) => reject(new Error(`the owner exited early (${code}): ${out}`)));
    });
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    expect(isAlive(postmasterPid)).toBe(true);

    const next = await startEmbeddedPostgres({ directory: dir });
    try {
      expect(isAlive(postmasterPid)).toBe(false);
      expect(await query(next.url, 'select n from confirmed')).toEqual([{ n: 7 }]);
    } finally {
      await next.stop();
    }
  });

  it('starts again at once after its postmaster was SIGKILLed while a backend was still busy', async () => {
    const dir = path.join(root, 'busy', 'db');
    // Durable, as a server runs it: without synchronous commit the row could die with the WAL writer.
    const first = await startEmbeddedPostgres({ directory: dir });
    const client = new pg.Client({ connectionString: first.url });
    client.on('error', () => {});
    await client.connect();
    await client.query('create table kept (n int); insert into kept values (1)');
    const busy = client.query('select pg_sleep(60)').catch(() => 'ended');
    process.kill(first.pid, 'SIGKILL');
    // The backend outlives its postmaster, attached to the old shared memory, which a new
    // postmaster refuses to start beside.
    const next = await startEmbeddedPostgres({ directory: dir });
    try {
      expect(await query(next.url, 'select n from kept')).toEqual([{ n: 1 }]);
      expect(await busy).toBe('ended');
    } finally {
      await client.end().catch(() => {});
      await next.stop();
    }
  });

  it('starts over a postmaster.pid whose pid now belongs to another process', async () => {
    const dir = path.join(root, 'reused', 'db');
    const first = await startEmbeddedPostgres({ directory: dir, durable: false });
    await first.stop();
    // As after a crash and a reboot: the file names a pid that is alive, but not a postmaster.
    fs.writeFileSync(path.join(dir, 'postmaster.pid'), `${process.pid}\n${dir}\n`);
    const next = await startEmbeddedPostgres({ directory: dir, durable: false });
    try {
      expect(await query(next.url, 'select 1 as one')).toEqual([{ one: 1 }]);
      expect(isAlive(process.pid)).toBe(true);
    } finally {
      await next.stop();
    }
  });

  // PGlite 0.5 writes PG_VERSION 18 (convert-pglite.test.ts makes a real one); an older one, 17.
  it.each(['18', '17'])('refuses a PGlite directory (PG_VERSION %s), naming the command that converts it, and changes nothing', async (version) => {
    const dataDir = path.join(root, `legacy-${version}`);
    const dir = path.join(dataDir, 'db');
    fs.mkdirSync(path.join(dir, 'base'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'PG_VERSION'), `${version}\n`);
    fs.writeFileSync(path.join(dir, 'base', 'rows'), 'every signature so far');
    const before = snapshot(dataDir);
    const refusal = startEmbeddedPostgres({ directory: dir });
    await expect(refusal).rejects.toThrow(LegacyDataDirectoryError);
    await expect(refusal).rejects.toThrow(`${CONVERT_COMMAND} -- ${dataDir}`);
    expect(snapshot(dataDir)).toEqual(before);
  });

  it('refuses a non-empty directory that holds no cluster', async () => {
    const dir = path.join(root, 'stray', 'db');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'mine');
    await expect(startEmbeddedPostgres({ directory: dir })).rejects.toThrow(EmbeddedPostgresError);
    expect(fs.readFileSync(path.join(dir, 'notes.txt'), 'utf8')).toBe('mine');
  });

  it('opens through the pg driver as the embedded kind, and closing stops PostgreSQL and frees the lock', async () => {
    const dir = path.join(root, 'open', 'db');
    const database = await openEmbeddedDatabase({ directory: dir, durable: false });
    const pid = database.server.pid;
    expect(database.kind).toBe('embedded');
    await database.migrate();
    const { rows } = await database.executeSql("select current_setting('jit') as jit");
    expect(rows).toEqual([{ jit: 'off' }]);
    await database.close();
    expect(isAlive(pid)).toBe(false);
    expect(fs.existsSync(`${dir}.lock`)).toBe(false);
  });
});
