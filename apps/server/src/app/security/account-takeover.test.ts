import { TwoFactorChallenge } from '@pakt/domain';
import { and, asc, eq } from 'drizzle-orm';
import { generate, generateSecret } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memberships, outbox, passwordResets, sessions, users } from '../../platform/db/schema';
import { startEpakWithEmailStep } from '../../test/email-step-support';
import { GOOD_PASSWORD, makeMember, makeRoot } from '../../test/factories';
import { bearer, signIn } from '../../test/sign-in';
import { buildTestApp, type TestApp } from '../../test/test-app';

/**
 * Issue 17's account-takeover chains, repeated end to end on a default install (no SMTP_URL) with
 * two tenants: A's admin is the attacker, B's admin (with an authenticator app) the victim. Each
 * chain must be refused, and leave the victim's account as it was.
 */
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());
const db = () => t.database.db;

async function twoTenants() {
  const attacker = await makeMember(db(), { role: 'admin' });
  const totpSecret = generateSecret();
  const victim = await makeMember(db(), { role: 'admin', user: { totpSecret, totpEnabledAt: new Date() } });
  const attackerGrant = await signIn(t.app, attacker.user.email, GOOD_PASSWORD);
  const attackerHeaders = { ...bearer(attackerGrant), 'x-tenant-id': attacker.tenant.id };
  return { attacker, attackerHeaders, victim, totpSecret };
}

const inviteInto = (headers: Record<string, string>, email: string, role = 'signer') =>
  t.app.inject({ method: 'POST', url: '/msbapi/v1/users/invite', headers, payload: { users: [{ email, firstName: 'Vic', lastName: 'Tim', role }] } });

/** What the invitee alone can read: the mail as stored (root reads it too on an install without SMTP). */
async function invitationLink(email: string): Promise<URL> {
  const [mail] = await db()
    .select()
    .from(outbox)
    .where(and(eq(outbox.recipient, email), eq(outbox.kind, 'invitation')))
    .orderBy(asc(outbox.createdAt));
  return new URL(/https?:\/\/\S+/.exec(mail!.body)![0]);
}

const register = (link: URL, email: string, password: string) =>
  t.app.inject({
    method: 'POST',
    url: '/msbapi/public/users/registerusertenant',
    payload: {
      userEmail: email,
      firstName: 'Vic',
      lastName: 'Tim',
      newPassword: password,
      confirmPassword: password,
      inviteCode: link.searchParams.get('invite'),
      tenantUuid: link.searchParams.get('tenant'),
    },
  });

const accountOf = async (id: string) => {
  const [row] = await db().select().from(users).where(eq(users.id, id));
  const live = await db().select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, id));
  return JSON.stringify({ ...row, lastLoginAt: null, sessions: live.length });
};

