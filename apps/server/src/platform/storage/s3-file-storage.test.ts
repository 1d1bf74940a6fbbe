import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { buffer, text } from 'node:stream/consumers';
import { GetObjectCommand, ListObjectsV2Command, UploadPartCommand, type UploadPartCopyCommandInput } from '@aws-sdk/client-s3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startS3rver, type TestS3Server } from '../../test/s3-server';
import { blobKey } from './file-storage';
import { S3FileStorage } from './s3-file-storage';

// What every store does is in file-storage-contract.test.ts; these are S3's own paths.
let s3: TestS3Server;
let storage: S3FileStorage;
beforeEach(async () => {
  s3 = await startS3rver();
});
afterEach(async () => {
  storage?.client.destroy();
  await s3.close();
});

const MiB = 1024 * 1024;
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const keys = async () => ((await storage.client.send(new ListObjectsV2Command({ Bucket: s3.bucket }))).Contents ?? []).map((o) => o.Key!).sort();

/** Answers a command in the client itself, before it is sent (what s3rver lacks, faults). */
function intercept(client: S3FileStorage['client'], name: string, answer: (input: never) => Promise<unknown>) {
  client.middlewareStack.add(
    (next, context) => async (args) => (context.commandName === name ? { output: await answer(args.input as never), response: {} } : next(args)) as never,
    { step: 'initialize', name: `intercept${name}` },
  );
}

describe('S3FileStorage', () => {
  it('copies an object too large for one CopyObject in ranged parts', async () => {
    storage = new S3FileStorage(s3.config, { partSize: 5 * MiB, maxSingleCopyBytes: 6 * MiB, copyPartSize: 5 * MiB });
    const ranges: string[] = [];
    // s3rver has no UploadPartCopy: done here as S3 does it, a ranged read of the source into a part.
    intercept(storage.client, 'UploadPartCopyCommand', async (input: UploadPartCopyCommandInput) => {
      ranges.push(input.CopySourceRange!);
      const source = input.CopySource!.slice(input.CopySource!.indexOf('/') + 1);
      const part = await storage.client.send(new GetObjectCommand({ Bucket: s3.bucket, Key: source, Range: input.CopySourceRange }));
      const uploaded = await storage.client.send(
        new UploadPartCommand({ Bucket: input.Bucket, Key: input.Key, UploadId: input.UploadId, PartNumber: input.PartNumber, Body: await buffer(part.Body as Readable) }),
      );
      return { CopyPartResult: { ETag: uploaded.ETag }, $metadata: {} };
    });
    const bytes = Buffer.alloc(12 * MiB + 5, 'x');
    bytes.write('start', 0);
    bytes.write('end', bytes.length - 3);
    const stored = await storage.put(Readable.from([bytes]));
    expect(ranges).toEqual([`bytes=0-${5 * MiB - 1}`, `bytes=${5 * MiB}-${10 * MiB - 1}`, `bytes=${10 * MiB}-${12 * MiB + 4}`]);
    expect((await buffer(await storage.get(stored.sha256))).equals(bytes)).toBe(true);
    expect(await keys()).toEqual([blobKey(sha(bytes))]);
  });

  it('deletes its temporary object when the copy to the final name fails', async () => {
    storage = new S3FileStorage(s3.config);
    intercept(storage.client, 'CopyObjectCommand', () => Promise.reject(Object.assign(new Error('slow down'), { name: 'SlowDown' })));
    await expect(storage.put(Readable.from(['content']))).rejects.toThrow('slow down');
    expect(await keys()).toEqual([]);
  });

  it('cuts the range out itself from a server that ignores Range', async () => {
    storage = new S3FileStorage(s3.config);
    const stored = await storage.put(Readable.from(['0123456789']));
    let dropped = 0;
    storage.client.middlewareStack.add(
      (next) => async (args) => {
        const headers = (args.request as { headers: Record<string, string> }).headers;
        for (const name of Object.keys(headers)) {
          if (name.toLowerCase() === 'range') {
            delete headers[name];
            dropped++;
          }
        }
        return next(args);
      },
      { step: 'finalizeRequest', name: 'dropRange' },
    );
    expect(await text(await storage.get(stored.sha256, { start: 3, end: 6 }))).toBe('3456');
    expect(await text(await storage.get(stored.sha256, { start: 8 }))).toBe('89');
    expect(await text(await storage.get(stored.sha256))).toBe('0123456789');
    expect(dropped).toBe(2);
  });
});
