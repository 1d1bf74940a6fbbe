import fs from 'node:fs/promises';
import path from 'node:path';
import {
  type Actor,
  authorize,
  BULK_COMPOSE_CSV_FIELD_ERRORS,
  DEFAULT_USER_SYNC_ROLE,
  DomainError,
  EmailAddress,
  effectivePermissionSettings,
  type InstallFeatures,
  invalidInput,
  notFound,
  REFUSAL_RESPONSES,
  type RefusalReason,
  ResponseCode,
  type Role,
  type TenantSettings,
  USER_SYNC_COLUMNS,
  USER_SYNC_MAX_BYTES,
  USER_SYNC_RECENT_RUNS,
  USER_SYNC_REQUIRED,
  USER_SYNC_ROLES,
  USER_SYNC_STATUSES,
  type UserStatus,
  type UserSyncChange,
  type UserSyncColumn,
  type UserSyncCounts,
  type UserSyncError,
  type UserSyncReport,
  type UserSyncRun,
  type UserSyncRunDetail,
  type UserSyncSource,
  fullName,
} from '@pakt/domain';
import { parseCsv } from '../../platform/csv';
import { and, asc, desc, eq, inArray, lt } from 'drizzle-orm';
import type { Db } from '../../platform/db/database';
import { memberships, tenants, userSyncRuns, users } from '../../platform/db/schema';
import { createInvitation, INVITATION_DAYS, loadTenantSettings } from '../identity';
import { recordAdminAction } from '../../platform/audit-log';

/**
 * User sync-up (issue 7): a directory feed the operator drops in the tenant's folder of
 * USER_SYNC_DIR is read by a background job and applied as the administrator who started the run
 * would apply it by hand, every change checked by the permissions module and audited, all in one
 * transaction. See packages/domain/src/api/user-sync.ts for the feed's format and rules.
 */

type RunRow = typeof userSyncRuns.$inferSelect;
type SyncStatus = (typeof USER_SYNC_STATUSES)[number];

/** One person the feed names, checked field by field; names only when given. */
export interface FeedRow {
  line: number;
  email: string;
  firstName: string | undefined;
  lastName: string | undefined;
  role: Role | undefined;
  status: SyncStatus | undefined;
}

export interface ParsedFeed {
  rows: FeedRow[];
  errors: UserSyncError[];
  /** Every valid address the feed names, bad rows included: they are not "missing" from it. */
  named: Set<string>;
  /** People the feed names (rows or items), good and bad. */
  total: number;
}

const NAME_MAX = 100;

/**
 * The feed's file inside the tenant's folder. The setting cannot hold a slash, but the name is
 * resolved and compared anyway: a tenant's feed must never be read from outside its folder.
 */
export function userSyncFilePath(options: { userSyncDir: string; tenantId: string; fileName: string }): string {
  const folder = path.resolve(options.userSyncDir, options.tenantId);
  const file = path.resolve(folder, options.fileName);
  if (path.dirname(file) !== folder || path.basename(file) !== options.fileName) {
    throw invalidInput('The feed file name must be a plain file name inside the tenant folder.', [{ path: 'userSyncFileName', message: 'not a plain file name' }]);
  }
  return file;
}

/**
 * Reads a feed's text: CSV (a header line naming the columns, in any order) or JSON (an array of
 * objects, or `{ "users": [...] }`; other keys of an object are ignored, as exports carry more).
 * A fault of the whole file throws its code; a bad row is reported and the rest still counts.
 */
