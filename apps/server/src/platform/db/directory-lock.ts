import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export class DirectoryLockedError extends Error {
  constructor(
    readonly directory: string,
    readonly holder: LockHolder,
  ) {
    super(
      `The database directory ${directory} is already in use by another Pakt server ` +
        `(pid ${holder.pid} on ${holder.hostname}, since ${holder.startedAt}). ` +
        'The embedded PostgreSQL belongs to one server process: stop the other server, point DATA_DIR at another ' +
        'directory, or set DATABASE_URL to share a PostgreSQL server between processes.',
    );
    this.name = 'DirectoryLockedError';
  }
}

interface LockHolder {
  pid: number;
  hostname: string;
  startedAt: string;
}

/** Locks this process holds; a lock file naming our pid but absent here is from an earlier life. */
const heldHere = new Set<string>();

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readHolder(lockPath: string): LockHolder | undefined {
  try {
    return JSON.parse(fs.readFileSync(lockPath, 'utf8')) as LockHolder;
  } catch {
    return undefined;
  }
}

/**
 * Takes an exclusive lock on a directory by creating `<dir>.lock` with O_EXCL. The server that
 * holds it owns the embedded PostgreSQL on that directory (starts it, and stops an orphan left by
 * its own earlier life), so a second server must refuse rather than fight over it.
 * A lock left by a process that no longer runs on this host is taken over.
 */
export function acquireDirectoryLock(directory: string): { release: () => void } {
  const lockPath = `${directory}.lock`;
  fs.mkdirSync(path.dirname(lockPath), { recursive: true });
  const me: LockHolder = { pid: process.pid, hostname: os.hostname(), startedAt: new Date().toISOString() };

  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lockPath, JSON.stringify(me), { flag: 'wx' });
      heldHere.add(lockPath);
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          heldHere.delete(lockPath);
          const holder = readHolder(lockPath);
          if (holder?.pid === me.pid && holder.startedAt === me.startedAt) fs.rmSync(lockPath, { force: true });
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = readHolder(lockPath);
      // Our own pid in a stale file happens when a container restarts as pid 1 again.
      const stale =
        !holder ||
        (holder.hostname === me.hostname &&
          (holder.pid === me.pid ? !heldHere.has(lockPath) : !isAlive(holder.pid)));
      if (!stale) throw new DirectoryLockedError(directory, holder);
      fs.rmSync(lockPath, { force: true });
    }
  }
  throw new DirectoryLockedError(directory, readHolder(lockPath) ?? me);
}
