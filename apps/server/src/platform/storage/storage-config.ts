/** An S3-compatible bucket (s3-file-storage.ts). */
export interface S3StorageConfig {
  kind: 's3';
  /** Unset: AWS S3 itself. */
  endpoint?: string;
  bucket: string;
  region: string;
  /** Unset: the AWS SDK's own credential chain. */
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle: boolean;
}

/** Where stored files live: a directory (content-addressed, `ab/cd/<sha256>`) or a bucket with the same layout. */
export type StorageConfig = { kind: 'local'; dir: string } | S3StorageConfig;
