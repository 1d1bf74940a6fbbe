import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  check,
  foreignKey,
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();
const ts = (name: string) => timestamp(name, { withTimezone: true });

/**
 * Instance-wide settings that administrators may change at run time, overriding the defaults
 * that come from the environment. Values are validated by their reader, never trusted as-is.
 */
export const systemSettings = pgTable('system_settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: updatedAt(),
});

export const tenants = pgTable(
  'tenants',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    /** Set for trial tenants; past it, members get -88 (trial period expired). */
    trialEndsAt: ts('trial_ends_at'),
    /** Members without an authenticator app confirm sign-in with a code by email. */
    requireEmailOtp: boolean('require_email_otp').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('tenants_name_unique').on(sql`lower(${t.name})`)],
);

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Stored lower-cased: addresses are compared case-insensitively everywhere. */
    email: text('email').notNull(),
    firstName: text('first_name').notNull(),
    middleName: text('middle_name'),
    lastName: text('last_name').notNull(),
    type: text('type', { enum: ['internal', 'external'] }).notNull().default('internal'),
    status: text('status').notNull(),
    isRoot: boolean('is_root').notNull().default(false),
    /** argon2id; null until the user has set a password (invited, SSO). */
    passwordHash: text('password_hash'),
    passwordChangedAt: ts('password_changed_at'),
    /**
     * Retired (issue 17): sign-in failures are counted per typed address and client in
     * login_throttles, so a stranger cannot lock the owner out. Nothing reads or writes these;
     * a later migration may drop them.
     */
    failedLoginCount: integer('failed_login_count').notNull().default(0),
    lockedUntil: ts('locked_until'),
    /**
     * Wrong second-factor codes since the last right one, across challenges: each sign-in opens a
     * fresh challenge, so counting per challenge alone would let the password holder guess forever.
     */
    failedOtpCount: integer('failed_otp_count').notNull().default(0),
    /** Second-factor lockouts since the last right code: each one lasts twice as long as the last. */
    otpLockouts: integer('otp_lockouts').notNull().default(0),
    otpLockedUntil: ts('otp_locked_until'),
    disabledAt: ts('disabled_at'),
    locale: text('locale'),
    timeZone: text('time_zone'),
    title: text('title'),
    phone: text('phone'),
    company: text('company'),
    department: text('department'),
    lastLoginAt: ts('last_login_at'),
    /** Base32 authenticator secret; set once enrolment is confirmed. */
    totpSecret: text('totp_secret'),
    /** A secret offered but not yet confirmed with a code. */
    totpPendingSecret: text('totp_pending_secret'),
    totpEnabledAt: ts('totp_enabled_at'),
    /**
     * The 30-second step of the last authenticator code accepted: a code (or an older one) is
     * never accepted twice, so one seen over a shoulder cannot open a second session.
     */
    totpLastStep: integer('totp_last_step'),
    /**
     * When the person proved they read this address (a mailed invite, reset or verification
     * link). Self-service sign-ups stay unverified, and cannot sign in (-164), until then.
     */
    emailVerifiedAt: ts('email_verified_at'),
    /** Content address of the profile photo in file storage, and its media type. */
    photoSha256: text('photo_sha256'),
    photoType: text('photo_type'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('users_email_unique').on(t.email)],
);

export const memberships = pgTable(
  'memberships',
  {
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    role: text('role').notNull(),
    loginType: text('login_type', { enum: ['Email', 'SSO'] }).notNull().default('Email'),
    /** invited: has not accepted yet; disabled: may not act in this tenant (-13). */
    status: text('status', { enum: ['invited', 'active', 'disabled'] }).notNull(),
    /** Temporary access (a contractor, an auditor): past it the user is expired here (-15). */
    expiresAt: ts('expires_at'),
    /** An administrator who may also read retention reports (the RetentionAdmin folder, -149). */
    retentionAdmin: boolean('retention_admin').notNull().default(false),
    /**
     * The "passcode flag" of spec §3 (user info) and §6: an administrator sets it for the members
     * who may apply a rubber stamp when they sign. Kept per tenant, as roles are.
     */
    passcodeFlag: boolean('passcode_flag').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.userId] }), index('memberships_user').on(t.userId)],
);

export const passwordConfigs = pgTable('password_configs', {
  tenantId: uuid('tenant_id').primaryKey().references(() => tenants.id, { onDelete: 'cascade' }),
  config: jsonb('config').notNull(),
  updatedAt: updatedAt(),
});

export const passwordHistory = pgTable(
  'password_history',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    passwordHash: text('password_hash').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('password_history_user').on(t.userId, t.createdAt)],
);

export const invitations = pgTable(
  'invitations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    role: text('role').notNull(),
    /** SHA-256 of the invite code: a leaked table does not leak working links. */
    codeHash: text('code_hash').notNull(),
    status: text('status', { enum: ['pending', 'accepted', 'cancelled'] }).notNull().default('pending'),
    invitedBy: uuid('invited_by').references(() => users.id, { onDelete: 'set null' }),
    expiresAt: ts('expires_at').notNull(),
    acceptedAt: ts('accepted_at'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('invitations_code_hash').on(t.codeHash)],
);

