import fs from 'node:fs';
import path from 'node:path';
import { downloadEpak, EpakActivity, exchangeEasyToken, getEpakActivity } from '@pakt/domain';
import { and, asc, eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import type { Db } from '../../platform/db/database';
import { epakActivities, epakDocuments, epakRecipients } from '../../platform/db/schema';
import { type AuditEpak, buildAuditEpak, CORPUS, readZip } from '../../test/audit-support';
import { createSigningLink } from './notify';
import { readCurrentDocument, revisionsOf } from './revisions';
import { GOOD_PASSWORD, makeMember } from '../../test/factories';
import { bearer, signIn } from '../../test/sign-in';
import { buildTestApp, type TestApp } from '../../test/test-app';
import { inject } from '../../test/inject';

let t: TestApp;
afterEach(() => t.close());

async function headersOf(email: string, tenantId: string) {
  return { ...bearer(await signIn(t.app, email, GOOD_PASSWORD)), 'x-tenant-id': tenantId };
}

function auditEpak(options: Partial<Parameters<typeof buildAuditEpak>[0]> = {}) {
  return buildAuditEpak({ db: t.database.db, storage: t.context.storage, vault: t.context.vault, documents: ['plain-1p-pdftex.pdf', 'mixed-sizes-openoffice.pdf'], ...options });
}

const activity = (epak: AuditEpak, headers: Record<string, string>) => inject(t.app, getEpakActivity, { params: { ePakId: epak.epakId }, headers });
const download = (epak: AuditEpak, headers: Record<string, string>) => inject(t.app, downloadEpak, { params: { ePakId: epak.epakId }, headers });

describe('GET …/activity', () => {
  it('shows the chained log to the owner (with addresses) and to a recipient (without), and nobody else', async () => {
    t = await buildTestApp();
    const epak = await auditEpak();
    const owner = await headersOf(epak.owner.email, epak.tenant.id);
    const res = await activity(epak, owner);
    expect(res.statusCode, res.body).toBe(200);
    const log = EpakActivity.parse(res.data);
    expect(log.chainValid).toBe(true);
    expect(log.entries.map((e) => e.action)).toEqual(['composed', 'started', 'reviewed', 'documentSigned', 'signed']);
    expect(log.entries.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(log.entries[0]!.prevHash).toBe('0'.repeat(64));
    for (let i = 1; i < log.entries.length; i++) expect(log.entries[i]!.prevHash).toBe(log.entries[i - 1]!.hash);
    expect(log.entries[0]!.actor).toEqual({ userId: epak.owner.id, name: 'Olivia Owner', email: epak.owner.email });
    expect(log.entries.map((e) => e.ip)).toEqual([null, '198.51.100.10', '203.0.113.21', '203.0.113.99', '203.0.113.99']);
    const signed = log.entries[3]!;
    expect(signed.details).toEqual({
      reason: 'I agree',
      documents: [{ documentId: epak.documentIds[0], name: 'plain-1p-pdftex.pdf', before: expect.stringMatching(/^[0-9a-f]{64}$/), after: expect.stringMatching(/^[0-9a-f]{64}$/) }],
    });
    expect(log.entries[4]!.details).toEqual({ status: 'Completed' });
    // Nothing internal: no recipient ids, no engine effects.
    expect(res.body).not.toContain('recipientId');
    expect(res.body).not.toContain('effects');

    const reviewer = await headersOf(epak.reviewer.email, epak.tenant.id);
    const asReviewer = EpakActivity.parse((await activity(epak, reviewer)).data);
    expect(asReviewer.entries.map((e) => e.ip)).toEqual([null, null, null, null, null]);
    expect(asReviewer.entries.map((e) => e.hash)).toEqual(log.entries.map((e) => e.hash));

    const colleague = await makeMember(t.database.db, { role: 'admin', tenant: epak.tenant });
    const outsider = await activity(epak, await headersOf(colleague.user.email, epak.tenant.id));
    expect(outsider.statusCode).toBe(404);
    expect(outsider.code).toBe(-1);
  });

  it('reports a chain that no longer verifies', async () => {
    t = await buildTestApp();
    const epak = await auditEpak({ status: 'Rejected' });
    await t.database.db
      .update(epakActivities)
      .set({ details: { comment: 'Fine by me' } })
      .where(and(eq(epakActivities.epakId, epak.epakId), eq(epakActivities.action, 'rejected')));
    const res = await activity(epak, await headersOf(epak.owner.email, epak.tenant.id));
    const log = EpakActivity.parse(res.data);
    expect(log.chainValid).toBe(false);
    expect(log.entries.at(-1)!.details).toEqual({ comment: 'Fine by me' });
  });
});

describe('GET …/download', () => {
  it('streams the zip with its length and name, each PDF as it is now plus the certificate', async () => {
    t = await buildTestApp();
    const epak = await auditEpak();
    const res = await download(epak, await headersOf(epak.reviewer.email, epak.tenant.id));
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toContain('filename="Sale deed, plot 14.zip"');
    expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
    const entries = readZip(res.rawPayload);
    expect(entries.map((e) => e.name)).toEqual(['plain-1p-pdftex.pdf', 'mixed-sizes-openoffice.pdf', 'certificate-of-completion.pdf']);
    const db = t.database.db as Db;
    const docs = await db.select().from(epakDocuments).where(eq(epakDocuments.epakId, epak.epakId)).orderBy(asc(epakDocuments.position));
    for (const [index, doc] of docs.entries()) {
      const current = await readCurrentDocument(t.context.storage, doc, await revisionsOf(db, doc.id));
      expect(entries[index]!.data.equals(current), doc.name).toBe(true);
    }
    expect(entries[2]!.data.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('gives a single document under way as a PDF, to a signing-link session too, which cannot read the activity', async () => {
    t = await buildTestApp();
    const epak = await auditEpak({ documents: ['mixed-sizes-openoffice.pdf'], status: 'InProgress' });
    const [signerPlace] = await t.database.db.select().from(epakRecipients).where(and(eq(epakRecipients.epakId, epak.epakId), eq(epakRecipients.userId, epak.signer.id)));
    const link = await createSigningLink(t.database.db, { epakId: epak.epakId, recipientId: signerPlace!.id, publicUrl: 'http://localhost', linkDays: 7 });
    const token = new URL(link).searchParams.get('token')!;
    const exchanged = await inject(t.app, exchangeEasyToken, { params: { easytoken: token } });
    expect(exchanged.statusCode, exchanged.body).toBe(200);
    const linkHeaders = { authorization: `Bearer ${exchanged.data.accessToken}` };

    const res = await download(epak, linkHeaders);
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toContain('filename="mixed-sizes-openoffice.pdf"');
    const original = fs.readFileSync(path.join(CORPUS, 'mixed-sizes-openoffice.pdf'));
    expect(res.rawPayload.equals(original)).toBe(true);

    expect((await activity(epak, linkHeaders)).statusCode).toBe(403);
  });

  it('tells a member who is neither owner nor recipient that the ePak does not exist', async () => {
    t = await buildTestApp();
    const epak = await auditEpak();
    const colleague = await makeMember(t.database.db, { role: 'custodian', tenant: epak.tenant });
    const res = await download(epak, await headersOf(colleague.user.email, epak.tenant.id));
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: -1 });
  });
});
