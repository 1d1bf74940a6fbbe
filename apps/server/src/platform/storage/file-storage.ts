import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export interface StoredFile {
  sha256: string;
  size: number;
}

/** Bytes `start` to `end` of a file, both included (as in an HTTP Range); no `end`: to the end. */
export interface ByteRange {
  start: number;
  end?: number;
}

/** A stored file as listed: its name and when its bytes were last written (a put of the same content writes them again). */
export interface StoredBlob {
  sha256: string;
  modifiedAt: Date;
}

/**
 * Where document bytes live. Content-addressed by SHA-256, so identical uploads are stored once
 * and a stored file can never change under its name. Streams in and out: a 500 MB upload must
 * not sit in memory.
 */
export interface FileStorage {
  /**
   * `checks` sit between the source and the store; one that errors aborts the whole put and
   * leaves nothing behind. Storing content that is there already writes it again, so its
   * modification time is fresh (the orphan sweep relies on that: sweep-orphan-blobs.ts).
   */
  put(content: Readable, checks?: Transform[]): Promise<StoredFile>;
  /**
   * Throws FileNotFoundError when absent. With a range, only those bytes; a range starting at or
   * past the end gives no bytes, one ending past it stops at the end.
   */
  get(sha256: string, range?: ByteRange): Promise<Readable>;
  stat(sha256: string): Promise<StoredFile | undefined>;
  /**
   * Optional, for a store on local disk: the whole file read straight into `target` from
   * `offset`, with no chunks to allocate and copy; answers its size. Throws FileNotFoundError
   * when absent, RangeError (nothing read) when it is larger than the room left in `target`.
   */
  readInto?(sha256: string, target: Buffer, offset: number): Promise<number>;
  delete(sha256: string): Promise<void>;
  /**
   * Deletes the file unless it was written at or after `cutoff` (a put of the same content may
   * have landed meanwhile); true when it deleted it. Local storage decides atomically; S3 looks
   * (HEAD) right before it deletes.
   */
  deleteIfUnmodifiedSince(sha256: string, cutoff: Date): Promise<boolean>;
  /** Every stored file (not partial uploads), in no promised order. */
  list(): AsyncIterable<StoredBlob>;
  /** Removes partial uploads left by a crash; returns how many were removed. */
  sweepTemporaryFiles(olderThanMs: number): Promise<number>;
}

export class FileNotFoundError extends Error {
  constructor(readonly sha256: string) {
    super(`No stored file has SHA-256 ${sha256}`);
    this.name = 'FileNotFoundError';
  }
}

export const SHA256_HEX = /^[0-9a-f]{64}$/;

/** Refuses a range that is not two whole numbers in order (a caller's bug, never a client's). */
export function checkByteRange(range: ByteRange | undefined): void {
  if (range === undefined) return;
  const { start, end } = range;
  if (!Number.isSafeInteger(start) || start < 0 || (end !== undefined && (!Number.isSafeInteger(end) || end < start))) {
    throw new RangeError(`invalid byte range ${JSON.stringify(range)}`);
  }
}

/** Where a stored file lives under the root, as a relative key: `ab/cd/abcd...`. Same layout on disk and in a bucket. */
export function blobKey(sha256: string): string {
  return `${sha256.slice(0, 2)}/${sha256.slice(2, 4)}/${sha256}`;
}

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
    return path.join(this.root, ...blobKey(sha256).split('/'));
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
    // Opened before the pipeline starts: a write stream that opens lazily can create the file after a
    // failing source made the catch below remove it, leaving a stray temporary file behind.
    const handle = await fs.promises.open(tmpPath, 'wx');
    try {
      await pipeline([content, ...checks, meter, handle.createWriteStream()]);
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

  async get(sha256: string, range?: ByteRange): Promise<Readable> {
    checkByteRange(range);
    const file = this.pathOf(sha256);
    try {
      const handle = await fs.promises.open(file, 'r');
      return handle.createReadStream(range ? { start: range.start, ...(range.end === undefined ? {} : { end: range.end }) } : {});
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new FileNotFoundError(sha256);
      throw error;
    }
  }

  async readInto(sha256: string, target: Buffer, offset: number): Promise<number> {
    let handle: fs.promises.FileHandle;
    try {
      handle = await fs.promises.open(this.pathOf(sha256), 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new FileNotFoundError(sha256);
      throw error;
    }
    try {
      // A stored file never changes under its name: its size now is its size.
      const { size } = await handle.stat();
      if (size > target.length - offset) throw new RangeError(`stored file ${sha256} (${size} bytes) is larger than the ${target.length - offset} bytes left`);
      let read = 0;
      while (read < size) {
        const { bytesRead } = await handle.read(target, offset + read, size - read, read);
        if (bytesRead === 0) break;
        read += bytesRead;
      }
      return read;
    } finally {
      await handle.close();
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

  async deleteIfUnmodifiedSince(sha256: string, cutoff: Date): Promise<boolean> {
    const file = this.pathOf(sha256);
    const tmpDir = path.join(this.root, 'tmp');
    await fs.promises.mkdir(tmpDir, { recursive: true });
    // Moved aside first, then looked at: a put of the same content that lands before the move
    // left its fresh copy there (seen by its mtime, and put back), one after it finds the name
    // free and stores anew. Looking first and deleting after would lose a put in between.
    const parked = path.join(tmpDir, `sweep-${randomUUID()}`);
    try {
      await fs.promises.rename(file, parked);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw error;
    }
    const s = await fs.promises.stat(parked);
    if (s.mtimeMs < cutoff.getTime()) {
      await fs.promises.rm(parked, { force: true });
      return true;
    }
    try {
      await fs.promises.link(parked, file);
      await syncPath(path.dirname(file));
    } catch (error) {
      // A newer put stored the same bytes under the name meanwhile.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    await fs.promises.rm(parked, { force: true });
    return false;
  }

  async *list(): AsyncGenerator<StoredBlob> {
    const TWO_HEX = /^[0-9a-f]{2}$/;
    const entries = async (dir: string) => {
      try {
        return (await fs.promises.readdir(dir)).sort();
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
        throw error;
      }
    };
    for (const first of await entries(this.root)) {
      if (!TWO_HEX.test(first)) continue; // tmp/ and anything else that is not a blob
      for (const second of await entries(path.join(this.root, first))) {
        if (!TWO_HEX.test(second)) continue;
        const dir = path.join(this.root, first, second);
        for (const name of await entries(dir)) {
          if (!SHA256_HEX.test(name) || !name.startsWith(first + second)) continue;
          const s = await fs.promises.stat(path.join(dir, name)).catch(() => undefined);
          if (s?.isFile()) yield { sha256: name, modifiedAt: s.mtime };
        }
      }
    }
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

/**
 * A stored file as a ranged download body (BinaryBody's `ranged`): its content hash names its
 * bytes (the ETag), and each read opens only the range asked for.
 */
export function rangedFile(storage: FileStorage, sha256: string): { etag: string; read(range?: ByteRange): Promise<Readable> } {
  return { etag: sha256, read: (range) => storage.get(sha256, range) };
}
