import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export interface StoredFile {
  sha256: string;
  size: number;
}

/**
 * Where document bytes live. Content-addressed by SHA-256, so identical uploads are stored once
 * and a stored file can never change under its name. Streams in and out: a 500 MB upload must
 * not sit in memory.
 */
export interface FileStorage {
  /** `checks` sit between the source and the disk; one that errors aborts the whole put. */
  put(content: Readable, checks?: Transform[]): Promise<StoredFile>;
  /** Throws FileNotFoundError when absent. */
  get(sha256: string): Promise<Readable>;
  stat(sha256: string): Promise<StoredFile | undefined>;
  delete(sha256: string): Promise<void>;
  /** Removes partial uploads left by a crash; returns how many were removed. */
  sweepTemporaryFiles(olderThanMs: number): Promise<number>;
}

export class FileNotFoundError extends Error {
  constructor(readonly sha256: string) {
    super(`No stored file has SHA-256 ${sha256}`);
    this.name = 'FileNotFoundError';
  }
}

const SHA256_HEX = /^[0-9a-f]{64}$/;

/** fsync a file, or a directory so that a rename in it is durable (not supported everywhere). */
async function syncPath(target: string): Promise<void> {
  let handle: fs.promises.FileHandle | undefined;
  try {
    handle = await fs.promises.open(target, 'r');
    await handle.sync();
  } catch (error) {
    // Some file systems refuse fsync on a directory; the file itself was synced already.
    if (!['EISDIR', 'EINVAL', 'EPERM'].includes((error as NodeJS.ErrnoException).code ?? '')) throw error;
  } finally {
    await handle?.close();
  }
}

export class LocalFileStorage implements FileStorage {
  constructor(private readonly root: string) {}

  private pathOf(sha256: string): string {
    // Validating the name keeps a caller-supplied hash from walking out of the root.
    if (!SHA256_HEX.test(sha256)) throw new FileNotFoundError(sha256);
    return path.join(this.root, sha256.slice(0, 2), sha256.slice(2, 4), sha256);
  }

  async put(content: Readable, checks: Transform[] = []): Promise<StoredFile> {
    const tmpDir = path.join(this.root, 'tmp');
    await fs.promises.mkdir(tmpDir, { recursive: true });
    const tmpPath = path.join(tmpDir, randomUUID());
    const hash = createHash('sha256');
    let size = 0;
    const meter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        hash.update(chunk);
        size += chunk.length;
        callback(null, chunk);
      },
    });
    try {
      await pipeline([content, ...checks, meter, fs.createWriteStream(tmpPath, { flags: 'wx' })]);
      const sha256 = hash.digest('hex');
      const finalPath = this.pathOf(sha256);
      await fs.promises.mkdir(path.dirname(finalPath), { recursive: true });
      // On disk before any row can point at it: a signer's revision is committed only after its
      // blob is stored, and PostgreSQL's commit survives a power cut, so the blob must too.
      await syncPath(tmpPath);
      // rename is atomic: readers see the whole file or none; an existing copy is identical.
      await fs.promises.rename(tmpPath, finalPath);
      await syncPath(path.dirname(finalPath));
      return { sha256, size };
    } catch (error) {
      await fs.promises.rm(tmpPath, { force: true });
      throw error;
    }
  }

  async get(sha256: string): Promise<Readable> {
    const file = this.pathOf(sha256);
    try {
      const handle = await fs.promises.open(file, 'r');
      return handle.createReadStream();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new FileNotFoundError(sha256);
      throw error;
    }
  }

  async stat(sha256: string): Promise<StoredFile | undefined> {
    if (!SHA256_HEX.test(sha256)) return undefined;
    try {
      const s = await fs.promises.stat(this.pathOf(sha256));
      return { sha256, size: s.size };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  async delete(sha256: string): Promise<void> {
    await fs.promises.rm(this.pathOf(sha256), { force: true });
  }

  async sweepTemporaryFiles(olderThanMs: number): Promise<number> {
    const tmpDir = path.join(this.root, 'tmp');
    let names: string[];
    try {
      names = await fs.promises.readdir(tmpDir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
      throw error;
    }
    const cutoff = Date.now() - olderThanMs;
    let removed = 0;
    for (const name of names) {
      const file = path.join(tmpDir, name);
      const s = await fs.promises.stat(file).catch(() => undefined);
      // An upload in progress keeps touching its file, so only old ones are abandoned.
      if (s && s.mtimeMs < cutoff) {
        await fs.promises.rm(file, { force: true });
        removed++;
      }
    }
    return removed;
  }
}
