import {
  accessibilities,
  createEpak,
  DEFAULT_PASSWORD_CONFIG,
  type Endpoint,
  type EndpointInput,
  EpakDetail,
  getTenantSettings,
  listAdminAudit,
  listWorkflowStates,
  passwordConfiguration,
  startEpak,
  tenantConfiguration,
  TenantSettingsView,
  updateTenantSettings,
} from '@pakt/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminAuditLog, epaks, passwordConfigs, tenants, tenantSettings } from '../../platform/db/schema';
import { GOOD_PASSWORD, makeMember } from '../../test/factories';
import { inject } from '../../test/inject';
import { bearer, signIn } from '../../test/sign-in';
import { buildTestApp, type TestApp } from '../../test/test-app';
import { signedInMember, uploadedDocument } from '../../test/app-factories';

/**
 * /settings (issue 7): a super admin reads and changes the tenant's settings; each change applies
 * at the next request of everyone in the tenant, is recorded in the audit log, and a change that
 * breaks a rule saves nothing. (Anonymous callers, outsiders and wrong roles are walked for every
 * endpoint by http/guarded-endpoints.test.ts.)
 */
let t: TestApp;
type Who = { headers: Record<string, string>; user: { id: string; email: string }; tenant: { id: string } };
type Role = 'super_admin' | 'admin' | 'custodian' | 'signer';

const member = (role: Role, tenant?: { id: string }) => signedInMember(t, { role, ...(tenant ? { tenant } : {}) });

async function ok<E extends Endpoint>(endpoint: E, who: Who, input: EndpointInput<E> = {} as EndpointInput<E>) {
  const res = await inject(t.app, endpoint, { ...input, as: who });
  expect(res.statusCode, `${endpoint.method} ${endpoint.path}: ${res.body}`).toBe(200);
  return res.data;
}

type SettingsChange = EndpointInput<typeof updateTenantSettings>['body'];
const save = async (who: Who, body: SettingsChange) => TenantSettingsView.parse(await ok(updateTenantSettings, who, { body }));

/** Every row that settings touch: "unchanged" means all of them the same. */
async function state(): Promise<string> {
  const rows = await Promise.all([
    t.database.db.select().from(tenantSettings).orderBy(tenantSettings.tenantId),
    t.database.db.select().from(passwordConfigs).orderBy(passwordConfigs.tenantId),
    t.database.db.select().from(adminAuditLog).orderBy(adminAuditLog.id),
    t.database.db.select().from(tenants).orderBy(tenants.id),
  ]);
  return JSON.stringify(rows);
}

let Super: Who, Admin: Who, Signer: Who, OtherSuper: Who;
beforeAll(async () => {
  t = await buildTestApp();
  Super = await member('super_admin');
  Admin = await member('admin', Super.tenant);
  Signer = await member('signer', Super.tenant);
  OtherSuper = await member('super_admin');
});
afterAll(() => t.close());

const menuOf = async (who: Who) => (await ok(accessibilities, who)).menu.map((item) => item.id);

