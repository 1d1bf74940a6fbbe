import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import {
  getUserSyncUp,
  listUserSyncUps,
  startUserSyncUp,
  type TenantSettings,
  type UserSyncRun,
  type UserSyncRunDetail,
  UserSyncRunDetail as RunDetailSchema,
} from '@pakt/domain';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseUserSyncFeed, runUserSync, userSyncFilePath } from './user-sync';
import { adminAuditLog, memberships, outbox, tenantSettings, users, userSyncRuns } from '../../platform/db/schema';
import { userSyncJob } from './user-sync-job';
import { GOOD_PASSWORD, makeMember } from '../../test/factories';
import { inject } from '../../test/inject';
import { bearer, signIn } from '../../test/sign-in';
import { buildTestApp, type TestApp } from '../../test/test-app';

/**
 * User sync-up (issue 7): a feed dropped in the tenant's folder is applied by the job as the
 * starting admin would apply it by hand. Each test works in a tenant of its own; the job's work
 * is driven directly (runUserSync), as the queue would run it after the start commits.
 */
let t: TestApp;
type Who = { headers: Record<string, string>; user: { id: string; email: string }; tenant: { id: string } };
type Role = 'admin' | 'custodian' | 'signer' | 'submitter' | 'super_admin';

const unique = () => randomUUID().slice(0, 8);

async function member(role: Role, tenant?: { id: string }, options: { email?: string; status?: 'invited' | 'active' | 'disabled'; firstName?: string } = {}): Promise<Who> {
  const made = await makeMember(t.database.db, {
    role,
    ...(tenant ? { tenant } : {}),
    ...(options.status ? { status: options.status } : {}),
    user: { email: options.email ?? `${role}-${unique()}@example.test`, ...(options.firstName ? { firstName: options.firstName } : {}) },
  });
  const headers = options.status && options.status !== 'active' ? {} : { ...bearer(await signIn(t.app, made.user.email, GOOD_PASSWORD)), 'x-tenant-id': made.tenant.id };
  return { ...made, headers };
}

async function configure(tenantId: string, settings: TenantSettings) {
  await t.database.db.insert(tenantSettings).values({ tenantId, settings }).onConflictDoUpdate({ target: tenantSettings.tenantId, set: { settings } });
}

function drop(tenantId: string, fileName: string, text: string) {
  const folder = path.join(t.context.config.userSyncDir, tenantId);
  fs.mkdirSync(folder, { recursive: true });
  fs.writeFileSync(path.join(folder, fileName), text);
}

const work = () => ({ db: t.database.db, userSyncDir: t.context.config.userSyncDir, publicUrl: t.context.config.publicUrl, installFeatures: t.context.config.features });

async function start(who: Who): Promise<UserSyncRun> {
  const res = await inject(t.app, startUserSyncUp, { as: who });
  expect(res.statusCode, res.body).toBe(200);
  return res.data;
}

async function detail(who: Who, runId: string): Promise<UserSyncRunDetail> {
  const res = await inject(t.app, getUserSyncUp, { params: { runId }, as: who });
  expect(res.statusCode, res.body).toBe(200);
  return RunDetailSchema.parse(res.data);
}

/** Starts a run, works it as the job would, and answers its report. */
async function sync(who: Who): Promise<UserSyncRunDetail> {
  const run = await start(who);
  expect(run.status).toBe('queued');
  await runUserSync({ ...work(), runId: run.runId });
  return detail(who, run.runId);
}

async function membersOf(tenantId: string) {
  const rows = await t.database.db
    .select({ email: users.email, firstName: users.firstName, lastName: users.lastName, role: memberships.role, status: memberships.status })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(memberships.tenantId, tenantId))
    .orderBy(asc(users.email));
  return Object.fromEntries(rows.map((r) => [r.email, r]));
}

