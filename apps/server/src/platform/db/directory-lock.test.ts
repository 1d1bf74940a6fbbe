import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../paths';
import { openEmbeddedDatabase } from './database';
import { acquireDirectoryLock, DirectoryLockedError } from './directory-lock';

const dirs: string[] = [];
function tempDir() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pakt-lock-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** Runs the real server entry point and collects how it ends. */
function runServer(env: NodeJS.ProcessEnv, args: string[] = []): Promise<{ code: number | null; stderr: string; stdout: string }> {
  return new Promise((resolve, reject) => {
    // The bundle the suites' global setup built, as `npm start` runs it.
    const child = spawn(process.execPath, [path.join(REPO_ROOT, 'apps/server/dist/main.mjs'), ...args], {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH, NODE_ENV: 'test', PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'error', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stderr, stdout }));
  });
}

describe('directory lock', () => {
  it('refuses a second holder and names the first', () => {
    const dir = path.join(tempDir(), 'db');
    const first = acquireDirectoryLock(dir);
    expect(() => acquireDirectoryLock(dir)).toThrow(DirectoryLockedError);
    expect(() => acquireDirectoryLock(dir)).toThrow(new RegExp(`pid ${process.pid}`));
    first.release();
    acquireDirectoryLock(dir).release();
  });

  it('takes over a lock left by a process that no longer runs', () => {
    const dir = path.join(tempDir(), 'db');
    fs.writeFileSync(`${dir}.lock`, JSON.stringify({ pid: 2 ** 22 + 12345, hostname: os.hostname(), startedAt: 'x' }));
    const lock = acquireDirectoryLock(dir);
    expect(JSON.parse(fs.readFileSync(`${dir}.lock`, 'utf8')).pid).toBe(process.pid);
    lock.release();
    expect(fs.existsSync(`${dir}.lock`)).toBe(false);
  });

  it('takes over a lock naming our own pid that this process does not hold (a restarted container)', () => {
    const dir = path.join(tempDir(), 'db');
    fs.writeFileSync(`${dir}.lock`, JSON.stringify({ pid: process.pid, hostname: os.hostname(), startedAt: 'earlier' }));
    const lock = acquireDirectoryLock(dir);
    const holder = JSON.parse(fs.readFileSync(`${dir}.lock`, 'utf8')) as { pid: number; startedAt: string };
    expect(holder.pid).toBe(process.pid);
    expect(holder.startedAt).not.toBe('earlier');
    // Now it is held here: a second taker in this process is refused.
    expect(() => acquireDirectoryLock(dir)).toThrow(DirectoryLockedError);
    lock.release();
    expect(fs.existsSync(`${dir}.lock`)).toBe(false);
  });

  it('keeps an embedded database directory locked while open, refuses a second server process with a clear message, and frees it on close', async () => {
    const dataDir = tempDir();
    const dir = path.join(dataDir, 'db');
    // The first "server" is this process holding the embedded database open, as a running one does.
    const database = await openEmbeddedDatabase({ directory: dir, durable: false });
    try {
      await expect(openEmbeddedDatabase({ directory: dir, durable: false })).rejects.toThrow(DirectoryLockedError);
      const second = await runServer({ DATA_DIR: dataDir });
      expect(second.code).toBe(1);
      expect(second.stderr).toContain('Pakt cannot start.');
      expect(second.stderr).toContain(`The database directory ${path.join(dataDir, 'db')} is already in use by another Pakt server (pid ${process.pid}`);
      expect(second.stderr).not.toMatch(/\n\s+at /); // an operator message, not a stack trace
      await database.ping(); // and the first one is unharmed
    } finally {
      await database.close();
    }
    expect(fs.existsSync(`${dir}.lock`)).toBe(false);
    const again = await openEmbeddedDatabase({ directory: dir, durable: false });
    await again.ping();
    await again.close();
  });

  it('makes a server given an unknown argument exit with its usage', async () => {
    const result = await runServer({ DATA_DIR: tempDir() }, ['--demi']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Unknown argument --demi.');
    expect(result.stderr).toContain('--demo');
  });

  it('makes a server with invalid configuration exit with the list of problems', async () => {
    const result = await runServer({ DATA_DIR: tempDir(), PORT: 'eighty' });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Pakt cannot start. Invalid configuration:');
    expect(result.stderr).toContain('PORT: ');
  });
});
