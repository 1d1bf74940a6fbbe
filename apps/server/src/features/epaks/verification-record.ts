import { createHash } from 'node:crypto';
import { fullName, notFound, type PublicVerificationRecord, TenantSettings, VERIFY_RECORD_PARAM } from '@pakt/domain';
import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/database';
import { epakDocuments, epakRecipients, epaks, tenants, tenantSettings, users } from '../../platform/db/schema';
import type { KeyVault } from '../../platform/signing/key-vault';
import { currentVersion, revisionsByDocument } from './revisions';

/**
 * The public record behind a certificate's QR code (issue 20). The code holds a token: the ePak,
 * the digest of its final documents' SHA-256s, and this install's code over both (KeyVault.mac),
 * so nobody can make one for an ePak, or for other documents, that this install did not issue.
 * The record tells only what the tenant allows: by default the organisation, status, completion
 * time and the documents' fingerprints, which the page compares with a file in the browser.
 */

const MAC_CONTEXT = 'verify-record';
/** A sealed document's stamp line names its document by the SHA-256 it was composed with. */
const DOCUMENT_MAC_CONTEXT = 'verify-document';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** One digest for the ePak's documents as they stand at the end, in ePak order. */
export function documentsDigest(finalHashes: readonly string[]): string {
  return createHash('sha256').update(finalHashes.join(',')).digest('hex');
}

export function recordToken(vault: KeyVault, epakId: string, finalHashes: readonly string[]): string {
  const body = `${epakId}.${documentsDigest(finalHashes)}`;
  return `${body}.${vault.mac(body, MAC_CONTEXT)}`;
}

/**
 * The token of one document's stamp line: drawn into the document by its first signature, so it
 * cannot hold the final SHA-256 (the file that holds it is not final yet); it names the document
 * by the SHA-256 it was composed with, and the record gives that document's final one.
 */
export function documentRecordToken(vault: KeyVault, epakId: string, composedSha256: string): string {
  const body = `${epakId}.${composedSha256}`;
  return `${body}.${vault.mac(body, DOCUMENT_MAC_CONTEXT)}`;
}

/** The URL a certificate's QR code opens. */
export function recordUrl(publicUrl: string, token: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/verify?${VERIFY_RECORD_PARAM}=${token}`;
}

/** Each document of an ePak, in ePak order: the SHA-256 it was composed with, and its final one. */
async function documentHashes(db: Db, epakId: string): Promise<{ composed: string; final: string }[]> {
  const documents = await db.select().from(epakDocuments).where(eq(epakDocuments.epakId, epakId)).orderBy(asc(epakDocuments.position));
  const revisions = await revisionsByDocument(
    db,
    documents.map((d) => d.id),
  );
  return documents.map((d) => ({ composed: d.sha256, final: currentVersion(d, revisions.get(d.id) ?? []).sha256 }));
}

/** The final SHA-256 of each document of an ePak, in ePak order. */
export async function finalDocumentHashes(db: Db, epakId: string): Promise<string[]> {
  return (await documentHashes(db, epakId)).map((d) => d.final);
}

/** The record for a token this install made; any other token is answered as not found. */
export async function loadVerificationRecord(options: { db: Db; vault: KeyVault; token: string }): Promise<PublicVerificationRecord> {
  const [epakId, digest, mac, ...rest] = options.token.split('.');
  const forged = () => notFound('No such record.');
  if (!epakId || !digest || !mac || rest.length > 0 || !UUID.test(epakId)) throw forged();
  // A certificate's token (the final documents' digest) or a document's stamp line (its composed SHA-256).
  const ofCertificate = options.vault.checkMac(`${epakId}.${digest}`, mac, MAC_CONTEXT);
  if (!ofCertificate && !options.vault.checkMac(`${epakId}.${digest}`, mac, DOCUMENT_MAC_CONTEXT)) throw forged();
  const [found] = await options.db
    .select({ epak: epaks, tenantName: tenants.name, settings: tenantSettings.settings })
    .from(epaks)
    .innerJoin(tenants, eq(tenants.id, epaks.tenantId))
    .leftJoin(tenantSettings, eq(tenantSettings.tenantId, epaks.tenantId))
    .where(eq(epaks.id, epakId));
  if (!found) throw forged();
  const documents = await documentHashes(options.db, epakId);
  // The code was issued for these documents; an ePak whose documents are no longer those (deleted and
  // remade, a restored backup) has no record to show under it.
  const hashes = ofCertificate ? documents.map((d) => d.final) : documents.filter((d) => d.composed === digest).map((d) => d.final);
  if (ofCertificate ? documentsDigest(hashes) !== digest : hashes.length === 0) throw forged();
  const signers = await options.db
    .select({ firstName: users.firstName, middleName: users.middleName, lastName: users.lastName })
    .from(epakRecipients)
    .innerJoin(users, eq(users.id, epakRecipients.userId))
    .where(and(eq(epakRecipients.epakId, epakId), eq(epakRecipients.status, 'Signed')))
    .orderBy(asc(epakRecipients.actedAt));
  const showNames = TenantSettings.safeParse(found.settings ?? {}).data?.publicRecordShowsNames === true;
  const { epak } = found;
  return {
    tenantName: found.tenantName,
    status: epak.status,
    completedOn: epak.status === 'Completed' && epak.endedAt ? epak.endedAt.toISOString() : null,
    documents: hashes.map((sha256) => ({ sha256 })),
    signerCount: signers.length,
    subject: showNames ? epak.subject : null,
    signers: showNames ? signers.map((signer) => fullName(signer)) : null,
  };
}