export function parseUserSyncFeed(options: { fileName: string; text: string }): ParsedFeed {
  const json = /\.json$/i.test(options.fileName);
  const items = json ? jsonItems(options.text) : csvItems(options.text);
  const result: ParsedFeed = { rows: [], errors: [], named: new Set(), total: items.length };
  const firstLineOf = new Map<string, number>();
  for (const item of items) {
    const fail = (field: UserSyncColumn | null, code: number, message: string, email: string | null) => result.errors.push({ line: item.line, email, field, code, message });
    if (item.fault) {
      fail(null, item.fault.code, item.fault.message, null);
      continue;
    }
    const value = item.values;
    const rawEmail = typeof value.email === 'string' ? value.email.trim() : '';
    const email = EmailAddress.safeParse(rawEmail.toLowerCase());
    if (!email.success) {
      fail('email', BULK_COMPOSE_CSV_FIELD_ERRORS.email, rawEmail ? 'Not an e-mail address.' : 'An e-mail address is needed.', rawEmail || null);
      continue;
    }
    result.named.add(email.data);
    const text = (field: UserSyncColumn): string | undefined | null => {
      const v = value[field];
      if (v === undefined || v === null) return undefined;
      if (typeof v !== 'string') return null;
      return v.trim() || undefined;
    };
    const firstName = text('firstName');
    if (firstName === null || (firstName && firstName.length > NAME_MAX)) {
      fail('firstName', BULK_COMPOSE_CSV_FIELD_ERRORS.firstName, `A first name is text of ${NAME_MAX} characters at most.`, email.data);
      continue;
    }
    const lastName = text('lastName');
    if (lastName === null || (lastName && lastName.length > NAME_MAX)) {
      fail('lastName', BULK_COMPOSE_CSV_FIELD_ERRORS.lastName, `A last name is text of ${NAME_MAX} characters at most.`, email.data);
      continue;
    }
    const lower = (v: string | undefined | null) => (typeof v === 'string' ? v.toLowerCase() : v);
    const role = lower(text('role'));
    if (role === null || (role !== undefined && !(USER_SYNC_ROLES as readonly string[]).includes(role))) {
      fail('role', ResponseCode.INVALID_INPUT.code, `The role must be one of ${USER_SYNC_ROLES.join(', ')}, or empty.`, email.data);
      continue;
    }
    const status = lower(text('status'));
    if (status === null || (status !== undefined && !(USER_SYNC_STATUSES as readonly string[]).includes(status))) {
      fail('status', ResponseCode.INVALID_INPUT.code, `The status must be ${USER_SYNC_STATUSES.join(' or ')}, or empty.`, email.data);
      continue;
    }
    const earlier = firstLineOf.get(email.data);
    if (earlier !== undefined) {
      fail('email', ResponseCode.INVALID_INPUT.code, `Already on ${json ? 'item' : 'line'} ${earlier}.`, email.data);
      continue;
    }
    firstLineOf.set(email.data, item.line);
    result.rows.push({ line: item.line, email: email.data, firstName, lastName, role: role as Role | undefined, status: status as SyncStatus | undefined });
  }
  return result;
}

interface FeedItem {
  line: number;
  values: Partial<Record<UserSyncColumn, unknown>>;
  fault?: { code: number; message: string };
}

function csvItems(text: string): FeedItem[] {
  const rows = parseCsv(text);
  const header = (rows[0] ?? []).map((name) => name.trim());
  if (rows.length === 0 || header.every((name) => name === '')) throw new DomainError(ResponseCode.EMPTY_FILE_IMPORTED, 'The feed is empty.');
  const missing = USER_SYNC_REQUIRED.filter((column) => !header.includes(column));
  if (missing.length > 0) {
    throw new DomainError(ResponseCode.CSV_MANDATORY_HEADERS, `The header must name ${missing.join(', ')} (columns: ${USER_SYNC_COLUMNS.join(', ')}).`);
  }
  const unknown = header.filter((name, index) => !(USER_SYNC_COLUMNS as readonly string[]).includes(name) || header.indexOf(name) !== index);
  if (unknown.length > 0) {
    throw new DomainError(ResponseCode.CSV_HEADER_COUNT_MISMATCH, `The header has unknown or repeated columns: ${unknown.join(', ')} (columns: ${USER_SYNC_COLUMNS.join(', ')}).`);
  }
  if (rows.length === 1) throw new DomainError(ResponseCode.EMPTY_FILE_IMPORTED, 'The feed has a header but nobody in it.');
  // parseCsv drops wholly empty lines, so a row's line is counted from the text, not its index.
  const lineNumbers = csvLineNumbers(text);
  return rows.slice(1).map((fields, index) => {
    const line = lineNumbers[index + 1] ?? index + 2;
    if (fields.length !== header.length) {
      return { line, values: {}, fault: { code: ResponseCode.CSV_HEADER_COUNT_MISMATCH.code, message: `This line has ${fields.length} fields; the header has ${header.length}.` } };
    }
    return { line, values: Object.fromEntries(header.map((name, i) => [name, fields[i]])) };
  });
}

