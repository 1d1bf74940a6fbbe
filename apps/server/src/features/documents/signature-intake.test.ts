import { getEpak, listDocuments, updateTenantSettings, uploadDocument } from '@pakt/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documents } from '../../platform/db/schema';
import { composedEpak, signedInMember, uploadedDocument } from '../../test/app-factories';
import { corpusPdf } from '../../test/corpus';
import { inject } from '../../test/inject';
import { buildTestApp, type TestApp } from '../../test/test-app';

/**
 * Issue 20, defect 5: a PDF's own signatures are checked when it is uploaded. The upload answer
 * says what they were, the ePak's documents keep it for the ceremony, and a tenant that asks
 * refuses a file whose signatures do not hold, storing nothing.
 */
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

/** signed-pades-b.pdf with one byte of its header's binary comment changed: still a PDF, its signature broken. */
function tampered(): Buffer {
  const bytes = Buffer.from(corpusPdf('signed-pades-b.pdf'));
  bytes[11]! ^= 0x01;
  return bytes;
}

describe('the signatures of an uploaded file', () => {
  it('are reported in the upload answer and the document list: intact, broken, or none', async () => {
    const owner = await signedInMember(t);
    const signed = await uploadedDocument(t, { owner, file: 'signed-pkcs7-2sigs.pdf' });
    expect(signed.signatureState?.status).toBe('intact');
    expect(signed.signatureState?.signatures.map((s) => [s.signerName, s.integrity])).toEqual([
      ['signpdf', 'intact'],
      ['SignPdf', 'intact'],
    ]);
    const broken = await uploadedDocument(t, { owner, bytes: tampered(), name: 'tampered.pdf' });
    expect(broken.signatureState).toMatchObject({ status: 'broken', signatures: [{ integrity: 'broken', problem: 'the signed bytes were changed after signing' }] });
    const plain = await uploadedDocument(t, { owner });
    expect(plain.signatureState).toEqual({ status: 'unsigned', signatures: [] });

    const listed = await inject(t.app, listDocuments, { as: owner, query: { page: 1 } });
    expect(Object.fromEntries(listed.data.documents.map((d) => [d.name, d.signatureState?.status]))).toEqual({
      'signed-pkcs7-2sigs.pdf': 'intact',
      'tampered.pdf': 'broken',
      'plain-1p-pdftex.pdf': 'unsigned',
    });
  });

  it('go with the document into an ePak, for its signers to be told', async () => {
    const owner = await signedInMember(t);
    const broken = await uploadedDocument(t, { owner, bytes: tampered(), name: 'tampered.pdf' });
    const { epak } = await composedEpak(t, { owner, documents: [broken] });
    const detail = await inject(t.app, getEpak, { as: owner, params: { ePakId: epak.ePakId } });
    expect(detail.data.documents[0]!.signatureState?.status).toBe('broken');
  });

  it('are refused with the reason when the tenant asks, storing nothing; a sound signed file still goes in', async () => {
    const superAdmin = await signedInMember(t, { role: 'super_admin' });
    const owner = await signedInMember(t, { role: 'custodian', tenant: superAdmin.tenant });
    const saved = await inject(t.app, updateTenantSettings, { as: superAdmin, body: { settings: { refuseDoubtfulSignatures: true } } });
    expect(saved.statusCode, saved.body).toBe(200);

    const refused = await inject(t.app, uploadDocument, { as: owner, file: { bytes: tampered(), name: 'tampered.pdf' } });
    expect(refused.statusCode).toBe(422);
    expect(refused.code).toBe(-59);
    expect(refused.json().message).toContain('one of its signatures does not hold');
    expect(await t.database.db.select().from(documents).where(eq(documents.ownerId, owner.user.id))).toEqual([]);

    const sound = await uploadedDocument(t, { owner, file: 'signed-pades-b.pdf' });
    expect(sound.signatureState?.status).toBe('intact');
  });
});
