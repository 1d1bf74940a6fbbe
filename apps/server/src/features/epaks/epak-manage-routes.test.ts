import {
  downloadEpakCertificate,
  exchangeEasyToken,
  getEpakActivity,
  getEpakManagement,
  REMINDER_INTERVAL_MINUTES,
  resendSigningLink,
  setEpakStatus,
  showSigningLink,
} from '@pakt/domain';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { epakActivities, epakLinks, epakRecipients, epaks, outbox, users } from '../../platform/db/schema';
import { inject } from '../../test/inject';
import { buildTestApp, type TestApp } from '../../test/test-app';
import { type SignedInMember, signedInMember, startedEpak } from '../../test/app-factories';

/**
 * The server side of the owner's management view (issue 21): its facts, a recipient's signing
 * link shown to the owner or mailed again, and the certificate on its own. Every refusal is
 * checked to change nothing at all.
 */
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const EXTERNAL = 'outside.counsel@example.org';

/** An ePak of `owner`'s tenant: step 1 a member and an outsider sign, step 2 another member. */
async function liveEpak() {
  const owner = await signedInMember(t, { role: 'custodian' });
  const member = await signedInMember(t, { role: 'custodian', tenant: owner.tenant });
  const later = await signedInMember(t, { role: 'signer', tenant: owner.tenant });
  const { epak } = await startedEpak(t, {
    owner,
    steps: [
      { type: 'SIGN', recipients: [member, EXTERNAL] },
      { type: 'SIGN', recipients: [later] },
    ],
  });
  const [first, outsider] = epak.steps[0]!.recipients;
  return { owner, member, later, epak, memberPlace: first!, externalPlace: outsider!, laterPlace: epak.steps[1]!.recipients[0]! };
}

/** Everything these calls could change, to prove a refusal changed nothing. */
async function everything(epakId: string, tenantId: string) {
  const db = t.database.db;
  return JSON.stringify([
    await db.select().from(epaks).where(eq(epaks.id, epakId)),
    await db.select().from(epakRecipients).where(eq(epakRecipients.epakId, epakId)).orderBy(asc(epakRecipients.id)),
    await db.select().from(epakActivities).where(eq(epakActivities.epakId, epakId)).orderBy(asc(epakActivities.seq)),
    await db.select().from(epakLinks).where(eq(epakLinks.epakId, epakId)).orderBy(asc(epakLinks.id)),
    await db.select().from(outbox).where(eq(outbox.tenantId, tenantId)).orderBy(asc(outbox.id)),
    await db.select({ n: users.id }).from(users).orderBy(asc(users.id)),
  ]);
}

async function expectRefused(epakId: string, tenantId: string, call: () => Promise<{ statusCode: number; code: number | undefined; body: string }>, status: number, code: number) {
  const before = await everything(epakId, tenantId);
  const res = await call();
  expect([res.statusCode, res.code], res.body).toEqual([status, code]);
  expect(await everything(epakId, tenantId)).toBe(before);
  return res;
}

const lastActions = async (epakId: string, count: number) =>
  (await t.database.db.select().from(epakActivities).where(eq(epakActivities.epakId, epakId)).orderBy(asc(epakActivities.seq))).slice(-count);

const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;

