import {
  DomainError,
  flattenTags,
  invalidInput,
  notFound,
  isSignatureTag,
  type PageGeometry,
  ResponseCode,
  SIGNING_STATE_TYPES,
  signerKey,
  type SigningPolicy,
  type Tag,
  tagLayoutError,
  validateTagLayout,
  type TagProblem,
  transition,
} from '@pakt/domain';
import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/database';
import { epakDocuments, epakRecipients, epakSteps, epaks, users } from '../../platform/db/schema';
import { assertActionable } from './access';
import { recordEpakActivity } from './activity';
import { loadEngineState, storeEngineState } from './engine-store';
import { queueEngineEffects } from './notify';

type Scope = { tenantId: string; ownerId: string };

/** The address in a signerKey (`order|email:address`). */
const addressOf = (key: string) => key.slice(key.indexOf('|') + 1).replace(/^email:/, '');

/**
 * The people the signature tags are for must be exactly the signers of the workflow's signing
 * steps (-107, SIGNER_COUNT_MISMATCH). Documents without any signature tag pass: their signers
 * place their own. Shared by start and bulk compose (which checks each row before making it).
 */
export function checkSigners(
  documentTags: readonly (readonly Tag[])[],
  signerRows: readonly { email: string; order: number; type: string }[],
): { error: DomainError | null; workflowSigners: Set<string>; signatureTags: Tag[] } {
  const workflowSigners = new Set(
    signerRows
      .filter((row) => (SIGNING_STATE_TYPES as readonly string[]).includes(row.type))
      .map((row) => signerKey({ userEmail: row.email, wfsOrderId: row.order })!),
  );
  const signatureTags = documentTags.flatMap((tags) => flattenTags(tags)).filter(isSignatureTag);
  if (signatureTags.length === 0) return { error: null, workflowSigners, signatureTags };
  // Keyed by address and step: a uuid on the tag is a cache of who that address is. A tag
  // naming no step belongs to the address's signing step when it has exactly one.
  const keyOf = (tag: Tag) => {
    const email = tag.userEmail?.trim().toLowerCase();
    if (!email) return null;
    if (tag.wfsOrderId !== undefined) return signerKey({ userEmail: email, wfsOrderId: tag.wfsOrderId });
    const candidates = [...workflowSigners].filter((key) => key.endsWith(`|email:${email}`));
    return candidates.length === 1 ? candidates[0]! : signerKey({ userEmail: email });
  };
  const documentSigners = new Set(signatureTags.map(keyOf));
  const unmatched = [...documentSigners].filter((key) => key === null || !workflowSigners.has(key));
  const missing = [...workflowSigners].filter((key) => !documentSigners.has(key));
  if (unmatched.length === 0 && missing.length === 0) return { error: null, workflowSigners, signatureTags };
  const error = new DomainError(
    ResponseCode.SIGNER_COUNT_MISMATCH,
    `The documents have signature fields for ${documentSigners.size} signer(s); the workflow has ${workflowSigners.size}. Give every signer of the workflow a signature field, and no one else.`,
    {
      data: {
        documentSigners: documentSigners.size,
        workflowSigners: workflowSigners.size,
        withoutSignatureField: missing.map(addressOf),
        notInWorkflow: unmatched.filter((key): key is string => key !== null).map(addressOf),
        unassignedFields: signatureTags.filter((tag) => keyOf(tag) === null).map((tag) => tag.uuid),
      },
    },
  );
  return { error, workflowSigners, signatureTags };
}

/**
 * Sends a draft (POST /msbapi/v2/epaks/{id}/start). Everything placed on the documents is checked
 * again with every rule of the ePak's signing policy, including the one a draft may still break
 * (a reason tag for each signature, -49); then the people the signature tags are for must be
 * exactly the signers of the ePak's signing steps (-107, SIGNER_COUNT_MISMATCH). A draft with no
 * signature tags at all is accepted: its signers place their own signature when they sign.
 *
 * The status change and its activity record commit together, under the ePak's row lock, so two
 * concurrent starts cannot both succeed. Moving recipients through the steps is the workflow
 * engine's; this marks the ePak InProgress and records when.
 */
