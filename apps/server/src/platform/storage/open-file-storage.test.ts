import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3rver, type TestS3Server } from '../../test/s3-server';
import { LocalFileStorage } from './file-storage';
import { openFileStorage } from './open-file-storage';
import { S3FileStorage } from './s3-file-storage';

let s3: TestS3Server;
beforeAll(async () => {
  s3 = await startS3rver();
});
afterAll(() => s3.close());

describe('openFileStorage', () => {
  it('opens local storage in the configured directory', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pakt-open-'));
    try {
      const storage = await openFileStorage({ kind: 'local', dir });
      expect(storage).toBeInstanceOf(LocalFileStorage);
      const stored = await storage.put(Readable.from(['local']));
      expect(fs.existsSync(path.join(dir, stored.sha256.slice(0, 2), stored.sha256.slice(2, 4), stored.sha256))).toBe(true);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('opens the configured bucket', async () => {
    const storage = await openFileStorage(s3.config);
    expect(storage).toBeInstanceOf(S3FileStorage);
    const stored = await storage.put(Readable.from(['in the bucket']));
    expect(await text(await storage.get(stored.sha256))).toBe('in the bucket');
    expect(fs.existsSync(s3.objectPath(`${stored.sha256.slice(0, 2)}/${stored.sha256.slice(2, 4)}/${stored.sha256}`))).toBe(true);
    (storage as S3FileStorage).client.destroy();
  });

  it('refuses to start on a bucket that is missing or not ours, saying which', async () => {
    await expect(openFileStorage({ ...s3.config, bucket: 'no-such-bucket' })).rejects.toThrow(/Cannot use S3 bucket "no-such-bucket" at http:\/\/127\.0\.0\.1:\d+: it does not exist/);
    // s3rver checks the key id, not SigV4 signatures.
    await expect(openFileStorage({ ...s3.config, accessKeyId: 'NOBODY' })).rejects.toThrow(/Cannot use S3 bucket "pakt-test".*access was refused/);
  });
});
