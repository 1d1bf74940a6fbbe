import { createTenant, getInstallSettings, listTenants, publicConfiguration, signup, updateInstallSettings, verifyEmail } from '@pakt/domain';
import { count, eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { memberships, outbox, systemSettings, tenants, users } from '../../platform/db/schema';
import { GOOD_PASSWORD, makeRoot } from '../../test/factories';
import { inject } from '../../test/inject';
import { bearer, signIn } from '../../test/sign-in';
import { buildTestApp, type TestApp } from '../../test/test-app';
import { PUBLIC_SETTINGS_KEY } from './public-settings';

/**
 * Issue 22, mail with no SMTP: screens learn whether mail is delivered, and self sign-up (whose
 * confirmation goes by mail) is off by default where it is not, until root switches it on.
 */
let t: TestApp;
afterEach(() => t.close());

const db = () => t.database.db;
/** The install's default: the suites' own FEATURE_SIGNUP left out. */
const installDefault = { FEATURE_SIGNUP: undefined };
const SMTP = { SMTP_URL: 'smtp://127.0.0.1:1' };
const person = { email: 'kiran@newco.test', firstName: 'Kiran', lastName: 'Shah', orgName: 'NewCo', newPassword: GOOD_PASSWORD, confirmPassword: GOOD_PASSWORD };

async function root() {
  const user = await makeRoot(db());
  return { headers: bearer(await signIn(t.app, user.email, GOOD_PASSWORD)) };
}
const configuration = async () => (await inject(t.app, publicConfiguration, {})).data;
const rowCount = async (table: typeof users | typeof tenants | typeof memberships) => (await db().select({ n: count() }).from(table))[0]!.n;

describe('an install without a mail server', () => {
  it('says mail goes to the outbox, and refuses sign-up by default, creating nothing', async () => {
    t = await buildTestApp({ env: installDefault });
    expect(await configuration()).toMatchObject({ mailDelivery: 'outbox', features: { signup: false } });
    const res = await inject(t.app, signup, { body: person });
    expect(res.statusCode).toBe(403);
    expect(res.code).toBe(-11);
    expect([await rowCount(users), await rowCount(tenants), await rowCount(memberships)]).toEqual([0, 0, 0]);
    expect(await db().select().from(outbox)).toEqual([]);
    const settings = await inject(t.app, getInstallSettings, { as: await root() });
    expect(settings.data).toEqual({ mailDelivery: 'outbox', signup: { enabled: false, byDefault: false, chosen: null } });
  });

  it('takes sign-ups once root switches them on, and stops again when root goes back to the default', async () => {
    t = await buildTestApp({ env: installDefault });
    const admin = await root();
    // Another stored override stays as it was.
    await db().insert(systemSettings).values({ key: PUBLIC_SETTINGS_KEY, value: { zoom: { max: 2 } } });
    const on = await inject(t.app, updateInstallSettings, { body: { signup: true }, as: admin });
    expect(on.data).toEqual({ mailDelivery: 'outbox', signup: { enabled: true, byDefault: false, chosen: true } });
    expect(await configuration()).toMatchObject({ features: { signup: true }, zoom: { max: 2 } });
    expect((await inject(t.app, signup, { body: person })).statusCode).toBe(200);

    const back = await inject(t.app, updateInstallSettings, { body: { signup: null }, as: admin });
    expect(back.data.signup).toEqual({ enabled: false, byDefault: false, chosen: null });
    expect((await inject(t.app, signup, { body: { ...person, email: 'other@newco.test', orgName: 'Other Co' } })).code).toBe(-11);
    const [stored] = await db().select().from(systemSettings).where(eq(systemSettings.key, PUBLIC_SETTINGS_KEY));
    expect(stored!.value).toEqual({ zoom: { max: 2 }, features: {} });
  });
});

describe('an install with a mail server', () => {
  it('says mail is delivered and takes sign-ups unless root or FEATURE_SIGNUP says no', async () => {
    t = await buildTestApp({ env: { ...installDefault, ...SMTP } });
    expect(await configuration()).toMatchObject({ mailDelivery: 'smtp', features: { signup: true } });
    const off = await inject(t.app, updateInstallSettings, { body: { signup: false }, as: await root() });
    expect(off.data).toEqual({ mailDelivery: 'smtp', signup: { enabled: false, byDefault: true, chosen: false } });
    expect((await inject(t.app, signup, { body: person })).code).toBe(-11);
    expect(await configuration()).toMatchObject({ features: { signup: false } });
  });

  it('keeps sign-up off when the operator set FEATURE_SIGNUP=false', async () => {
    t = await buildTestApp({ env: { ...SMTP, FEATURE_SIGNUP: 'false' } });
    expect((await inject(t.app, getInstallSettings, { as: await root() })).data.signup).toEqual({ enabled: false, byDefault: false, chosen: null });
  });
});

describe("root's tenant list", () => {
  it('shows a sign-up not yet confirmed as pending, and active once its owner confirms', async () => {
    t = await buildTestApp();
    const admin = await root();
    await inject(t.app, signup, { body: person });
    await inject(t.app, createTenant, { body: { tenantName: 'Acme Legal', admin: { email: 'priya@acme.test', firstName: 'Priya', lastName: 'Rao' } }, as: admin });
    const list = async () => (await inject(t.app, listTenants, { as: admin })).data.tenants.map((tenant) => [tenant.tenantName, tenant.status, tenant.admins]);
    expect(await list()).toEqual([
      ['Acme Legal', 'ACTIVE', [{ email: 'priya@acme.test', status: 'invited' }]],
      ['NewCo', 'PENDING', [{ email: 'kiran@newco.test', status: 'unconfirmed' }]],
    ]);

    const [mail] = await db().select().from(outbox).where(eq(outbox.kind, 'verify-email'));
    const token = new URL(/https?:\/\/\S+/.exec(mail!.body)![0]).searchParams.get('verify')!;
    expect((await inject(t.app, verifyEmail, { body: { token } })).statusCode).toBe(200);
    expect((await list())[1]).toEqual(['NewCo', 'ACTIVE', [{ email: 'kiran@newco.test', status: 'active' }]]);
  });
});
