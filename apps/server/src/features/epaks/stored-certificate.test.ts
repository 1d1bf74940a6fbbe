import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { and, eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { adminAuditLog, epakCertificates, epaks } from '../../platform/db/schema';
import { keyVault } from '../../platform/signing/key-vault';
import { blobKey, LocalFileStorage } from '../../platform/storage/file-storage';
import { type AuditEpak, buildAuditEpak, readZip } from '../../test/audit-support';
import { run } from '../../test/signing-support';
import { createTestDatabase, type TestDatabase } from '../../test/test-database';
import { prepareEpakDownload } from './download';
import { buildMissingCertificates, ensureCompletionCertificate } from './stored-certificate';

/**
 * Issue 20, defect 7: the certificate of completion is built and sealed once, after the ePak
 * ended, and every download serves those stored bytes (checked against their hash), instead of a
 * certificate sealed anew, with a new time, at each request.
 */
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
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The certificate in a download made at `now`. */
async function downloadedCertificate(epak: AuditEpak, now: Date): Promise<Buffer> {
  const result = await prepareEpakDownload({ db: database.db, storage, vault, keyAlgorithm: 'ecdsa-p256', actor: { tenantId: epak.tenant.id, userId: epak.owner.id }, epakId: epak.epakId, now });
  const entry = readZip(await buffer(result.stream)).find((e) => e.name === 'certificate-of-completion.pdf');
  if (!entry) throw new Error('the download has no certificate');
  return entry.data;
}

const storedRows = (epakId: string) => database.db.select().from(epakCertificates).where(eq(epakCertificates.epakId, epakId));

describe('the stored certificate of completion', () => {
  it('is sealed once: downloads a day apart get the same bytes, the stored ones', async () => {
    const epak = await buildAuditEpak({ db: database.db, storage, vault, documents: ['plain-1p-pdftex.pdf'] });
    const first = await downloadedCertificate(epak, new Date('2026-03-04T08:00:00Z'));
    const second = await downloadedCertificate(epak, new Date('2026-03-05T08:00:00Z'));
    expect(second.equals(first)).toBe(true);
    const rows = await storedRows(epak.epakId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ sha256: crypto.createHash('sha256').update(first).digest('hex'), size: first.length });
    // Sealed at the first build, and still valid as served.
    const file = path.join(dir, 'certificate.pdf');
    fs.writeFileSync(file, second);
    const sig = run('pdfsig', [file]).stdout;
    expect(sig.match(/Signature Validation: Signature is Valid\./g)?.length, sig).toBe(1);
    expect(run('pdftotext', [file, '-']).stdout).toContain('2026-03-04');
  });

  it('is built by the job for ePaks that ended lately, once, and not for one under way', async () => {
    const completed = await buildAuditEpak({ db: database.db, storage, vault, documents: ['plain-1p-pdftex.pdf'] });
    const rejected = await buildAuditEpak({ db: database.db, storage, vault, documents: ['plain-1p-pdftex.pdf'], status: 'Rejected' });
    const underWay = await buildAuditEpak({ db: database.db, storage, vault, documents: ['plain-1p-pdftex.pdf'], status: 'InProgress' });
    const now = new Date('2026-03-04T08:00:00Z');
    const built = await buildMissingCertificates({ db: database.db, storage, vault, keyAlgorithm: 'ecdsa-p256', now });
    expect(built.sort()).toEqual([completed.epakId, rejected.epakId].sort());
    expect(await storedRows(underWay.epakId)).toEqual([]);
    // Nothing is left to build: a second run seals nothing new.
    expect(await buildMissingCertificates({ db: database.db, storage, vault, keyAlgorithm: 'ecdsa-p256', now })).toEqual([]);
    // What the job stored is what the download serves.
    const [row] = await storedRows(completed.epakId);
    const served = await downloadedCertificate(completed, new Date('2026-03-09T08:00:00Z'));
    expect(crypto.createHash('sha256').update(served).digest('hex')).toBe(row!.sha256);
  });

  it('leaves an ePak that ended long ago to its first download', async () => {
    const epak = await buildAuditEpak({ db: database.db, storage, vault, documents: ['plain-1p-pdftex.pdf'] });
    const muchLater = new Date('2026-06-01T00:00:00Z');
    expect(await buildMissingCertificates({ db: database.db, storage, vault, keyAlgorithm: 'ecdsa-p256', now: muchLater })).toEqual([]);
    await downloadedCertificate(epak, muchLater);
    expect(await storedRows(epak.epakId)).toHaveLength(1);
  });

  it('has one winner when two builders race: both answer the row stored first', async () => {
    const epak = await buildAuditEpak({ db: database.db, storage, vault, documents: ['plain-1p-pdftex.pdf'] });
    const build = (at: string) => ensureCompletionCertificate({ db: database.db, storage, vault, keyAlgorithm: 'ecdsa-p256', epakId: epak.epakId, now: new Date(at) });
    const [a, b] = await Promise.all([build('2026-03-04T08:00:00Z'), build('2026-03-04T08:00:01Z')]);
    expect(a.row.sha256).toBe(b.row.sha256);
    expect(await storedRows(epak.epakId)).toHaveLength(1);
  });

  it('is refused (-228), logged and told to the admins when its stored bytes changed, and never rebuilt over', async () => {
    const epak = await buildAuditEpak({ db: database.db, storage, vault, documents: ['plain-1p-pdftex.pdf'] });
    await downloadedCertificate(epak, new Date('2026-03-04T08:00:00Z'));
    const [row] = await storedRows(epak.epakId);
    const file = path.join(dir, 'files', blobKey(row!.sha256));
    const bytes = fs.readFileSync(file);
    bytes[Math.floor(bytes.length / 2)]! ^= 0x01;
    fs.chmodSync(file, 0o644);
    fs.writeFileSync(file, bytes);

    await expect(downloadedCertificate(epak, new Date('2026-03-05T08:00:00Z'))).rejects.toMatchObject({ code: -228 });
    const logged = await database.db
      .select()
      .from(adminAuditLog)
      .where(and(eq(adminAuditLog.tenantId, epak.tenant.id), eq(adminAuditLog.action, 'document_integrity_failed')));
    expect(logged.map((entry) => [entry.targetId, entry.targetLabel])).toEqual([[epak.epakId, 'certificate-of-completion.pdf']]);
    // The stored row still names the certificate that was sealed: a damaged file is not replaced.
    expect(await storedRows(epak.epakId)).toEqual([row]);
    // The ePak itself is untouched.
    const [after] = await database.db.select({ status: epaks.status }).from(epaks).where(eq(epaks.id, epak.epakId));
    expect(after!.status).toBe('Completed');
  });
});
