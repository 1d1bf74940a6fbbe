import type { StorageConfig } from './storage-config';
import { type FileStorage, LocalFileStorage } from './file-storage';

/**
 * The file storage the configuration names. A bucket is checked once here, so a wrong name,
 * endpoint or key stops the start with a clear message instead of failing the first upload.
 */
export async function openFileStorage(config: StorageConfig): Promise<FileStorage> {
  if (config.kind === 'local') return new LocalFileStorage(config.dir);
  // Loaded only here: the AWS SDK is some hundreds of modules that a local install never needs,
  // and every server start (and every test that starts one) would pay for importing them.
  const [{ HeadBucketCommand }, { S3FileStorage }] = await Promise.all([import('@aws-sdk/client-s3'), import('./s3-file-storage')]);
  const storage = new S3FileStorage(config);
  try {
    await storage.client.send(new HeadBucketCommand({ Bucket: config.bucket }));
  } catch (error) {
    const e = error as { name?: string; message?: string; $metadata?: { httpStatusCode?: number } };
    const status = e.$metadata?.httpStatusCode;
    const why =
      status === 404 ? 'it does not exist' : status === 403 || status === 401 ? 'access was refused (check S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY)' : `${e.name ?? 'error'}: ${e.message ?? String(error)}`;
    storage.client.destroy();
    throw new Error(`Cannot use S3 bucket "${config.bucket}"${config.endpoint ? ` at ${config.endpoint}` : ''}: ${why}`, { cause: error });
  }
  return storage;
}
