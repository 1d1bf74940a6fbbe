import { ALL_ENDPOINTS, can, type Endpoint, ROLES, type Role } from '@pakt/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GOOD_PASSWORD, makeMember, makeRoot, makeTenant } from '../test/factories';
import { bearer, signIn } from '../test/sign-in';
import { buildTestApp, type TestApp } from '../test/test-app';

/**
 * Walks the whole contract, so every guarded endpoint added later is held to the same rules
 * without anyone remembering to write its test: outsiders get 404, wrong roles 403, anonymous
 * callers 401, and none of them changes a single row.
 */
let t: TestApp;
const served: string[] = [];
beforeAll(async () => {
  t = await buildTestApp({
    beforeRoutes(app) {
      app.addHook('onRoute', (r) => {
        const methods = Array.isArray(r.method) ? r.method : [r.method];
        for (const m of methods) if (r.url.startsWith('/msbapi/')) served.push(`${m} ${r.url}`);
      });
    },
  });
});
afterAll(() => t.close());

let tables: string[] | undefined;

/**
 * Every row of every table of ours, so "unchanged" means unchanged, not "same count": each table's
 * rows as text, in order, digested by PostgreSQL (one query, nothing but digests on the wire).
 */
async function snapshot(): Promise<string> {
  tables ??= (
    (await t.database.executeSql(`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`, []))
      .rows as { table_name: string }[]
  ).map((row) => row.table_name);
  // Sign-in itself touches last_login_at and sessions; those are set before the snapshot.
  const digests = tables.map((table) => `select '${table}' as name, count(*) as rows, md5(coalesce(string_agg(r::text, '|' order by r::text), '')) as digest from "${table}" r`);
  const { rows } = await t.database.executeSql(`select * from (${digests.join(' union all ')}) tables order by name`, []);
  return JSON.stringify(rows);
}

function urlOf(endpoint: Endpoint): string {
  return endpoint.path.replace(/:([A-Za-z]+)/g, () => '00000000-0000-4000-8000-000000000000');
}

function request(endpoint: Endpoint, headers: Record<string, string>) {
  return t.app.inject({
    method: endpoint.method,
    url: urlOf(endpoint),
    headers,
    ...(endpoint.method === 'GET' ? {} : { payload: {} }),
  });
}

/**
 * The callers, each made and signed in once: a refused call changes nothing (which every case
 * asserts), so the next case meets the same caller in the same state, and the walk does not pay
 * a password hash per case.
 */
const callers = new Map<string, Promise<{ headers: Record<string, string> }>>();
function callerFor(key: string, make: () => Promise<{ headers: Record<string, string> }>) {
  if (!callers.has(key)) callers.set(key, make());
  return callers.get(key)!;
}
const memberOf = (role: Role) =>
  callerFor(role, async () => {
    const member = await makeMember(t.database.db, { role });
    const grant = await signIn(t.app, member.user.email, GOOD_PASSWORD);
    return { headers: { ...bearer(grant), 'x-tenant-id': member.tenant.id } };
  });
const outsider = () =>
  callerFor('outsider', async () => {
    const home = await makeMember(t.database.db, { role: 'admin' });
    const elsewhere = await makeTenant(t.database.db);
    const grant = await signIn(t.app, home.user.email, GOOD_PASSWORD);
    return { headers: { ...bearer(grant), 'x-tenant-id': elsewhere.id } };
  });
const tenantAdminOutsideRoot = () =>
  callerFor('tenant-admin', async () => {
    await makeRoot(t.database.db);
    const member = await makeMember(t.database.db, { role: 'admin' });
    return { headers: bearer(await signIn(t.app, member.user.email, GOOD_PASSWORD)) };
  });

const tenantEndpoints = ALL_ENDPOINTS.filter((e) => e.access === 'tenant');
const guardedEndpoints = ALL_ENDPOINTS.filter((e) => e.access !== 'public');

describe('the contract and the server agree', () => {
  it('serves exactly the endpoints of the contract under /msbapi', () => {
    const contract = ALL_ENDPOINTS.map((e) => `${e.method} ${e.path}`).sort();
    // Fastify adds HEAD for every GET.
    expect(served.filter((r) => !r.startsWith('HEAD ')).sort()).toEqual(contract);
  });

  it('has guarded endpoints to check', () => {
    expect(tenantEndpoints.length).toBeGreaterThan(0);
  });
});

describe('the snapshot every case compares', () => {
  it('notices one changed value in one row, so "changes nothing" holds to the byte', async () => {
    const { user } = await makeMember(t.database.db, { role: 'signer' });
    const before = await snapshot();
    expect(await snapshot()).toBe(before);
    await t.database.executeSql(`update users set first_name = first_name || 'x' where id = $1`, [user.id]);
    expect(await snapshot()).not.toBe(before);
  });
});

describe.each(guardedEndpoints.map((e) => [`${e.method} ${e.path}`, e] as const))('%s', (_name, endpoint) => {
  it('refuses an anonymous caller with 401 and changes nothing', async () => {
    const before = await snapshot();
    const res = await request(endpoint, {});
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe(-5);
    expect(await snapshot()).toBe(before);
  });

  if (endpoint.access === 'tenant') {
    it("answers another tenant's member with 404 and changes nothing", async () => {
      const { headers } = await outsider();
      const before = await snapshot();
      const res = await request(endpoint, headers);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ code: -1, data: null, message: 'Not found.' });
      expect(await snapshot()).toBe(before);
    });
  }

  const action = endpoint.action;
  if (action && endpoint.access === 'tenant') {
    const refused = ROLES.filter((role) => role !== 'root' && !can({ role, userId: 'u', tenantId: 't' }, action));
    it.each(refused)('refuses a %s of the tenant with 403 and changes nothing', async (role: Role) => {
      const { headers } = await memberOf(role);
      const before = await snapshot();
      const res = await request(endpoint, headers);
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe(-11);
      expect(await snapshot()).toBe(before);
    });
  }

  if (endpoint.access === 'root') {
    it('refuses a tenant admin with 403 and changes nothing', async () => {
      const { headers } = await tenantAdminOutsideRoot();
      const before = await snapshot();
      const res = await request(endpoint, headers);
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe(-11);
      expect(await snapshot()).toBe(before);
    });
  }
});
