import { createHash, randomUUID } from 'node:crypto';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  paginateListObjectsV2,
  S3Client,
  UploadPartCopyCommand,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { S3StorageConfig } from './storage-config';
import { type ByteRange, blobKey, checkByteRange, FileNotFoundError, type FileStorage, SHA256_HEX, type StoredBlob, type StoredFile } from './file-storage';

const TMP_PREFIX = 'tmp/';
const BLOB_KEY = /^([0-9a-f]{2})\/([0-9a-f]{2})\/([0-9a-f]{64})$/;
/** The largest object one CopyObject may copy; beyond, the copy goes in parts (UploadPartCopy). */
const MAX_SINGLE_COPY_BYTES = 5 * 1024 ** 3;

export interface S3FileStorageOptions {
  /** Bytes buffered per part of a multipart upload (at least 5 MiB); at most 10,000 parts, so 8 MiB allows 80 GB objects. */
  partSize?: number;
  /** Parts of one upload in flight at once: memory per upload is about partSize x queueSize. */
  queueSize?: number;
  /** Objects larger than this are copied in parts of `copyPartSize` (S3 refuses CopyObject past 5 GiB). */
  maxSingleCopyBytes?: number;
  copyPartSize?: number;
  /** A client of one's own (tests); otherwise one is made from the configuration. */
  client?: S3Client;
}