/**
 * One row per issued token pair. Refreshing creates a new row in the same family and marks the
 * old one rotated; presenting a rotated refresh token again means it was stolen or replayed,
 * so the whole family is revoked. Tokens are stored as SHA-256 digests only.
 */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    familyId: uuid('family_id').notNull(),
    clientId: text('client_id').notNull(),
    accessTokenHash: text('access_token_hash').notNull(),
    accessExpiresAt: ts('access_expires_at').notNull(),
    refreshTokenHash: text('refresh_token_hash').notNull(),
    refreshExpiresAt: ts('refresh_expires_at').notNull(),
    rotatedAt: ts('rotated_at'),
    revokedAt: ts('revoked_at'),
    ipAddress: text('ip_address'),
    userAgent: text('user_agent'),
    /**
     * Set when a tenant of the user binds tokens to the client address: a request from any other
     * address is refused (-26, token IP mismatch).
     */
    boundIpAddress: text('bound_ip_address'),
    /**
     * Why the session was revoked: 'logout', 'replay' (a rotated refresh token came back), or
     * 'superseded' (one session per person: a later sign-in ended this one, answered -32).
     */
    revokedReason: text('revoked_reason'),
    /**
     * A session opened from a signing link (easy-sign exchange) reaches one ePak of one tenant
     * and nothing else: the guard refuses every endpoint not made for signing links, and every
     * other ePak, whatever the user's memberships.
     */
    scopeTenantId: uuid('scope_tenant_id'),
    scopeEpakId: uuid('scope_epak_id'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('sessions_access_token').on(t.accessTokenHash),
    uniqueIndex('sessions_refresh_token').on(t.refreshTokenHash),
    index('sessions_family').on(t.familyId),
    index('sessions_user').on(t.userId),
  ],
);

/** Mail and SMS waiting to go out; admins can read it in the app, SMTP sends it when set. */
/**
 * A file a queued mail carries, by reference: delivery reads the bytes from storage when it sends,
 * so the outbox never holds document bytes. `revisionId` pins the document as it stood when the
 * mail was queued (null: as composed, nobody had signed yet); later revisions are not mailed.
 */
export interface OutboxAttachment {
  filename: string;
  contentType: string;
  documentId: string;
  revisionId: string | null;
}

export const outbox = pgTable(
  'outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id').references(() => tenants.id, { onDelete: 'cascade' }),
    channel: text('channel', { enum: ['email', 'sms'] }).notNull(),
    recipient: text('recipient').notNull(),
    subject: text('subject').notNull(),
    body: text('body').notNull(),
    /** What the message is about, for admins reading the outbox (e.g. 'invitation'). */
    kind: text('kind').notNull(),
    sentAt: ts('sent_at'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    /** OutboxAttachment[]; null for a mail without files (and every SMS). */
    attachments: jsonb('attachments').$type<OutboxAttachment[]>(),
    createdAt: createdAt(),
  },
  (t) => [index('outbox_tenant').on(t.tenantId, t.createdAt)],
);

/** Password-reset links: single use, short-lived, stored as digests. */
export const passwordResets = pgTable(
  'password_resets',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('password_resets_token').on(t.tokenHash), index('password_resets_user').on(t.userId, t.createdAt)],
);

/**
 * Single-use secrets that are not sessions: `uis` hands a signed-in session to another client
 * (uisauthcode → token/exchange, one minute); `verify_email` confirms a sign-up's address.
 * Stored as digests like every other secret.
 */
export const oneTimeTokens = pgTable(
  'one_time_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    purpose: text('purpose', { enum: ['uis', 'verify_email'] }).notNull(),
    tokenHash: text('token_hash').notNull(),
    userId: uuid('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    /** For `uis`: the client the new session is bound to. */
    clientId: text('client_id'),
    expiresAt: ts('expires_at').notNull(),
    consumedAt: ts('consumed_at'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('one_time_tokens_hash').on(t.tokenHash), index('one_time_tokens_user').on(t.userId, t.purpose, t.createdAt)],
);

/**
 * A sign-in waiting for its second factor. The id travels to the browser (it is the otpId);
 * an emailed code is stored as a digest. Five wrong codes end the challenge (-217).
 */
export const otpChallenges = pgTable(
  'otp_challenges',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    method: text('method', { enum: ['totp', 'email'] }).notNull(),
    clientId: text('client_id').notNull(),
    codeHash: text('code_hash'),
    sentAt: ts('sent_at'),
    attempts: integer('attempts').notNull().default(0),
    expiresAt: ts('expires_at').notNull(),
    consumedAt: ts('consumed_at'),
    createdAt: createdAt(),
  },
  (t) => [index('otp_challenges_user').on(t.userId, t.createdAt)],
);

/**
 * Two-factor recovery codes (issue 22): ten one-time codes shown once when two-factor is switched
 * on or regenerated, stored as digests. A used code is kept (used_at) so it can never work twice.
 */