/**
 * The 1-based line where each non-empty CSV row starts, quoted line breaks respected. Counted here,
 * not taken from csv-parse's `info.lines`: csv-parse 6.2 counts a CRLF inside a quoted field as two
 * lines, so every row after such a field would be reported one line too far down.
 */
function csvLineNumbers(text: string): number[] {
  const starts: number[] = [];
  let line = 1;
  let quoted = false;
  let rowHasText = false;
  let rowStart = 1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') quoted = !quoted;
    if (!quoted && (c === '\n' || c === '\r')) {
      if (c === '\r' && text[i + 1] === '\n') i++;
      if (rowHasText) starts.push(rowStart);
      line++;
      rowStart = line;
      rowHasText = false;
      continue;
    }
    if (c === '\n' || (c === '\r' && text[i + 1] !== '\n')) line++;
    if (c !== '\uFEFF') rowHasText = true;
  }
  if (rowHasText) starts.push(rowStart);
  return starts;
}

function jsonItems(text: string): FeedItem[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (error) {
    throw new DomainError(ResponseCode.UNABLE_TO_PARSE_DATA, `The feed is not valid JSON: ${(error as Error).message}`);
  }
  const list = Array.isArray(parsed) ? parsed : parsed && typeof parsed === 'object' && Array.isArray((parsed as { users?: unknown }).users) ? (parsed as { users: unknown[] }).users : undefined;
  if (!list) throw new DomainError(ResponseCode.UNABLE_TO_PARSE_DATA, 'The feed must be a JSON array of people, or an object whose "users" is one.');
  if (list.length === 0) throw new DomainError(ResponseCode.EMPTY_FILE_IMPORTED, 'The feed names nobody.');
  return list.map((item, index) =>
    item && typeof item === 'object' && !Array.isArray(item)
      ? { line: index + 1, values: item as FeedItem['values'] }
      : { line: index + 1, values: {}, fault: { code: ResponseCode.INVALID_INPUT.code, message: 'Each person is an object with email, firstName, lastName, role and status.' } },
  );
}

// --- runs -----------------------------------------------------------------------------------

const OPEN = ['queued', 'running'] as const;

async function openRun(db: Db, tenantId: string): Promise<RunRow | undefined> {
  const [row] = await db.select().from(userSyncRuns).where(and(eq(userSyncRuns.tenantId, tenantId), inArray(userSyncRuns.status, [...OPEN])));
  return row;
}

/**
 * POST /msbapi/v2/startUserSyncUp: queues a run (and its start record), or answers the run of
 * this tenant already queued or running, so two starts never apply one feed twice. `queued`
 * says whether a job must now be sent, after this commit.
 */
export async function startUserSync(options: { db: Db; tenantId: string; startedBy: string; settings: TenantSettings }): Promise<{ run: UserSyncRun; queued: boolean }> {
  const { db, tenantId, settings } = options;
  const fileName = settings.userSyncFileName;
  if (!fileName) {
    throw invalidInput('No user sync-up feed is configured: a super admin sets its file name in Settings.', [{ path: 'userSyncFileName', message: 'not set' }]);
  }
  const { row, queued } = await db.transaction(async (t) => {
    const existing = await openRun(t, tenantId);
    if (existing) return { row: existing, queued: false };
    // The partial unique index settles a race between two starts: the loser answers the winner's run.
    const [inserted] = await t.insert(userSyncRuns).values({ tenantId, startedBy: options.startedBy, fileName }).onConflictDoNothing().returning();
    if (!inserted) return { row: (await openRun(t, tenantId))!, queued: false };
    await recordAdminAction({
      db: t,
      tenantId,
      actorId: options.startedBy,
      action: 'user_sync',
      target: { type: 'tenant', id: tenantId, label: fileName },
      details: { runId: inserted.id, event: 'started', fileName },
    });
    return { row: inserted, queued: true };
  });
  return { run: (await presentRuns(db, [row]))[0]!, queued };
}