const stateOf = async (tenantId: string) =>
  JSON.stringify([
    await t.database.db.select().from(memberships).where(eq(memberships.tenantId, tenantId)).orderBy(memberships.userId),
    await t.database.db.select().from(adminAuditLog).where(eq(adminAuditLog.tenantId, tenantId)).orderBy(adminAuditLog.id),
    await t.database.db.select().from(userSyncRuns).where(eq(userSyncRuns.tenantId, tenantId)).orderBy(userSyncRuns.id),
  ]);

beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

describe('a CSV feed', () => {
  it('invites, changes roles, enables and disables exactly as the feed says, refusing and reporting the rest', async () => {
    const A = await member('admin');
    const tenant = A.tenant;
    const Sig = await member('signer', tenant, { firstName: 'Sam' });
    const Sub = await member('submitter', tenant);
    const Cus = await member('custodian', tenant);
    const Dis = await member('signer', tenant, { status: 'disabled' });
    const Super = await member('super_admin', tenant);
    const Inv = await member('signer', tenant, { status: 'invited' });
    const Keep = await member('signer', tenant);
    const known = await makeMember(t.database.db, { role: 'signer', user: { email: `known-${unique()}@example.test`, firstName: 'Kim', lastName: 'Known' } });
    await configure(tenant.id, { userSyncFileName: 'people.csv', userSyncDefaultRole: 'submitter' });
    const n = unique();
    drop(
      tenant.id,
      'people.csv',
      [
        'email,firstName,lastName,role,status',
        `new1-${n}@example.test,Nina,One,custodian,`,
        `NEW2-${n}@example.test,Noah,Two,,`,
        `${Sig.user.email},Other,Name,submitter,`,
        `${Cus.user.email},,,custodian,enabled`,
        `${Dis.user.email},,,,enabled`,
        `${Sub.user.email},,,,disabled`,
        `${Super.user.email},,,signer,`,
        `${A.user.email},,,signer,disabled`,
        'not-an-address,A,B,signer,',
        `new3-${n}@example.test,,Three,,`,
        `new4-${n}@example.test,Four,,,`,
        `new5-${n}@example.test,Five,Five,boss,`,
        `new6-${n}@example.test,Six,Six,,gone`,
        `new1-${n}@example.test,Nina,Again,,`,
        `${Inv.user.email},,,,disabled`,
        `${known.user.email},,,,`,
        `new7-${n}@example.test,Seven,Seven,signer,disabled`,
        'one,field,too,many,,',
      ].join('\r\n') + '\r\n',
    );

    const run = await sync(A);
    expect(run.status).toBe('succeeded');
    expect(run.error).toBeNull();
    expect(run.startedBy?.userId).toBe(A.user.id);
    expect(run.report!.changes).toEqual([
      { email: `new1-${n}@example.test`, kind: 'invited', from: null, to: 'custodian', line: 2 },
      { email: `new2-${n}@example.test`, kind: 'invited', from: null, to: 'submitter', line: 3 },
      { email: Sig.user.email, kind: 'roleChanged', from: 'signer', to: 'submitter', line: 4 },
      { email: Dis.user.email, kind: 'enabled', from: 'disabled', to: 'active', line: 6 },
      { email: Sub.user.email, kind: 'disabled', from: 'active', to: 'disabled', line: 7 },
      { email: known.user.email, kind: 'invited', from: null, to: 'submitter', line: 17 },
    ]);
    expect(run.report!.errors.map((e) => [e.line, e.field, e.code])).toEqual([
      [8, 'role', -11],
      [9, 'role', -11],
      [9, 'status', -11],
      [10, 'email', -1],
      [11, 'firstName', -2],
      [12, 'lastName', -3],
      [13, 'role', -6],
      [14, 'status', -6],
      [15, 'email', -6],
      [16, 'status', -6],
      [19, null, -175],
    ]);
    expect(run.report!.errors.find((e) => e.line === 15)?.message).toBe('Already on line 2.');
    expect(run.counts).toEqual({ rows: 18, invited: 3, roleChanged: 1, enabled: 1, disabled: 1, unchanged: 2, errors: 11 });

    const now = await membersOf(tenant.id);
    expect(now[`new1-${n}@example.test`]).toMatchObject({ role: 'custodian', status: 'invited', firstName: 'Nina', lastName: 'One' });
    expect(now[`new2-${n}@example.test`]).toMatchObject({ role: 'submitter', status: 'invited' });
    // An account spans tenants: the feed never renames it.
    expect(now[Sig.user.email]).toMatchObject({ role: 'submitter', status: 'active', firstName: 'Sam', lastName: 'Rao' });
    expect(now[known.user.email]).toMatchObject({ role: 'submitter', status: 'invited', firstName: 'Kim', lastName: 'Known' });
    expect(now[Dis.user.email]!.status).toBe('active');
    expect(now[Sub.user.email]!.status).toBe('disabled');
    expect(now[Super.user.email]).toMatchObject({ role: 'super_admin', status: 'active' });
    expect(now[A.user.email]).toMatchObject({ role: 'admin', status: 'active' });
    expect(now[Inv.user.email]!.status).toBe('invited');
    // Left out of the feed, with disableMissing off: left alone.
    expect(now[Keep.user.email]!.status).toBe('active');
    expect(now[`new7-${n}@example.test`]).toBeUndefined();

    const mail = await t.database.db.select().from(outbox).where(and(eq(outbox.tenantId, tenant.id), eq(outbox.kind, 'invitation')));
    expect(mail.map((m) => m.recipient).sort()).toEqual([known.user.email, `new1-${n}@example.test`, `new2-${n}@example.test`].sort());

    const log = await t.database.db.select().from(adminAuditLog).where(eq(adminAuditLog.tenantId, tenant.id)).orderBy(asc(adminAuditLog.createdAt));
    expect(log.map((e) => [e.action, e.targetLabel])).toEqual([
      ['user_sync', 'people.csv'],
      ['admin_invite', `new1-${n}@example.test`],
      ['admin_invite', `new2-${n}@example.test`],
      ['user_role_changed', Sig.user.email],
      ['user_enabled', Dis.user.email],
      ['user_disabled', Sub.user.email],
      ['admin_invite', known.user.email],
      ['user_sync', 'people.csv'],
    ]);
    expect(log.every((e) => e.actorId === A.user.id)).toBe(true);
    expect(log[0]!.details).toMatchObject({ event: 'started', runId: run.runId });
    expect(log[3]!.details).toMatchObject({ from: 'signer', to: 'submitter', via: 'user_sync', runId: run.runId });
    expect(log[7]!.details).toMatchObject({ event: 'succeeded', counts: run.counts });

    // The same feed again changes nothing more: what was done now reads as unchanged or refused.
    const again = await sync(A);
    expect(again.report!.changes).toEqual([]);
    expect(again.counts).toMatchObject({ invited: 0, roleChanged: 0, enabled: 0, disabled: 0 });
  });
});