export async function startEpak(options: {
  db: Db;
  scope: Scope;
  epakId: string;
  ip?: string | null;
  /** Where mail links point and how long signing links last; no mail is queued without it. */
  notify?: { publicUrl: string; linkDays: number };
  /** The tenant's "ePak expiry days": an ePak sent without an expiry gets one this many days on. */
  defaultExpiryDays?: number | null;
  /** The tenant's "ePak retention period": the archival period of an ePak sent without one. */
  defaultRetentionDays?: number | null;
}): Promise<void> {
  const { db, scope } = options;
  await db.transaction(async (tx) => {
    const [epak] = await tx
      .select()
      .from(epaks)
      .where(and(eq(epaks.id, options.epakId), eq(epaks.tenantId, scope.tenantId), eq(epaks.ownerId, scope.ownerId)))
      .for('update');
    if (!epak) throw notFound('No such ePak.');
    assertActionable(epak);
    if (epak.status === 'Completed') throw new DomainError(ResponseCode.EPAK_ALREADY_COMPLETED, 'This ePak is already completed.');
    if (epak.status !== 'Draft') throw invalidInput('This ePak was already sent.', [{ path: 'status', message: epak.status }]);

    const docs = await tx.select().from(epakDocuments).where(eq(epakDocuments.epakId, epak.id)).orderBy(asc(epakDocuments.position));
    const policy = epak.signingPolicy as SigningPolicy;
    const problems: TagProblem[] = [];
    for (const doc of docs) {
      problems.push(...validateTagLayout({ tags: doc.tags as Tag[], pages: doc.pages as PageGeometry[], policy }));
    }
    const layoutError = tagLayoutError(problems);
    if (layoutError) throw layoutError;

    const signerRows = await tx
      .select({ email: users.email, order: epakSteps.position, type: epakSteps.type })
      .from(epakRecipients)
      .innerJoin(epakSteps, eq(epakSteps.id, epakRecipients.stepId))
      .innerJoin(users, eq(users.id, epakRecipients.userId))
      .where(eq(epakRecipients.epakId, epak.id));
    const signers = checkSigners(docs.map((doc) => doc.tags as Tag[]), signerRows);
    if (signers.error) throw signers.error;
    const { workflowSigners, signatureTags } = signers;

    // The engine decides where the ePak stands once started (EMAIL steps run at once; a
    // workflow of EMAIL steps only is completed right away); this stores its answer.
    const defaults = {
      ...(!epak.expiresAt && options.defaultExpiryDays ? { expiresAt: new Date(Date.now() + options.defaultExpiryDays * 86_400_000) } : {}),
      ...(epak.archivalPeriodDays === null && options.defaultRetentionDays ? { archivalPeriodDays: options.defaultRetentionDays } : {}),
    };
    if (Object.keys(defaults).length > 0) await tx.update(epaks).set(defaults).where(eq(epaks.id, epak.id));
    const stored = await loadEngineState(tx, epak);
    const started = transition(stored.state, { type: 'start' });
    if (!started.ok) throw new DomainError(ResponseCode[started.code], started.reason);
    await storeEngineState(tx, epak.id, stored, started, { startedAt: new Date() });
    await recordEpakActivity(tx, {
      epakId: epak.id,
      actorId: scope.ownerId,
      action: 'started',
      details: { documents: docs.length, signers: workflowSigners.size, signatureFields: signatureTags.length, effects: started.effects },
      ip: options.ip ?? null,
    });
    // The first step's people are mailed in the same transaction (the outbox row is the job).
    if (options.notify) await queueEngineEffects(tx, { epakId: epak.id, effects: started.effects, ...options.notify });
  });
}