export function s3Client(config: Omit<S3StorageConfig, 'kind' | 'bucket'>): S3Client {
  return new S3Client({
    region: config.region,
    ...(config.endpoint ? { endpoint: config.endpoint } : {}),
    forcePathStyle: config.forcePathStyle,
    ...(config.accessKeyId && config.secretAccessKey
      ? { credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey } }
      : {}),
    // Checksums only where S3 requires them: many S3-compatible servers do not understand the
    // aws-chunked trailers the SDK sends by default. The content is hashed by us anyway.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

function isNotFound(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  if (e?.name === 'NoSuchBucket') return false; // a configuration fault, not a missing file
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
}

function isNotImplemented(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NotImplemented' || e?.$metadata?.httpStatusCode === 501;
}

/**
 * The bytes of `range` from a ranged GET's body. HTTP lets a server ignore a Range (200, the
 * whole object) and some S3-compatible servers serve another range than the one asked for (s3rver
 * answers `bytes=0-0` with everything): the body is cut to what was asked, or refused if it
 * does not start where asked.
 */
function fitToRange(body: Readable, range: ByteRange, contentRange: string | undefined): Readable {
  const served = contentRange ? /^bytes (\d+)-(\d+)\/(?:\d+|\*)$/.exec(contentRange) : null;
  const servedStart = served ? Number(served[1]) : 0;
  const servedEnd = served ? Number(served[2]) : undefined;
  if (servedStart === range.start && (range.end === undefined || (servedEnd !== undefined && servedEnd <= range.end))) return body;
  if (servedStart > range.start) {
    body.destroy();
    throw new Error(`S3 served bytes from ${servedStart} for a range starting at ${range.start}`);
  }
  let skip = range.start - servedStart;
  let left = range.end === undefined ? Infinity : range.end - range.start + 1;
  return Readable.from(
    (async function* () {
      try {
        for await (const chunk of body) {
          let bytes = chunk as Buffer;
          if (skip > 0) {
            const n = Math.min(skip, bytes.length);
            bytes = bytes.subarray(n);
            skip -= n;
          }
          if (bytes.length > left) bytes = bytes.subarray(0, left);
          left -= bytes.length;
          if (bytes.length > 0) yield bytes;
          if (left <= 0) break;
        }
      } finally {
        body.destroy();
      }
    })(),
    { objectMode: false },
  );
}

/**
 * File storage in an S3-compatible bucket (AWS S3, MinIO, Ceph, R2...), with the same layout as
 * on disk: `ab/cd/<sha256>`. The hash is known only once the content has streamed through, so a
 * put uploads to `tmp/<uuid>` while hashing (multipart, a few parts in memory at a time), then
 * copies that to its final name inside the bucket and deletes the temporary object.
 */
export class S3FileStorage implements FileStorage {
  readonly client: S3Client;
  private readonly partSize: number;
  private readonly queueSize: number;
  private readonly maxSingleCopyBytes: number;
  private readonly copyPartSize: number;

  constructor(
    private readonly config: Omit<S3StorageConfig, 'kind'>,
    options: S3FileStorageOptions = {},
  ) {
    this.client = options.client ?? s3Client(config);
    this.partSize = options.partSize ?? 8 * 1024 * 1024;
    this.queueSize = options.queueSize ?? 2;
    this.maxSingleCopyBytes = options.maxSingleCopyBytes ?? MAX_SINGLE_COPY_BYTES;
    this.copyPartSize = options.copyPartSize ?? 512 * 1024 * 1024;
  }

  private get bucket(): string {
    return this.config.bucket;
  }

  private keyOf(sha256: string): string {
    // Validating the name keeps a caller-supplied hash from naming any other object.
    if (!SHA256_HEX.test(sha256)) throw new FileNotFoundError(sha256);
    return blobKey(sha256);
  }

  async put(content: Readable, checks: Transform[] = []): Promise<StoredFile> {
    const tmpKey = `${TMP_PREFIX}${randomUUID()}`;
    const hash = createHash('sha256');
    let size = 0;
    const meter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        hash.update(chunk);
        size += chunk.length;
        callback(null, chunk);
      },
    });
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: tmpKey, Body: meter, ContentType: 'application/octet-stream' },
      partSize: this.partSize,
      queueSize: this.queueSize,
      leavePartsOnError: false,
    });
    try {
      const feeding = pipeline([content, ...checks, meter]);
      // An upload that fails stops reading; without this the source would wait forever.
      const uploading = upload.done().catch((error: unknown) => {
        meter.destroy(error as Error);
        throw error;
      });
      const [fed, uploaded] = await Promise.allSettled([feeding, uploading]);
      // The source's or a check's error is the cause; the upload's is then its consequence.
      if (fed.status === 'rejected') throw fed.reason;
      if (uploaded.status === 'rejected') throw uploaded.reason;
      const sha256 = hash.digest('hex');
      // Copied even when the name exists (identical bytes): the copy gives the object a fresh
      // LastModified, so the orphan sweep cannot take it for old while a row about to point at
      // it is being written.
      await this.copy(tmpKey, this.keyOf(sha256), size);
      return { sha256, size };
    } finally {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: tmpKey })).catch(() => {
        // Left for sweepTemporaryFiles.
      });
    }
  }

  private async copy(from: string, to: string, size: number): Promise<void> {
    const source = `${this.bucket}/${from}`;
    if (size <= this.maxSingleCopyBytes) {
      await this.client.send(new CopyObjectCommand({ Bucket: this.bucket, Key: to, CopySource: source, ContentType: 'application/octet-stream', MetadataDirective: 'REPLACE' }));
      return;
    }
    const { UploadId } = await this.client.send(new CreateMultipartUploadCommand({ Bucket: this.bucket, Key: to, ContentType: 'application/octet-stream' }));
    try {
      const parts: { PartNumber: number; ETag: string }[] = [];
      for (let start = 0, part = 1; start < size; start += this.copyPartSize, part++) {
        const end = Math.min(start + this.copyPartSize, size) - 1;
        const { CopyPartResult } = await this.client.send(
          new UploadPartCopyCommand({ Bucket: this.bucket, Key: to, UploadId, PartNumber: part, CopySource: source, CopySourceRange: `bytes=${start}-${end}` }),
        );
        if (!CopyPartResult?.ETag) throw new Error(`S3 returned no ETag for part ${part} of ${to}`);
        parts.push({ PartNumber: part, ETag: CopyPartResult.ETag });
      }
      await this.client.send(new CompleteMultipartUploadCommand({ Bucket: this.bucket, Key: to, UploadId, MultipartUpload: { Parts: parts } }));
    } catch (error) {
      await this.client.send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: to, UploadId })).catch(() => {});
      throw error;
    }
  }

  async get(sha256: string, range?: ByteRange): Promise<Readable> {
    checkByteRange(range);
    const key = this.keyOf(sha256);
    try {
      const response = await this.client.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: key, ...(range ? { Range: `bytes=${range.start}-${range.end ?? ''}` } : {}) }),
      );
      const body = (response.Body as Readable | undefined) ?? Readable.from([]);
      return range ? fitToRange(body, range, response.ContentRange) : body;
    } catch (error) {
      if (isNotFound(error)) throw new FileNotFoundError(sha256);
      // A range that starts at or past the end: no bytes, as from a file on disk.
      if ((error as { name?: string }).name === 'InvalidRange' && (await this.stat(sha256))) return Readable.from([]);
      throw error;
    }
  }

  private async head(sha256: string): Promise<{ size: number; modifiedAt: Date | undefined } | undefined> {
    if (!SHA256_HEX.test(sha256)) return undefined;
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.keyOf(sha256) }));
      return { size: head.ContentLength ?? 0, modifiedAt: head.LastModified };
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  async stat(sha256: string): Promise<StoredFile | undefined> {
    const head = await this.head(sha256);
    return head && { sha256, size: head.size };
  }

  async delete(sha256: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.keyOf(sha256) }));
  }

  async deleteIfUnmodifiedSince(sha256: string, cutoff: Date): Promise<boolean> {
    this.keyOf(sha256);
    // S3 has no atomic "delete if older": this looks right before deleting, so only a put that
    // lands within that one round trip could be lost. The sweep's grace period and its
    // reference re-check make that window the only one.
    const head = await this.head(sha256);
    if (!head?.modifiedAt || head.modifiedAt.getTime() >= cutoff.getTime()) return false;
    await this.delete(sha256);
    return true;
  }

  async *list(): AsyncGenerator<StoredBlob> {
    for await (const page of paginateListObjectsV2({ client: this.client }, { Bucket: this.bucket })) {
      for (const object of page.Contents ?? []) {
        const match = object.Key ? BLOB_KEY.exec(object.Key) : null;
        if (!match || !match[3]!.startsWith(match[1]! + match[2]!) || !object.LastModified) continue;
        yield { sha256: match[3]!, modifiedAt: object.LastModified };
      }
    }
  }

  async sweepTemporaryFiles(olderThanMs: number): Promise<number> {
    const cutoff = Date.now() - olderThanMs;
    let removed = 0;
    for await (const page of paginateListObjectsV2({ client: this.client }, { Bucket: this.bucket, Prefix: TMP_PREFIX })) {
      for (const object of page.Contents ?? []) {
        if (object.Key && object.LastModified && object.LastModified.getTime() < cutoff) {
          await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: object.Key }));
          removed++;
        }
      }
    }
    // Multipart uploads a crash left unfinished hold their parts (and cost storage) until aborted.
    // A bucket lifecycle rule (AbortIncompleteMultipartUpload) does the same; some servers lack both.
    try {
      let markers: { KeyMarker?: string; UploadIdMarker?: string } = {};
      for (;;) {
        const page = await this.client.send(new ListMultipartUploadsCommand({ Bucket: this.bucket, Prefix: TMP_PREFIX, ...markers }));
        for (const upload of page.Uploads ?? []) {
          if (upload.Key && upload.UploadId && upload.Initiated && upload.Initiated.getTime() < cutoff) {
            await this.client.send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: upload.Key, UploadId: upload.UploadId }));
            removed++;
          }
        }
        if (!page.IsTruncated) break;
        markers = { ...(page.NextKeyMarker ? { KeyMarker: page.NextKeyMarker } : {}), ...(page.NextUploadIdMarker ? { UploadIdMarker: page.NextUploadIdMarker } : {}) };
      }
    } catch (error) {
      if (!isNotImplemented(error)) throw error;
    }
    return removed;
  }
}