describe('a JSON feed with disableMissing', () => {
  it('disables active members the feed leaves out, but never the starter or a super admin, and leaves invitations alone', async () => {
    const A = await member('admin');
    const tenant = A.tenant;
    const Stay = await member('custodian', tenant);
    const Gone = await member('signer', tenant);
    const Super = await member('super_admin', tenant);
    const Inv = await member('signer', tenant, { status: 'invited' });
    const Bad = await member('signer', tenant);
    await configure(tenant.id, { userSyncFileName: 'directory.json', userSyncDisableMissing: true });
    const n = unique();
    drop(
      tenant.id,
      'directory.json',
      JSON.stringify({
        exportedAt: '2025-01-01',
        users: [
          { email: Stay.user.email, role: 'custodian', department: 'Legal' },
          { email: `fresh-${n}@example.test`, firstName: 'Fay', lastName: 'Fresh' },
          { email: Bad.user.email, role: 42 },
          'nobody',
        ],
      }),
    );

    const run = await sync(A);
    expect(run.status).toBe('succeeded');
    expect(run.report!.changes).toEqual([
      { email: `fresh-${n}@example.test`, kind: 'invited', from: null, to: 'signer', line: 2 },
      { email: Gone.user.email, kind: 'disabled', from: 'active', to: 'disabled', line: null },
    ]);
    expect(run.report!.errors.map((e) => [e.line, e.email, e.field, e.code])).toEqual([
      [3, Bad.user.email, 'role', -6],
      [4, null, null, -6],
      [null, A.user.email, null, -11],
      [null, Super.user.email, null, -11],
    ]);
    const now = await membersOf(tenant.id);
    expect(now[Stay.user.email]!.status).toBe('active');
    expect(now[Gone.user.email]!.status).toBe('disabled');
    // Named by a bad row is still named: not "missing".
    expect(now[Bad.user.email]!.status).toBe('active');
    expect(now[Super.user.email]!.status).toBe('active');
    expect(now[A.user.email]!.status).toBe('active');
    expect(now[Inv.user.email]!.status).toBe('invited');
    expect(run.counts).toEqual({ rows: 4, invited: 1, roleChanged: 0, enabled: 0, disabled: 1, unchanged: 1, errors: 4 });
  });

  it('with disableMissing off, leaves out nobody', async () => {
    const A = await member('admin');
    const Other = await member('signer', A.tenant);
    await configure(A.tenant.id, { userSyncFileName: 'people.json' });
    drop(A.tenant.id, 'people.json', JSON.stringify([{ email: A.user.email }]));
    const run = await sync(A);
    expect(run.counts).toEqual({ rows: 1, invited: 0, roleChanged: 0, enabled: 0, disabled: 0, unchanged: 1, errors: 0 });
    expect((await membersOf(A.tenant.id))[Other.user.email]!.status).toBe('active');
  });
});

