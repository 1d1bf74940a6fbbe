import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileNotFoundError, LocalFileStorage } from './file-storage';

let root: string;
let storage: LocalFileStorage;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'pakt-files-'));
  storage = new LocalFileStorage(root);
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const sha = (s: string | Buffer) => createHash('sha256').update(s).digest('hex');

describe('LocalFileStorage', () => {
  it('stores content under its SHA-256 and streams it back unchanged', async () => {
    const stored = await storage.put(Readable.from(['%PDF-1.7\n', 'hello']));
    expect(stored).toEqual({ sha256: sha('%PDF-1.7\nhello'), size: 14 });
    expect(await text(await storage.get(stored.sha256))).toBe('%PDF-1.7\nhello');
    expect(fs.existsSync(path.join(root, stored.sha256.slice(0, 2), stored.sha256.slice(2, 4), stored.sha256))).toBe(true);
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

  it('stores identical content once', async () => {
    const a = await storage.put(Readable.from(['same']));
    const b = await storage.put(Readable.from(['same']));
    expect(a).toEqual(b);
    expect(fs.readdirSync(path.join(root, 'tmp'))).toEqual([]);
  });

  it('reports absent files and refuses names that are not hashes', async () => {
    await expect(storage.get(sha('nothing'))).rejects.toBeInstanceOf(FileNotFoundError);
    await expect(storage.get('../../etc/passwd')).rejects.toBeInstanceOf(FileNotFoundError);
    expect(await storage.stat('../x')).toBeUndefined();
    expect(await storage.stat(sha('nothing'))).toBeUndefined();
  });

  it('leaves no partial file when the source fails midway', async () => {
    async function* failing() {
      yield Buffer.from('part');
      throw new Error('connection reset');
    }
    await expect(storage.put(Readable.from(failing()))).rejects.toThrow('connection reset');
    expect(fs.readdirSync(path.join(root, 'tmp'))).toEqual([]);
  });

  it('deletes and stats', async () => {
    const stored = await storage.put(Readable.from(['x']));
    expect(await storage.stat(stored.sha256)).toEqual(stored);
    await storage.delete(stored.sha256);
    expect(await storage.stat(stored.sha256)).toBeUndefined();
  });

  it('sweeps only temporary files older than the cut-off', async () => {
    const tmp = path.join(root, 'tmp');
    fs.mkdirSync(tmp, { recursive: true });
    fs.writeFileSync(path.join(tmp, 'old'), 'x');
    fs.writeFileSync(path.join(tmp, 'fresh'), 'y');
    const hourAgo = new Date(Date.now() - 2 * 3600_000);
    fs.utimesSync(path.join(tmp, 'old'), hourAgo, hourAgo);
    expect(await storage.sweepTemporaryFiles(3600_000)).toBe(1);
    expect(fs.readdirSync(tmp)).toEqual(['fresh']);
  });
});
