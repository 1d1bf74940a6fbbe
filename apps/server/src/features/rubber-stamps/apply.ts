import { randomUUID } from 'node:crypto';
import {
  DomainError,
  flattenTags,
  invalidInput,
  isRubberStamp,
  newTag,
  overlapProblems,
  type PageGeometry,
  pageProblem,
  ResponseCode,
  RUBBER_STAMP_SUB_TYPE,
  RUBBER_STAMP_TAG_TYPE,
  type RubberStampUse,
  sizeProblem,
  type Tag,
  type TagProblem,
  isTagFor,
  decide,
  type ResourceRefusal,
} from '@pakt/domain';
import { ZodError } from 'zod';
import type { Db } from '../../platform/db/database';
import type { FileStorage } from '../../platform/storage/file-storage';
import { loadAvailableStamp, stampSettingsOf } from './rubber-stamps';

/**
 * Applying rubber stamps when signing (issue 8, spec §5 and §6). The stamps are resolved once,
 * before sealing: the tenant's flag and the signer's passcode flag must both hold and each stamp
 * must be available to THIS signer (their own, or shared with them or a group of theirs, in the
 * ePak's tenant). The image then travels as the tag's value, a data URL, like a drawn signature,
 * so the stored tags show what the PDF shows even if the stamp is later edited or deleted.
 */

/** A stamp ready to go on the page: its tag (the custodian's, or a new one) and its picture. */
export interface ResolvedStamp {
  readonly use: RubberStampUse;
  /** The tag it fills or makes; made once per attempt, so re-applying under the lock is the same. */
  readonly tagUuid: string;
  readonly rubberStampId: string;
  readonly name: string;
  readonly dataUrl: string;
}

/**
 * -11, not -6: the request is well formed, the signer is simply not entitled to this stamp (the
 * setting is off, they lack the passcode flag, or the stamp is not theirs to use). Every such
 * case answers alike, so stamp ids of others cannot be probed.
 */
export const stampNotAllowed = (index: number, refusal: ResourceRefusal) =>
  new DomainError(ResponseCode.NOT_AUTHORIZED, refusal.message, {
    issues: [{ path: `rubberStamps.${index}`, message: 'rubberStampNotAllowed' }],
  });