export const twoFactorRecoveryCodes = pgTable(
  'two_factor_recovery_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: ts('used_at'),
    createdAt: createdAt(),
  },
  (t) => [index('two_factor_recovery_codes_user').on(t.userId)],
);

/**
 * Failed sign-ins per (address, client) pair, keyed by a digest of both so the table holds no
 * addresses in clear. Keyed by the typed address, not the account, so an unknown address is
 * throttled exactly like a known one (no account enumeration), and a stranger's guesses lock
 * only the stranger's own client out, never the owner (docs/security.md).
 */
export const loginThrottles = pgTable('login_throttles', {
  key: text('key').primaryKey(),
  failures: integer('failures').notNull().default(0),
  /** Lockouts since the last successful sign-in: each lasts twice as long as the one before. */
  lockouts: integer('lockouts').notNull().default(0),
  lockedUntil: ts('locked_until'),
  updatedAt: updatedAt(),
});

/**
 * Request counters of the per-client rate limit (@fastify/rate-limit's store), shared by every
 * process on the database. A row is one client's window on one group of endpoints.
 */
export const rateLimitCounters = pgTable(
  'rate_limit_counters',
  {
    key: text('key').primaryKey(),
    hits: integer('hits').notNull(),
    resetAt: ts('reset_at').notNull(),
  },
  (t) => [index('rate_limit_counters_reset').on(t.resetAt)],
);

/** A tenant's own switches (TenantSettings in domain); validated when read. */
export const tenantSettings = pgTable('tenant_settings', {
  tenantId: uuid('tenant_id').primaryKey().references(() => tenants.id, { onDelete: 'cascade' }),
  settings: jsonb('settings').notNull(),
  updatedAt: updatedAt(),
});

/**
 * An uploaded document: always a PDF in storage (images and office files are converted on the
 * way in), with what inspecting it found. Belongs to whoever uploaded it, inside one tenant.
 */
export const documents = pgTable(
  'documents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id, { onDelete: 'cascade' }),
    ownerId: uuid('owner_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** Extension of what was uploaded (spec §5 formats). */
    sourceFormat: text('source_format').notNull(),
    /** Content address of the stored PDF. */
    sha256: text('sha256').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    pageCount: integer('page_count').notNull(),
    /** PageGeometry[] (domain): visible box and /Rotate of every page. */
    pages: jsonb('pages').notNull(),
    encrypted: boolean('encrypted').notNull().default(false),
    /** PreconfiguredTag[] (domain): the PDF's own form fields. */
    formFields: jsonb('form_fields').notNull().default([]),
    /** DocumentSignatureState (domain): the signatures it carried at upload; null when not checked (older rows). */
    signatureState: jsonb('signature_state'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('documents_owner').on(t.tenantId, t.ownerId, t.createdAt), index('documents_sha256').on(t.sha256)],
);

/** A tenant's catalogue of named workflow states (WorkflowStateDefinition in domain). */
export const workflowStates = pgTable(
  'workflow_states',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    type: text('type').notNull(),
    /** 1-based place in the catalogue. */
    position: integer('position').notNull(),
    description: text('description'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('workflow_states_name').on(t.tenantId, sql`lower(${t.name})`), index('workflow_states_tenant').on(t.tenantId, t.position)],
);

/** Workflow templates: ordered steps with recipients, stored as one validated JSON list. */
export const workflows = pgTable(
  'workflows',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id, { onDelete: 'cascade' }),
    ownerId: uuid('owner_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description'),
    signingPolicy: text('signing_policy').notNull(),
    /** WorkflowStepInput[] (domain), in order. */
    steps: jsonb('steps').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('workflows_name').on(t.tenantId, sql`lower(${t.name})`)],
);

/**
 * An ePak: documents sent through ordered steps. Composed as a draft here; the workflow engine
 * runs it once started. Steps are copied from the catalogue so later catalogue edits cannot
 * change an ePak under way.
 */
