import { authenticate, confirmTotpEnrolment, filteredUsers, listAdminAudit, resetUserTwoFactor, startTotpEnrolment } from '@pakt/domain';
import { eq, inArray } from 'drizzle-orm';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminAuditLog, memberships, outbox, tenants, twoFactorRecoveryCodes, users } from '../../platform/db/schema';
import { signedInMember, type SignedInMember } from '../../test/app-factories';
import { GOOD_PASSWORD, makeTenant } from '../../test/factories';
import { inject } from '../../test/inject';
import { buildTestApp, type TestApp } from '../../test/test-app';

/**
 * An administrator resets a member's two-factor sign-in (issue 22, a lost phone): the member's
 * secret and recovery codes go, the audit log says who did it, the member is mailed. Refused, the
 * database is untouched. Anonymous callers, outsiders' headers and wrong roles are walked by
 * http/guarded-endpoints.test.ts.
 */
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());
const db = () => t.database.db;

async function enrol(member: SignedInMember) {
  const start = await inject(t.app, startTotpEnrolment, { body: { password: GOOD_PASSWORD }, as: member });
  const confirm = await inject(t.app, confirmTotpEnrolment, { body: { code: await generate({ secret: start.data.secret }) }, as: member });
  expect(confirm.statusCode, confirm.body).toBe(200);
}

/** Everything a reset would touch, for the people named: to compare before and after a refusal. */
async function state(userIds: string[]): Promise<string> {
  const rows = await Promise.all([
    db().select().from(users).where(inArray(users.id, userIds)).orderBy(users.id),
    db().select().from(twoFactorRecoveryCodes).where(inArray(twoFactorRecoveryCodes.userId, userIds)).orderBy(twoFactorRecoveryCodes.id),
    db().select().from(adminAuditLog).orderBy(adminAuditLog.id),
    db().select().from(outbox).orderBy(outbox.id),
  ]);
  return JSON.stringify(rows);
}

describe('POST /msbapi/v2/users/:userId/twofactor/reset', () => {
  it('switches the member’s authenticator off, voids the codes, records it and mails the member', async () => {
    const admin = await signedInMember(t, { role: 'admin' });
    const member = await signedInMember(t, { role: 'signer', tenant: admin.tenant });
    await enrol(member);
    const listed = await inject(t.app, filteredUsers, { query: { q: member.user.email }, as: admin });
    expect(listed.data.users[0]).toMatchObject({ userId: member.user.id, twoFactorEnabled: true });

    const res = await inject(t.app, resetUserTwoFactor, { params: { userId: member.user.id }, as: admin });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.data).toMatchObject({ userId: member.user.id, twoFactorEnabled: false });

    const [row] = await db().select().from(users).where(eq(users.id, member.user.id));
    expect(row).toMatchObject({ totpSecret: null, totpPendingSecret: null, totpEnabledAt: null, totpLastStep: null });
    expect(await db().select().from(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, member.user.id))).toEqual([]);

    const audit = await inject(t.app, listAdminAudit, { query: { action: 'user_two_factor_reset' }, as: admin });
    expect(audit.data.items).toHaveLength(1);
    expect(audit.data.items[0]).toMatchObject({ targetType: 'user', targetId: member.user.id, targetLabel: member.user.email, actor: { userId: admin.user.id } });

    const mails = await db().select().from(outbox).where(eq(outbox.kind, 'two-factor-reset'));
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ recipient: member.user.email, tenantId: admin.tenant.id });
    const [tenant] = await db().select().from(tenants).where(eq(tenants.id, admin.tenant.id));
    expect(mails[0]!.body).toContain(tenant!.name);

    // The password alone signs the member in again.
    const signIn = await inject(t.app, authenticate, { body: { username: member.user.email, password: GOOD_PASSWORD } });
    expect(signIn.statusCode, signIn.body).toBe(200);
  });

  it('refuses a non-admin (403), another tenant’s admin (404), oneself, a super admin, a shared account (403) and a member without two-factor (-6), changing nothing', async () => {
    const admin = await signedInMember(t, { role: 'admin' });
    const custodian = await signedInMember(t, { role: 'custodian', tenant: admin.tenant });
    const member = await signedInMember(t, { role: 'signer', tenant: admin.tenant });
    const superAdmin = await signedInMember(t, { role: 'super_admin', tenant: admin.tenant });
    const shared = await signedInMember(t, { role: 'signer', tenant: admin.tenant });
    const plain = await signedInMember(t, { role: 'signer', tenant: admin.tenant });
    const stranger = await signedInMember(t, { role: 'admin' });
    for (const who of [admin, member, superAdmin, shared]) await enrol(who);
    // The shared account is also a member of another tenant: not this admin's to weaken.
    await db().insert(memberships).values({ tenantId: (await makeTenant(db())).id, userId: shared.user.id, role: 'signer', status: 'active' });

    const everyone = [admin, custodian, member, superAdmin, shared, plain, stranger].map((who) => who.user.id);
    const before = await state(everyone);
    const cases = [
      { as: custodian, target: member, expected: [403, -11] },
      { as: stranger, target: member, expected: [404, -1] },
      { as: admin, target: admin, expected: [403, -11] },
      { as: admin, target: superAdmin, expected: [403, -11] },
      { as: admin, target: shared, expected: [403, -11] },
      { as: admin, target: plain, expected: [400, -6] },
    ] as const;
    for (const { as, target, expected } of cases) {
      const refused = await inject(t.app, resetUserTwoFactor, { params: { userId: target.user.id }, as });
      expect([refused.statusCode, refused.code], `${as.user.email} → ${target.user.email}`).toEqual(expected);
      if (target === shared) expect(refused.json().message).toMatch(/belongs to another tenant too/);
    }
    expect(await state(everyone)).toBe(before);
  });
});
