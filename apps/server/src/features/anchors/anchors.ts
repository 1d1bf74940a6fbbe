import { randomUUID } from 'node:crypto';
import {
  ANCHOR_SUGGESTIONS_MAX,
  type AnchorSuggestion,
  type AnchorSuggestions,
  DomainError,
  type FindAnchorsBody,
  invalidInput,
  newTag,
  notFound,
  type PageGeometry,
  ResponseCode,
  SIGNING_STATE_TYPES,
  tagTypeDefaults,
  toBlockBounds,
} from '@pakt/domain';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../platform/db/database';
import { epakDocuments, epakRecipients, epakSteps, users } from '../../platform/db/schema';
import type { FileStorage } from '../../platform/storage/file-storage';
import { loadOwnDocument, type parserQueueOf } from '../documents';
import { loadOwnEpak } from '../epaks';
import { type Found, findAnchorsOnPage, findSignatureLinesOnPage, inShownOrder, pageLines } from './detect';
import { type ExtractionLimits, extractText } from './text-extraction';

/**
 * Anchor placement's commands (issue 21): which document, whose signers, and the suggestions
 * made into tags of the editing model. The finding itself is detect.ts; the reading,
 * text-extraction.ts.
 */

type Scope = { tenantId: string; ownerId: string };

export interface AnchorServices {
  db: Db;
  storage: FileStorage;
  workRoot: string;
  parsers: ReturnType<typeof parserQueueOf>;
  limits?: ExtractionLimits;
}

/** Who `signerN` names: the recipients of the signing steps in step order, then in their order in the step. */
export interface SlotSigner {
  readonly email: string;
  readonly userId: string;
  readonly stepOrder: number;
}

async function suggest(
  services: AnchorServices,
  target: { tenantId: string; sha256: string; pages: readonly PageGeometry[]; signers: readonly SlotSigner[] | null },
  body: FindAnchorsBody,
): Promise<AnchorSuggestions> {
  const anchorsMode = body.find === 'anchors';
  const extraction = await extractText({
    storage: services.storage,
    tenantId: target.tenantId,
    sha256: target.sha256,
    lines: !anchorsMode,
    workRoot: services.workRoot,
    parsers: services.parsers,
    ...(services.limits ? { limits: services.limits } : {}),
  });
  const found: Found[] = [];
  const unrecognised = new Set<string>();
  const counts = body.strings.map(() => 0);
  extraction.pages.forEach((text, index) => {
    const page = target.pages[index];
    if (!page) return;
    const lines = pageLines(text, page);
    if (anchorsMode) {
      const onPage = findAnchorsOnPage(lines, page, index + 1, body.strings);
      found.push(...onPage.found);
      onPage.unrecognised.forEach((anchor) => unrecognised.add(anchor));
      onPage.configuredCounts.forEach((count, at) => (counts[at]! += count));
    } else {
      found.push(...findSignatureLinesOnPage(lines, page, index + 1, text.rules));
    }
  });

  const missing = anchorsMode ? body.strings.filter((_, at) => counts[at] === 0).map((entry) => entry.text) : [];
  if (missing.length > 0) {
    const read = extraction.pages.length < extraction.pageCount ? ` in the first ${extraction.pages.length} of its ${extraction.pageCount} pages` : '';
    throw new DomainError(ResponseCode.AUTO_PLACEMENT_STRING_NOT_FOUND, `Not found in the document${read}: ${missing.map((text) => `"${text}"`).join(', ')}.`, {
      data: { notFound: missing },
    });
  }

  const ordered = inShownOrder(found, target.pages);
  const unmatchedSlots = new Set<number>();
  const suggestions: AnchorSuggestion[] = ordered.slice(0, ANCHOR_SUGGESTIONS_MAX).map((item) => {
    const page = target.pages[item.pageNumber - 1]!;
    const signer = item.signerSlot !== null ? target.signers?.[item.signerSlot - 1] : undefined;
    if (item.signerSlot !== null && target.signers && !signer) unmatchedSlots.add(item.signerSlot);
    const tag = newTag(
      {
        ...tagTypeDefaults(item.type),
        uuid: randomUUID(),
        type: item.type,
        pageNumber: item.pageNumber,
        positionX: item.rect.x,
        positionY: item.rect.y,
        blockWidth: item.rect.width,
        blockHeight: item.rect.height,
        blockBounds: toBlockBounds(item.rect, page),
        ...(signer ? { userEmail: signer.email, userUuid: signer.userId, wfsOrderId: signer.stepOrder } : {}),
      },
      page,
    );
    return { tag, source: item.source, kind: item.kind, confidence: item.confidence, text: item.text, signerSlot: item.signerSlot, anchorBox: item.anchorBox };
  });
  return {
    suggestions,
    pageCount: extraction.pageCount,
    pagesScanned: extraction.pages.length,
    truncated: extraction.truncated ?? (ordered.length > ANCHOR_SUGGESTIONS_MAX ? 'suggestions' : null),
    unrecognised: [...unrecognised].slice(0, 50),
    unmatchedSlots: [...unmatchedSlots].sort((a, b) => a - b),
  };
}

/** One of the caller's stored documents (anyone else's is 404): no workflow, so every tag is for nobody. */
export async function suggestForStoredDocument(services: AnchorServices, scope: Scope, documentId: string, body: FindAnchorsBody): Promise<AnchorSuggestions> {
  const row = await loadOwnDocument(services.db, scope, documentId);
  return suggest(services, { tenantId: scope.tenantId, sha256: row.sha256, pages: row.pages as PageGeometry[], signers: null }, body);
}

/** The signers `signerN` counts, in order. */
export async function slotSigners(db: Db, epakId: string): Promise<SlotSigner[]> {
  const rows = await db
    .select({ email: users.email, userId: users.id, stepOrder: epakSteps.position })
    .from(epakRecipients)
    .innerJoin(epakSteps, eq(epakSteps.id, epakRecipients.stepId))
    .innerJoin(users, eq(users.id, epakRecipients.userId))
    .where(and(eq(epakRecipients.epakId, epakId), inArray(epakSteps.type, [...SIGNING_STATE_TYPES])))
    .orderBy(asc(epakSteps.position), asc(epakRecipients.position));
  return rows;
}

/**
 * A document of one of the caller's drafts (anyone else's ePak is 404, as for its tags): anchors
 * naming signerN are given to that signer of the draft's workflow.
 */
export async function suggestForEpakDocument(services: AnchorServices, scope: Scope, epakId: string, documentId: string, body: FindAnchorsBody): Promise<AnchorSuggestions> {
  const epak = await loadOwnEpak(services.db, scope, epakId);
  if (epak.deletedAt) throw new DomainError(ResponseCode.EPAK_DELETED, 'This ePak was deleted.');
  if (epak.archivedAt) throw new DomainError(ResponseCode.EPAK_ARCHIVED, 'This ePak is archived.');
  if (epak.status !== 'Draft') throw invalidInput('Tags are placed while the ePak is a draft; a started ePak is changed by editing it.');
  const [doc] = await services.db
    .select({ sha256: epakDocuments.sha256, pages: epakDocuments.pages })
    .from(epakDocuments)
    .where(and(eq(epakDocuments.id, documentId), eq(epakDocuments.epakId, epak.id)));
  if (!doc) throw notFound('No such document in this ePak.');
  return suggest(services, { tenantId: scope.tenantId, sha256: doc.sha256, pages: doc.pages as PageGeometry[], signers: await slotSigners(services.db, epak.id) }, body);
}