export const epaks = pgTable(
  'epaks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id, { onDelete: 'cascade' }),
    ownerId: uuid('owner_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    subject: text('subject').notNull(),
    message: text('message'),
    status: text('status').notNull().default('Draft'),
    signingPolicy: text('signing_policy').notNull(),
    workflowId: uuid('workflow_id'),
    expiresAt: ts('expires_at'),
    notificationStartAt: ts('notification_start_at'),
    viewEnforced: boolean('view_enforced').notNull().default(false),
    /** When the draft was sent (POST start); null while it is a draft. */
    startedAt: ts('started_at'),
    /** The order of the step under way (the engine's currentStep); null before start and after the end. */
    currentStep: integer('current_step'),
    /** When the engine ended it (Completed, Rejected, Stopped, Expired). */
    endedAt: ts('ended_at'),
    /** Moved to the Deleted folder by its owner (-46 for any action afterwards). */
    deletedAt: ts('deleted_at'),
    deletedBy: uuid('deleted_by'),
    /** Archived by its owner (-47 for any action afterwards). */
    archivedAt: ts('archived_at'),
    /** Days after its end the ePak is kept before archival (PUT updateEpakArchivalPeriod). */
    archivalPeriodDays: integer('archival_period_days'),
    /** The document template it was composed from (the summary's docTemplate), if any. */
    docTemplateId: uuid('doc_template_id'),
    /**
     * Bulk compose: the run and the CSV row (1-based, after the header) this ePak came from. Unique
     * together, so a run resumed after a crash, or the same file uploaded again, cannot make a row's
     * ePak twice.
     */
    bulkRunId: uuid('bulk_run_id').references((): AnyPgColumn => bulkComposeRuns.id, { onDelete: 'set null' }),
    bulkRow: integer('bulk_row'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('epaks_owner').on(t.tenantId, t.ownerId, t.createdAt),
    uniqueIndex('epaks_bulk_row').on(t.bulkRunId, t.bulkRow).where(sql`${t.bulkRunId} is not null`),
    // The global search (issue 6): subject text by trigram, the date types and the workflow by range.
    index('epaks_subject_trgm').using('gin', sql`lower(${t.subject}) gin_trgm_ops`),
    index('epaks_tenant_created').on(t.tenantId, t.createdAt),
    index('epaks_tenant_expires').on(t.tenantId, t.expiresAt),
    index('epaks_tenant_workflow').on(t.tenantId, t.workflowId),
    // The dashboard's weekly statistics (issue 6): ePaks sent, and ended, in a range of weeks.
    index('epaks_tenant_started').on(t.tenantId, t.startedAt),
    index('epaks_tenant_ended').on(t.tenantId, t.endedAt),
  ],
);

/**
 * What happened to an ePak, in order: written in the same transaction as the change it records
 * (a state change without its record cannot exist). The workflow engine adds hash chaining and
 * document hashes; `seq` orders entries of one ePak without relying on clock resolution.
 */
export const epakActivities = pgTable(
  'epak_activities',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    epakId: uuid('epak_id').notNull().references(() => epaks.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    actorId: uuid('actor_id').references(() => users.id, { onDelete: 'set null' }),
    action: text('action').notNull(),
    details: jsonb('details').notNull().default({}),
    ip: text('ip'),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    /** The previous entry's hash (64 zeros for the first): the log is a chain, so an edit shows. */
    prevHash: text('prev_hash'),
    /** SHA-256 over prevHash and this entry's canonical JSON (epaks/activity.ts). */
    hash: text('hash'),
  },
  (t) => [uniqueIndex('epak_activities_seq').on(t.epakId, t.seq)],
);

/** An ePak's own copy of a document: its bytes and geometry as they were when composed. */
export const epakDocuments = pgTable(
  'epak_documents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    epakId: uuid('epak_id').notNull().references(() => epaks.id, { onDelete: 'cascade' }),
    sourceDocumentId: uuid('source_document_id').references(() => documents.id, { onDelete: 'set null' }),
    position: integer('position').notNull(),
    name: text('name').notNull(),
    sha256: text('sha256').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    pageCount: integer('page_count').notNull(),
    pages: jsonb('pages').notNull(),
    /** Tag[] (domain) placed on this document. */
    tags: jsonb('tags').notNull().default([]),
    /** DocumentSignatureState (domain) of the uploaded document it came from, for the ceremony to tell signers. */
    signatureState: jsonb('signature_state'),
  },
  (t) => [index('epak_documents_epak').on(t.epakId, t.position), index('epak_documents_sha256').on(t.sha256)],
);

export const epakSteps = pgTable(
  'epak_steps',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    epakId: uuid('epak_id').notNull().references(() => epaks.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    workflowStateId: uuid('workflow_state_id').notNull(),
    name: text('name').notNull(),
    type: text('type').notNull(),
  },
  (t) => [index('epak_steps_epak').on(t.epakId, t.position)],
);

/** Who a step goes to; the engine keeps each recipient's status here (signer status of spec §4). */
export const epakRecipients = pgTable(
  'epak_recipients',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    epakId: uuid('epak_id').notNull().references(() => epaks.id, { onDelete: 'cascade' }),
    stepId: uuid('step_id').notNull().references(() => epakSteps.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    status: text('status').notNull().default('Pending'),
    /** The recipient who handed this place over (delegate); null for the ones composed. */
    delegatedFromId: uuid('delegated_from_id'),
    lastRemindedAt: ts('last_reminded_at'),
    actedAt: ts('acted_at'),
    /**
     * The name the signer typed when they signed (issue 22): an external signer's record carries
     * only an address, so this is what the signature's /Name, the certificate and the log show.
     */
    signedName: text('signed_name'),
    /**
     * Signer verification (spec §9 verification modes): this recipient confirms a one-time code
     * before they sign or delegate. Fixed at compose from the tenant's mode and the composer's choice.
     */
    verificationRequired: boolean('verification_required').notNull().default(false),
    /** When they confirmed the code; verification holds for the rest of this place. */
    verifiedAt: ts('verified_at'),
    /** SHA-256 of the code last sent (never the code), when it was sent and until when it holds. */
    verificationCodeHash: text('verification_code_hash'),
    verificationCodeSentAt: ts('verification_code_sent_at'),
    verificationCodeExpiresAt: ts('verification_code_expires_at'),
    /** Wrong codes since the last code was sent; at the limit the code is void and a new one is needed. */
    verificationAttempts: integer('verification_attempts').notNull().default(0),
    /** Wrong codes across codes since the last right one, and the lockout they earned (issue 9's rule). */
    verificationFailures: integer('verification_failures').notNull().default(0),
    verificationLockedUntil: ts('verification_locked_until'),
  },
  (t) => [
    index('epak_recipients_epak').on(t.epakId),
    index('epak_recipients_user').on(t.userId),
    // The dashboard's weekly statistics (issue 6): places signed or rejected in a range of weeks.
    index('epak_recipients_acted').on(t.actedAt),
  ],
);