describe('a bad feed', () => {
  it.each([
    ['people.csv', '', -182, 'empty'],
    ['people.csv', 'email,firstName\r\n', -182, 'nobody'],
    ['people.csv', 'firstName,lastName\r\nA,B\r\n', -181, 'email'],
    ['people.csv', 'email,phone\r\na@example.test,1\r\n', -175, 'phone'],
    ['people.csv', 'email,email\r\na@example.test,b@example.test\r\n', -175, 'email'],
    ['people.json', '[{"email": ', -136, 'not valid JSON'],
    ['people.json', '{"people": []}', -136, '"users"'],
    ['people.json', '[]', -182, 'nobody'],
  ])('%s %j fails the run with %i and changes nothing', async (fileName, text, code, words) => {
    const A = await member('admin');
    const Sig = await member('signer', A.tenant);
    await configure(A.tenant.id, { userSyncFileName: fileName, userSyncDisableMissing: true });
    drop(A.tenant.id, fileName, text);
    const before = await membersOf(A.tenant.id);
    const run = await sync(A);
    expect(run.status).toBe('failed');
    expect(run.error).toContain(words);
    expect(run.counts).toBeNull();
    expect(run.report).toEqual({ changes: [], errors: [{ line: null, email: null, field: null, code, message: run.error }] });
    expect(await membersOf(A.tenant.id)).toEqual(before);
    expect(before[Sig.user.email]!.status).toBe('active');
    const log = await t.database.db.select().from(adminAuditLog).where(eq(adminAuditLog.tenantId, A.tenant.id)).orderBy(asc(adminAuditLog.createdAt));
    expect(log.map((e) => (e.details as { event: string }).event)).toEqual(['started', 'failed']);
  });

  it('a missing file fails the run saying where to put it', async () => {
    const A = await member('admin');
    await configure(A.tenant.id, { userSyncFileName: 'absent.csv' });
    const run = await sync(A);
    expect(run).toMatchObject({ status: 'failed', report: { errors: [{ code: -6 }] } });
    expect(run.error).toContain(`${A.tenant.id}/absent.csv`);
  });

  it('reads no file outside the tenant folder', async () => {
    const dir = t.context.config.userSyncDir;
    const tenantId = randomUUID();
    expect(userSyncFilePath({ userSyncDir: dir, tenantId, fileName: 'people.csv' })).toBe(path.join(dir, tenantId, 'people.csv'));
    for (const fileName of ['../people.csv', '../../secrets.json', '/etc/passwd.csv', 'a/../../b.csv', '..', '']) {
      expect(() => userSyncFilePath({ userSyncDir: dir, tenantId, fileName })).toThrow(/plain file name/);
    }
  });

  it('a stored file name with a folder in it is no feed at all (-6), and nothing is queued', async () => {
    const A = await member('admin');
    await t.database.db.insert(tenantSettings).values({ tenantId: A.tenant.id, settings: { userSyncFileName: '../other/people.csv' } });
    const before = await stateOf(A.tenant.id);
    const res = await inject(t.app, startUserSyncUp, { as: A });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: -6, message: expect.stringContaining('Settings') });
    expect(await stateOf(A.tenant.id)).toBe(before);
  });

  it('counts lines of the file, quoted line breaks and blank lines included', () => {
    const feed = parseUserSyncFeed({ fileName: 'f.csv', text: 'email,firstName\n\n"x@example.test","A\nB"\nbad,C\n' });
    expect(feed.errors).toEqual([{ line: 5, email: 'bad', field: 'email', code: -1, message: 'Not an e-mail address.' }]);
    expect(feed.rows.map((r) => r.line)).toEqual([3]);
  });

  it('counts a CRLF inside a quoted field as one line (csv-parse counts two)', () => {
    const feed = parseUserSyncFeed({ fileName: 'f.csv', text: 'email,firstName\r\n"x@example.test","A\r\nB"\r\nbad,C\r\n' });
    expect(feed.errors).toEqual([{ line: 4, email: 'bad', field: 'email', code: -1, message: 'Not an e-mail address.' }]);
    expect(feed.rows.map((r) => r.line)).toEqual([2]);
  });
});

