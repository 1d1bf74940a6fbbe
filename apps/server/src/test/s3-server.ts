import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import type { S3StorageConfig } from '../platform/config';

/** The little of s3rver's API these tests use (the package ships no types). */
interface S3rverInstance {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
}
type S3rverConstructor = new (options: {
  address: string;
  port: number;
  directory: string;
  silent: boolean;
  configureBuckets: { name: string }[];
}) => S3rverInstance;

const S3rver = createRequire(import.meta.url)('s3rver') as S3rverConstructor;

export interface TestS3Server {
  /** `http://127.0.0.1:<port>` */
  endpoint: string;
  bucket: string;
  /** Where s3rver keeps the bucket's objects: `<directory>/<bucket>/<key>._S3rver_object`. */
  directory: string;
  /** For `config.storage` (path-style, s3rver's fixed key pair). */
  config: S3StorageConfig;
  /** The file holding an object's bytes; its mtime is the object's LastModified (to age objects in tests). */
  objectPath(key: string): string;
  close(): Promise<void>;
}

/**
 * A real S3-protocol server (s3rver, objects on disk) on 127.0.0.1 at a free port, with one empty
 * bucket, in a fresh temporary directory that close() removes.
 */
export async function startS3rver(options: { bucket?: string } = {}): Promise<TestS3Server> {
  const bucket = options.bucket ?? 'pakt-test';
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'pakt-s3rver-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, directory, silent: true, configureBuckets: [{ name: bucket }] });
  let address: AddressInfo;
  try {
    address = await server.run();
  } catch (error) {
    fs.rmSync(directory, { recursive: true, force: true });
    throw error;
  }
  const endpoint = `http://127.0.0.1:${address.port}`;
  return {
    endpoint,
    bucket,
    directory,
    config: { kind: 's3', endpoint, bucket, region: 'us-east-1', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', forcePathStyle: true },
    objectPath: (key) => {
      const parts = key.split('/');
      const name = parts.pop()!;
      return path.join(directory, bucket, ...parts, `${name}._S3rver_object`);
    },
    async close() {
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