/**
 * One signer's revision of one document: the bytes appended to the file as it was (`tail`,
 * stored as a blob of its own), so the current file is the composed original followed by every
 * tail in `seq` order. The blob is stored before this row commits, and this row commits with the
 * state change it belongs to; a recipient has at most one revision per document, which is what
 * makes a retried sign idempotent.
 */
export const epakDocumentRevisions = pgTable(
  'epak_document_revisions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    epakDocumentId: uuid('epak_document_id').notNull().references(() => epakDocuments.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    recipientId: uuid('recipient_id').references(() => epakRecipients.id, { onDelete: 'set null' }),
    /** SHA-256 of the whole file this revision was appended to, and of the whole file after it. */
    predecessorSha256: text('predecessor_sha256').notNull(),
    sha256: text('sha256').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    tailSha256: text('tail_sha256').notNull(),
    tailSize: bigint('tail_size', { mode: 'number' }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('epak_document_revisions_seq').on(t.epakDocumentId, t.seq),
    uniqueIndex('epak_document_revisions_recipient').on(t.epakDocumentId, t.recipientId),
    // The public verifier finds a Pakt document by the hash of the file dropped on it.
    index('epak_document_revisions_sha256').on(t.sha256),
  ],
);

/**
 * Signing links (easy-sign) for recipients: a high-entropy secret stored as its digest, good for
 * one recipient of one ePak until it expires or the recipient's part is over.
 */
export const epakLinks = pgTable(
  'epak_links',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    epakId: uuid('epak_id').notNull().references(() => epaks.id, { onDelete: 'cascade' }),
    recipientId: uuid('recipient_id').notNull().references(() => epakRecipients.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    expiresAt: ts('expires_at').notNull(),
    revokedAt: ts('revoked_at'),
    lastUsedAt: ts('last_used_at'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('epak_links_token').on(t.tokenHash), index('epak_links_recipient').on(t.recipientId)],
);

/** Per person and ePak: the star, the read state, and which documents they have opened. */
export const epakUserStates = pgTable(
  'epak_user_states',
  {
    epakId: uuid('epak_id').notNull().references(() => epaks.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    starred: boolean('starred').notNull().default(false),
    readAt: ts('read_at'),
    /** epak_documents ids this person has opened; all of them make the ePak read (view enforcement). */
    viewedDocumentIds: jsonb('viewed_document_ids').notNull().default([]),
  },
  (t) => [primaryKey({ columns: [t.epakId, t.userId] }), index('epak_user_states_user').on(t.userId)],
);

/**
 * Each tenant's signing identity (issue 5): its CA and the seal certificate the CA issued, made
 * on first need. Private keys are stored sealed by the key vault (AES-256-GCM, tenant id as
 * associated data), never in clear.
 */
export const tenantSeals = pgTable('tenant_seals', {
  tenantId: uuid('tenant_id').primaryKey().references(() => tenants.id, { onDelete: 'cascade' }),
  keyAlgorithm: text('key_algorithm').notNull(),
  caCertificatePem: text('ca_certificate_pem').notNull(),
  caPrivateKeySealed: text('ca_private_key_sealed').notNull(),
  sealCertificatePem: text('seal_certificate_pem').notNull(),
  sealPrivateKeySealed: text('seal_private_key_sealed').notNull(),
  createdAt: createdAt(),
});

/**
 * Files attached to a started ePak: to an attachment tag by the signer it is for (the tag then
 * shows the file's name, and the name is drawn when they sign), or to the ePak as a whole by its
 * owner or a recipient of the step under way. The bytes are a blob like any document's.
 */
export const epakAttachments = pgTable(
  'epak_attachments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    epakId: uuid('epak_id').notNull().references(() => epaks.id, { onDelete: 'cascade' }),
    epakDocumentId: uuid('epak_document_id').references(() => epakDocuments.id, { onDelete: 'cascade' }),
    tagUuid: text('tag_uuid'),
    uploadedBy: uuid('uploaded_by').references(() => users.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    sha256: text('sha256').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('epak_attachments_epak').on(t.epakId, t.createdAt), uniqueIndex('epak_attachments_tag').on(t.epakDocumentId, t.tagUuid)],
);

/**
 * An ended ePak's certificate of completion, built and sealed once and kept (issue 20, defect 7):
 * every download serves these bytes, checked against this hash, so the certificate says what was
 * true when the ePak ended and is not sealed anew at each request. Built by a job soon after the
 * end, or by the first download that comes before it.
 */
export const epakCertificates = pgTable('epak_certificates', {
  epakId: uuid('epak_id')
    .primaryKey()
    .references(() => epaks.id, { onDelete: 'cascade' }),
  sha256: text('sha256').notNull(),
  size: bigint('size', { mode: 'number' }).notNull(),
  createdAt: createdAt(),
});

/**
 * The inbox (issue 6): one row per person, ePak and folder (inbox/folders.ts in the domain
 * package; an ePak can be in several folders for one person). Rows are kept by a trigger at
 * commit from epaks, their recipients and the people's own states, never written by commands,
 * so no command can leave them stale. The sort keys are copied in, so a page of a folder is one
 * index range however many ePaks the tenant has.
 */
export const epakInbox = pgTable(
  'epak_inbox',
  {
    userId: uuid('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id, { onDelete: 'cascade' }),
    folder: text('folder').notNull(),
    epakId: uuid('epak_id').notNull().references(() => epaks.id, { onDelete: 'cascade' }),
    /** When it was sent (started), or created for a draft. */
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull(),
    modifiedAt: timestamp('modified_at', { withTimezone: true }).notNull(),
    /** lower(subject), for sorting by subject. */
    subjectKey: text('subject_key').notNull(),
    expiresAt: ts('expires_at'),
    starred: boolean('starred').notNull().default(false),
    isRead: boolean('is_read').notNull().default(false),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.tenantId, t.folder, t.epakId] }),
    index('epak_inbox_sent').on(t.userId, t.tenantId, t.folder, t.sentAt, t.epakId),
    index('epak_inbox_modified').on(t.userId, t.tenantId, t.folder, t.modifiedAt, t.epakId),
    index('epak_inbox_subject').on(t.userId, t.tenantId, t.folder, t.subjectKey, t.epakId),
    index('epak_inbox_expires').on(t.userId, t.tenantId, t.folder, t.expiresAt, t.epakId),
    index('epak_inbox_epak').on(t.epakId, t.userId),
  ],
);