/** GET /msbapi/v2/userSyncUps: the source as configured and as it is on disk, and the latest runs. */
export async function describeUserSync(options: { db: Db; tenantId: string; userSyncDir: string; settings: TenantSettings }) {
  const { db, tenantId, settings } = options;
  const fileName = settings.userSyncFileName ?? null;
  let file: UserSyncSource['file'] = { present: false, size: null, modifiedOn: null };
  if (fileName) {
    const stat = await fs.stat(userSyncFilePath({ userSyncDir: options.userSyncDir, tenantId, fileName })).catch(() => undefined);
    if (stat?.isFile()) file = { present: true, size: stat.size, modifiedOn: stat.mtime.toISOString() };
  }
  const rows = await db.select().from(userSyncRuns).where(eq(userSyncRuns.tenantId, tenantId)).orderBy(desc(userSyncRuns.createdAt), desc(userSyncRuns.id)).limit(USER_SYNC_RECENT_RUNS);
  const source: UserSyncSource = {
    fileName,
    folder: tenantId,
    disableMissing: settings.userSyncDisableMissing ?? false,
    defaultRole: settings.userSyncDefaultRole ?? DEFAULT_USER_SYNC_ROLE,
    file,
  };
  return { source, runs: await presentRuns(db, rows) };
}

/** GET /msbapi/v2/userSyncUps/:runId: another tenant's run is as absent as a missing one. */
export async function getUserSyncRun(options: { db: Db; tenantId: string; runId: string }): Promise<UserSyncRunDetail> {
  const [row] = await options.db
    .select()
    .from(userSyncRuns)
    .where(and(eq(userSyncRuns.id, options.runId), eq(userSyncRuns.tenantId, options.tenantId)));
  if (!row) throw notFound();
  const [run] = await presentRuns(options.db, [row]);
  return { ...run!, report: (row.report as UserSyncReport | null) ?? null };
}

async function presentRuns(db: Db, rows: readonly RunRow[]): Promise<UserSyncRun[]> {
  const ids = [...new Set(rows.map((r) => r.startedBy).filter((id): id is string => !!id))];
  const people = ids.length === 0 ? [] : await db.select({ id: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName }).from(users).where(inArray(users.id, ids));
  const byId = new Map(people.map((p) => [p.id, p]));
  return rows.map((row) => {
    const who = row.startedBy ? byId.get(row.startedBy) : undefined;
    return {
      runId: row.id,
      status: row.status,
      fileName: row.fileName,
      startedBy: who ? { userId: who.id, email: who.email, name: fullName(who) } : null,
      createdOn: row.createdAt.toISOString(),
      startedOn: row.startedAt?.toISOString() ?? null,
      finishedOn: row.finishedAt?.toISOString() ?? null,
      counts: (row.counts as UserSyncCounts | null) ?? null,
      error: row.error,
    };
  });
}

// --- the job's work -------------------------------------------------------------------------

export interface UserSyncWorkOptions {
  db: Db;
  userSyncDir: string;
  publicUrl: string;
  /** The install's feature flags: the run is checked with the settings in force, like a request. */
  installFeatures: InstallFeatures;
}

/**
 * Runs one queued run: claims it (so a second delivery of the job does nothing), reads and checks
 * the feed, applies every change in one transaction with its audit records and the summary, and
 * marks it succeeded. A missing, unreadable or invalid feed (or any fault) fails the run with the
 * reason and changes nothing. Answers what happened, or null when the run was not queued.
 */