describe('runs', () => {
  it('one at a time per tenant: a start while one is queued or running answers that run', async () => {
    const A = await member('admin');
    const A2 = await member('admin', A.tenant);
    await configure(A.tenant.id, { userSyncFileName: 'people.csv' });
    drop(A.tenant.id, 'people.csv', `email\r\n${A.user.email}\r\n`);
    const [first, second] = await Promise.all([start(A), start(A2)]);
    expect(second.runId).toBe(first.runId);
    expect((await start(A)).runId).toBe(first.runId);
    const starts = await t.database.db.select().from(adminAuditLog).where(and(eq(adminAuditLog.tenantId, A.tenant.id), eq(adminAuditLog.action, 'user_sync')));
    expect(starts).toHaveLength(1);
    await t.database.db.update(userSyncRuns).set({ status: 'running' }).where(eq(userSyncRuns.id, first.runId));
    expect((await start(A2)).runId).toBe(first.runId);
    // A run already claimed is not worked twice.
    expect(await runUserSync({ ...work(), runId: first.runId })).toBeNull();
    await t.database.db.update(userSyncRuns).set({ status: 'queued' }).where(eq(userSyncRuns.id, first.runId));
    expect(await runUserSync({ ...work(), runId: first.runId })).toEqual({ status: 'succeeded', invited: 0 });
    const next = await start(A);
    expect(next.runId).not.toBe(first.runId);

    const list = await inject(t.app, listUserSyncUps, { as: A });
    expect(list.statusCode).toBe(200);
    const data = list.data;
    expect(data.runs.map((r) => [r.runId, r.status])).toEqual([
      [next.runId, 'queued'],
      [first.runId, 'succeeded'],
    ]);
    expect(data.source).toMatchObject({ fileName: 'people.csv', folder: A.tenant.id, disableMissing: false, defaultRole: 'signer', file: { present: true, size: expect.any(Number) } });
  });

  it('the job works a sent run, and its sweep picks up a run never sent and fails one a stopped process left', async () => {
    const A = await member('admin');
    await configure(A.tenant.id, { userSyncFileName: 'people.csv' });
    drop(A.tenant.id, 'people.csv', `email,firstName,lastName\r\njob-${unique()}@example.test,Jo,Job\r\n`);
    let nudges = 0;
    const job = userSyncJob({ config: t.context.config, database: t.database, nudgeMailDelivery: () => nudges++ });
    const sent = await start(A);
    await job.run({ runId: sent.runId }, { jobId: 'j1', signal: new AbortController().signal });
    expect((await detail(A, sent.runId)).counts).toMatchObject({ invited: 1 });
    expect(nudges).toBe(1);

    const stale = await start(A);
    await t.database.db.update(userSyncRuns).set({ status: 'running', startedAt: new Date(Date.now() - 3 * 3600_000) }).where(eq(userSyncRuns.id, stale.runId));
    await job.run({}, { jobId: 'j2', signal: new AbortController().signal });
    expect(await detail(A, stale.runId)).toMatchObject({ status: 'failed', error: expect.stringContaining('interrupted') });

    const waiting = await start(A);
    await t.database.db.update(userSyncRuns).set({ createdAt: new Date(Date.now() - 5 * 60_000) }).where(eq(userSyncRuns.id, waiting.runId));
    await job.run({}, { jobId: 'j3', signal: new AbortController().signal });
    expect((await detail(A, waiting.runId)).status).toBe('succeeded');
  });

  it('fails, changing nothing, when the starter may no longer sync', async () => {
    const A = await member('admin');
    const Sig = await member('signer', A.tenant);
    await configure(A.tenant.id, { userSyncFileName: 'people.csv' });
    drop(A.tenant.id, 'people.csv', `email,role\r\n${Sig.user.email},custodian\r\n`);
    const run = await start(A);
    await t.database.db.update(memberships).set({ role: 'custodian' }).where(and(eq(memberships.tenantId, A.tenant.id), eq(memberships.userId, A.user.id)));
    await runUserSync({ ...work(), runId: run.runId });
    const [row] = await t.database.db.select().from(userSyncRuns).where(eq(userSyncRuns.id, run.runId));
    expect(row).toMatchObject({ status: 'failed', report: { errors: [{ code: -11 }] } });
    expect((await membersOf(A.tenant.id))[Sig.user.email]!.role).toBe('signer');
  });
});

