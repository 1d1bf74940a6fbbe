/**
 * For the audit tests only (activity, certificate, download): an ePak built straight in the
 * database, as the workflow would have left it — documents stored, a signer's real sealed
 * revision on the first one, recipients with their statuses and a hash-chained activity log;
 * and a small zip reader to say what a download holds.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { eq } from 'drizzle-orm';
import type { Db } from '../platform/db/database';
import { epakDocumentRevisions, epakDocuments, epakRecipients, epaks, epakSteps } from '../platform/db/schema';
import { openPdfFile } from '../platform/pdf/pdf-file';
import { textAppearance } from '../platform/sealing/appearance';
import { sealRevision } from '../platform/sealing/seal';
import { maxCmsSize, signDigest } from '../platform/signing/cms';
import type { KeyVault } from '../platform/signing/key-vault';
import { ensureTenantSeal } from '../platform/signing/tenant-seal';
import type { FileStorage } from '../platform/storage/file-storage';
import { makeMember, makeUser } from './factories';
import { type EpakActivityAction, recordEpakActivity } from '../features/epaks/activity';
import { CORPUS } from './corpus';
export { CORPUS };

export interface AuditEpak {
  epakId: string;
  tenant: { id: string; name: string };
  owner: { id: string; email: string };
  reviewer: { id: string; email: string };
  signer: { id: string; email: string };
  documentIds: string[];
}

async function storeBytes(storage: FileStorage, bytes: Buffer) {
  return storage.put(Readable.from([bytes]));
}

/**
 * `documents` are corpus file names (the same one twice gives two documents of one name).
 * `extraEntries` adds that many 'viewed' entries to make the log long.
 */
