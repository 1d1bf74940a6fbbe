import { defineEndpoint } from '@pakt/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { memberships, tenants } from '../platform/db/schema';
import { GOOD_PASSWORD, makeMember, makeTenant } from '../test/factories';
import { bearer, signIn } from '../test/sign-in';
import { buildTestApp, type TestApp } from '../test/test-app';
import { route } from './route';

// A tenant endpoint of the test's own: the guard is shared by every real one.
const whoAmI = defineEndpoint({
  method: 'POST',
  path: '/msbapi/test/tenant/whoami',
  access: 'tenant',
  summary: 'test',
  body: z.object({ note: z.string().min(1) }),
  response: z.object({ tenantId: z.string(), role: z.string(), userId: z.string() }),
});

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({
    beforeReady(app, context) {
      route(app, context, whoAmI, async ({ auth }) => ({ tenantId: auth.tenant.id, role: auth.role, userId: auth.user.id }));
    },
  });
});
afterAll(() => t.close());

async function memberGrant(options: Parameters<typeof makeMember>[1] = {}) {
  const member = await makeMember(t.database.db, options);
  return { ...member, grant: await signIn(t.app, member.user.email, GOOD_PASSWORD) };
}
const call = (headers: Record<string, string>, payload: unknown = { note: 'x' }) =>
  t.app.inject({ method: 'POST', url: '/msbapi/test/tenant/whoami', headers, payload: payload as object });

describe('tenant resolution', () => {
  it('hands the handler the verified tenant and role', async () => {
    const { tenant, user, grant } = await memberGrant({ role: 'custodian' });
    const res = await call({ ...bearer(grant), 'x-tenant-id': tenant.id });
    expect(res.json()).toEqual({ code: 1, data: { tenantId: tenant.id, role: 'custodian', userId: user.id } });
  });

  it('answers 404 for a tenant the caller is not a member of, whatever its existence', async () => {
    const { grant } = await memberGrant();
    const other = await makeTenant(t.database.db);
    for (const tenantId of [other.id, '00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      const res = await call({ ...bearer(grant), 'x-tenant-id': tenantId });
      expect(res.statusCode, tenantId).toBe(404);
      expect(res.json(), tenantId).toEqual({ code: -1, data: null, message: 'Not found.' });
    }
  });

  it('answers 404 before validating the body, so outsiders learn nothing of the schema', async () => {
    const { grant } = await memberGrant();
    const other = await makeTenant(t.database.db);
    const res = await call({ ...bearer(grant), 'x-tenant-id': other.id }, { wrong: 1 });
    expect(res.statusCode).toBe(404);
  });

  it('treats an invitation not yet accepted as no membership (404)', async () => {
    const { tenant, grant } = await memberGrant();
    const tenant2 = await makeTenant(t.database.db);
    await t.database.db.insert(memberships).values({ tenantId: tenant2.id, userId: grant.user.id, role: 'admin', status: 'invited' });
    expect((await call({ ...bearer(grant), 'x-tenant-id': tenant2.id })).statusCode).toBe(404);
    expect((await call({ ...bearer(grant), 'x-tenant-id': tenant.id })).statusCode).toBe(200);
  });

  it('refuses a membership disabled in that tenant with 403 / -13', async () => {
    const { tenant, grant } = await memberGrant();
    await t.database.db.update(memberships).set({ status: 'disabled' }).where(eq(memberships.tenantId, tenant.id));
    const res = await call({ ...bearer(grant), 'x-tenant-id': tenant.id });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe(-13);
  });

  it('refuses a tenant whose trial has ended with 403 / -88', async () => {
    const { tenant, grant } = await memberGrant();
    await t.database.db.update(tenants).set({ trialEndsAt: new Date(Date.now() - 1000) }).where(eq(tenants.id, tenant.id));
    const res = await call({ ...bearer(grant), 'x-tenant-id': tenant.id });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe(-88);
  });

  it('requires the tenant header (400 / -6) and a token (401 / -5)', async () => {
    const { tenant, grant } = await memberGrant();
    const noHeader = await call(bearer(grant));
    expect(noHeader.statusCode).toBe(400);
    expect(noHeader.json().message).toBe('The X-Tenant-Id header is required.');
    const noToken = await call({ 'x-tenant-id': tenant.id });
    expect(noToken.statusCode).toBe(401);
  });

  it('answers a bearer header that cannot hold an access token -37, and an unknown well-formed token -5', async () => {
    const { tenant, grant } = await memberGrant();
    const codeFor = async (authorization: string) => {
      const res = await call({ authorization, 'x-tenant-id': tenant.id });
      expect(res.statusCode, authorization).toBe(401);
      return res.json().code;
    };
    for (const authorization of ['Bearer', 'Bearer ', 'Token abc', `Basic ${grant.accessToken}`, `Bearer ${grant.accessToken}=`, `Bearer ${grant.refreshToken}`, 'Bearer pka_short']) {
      expect(await codeFor(authorization), authorization).toBe(-37);
    }
    expect(await codeFor(`Bearer pka_${'x'.repeat(43)}`)).toBe(-5);
    expect((await call({ ...bearer(grant), 'x-tenant-id': tenant.id })).statusCode).toBe(200);
  });
});
