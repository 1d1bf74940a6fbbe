import { randomUUID } from 'node:crypto';
import {
  createEpak,
  createReason,
  DocumentSummary,
  type EndpointInput,
  EpakDetail,
  exchangeEasyToken,
  getEpak,
  listReasons,
  listWorkflowStates,
  SigningReason,
  startEpak,
  type TenantSettings,
  updateReason,
  uploadDocument,
} from '@pakt/domain';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminAuditLog, outbox, reasons, tenantSettings } from '../../platform/db/schema';
import { GOOD_PASSWORD, makeMember } from '../../test/factories';
import { inject } from '../../test/inject';
import { bearer, signIn } from '../../test/sign-in';
import { buildTestApp, type TestApp } from '../../test/test-app';
import { corpusPdf } from '../../test/corpus';
import { placeSignatureFields } from '../../test/app-factories';

/**
 * Signing reasons per tenant (issue 8; spec §7 /v1/reasons, §9 default reason id 1): every tenant
 * starts with the built-in four, the first the default; admins add, edit, disable, reorder and
 * choose the default while showEditReasons is on; the ceremony gets the enabled ones in the ePak's
 * viewer, a signing-link session too. Each test works in a tenant of its own.
 */
let t: TestApp;
type Headers = Record<string, string>;
type Who = { headers: Headers; user: { id: string; email: string }; tenant: { id: string } };
type Role = 'admin' | 'custodian' | 'signer' | 'submitter' | 'super_admin';

async function member(role: Role, tenant?: { id: string }): Promise<Who> {
  const made = await makeMember(t.database.db, { role, ...(tenant ? { tenant } : {}), user: { email: `${role}-${randomUUID().slice(0, 8)}@example.test` } });
  return { ...made, headers: { ...bearer(await signIn(t.app, made.user.email, GOOD_PASSWORD)), 'x-tenant-id': made.tenant.id } };
}

type ReasonChange = EndpointInput<typeof updateReason>['body'];

async function list(who: Who): Promise<SigningReason[]> {
  const res = await inject(t.app, listReasons, { as: who });
  expect(res.statusCode, res.body).toBe(200);
  return SigningReason.array().parse(res.data.reasons);
}

async function change(who: Who, body: ReasonChange): Promise<SigningReason[]> {
  const res = await inject(t.app, updateReason, { body, as: who });
  expect(res.statusCode, res.body).toBe(200);
  return res.data.reasons;
}

/** Everything a refused request must leave as it was. */
const stateOf = async (tenantId: string) =>
  JSON.stringify([
    await t.database.db.select().from(reasons).where(eq(reasons.tenantId, tenantId)).orderBy(asc(reasons.id)),
    await t.database.db.select().from(adminAuditLog).where(eq(adminAuditLog.tenantId, tenantId)).orderBy(asc(adminAuditLog.id)),
  ]);

const auditOf = async (tenantId: string) =>
  (await t.database.db.select().from(adminAuditLog).where(eq(adminAuditLog.tenantId, tenantId)).orderBy(asc(adminAuditLog.createdAt))).filter((row) =>
    row.action.startsWith('reason_'),
  );

beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

describe('GET /msbapi/v1/reasons', () => {
  it('a new tenant has the built-in four, the first the default; every role that signs reads them', async () => {
    const A = await member('admin');
    const all = await list(A);
    expect(all.map(({ key, text, position, enabled, isDefault }) => ({ key, text, position, enabled, isDefault }))).toEqual([
      { key: 'approve', text: 'I approve this document', position: 1, enabled: true, isDefault: true },
      { key: 'agree', text: 'I agree to the terms of this document', position: 2, enabled: true, isDefault: false },
      { key: 'author', text: 'I am the author of this document', position: 3, enabled: true, isDefault: false },
      { key: 'witness', text: 'I sign as a witness', position: 4, enabled: true, isDefault: false },
    ]);
    for (const role of ['signer', 'submitter', 'custodian'] as const) {
      expect(await list(await member(role, A.tenant))).toEqual(all);
    }
    // Another tenant has rows of its own.
    const B = await member('admin');
    expect((await list(B)).map((r) => r.reasonId)).not.toContain(all[0]!.reasonId);
  });
});

