import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { epakActivities } from '../../platform/db/schema';
import { keyVault } from '../../platform/signing/key-vault';
import { run } from '../../test/signing-support';
import { LocalFileStorage } from '../../platform/storage/file-storage';
import { createTestDatabase, type TestDatabase } from '../../test/test-database';
import { loadActivity } from './activity';
import { buildAuditEpak } from '../../test/audit-support';
import { buildCompletionCertificate, formatUtc, toWinAnsi } from './certificate';

let database: TestDatabase;
let dir: string;
let storage: LocalFileStorage;
const vault = keyVault(crypto.randomBytes(32));

beforeEach(async () => {
  database = await createTestDatabase();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pakt-certificate-'));
  storage = new LocalFileStorage(path.join(dir, 'files'));
});
afterEach(async () => {
  await database.close();
  // KEEP_CERTIFICATE=1 leaves the PDFs and page images behind to look at.
  if (!process.env.KEEP_CERTIFICATE) fs.rmSync(dir, { recursive: true, force: true });
  else console.log(`certificate files kept in ${dir}`);
});

function judge(bytes: Buffer, name: string) {
  const file = path.join(dir, name);
  fs.writeFileSync(file, bytes);
  const sig = run('pdfsig', [file]);
  const qpdf = run('qpdf', ['--check', file]);
  const text = run('pdftotext', ['-layout', file, '-']).stdout;
  const pages = Number(/Pages:\s+(\d+)/.exec(run('pdfinfo', [file]).stdout)?.[1]);
  return {
    file,
    signatures: (sig.stdout.match(/^Signature #\d+:/gm) ?? []).length,
    valid: (sig.stdout.match(/Signature Validation: Signature is Valid\./g) ?? []).length,
    sig: sig.stdout,
    qpdf,
    text,
    pages,
  };
}

describe('the certificate of completion', () => {
  it('lists the ePak, its documents, recipients and every activity hash, over several pages, sealed valid by the tenant', async () => {
    const epak = await buildAuditEpak({ db: database.db, storage, vault, documents: ['plain-1p-pdftex.pdf', 'mixed-sizes-openoffice.pdf'], extraEntries: 70 });
    const now = new Date('2026-03-04T08:00:00Z');
    const pdf = await buildCompletionCertificate({ db: database.db, storage, vault, keyAlgorithm: 'ecdsa-p256', epakId: epak.epakId, now });
    const result = judge(pdf, 'certificate.pdf');

    expect([result.signatures, result.valid], result.sig).toEqual([1, 1]);
    expect(result.sig).toContain('Signature Type: ETSI.CAdES.detached');
    expect(result.qpdf.status, `${result.qpdf.stdout}${result.qpdf.stderr}`).toBe(0);
    expect(result.pages).toBeGreaterThanOrEqual(3);

    const text = result.text;
    expect(text).toContain('Certificate of Completion');
    expect(text).toContain('Sale deed, plot 14');
    expect(text).toContain(epak.epakId);
    expect(text).toContain('Activity chain verified: 75 entries');
    expect(text).toMatch(/Sealed by Tenant \S+ — Pakt/);
    // Names outside WinAnsi: transliterated where possible, "?" otherwise.
    expect(text).toContain('Lukasz ???');
    expect(text).toContain('Renée Müller');
    const entries = await loadActivity(database.db, epak.epakId);
    expect(entries).toHaveLength(75);
    for (const entry of entries) expect(text).toContain(entry.hash!);
    expect(text).toContain(formatUtc(entries[0]!.at).replace(' UTC', ''));
    // The signed document: as composed and as it is now.
    const signed = entries.find((e) => e.action === 'documentSigned')!.details as { before: string; after: string };
    expect(text).toContain(signed.before);
    expect(text).toContain(signed.after);
    expect(text).toContain('203.0.113.99');

    // A page to look at (KEEP_CERTIFICATE=1 keeps it).
    expect(run('pdftoppm', ['-png', '-r', '60', '-f', '1', '-l', '1', result.file, path.join(dir, 'page')]).status).toBe(0);
    expect(run('pdftoppm', ['-png', '-r', '60', '-f', String(result.pages), '-l', String(result.pages), result.file, path.join(dir, 'last')]).status).toBe(0);
  });

  it('says so when the log was changed, and is still sealed', async () => {
    const epak = await buildAuditEpak({ db: database.db, storage, vault, documents: ['plain-1p-pdftex.pdf'], status: 'Rejected' });
    await database.db.update(epakActivities).set({ details: { comment: 'Looks fine' } }).where(eq(epakActivities.action, 'rejected'));
    const pdf = await buildCompletionCertificate({ db: database.db, storage, vault, keyAlgorithm: 'ecdsa-p256', epakId: epak.epakId, now: new Date() });
    const result = judge(pdf, 'broken.pdf');
    expect(result.valid, result.sig).toBe(1);
    expect(result.text).toContain('Activity chain BROKEN at entry #4');
    expect(result.pages).toBe(1);
  });
});

describe('WinAnsi text', () => {
  it('keeps what Helvetica can draw, drops accents it cannot, and shows "?" for the rest', () => {
    expect(toWinAnsi('Renée Müller — €5')).toBe('Renée Müller — €5');
    expect(toWinAnsi('Łukasz Dvořák')).toBe('Lukasz Dvorák');
    expect(toWinAnsi('王小明\nok')).toBe('??? ok');
  });
});
