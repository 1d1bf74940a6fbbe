import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { downloadEpakDocument, signEpakDocument, type Tag, updateTenantSettings, verifyDocument, verifyQrData } from '@pakt/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tenantSettings } from '../../platform/db/schema';
import { buildAuditEpak } from '../../test/audit-support';
import { inject } from '../../test/inject';
import { run } from '../../test/signing-support';
import { buildTestApp, type TestApp } from '../../test/test-app';
import { signedInMember, startedEpak } from '../../test/app-factories';
import { changedPixels, renderPage } from '../../test/render-support';
import { buildCompletionCertificate } from '../epaks/certificate';
import { finalDocumentHashes } from '../epaks/verification-record';

/**
 * Issue 20: a certificate of completion carries the QR code of its ePak's public record, whose
 * address is written beside it; the record tells only what the tenant allows, and a token this
 * install did not make (or made for other documents) answers as if nothing were there.
 */
let t: TestApp;
let dir: string;
beforeAll(async () => {
  t = await buildTestApp();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pakt-record-'));
});
afterAll(async () => {
  await t.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const PUBLIC_URL = 'https://pakt.example';

/** A completed ePak and the record token its certificate's QR code carries (read from the certificate's text). */
async function certifiedEpak() {
  const epak = await buildAuditEpak({ db: t.database.db, storage: t.context.storage, vault: t.context.vault, documents: ['plain-1p-pdftex.pdf', 'mixed-sizes-openoffice.pdf'] });
  const certificate = await buildCompletionCertificate({ db: t.database.db, storage: t.context.storage, vault: t.context.vault, keyAlgorithm: 'ecdsa-p256', epakId: epak.epakId, now: new Date('2026-03-04T08:00:00Z'), publicUrl: PUBLIC_URL });
  const file = path.join(dir, `${epak.epakId}.pdf`);
  fs.writeFileSync(file, certificate);
  // The address is wrapped over lines beside the code: joined again, as a reader would type it.
  const text = run('pdftotext', ['-raw', file, '-']).stdout.replace(/\s+/g, ' ');
  const start = text.indexOf(`${PUBLIC_URL}/verify?record=`);
  expect(start, text.slice(0, 2000)).toBeGreaterThanOrEqual(0);
  const link = text.slice(start).replace(/ /g, '').match(/^https:\/\/pakt\.example\/verify\?record=[0-9a-f-]{36}\.[0-9a-f]{64}\.[A-Za-z0-9_-]{43}/)![0];
  const sig = run('pdfsig', [file]).stdout;
  expect(sig.match(/Signature Validation: Signature is Valid\./g)?.length, sig).toBe(1);
  return { epak, token: new URL(link).searchParams.get('record')! };
}

describe('the public record behind a certificate’s QR code', () => {
  it('gives the organisation, status, completion and each final document’s fingerprint, and no names by default', async () => {
    const { epak, token } = await certifiedEpak();
    const res = await inject(t.app, verifyQrData, { query: { data: token } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.data).toEqual({
      tenantName: epak.tenant.name,
      status: 'Completed',
      completedOn: '2026-03-03T16:30:00.000Z',
      documents: (await finalDocumentHashes(t.database.db, epak.epakId)).map((sha256) => ({ sha256 })),
      signerCount: 1,
      subject: null,
      signers: null,
    });
  });

  it('adds the subject and signers where the tenant allows it', async () => {
    const { epak, token } = await certifiedEpak();
    await t.database.db.insert(tenantSettings).values({ tenantId: epak.tenant.id, settings: { publicRecordShowsNames: true } });
    const res = await inject(t.app, verifyQrData, { query: { data: token } });
    expect(res.data).toMatchObject({ subject: 'Sale deed, plot 14', signers: ['Łukasz 王小明'] });
  });

  it('answers 404 for a token it did not make: another ePak, other documents, a changed code, or nonsense', async () => {
    const { token } = await certifiedEpak();
    const other = await certifiedEpak();
    const [epakId, digest, mac] = token.split('.');
    const [otherId, otherDigest] = other.token.split('.');
    const forged = [
      `${otherId}.${digest}.${mac}`,
      `${epakId}.${otherDigest}.${mac}`,
      `${epakId}.${digest}.${mac!.slice(0, -1)}${mac!.endsWith('A') ? 'B' : 'A'}`,
      `${epakId}.${digest}`,
      'not-a-token',
    ];
    for (const data of forged) {
      const res = await inject(t.app, verifyQrData, { query: { data } });
      expect(res.statusCode, data).toBe(404);
      expect(res.json(), data).toEqual({ code: -1, data: null, message: 'No such record.' });
    }
  });

  it('is also drawn as the stamp line of each document where the tenant asks, at its first signature', async () => {
    const superAdmin = await signedInMember(t, { role: 'super_admin' });
    const owner = await signedInMember(t, { role: 'custodian', tenant: superAdmin.tenant });
    const signer = await signedInMember(t, { role: 'signer', tenant: superAdmin.tenant });
    expect((await inject(t.app, updateTenantSettings, { as: superAdmin, body: { settings: { documentQrStamp: true } } })).statusCode).toBe(200);
    const tags = (): Tag[] => [
      { uuid: randomUUID(), type: 'signature', pageNumber: 1, positionX: 300, positionY: 300, blockWidth: 160, blockHeight: 50, userEmail: signer.user.email, wfsOrderId: 1 } as Tag,
      { uuid: randomUUID(), type: 'reason', pageNumber: 1, positionX: 300, positionY: 360, blockWidth: 200, blockHeight: 20, userEmail: signer.user.email, wfsOrderId: 1 } as Tag,
    ];
    const placed = tags();
    const { epak } = await startedEpak(t, { owner, steps: [{ type: 'SIGN', recipients: [signer] }], tags: (draft) => [{ documentId: draft.documents[0]!.documentId, tags: placed }] });
    const documentId = epak.documents[0]!.documentId;
    const before = await inject(t.app, downloadEpakDocument, { as: owner, params: { ePakId: epak.ePakId, documentId } });
    const signed = await inject(t.app, signEpakDocument, { as: signer, params: { ePakId: epak.ePakId, documentId }, body: { values: [{ uuid: placed[0]!.uuid, value: 'Sam Signer' }] } });
    expect(signed.statusCode, signed.body).toBe(200);
    const after = await inject(t.app, downloadEpakDocument, { as: owner, params: { ePakId: epak.ePakId, documentId } });
    const bytes = after.rawPayload;

    const file = path.join(dir, 'stamped.pdf');
    fs.writeFileSync(file, bytes);
    const sig = run('pdfsig', [file]).stdout;
    expect(sig.match(/Signature Validation: Signature is Valid\./g)?.length, sig).toBe(1);
    expect(run('qpdf', ['--check', file]).status).toBe(0);
    const text = run('pdftotext', ['-raw', file, '-']).stdout.replace(/\s+/g, '');
    const link = /verify\?record=([0-9a-f-]{36}\.[0-9a-f]{64}\.[A-Za-z0-9_-]{43})/.exec(text);
    expect(link, text.slice(0, 800)).not.toBeNull();
    const record = await inject(t.app, verifyQrData, { query: { data: link![1]! } });
    expect(record.statusCode, record.body).toBe(200);
    expect(record.data.documents).toEqual([{ sha256: (await finalDocumentHashes(t.database.db, epak.ePakId))[0]! }]);

    // Drawn where it says: ink in the lower left corner (the QR code and its address) and in the
    // signer's boxes, nowhere else; and the file still verifies.
    const { height, x, y } = epak.documents[0]!.pages[0]!;
    const boxes = [
      [x, y, x + 370, y + 70],
      [x + 300, y + height - 380, x + 500, y + height - 300],
    ] as const;
    const { changedIn, changedOutside } = changedPixels(renderPage(before.rawPayload, 1, dir, 'unstamped'), renderPage(bytes, 1, dir, 'stamped'), boxes);
    expect(changedOutside).toBe(0);
    expect(changedIn[0]).toBeGreaterThan(200);
    const checked = await inject(t.app, verifyDocument, { file: { bytes, name: 'stamped.pdf', type: 'application/pdf' } });
    expect(checked.data.verdict).toBe('valid');
  });
});