export async function buildAuditEpak(options: {
  db: Db;
  storage: FileStorage;
  vault: KeyVault;
  documents: string[];
  status?: 'InProgress' | 'Completed' | 'Rejected';
  extraEntries?: number;
  subject?: string;
  tenant?: { id: string; name: string };
  owner?: { id: string; email: string };
}): Promise<AuditEpak> {
  const { db, storage, vault } = options;
  const status = options.status ?? 'Completed';
  const made = options.owner && options.tenant ? { tenant: options.tenant, user: options.owner } : await makeMember(db, { role: 'custodian', user: { firstName: 'Olivia', lastName: 'Owner' } });
  const tenant = made.tenant as { id: string; name: string };
  const owner = made.user;
  const reviewer = (await makeMember(db, { role: 'custodian', tenant, user: { firstName: 'Renée', lastName: 'Müller' } })).user;
  const signer = await makeUser(db, { firstName: 'Łukasz', lastName: '王小明' });
  const start = new Date('2026-03-02T09:00:00Z');
  const [epak] = await db
    .insert(epaks)
    .values({
      tenantId: tenant.id,
      ownerId: owner.id,
      subject: options.subject ?? 'Sale deed, plot 14',
      signingPolicy: 'ESIGNATURE',
      status,
      createdAt: new Date('2026-03-01T17:45:00Z'),
      startedAt: start,
      endedAt: status === 'InProgress' ? null : new Date('2026-03-03T16:30:00Z'),
      currentStep: status === 'InProgress' ? 2 : null,
    })
    .returning();
  const epakId = epak!.id;
  const documentIds: string[] = [];
  const documentRows: (typeof epakDocuments.$inferSelect)[] = [];
  for (const [position, name] of options.documents.entries()) {
    const bytes = fs.readFileSync(`${CORPUS}${name}`);
    const stored = await storeBytes(storage, bytes);
    const pages = openPdfFile(bytes).pages();
    const [row] = await db
      .insert(epakDocuments)
      .values({ epakId, position: position + 1, name, sha256: stored.sha256, size: stored.size, pageCount: pages.length, pages: [] })
      .returning();
    documentIds.push(row!.id);
    documentRows.push(row!);
  }
  const [review] = await db.insert(epakSteps).values({ epakId, position: 1, workflowStateId: crypto.randomUUID(), name: 'Legal review', type: 'REVIEW' }).returning();
  const [sign] = await db.insert(epakSteps).values({ epakId, position: 2, workflowStateId: crypto.randomUUID(), name: 'SIGN', type: 'SIGN' }).returning();
  const signed = status !== 'InProgress';
  const [reviewerPlace] = await db
    .insert(epakRecipients)
    .values({ epakId, stepId: review!.id, userId: reviewer.id, position: 1, status: 'Reviewed', actedAt: new Date('2026-03-02T10:15:00Z') })
    .returning();
  const [signerPlace] = await db
    .insert(epakRecipients)
    .values({
      epakId,
      stepId: sign!.id,
      userId: signer.id,
      position: 1,
      status: status === 'Rejected' ? 'Rejected' : signed ? 'Signed' : 'Pending',
      actedAt: signed ? new Date('2026-03-03T16:30:00Z') : null,
    })
    .returning();

  const entries: { actorId: string | null; action: EpakActivityAction; details?: Record<string, unknown>; ip?: string | null }[] = [
    { actorId: owner.id, action: 'composed', details: { documents: documentIds.length, steps: 2 } },
    { actorId: owner.id, action: 'started', details: { effects: [{ type: 'notifyStep', order: 1, recipientIds: [reviewerPlace!.id] }] }, ip: '198.51.100.10' },
    { actorId: reviewer.id, action: 'reviewed', details: { recipientId: reviewerPlace!.id, step: 1, status: 'InProgress' }, ip: '203.0.113.21' },
  ];
  for (let i = 0; i < (options.extraEntries ?? 0); i++) entries.push({ actorId: i % 2 ? reviewer.id : signer.id, action: 'viewed', details: { documentId: documentIds[0] }, ip: `192.0.2.${i % 250}` });
  if (status === 'Completed') {
    // The signer's real revision of the first document, sealed with the tenant's seal.
    const doc = documentRows[0]!;
    const source = fs.readFileSync(`${CORPUS}${doc.name}`);
    const seal = await ensureTenantSeal({ db, vault, tenantId: tenant.id, keyAlgorithm: 'ecdsa-p256' });
    const chain = [seal.caCertificatePem];
    const rect = [40, 40, 200, 80] as const;
    const revision = await sealRevision({
      source,
      signature: {
        pageIndex: 0,
        rect,
        appearance: textAppearance({ width: 160, height: 40, rotate: 0, lines: ['Lukasz'] }),
        fieldName: 'Pakt signature 1',
        signerName: 'Lukasz',
        signedAt: new Date('2026-03-03T16:30:00Z'),
      },
      cmsMaxSize: maxCmsSize({ certificate: seal.sealCertificatePem, chain }),
      sign: (digest) => signDigest({ digest, key: seal.sealPrivateKeyPem, certificate: seal.sealCertificatePem, chain }),
    });
    const tail = await storeBytes(storage, revision.tail);
    const after = crypto.createHash('sha256').update(revision.bytes).digest('hex');
    await db.insert(epakDocumentRevisions).values({
      epakDocumentId: doc.id,
      seq: 1,
      recipientId: signerPlace!.id,
      predecessorSha256: doc.sha256,
      sha256: after,
      size: revision.bytes.length,
      tailSha256: tail.sha256,
      tailSize: tail.size,
    });
    entries.push(
      { actorId: signer.id, action: 'documentSigned', details: { documentId: doc.id, documentName: doc.name, revision: 1, before: doc.sha256, after, reason: 'I agree' }, ip: '203.0.113.99' },
      { actorId: signer.id, action: 'signed', details: { recipientId: signerPlace!.id, step: 2, status: 'Completed', effects: [{ type: 'completed' }] }, ip: '203.0.113.99' },
    );
  }
  if (status === 'Rejected') {
    entries.push({ actorId: signer.id, action: 'rejected', details: { comment: 'Wrong plot number', effects: [{ type: 'rejected', recipientId: signerPlace!.id }] }, ip: '203.0.113.99' });
  }
  for (const entry of entries) {
    await db.transaction(async (tx) => {
      await tx.select({ id: epaks.id }).from(epaks).where(eq(epaks.id, epakId)).for('update');
      await recordEpakActivity(tx, { epakId, ...entry });
    });
  }
  return { epakId, tenant, owner, reviewer, signer, documentIds };
}

// ---- zips: the entries of a download, read through the central directory, each CRC-checked.

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

export interface ZipEntry {
  name: string;
  method: number;
  data: Buffer;
}

export function readZip(zip: Buffer): ZipEntry[] {
  const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (eocd < 0) throw new Error('no end of central directory');
  const count = zip.readUInt16LE(eocd + 10);
  let at = zip.readUInt32LE(eocd + 16);
  const entries: ZipEntry[] = [];
  for (let i = 0; i < count; i++) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error(`bad central directory entry ${i}`);
    const method = zip.readUInt16LE(at + 10);
    const crc = zip.readUInt32LE(at + 16);
    const compressedSize = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const localOffset = zip.readUInt32LE(at + 42);
    const name = zip.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    if (zip.readUInt32LE(localOffset) !== 0x04034b50) throw new Error(`bad local header for ${name}`);
    const dataAt = localOffset + 30 + zip.readUInt16LE(localOffset + 26) + zip.readUInt16LE(localOffset + 28);
    const raw = zip.subarray(dataAt, dataAt + compressedSize);
    const data = method === 0 ? Buffer.from(raw) : zlib.inflateRawSync(raw);
    if (crc32(data) !== crc) throw new Error(`CRC mismatch for ${name}`);
    entries.push({ name, method, data });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}
