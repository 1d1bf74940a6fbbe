import { systemOutbox, tenantOutbox } from '@pakt/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redactSecrets } from './outbox-routes';
import { queueEmail, queueSms } from '../../platform/mail/outbox';
import { GOOD_PASSWORD, makeMember, makeRoot } from '../../test/factories';
import { bearer, signIn } from '../../test/sign-in';
import { buildTestApp, type TestApp } from '../../test/test-app';
import { inject } from '../../test/inject';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

async function setup() {
  const db = t.database.db;
  const a = await makeMember(db, { role: 'admin' });
  const b = await makeMember(db, { role: 'admin' });
  const signer = await makeMember(db, { role: 'signer', tenant: a.tenant });
  await queueEmail({ db, tenantId: a.tenant.id, to: 'x@a.test', subject: 'For A', body: 'a', kind: 'invitation' });
  await queueEmail({ db, tenantId: b.tenant.id, to: 'y@b.test', subject: 'For B', body: 'b', kind: 'invitation' });
  await queueEmail({ db, tenantId: null, to: 'z@c.test', subject: 'System', body: 'c', kind: 'password-reset' });
  return { a, b, signer };
}

describe('reading the outbox', () => {
  it("shows a tenant admin their tenant's mail only, never its text; others get 404 or 403", async () => {
    const { a, b, signer } = await setup();
    const adminA = await signIn(t.app, a.user.email, GOOD_PASSWORD);
    const mine = await inject(t.app, tenantOutbox, { headers: { ...bearer(adminA), 'x-tenant-id': a.tenant.id } });
    expect(mine.json().data.messages).toEqual([
      expect.objectContaining({ subject: 'For A', recipient: 'x@a.test', body: null, tenantName: expect.any(String), sentAt: null }),
    ]);

    const outsider = await inject(t.app, tenantOutbox, { headers: { ...bearer(adminA), 'x-tenant-id': b.tenant.id } });
    expect(outsider.statusCode).toBe(404);

    const signerGrant = await signIn(t.app, signer.user.email, GOOD_PASSWORD);
    const wrongRole = await inject(t.app, tenantOutbox, { headers: { ...bearer(signerGrant), 'x-tenant-id': a.tenant.id } });
    expect(wrongRole.statusCode).toBe(403);
    expect(wrongRole.json().code).toBe(-11);

    expect((await inject(t.app, systemOutbox, { headers: bearer(adminA) })).statusCode).toBe(403);
  });

  it("shows root every tenant's mail and the tenantless, whole while nothing delivers it, and filters by recipient", async () => {
    await setup();
    const root = await makeRoot(t.database.db);
    const grant = await signIn(t.app, root.email, GOOD_PASSWORD);
    const res = await inject(t.app, systemOutbox, { headers: bearer(grant) });
    const messages = res.json().data.messages as { subject: string; body: string; tenantName: string | null }[];
    expect(messages).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ subject: 'For A', body: 'a', tenantName: expect.any(String) }),
        expect.objectContaining({ subject: 'For B', body: 'b' }),
        expect.objectContaining({ subject: 'System', body: 'c', tenantName: null }),
      ]),
    );
    const one = await inject(t.app, systemOutbox, { query: { recipient: 'X@A.test' }, headers: bearer(grant) });
    expect(one.data.messages.map((m) => m.recipient)).toEqual(expect.arrayContaining(['x@a.test']));
    expect(new Set(one.data.messages.map((m) => m.recipient))).toEqual(new Set(['x@a.test']));
  });
});

describe('with SMTP configured', () => {
  it('shows root the mail without its links and codes', async () => {
    const smtp = await buildTestApp({ env: { SMTP_URL: 'smtp://127.0.0.1:1' } });
    try {
      const root = await makeRoot(smtp.database.db);
      const token = `pkr_${'A'.repeat(43)}`;
      await queueEmail({ db: smtp.database.db, tenantId: null, to: 'z@c.test', subject: 'Reset', body: `Open https://x.test/resetpassword?token=${token} or use code 123456.`, kind: 'password-reset' });
      const grant = await signIn(smtp.app, root.email, GOOD_PASSWORD);
      const res = await inject(smtp.app, systemOutbox, { headers: bearer(grant) });
      const body = res.data.messages[0]!.body;
      expect(body).toBe('Open https://x.test/resetpassword?token=[hidden] or use code [hidden].');
    } finally {
      await smtp.close();
    }
  });

  it('hides texts only once an SMS relay delivers them', async () => {
    for (const [env, hidden] of [
      [{ SMTP_URL: 'smtp://127.0.0.1:1' }, false],
      [{ SMTP_URL: 'smtp://127.0.0.1:1', SMS_WEBHOOK_URL: 'http://127.0.0.1:1/sms' }, true],
    ] as const) {
      const app = await buildTestApp({ env });
      try {
        const root = await makeRoot(app.database.db);
        await queueSms({ db: app.database.db, tenantId: null, to: '+91 98450 12345', body: 'Pakt sign-in code: 654321.', kind: 'otp' });
        const grant = await signIn(app.app, root.email, GOOD_PASSWORD);
        const res = await inject(app.app, systemOutbox, { headers: bearer(grant) });
        const sms = res.data.messages.find((m) => m.channel === 'sms');
        expect(sms!.body).toBe(hidden ? 'Pakt sign-in code: [hidden].' : 'Pakt sign-in code: 654321.');
      } finally {
        await app.close();
      }
    }
  });

  it('redacts every kind of bearer secret', () => {
    for (const prefix of ['pka', 'pkr', 'pki', 'pks', 'pkp', 'pku', 'pkv']) expect(redactSecrets(`x ${prefix}_${'b'.repeat(43)} y`)).toBe('x [hidden] y');
    expect(redactSecrets('year 2026, id 1234567')).toBe('year 2026, id 1234567');
  });
});
