import { fullName, type PaktRecord } from '@pakt/domain';
import { and, asc, desc, eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/database';
import { epakDocumentRevisions, epakDocuments, epakRecipients, epaks, tenants, users } from '../../platform/db/schema';
import { loadActivity, verifyActivityRows } from './activity';

/**
 * What the public verifier may say of a file that is a Pakt document of this install, found by
 * the SHA-256 of the file itself: whoever holds the file has seen its signers' names and subject
 * already, so that is all it tells (the tenant, subject, status, completion time and who signed),
 * and whether the ePak's activity log still chains and records this file. Nothing is told of a
 * hash alone that the file would not show (the route asks for the file, never for a hash).
 */
export async function findPaktRecord(db: Db, sha256: string): Promise<PaktRecord | null> {
  const [revision] = await db
    .select({ epakDocumentId: epakDocumentRevisions.epakDocumentId, seq: epakDocumentRevisions.seq })
    .from(epakDocumentRevisions)
    .where(eq(epakDocumentRevisions.sha256, sha256))
    .limit(1);
  const [composed] = revision ? [] : await db.select({ epakDocumentId: epakDocuments.id }).from(epakDocuments).where(eq(epakDocuments.sha256, sha256)).limit(1);
  const epakDocumentId = revision?.epakDocumentId ?? composed?.epakDocumentId;
  if (!epakDocumentId) return null;
  const seq = revision?.seq ?? 0;

  const [found] = await db
    .select({ epak: epaks, tenantName: tenants.name })
    .from(epakDocuments)
    .innerJoin(epaks, eq(epaks.id, epakDocuments.epakId))
    .innerJoin(tenants, eq(tenants.id, epaks.tenantId))
    .where(eq(epakDocuments.id, epakDocumentId));
  if (!found) return null;
  const { epak } = found;
  const [latest] = await db
    .select({ seq: epakDocumentRevisions.seq })
    .from(epakDocumentRevisions)
    .where(eq(epakDocumentRevisions.epakDocumentId, epakDocumentId))
    .orderBy(desc(epakDocumentRevisions.seq))
    .limit(1);
  const signers = await db
    .select({ firstName: users.firstName, middleName: users.middleName, lastName: users.lastName })
    .from(epakRecipients)
    .innerJoin(users, eq(users.id, epakRecipients.userId))
    .where(and(eq(epakRecipients.epakId, epak.id), eq(epakRecipients.status, 'Signed')))
    .orderBy(asc(epakRecipients.actedAt));
  const activity = await loadActivity(db, epak.id);
  // A composed file is in the log by its place in the ePak; a signed one by the hash its entry recorded.
  const recorded = seq === 0 || activity.some((row) => JSON.stringify(row.details ?? {}).includes(sha256));
  return {
    tenantName: found.tenantName,
    subject: epak.subject,
    status: epak.status,
    completedOn: epak.status === 'Completed' && epak.endedAt ? epak.endedAt.toISOString() : null,
    signers: signers.map((signer) => fullName(signer)),
    matches: seq === (latest?.seq ?? 0) ? 'current' : 'earlier',
    auditChainValid: verifyActivityRows(activity).ok && recorded,
  };
}
