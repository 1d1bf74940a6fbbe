import path from 'node:path';
import { z } from 'zod';
import { LANGUAGE_CODES, LanguageCode, ZOOM_ALLOWED_BY_DEFAULT, ZOOM_DEFAULTS } from '@pakt/domain';
import { DEFAULT_WEB_DIST_DIR, REPO_ROOT } from '../paths';

const booleanFlag = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no'], {
      error: 'must be one of true, false, 1, 0, yes, no',
    })
    .optional()
    .transform((v) => (v === undefined ? fallback : ['true', '1', 'yes'].includes(v)));

/** A flag that may be left unset, for a default that depends on other settings. */
const optionalFlag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], {
    error: 'must be one of true, false, 1, 0, yes, no',
  })
  .optional()
  .transform((v) => (v === undefined ? undefined : ['true', '1', 'yes'].includes(v)));

const finiteNumber = (fallback: number) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === '') return fallback;
      const n = Number(v);
      if (!Number.isFinite(n)) {
        ctx.addIssue({ code: 'custom', message: `must be a finite number, got "${v}"` });
        return z.NEVER;
      }
      return n;
    });

const EnvSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    HOST: z.string().min(1).default('0.0.0.0'),
    PORT: z.coerce
      .number({ error: 'must be a port number' })
      .int()
      .min(0)
      .max(65535)
      .default(3000),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    LOG_FORMAT: z.enum(['json', 'pretty']).optional(),
    DATA_DIR: z.string().min(1).optional(),
    /** Where stored files go: `local` (DATA_DIR/files) or `s3` (an S3-compatible bucket, S3_*). */
    STORAGE: z.enum(['local', 's3'], { error: 'must be local or s3' }).optional(),
    /** Unset: AWS S3 itself. Set: another S3-compatible server (MinIO, Ceph, R2...). */
    S3_ENDPOINT: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
    S3_BUCKET: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{1,254}$/, 'must be a bucket name (letters, digits, dots, hyphens, underscores; 2-255 characters)')
      .optional(),
    S3_REGION: z.string().min(1).default('us-east-1'),
    /** Both or neither: unset, the AWS SDK finds credentials itself (AWS_* variables, an instance role...). */
    S3_ACCESS_KEY_ID: z.string().min(1).optional(),
    S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
    /** `bucket` in the path (http://host/bucket/key) rather than the host name: MinIO and most self-hosted servers need it. */
    S3_FORCE_PATH_STYLE: booleanFlag(false),
    /** Where operators drop user sync-up feeds: one folder per tenant, named by its id. */
    USER_SYNC_DIR: z.string().min(1).optional(),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
      .optional(),
    WEB_DIST_DIR: z.string().min(1).optional(),
    JOBS_ENABLED: booleanFlag(true),
    /** How many inbox pages each process keeps (inbox/page-cache.ts); 0 turns the cache off. */
    INBOX_PAGE_CACHE_ENTRIES: z.coerce.number().int().min(0).max(100_000).default(500),
    TRUST_PROXY: booleanFlag(false),
    /** Requests per minute per client address (http/rate-limit.ts); 0 turns the limit off. */
    RATE_LIMIT_SIGN_IN_PER_MINUTE: z.coerce.number().int().min(0).max(1_000_000).default(20),
    RATE_LIMIT_PUBLIC_PER_MINUTE: z.coerce.number().int().min(0).max(1_000_000).default(300),
    PUBLIC_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
    ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(60).max(24 * 3600).default(15 * 60),
    REFRESH_TOKEN_TTL_SECONDS: z.coerce.number().int().min(300).max(365 * 24 * 3600).default(7 * 24 * 3600),
    SMTP_URL: z.string().regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL').optional(),
    SMTP_FROM: z.string().min(3).default('Pakt <no-reply@localhost>'),
    DOCUMENT_MAX_MB: z.coerce.number().int().min(1).max(2048).default(100),
    DOCUMENT_MAX_PAGES: z.coerce.number().int().min(1).max(100_000).default(2000),
    /** Parsing / conversion children (sandbox, LibreOffice) one process runs at once, and how many more uploads wait for a turn. */
    DOCUMENT_PARSERS: z.coerce.number().int().min(1).max(64).default(2),
    DOCUMENT_PARSE_QUEUE: z.coerce.number().int().min(0).max(10_000).default(20),
    /** Bulk compose (issue 8): the most rows one CSV may hold (-143 beyond) and its largest size. No fixed cap: an install may raise both. */
    BULK_COMPOSE_MAX_ROWS: z.coerce.number().int().min(1).default(1_000_000),
    BULK_COMPOSE_MAX_MB: z.coerce.number().int().min(1).max(100_000).default(512),
    LIBREOFFICE_PATH: z.string().min(1).optional(),
    SMS_WEBHOOK_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
    SMS_WEBHOOK_TOKEN: z.string().min(1).max(500).optional(),
    /** Base64 of 32 bytes: the key vault's master key (signing/key-vault.ts). */
    SEAL_MASTER_KEY: z.string().regex(/^[A-Za-z0-9+/]{43}=$/, 'must be the base64 of 32 bytes').optional(),
    // The key type of a tenant seal made from now on (existing seals keep theirs).
    SEAL_KEY_ALGORITHM: z.enum(['rsa-3072', 'ecdsa-p256']).default('rsa-3072'),
    // How long a signing link mailed to a recipient stays good, in days.
    SIGNING_LINK_DAYS: z.coerce.number().int().min(1).max(365).default(30),
    SETUP_TOKEN: z.string().min(32, 'must be at least 32 characters').max(200).optional(),
    SUPPORTED_LANGUAGES: z
      .string()
      .default(LANGUAGE_CODES.join(','))
      .transform((v) => v.split(',').map((s) => s.trim()).filter(Boolean))
      .pipe(z.array(LanguageCode, { error: `each language must be one of ${LANGUAGE_CODES.join(', ')}` }).min(1)),
    DEFAULT_LANGUAGE: LanguageCode.default('en'),
    // Unset: self sign-up is open only where mail is delivered (SMTP_URL), since whoever signs up
    // confirms their address with a mailed link; root can still switch it either way.
    FEATURE_SIGNUP: optionalFlag,
    FEATURE_TEAM_ROOMS: booleanFlag(true),
    FEATURE_PDF_COMPARE: booleanFlag(true),
    FEATURE_FEATURES_PAGE: booleanFlag(true),
    FEATURE_NEW_VIEW_SWITCH: booleanFlag(false),
    PDF_ZOOM_MIN: finiteNumber(ZOOM_DEFAULTS.min),
    PDF_ZOOM_MAX: finiteNumber(ZOOM_DEFAULTS.max),
    PDF_ZOOM_STEP: finiteNumber(ZOOM_DEFAULTS.step),
    PDF_ALLOW_ZOOM: booleanFlag(ZOOM_ALLOWED_BY_DEFAULT),
  })
  .superRefine((env, ctx) => {
    if (env.STORAGE === 's3' && !env.S3_BUCKET) {
      ctx.addIssue({ code: 'custom', path: ['S3_BUCKET'], message: 'is required when STORAGE=s3' });
    }
    if (env.STORAGE === undefined && env.S3_BUCKET) {
      // Set S3 variables with files silently going to local disk would surprise at the worst time.
      ctx.addIssue({ code: 'custom', path: ['STORAGE'], message: 'must be set (s3 to use S3_BUCKET, or local to keep files on disk) when S3_BUCKET is set' });
    }
    if (!env.S3_ACCESS_KEY_ID !== !env.S3_SECRET_ACCESS_KEY) {
      ctx.addIssue({
        code: 'custom',
        path: [env.S3_ACCESS_KEY_ID ? 'S3_SECRET_ACCESS_KEY' : 'S3_ACCESS_KEY_ID'],
        message: 'must be set together with S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY (or neither, for the AWS SDK\'s own credentials)',
      });
    }
    if (!env.SUPPORTED_LANGUAGES.includes(env.DEFAULT_LANGUAGE)) {
      ctx.addIssue({
        code: 'custom',
        path: ['DEFAULT_LANGUAGE'],
        message: `must be one of SUPPORTED_LANGUAGES (${env.SUPPORTED_LANGUAGES.join(', ')})`,
      });
    }
    if (!(env.PDF_ZOOM_MIN > 0 && env.PDF_ZOOM_MIN < env.PDF_ZOOM_MAX)) {
      ctx.addIssue({
        code: 'custom',
        path: ['PDF_ZOOM_MIN'],
        message: 'must be above 0 and below PDF_ZOOM_MAX',
      });
    }
    if (!(env.PDF_ZOOM_STEP > 0 && env.PDF_ZOOM_STEP <= env.PDF_ZOOM_MAX - env.PDF_ZOOM_MIN)) {
      ctx.addIssue({
        code: 'custom',
        path: ['PDF_ZOOM_STEP'],
        message: 'must be above 0 and at most PDF_ZOOM_MAX - PDF_ZOOM_MIN',
      });
    }
  });