async function bytesOf(storage: FileStorage, sha256: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await storage.get(sha256)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Checks the signer may apply each stamp named and reads its image; [] when none is named. */
export async function resolveStampUses(options: {
  db: Db;
  storage: FileStorage;
  tenantId: string;
  userId: string;
  uses: readonly RubberStampUse[];
}): Promise<ResolvedStamp[]> {
  const { db, uses } = options;
  if (uses.length === 0) return [];
  const actor = { tenantId: options.tenantId, userId: options.userId };
  const { settings, passcodeFlag } = await stampSettingsOf(db, options.tenantId, options.userId);
  const out: ResolvedStamp[] = [];
  for (const [index, use] of uses.entries()) {
    // Only the signer's own and shared stamps are found: any other id is refused like one they
    // may not use (the rubberStamp.apply policy's one answer), so ids cannot be probed.
    const row = await loadAvailableStamp({ db, tenantId: options.tenantId, userId: options.userId, stampId: use.rubberStampId });
    const decision = decide(actor, 'rubberStamp.apply', {
      tenantId: options.tenantId,
      ownerId: row?.ownerId ?? null,
      sharedWithActor: row !== undefined && row.ownerId !== options.userId,
      settings,
      actorPasscodeFlag: passcodeFlag,
    });
    if (!decision.allowed) throw stampNotAllowed(index, decision);
    if (!row) throw new Error('rubberStamp.apply admitted a stamp nobody can see');
    const bytes = await bytesOf(options.storage, row.sha256);
    out.push({
      use,
      tagUuid: use.tagUuid ?? randomUUID(),
      rubberStampId: row.id,
      name: row.name,
      dataUrl: `data:${row.contentType};base64,${bytes.toString('base64')}`,
    });
  }
  return out;
}

/** The signer as the stamps see them: whose tags they may fill, and who a new tag is for. */
export interface StampSigner {
  readonly email: string;
  readonly stepOrder: number;
}

/**
 * The document's tags with the stamps on them: a custodian's rubber-stamp tag of the signer's
 * takes the stamp's image; a placement becomes a new rubber-stamp tag of theirs. Refuses (-6,
 * naming the stamp) a tag that is not their pending rubber-stamp tag, a placement off its page or
 * outside a stamp's size limits, and a stamp over another stamp; a stamp over a signature or
 * initials is allowed (§5).
 */
export function applyStamps(options: { tags: readonly Tag[]; pages: readonly PageGeometry[]; signer: StampSigner; stamps: readonly ResolvedStamp[] }): Tag[] {
  const { signer, stamps, pages } = options;
  const problems: { path: string; message: string }[] = [];
  const byTag = new Map<string, ResolvedStamp>();
  stamps.forEach((stamp, index) => {
    if (stamp.use.tagUuid === undefined) return;
    const key = stamp.use.tagUuid.toLowerCase();
    if (byTag.has(key)) problems.push({ path: `rubberStamps.${index}.tagUuid`, message: 'this tag is stamped twice' });
    byTag.set(key, stamp);
  });
  const all = new Map(flattenTags(options.tags).map((tag) => [tag.uuid.toLowerCase(), tag]));
  stamps.forEach((stamp, index) => {
    if (stamp.use.tagUuid === undefined) return;
    const tag = all.get(stamp.use.tagUuid.toLowerCase());
    if (!tag || !isRubberStamp(tag) || !isTagFor(tag, signer) || tag.status === 'done') {
      problems.push({ path: `rubberStamps.${index}.tagUuid`, message: 'not a rubber-stamp tag of yours waiting for a stamp' });
    }
  });
  // A rubber-stamp tag of the signer's shows a stamp only when they apply one now: whatever
  // picture it may have been saved with (a custodian's upload) is not a stamp they may use.
  const fill = (tag: Tag): Tag => {
    const children = tag.children?.map(fill);
    const stamp = byTag.get(tag.uuid.toLowerCase());
    const unstamped = !stamp && isRubberStamp(tag) && isTagFor(tag, signer) && tag.status !== 'done' && tag.value !== null;
    return { ...tag, ...(stamp ? { value: stamp.dataUrl } : unstamped ? { value: null } : {}), ...(children ? { children } : {}) };
  };
  const next = options.tags.map(fill);

  const placed: Tag[] = [];
  stamps.forEach((stamp, index) => {
    const placement = stamp.use.placement;
    if (!placement) return;
    const page = pages[placement.pageNumber - 1];
    let tag: Tag;
    try {
      tag = newTag(
        {
          uuid: stamp.tagUuid,
          type: RUBBER_STAMP_TAG_TYPE,
          subType: RUBBER_STAMP_SUB_TYPE,
          name: stamp.name.slice(0, 500),
          pageNumber: placement.pageNumber,
          positionX: placement.positionX,
          positionY: placement.positionY,
          ...(placement.blockWidth !== undefined ? { blockWidth: placement.blockWidth } : {}),
          ...(placement.blockHeight !== undefined ? { blockHeight: placement.blockHeight } : {}),
          tagFor: 'signer',
          createType: 'signer',
          userEmail: signer.email,
          wfsOrderId: signer.stepOrder,
          readOnly: true,
          value: stamp.dataUrl,
        },
        { rotate: page?.rotate ?? 0 },
      );
    } catch (error) {
      if (error instanceof ZodError) {
        problems.push({ path: `rubberStamps.${index}.placement`, message: 'not a placement a stamp can have' });
        return;
      }
      throw error;
    }
    const found: (TagProblem | null)[] = [pageProblem(tag, pages), page ? sizeProblem(tag, undefined, page.rotate) : null];
    for (const problem of found) if (problem) problems.push({ path: `rubberStamps.${index}.placement`, message: problem.messageKey });
    placed.push(tag);
  });
  const result = [...next, ...placed];

  // Only stamps can be at fault here: the signatures were placed (and checked) before.
  const stampUuids = new Map(stamps.map((stamp, index) => [stamp.tagUuid.toLowerCase(), index]));
  for (const problem of overlapProblems(flattenTags(result))) {
    const index = stampUuids.get(problem.tagUuid.toLowerCase());
    if (index !== undefined) problems.push({ path: `rubberStamps.${index}`, message: problem.messageKey });
  }
  if (problems.length > 0) throw invalidInput('A rubber stamp cannot go there.', problems);
  return result;
}