export async function runUserSync(options: UserSyncWorkOptions & { runId: string }): Promise<{ status: 'succeeded' | 'failed'; invited: number } | null> {
  const { db } = options;
  const [run] = await db
    .update(userSyncRuns)
    .set({ status: 'running', startedAt: new Date() })
    .where(and(eq(userSyncRuns.id, options.runId), eq(userSyncRuns.status, 'queued')))
    .returning();
  if (!run) return null;
  try {
    const { actor, tenant, settings } = await loadStarter(db, run, options.installFeatures);
    const text = await readFeed({ userSyncDir: options.userSyncDir, tenantId: run.tenantId, fileName: run.fileName });
    const feed = parseUserSyncFeed({ fileName: run.fileName, text });
    const counts = await db.transaction(async (t) => {
      const { changes, errors, unchanged } = await applyFeed({ db: t, run, actor, tenant, settings, feed, publicUrl: options.publicUrl });
      const counts: UserSyncCounts = {
        rows: feed.total,
        invited: changes.filter((c) => c.kind === 'invited').length,
        roleChanged: changes.filter((c) => c.kind === 'roleChanged').length,
        enabled: changes.filter((c) => c.kind === 'enabled').length,
        disabled: changes.filter((c) => c.kind === 'disabled').length,
        unchanged,
        errors: errors.length,
      };
      const report: UserSyncReport = { changes, errors: errors.sort((a, b) => (a.line ?? Infinity) - (b.line ?? Infinity) || (a.line === null ? (a.email ?? '').localeCompare(b.email ?? '') : 0)) };
      await t.update(userSyncRuns).set({ status: 'succeeded', counts, report, finishedAt: new Date() }).where(eq(userSyncRuns.id, run.id));
      await recordAdminAction({
        db: t,
        tenantId: run.tenantId,
        actorId: actor.userId,
        action: 'user_sync',
        target: { type: 'tenant', id: run.tenantId, label: run.fileName },
        details: { runId: run.id, event: 'succeeded', counts },
      });
      return counts;
    });
    return { status: 'succeeded', invited: counts.invited };
  } catch (error) {
    await failRun(db, run, error);
    return { status: 'failed', invited: 0 };
  }
}

/** A run that changed nothing: its reason, its code in the report, and the summary record. */
async function failRun(db: Db, run: RunRow, error: unknown) {
  const known = error instanceof DomainError;
  const message = known ? error.message : 'The run stopped on an unexpected fault; nothing was changed.';
  const code = known ? error.code : ResponseCode.SYSTEM_ERROR.code;
  await db.transaction(async (t) => {
    await t
      .update(userSyncRuns)
      .set({ status: 'failed', error: message, report: { changes: [], errors: [{ line: null, email: null, field: null, code, message }] }, finishedAt: new Date() })
      .where(eq(userSyncRuns.id, run.id));
    await recordAdminAction({
      db: t,
      tenantId: run.tenantId,
      // Null once the starter's account is gone, as the log's own foreign key would make it.
      actorId: run.startedBy as string,
      action: 'user_sync',
      target: { type: 'tenant', id: run.tenantId, label: run.fileName },
      details: { runId: run.id, event: 'failed', code, error: message },
    });
  });
  if (!known) throw error;
}

/**
 * The starter as the permissions module sees them now: still an administrator of the tenant,
 * still allowed to sync (the setting may have been switched off since they started).
 */
async function loadStarter(db: Db, run: RunRow, installFeatures: InstallFeatures) {
  const [tenant] = await db.select({ id: tenants.id, name: tenants.name }).from(tenants).where(eq(tenants.id, run.tenantId));
  const [starter] = run.startedBy
    ? await db
        .select({ role: memberships.role, membershipStatus: memberships.status, userStatus: users.status })
        .from(memberships)
        .innerJoin(users, eq(users.id, memberships.userId))
        .where(and(eq(memberships.tenantId, run.tenantId), eq(memberships.userId, run.startedBy)))
    : [];
  const settings = await loadTenantSettings(db, run.tenantId);
  const actor: Actor & { tenantId: string } = {
    userId: run.startedBy ?? '',
    tenantId: run.tenantId,
    role: (starter?.role ?? 'signer') as Role,
    userStatus: starter?.userStatus as UserStatus | undefined,
  };
  const allowed = authorize(actor, 'userSync.start', { settings: effectivePermissionSettings(installFeatures, settings) });
  if (!tenant || !starter || starter.membershipStatus !== 'active' || !allowed.allowed) {
    throw new DomainError(ResponseCode.NOT_AUTHORIZED, 'The administrator who started this run may no longer run user sync-up here; nothing was changed.');
  }
  return { actor, tenant, settings };
}

async function readFeed(options: { userSyncDir: string; tenantId: string; fileName: string }): Promise<string> {
  const file = userSyncFilePath(options);
  const where = `${options.tenantId}/${options.fileName} in the user sync folder`;
  const stat = await fs.stat(file).catch(() => undefined);
  if (!stat?.isFile()) throw invalidInput(`The feed file is missing: put it at ${where}.`);
  if (stat.size > USER_SYNC_MAX_BYTES) throw invalidInput(`The feed is larger than ${USER_SYNC_MAX_BYTES / 1024 / 1024} MB.`);
  try {
    return await fs.readFile(file, 'utf8');
  } catch {
    throw invalidInput(`The feed file could not be read (${where}): check its permissions.`);
  }
}