/** Each person's folder counts, kept by a trigger on epak_inbox (counting 1,000,000 rows per page would not be fast). */
export const epakInboxCounts = pgTable(
  'epak_inbox_counts',
  {
    userId: uuid('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id, { onDelete: 'cascade' }),
    folder: text('folder').notNull(),
    total: integer('total').notNull().default(0),
    unread: integer('unread').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.userId, t.tenantId, t.folder] })],
);

/**
 * A number per person and tenant that grows whenever an ePak they have an inbox row for changes
 * in anything its summary shows (the inbox sync bumps it, migration 0018): the server keeps
 * recently answered inbox pages and answers from them while this number stays the same
 * (inbox/page-cache.ts).
 */
export const epakInboxVersions = pgTable(
  'epak_inbox_versions',
  {
    userId: uuid('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id, { onDelete: 'cascade' }),
    version: bigint('version', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.userId, t.tenantId] })],
);

/**
 * Field values filled into an ePak's tags (name and value), for the global search's "ePak tag"
 * type: kept by a trigger from epak_documents, searched with a trigram index.
 */
export const epakTagValues = pgTable(
  'epak_tag_values',
  {
    epakId: uuid('epak_id').notNull().references(() => epaks.id, { onDelete: 'cascade' }),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id, { onDelete: 'cascade' }),
    epakDocumentId: uuid('epak_document_id').notNull().references(() => epakDocuments.id, { onDelete: 'cascade' }),
    tagUuid: text('tag_uuid').notNull(),
    name: text('name').notNull(),
    value: text('value').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.epakDocumentId, t.tagUuid] }),
    index('epak_tag_values_epak').on(t.epakId),
    index('epak_tag_values_value').using('gin', sql`lower(${t.value}) gin_trgm_ops`),
  ],
);

/**
 * What a person is told in the app (spec §3 Notification, §4 handling by type): written in the
 * transaction of the change it reports and announced with pg_notify, which PostgreSQL delivers
 * at commit only, to every server process listening.
 */
export const notifications = pgTable(
  'notifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    epakId: uuid('epak_id').references(() => epaks.id, { onDelete: 'set null' }),
    title: text('title').notNull(),
    body: text('body').notNull(),
    createdAt: createdAt(),
    readAt: ts('read_at'),
  },
  (t) => [index('notifications_user').on(t.userId, t.tenantId, t.createdAt)],
);

/** Banner announcements (spec §3, §4): instance-wide (tenant null, by root) or a tenant's own. */
export const announcements = pgTable(
  'announcements',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id').references(() => tenants.id, { onDelete: 'cascade' }),
    text: text('text').notNull(),
    startTime: timestamp('start_time', { withTimezone: true }).notNull(),
    endTime: timestamp('end_time', { withTimezone: true }).notNull(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('announcements_tenant_end').on(t.tenantId, t.endTime)],
);

