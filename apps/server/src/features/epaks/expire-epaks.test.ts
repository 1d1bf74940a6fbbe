import { DocumentSummary, EpakDetail, type WorkflowStateDefinition, createEpak, listWorkflowStates, rejectEpak, startEpak, uploadDocument } from '@pakt/domain';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { epakActivities, epakRecipients, epaks, outbox } from '../../platform/db/schema';
import { verifyActivityChain } from './activity';
import { GOOD_PASSWORD, makeMember } from '../../test/factories';
import { bearer, signIn } from '../../test/sign-in';
import { buildTestApp, type TestApp } from '../../test/test-app';
import { expireDueEpaks, expireEpaksJob } from './expire-epaks';
import { corpusPdf } from '../../test/corpus';
import { inject } from '../../test/inject';
import { placeSignatureFields } from '../../test/app-factories';

const mail = { publicUrl: 'https://pakt.example.test', linkDays: 30 };

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

/** An owner who sends one-step ePaks to one signer, each with the expiry given. */
async function sender() {
  const owner = await makeMember(t.database.db, { role: 'custodian' });
  const signer = await makeMember(t.database.db, { role: 'signer', tenant: owner.tenant });
  const headers = { ...bearer(await signIn(t.app, owner.user.email, GOOD_PASSWORD)), 'x-tenant-id': owner.tenant.id };
  const states = (await inject(t.app, listWorkflowStates, { headers })).json().data.states as WorkflowStateDefinition[];
  const sign = states.find((s) => s.type === 'SIGN')!.workflowStateId;
  const doc = DocumentSummary.parse((await inject(t.app, uploadDocument, { headers, file: { bytes: corpusPdf('plain-1p-pdftex.pdf'), name: 'plain-1p-pdftex.pdf' } })).data);
  const send = async (expiresOn: Date | null) => {
    const composed = await inject(t.app, createEpak, { headers, body: { subject: 'Quote', documentIds: [doc.documentId], steps: [{ workflowStateId: sign, recipients: [{ email: signer.user.email }] }], ...(expiresOn ? { expiresOn: expiresOn.toISOString() } : {}) } });
    const epak = EpakDetail.parse(composed.json().data);
    const id = epak.ePakId;
    await placeSignatureFields(t, { owner: { headers }, epak });
    expect((await inject(t.app, startEpak, { params: { ePakId: id }, headers })).statusCode).toBe(200);
    return id;
  };
  return { owner, signer, headers, send };
}

const rowOf = async (id: string) => (await t.database.db.select().from(epaks).where(eq(epaks.id, id)))[0]!;

describe('expiring ePaks', () => {
  it('ends, on a fixed clock, exactly the ePaks under way whose expiry has passed, once, with a record and the owner told', async () => {
    const { owner, send } = await sender();
    const t0 = new Date(Date.now() + 365 * 24 * 3600_000);
    const day = 24 * 3600_000;
    const due = await send(new Date(t0.getTime() + day));
    const later = await send(new Date(t0.getTime() + 3 * day));
    const never = await send(null);
    const now = new Date(t0.getTime() + 2 * day);

    expect(await expireDueEpaks({ db: t.database.db, mail, now })).toContain(due);
    const row = await rowOf(due);
    expect(row).toMatchObject({ status: 'Expired', currentStep: null });
    expect(row.endedAt?.toISOString()).toBe(now.toISOString());
    expect((await t.database.db.select().from(epakRecipients).where(eq(epakRecipients.epakId, due))).map((r) => r.status)).toEqual(['Skipped']);
    const records = await t.database.db.select().from(epakActivities).where(eq(epakActivities.epakId, due)).orderBy(asc(epakActivities.seq));
    expect(records.map((r) => [r.action, r.actorId])).toEqual([
      ['composed', owner.user.id],
      ['started', owner.user.id],
      ['expired', null],
    ]);
    expect(records[2]!.details).toMatchObject({ effects: [{ type: 'expired' }] });
    expect((await verifyActivityChain(t.database.db, due)).ok).toBe(true);
    const told = (await t.database.db.select().from(outbox).where(eq(outbox.tenantId, owner.tenant.id))).filter((m) => m.kind === 'epak_expired');
    expect(told.map((m) => m.recipient)).toEqual([owner.user.email]);
    for (const id of [later, never]) expect((await rowOf(id)).status).toBe('InProgress');

    // A second run at the same time finds nothing more to do.
    expect(await expireDueEpaks({ db: t.database.db, mail, now })).not.toContain(due);
    expect(await t.database.db.select().from(epakActivities).where(eq(epakActivities.epakId, due))).toHaveLength(3);
    // Then the later one's time comes.
    expect(await expireDueEpaks({ db: t.database.db, mail, now: new Date(t0.getTime() + 4 * day) })).toContain(later);
    expect((await rowOf(never)).status).toBe('InProgress');
  });

  it('leaves alone an ePak that ended before its expiry came; nothing can be done with an expired one', async () => {
    const { signer, send } = await sender();
    const soon = new Date(Date.now() + 60_000);
    const rejected = await send(soon);
    const signerHeaders = { ...bearer(await signIn(t.app, signer.user.email, GOOD_PASSWORD)), 'x-tenant-id': signer.tenant.id };
    expect((await inject(t.app, rejectEpak, { params: { ePakId: rejected }, headers: signerHeaders, body: { comment: 'No.' } })).statusCode).toBe(200);
    const expired = await send(soon);
    const now = new Date(soon.getTime() + 1000);
    const done = await expireDueEpaks({ db: t.database.db, mail, now });
    expect(done).toContain(expired);
    expect(done).not.toContain(rejected);
    expect((await rowOf(rejected)).status).toBe('Rejected');
    const refused = await inject(t.app, rejectEpak, { params: { ePakId: expired }, headers: signerHeaders, body: { comment: 'Too late?' } });
    expect([refused.statusCode, refused.json().code]).toEqual([409, -28]);
  });

  it('runs as a job that reports what it expired', async () => {
    const { send } = await sender();
    const past = await send(new Date(Date.now() - 1000));
    let reported: string[] = [];
    const job = expireEpaksJob({ db: t.database.db, mail, onExpired: (ids) => (reported = ids) });
    await job.run(job.payload.parse({}), { jobId: 'test', signal: new AbortController().signal });
    expect(reported).toContain(past);
    expect((await rowOf(past)).status).toBe('Expired');
  });
});