export type { S3StorageConfig, StorageConfig } from './storage/storage-config';
import type { StorageConfig } from './storage/storage-config';

export interface Config {
  nodeEnv: 'development' | 'production' | 'test';
  host: string;
  port: number;
  logLevel: string;
  /** JSON lines for log collectors; readable lines for a person at a terminal. */
  logFormat: 'json' | 'pretty';
  dataDir: string;
  /** Set: that PostgreSQL. Unset: the embedded PostgreSQL this process runs on `<dataDir>/db`. */
  databaseUrl: string | undefined;
  /** Where local storage keeps files (`<dataDir>/files`); used only when storage.kind is local. */
  filesDir: string;
  /** STORAGE and S3_*: local files (in filesDir) or an S3-compatible bucket. */
  storage: StorageConfig;
  /** USER_SYNC_DIR: a folder per tenant (its id) holding that tenant's directory feed. */
  userSyncDir: string;
  webDistDir: string;
  jobsEnabled: boolean;
  /** Inbox pages kept per process; 0: none. */
  inboxPageCacheEntries: number;
  /** Take the client address from X-Forwarded-For: only behind a proxy that sets it. */
  trustProxy: boolean;
  /**
   * Per client address and minute: `signInPerMinute` for the calls that check a credential or send mail
   * (sign-in, codes, password reset, registration...), `publicPerMinute` for the other public ones.
   * 0: no limit.
   */
  rateLimits: { signInPerMinute: number; publicPerMinute: number };
  /** Where people reach this install; links in mail and the setup link are built from it. */
  publicUrl: string;
  tokens: { accessSeconds: number; refreshSeconds: number };
  /** Unset: mail stays in the outbox for admins to read. */
  smtp: { url: string; from: string } | undefined;
  /**
   * Unset: text messages stay in the outbox. Set: each is POSTed there as JSON `{ to, text }`
   * (with `Authorization: Bearer <token>` when a token is given), for a relay to the SMS provider.
   */
  sms: { webhookUrl: string; token: string | undefined } | undefined;
  /** SEAL_MASTER_KEY; unset, an embedded install keeps a key file in dataDir (signing/key-vault.ts). */
  sealMasterKey: string | undefined;
  sealKeyAlgorithm: 'rsa-3072' | 'ecdsa-p256';
  signingLinkDays: number;
  /** Bulk compose CSV limits: rows (-143 beyond) and bytes. */
  bulkCompose: { maxRows: number; maxBytes: number };
  documents: {
    maxBytes: number;
    maxPages: number;
    /** LibreOffice to convert office files with; found on PATH (soffice) when not set. */
    libreOfficePath: string | undefined;
    /** At most this many parsing/conversion children at once per process (DOCUMENT_PARSERS)... */
    parsers: number;
    /** ...and this many uploads waiting for one (DOCUMENT_PARSE_QUEUE); beyond, -2 with 503. */
    parseQueue: number;
  };
  /** For automated installs: the first-run setup token, instead of a random one. */
  setupToken: string | undefined;
  supportedLanguages: LanguageCode[];
  defaultLanguage: LanguageCode;
  features: {
    /**
     * Self sign-up unless root chose otherwise (install-settings.ts): FEATURE_SIGNUP, or when it
     * is unset, whether mail is delivered.
     */
    signup: boolean;
    teamRooms: boolean;
    pdfCompare: boolean;
    features: boolean;
    newViewSwitch: boolean;
  };
  zoom: { min: number; max: number; step: number; allowZoom: boolean };
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Reads the configuration from environment variables. Relative paths resolve against the
 * directory npm was started from (INIT_CWD), so `DATA_DIR=./data npm start` means what it says.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => {
        const name = issue.path.join('.') || '(environment)';
        const value = typeof issue.path[0] === 'string' ? env[issue.path[0]] : undefined;
        return `${name}: ${issue.message}${value === undefined ? '' : ` (got "${value}")`}`;
      }),
    );
  }
  const e = parsed.data;
  const base = env.INIT_CWD ?? process.cwd();
  const dataDir = e.DATA_DIR ? path.resolve(base, e.DATA_DIR) : path.join(REPO_ROOT, 'data');
  const filesDir = path.join(dataDir, 'files');
  const storage: StorageConfig =
    e.STORAGE === 's3'
      ? {
          kind: 's3',
          ...(e.S3_ENDPOINT ? { endpoint: e.S3_ENDPOINT } : {}),
          bucket: e.S3_BUCKET!,
          region: e.S3_REGION,
          ...(e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY ? { accessKeyId: e.S3_ACCESS_KEY_ID, secretAccessKey: e.S3_SECRET_ACCESS_KEY } : {}),
          forcePathStyle: e.S3_FORCE_PATH_STYLE,
        }
      : { kind: 'local', dir: filesDir };
  return {
    nodeEnv: e.NODE_ENV,
    host: e.HOST,
    port: e.PORT,
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT ?? (process.stdout.isTTY && e.NODE_ENV !== 'production' ? 'pretty' : 'json'),
    dataDir,
    databaseUrl: e.DATABASE_URL,
    filesDir,
    storage,
    userSyncDir: e.USER_SYNC_DIR ? path.resolve(base, e.USER_SYNC_DIR) : path.join(dataDir, 'user-sync'),
    webDistDir: e.WEB_DIST_DIR ? path.resolve(base, e.WEB_DIST_DIR) : DEFAULT_WEB_DIST_DIR,
    jobsEnabled: e.JOBS_ENABLED,
    inboxPageCacheEntries: e.INBOX_PAGE_CACHE_ENTRIES,
    trustProxy: e.TRUST_PROXY,
    rateLimits: { signInPerMinute: e.RATE_LIMIT_SIGN_IN_PER_MINUTE, publicPerMinute: e.RATE_LIMIT_PUBLIC_PER_MINUTE },
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    tokens: { accessSeconds: e.ACCESS_TOKEN_TTL_SECONDS, refreshSeconds: e.REFRESH_TOKEN_TTL_SECONDS },
    setupToken: e.SETUP_TOKEN,
    smtp: e.SMTP_URL ? { url: e.SMTP_URL, from: e.SMTP_FROM } : undefined,
    sms: e.SMS_WEBHOOK_URL ? { webhookUrl: e.SMS_WEBHOOK_URL, token: e.SMS_WEBHOOK_TOKEN } : undefined,
    sealMasterKey: e.SEAL_MASTER_KEY,
    sealKeyAlgorithm: e.SEAL_KEY_ALGORITHM,
    signingLinkDays: e.SIGNING_LINK_DAYS,
    bulkCompose: { maxRows: e.BULK_COMPOSE_MAX_ROWS, maxBytes: e.BULK_COMPOSE_MAX_MB * 1024 * 1024 },
    documents: {
      maxBytes: e.DOCUMENT_MAX_MB * 1024 * 1024,
      maxPages: e.DOCUMENT_MAX_PAGES,
      libreOfficePath: e.LIBREOFFICE_PATH,
      parsers: e.DOCUMENT_PARSERS,
      parseQueue: e.DOCUMENT_PARSE_QUEUE,
    },
    supportedLanguages: e.SUPPORTED_LANGUAGES,
    defaultLanguage: e.DEFAULT_LANGUAGE,
    features: {
      signup: e.FEATURE_SIGNUP ?? !!e.SMTP_URL,
      teamRooms: e.FEATURE_TEAM_ROOMS,
      pdfCompare: e.FEATURE_PDF_COMPARE,
      features: e.FEATURE_FEATURES_PAGE,
      newViewSwitch: e.FEATURE_NEW_VIEW_SWITCH,
    },
    zoom: {
      min: e.PDF_ZOOM_MIN,
      max: e.PDF_ZOOM_MAX,
      step: e.PDF_ZOOM_STEP,
      allowZoom: e.PDF_ALLOW_ZOOM,
    },
  };
}