describe('POST and PUT /msbapi/v1/reasons', () => {
  it('adds, edits, disables, reorders and makes default, each recorded in the admin audit log', async () => {
    const A = await member('admin');
    const created = await inject(t.app, createReason, { body: { text: '  Reviewed by legal  ' }, as: A });
    expect(created.statusCode, created.body).toBe(200);
    const legal = SigningReason.parse(created.data);
    expect(legal).toMatchObject({ key: null, text: 'Reviewed by legal', position: 5, enabled: true, isDefault: false });

    const [approve, agree, author, witness] = await list(A);
    // New words make a built-in reason the tenant's own.
    let after = await change(A, { reasonId: agree!.reasonId, text: 'I agree' });
    expect(after.find((r) => r.reasonId === agree!.reasonId)).toMatchObject({ key: null, text: 'I agree' });
    // A change of case of its own words is allowed.
    after = await change(A, { reasonId: agree!.reasonId, text: 'I Agree' });
    expect(after.find((r) => r.reasonId === agree!.reasonId)!.text).toBe('I Agree');

    after = await change(A, { reasonId: witness!.reasonId, enabled: false });
    expect(after.find((r) => r.reasonId === witness!.reasonId)!.enabled).toBe(false);

    after = await change(A, { reasonId: legal.reasonId, position: 1 });
    expect(after.map((r) => r.text)).toEqual(['Reviewed by legal', 'I approve this document', 'I Agree', 'I am the author of this document', 'I sign as a witness']);
    expect(after.map((r) => r.position)).toEqual([1, 2, 3, 4, 5]);

    // Making a disabled reason the default enables it; the old default gives way.
    after = await change(A, { reasonId: witness!.reasonId, isDefault: true });
    expect(after.filter((r) => r.isDefault).map((r) => r.reasonId)).toEqual([witness!.reasonId]);
    expect(after.find((r) => r.reasonId === witness!.reasonId)!.enabled).toBe(true);
    expect(after.find((r) => r.reasonId === approve!.reasonId)!.isDefault).toBe(false);

    // Saving what is there changes nothing and records nothing.
    const before = await stateOf(A.tenant.id);
    await change(A, { reasonId: author!.reasonId, text: author!.text, enabled: true, position: 4 });
    expect(await stateOf(A.tenant.id)).toBe(before);

    const audit = await auditOf(A.tenant.id);
    expect(audit.map((row) => [row.action, row.targetType, row.targetLabel, row.details])).toEqual([
      ['reason_created', 'reason', 'Reviewed by legal', { position: 5 }],
      ['reason_changed', 'reason', 'I agree', { text: { from: 'I agree to the terms of this document', to: 'I agree' } }],
      ['reason_changed', 'reason', 'I Agree', { text: { from: 'I agree', to: 'I Agree' } }],
      ['reason_changed', 'reason', 'I sign as a witness', { enabled: false }],
      ['reason_changed', 'reason', 'Reviewed by legal', { position: { from: 5, to: 1 } }],
      ['reason_changed', 'reason', 'I sign as a witness', { enabled: true, isDefault: true }],
    ]);
  });

  it('refuses blank, too long and duplicate words and disabling the default with -6 and its path, storing nothing', async () => {
    const A = await member('admin');
    const [approve, agree] = await list(A);
    const before = await stateOf(A.tenant.id);
    const refusals: [method: 'POST' | 'PUT', body: Record<string, unknown>, path: string][] = [
      ['POST', { text: '   ' }, 'text'],
      ['POST', { text: 'x'.repeat(201) }, 'text'],
      ['POST', { text: 'i APPROVE this document' }, 'text'],
      ['POST', {}, 'text'],
      ['PUT', { reasonId: agree!.reasonId, text: '' }, 'text'],
      ['PUT', { reasonId: agree!.reasonId, text: 'I approve THIS document' }, 'text'],
      ['PUT', { reasonId: approve!.reasonId, enabled: false }, 'enabled'],
      ['PUT', { reasonId: agree!.reasonId, position: 0 }, 'position'],
      ['PUT', { reasonId: agree!.reasonId, isDefault: false }, 'isDefault'],
      ['PUT', { reasonId: 'not-a-uuid' }, 'reasonId'],
    ];
    // The schema's issues name the body's field (body.text), the command's the field itself.
    for (const [method, body, issuePath] of refusals) {
      // Raw: several of these bodies are ones the contract's types refuse (no text, isDefault false, not a uuid).
      const res = await t.app.inject({ method, url: '/msbapi/v1/reasons', headers: A.headers, payload: body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json(), JSON.stringify(body)).toMatchObject({ code: -6, message: expect.any(String), issues: [expect.objectContaining({ path: expect.stringMatching(new RegExp(`(^|\\.)${issuePath}$`)) })] });
    }
    expect(await stateOf(A.tenant.id)).toBe(before);
  });

  it("another tenant's reason is 404 and stays as it was", async () => {
    const A = await member('admin');
    const B = await member('admin');
    const [theirs] = await list(B);
    const before = [await stateOf(A.tenant.id), await stateOf(B.tenant.id)];
    const bodies: ReasonChange[] = [{ reasonId: theirs!.reasonId, text: 'Taken over' }, { reasonId: theirs!.reasonId, isDefault: true }, { reasonId: randomUUID(), enabled: false }];
    for (const body of bodies) {
      const res = await inject(t.app, updateReason, { body, as: A });
      expect(res.statusCode, res.body).toBe(404);
    }
    expect([await stateOf(A.tenant.id), await stateOf(B.tenant.id)]).toEqual(before);
  });

  it('only admins manage reasons, and only while showEditReasons is on (403, -11 off)', async () => {
    const A = await member('admin');
    const custodian = await member('custodian', A.tenant);
    const [first] = await list(A);
    const before = await stateOf(A.tenant.id);
    expect((await inject(t.app, createReason, { body: { text: 'Mine' }, as: custodian })).statusCode).toBe(403);
    expect((await inject(t.app, updateReason, { body: { reasonId: first!.reasonId, text: 'Mine' }, as: custodian })).statusCode).toBe(403);

    const settings: TenantSettings = { showEditReasons: false };
    await t.database.db.insert(tenantSettings).values({ tenantId: A.tenant.id, settings }).onConflictDoUpdate({ target: tenantSettings.tenantId, set: { settings } });
    for (const res of [
      await inject(t.app, createReason, { body: { text: 'Off' }, as: A }),
      await inject(t.app, updateReason, { body: { reasonId: first!.reasonId, enabled: false }, as: A }),
    ]) {
      expect(res.statusCode, res.body).toBe(403);
      expect(res.code).toBe(-11);
    }
    expect(await stateOf(A.tenant.id)).toBe(before);
    // The list stays readable: the ceremony needs it whatever the admin menu shows.
    expect(await list(A)).toHaveLength(4);
  });
});

describe('the ceremony gets the enabled reasons in the ePak viewer', () => {
  it('the default first, disabled ones left out, for a member and a signing-link session alike', async () => {
    const A = await member('admin');
    const Owner = await member('custodian', A.tenant);
    const Signer = await member('signer', A.tenant);
    const [, agree, , witness] = await list(A);
    await change(A, { reasonId: agree!.reasonId, enabled: false });
    await change(A, { reasonId: witness!.reasonId, isDefault: true });

    const uploaded = await inject(t.app, uploadDocument, { as: Owner, file: { bytes: corpusPdf('plain-1p-pdftex.pdf'), name: 'plain.pdf' } });
    const doc = DocumentSummary.parse(uploaded.data);
    const states = (await inject(t.app, listWorkflowStates, { as: Owner })).data.states;
    const external = `outside-${randomUUID().slice(0, 8)}@elsewhere.test`;
    const composed = await inject(t.app, createEpak, {
      body: {
        subject: 'Reasons',
        documentIds: [doc.documentId],
        viewEnforced: false,
        steps: [{ workflowStateId: states.find((s) => s.type === 'SIGN')!.workflowStateId, recipients: [{ email: Signer.user.email }, { email: external }] }],
      },
      as: Owner,
    });
    expect(composed.statusCode, composed.body).toBe(200);
    const { ePakId } = EpakDetail.parse(composed.data);
    await placeSignatureFields(t, { owner: Owner, epak: EpakDetail.parse(composed.data) });
    expect((await inject(t.app, startEpak, { params: { ePakId }, as: Owner })).statusCode).toBe(200);

    const viewerOf = async (headers: Headers) => EpakDetail.parse((await inject(t.app, getEpak, { params: { ePakId }, headers })).data).viewer!;
    const expected = ['I sign as a witness', 'I approve this document', 'I am the author of this document'];
    expect((await viewerOf(Signer.headers)).reasons.map((r) => r.text)).toEqual(expected);

    const link = /\/emailsign\?token=([A-Za-z0-9_-]+)/.exec((await t.database.db.select().from(outbox).where(eq(outbox.recipient, external)))[0]!.body)![1]!;
    const exchanged = await inject(t.app, exchangeEasyToken, { params: { easytoken: link } });
    const linkHeaders = { authorization: `Bearer ${exchanged.data.accessToken}` };
    expect((await viewerOf(linkHeaders)).reasons.map((r) => r.text)).toEqual(expected);
    // The list endpoint itself is not a link session's: it reaches only its ePak.
    expect((await inject(t.app, listReasons, { headers: linkHeaders })).statusCode).toBe(403);
  });
});