describe('chain 1: accepting an invitation as a password oracle and a way past two-factor', () => {
  it('never checks an existing account’s password on the public registration, and never answers tokens', async () => {
    const { attackerHeaders, victim } = await twoTenants();
    expect((await inviteInto(attackerHeaders, victim.user.email)).statusCode).toBe(200);
    const link = await invitationLink(victim.user.email);
    const before = await accountOf(victim.user.id);

    // Fifty guesses, the right password among them: one answer for all, and no session.
    const answers = new Set<string>();
    for (let i = 0; i < 50; i++) {
      const res = await register(link, victim.user.email, i === 25 ? GOOD_PASSWORD : `Wrong-Guess-${i}x`);
      answers.add(JSON.stringify([res.statusCode, res.json().code, res.json().message]));
      expect(res.json().data?.accessToken).toBeUndefined();
    }
    expect([...answers]).toEqual([JSON.stringify([409, -81, 'You already have a Pakt account: sign in with it, then accept the invitation.'])]);
    expect(await accountOf(victim.user.id)).toBe(before);
    const [membership] = await db().select().from(memberships).where(and(eq(memberships.userId, victim.user.id), eq(memberships.status, 'invited')));
    expect(membership).toBeDefined();
  });

  it('lets the invitee join from a session opened with both factors, and nobody else', async () => {
    const { attacker, attackerHeaders, victim, totpSecret } = await twoTenants();
    await inviteInto(attackerHeaders, victim.user.email);
    const link = await invitationLink(victim.user.email);
    const details = await t.app.inject({ method: 'GET', url: `/msbapi/public/invitations/${encodeURIComponent(link.searchParams.get('invite')!)}` });
    expect(details.json().data).toMatchObject({ hasAccount: true, email: victim.user.email });
    const accept = (headers: Record<string, string>) =>
      t.app.inject({
        method: 'POST',
        url: '/msbapi/v1/users/invitations/accept',
        headers,
        payload: { inviteCode: link.searchParams.get('invite'), tenantUuid: link.searchParams.get('tenant') },
      });

    // Someone else's session (the attacker's own) cannot use the code.
    const stolen = await accept(attackerHeaders);
    expect([stolen.statusCode, stolen.json().code]).toEqual([403, -11]);
    // No session at all: 401.
    expect((await accept({})).statusCode).toBe(401);

    // The victim: the password opens a second-factor challenge, the code finishes sign-in.
    const first = await t.app.inject({
      method: 'POST',
      url: '/msbapi/v1/authenticate',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ username: victim.user.email, password: GOOD_PASSWORD }).toString(),
    });
    expect(first.json().code).toBe(-200);
    const challenge = TwoFactorChallenge.parse(first.json().data);
    const verified = await t.app.inject({ method: 'POST', url: '/msbapi/v2/authentication/otp/verify', payload: { otpId: challenge.otpId, code: await generate({ secret: totpSecret }) } });
    expect(verified.statusCode, verified.body).toBe(200);
    const joined = await accept(bearer(verified.json().data));
    expect(joined.statusCode, joined.body).toBe(200);
    expect(joined.json().data).toMatchObject({ tenantUuid: attacker.tenant.id, role: 'signer' });
    const [membership] = await db().select().from(memberships).where(and(eq(memberships.userId, victim.user.id), eq(memberships.tenantId, attacker.tenant.id)));
    expect(membership!.status).toBe('active');
    // Once used, the code is spent.
    expect((await accept(bearer(verified.json().data))).json().code).toBe(-81);
  });
});

describe('chain 2: an admin password reset of an account another tenant shares', () => {
  it('is refused, writes no reset link, and the member of this tenant alone still gets one mailed to them', async () => {
    const { attacker, attackerHeaders, victim } = await twoTenants();
    // The victim is a member of both tenants (they accepted A's invitation).
    await db().insert(memberships).values({ tenantId: attacker.tenant.id, userId: victim.user.id, role: 'signer', status: 'active' });
    const before = await accountOf(victim.user.id);
    const refused = await t.app.inject({ method: 'POST', url: `/msbapi/v1/users/${victim.user.id}/password/reset`, headers: attackerHeaders });
    expect([refused.statusCode, refused.json().code]).toEqual([403, -11]);
    expect(refused.json().message).toMatch(/only they can reset/);
    expect(await db().select().from(passwordResets).where(eq(passwordResets.userId, victim.user.id))).toEqual([]);
    expect(await accountOf(victim.user.id)).toBe(before);

    // An invitation still pending in another tenant makes the account shared too.
    const pending = await makeMember(db(), { role: 'signer', tenant: attacker.tenant });
    await makeMember(db(), { role: 'signer' }).then(({ tenant }) =>
      db().insert(memberships).values({ tenantId: tenant.id, userId: pending.user.id, role: 'signer', status: 'invited' }),
    );
    expect((await t.app.inject({ method: 'POST', url: `/msbapi/v1/users/${pending.user.id}/password/reset`, headers: attackerHeaders })).statusCode).toBe(403);

    // A member of A only: the reset goes ahead, to them; the answer and A's outbox carry no link.
    const own = await makeMember(db(), { role: 'signer', tenant: attacker.tenant });
    const reset = await t.app.inject({ method: 'POST', url: `/msbapi/v1/users/${own.user.id}/password/reset`, headers: attackerHeaders });
    expect(reset.statusCode, reset.body).toBe(200);
    expect(reset.body).not.toMatch(/https?:|pkp_/);
    const box = await t.app.inject({ method: 'GET', url: '/msbapi/v1/outbox', headers: attackerHeaders });
    const mail = (box.json().data.messages as { recipient: string; kind: string; body: string | null }[]).find((m) => m.recipient === own.user.email);
    expect(mail).toMatchObject({ kind: 'password-reset', body: null });
    expect(box.body).not.toMatch(/pkp_|resetpassword/);
  });

  it('refuses a reset of root, wherever root is a member', async () => {
    const { attacker, attackerHeaders } = await twoTenants();
    const root = await makeRoot(db());
    await db().insert(memberships).values({ tenantId: attacker.tenant.id, userId: root.id, role: 'signer', status: 'active' });
    const refused = await t.app.inject({ method: 'POST', url: `/msbapi/v1/users/${root.id}/password/reset`, headers: attackerHeaders });
    expect(refused.statusCode).toBe(403);
    expect(await db().select().from(passwordResets).where(eq(passwordResets.userId, root.id))).toEqual([]);
  });
});

