import fs from 'node:fs';
import path from 'node:path';
import { downloadEpak, downloadEpakDocument } from '@pakt/domain';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminAuditLog, epakDocuments, outbox } from '../../platform/db/schema';
import { blobKey } from '../../platform/storage/file-storage';
import { signedInMember, startedEpak } from '../../test/app-factories';
import { inject } from '../../test/inject';
import { buildTestApp, type TestApp } from '../../test/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

describe('a stored document that no longer matches its recorded SHA-256', () => {
  it('is not served by either download, is recorded in the audit log and mailed to the admins once, and the refusal says why (-228)', async () => {
    const owner = await signedInMember(t);
    const admin = await signedInMember(t, { role: 'admin', tenant: owner.tenant });
    const { epak } = await startedEpak(t, { owner });
    const ePakId = epak.ePakId;
    const documentId = epak.documents[0]!.documentId;
    const one = () => inject(t.app, downloadEpakDocument, { as: owner, params: { ePakId, documentId } });
    const all = () => inject(t.app, downloadEpak, { as: owner, params: { ePakId } });

    const intact = await one();
    expect(intact.statusCode).toBe(200);
    expect((await all()).statusCode).toBe(200);

    // One byte flipped in the stored blob, behind Pakt's back.
    const [row] = await t.database.db.select({ sha256: epakDocuments.sha256, name: epakDocuments.name }).from(epakDocuments).where(eq(epakDocuments.id, documentId));
    const blob = path.join(t.context.config.filesDir, ...blobKey(row!.sha256).split('/'));
    const bytes = fs.readFileSync(blob);
    bytes[Math.floor(bytes.length / 2)]! ^= 0x01;
    fs.writeFileSync(blob, bytes);

    for (const download of [one, all, one]) {
      const refused = await download();
      expect(refused.statusCode, refused.body).toBe(500);
      expect(refused.json()).toMatchObject({ code: -228, message: expect.stringMatching(/does not match the fingerprint recorded when it was written, so it is not served/) });
      expect(refused.rawPayload.includes(Buffer.from('%PDF'))).toBe(false);
    }

    const recorded = await t.database.db
      .select()
      .from(adminAuditLog)
      .where(and(eq(adminAuditLog.tenantId, owner.tenant.id), eq(adminAuditLog.action, 'document_integrity_failed')));
    expect(recorded).toHaveLength(1);
    expect(recorded[0]).toMatchObject({ actorId: owner.user.id, targetType: 'document', targetId: documentId, targetLabel: row!.name, details: { epakId: ePakId, subject: epak.subject } });
    const mails = await t.database.db.select().from(outbox).where(eq(outbox.kind, 'document-integrity'));
    expect(mails.map((mail) => mail.recipient)).toEqual([admin.user.email]);
    expect(mails[0]!.body).toContain(row!.name);
  });
});