/** A tenant's groups (issue 7): names unique whatever their case, at most 15 characters. */
export const groups = pgTable(
  'groups',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('groups_name').on(t.tenantId, sql`lower(${t.name})`)],
);

/**
 * Members of a group: members of its tenant (leaving the tenant leaves its groups). At most one
 * manager per group, and a person manages at most one group of a tenant (-141): both are unique
 * indexes, so two concurrent requests cannot break them.
 */
export const groupMembers = pgTable(
  'group_members',
  {
    groupId: uuid('group_id').notNull().references(() => groups.id, { onDelete: 'cascade' }),
    tenantId: uuid('tenant_id').notNull(),
    userId: uuid('user_id').notNull(),
    isManager: boolean('is_manager').notNull().default(false),
    addedAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.groupId, t.userId] }),
    foreignKey({ columns: [t.tenantId, t.userId], foreignColumns: [memberships.tenantId, memberships.userId] }).onDelete('cascade'),
    index('group_members_user').on(t.tenantId, t.userId),
    uniqueIndex('group_members_one_manager').on(t.groupId).where(sql`${t.isManager}`),
    uniqueIndex('group_members_manages_one').on(t.tenantId, t.userId).where(sql`${t.isManager}`),
  ],
);

/**
 * The administration audit log (issue 7): written in the transaction of the change it records,
 * read by the tenant's administrators, never edited.
 */
export const adminAuditLog = pgTable(
  'admin_audit_log',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id, { onDelete: 'cascade' }),
    actorId: uuid('actor_id').references(() => users.id, { onDelete: 'set null' }),
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id'),
    targetLabel: text('target_label'),
    details: jsonb('details').notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [index('admin_audit_tenant_time').on(t.tenantId, t.createdAt, t.id), index('admin_audit_tenant_action').on(t.tenantId, t.action, t.createdAt)],
);

/**
 * User sync-up runs (issue 7): an administrator starts one, a job reads the tenant's directory
 * feed and applies it. At most one run of a tenant is queued or running at a time (the partial
 * unique index makes that hold even when two starts race).
 */
export const userSyncRuns = pgTable(
  'user_sync_runs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id, { onDelete: 'cascade' }),
    startedBy: uuid('started_by').references(() => users.id, { onDelete: 'set null' }),
    status: text('status', { enum: ['queued', 'running', 'succeeded', 'failed'] }).notNull().default('queued'),
    /** The feed's name when the run was started (the setting may change afterwards). */
    fileName: text('file_name').notNull(),
    counts: jsonb('counts'),
    /** What changed and which rows were refused: { changes: [...], errors: [...] }. */
    report: jsonb('report'),
    /** Why a failed run changed nothing (the file missing, unreadable or invalid). */
    error: text('error'),
    createdAt: createdAt(),
    startedAt: ts('started_at'),
    finishedAt: ts('finished_at'),
  },
  (t) => [
    index('user_sync_runs_tenant_time').on(t.tenantId, t.createdAt.desc()),
    uniqueIndex('user_sync_runs_one_open').on(t.tenantId).where(sql`${t.status} in ('queued', 'running')`),
  ],
);

/**
 * Signing reasons of a tenant (issue 8; spec §7 reasons, §9 "default reason id 1"). The signing
 * ceremony lists the enabled ones, the default first. Built-in rows keep a `key` (approve, agree,
 * author, witness) so the web app shows them in the reader's language; editing a built-in row's
 * text clears its key and it is shown as typed from then on. Reasons are never deleted, only
 * disabled, so a tenant always has its list. A database trigger (migration 0022) seeds the four
 * built-in rows for every new tenant and the migration seeds the existing ones.
 */
export const reasons = pgTable(
  'reasons',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id, { onDelete: 'cascade' }),
    key: text('key'),
    text: text('text').notNull(),
    position: integer('position').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    isDefault: boolean('is_default').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('reasons_text').on(t.tenantId, sql`lower(${t.text})`),
    uniqueIndex('reasons_key').on(t.tenantId, t.key).where(sql`${t.key} is not null`),
    uniqueIndex('reasons_one_default').on(t.tenantId).where(sql`${t.isDefault}`),
    index('reasons_tenant_position').on(t.tenantId, t.position),
  ],
);

/**
 * Letterhead templates (issue 8, spec §7 /letterheadtemplate): images a tenant's composers keep to
 * put on a letterHead tag. Shared with everyone in the tenant who composes (a letterhead is the
 * organisation's, not one person's); deleted by whoever uploaded it or an admin. The bytes live
 * in the content-addressed file storage, so a template deleted after use leaves sealed ePaks whole.
 */
export const letterheadTemplates = pgTable(
  'letterhead_templates',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id, { onDelete: 'cascade' }),
    // Kept when the uploader leaves: the template is the tenant's.
    ownerId: uuid('owner_id').references(() => users.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    contentType: text('content_type', { enum: ['image/png', 'image/jpeg'] }).notNull(),
    sha256: text('sha256').notNull(),
    size: integer('size').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('letterhead_templates_tenant_time').on(t.tenantId, t.createdAt.desc())],
);

