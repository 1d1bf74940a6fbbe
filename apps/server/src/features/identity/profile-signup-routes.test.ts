import {
  accessibilities,
  authenticate,
  type ConfigType,
  DEFAULT_PASSWORD_CONFIG,
  readProfile,
  signup,
  tenantConfigByType,
  tenantConfiguration,
  TokenGrant,
  updateProfile,
  UserInfo,
  verifyEmail,
} from '@pakt/domain';
import { count, eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { memberships, oneTimeTokens, outbox, passwordConfigs, sessions, tenantSettings, tenants, users } from '../../platform/db/schema';
import { GOOD_PASSWORD, makeMember } from '../../test/factories';
import { inject } from '../../test/inject';
import { bearer, signIn } from '../../test/sign-in';
import { buildTestApp, type TestApp } from '../../test/test-app';

let t: TestApp;
afterEach(() => t.close());
const db = () => t.database.db;

describe('profile', () => {
  beforeEach(async () => {
    t = await buildTestApp();
  });

  it('reads and updates only the fields sent, and rejects bad values with -6', async () => {
    const { user } = await makeMember(db(), { user: { company: 'Acme' } });
    const grant = await signIn(t.app, user.email, GOOD_PASSWORD);
    const read = await inject(t.app, readProfile, { headers: bearer(grant) });
    expect(UserInfo.parse(read.data)).toMatchObject({ email: user.email, company: 'Acme', timeZone: null });

    const update = await inject(t.app, updateProfile, { body: { title: 'Partner', timeZone: 'Asia/Kolkata', locale: 'hi', phone: '+91 98450 12345' }, headers: bearer(grant) });
    expect(update.data).toMatchObject({ title: 'Partner', timeZone: 'Asia/Kolkata', locale: 'hi', company: 'Acme' });

    // Raw: 'xx' is no language the contract's type allows; the server must refuse it too.
    const bad = await t.app.inject({ method: 'POST', url: '/msbapi/v1/users/profile', headers: bearer(grant), payload: { timeZone: '../../etc', locale: 'xx' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().issues.map((i: { path: string }) => i.path).sort()).toEqual(['body.locale', 'body.timeZone']);
    const after = await inject(t.app, readProfile, { headers: bearer(grant) });
    expect(after.data).toMatchObject({ timeZone: 'Asia/Kolkata', locale: 'hi' });
  });
});

describe('sign-up', () => {
  const body = {
    email: 'Kiran@NewCo.test',
    firstName: 'Kiran',
    lastName: 'Shah',
    orgName: 'NewCo',
    newPassword: GOOD_PASSWORD,
    confirmPassword: GOOD_PASSWORD,
  };

  const authenticateAs = (email: string, password = GOOD_PASSWORD) => inject(t.app, authenticate, { body: { username: email, password } });
  const verificationMails = () => db().select().from(outbox).where(eq(outbox.kind, 'verify-email')).orderBy(outbox.createdAt);
  const linkToken = (body: string) => new URL(/https?:\/\/\S+/.exec(body)![0]).searchParams.get('verify')!;

  it('creates an organisation with the person as admin, usable once the mailed link confirms the address', async () => {
    t = await buildTestApp({ captureLogs: true });
    const res = await inject(t.app, signup, { body });
    expect(res.statusCode).toBe(200);
    expect(res.data).toEqual({ verificationSent: true, email: 'kiran@newco.test' });
    const [mail] = await verificationMails();
    expect(mail).toMatchObject({ recipient: 'kiran@newco.test', tenantId: null, subject: 'Confirm your email address for Pakt' });
    expect(mail!.body).toMatch(/\/thanks\?verify=pkv_/);

    // Until then, the right password answers -164 (registration pending), and no session exists.
    const early = await authenticateAs(body.email);
    expect(early.statusCode).toBe(403);
    expect(early.code).toBe(-164);
    expect(await db().select().from(sessions)).toEqual([]);
    // Signing up again changes nothing, and answers as the first time: the form never tells
    // whether an address has an account (the link goes out again, at most once a minute).
    const again = await inject(t.app, signup, { body: { ...body, orgName: 'Other' } });
    expect(again.body).toBe(res.body);
    expect(await db().select().from(tenants)).toHaveLength(1);

    const token = linkToken(mail!.body);
    const verified = await inject(t.app, verifyEmail, { body: { token } });
    expect(verified.statusCode).toBe(200);
    const grant = TokenGrant.parse(verified.data);
    expect(grant.user.tenants).toEqual([expect.objectContaining({ tenantName: 'NewCo', userRole: 'admin' })]);
    const access = await inject(t.app, accessibilities, { headers: { ...bearer(grant), 'x-tenant-id': grant.user.tenants[0]!.tenantUuid } });
    expect(access.data.role).toBe('admin');
    expect(access.data.routes).toContain('admin');
    expect(access.data.menu.map((m: { id: string }) => m.id)).toContain('admin');

    // The link works once; the password now signs in.
    expect((await inject(t.app, verifyEmail, { body: { token } })).code).toBe(-120);
    expect((await authenticateAs(body.email)).statusCode).toBe(200);
    // An address with an account: the same answer as a new sign-up, nothing created, the owner told by mail.
    expect((await inject(t.app, signup, { body: { ...body, orgName: 'Other Co' } })).body).toBe(res.body);
    expect(await db().select().from(tenants)).toHaveLength(1);
    const notices = await db().select().from(outbox).where(eq(outbox.kind, 'signup-existing'));
    expect(notices).toEqual([expect.objectContaining({ recipient: 'kiran@newco.test', tenantId: null })]);
    expect(notices[0]!.body).toContain('/forgetpassword');
    // At most one such mail an hour, so the form cannot flood the owner's mailbox.
    await inject(t.app, signup, { body: { ...body, orgName: 'Third Co' } });
    expect(await db().select().from(outbox).where(eq(outbox.kind, 'signup-existing'))).toHaveLength(1);
    // A taken organisation name is refused whoever signs up.
    expect((await inject(t.app, signup, { body })).code).toBe(-87);
    expect((await inject(t.app, signup, { body: { ...body, email: 'other@newco.test' } })).code).toBe(-87);
    expect(t.logs.join('\n')).not.toContain(token);
  });

  it('mails the link again on a sign-in attempt, at most once a minute, and a wrong password reveals nothing', async () => {
    t = await buildTestApp();
    await inject(t.app, signup, { body });
    expect((await authenticateAs(body.email, 'Wrong-password-123')).code).toBe(-16);
    expect((await authenticateAs(body.email)).code).toBe(-164);
    expect(await verificationMails()).toHaveLength(1);
    await db().update(oneTimeTokens).set({ createdAt: new Date(Date.now() - 61_000) });
    expect((await authenticateAs(body.email)).code).toBe(-164);
    const mails = await verificationMails();
    expect(mails).toHaveLength(2);
    // Either link works; the newest is as good as the first.
    const verified = await inject(t.app, verifyEmail, { body: { token: linkToken(mails[1]!.body) } });
    expect(verified.statusCode).toBe(200);
  });

  it('refuses an unknown or expired link (-120)', async () => {
    t = await buildTestApp();
    await inject(t.app, signup, { body });
    const [mail] = await verificationMails();
    expect((await inject(t.app, verifyEmail, { body: { token: 'pkv_nope' } })).code).toBe(-120);
    await db().update(oneTimeTokens).set({ expiresAt: new Date(Date.now() - 1000) });
    expect((await inject(t.app, verifyEmail, { body: { token: linkToken(mail!.body) } })).code).toBe(-120);
    const [user] = await db().select().from(users);
    expect(user!.emailVerifiedAt).toBeNull();
  });

  it('is refused when switched off, creating nothing', async () => {
    t = await buildTestApp({ env: { FEATURE_SIGNUP: 'false' } });
    const res = await inject(t.app, signup, { body });
    expect(res.statusCode).toBe(403);
    expect(res.code).toBe(-11);
    for (const table of [users, tenants, memberships]) {
      const [row] = await db().select({ n: count() }).from(table);
      expect(row!.n).toBe(0);
    }
  });
});

describe('GET /msbapi/v1/accessibilities', () => {
  it("gives a signer the signer's routes and menu, following the install's flags", async () => {
    t = await buildTestApp({ env: { FEATURE_TEAM_ROOMS: 'false' } });
    const { user, tenant } = await makeMember(db(), { role: 'signer' });
    const grant = await signIn(t.app, user.email, GOOD_PASSWORD);
    const res = await inject(t.app, accessibilities, { headers: { ...bearer(grant), 'x-tenant-id': tenant.id } });
    const data = res.data;
    expect(data.role).toBe('signer');
    expect(data.routes).not.toContain('compose');
    expect(data.routes).not.toContain('teamroom');
    expect(data.menu.map((m: { id: string }) => m.id)).toEqual(['dashboard', 'epaks', 'reports', 'features']);
  });
});

describe('GET /msbapi/v1/configuration', () => {
  it("combines the install's flags with the tenant's own settings and rules", async () => {
    t = await buildTestApp({ env: { FEATURE_PDF_COMPARE: 'false' } });
    const { user, tenant } = await makeMember(db(), { role: 'submitter' });
    await db().insert(tenantSettings).values({ tenantId: tenant.id, settings: { restrictWorkflow: true, pdfCompareEnabled: true, supportedLanguages: ['hi'] } });
    await db().insert(passwordConfigs).values({ tenantId: tenant.id, config: { ...DEFAULT_PASSWORD_CONFIG, minLength: 14 } });
    const grant = await signIn(t.app, user.email, GOOD_PASSWORD);
    const headers = { ...bearer(grant), 'x-tenant-id': tenant.id };
    const res = await inject(t.app, tenantConfiguration, { headers });
    expect(res.data).toMatchObject({
      tenantUuid: tenant.id,
      supportedLanguages: ['hi'],
      // Switched off for the install: the tenant cannot switch it back on.
      permissionSettings: { pdfCompareEnabled: false, restrictWorkflow: true },
      passwordConfig: { minLength: 14 },
      requireEmailOtp: false,
    });
    // The same settings drive what the submitter may reach.
    const access = await inject(t.app, accessibilities, { headers });
    expect(access.data.routes).not.toContain('workflows');
    expect(access.data.routes).not.toContain('compare');
    expect(access.data.routes).toContain('compose');
  });

  it('ignores stored settings that no longer validate', async () => {
    t = await buildTestApp();
    const { user, tenant } = await makeMember(db());
    await db().insert(tenantSettings).values({ tenantId: tenant.id, settings: { teamRoomsEnabled: 'maybe' } });
    const grant = await signIn(t.app, user.email, GOOD_PASSWORD);
    const res = await inject(t.app, tenantConfiguration, { headers: { ...bearer(grant), 'x-tenant-id': tenant.id } });
    expect(res.data.permissionSettings.teamRoomsEnabled).toBe(true);
  });
});

describe('GET /msbapi/v1/config', () => {
  it('answers each config type with the tenant values in force, defaults filled in', async () => {
    t = await buildTestApp({ env: { FEATURE_TEAM_ROOMS: 'false' } });
    const { user, tenant } = await makeMember(db(), { role: 'custodian' });
    await db().insert(tenantSettings).values({
      tenantId: tenant.id,
      settings: { teamRoomsEnabled: true, skipNewUsers: true, cloudDriveUploadEnabled: true, supportedLanguages: ['en'] },
    });
    const grant = await signIn(t.app, user.email, GOOD_PASSWORD);
    const headers = { ...bearer(grant), 'x-tenant-id': tenant.id };
    const get = (configType: ConfigType) => inject(t.app, tenantConfigByType, { query: { configType }, headers });
    expect((await get('FEATURE_CONFIG')).data).toEqual({
      configType: 'FEATURE_CONFIG',
      // Off for the install: the tenant's "on" does not count.
      teamRoomsEnabled: false,
      pdfCompareEnabled: true,
      featuresEnabled: true,
      restrictWorkflow: false,
      supportedLanguages: ['en'],
    });
    expect((await get('USER_INVITE_CONFIG')).data).toEqual({ configType: 'USER_INVITE_CONFIG', invitationValidityDays: 7, skipNewUsers: true });
    // Upload switched on without a registered client id cannot work, so it reads as off.
    expect((await get('ONE_DRIVE_CONFIG')).data).toEqual({ configType: 'ONE_DRIVE_CONFIG', enabled: false, clientId: null });
    // Raw: the contract's type allows no unknown config type; the server must refuse it too.
    const bad = await t.app.inject({ method: 'GET', url: '/msbapi/v1/config?configType=NO_SUCH_CONFIG', headers });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe(-6);
  });
});
