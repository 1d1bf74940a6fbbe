import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { DomainError } from '@pakt/domain';
import { asc, eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { epakDocuments, epaks } from '../../platform/db/schema';
import { keyVault } from '../../platform/signing/key-vault';
import { run } from '../../test/signing-support';
import { LocalFileStorage } from '../../platform/storage/file-storage';
import { makeMember } from '../../test/factories';
import { createTestDatabase, type TestDatabase } from '../../test/test-database';
import { type AuditEpak, buildAuditEpak, readZip } from '../../test/audit-support';
import { pdfFileName, prepareEpakDownload, uniqueNames } from './download';
import { readCurrentDocument, revisionsOf } from './revisions';

let database: TestDatabase;
let dir: string;
let storage: LocalFileStorage;
const vault = keyVault(crypto.randomBytes(32));
const now = new Date('2026-03-04T08:00:00Z');

beforeEach(async () => {
  database = await createTestDatabase();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pakt-download-'));
  storage = new LocalFileStorage(path.join(dir, 'files'));
});
afterEach(async () => {
  await database.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const download = (epak: AuditEpak, userId = epak.owner.id) =>
  prepareEpakDownload({ db: database.db, storage, vault, keyAlgorithm: 'ecdsa-p256', actor: { tenantId: epak.tenant.id, userId }, epakId: epak.epakId, now });

/** Each document's current file, in ePak order. */
async function currentFiles(epakId: string) {
  const docs = await database.db.select().from(epakDocuments).where(eq(epakDocuments.epakId, epakId)).orderBy(asc(epakDocuments.position));
  return Promise.all(docs.map(async (doc) => ({ doc, bytes: await readCurrentDocument(storage, doc, await revisionsOf(database.db, doc.id)) })));
}

describe('downloading an ePak', () => {
  it('zips every current PDF under unique names with the sealed certificate once completed', async () => {
    const epak = await buildAuditEpak({ db: database.db, storage, vault, documents: ['plain-1p-pdftex.pdf', 'plain-1p-pdftex.pdf', 'mixed-sizes-openoffice.pdf'] });
    const result = await download(epak);
    expect(result).toMatchObject({ contentType: 'application/zip', fileName: 'Sale deed, plot 14.zip' });
    const zip = await readAll(result.stream);
    expect(zip.length).toBe(result.size);
    const entries = readZip(zip);
    expect(entries.map((e) => [e.name, e.method])).toEqual([
      ['plain-1p-pdftex.pdf', 0],
      ['plain-1p-pdftex (2).pdf', 0],
      ['mixed-sizes-openoffice.pdf', 0],
      ['certificate-of-completion.pdf', 0],
    ]);
    const files = await currentFiles(epak.epakId);
    // The first document carries the signer's revision: the current file, not the composed one.
    expect(files[0]!.bytes.length).toBeGreaterThan(files[0]!.doc.size);
    for (const [index, file] of files.entries()) expect(entries[index]!.data.equals(file.bytes), file.doc.name).toBe(true);
    expect(entries[0]!.data.equals(entries[1]!.data)).toBe(false);

    const certificate = path.join(dir, 'certificate.pdf');
    fs.writeFileSync(certificate, entries[3]!.data);
    const sig = run('pdfsig', [certificate]).stdout;
    expect(sig.match(/Signature Validation: Signature is Valid\./g)?.length, sig).toBe(1);
    expect(run('pdftotext', [certificate, '-']).stdout).toContain('Sale deed, plot 14');
  });

  it('gives the one document of an ePak under way as its current PDF, and the same to a recipient', async () => {
    const epak = await buildAuditEpak({ db: database.db, storage, vault, documents: ['mixed-sizes-openoffice.pdf'], status: 'InProgress' });
    const [file] = await currentFiles(epak.epakId);
    for (const userId of [epak.owner.id, epak.reviewer.id]) {
      const result = await download(epak, userId);
      expect(result).toMatchObject({ contentType: 'application/pdf', fileName: 'mixed-sizes-openoffice.pdf', size: file!.bytes.length });
      expect((await readAll(result.stream)).equals(file!.bytes)).toBe(true);
    }
  });

  it('zips several documents of an ePak under way without a certificate', async () => {
    const epak = await buildAuditEpak({ db: database.db, storage, vault, documents: ['plain-1p-pdftex.pdf', 'mixed-sizes-openoffice.pdf'], status: 'InProgress' });
    const result = await download(epak, epak.reviewer.id);
    const entries = readZip(await readAll(result.stream));
    expect(entries.map((e) => e.name)).toEqual(['plain-1p-pdftex.pdf', 'mixed-sizes-openoffice.pdf']);
  });

  it('adds the certificate to an ended ePak of several documents that did not complete', async () => {
    const epak = await buildAuditEpak({ db: database.db, storage, vault, documents: ['plain-1p-pdftex.pdf', 'mixed-sizes-openoffice.pdf'], status: 'Rejected' });
    const entries = readZip(await readAll((await download(epak)).stream));
    expect(entries.map((e) => e.name)).toEqual(['plain-1p-pdftex.pdf', 'mixed-sizes-openoffice.pdf', 'certificate-of-completion.pdf']);
    expect(run('pdftotext', ['-', '-'], entries[2]!.data).stdout).toContain('Wrong plot number');
  });

  it('tells anyone else, and everyone of another tenant, that the ePak does not exist', async () => {
    const epak = await buildAuditEpak({ db: database.db, storage, vault, documents: ['plain-1p-pdftex.pdf'] });
    const colleague = await makeMember(database.db, { role: 'custodian', tenant: epak.tenant });
    await expect(download(epak, colleague.user.id)).rejects.toThrow(DomainError);
    await expect(download(epak, colleague.user.id)).rejects.toMatchObject({ code: -1 });
    await expect(
      prepareEpakDownload({ db: database.db, storage, vault, actor: { tenantId: colleague.tenant.id, userId: epak.owner.id }, epakId: crypto.randomUUID(), now }),
    ).rejects.toMatchObject({ code: -1 });
    // A draft is its owner's alone.
    await database.db.update(epaks).set({ status: 'Draft' }).where(eq(epaks.id, epak.epakId));
    await expect(download(epak, epak.reviewer.id)).rejects.toMatchObject({ code: -1 });
  });

  it('refuses the download before a byte goes out (-228), not with a cut stream, when a stored file is missing', async () => {
    const epak = await buildAuditEpak({ db: database.db, storage, vault, documents: ['plain-1p-pdftex.pdf', 'mixed-sizes-openoffice.pdf'], status: 'InProgress' });
    const [, second] = await currentFiles(epak.epakId);
    await storage.delete(second!.doc.sha256);
    await expect(download(epak)).rejects.toMatchObject({ code: -228 });
  });
});

describe('file names in a download', () => {
  it('keeps names safe and distinct', () => {
    expect(pdfFileName('../etc/passwd')).toBe('_etc_passwd.pdf');
    expect(pdfFileName('Contract.docx')).toBe('Contract.pdf');
    expect(pdfFileName('Vertrag für Müller.PDF')).toBe('Vertrag für Müller.pdf');
    expect(pdfFileName('   ')).toBe('document.pdf');
    expect(uniqueNames(['a.pdf', 'A.pdf', 'a.pdf', 'certificate-of-completion.pdf'], ['certificate-of-completion.pdf'])).toEqual([
      'a.pdf',
      'A (2).pdf',
      'a (3).pdf',
      'certificate-of-completion (2).pdf',
    ]);
  });
});
