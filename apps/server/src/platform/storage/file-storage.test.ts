import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileNotFoundError, LocalFileStorage } from './file-storage';

// The behaviour every store shares is in file-storage-contract.test.ts; these are local disk's own.
let root: string;
let storage: LocalFileStorage;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'pakt-files-'));
  storage = new LocalFileStorage(root);
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const sha = (s: string | Buffer) => createHash('sha256').update(s).digest('hex');

describe('LocalFileStorage', () => {
  it('keeps a file at <root>/ab/cd/<sha256>', async () => {
    const stored = await storage.put(Readable.from(['%PDF-1.7\n', 'hello']));
    expect(stored.sha256).toBe(sha('%PDF-1.7\nhello'));
    expect(fs.readFileSync(path.join(root, stored.sha256.slice(0, 2), stored.sha256.slice(2, 4), stored.sha256), 'utf8')).toBe('%PDF-1.7\nhello');
  });

  it('streams a large file through without holding it whole', async () => {
    const chunk = Buffer.alloc(1024 * 1024, 7);
    const hash = createHash('sha256');
    let produced = 0;
    // 64 MiB generated lazily: if put() buffered, the heap would grow by that much.
    async function* source() {
      for (let i = 0; i < 64; i++) {
        hash.update(chunk);
        produced += chunk.length;
        yield chunk;
      }
    }
    const before = process.memoryUsage().arrayBuffers;
    const stored = await storage.put(Readable.from(source()));
    const grown = process.memoryUsage().arrayBuffers - before;
    expect(stored).toEqual({ sha256: hash.digest('hex'), size: produced });
    expect(grown).toBeLessThan(32 * 1024 * 1024);
  });

  it('empties its temporary directory after puts, failed ones included', async () => {
    await storage.put(Readable.from(['same']));
    await storage.put(Readable.from(['same']));
    async function* failing() {
      yield Buffer.from('part');
      throw new Error('connection reset');
    }
    await expect(storage.put(Readable.from(failing()))).rejects.toThrow('connection reset');
    expect(fs.readdirSync(path.join(root, 'tmp'))).toEqual([]);
  });

  it('reads a whole file straight into a buffer at an offset, and refuses one that does not fit', async () => {
    const stored = await storage.put(Readable.from(['%PDF-1.7\n', 'hello']));
    const target = Buffer.alloc(20, '.');
    expect(await storage.readInto(stored.sha256, target, 3)).toBe(stored.size);
    expect(target.toString('latin1')).toBe('...%PDF-1.7\nhello...');
    const small = Buffer.alloc(stored.size + 2, '.');
    await expect(storage.readInto(stored.sha256, small, 3)).rejects.toBeInstanceOf(RangeError);
    expect(small.toString('latin1')).toBe('.'.repeat(stored.size + 2));
    await expect(storage.readInto(sha('nothing'), target, 0)).rejects.toBeInstanceOf(FileNotFoundError);
  });

  it('sweeps nothing, and lists nothing, before the first put', async () => {
    expect(await storage.sweepTemporaryFiles(0)).toBe(0);
    const listed = [];
    for await (const blob of storage.list()) listed.push(blob);
    expect(listed).toEqual([]);
  });

  it('puts a file back when a put of the same content landed while it was being swept', async () => {
    const stored = await storage.put(Readable.from(['busy']));
    // A fresh mtime is what a put that landed just before the sweep moved the file aside leaves.
    expect(await storage.deleteIfUnmodifiedSince(stored.sha256, new Date(Date.now() - 3600_000))).toBe(false);
    expect(fs.readFileSync(path.join(root, stored.sha256.slice(0, 2), stored.sha256.slice(2, 4), stored.sha256), 'utf8')).toBe('busy');
    expect(fs.readdirSync(path.join(root, 'tmp'))).toEqual([]);
  });
});