describe('access', () => {
  it('another tenant’s admin reads none of its runs (404) and changes nothing', async () => {
    const A = await member('admin');
    const B = await member('admin');
    await configure(A.tenant.id, { userSyncFileName: 'people.csv' });
    const run = await start(A);
    const before = await stateOf(A.tenant.id);
    const res = await inject(t.app, getUserSyncUp, { params: { runId: run.runId }, as: B });
    expect(res.statusCode).toBe(404);
    const list = await inject(t.app, listUserSyncUps, { as: B });
    expect(list.data.runs).toEqual([]);
    expect(await stateOf(A.tenant.id)).toBe(before);
    expect((await inject(t.app, getUserSyncUp, { params: { runId: randomUUID() }, as: A })).statusCode).toBe(404);
  });

  it('with the setting off every call is 403 and nothing is queued', async () => {
    const A = await member('admin');
    await configure(A.tenant.id, { userSyncFileName: 'people.csv', showUserSyncUp: false });
    const before = await stateOf(A.tenant.id);
    for (const [url, call] of [
      [startUserSyncUp.path, () => inject(t.app, startUserSyncUp, { as: A })],
      [listUserSyncUps.path, () => inject(t.app, listUserSyncUps, { as: A })],
      [getUserSyncUp.path, () => inject(t.app, getUserSyncUp, { params: { runId: randomUUID() }, as: A })],
    ] as const) {
      const res = await call();
      expect(res.statusCode, url).toBe(403);
      expect(res.code).toBe(-11);
    }
    expect(await stateOf(A.tenant.id)).toBe(before);
  });

  it('without a feed configured, start answers -6 naming Settings; the source says so', async () => {
    const A = await member('admin');
    const res = await inject(t.app, startUserSyncUp, { as: A });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: -6, message: expect.stringContaining('super admin') });
    const list = await inject(t.app, listUserSyncUps, { as: A });
    expect(list.data).toEqual({
      source: { fileName: null, folder: A.tenant.id, disableMissing: false, defaultRole: 'signer', file: { present: false, size: null, modifiedOn: null } },
      runs: [],
    });
  });
});