describe('showing a signing link to the owner', () => {
  it('answers a fresh link that opens the ePak as that recipient, and logs the showing without the link', async () => {
    const { owner, epak, externalPlace } = await liveEpak();
    const res = await inject(t.app, showSigningLink, { as: owner, params: { ePakId: epak.ePakId, recipientId: externalPlace.recipientId } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.data).toMatchObject({ ePakId: epak.ePakId, recipientId: externalPlace.recipientId, email: EXTERNAL });
    expect(res.data.link).toMatch(/\/emailsign\?token=/);
    expect(new Date(res.data.expiresOn).getTime()).toBeGreaterThan(Date.now());

    const exchanged = await inject(t.app, exchangeEasyToken, { params: { easytoken: tokenOf(res.data.link) } });
    expect(exchanged.statusCode, exchanged.body).toBe(200);
    expect(exchanged.data).toMatchObject({ ePakId: epak.ePakId, user: { email: EXTERNAL } });

    const [entry] = await lastActions(epak.ePakId, 1);
    expect(entry).toMatchObject({ action: 'linkShown', actorId: owner.user.id, details: { recipientId: externalPlace.recipientId, email: EXTERNAL } });
    expect(JSON.stringify(entry!.details)).not.toContain(tokenOf(res.data.link));
    // The log as the owner reads it names the showing, and still verifies.
    const activity = await inject(t.app, getEpakActivity, { as: owner, params: { ePakId: epak.ePakId } });
    expect(activity.data.entries.at(-1)?.action).toBe('linkShown');
    expect(activity.data.chainValid).toBe(true);
  });

  it('answers an outsider 404 and a recipient 403, changing nothing', async () => {
    const { owner, member, epak, externalPlace } = await liveEpak();
    const stranger = await signedInMember(t, { role: 'custodian', tenant: owner.tenant });
    const otherTenant = await signedInMember(t, { role: 'custodian' });
    const params = { ePakId: epak.ePakId, recipientId: externalPlace.recipientId };
    await expectRefused(epak.ePakId, owner.tenant.id, () => inject(t.app, showSigningLink, { as: stranger, params }), 404, -1);
    await expectRefused(epak.ePakId, owner.tenant.id, () => inject(t.app, showSigningLink, { as: otherTenant, params }), 404, -1);
    await expectRefused(epak.ePakId, owner.tenant.id, () => inject(t.app, showSigningLink, { as: member, params }), 403, -11);
    await expectRefused(epak.ePakId, owner.tenant.id, () => inject(t.app, resendSigningLink, { as: member, params }), 403, -11);
  });

  it('refuses a member of the tenant (-6), a place not reached yet (-28) and an unknown recipient (404)', async () => {
    const { owner, epak, memberPlace, laterPlace } = await liveEpak();
    const show = (recipientId: string) => () => inject(t.app, showSigningLink, { as: owner, params: { ePakId: epak.ePakId, recipientId } });
    await expectRefused(epak.ePakId, owner.tenant.id, show(memberPlace.recipientId), 400, -6);
    // Step 2 has not come: its place is nobody's to open yet, whoever holds it.
    await expectRefused(epak.ePakId, owner.tenant.id, show(laterPlace.recipientId), 409, -28);
    await expectRefused(epak.ePakId, owner.tenant.id, show('00000000-0000-4000-8000-000000000000'), 404, -1);
  });

  it('refuses a link on a stopped ePak to someone who never acted (-28)', async () => {
    const { owner, epak, externalPlace } = await liveEpak();
    expect((await inject(t.app, setEpakStatus, { as: owner, body: { ePakId: epak.ePakId, status: 'Stopped', comment: 'Wrong draft' } })).statusCode).toBe(200);
    await expectRefused(epak.ePakId, owner.tenant.id, () => inject(t.app, showSigningLink, { as: owner, params: { ePakId: epak.ePakId, recipientId: externalPlace.recipientId } }), 409, -28);
  });
});

describe('resending a signing link', () => {
  it('mails a fresh link, logs it, and allows one an hour per recipient', async () => {
    const { owner, epak, externalPlace } = await liveEpak();
    const params = { ePakId: epak.ePakId, recipientId: externalPlace.recipientId };
    const sent = await inject(t.app, resendSigningLink, { as: owner, params });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.data).toMatchObject({ recipientId: externalPlace.recipientId, email: EXTERNAL });

    const mails = (await t.database.db.select().from(outbox).where(eq(outbox.tenantId, owner.tenant.id))).filter((row) => row.kind === 'epak_link_resent');
    expect(mails.map((mail) => mail.recipient)).toEqual([EXTERNAL]);
    const link = /Open it here: (\S+)/.exec(mails[0]!.body)![1]!;
    expect((await inject(t.app, exchangeEasyToken, { params: { easytoken: tokenOf(link) } })).statusCode).toBe(200);
    expect((await lastActions(epak.ePakId, 1))[0]!.action).toBe('linkResent');

    const again = await expectRefused(epak.ePakId, owner.tenant.id, () => inject(t.app, resendSigningLink, { as: owner, params }), 400, -6);
    expect(again.body).toContain('one an hour');
    // The facts the view reads say when the next one may go.
    const facts = await inject(t.app, getEpakManagement, { as: owner, params: { ePakId: epak.ePakId } });
    const reminded = facts.data.recipients.find((r) => r.recipientId === externalPlace.recipientId)!.lastRemindedOn!;
    expect(new Date(reminded).getTime() + REMINDER_INTERVAL_MINUTES * 60_000).toBeGreaterThan(Date.now());
  });
});

describe("the owner's management facts", () => {
  it('say who gets links, who acted and who delegated; owner only', async () => {
    const { owner, member, epak, memberPlace, externalPlace } = await liveEpak();
    const res = await inject(t.app, getEpakManagement, { as: owner, params: { ePakId: epak.ePakId } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.data.archivedOn).toBeNull();
    const byId = new Map(res.data.recipients.map((r) => [r.recipientId, r]));
    expect(byId.get(memberPlace.recipientId)).toMatchObject({ receivesSigningLink: false, actedOn: null, lastRemindedOn: null, delegatedFromId: null });
    expect(byId.get(externalPlace.recipientId)).toMatchObject({ receivesSigningLink: true });

    const stranger = await signedInMember(t, { role: 'custodian', tenant: owner.tenant });
    expect((await inject(t.app, getEpakManagement, { as: stranger, params: { ePakId: epak.ePakId } })).statusCode).toBe(404);
    expect((await inject(t.app, getEpakManagement, { as: member, params: { ePakId: epak.ePakId } })).statusCode).toBe(403);
  });
});

describe('the certificate of completion alone', () => {
  it('is refused while the ePak is under way and served once it has ended', async () => {
    const { owner, member, epak } = await liveEpak();
    const params = { ePakId: epak.ePakId };
    await expectRefused(epak.ePakId, owner.tenant.id, () => inject(t.app, downloadEpakCertificate, { as: owner, params }), 400, -6);
    expect((await inject(t.app, setEpakStatus, { as: owner, body: { ePakId: epak.ePakId, status: 'Stopped' } })).statusCode).toBe(200);
    for (const who of [owner, member] as SignedInMember[]) {
      const res = await inject(t.app, downloadEpakCertificate, { as: who, params });
      expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
      expect(res.headers['content-type']).toContain('application/pdf');
      expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    }
    const stranger = await signedInMember(t, { role: 'custodian', tenant: owner.tenant });
    expect((await inject(t.app, downloadEpakCertificate, { as: stranger, params })).statusCode).toBe(404);
  });
});
