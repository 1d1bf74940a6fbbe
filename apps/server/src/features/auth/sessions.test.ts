import { randomUUID } from 'node:crypto';
import { DomainError, WEB_CLIENT_ID } from '@pakt/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memberships, sessions, tenantSettings } from '../../platform/db/schema';
import { makeMember, makeTenant } from '../../test/factories';
import { buildTestApp, type TestApp } from '../../test/test-app';
import { issueSession, resolveAccessToken, rotateSession, sessionRulesFor } from './sessions';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const db = () => t.database.db;
const LIFETIMES = { accessSeconds: 600, refreshSeconds: 3600 };
const HOME = '198.51.100.7';

async function tenantWith(settings: Record<string, unknown>) {
  const tenant = await makeTenant(db());
  await db().insert(tenantSettings).values({ tenantId: tenant.id, settings });
  return tenant;
}

const signIn = (userId: string, ipAddress = HOME) => issueSession({ db: db(), userId, clientId: WEB_CLIENT_ID, lifetimes: LIFETIMES, client: { ipAddress } });

async function codeOf(work: Promise<unknown>): Promise<number | 'ok'> {
  try {
    await work;
    return 'ok';
  } catch (error) {
    if (error instanceof DomainError) return error.code;
    throw error;
  }
}

describe('session rules', () => {
  it('come from every active, unexpired membership: the strictest wins', async () => {
    const single = await tenantWith({ singleSession: true });
    const bound = await tenantWith({ bindSessionToAddress: true });
    const { user } = await makeMember(db(), { tenant: single });
    expect(await sessionRulesFor(db(), user.id)).toEqual({ singleSession: true, bindToAddress: false });
    await db().insert(memberships).values({ tenantId: bound.id, userId: user.id, role: 'signer', status: 'active' });
    expect(await sessionRulesFor(db(), user.id)).toEqual({ singleSession: true, bindToAddress: true });

    // An invitation, a disabled membership or an expired one gives that tenant no say.
    const other = await makeMember(db());
    for (const [status, expiresAt] of [['invited', null], ['disabled', null], ['active', new Date(Date.now() - 60_000)]] as const) {
      const strict = await tenantWith({ singleSession: true, bindSessionToAddress: true });
      await db().insert(memberships).values({ tenantId: strict.id, userId: other.user.id, role: 'signer', status, expiresAt });
    }
    expect(await sessionRulesFor(db(), other.user.id)).toEqual({ singleSession: false, bindToAddress: false });
  });
});

describe('one session per person', () => {
  it('revokes the other families as superseded, answered -32 for the access token and the refresh token', async () => {
    const { user } = await makeMember(db(), { tenant: await tenantWith({ singleSession: true }) });
    const first = await signIn(user.id);
    const second = await signIn(user.id);
    const [row] = await db().select().from(sessions).where(eq(sessions.id, first.sessionId));
    expect(row).toMatchObject({ revokedReason: 'superseded' });
    expect(await codeOf(resolveAccessToken({ db: db(), accessToken: first.accessToken, ipAddress: HOME }))).toBe(-32);
    expect(await codeOf(rotateSession({ db: db(), refreshToken: first.refreshToken, clientId: WEB_CLIENT_ID, lifetimes: LIFETIMES, client: { ipAddress: HOME } }))).toBe(-32);
    expect(await codeOf(resolveAccessToken({ db: db(), accessToken: second.accessToken, ipAddress: HOME }))).toBe('ok');
  });

  it('neither ends nor is ended by a signing-link or in-person session of the same person', async () => {
    const tenant = await tenantWith({ singleSession: true });
    const { user } = await makeMember(db(), { tenant });
    const main = await signIn(user.id);
    const link = await issueSession({ db: db(), userId: user.id, clientId: 'signing-link', lifetimes: LIFETIMES, client: { ipAddress: HOME }, scope: { tenantId: tenant.id, epakId: randomUUID() } });
    expect(await codeOf(resolveAccessToken({ db: db(), accessToken: main.accessToken, ipAddress: HOME }))).toBe('ok');
    const again = await signIn(user.id);
    expect(await codeOf(resolveAccessToken({ db: db(), accessToken: link.accessToken, ipAddress: HOME }))).toBe('ok');
    expect(await codeOf(resolveAccessToken({ db: db(), accessToken: main.accessToken, ipAddress: HOME }))).toBe(-32);
    expect(await codeOf(resolveAccessToken({ db: db(), accessToken: again.accessToken, ipAddress: HOME }))).toBe('ok');
  });

  it('leaves sessions alone where no tenant asks for it, and a logged-out session is still -5', async () => {
    const { user } = await makeMember(db());
    const first = await signIn(user.id);
    await signIn(user.id);
    expect(await codeOf(resolveAccessToken({ db: db(), accessToken: first.accessToken }))).toBe('ok');
    await db().update(sessions).set({ revokedAt: new Date(), revokedReason: 'logout' }).where(eq(sessions.id, first.sessionId));
    expect(await codeOf(resolveAccessToken({ db: db(), accessToken: first.accessToken }))).toBe(-5);
  });
});

describe('sessions bound to their address', () => {
  it('are refused elsewhere (-26) on use and refresh, and a rotation keeps the binding', async () => {
    const { user } = await makeMember(db(), { tenant: await tenantWith({ bindSessionToAddress: true }) });
    const grant = await signIn(user.id, HOME);
    const [row] = await db().select().from(sessions).where(eq(sessions.id, grant.sessionId));
    expect(row!.boundIpAddress).toBe(HOME);
    expect(await codeOf(resolveAccessToken({ db: db(), accessToken: grant.accessToken, ipAddress: '203.0.113.9' }))).toBe(-26);
    expect(await codeOf(resolveAccessToken({ db: db(), accessToken: grant.accessToken }))).toBe(-26);
    // A bound token from elsewhere is refused before its expiry counts: no refresh is earned.
    await db().update(sessions).set({ accessExpiresAt: new Date(Date.now() - 1000) }).where(eq(sessions.id, grant.sessionId));
    expect(await codeOf(resolveAccessToken({ db: db(), accessToken: grant.accessToken, ipAddress: '203.0.113.9' }))).toBe(-26);
    expect(await codeOf(resolveAccessToken({ db: db(), accessToken: grant.accessToken, ipAddress: HOME }))).toBe(-27);

    const rotate = (ipAddress: string) => rotateSession({ db: db(), refreshToken: grant.refreshToken, clientId: WEB_CLIENT_ID, lifetimes: LIFETIMES, client: { ipAddress } });
    expect(await codeOf(rotate('203.0.113.9'))).toBe(-26);
    const rotated = await rotate(HOME);
    const [next] = await db().select().from(sessions).where(eq(sessions.id, rotated.sessionId));
    expect(next!.boundIpAddress).toBe(HOME);
    expect(await codeOf(resolveAccessToken({ db: db(), accessToken: rotated.accessToken, ipAddress: '203.0.113.9' }))).toBe(-26);
    expect(await codeOf(resolveAccessToken({ db: db(), accessToken: rotated.accessToken, ipAddress: HOME }))).toBe('ok');
  });

  it('are not bound where no tenant asks for it', async () => {
    const { user } = await makeMember(db());
    const grant = await signIn(user.id, HOME);
    expect(await codeOf(resolveAccessToken({ db: db(), accessToken: grant.accessToken, ipAddress: '203.0.113.9' }))).toBe('ok');
  });
});
