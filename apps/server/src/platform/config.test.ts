import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';
import { REPO_ROOT } from '../paths';

describe('loadConfig', () => {
  it('defaults to the embedded PostgreSQL under ./data of the repository, port 3000, both languages', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.databaseUrl).toBeUndefined();
    expect(config.dataDir).toBe(path.join(REPO_ROOT, 'data'));
    expect(config.filesDir).toBe(path.join(REPO_ROOT, 'data', 'files'));
    expect(config.supportedLanguages).toEqual(['en', 'hi']);
    expect(config.zoom).toEqual({ min: 0.6, max: 3, step: 0.3, allowZoom: false });
    expect(config.jobsEnabled).toBe(true);
    expect(config.trustProxy).toBe(false);
    expect(loadConfig({ LOG_FORMAT: 'json' }).logFormat).toBe('json');
  });

  it('resolves a relative DATA_DIR against the directory npm was started from', () => {
    const config = loadConfig({ DATA_DIR: './somewhere', INIT_CWD: '/srv/pakt' });
    expect(config.dataDir).toBe('/srv/pakt/somewhere');
  });

  it('keeps user sync-up feeds under the data directory unless USER_SYNC_DIR says otherwise', () => {
    expect(loadConfig({ DATA_DIR: '/srv/pakt/data' }).userSyncDir).toBe('/srv/pakt/data/user-sync');
    expect(loadConfig({ USER_SYNC_DIR: './feeds', INIT_CWD: '/srv/pakt' }).userSyncDir).toBe('/srv/pakt/feeds');
  });

  it('reads PostgreSQL, flags and languages from the environment', () => {
    const config = loadConfig({
      DATABASE_URL: 'postgres://u@db:5432/pakt',
      FEATURE_TEAM_ROOMS: 'false',
      SUPPORTED_LANGUAGES: 'hi',
      DEFAULT_LANGUAGE: 'hi',
      PDF_ALLOW_ZOOM: 'yes',
    });
    expect(config.databaseUrl).toBe('postgres://u@db:5432/pakt');
    expect(config.features.teamRooms).toBe(false);
    expect(config.supportedLanguages).toEqual(['hi']);
    expect(config.zoom.allowZoom).toBe(true);
  });

  it('names every bad variable and its value in one error', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', SUPPORTED_LANGUAGES: 'en,xx', FEATURE_SIGNUP: 'maybe' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as ConfigError).message;
    expect(message).toMatch(/PORT: .*\(got "eighty"\)/);
    expect(message).toMatch(/DATABASE_URL: must be a postgres:\/\/ or postgresql:\/\/ URL \(got "mysql:\/\/x"\)/);
    expect(message).toMatch(/SUPPORTED_LANGUAGES/);
    expect(message).toMatch(/FEATURE_SIGNUP: must be one of true, false/);
    expect((error as ConfigError).problems).toHaveLength(4);
  });

  it('rejects zoom settings that are not finite or not ordered', () => {
    expect(() => loadConfig({ PDF_ZOOM_MIN: 'NaN' })).toThrow(/PDF_ZOOM_MIN: must be a finite number/);
    expect(() => loadConfig({ PDF_ZOOM_MIN: '4' })).toThrow(/PDF_ZOOM_MIN: must be above 0 and below PDF_ZOOM_MAX/);
    expect(() => loadConfig({ PDF_ZOOM_STEP: '0' })).toThrow(/PDF_ZOOM_STEP/);
  });

  it('rejects a default language outside the supported ones', () => {
    expect(() => loadConfig({ SUPPORTED_LANGUAGES: 'en', DEFAULT_LANGUAGE: 'hi' })).toThrow(
      /DEFAULT_LANGUAGE: must be one of SUPPORTED_LANGUAGES \(en\)/,
    );
  });

  it('takes a seal master key only as the base64 of 32 bytes', () => {
    const key = Buffer.alloc(32, 7).toString('base64');
    expect(loadConfig({ SEAL_MASTER_KEY: key }).sealMasterKey).toBe(key);
    expect(loadConfig({}).sealMasterKey).toBeUndefined();
    expect(() => loadConfig({ SEAL_MASTER_KEY: 'c2hvcnQ=' })).toThrow(/SEAL_MASTER_KEY: must be the base64 of 32 bytes/);
  });

  it('makes RSA 3072 seals and 30-day signing links unless told otherwise', () => {
    expect(loadConfig({})).toMatchObject({ sealKeyAlgorithm: 'rsa-3072', signingLinkDays: 30 });
    expect(loadConfig({ SEAL_KEY_ALGORITHM: 'ecdsa-p256', SIGNING_LINK_DAYS: '7' })).toMatchObject({ sealKeyAlgorithm: 'ecdsa-p256', signingLinkDays: 7 });
    expect(() => loadConfig({ SEAL_KEY_ALGORITHM: 'dsa' })).toThrow(/SEAL_KEY_ALGORITHM/);
    expect(() => loadConfig({ SIGNING_LINK_DAYS: '0' })).toThrow(/SIGNING_LINK_DAYS/);
  });

  it('limits sign-in calls to 20 and other public calls to 300 a minute per address, 0 turning a limit off', () => {
    expect(loadConfig({}).rateLimits).toEqual({ signInPerMinute: 20, publicPerMinute: 300 });
    expect(loadConfig({ RATE_LIMIT_SIGN_IN_PER_MINUTE: '5', RATE_LIMIT_PUBLIC_PER_MINUTE: '0' }).rateLimits).toEqual({ signInPerMinute: 5, publicPerMinute: 0 });
    expect(() => loadConfig({ RATE_LIMIT_SIGN_IN_PER_MINUTE: '-1' })).toThrow(/RATE_LIMIT_SIGN_IN_PER_MINUTE/);
    expect(() => loadConfig({ RATE_LIMIT_PUBLIC_PER_MINUTE: 'many' })).toThrow(/RATE_LIMIT_PUBLIC_PER_MINUTE/);
  });

  it('reads 2 documents at once per process with 20 waiting, unless told otherwise', () => {
    expect(loadConfig({}).documents).toMatchObject({ parsers: 2, parseQueue: 20 });
    expect(loadConfig({ DOCUMENT_PARSERS: '1', DOCUMENT_PARSE_QUEUE: '0' }).documents).toMatchObject({ parsers: 1, parseQueue: 0 });
    expect(() => loadConfig({ DOCUMENT_PARSERS: '0' })).toThrow(/DOCUMENT_PARSERS/);
    expect(() => loadConfig({ DOCUMENT_PARSE_QUEUE: '-1' })).toThrow(/DOCUMENT_PARSE_QUEUE/);
  });

  it('keeps files on local disk under the data directory by default', () => {
    expect(loadConfig({}).storage).toEqual({ kind: 'local', dir: path.join(REPO_ROOT, 'data', 'files') });
    const config = loadConfig({ DATA_DIR: '/srv/pakt/data', STORAGE: 'local', S3_BUCKET: 'ignored' });
    expect(config.storage).toEqual({ kind: 'local', dir: '/srv/pakt/data/files' });
    expect(config.filesDir).toBe('/srv/pakt/data/files');
  });

  it('reads an S3-compatible bucket from STORAGE=s3 and S3_*', () => {
    expect(
      loadConfig({
        STORAGE: 's3',
        S3_ENDPOINT: 'http://minio:9000',
        S3_BUCKET: 'pakt-files',
        S3_REGION: 'eu-central-1',
        S3_ACCESS_KEY_ID: 'AKIAEXAMPLE',
        S3_SECRET_ACCESS_KEY: 'secret',
        S3_FORCE_PATH_STYLE: 'true',
      }).storage,
    ).toEqual({
      kind: 's3',
      endpoint: 'http://minio:9000',
      bucket: 'pakt-files',
      region: 'eu-central-1',
      accessKeyId: 'AKIAEXAMPLE',
      secretAccessKey: 'secret',
      forcePathStyle: true,
    });
    // AWS itself, with the SDK's own credentials (instance role, AWS_* variables).
    expect(loadConfig({ STORAGE: 's3', S3_BUCKET: 'pakt-files' }).storage).toEqual({ kind: 's3', bucket: 'pakt-files', region: 'us-east-1', forcePathStyle: false });
  });

  it('says what an S3 set-up lacks', () => {
    expect(() => loadConfig({ STORAGE: 's3' })).toThrow(/S3_BUCKET: is required when STORAGE=s3/);
    expect(() => loadConfig({ STORAGE: 'gcs' })).toThrow(/STORAGE: must be local or s3/);
    expect(() => loadConfig({ S3_BUCKET: 'pakt-files' })).toThrow(/STORAGE: must be set \(s3 to use S3_BUCKET/);
    expect(() => loadConfig({ STORAGE: 's3', S3_BUCKET: 'pakt-files', S3_ACCESS_KEY_ID: 'AKIAEXAMPLE' })).toThrow(/S3_SECRET_ACCESS_KEY: must be set together/);
    expect(() => loadConfig({ STORAGE: 's3', S3_BUCKET: 'pakt-files', S3_SECRET_ACCESS_KEY: 'secret' })).toThrow(/S3_ACCESS_KEY_ID: must be set together/);
    expect(() => loadConfig({ STORAGE: 's3', S3_BUCKET: 'pakt-files', S3_ENDPOINT: 'minio:9000' })).toThrow(/S3_ENDPOINT: must be an http\(s\) URL/);
    expect(() => loadConfig({ STORAGE: 's3', S3_BUCKET: 'a/b' })).toThrow(/S3_BUCKET: must be a bucket name/);
    expect(() => loadConfig({ STORAGE: 's3', S3_BUCKET: 'b', S3_FORCE_PATH_STYLE: 'maybe' })).toThrow(/S3_FORCE_PATH_STYLE/);
    // The secret never appears in an error.
    try {
      loadConfig({ STORAGE: 's3', S3_SECRET_ACCESS_KEY: 'hunter2-secret' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).not.toContain('hunter2-secret');
    }
  });
});