describe('the settings screen', () => {
  it('starts from the defaults, with what the install allows', async () => {
    const view = TenantSettingsView.parse(await ok(getTenantSettings, Super));
    expect(view.stored).toEqual({});
    expect(view.updatedOn).toBeNull();
    expect(view.install).toEqual({ teamRooms: true, pdfCompare: true, features: true, supportedLanguages: ['en', 'hi'] });
    expect(view.inForce).toMatchObject({
      teamRoomsEnabled: true,
      restrictWorkflow: false,
      supportedLanguages: ['en', 'hi'],
      invitationValidityDays: 7,
      viewEnforceOption: 'ShowWithDefaultOff',
      geolocationType: 'OFF',
      verificationMode: 'OFF',
      authMechanisms: ['MSBAUTH'],
      ePakExpiryDays: null,
      userSyncFileName: null,
      userSyncDefaultRole: 'signer',
      singleSession: false,
      bindSessionToAddress: false,
    });
    expect(view.passwordConfig.minLength).toBeGreaterThanOrEqual(8);
  });

  it('saves the session options (one session per person, sessions tied to their address) and applies them at the next sign-in', async () => {
    const Own = await member('super_admin');
    const person = await makeMember(t.database.db, { tenant: Own.tenant });
    const before = await signIn(t.app, person.user.email, GOOD_PASSWORD);
    const view = await save(Own, { settings: { singleSession: true, bindSessionToAddress: true } });
    expect(view.stored).toMatchObject({ singleSession: true, bindSessionToAddress: true });
    expect(view.inForce).toMatchObject({ singleSession: true, bindSessionToAddress: true });
    // Sessions already open are left as they are until the person signs in again.
    // Raw: the typed helper cannot set the client's address, which the session is tied to.
    const valid = (grant: { accessToken: string }, remoteAddress = '127.0.0.1') =>
      t.app.inject({ method: 'GET', url: '/msbapi/v1/users/valid', headers: bearer(grant), remoteAddress });
    expect((await valid(before, '203.0.113.9')).statusCode).toBe(200);
    const after = await signIn(t.app, person.user.email, GOOD_PASSWORD);
    expect((await valid(before)).json().code).toBe(-32);
    expect((await valid(after, '203.0.113.9')).json().code).toBe(-26);
    expect((await valid(after)).statusCode).toBe(200);
    const back = await save(Own, { settings: { singleSession: null, bindSessionToAddress: false } });
    expect(back.inForce).toMatchObject({ singleSession: false, bindSessionToAddress: false });
  });

  it('switches team rooms off for everyone in the tenant at their next request, and records who did it', async () => {
    expect(await menuOf(Signer)).toContain('teamroom');
    expect(await menuOf(Admin)).toContain('teamroom');
    const view = await save(Super, { settings: { teamRoomsEnabled: false, restrictWorkflow: true } });
    expect(view.stored).toEqual({ teamRoomsEnabled: false, restrictWorkflow: true });
    expect(view.inForce.teamRoomsEnabled).toBe(false);
    expect(view.updatedOn).not.toBeNull();
    expect(await menuOf(Signer)).not.toContain('teamroom');
    expect(await menuOf(Admin)).not.toContain('teamroom');
    // The other tenant is untouched.
    expect(await menuOf(await member('signer', OtherSuper.tenant))).toContain('teamroom');

    const audit = (await ok(listAdminAudit, Admin, { query: { action: 'settings_changed' } })).items;
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      actor: { userId: Super.user.id },
      targetType: 'settings',
      details: { settings: { teamRoomsEnabled: { from: null, to: false }, restrictWorkflow: { from: null, to: true } } },
    });

    // null puts a setting back to its default; saving the same values again records nothing.
    const back = await save(Super, { settings: { teamRoomsEnabled: null } });
    expect(back.stored).toEqual({ restrictWorkflow: true });
    expect(back.inForce.teamRoomsEnabled).toBe(true);
    await save(Super, { settings: { restrictWorkflow: true } });
    expect((await ok(listAdminAudit, Admin, { query: { action: 'settings_changed' } })).items).toHaveLength(2);
    expect(await menuOf(Signer)).toContain('teamroom');
  });

  it('refuses what breaks a rule with -6 naming each setting, and saves nothing', async () => {
    const before = await state();
    const cases: [unknown, string[]][] = [
      [{ settings: { invitationValidityDays: 0 } }, ['body.settings.invitationValidityDays']],
      [{ settings: { teleportEnabled: true } }, ['body.settings']],
      [{ settings: { geolocationType: 'SOMETIMES' } }, ['body.settings.geolocationType']],
      [{ settings: { userSyncFileName: '../../etc/passwd.csv' } }, ['body.settings.userSyncFileName']],
      [{}, ['body']],
      [{ settings: { supportedLanguages: ['en', 'fr'] } }, ['body.settings.supportedLanguages.1']],
      [{ passwordConfig: { minLength: 4 } }, ['body.passwordConfig.minLength']],
    ];
    for (const [payload, paths] of cases) {
      // Raw: bodies the contract's types refuse, to show the server's own validation.
      const res = await t.app.inject({ method: 'PUT', url: '/msbapi/v2/settings', headers: Super.headers, payload: payload as Record<string, unknown> });
      expect([res.statusCode, res.json().code], res.body).toEqual([400, -6]);
      for (const p of paths) expect(res.json().issues.map((i: { path: string }) => i.path), res.body).toContainEqual(expect.stringContaining(p));
    }
    // Rules across settings, checked by the server after the schema.
    const ruleCases: [SettingsChange, string][] = [
      [{ settings: { cloudDriveUploadEnabled: true } }, 'settings.cloudDriveClientId'],
      [{ settings: { authMechanisms: ['OTP'] } }, 'settings.authMechanisms'],
      [{ settings: { authMechanisms: ['MSBAUTH', 'SSO'] } }, 'settings.authMechanisms'],
      [{ settings: { disabledDocumentFormats: ['pdf'] } }, 'settings.disabledDocumentFormats'],
      [{ settings: { recipientDomains: ['example.com', 'example.com'] } }, 'settings.recipientDomains'],
      // One good and one bad change: neither is saved.
      [{ settings: { skipNewUsers: true, cloudDriveUploadEnabled: true } }, 'settings.cloudDriveClientId'],
    ];
    for (const [body, p] of ruleCases) {
      const res = await inject(t.app, updateTenantSettings, { body, as: Super });
      expect([res.statusCode, res.code], res.body).toEqual([400, -6]);
      expect(res.json().issues, res.body).toContainEqual(expect.objectContaining({ path: p, message: expect.any(String) }));
    }
    expect(await state()).toBe(before);
  });

  it('refuses features the install has switched off', async () => {
    const off = await buildTestApp({ env: { FEATURE_TEAM_ROOMS: 'false' } });
    try {
      const made = await makeMember(off.database.db, { role: 'super_admin' });
      const headers = { ...bearer(await signIn(off.app, made.user.email, GOOD_PASSWORD)), 'x-tenant-id': made.tenant.id };
      const res = await inject(off.app, updateTenantSettings, { body: { settings: { teamRoomsEnabled: true } }, headers });
      expect([res.statusCode, res.code], res.body).toEqual([400, -6]);
      expect(res.json().issues).toEqual([expect.objectContaining({ path: 'settings.teamRoomsEnabled' })]);
      // Switching it off is always allowed (and is already the case).
      const view = await inject(off.app, updateTenantSettings, { body: { settings: { teamRoomsEnabled: false } }, headers });
      expect(view.statusCode, view.body).toBe(200);
      expect(view.data.inForce.teamRoomsEnabled).toBe(false);
    } finally {
      await off.close();
    }
  });

  it('keeps the sign-in code rule and the password rules in step, and applies them at once', async () => {
    await save(Super, { settings: { authMechanisms: ['MSBAUTH', 'OTP'] } });
    const [row] = await t.database.db.select().from(tenants).where(eq(tenants.id, Super.tenant.id));
    expect(row!.requireEmailOtp).toBe(true);
    expect((await ok(tenantConfiguration, Signer)).requireEmailOtp).toBe(true);
    await save(Super, { settings: { authMechanisms: null } });
    expect((await ok(tenantConfiguration, Signer)).requireEmailOtp).toBe(false);

    const rules = { minLength: 14, requireUppercase: true, requireLowercase: true, requireDigit: true, requireSpecial: true, historyCount: 5, expiryDays: 90, maxFailedAttempts: 4, lockoutMinutes: 30 };
    const view = await save(Super, { passwordConfig: rules });
    expect(view.passwordConfig).toEqual(rules);
    const published = await inject(t.app, passwordConfiguration, { params: { tenantUuid: Super.tenant.id } });
    expect(published.data).toMatchObject({ minLength: 14, requireSpecial: true });
    const audit = (await ok(listAdminAudit, Admin, { query: { action: 'settings_changed' } })).items;
    expect(audit[0]!.details).toMatchObject({ passwordConfig: { minLength: { to: 14 } } });
    // Password expiry applies to the members made by the factories too: back to the defaults.
    await save(Super, { passwordConfig: DEFAULT_PASSWORD_CONFIG });
  });

  it("gives an ePak sent without an expiry or archival period the tenant's expiry days and retention period", async () => {
    await save(Super, { settings: { ePakExpiryDays: 10, ePakRetentionDays: 365 } });
    const owner = await member('custodian', Super.tenant);
    const document = await uploadedDocument(t, { owner, file: 'mixed-sizes-openoffice.pdf' });
    const states = (await ok(listWorkflowStates, owner)).states;
    const review = states.find((s) => s.type === 'REVIEW')!.workflowStateId;
    const draft = EpakDetail.parse(
      await ok(createEpak, owner, { body: { subject: 'Lease', documentIds: [document.documentId], steps: [{ workflowStateId: review, recipients: [{ email: Signer.user.email }] }] } }),
    );
    expect(draft.expiresOn).toBeNull();
    const started = EpakDetail.parse(await ok(startEpak, owner, { params: { ePakId: draft.ePakId } }));
    const days = (Date.parse(started.expiresOn!) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(9.99);
    expect(days).toBeLessThanOrEqual(10);
    const [row] = await t.database.db.select().from(epaks).where(eq(epaks.id, draft.ePakId));
    expect(row!.archivalPeriodDays).toBe(365);
  });

  it("is another tenant's business: a super admin elsewhere gets 404 and changes nothing", async () => {
    const before = await state();
    const asSuperTenant = { as: OtherSuper, headers: { 'x-tenant-id': Super.tenant.id } };
    for (const res of [
      await inject(t.app, getTenantSettings, asSuperTenant),
      await inject(t.app, updateTenantSettings, { ...asSuperTenant, body: { settings: { teamRoomsEnabled: false } } }),
    ]) {
      expect([res.statusCode, res.code], res.body).toEqual([404, -1]);
    }
    expect(await state()).toBe(before);
  });
});