type MemberRow = { userId: string; email: string; firstName: string; lastName: string; role: string; status: 'invited' | 'active' | 'disabled'; retentionAdmin: boolean };

/** Every change the feed asks for, checked and made; refused ones reported instead. */
async function applyFeed(options: {
  db: Db;
  run: RunRow;
  actor: Actor & { tenantId: string };
  tenant: { id: string; name: string };
  settings: TenantSettings;
  feed: ParsedFeed;
  publicUrl: string;
}) {
  const { db, run, actor, tenant, settings, feed } = options;
  const changes: UserSyncChange[] = [];
  const errors: UserSyncError[] = [...feed.errors];
  let unchanged = 0;
  const refusal = (reason: RefusalReason) => REFUSAL_RESPONSES[reason].code;

  // The members, locked: a change made by hand meanwhile waits for this run, or this run for it.
  const members = await db
    .select({
      userId: memberships.userId,
      email: users.email,
      firstName: users.firstName,
      lastName: users.lastName,
      role: memberships.role,
      status: memberships.status,
      retentionAdmin: memberships.retentionAdmin,
    })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(memberships.tenantId, tenant.id))
    .orderBy(asc(memberships.userId))
    .for('update', { of: memberships });
  const memberOf = new Map<string, MemberRow>(members.map((m) => [m.email, m]));
  const newcomers = feed.rows.filter((row) => !memberOf.has(row.email)).map((row) => row.email);
  const accounts = new Map<string, typeof users.$inferSelect>();
  for (let i = 0; i < newcomers.length; i += 1000) {
    for (const user of await db.select().from(users).where(inArray(users.email, newcomers.slice(i, i + 1000)))) accounts.set(user.email, user);
  }
  const validityDays = settings.invitationValidityDays ?? INVITATION_DAYS;
  const audit = (action: 'admin_invite' | 'user_role_changed' | 'user_enabled' | 'user_disabled', who: { userId: string; email: string }, details: Record<string, unknown>) =>
    recordAdminAction({ db, tenantId: tenant.id, actorId: actor.userId, action, target: { type: 'user', id: who.userId, label: who.email }, details: { ...details, via: 'user_sync', runId: run.id } });
  const setStatus = async (member: MemberRow, status: 'active' | 'disabled', line: number | null) => {
    await db.update(memberships).set({ status }).where(and(eq(memberships.tenantId, tenant.id), eq(memberships.userId, member.userId)));
    const kind = status === 'active' ? 'enabled' : 'disabled';
    changes.push({ email: member.email, kind, from: member.status, to: status, line });
    await audit(status === 'active' ? 'user_enabled' : 'user_disabled', member, {});
  };

  for (const row of feed.rows) {
    let refused = false;
    const fail = (field: UserSyncColumn | null, code: number, message: string) => {
      refused = true;
      errors.push({ line: row.line, email: row.email, field, code, message });
    };
    const member = memberOf.get(row.email);
    if (!member) {
      // Someone the feed lists as disabled is not invited in the first place.
      if (row.status === 'disabled') {
        unchanged++;
        continue;
      }
      const account = accounts.get(row.email);
      if (account?.isRoot) {
        fail('email', ResponseCode.INVALID_INPUT.code, 'The instance administrator belongs to no tenant.');
        continue;
      }
      if (account?.disabledAt) {
        fail('email', ResponseCode.USER_DISABLED.code, 'This account is disabled on the whole install.');
        continue;
      }
      const firstName = account?.firstName ?? row.firstName;
      const lastName = account?.lastName ?? row.lastName;
      if (!firstName) {
        fail('firstName', BULK_COMPOSE_CSV_FIELD_ERRORS.firstName, 'A first name is needed to invite someone new.');
        continue;
      }
      if (!lastName) {
        fail('lastName', BULK_COMPOSE_CSV_FIELD_ERRORS.lastName, 'A last name is needed to invite someone new.');
        continue;
      }
      const role = row.role ?? settings.userSyncDefaultRole ?? DEFAULT_USER_SYNC_ROLE;
      const decision = authorize(actor, 'user.invite', { newRole: role });
      if (!decision.allowed) {
        fail('role', refusal(decision.reason), `You may not invite someone as ${role}.`);
        continue;
      }
      const { userId } = await createInvitation({
        db,
        tenant,
        role,
        person: { email: row.email, firstName, lastName },
        invitedBy: actor.userId,
        publicUrl: options.publicUrl,
        validityDays,
      });
      changes.push({ email: row.email, kind: 'invited', from: null, to: role, line: row.line });
      await audit('admin_invite', { userId, email: row.email }, { role });
      continue;
    }

    let changed = false;
    if (row.role && row.role !== member.role) {
      const decision = authorize(actor, 'user.updateRole', { targetUserId: member.userId, targetRole: member.role as Role, newRole: row.role });
      if (!decision.allowed) fail('role', refusal(decision.reason), 'You may not change this person’s role (yourself, a super admin or a role you may not give).');
      else {
        // The retention privilege belongs to administrators only: another role drops it.
        const retentionAdmin = row.role === 'admin' ? member.retentionAdmin : false;
        await db.update(memberships).set({ role: row.role, retentionAdmin }).where(and(eq(memberships.tenantId, tenant.id), eq(memberships.userId, member.userId)));
        changes.push({ email: member.email, kind: 'roleChanged', from: member.role, to: row.role, line: row.line });
        await audit('user_role_changed', member, { from: member.role, to: row.role, ...(retentionAdmin !== member.retentionAdmin ? { retentionAdmin } : {}) });
        changed = true;
      }
    }
    const wanted = row.status === 'disabled' ? 'disabled' : row.status === 'enabled' ? 'active' : undefined;
    if (wanted && wanted !== member.status) {
      const decision = authorize(actor, 'user.disable', { targetUserId: member.userId, targetRole: member.role as Role });
      if (member.status === 'invited') {
        // Enabling an invitation means nothing; disabling one is cancelling it, which the admin decides.
        if (wanted === 'disabled') fail('status', ResponseCode.INVALID_INPUT.code, 'An invitation not yet accepted is cancelled in Users, not disabled.');
      } else if (!decision.allowed) fail('status', refusal(decision.reason), `You may not ${wanted === 'disabled' ? 'disable' : 'enable'} this person (yourself or a super admin).`);
      else {
        await setStatus(member, wanted, row.line);
        changed = true;
      }
    }
    if (!changed && !refused) unchanged++;
  }

  if (settings.userSyncDisableMissing) {
    for (const member of [...members].sort((a, b) => a.email.localeCompare(b.email))) {
      if (member.status !== 'active' || feed.named.has(member.email)) continue;
      const decision = authorize(actor, 'user.disable', { targetUserId: member.userId, targetRole: member.role as Role });
      if (!decision.allowed) {
        errors.push({ line: null, email: member.email, field: null, code: refusal(decision.reason), message: 'Not in the feed, but you may not disable this member (yourself or a super admin).' });
        continue;
      }
      await setStatus(member, 'disabled', null);
    }
  }
  return { changes, errors, unchanged };
}

/** A run still running after this long belonged to a process that stopped. */
const STALE_RUNNING_MS = 2 * 3600_000;

/**
 * For the job's sweep: runs left running by a process that died are failed (their transaction
 * never committed, so they changed nothing) so the tenant can start again; answers the queued
 * runs nobody picked up within a minute (the job was never sent: a process without jobs, a crash
 * right after commit), for the sweep to run.
 */
export async function sweepUserSyncRuns(options: { db: Db; now?: Date }): Promise<string[]> {
  const now = options.now ?? new Date();
  await options.db
    .update(userSyncRuns)
    .set({
      status: 'failed',
      error: 'The run was interrupted (the server stopped); nothing was changed. Start it again.',
      finishedAt: now,
    })
    .where(and(eq(userSyncRuns.status, 'running'), lt(userSyncRuns.startedAt, new Date(now.getTime() - STALE_RUNNING_MS))));
  const waiting = await options.db
    .select({ id: userSyncRuns.id })
    .from(userSyncRuns)
    .where(and(eq(userSyncRuns.status, 'queued'), lt(userSyncRuns.createdAt, new Date(now.getTime() - 60_000))))
    .orderBy(asc(userSyncRuns.createdAt))
    .limit(100);
  return waiting.map((w) => w.id);
}

