import { keyVault, loadMasterKey } from '../platform/signing/key-vault';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import type { AppContext } from '../http/app-context';
import { buildApp } from '../app/app';
import { type Config, loadConfig } from '../platform/config';
import { LocalFileStorage } from '../platform/storage/file-storage';
import { VERSION } from '../app/version';
import { createTestDatabase, type TestDatabase } from './test-database';

export function testConfig(env: NodeJS.ProcessEnv = {}): Config {
  // P-256 seals take milliseconds to make where RSA 3072 takes about a second per tenant.
  // Suites sign in many times from 127.0.0.1: limits far above that, unless a test sets its own.
  // Suites sign up without a mail server, so sign-up is on; a test of the install's default
  // passes FEATURE_SIGNUP: undefined.
  return loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    SEAL_KEY_ALGORITHM: 'ecdsa-p256',
    RATE_LIMIT_SIGN_IN_PER_MINUTE: '100000',
    RATE_LIMIT_PUBLIC_PER_MINUTE: '100000',
    FEATURE_SIGNUP: 'true',
    ...env,
  });
}

export interface TestApp {
  app: FastifyInstance;
  /** Every log line the app wrote, when built with captureLogs. */
  logs: string[];
  context: AppContext;
  database: TestDatabase;
  close(): Promise<void>;
}

/** An app over a fresh database and file store, driven with `app.inject()`. */
export async function buildTestApp(options: {
  env?: NodeJS.ProcessEnv;
  beforeReady?: (app: FastifyInstance, context: AppContext) => void | Promise<void>;
  captureLogs?: boolean;
  beforeRoutes?: (app: FastifyInstance) => void;
  /** The rate limits' clock (epoch ms). */
  now?: () => number;
} = {}): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pakt-test-data-'));
  const config = testConfig({ DATA_DIR: dataDir, WEB_DIST_DIR: path.join(dataDir, 'no-web'), ...options.env });
  const database = await createTestDatabase();
  const context: AppContext = {
    config,
    version: VERSION,
    database,
    storage: new LocalFileStorage(config.filesDir),
    vault: keyVault(loadMasterKey({ fromEnv: config.sealMasterKey, dataDir: config.dataDir })),
    jobs: undefined,
    nudgeMailDelivery: () => {},
  };
  const logs: string[] = [];
  const logger = options.captureLogs
    ? pino(
        { level: 'trace' },
        new Writable({
          write(chunk: Buffer, _encoding, callback) {
            logs.push(chunk.toString());
            callback();
          },
        }),
      )
    : false;
  const app = await buildApp({ context, logger, beforeReady: options.beforeReady, beforeRoutes: options.beforeRoutes, ...(options.now ? { now: options.now } : {}) });
  return {
    app,
    logs,
    context,
    database,
    async close() {
      await app.close();
      await database.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