/**
 * Document templates (issue 8): a PDF with the tags placed on it and, optionally, the workflow
 * template it goes through. The PDF is a content-addressed blob shared with every ePak composed
 * from it. A tag names its person by workflow step and place (`wfsOrderId` and a recipient slot),
 * not by address, so one template serves any recipients.
 */
export const documentTemplates = pgTable(
  'document_templates',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id, { onDelete: 'cascade' }),
    // Kept when the author leaves: the template is the tenant's.
    ownerId: uuid('owner_id').references(() => users.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    description: text('description'),
    /** The document as stored: its file name, content address, size and page geometry. */
    documentName: text('document_name').notNull(),
    sha256: text('sha256').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    pageCount: integer('page_count').notNull(),
    /** PageGeometry[] (domain). */
    pages: jsonb('pages').notNull(),
    /** Tag[] (domain), the preconfigured tags. */
    tags: jsonb('tags').notNull().default([]),
    signingPolicy: text('signing_policy').notNull().default('ESIGNATURE'),
    /** The linked workflow template; an ePak composed from this template takes its steps. */
    workflowId: uuid('workflow_id').references(() => workflows.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('document_templates_name').on(t.tenantId, sql`lower(${t.name})`), index('document_templates_tenant_time').on(t.tenantId, t.updatedAt.desc())],
);

/**
 * Rubber stamps (issue 8, spec §6): an image a member may apply when signing, their own or one
 * shared with them or with a group of theirs.
 */
export const rubberStamps = pgTable(
  'rubber_stamps',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id, { onDelete: 'cascade' }),
    ownerId: uuid('owner_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    contentType: text('content_type', { enum: ['image/png', 'image/jpeg'] }).notNull(),
    sha256: text('sha256').notNull(),
    size: integer('size').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('rubber_stamps_owner').on(t.tenantId, t.ownerId)],
);

/** Who a rubber stamp is shared with: one member, or one group, per row. */
export const rubberStampShares = pgTable(
  'rubber_stamp_shares',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    stampId: uuid('stamp_id').notNull().references(() => rubberStamps.id, { onDelete: 'cascade' }),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    groupId: uuid('group_id').references(() => groups.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('rubber_stamp_shares_user').on(t.stampId, t.userId).where(sql`${t.userId} is not null`),
    uniqueIndex('rubber_stamp_shares_group').on(t.stampId, t.groupId).where(sql`${t.groupId} is not null`),
    index('rubber_stamp_shares_tenant_user').on(t.tenantId, t.userId),
    index('rubber_stamp_shares_tenant_group').on(t.tenantId, t.groupId),
    check('rubber_stamp_shares_one_target', sql`(${t.userId} is null) <> (${t.groupId} is null)`),
  ],
);

/**
 * Bulk compose runs (issue 8): one uploaded CSV for one document template. The file is kept as a
 * blob and streamed by the job. Unique per tenant, template and file content, so uploading the
 * same file again finds the run it already made instead of making ePaks twice.
 */
export const bulkComposeRuns = pgTable(
  'bulk_compose_runs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id, { onDelete: 'cascade' }),
    ownerId: uuid('owner_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    templateId: uuid('template_id').references(() => documentTemplates.id, { onDelete: 'set null' }),
    fileName: text('file_name').notNull(),
    fileSha256: text('file_sha256').notNull(),
    fileSize: bigint('file_size', { mode: 'number' }).notNull(),
    /** queued, running, completed or failed. */
    status: text('status', { enum: ['queued', 'running', 'completed', 'failed'] }).notNull().default('queued'),
    totalRows: integer('total_rows').notNull().default(0),
    processedRows: integer('processed_rows').notNull().default(0),
    createdEpaks: integer('created_epaks').notNull().default(0),
    failedRows: integer('failed_rows').notNull().default(0),
    /** A file-level refusal (code and message) that ended the run. */
    error: jsonb('error'),
    createdAt: createdAt(),
    startedAt: ts('started_at'),
    finishedAt: ts('finished_at'),
  },
  (t) => [uniqueIndex('bulk_compose_runs_file').on(t.tenantId, t.templateId, t.fileSha256), index('bulk_compose_runs_owner').on(t.tenantId, t.ownerId, t.createdAt.desc())],
);

/** The rows of a run that were refused, with the cells as uploaded and each field's error code. */
export const bulkComposeFailures = pgTable(
  'bulk_compose_failures',
  {
    runId: uuid('run_id').notNull().references(() => bulkComposeRuns.id, { onDelete: 'cascade' }),
    /** 1-based, after the header. */
    rowNumber: integer('row_number').notNull(),
    /** The row's cells as uploaded, in header order. */
    cells: jsonb('cells').notNull(),
    /** { field, code, message }[]: why the row was refused. */
    errors: jsonb('errors').notNull(),
  },
  (t) => [primaryKey({ columns: [t.runId, t.rowNumber] })],
);
