import {
  DomainError,
  flattenTags,
  fullName,
  invalidInput,
  isGroupTag,
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
  presetValueProblems,
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

/** A recipient of a step, as start and bulk compose compare them with the tags. */
export interface SignerRow {
  readonly email: string;
  /** The step's order (1-based). */
  readonly order: number;
  readonly type: string;
  /** Their name, to name them in a refusal; the address alone without it. */
  readonly name?: string;
}

const isSigningRow = (row: SignerRow) => (SIGNING_STATE_TYPES as readonly string[]).includes(row.type);

/**
 * A field that takes a signer's signature: a signature or typed signature, or a signature block
 * (a composite without members: its value is the signature, sign.ts signatureOf). A composite
 * with members is a frame; a signature among its members counts by itself.
 */
const isSignatureField = (tag: Tag) => isSignatureTag(tag) || (tag.type === 'composite' && !isGroupTag(tag));

/**
 * Compares the signature fields on an ePak's documents with the signers of its signing steps (SIGN
 * and INPERSONSIGN; one person at two steps is two signers). Shared by start and bulk compose
 * (which checks each row before making it). Two refusals, spec §8:
 *
 * - -107 SIGNER_COUNT_MISMATCH: a signature field for someone who does not sign (not a recipient
 *   of a signing step, or of another step than the field names) or for nobody. Its data lists
 *   those, and the signers without a field as well.
 * - -62 USER_SIGNATURE_TAG_NOT_FOUND ("user signature tag not found"): otherwise, a signer for
 *   whom no document has a signature field. The message names them (name and address) for the
 *   custodian who sends; `data.withoutSignatureField` has their addresses, `data.signers` who and
 *   at which step. Such an ePak used to start, and its signers then signed on no field at all.
 *
 * Tags are matched by address and step: a uuid on a tag is a cache of who that address is, and a
 * tag naming no step belongs to the address's signing step when it has exactly one.
 */
export function checkSigners(
  documentTags: readonly (readonly Tag[])[],
  signerRows: readonly SignerRow[],
): { error: DomainError | null; workflowSigners: Set<string>; signatureTags: Tag[] } {
  const signing = signerRows.filter(isSigningRow);
  const keyOfRow = (row: SignerRow) => signerKey({ userEmail: row.email, wfsOrderId: row.order })!;
  const workflowSigners = new Set(signing.map(keyOfRow));
  const signatureTags = documentTags.flatMap((tags) => flattenTags(tags)).filter(isSignatureField);
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
  if (unmatched.length > 0) {
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
  if (missing.length === 0) return { error: null, workflowSigners, signatureTags };
  const without = signing.filter((row, at) => missing.includes(keyOfRow(row)) && signing.findIndex((other) => keyOfRow(other) === keyOfRow(row)) === at);
  const twice = new Set(without.map((row) => row.email.toLowerCase()).filter((email, at, all) => all.indexOf(email) !== at));
  const named = without.map((row) => {
    const step = twice.has(row.email.toLowerCase()) ? `step ${row.order}` : null;
    return row.name ? `${row.name} (${[row.email, step].filter(Boolean).join(', ')})` : step ? `${row.email} (${step})` : row.email;
  });
  const error = new DomainError(
    ResponseCode.USER_SIGNATURE_TAG_NOT_FOUND,
    `No signature field is placed for ${named.join(', ')}: place one for every signer on a document before sending.`,
    {
      data: {
        withoutSignatureField: without.map((row) => row.email),
        signers: without.map((row) => ({ email: row.email, name: row.name ?? null, stepOrder: row.order })),
      },
    },
  );
  return { error, workflowSigners, signatureTags };
}

/**
 * Sends a draft (POST /msbapi/v2/epaks/{id}/start). A draft with no document at all is -109
 * (NO_NEW_DOCUMENT_ATTACHED): its signers would wait on nothing to sign. Everything placed on the
 * documents is checked again with every rule of the ePak's signing policy, including the one a
 * draft may still break (a reason tag for each signature, -49); then checkSigners: the signature
 * fields must be for the signers of the ePak's signing steps (-107 for anyone else's), and every
 * signer needs one somewhere (-62, naming who lacks one). Every refusal leaves the draft as it was.
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
    // Compose refuses an ePak without documents (resolve-compose-documents.ts); this holds the same
    // line for a draft that lost them, since a step of signers could never finish.
    if (docs.length === 0) throw new DomainError(ResponseCode.NO_NEW_DOCUMENT_ATTACHED, 'This ePak has no document to send: attach one before sending.');
    const policy = epak.signingPolicy as SigningPolicy;
    const problems: TagProblem[] = [];
    for (const doc of docs) {
      problems.push(...validateTagLayout({ tags: doc.tags as Tag[], pages: doc.pages as PageGeometry[], policy }), ...presetValueProblems(doc.tags as Tag[]));
    }
    const layoutError = tagLayoutError(problems);
    if (layoutError) throw layoutError;

    const signerRows = await tx
      .select({ email: users.email, order: epakSteps.position, type: epakSteps.type, firstName: users.firstName, lastName: users.lastName })
      .from(epakRecipients)
      .innerJoin(epakSteps, eq(epakSteps.id, epakRecipients.stepId))
      .innerJoin(users, eq(users.id, epakRecipients.userId))
      .where(eq(epakRecipients.epakId, epak.id))
      .orderBy(asc(epakSteps.position), asc(epakRecipients.position));
    const signers = checkSigners(
      docs.map((doc) => doc.tags as Tag[]),
      signerRows.map(({ firstName, lastName, ...row }) => {
        const name = fullName({ firstName, lastName });
        return name ? { ...row, name } : row;
      }),
    );
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