describe('chain 3: reading links and codes in the outbox', () => {
  it('shows a tenant admin no text of any message: invitations, super-admin invitations, resets, signing links', async () => {
    const { attacker, attackerHeaders } = await twoTenants();
    // An ePak with an external recipient: its mails carry signing links.
    const flow = await startEpakWithEmailStep(t);
    const ownerAdmin = await makeMember(db(), { role: 'admin', tenant: flow.owner.tenant });
    const superAdmin = await makeMember(db(), { role: 'super_admin', tenant: attacker.tenant });
    const superGrant = await signIn(t.app, superAdmin.user.email, GOOD_PASSWORD);
    const superInvite = await t.app.inject({
      method: 'POST',
      url: '/msbapi/v2/user/registerAsSuperadmin',
      headers: { ...bearer(superGrant), 'x-tenant-id': attacker.tenant.id },
      payload: { email: `next-super-${Date.now()}@example.test`, firstName: 'Sue', lastName: 'Per' },
    });
    await inviteInto(attackerHeaders, `new-${Date.now()}@example.test`);
    expect(superInvite.statusCode, superInvite.body).toBe(200);
    const stored = await db().select().from(outbox).where(eq(outbox.tenantId, attacker.tenant.id));
    expect(stored.map((m) => m.kind)).toEqual(expect.arrayContaining(['invitation']));
    expect(stored.filter((m) => /https?:\/\//.test(m.body)).length).toBeGreaterThanOrEqual(2);

    for (const [headers, tenantId] of [
      [attackerHeaders, attacker.tenant.id],
      [{ ...bearer(await signIn(t.app, ownerAdmin.user.email, GOOD_PASSWORD)), 'x-tenant-id': flow.owner.tenant.id }, flow.owner.tenant.id],
    ] as const) {
      const res = await t.app.inject({ method: 'GET', url: '/msbapi/v1/outbox', headers });
      const messages = res.json().data.messages as { body: string | null }[];
      expect(messages.length, `messages of ${tenantId}`).toBeGreaterThan(0);
      expect(messages.every((m) => m.body === null)).toBe(true);
      expect(res.body).not.toMatch(/https?:\/\/|pk[a-z]_|invite=|token=/);
    }
  });

  it('shows root the texts on an install without mail, since root then hands them on', async () => {
    const { attackerHeaders } = await twoTenants();
    const email = `handed-on-${Date.now()}@example.test`;
    await inviteInto(attackerHeaders, email);
    const root = await makeRoot(db());
    const grant = await signIn(t.app, root.email, GOOD_PASSWORD);
    const res = await t.app.inject({ method: 'GET', url: `/msbapi/v1/root/outbox?recipient=${encodeURIComponent(email)}`, headers: bearer(grant) });
    expect(res.json().data.messages).toEqual([expect.objectContaining({ recipient: email, body: expect.stringMatching(/invite=/) })]);
  });
});
