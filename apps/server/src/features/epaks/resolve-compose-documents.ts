import { DomainError, notFound, ResponseCode } from '@pakt/domain';
import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../platform/db/database';
import { documents, epakDocuments, epaks } from '../../platform/db/schema';

type Scope = { tenantId: string; ownerId: string };
type DocumentRow = typeof documents.$inferSelect;

/**
 * The documents an ePak is composed of, as compose resolves them: the caller's own documents in
 * this tenant, in the order given. What each catalogue code of spec §8 means here:
 *
 * - -109 NO_NEW_DOCUMENT_ATTACHED ("no new document attached"): nothing to send. No document is
 *   given and no template brings its own. (start.ts holds the same line for a draft.)
 * - -176 DOCUMENT_ALREADY_ADDED ("document already added"): one document twice in one ePak, the
 *   same id given again (signers would sign the same paper twice; copies of a form uploaded
 *   separately are separate documents and may go together). document-templates.ts answers it
 *   too for the template's own PDF given again.
 * - -169 COMPOSE_DOCUMENT_ALREADY_USED ("compose document already used in ePak"): the id is not
 *   one of the caller's documents but a document of one of their ePaks (the ePak's own copy, its
 *   `documentId` in EpakDetail, which carries that ePak's tags and signers' revisions). Compose
 *   takes documents, never another ePak's copy; the refusal names the ePak and the document it
 *   was made from, when that still exists. An id that is neither stays 404, as before.
 *
 * (-82, a document in use, is the documents feature's: deleting one that a live ePak was made from.)
 * Every refusal happens before anything is written.
 */
export async function resolveComposeDocuments(options: {
  db: Db;
  scope: Scope;
  documentIds: readonly string[];
  /** A document that goes first whatever the ids are (a document template's). */
  hasLeadDocument?: boolean;
  /** Where a refusal points for the id at `index`; `documentIds.<index>` unless told. */
  issuePath?: (index: number) => string;
}): Promise<DocumentRow[]> {
  const { db, scope, documentIds } = options;
  const pathOf = options.issuePath ?? ((index: number) => `documentIds.${index}`);
  if (documentIds.length === 0) {
    if (options.hasLeadDocument) return [];
    throw new DomainError(ResponseCode.NO_NEW_DOCUMENT_ATTACHED, 'An ePak needs at least one document: attach one before saving.', {
      issues: [{ path: 'documentIds', message: 'required' }],
    });
  }
  const again = documentIds.flatMap((id, at) => (documentIds.indexOf(id) < at ? [at] : []));
  if (again.length > 0) {
    throw new DomainError(ResponseCode.DOCUMENT_ALREADY_ADDED, 'The same document is in this ePak twice: each document goes in once.', {
      issues: again.map((at) => ({ path: pathOf(at), message: 'already present' })),
    });
  }
  const rows = await db
    .select()
    .from(documents)
    .where(and(inArray(documents.id, [...documentIds]), eq(documents.tenantId, scope.tenantId), eq(documents.ownerId, scope.ownerId)));
  const byId = new Map(rows.map((row) => [row.id, row]));
  const unknown = documentIds.filter((id) => !byId.has(id));
  if (unknown.length > 0) {
    const [copy] = await db
      .select({ id: epakDocuments.id, name: epakDocuments.name, sourceDocumentId: epakDocuments.sourceDocumentId, ePakId: epaks.id, subject: epaks.subject })
      .from(epakDocuments)
      .innerJoin(epaks, eq(epaks.id, epakDocuments.epakId))
      .where(and(inArray(epakDocuments.id, unknown), eq(epaks.tenantId, scope.tenantId), eq(epaks.ownerId, scope.ownerId)));
    if (copy) {
      const [source] = copy.sourceDocumentId
        ? await db
            .select({ id: documents.id })
            .from(documents)
            .where(and(eq(documents.id, copy.sourceDocumentId), eq(documents.tenantId, scope.tenantId), eq(documents.ownerId, scope.ownerId)))
        : [];
      throw new DomainError(
        ResponseCode.COMPOSE_DOCUMENT_ALREADY_USED,
        `"${copy.name}" is the copy in your ePak "${copy.subject}", not one of your documents: ${source ? 'choose the document it was made from' : 'upload it again'} to compose with it.`,
        {
          data: { documentId: copy.id, ePakId: copy.ePakId, sourceDocumentId: source?.id ?? null },
          issues: [{ path: pathOf(documentIds.indexOf(copy.id)), message: 'used in an ePak' }],
        },
      );
    }
    throw notFound('No such document.');
  }
  return documentIds.map((id) => byId.get(id)!);
}
