import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { verifyDocument, verifyDocumentReport } from '@pakt/domain';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documents, epakDocuments } from '../../platform/db/schema';
import { buildAuditEpak } from '../../test/audit-support';
import { corpusPdf } from '../../test/corpus';
import { inject } from '../../test/inject';
import { run } from '../../test/signing-support';
import { buildTestApp, type TestApp } from '../../test/test-app';
import { readCurrentDocument, revisionsOf } from '../epaks/revisions';

/**
 * Issue 20: /verify's endpoint, called by a stranger with no session. It reads the file in the
 * sandbox child, says who vouches for each certificate, and recognises a Pakt document of this
 * install by its hash; it stores nothing.
 */
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const verify = (bytes: Buffer, name = 'contract.pdf') => inject(t.app, verifyDocument, { file: { bytes, name, type: 'application/pdf' } });

describe('verifying a file anyone drops', () => {
  it('recognises a completed Pakt document: its seal vouched for by the tenant, its record, its log', async () => {
    const epak = await buildAuditEpak({ db: t.database.db, storage: t.context.storage, vault: t.context.vault, documents: ['plain-1p-pdftex.pdf'] });
    const [doc] = await t.database.db.select().from(epakDocuments).where(eq(epakDocuments.epakId, epak.epakId));
    const current = await readCurrentDocument(t.context.storage, doc!, await revisionsOf(t.database.db, doc!.id));

    const res = await verify(current, 'sale-deed.pdf');
    expect(res.statusCode, res.body).toBe(200);
    const report = res.data;
    expect(report).toMatchObject({ fileName: 'sale-deed.pdf', size: current.length, verdict: 'valid', warnings: [] });
    expect(report.signatures).toHaveLength(1);
    expect(report.signatures[0]).toMatchObject({ integrity: 'intact', coversWholeFile: true, anchor: 'thisInstall', anchorTenant: epak.tenant.name, revision: 2 });
    expect(report.signatures[0]!.issuer).toContain(epak.tenant.name);
    expect(report.pakt).toEqual({
      tenantName: epak.tenant.name,
      subject: 'Sale deed, plot 14',
      status: 'Completed',
      completedOn: '2026-03-03T16:30:00.000Z',
      signers: ['Łukasz 王小明'],
      matches: 'current',
      auditChainValid: true,
    });

    // The file as composed is the same ePak's, an earlier version of it.
    const original = corpusPdf('plain-1p-pdftex.pdf');
    expect((await verify(original)).data.pakt).toMatchObject({ matches: 'earlier', subject: 'Sale deed, plot 14' });
  });

  it('reads someone else’s signature as intact but vouched for by nobody here, and no Pakt record', async () => {
    const res = await verify(corpusPdf('signed-pkcs7-2sigs.pdf'));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.data.verdict).toBe('valid');
    expect(res.data.signatures.map((s) => [s.signerName, s.anchor])).toEqual([
      ['signpdf', 'other'],
      ['SignPdf', 'other'],
    ]);
    expect(res.data.revisions.map((r) => r.signedBy)).toEqual([null, res.data.signatures[0]!.fieldName, res.data.signatures[1]!.fieldName]);
    expect(res.data.pakt).toBeNull();
  });

  it('calls a file invalid when a signed byte was changed', async () => {
    const bytes = Buffer.from(corpusPdf('signed-pades-b.pdf'));
    bytes[11]! ^= 0x01;
    const res = await verify(bytes);
    expect(res.data.verdict).toBe('invalid');
    expect(res.data.signatures[0]).toMatchObject({ integrity: 'broken', problem: 'the signed bytes were changed after signing' });
  });

  it('says an unsigned file is unsigned', async () => {
    expect((await verify(corpusPdf('plain-1p-pdftex.pdf'))).data).toMatchObject({ verdict: 'unsigned', signatures: [] });
  });

  it('refuses what is not a PDF (-59) and keeps nothing of any file', async () => {
    const before = await t.database.db.select({ n: count() }).from(documents);
    const res = await verify(Buffer.from('just some text, not a PDF'), 'notes.pdf');
    expect(res.statusCode).toBe(422);
    expect(res.code).toBe(-59);
    expect(res.json().message).toContain('This is not a PDF');
    expect(await t.database.db.select({ n: count() }).from(documents)).toEqual(before);
    // The scratch copies are gone.
    const work = path.join(t.context.config.dataDir, 'work');
    expect(fs.existsSync(work) ? fs.readdirSync(work) : []).toEqual([]);
  });

  it('answers the report as a PDF sealed by the install, which verifies as the install’s own', async () => {
    const res = await inject(t.app, verifyDocumentReport, { file: { bytes: corpusPdf('signed-pkcs7-2sigs.pdf'), name: 'two signatures.pdf', type: 'application/pdf' } });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(res.headers['content-type']).toContain('application/pdf');
    expect(res.headers['content-disposition']).toContain('two signatures - verification report.pdf');
    const report = res.rawPayload;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pakt-report-'));
    try {
      const file = path.join(dir, 'report.pdf');
      fs.writeFileSync(file, report);
      const sig = run('pdfsig', [file]).stdout;
      expect(sig.match(/Signature Validation: Signature is Valid\./g)?.length, sig).toBe(1);
      const text = run('pdftotext', [file, '-']).stdout;
      expect(text).toContain('Verification report');
      expect(text).toContain('Valid: every signature is intact');
      expect(text).toContain('signpdf');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    // Dropped on /verify in turn, the report is vouched for by this install's own service.
    const checked = await verify(report, 'report.pdf');
    expect(checked.data.verdict).toBe('valid');
    expect(checked.data.signatures[0]).toMatchObject({ integrity: 'intact', anchor: 'thisInstall', anchorTenant: 'Pakt verification service' });
  });
});
