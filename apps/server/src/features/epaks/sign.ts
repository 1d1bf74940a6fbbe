import { Readable } from 'node:stream';
import {
  isFilledValue,
  isServerFilledTag,
  isSignerMadeTag,
  isGroupTag,
  isRequiredTag,
  DomainError,
  flattenTags,
  formatUtcTimestamp,
  imageValueProblem,
  invalidInput,
  isRubberStamp,
  isSignatureTag,
  isTagFor,
  type PageGeometry,
  qrEntriesOf,
  qrPayload,
  ResponseCode,
  type SignDocumentBody,
  type SignDocumentResult,
  type SignerStatus,
  type Tag,
  tagRect,
  toPdfUserSpace,
  transition,
} from '@pakt/domain';
import { and, asc, eq } from 'drizzle-orm';
import type { AppContext } from '../../http/app-context';
import type { Db } from '../../platform/db/database';
import { epakDocumentRevisions, epakDocuments, epakRecipients, epakSteps, epaks, users } from '../../platform/db/schema';
import type { PdfBox } from '../../platform/pdf/pdf-file';
import { shownSizeOfRect, textAppearance, type Rotation } from '../../platform/sealing/appearance';
import { qrPng } from '../../platform/sealing/qr-image';
import { type PreparedSource, prepareForSealing } from '../../platform/sealing/repair';
import { type FieldRequest, type SealImage, sealRevision, type SignatureRequest } from '../../platform/sealing/seal';
import { SealError } from '../../platform/sealing/seal-error';
import { loadTenantSettings } from '../identity';
import { applyStamps, type ResolvedStamp, resolveStampUses } from '../rubber-stamps';
import { maxCmsSize, signDigest } from '../../platform/signing/cms';
import { ensureTenantSeal } from '../../platform/signing/tenant-seal';
import { assertActionable, assertNotOverdue, type EpakActor, loadViewer, loadVisibleEpak } from './access';
import { recordEpakActivity } from './activity';
import { assertRecipientVerified } from './recipient-verification';
import { loadEngineState, storeEngineState } from './engine-store';
import { queueEngineEffects } from './notify';
import { placeName, type SignerRecord, storeTypedName, typedSignerName } from './signer-name';
import { stampLineFields } from './stamp-line';
import { currentVersion, readCurrentDocumentHashed, revisionsOf } from './revisions';

/**
 * A recipient signs one document of an ePak (POST …/documents/{documentId}/sign).
 *
 * 1. Checks, without locks: the caller's place is Pending in the step under way, the step is a
 *    signing step, view enforcement is met, a location is given when the tenant's geolocation
 *    setting is MANDATORY, and the values are theirs and complete.
 * 2. Seals: the server draws the values as read-only fields and appends one incremental revision
 *    carrying a PAdES signature made with the tenant's seal. The earlier file is never rewritten.
 * 3. Stores the revision's tail as a blob BEFORE any row changes.
 * 4. One transaction, under the ePak's row lock: checks again that nothing moved (the file is
 *    still the one sealed over, the place still Pending), records the revision, the values, the
 *    activity (hashes before and after), and — with the caller's last document — the engine's
 *    step change and the mail it calls for.
 *
 * A crash before 4 commits leaves the ePak as it was (an unused blob at most); after, the step
 * is done. A retried call finds the revision already there and answers as the first did. Two
 * signers of one step signing the same document at once: the second sees a new predecessor
 * under the lock and seals again over the first one's revision.
 */

export interface SignDocumentOptions {
  readonly ctx: Pick<AppContext, 'storage' | 'vault' | 'config'> & { database: { db: Db } };
  readonly actor: EpakActor;
  readonly epakId: string;
  readonly documentId: string;
  readonly body: SignDocumentBody;
  readonly ip?: string | null;
  /** The caller is an in-person signer on the host's device (epaks/in-person.ts). */
  readonly inPerson?: boolean;
  readonly now?: () => Date;
  /** Test seam: runs between storing the blob and the transaction (crash tests). */
  readonly afterBlobStored?: () => Promise<void>;
}

/** Tags whose value is a picture when it is a data URL (anything else is drawn as text). */
const IMAGE_DATA_URL = /^data:image\/(png|jpeg);base64,([A-Za-z0-9+/]*={0,2})$/;
/** A drawn or uploaded signature is kept small: the spec's -142 for anything larger. */
export const SIGNATURE_IMAGE_MAX_BYTES = 2 * 1024 * 1024;
const TEXT_VALUE_MAX_LENGTH = 4000;
const MAX_SEAL_ATTEMPTS = 4;


function imageOf(value: string): SealImage | null {
  const match = IMAGE_DATA_URL.exec(value);
  if (!match) return null;
  return { format: match[1] === 'png' ? 'png' : 'jpeg', data: Buffer.from(match[2]!, 'base64') };
}

/**
 * A composite with members is only their frame (the members carry the values); one without
 * members, as the tag editor places it, is a signature block of its own: its value is the
 * signature, it is required, and it can be the signature's widget.
 */
const isSignatureLike = (tag: Tag) => isSignatureTag(tag) || (tag.type === 'composite' && !isGroupTag(tag));

function textOf(tag: Tag): string {
  if (Array.isArray(tag.value)) return tag.value.join(', ');
  return tag.value ?? '';
}

interface Signer {
  readonly recipientId: string;
  readonly stepOrder: number;
  readonly stepType: string;
  readonly email: string;
  readonly name: string;
  readonly userId: string;
  /** Who the record says signs, and what was typed at this place before (signer-name.ts). */
  readonly record: SignerRecord;
  readonly signedName: string | null;
}
/** Who fills and signs, as the tags see them. */
type SignerIdentity = Omit<Signer, 'record' | 'signedName'>;

/**
 * The caller's tags with the values sent merged in and the server's own filled (time stamp,
 * name, address, ids); refuses values for tags that are not the caller's, malformed images, and
 * required tags left empty.
 */
export function fillSignerTags(options: { tags: Tag[]; signer: SignerIdentity; body: SignDocumentBody; documentId: string; at: Date }): { tags: Tag[]; filled: Tag[] } {
  const { signer, body } = options;
  const all = flattenTags(options.tags);
  const byUuid = new Map(all.map((tag) => [tag.uuid, tag]));
  const problems: Array<{ path: string; message: string }> = [];
  const sent = new Map<string, Tag['value']>();
  for (const fill of body.values) {
    const tag = byUuid.get(fill.uuid);
    if (!tag) problems.push({ path: `values.${fill.uuid}`, message: 'no such tag on this document' });
    else if (!isTagFor(tag, signer)) problems.push({ path: `values.${fill.uuid}`, message: 'this field is not yours to fill' });
    else if (tag.type === 'timeStamp') problems.push({ path: `values.${fill.uuid}`, message: 'time stamps are set by the server' });
    // A stamp's picture comes from the signer's stamps (rubberStamps), never from an upload.
    else if (isRubberStamp(tag)) problems.push({ path: `values.${fill.uuid}`, message: 'a rubber stamp is applied with rubberStamps' });
    else sent.set(fill.uuid, fill.value);
  }
  if (problems.length > 0) throw invalidInput('Some values are not for your fields.', problems);

  const serverValue = (tag: Tag): Tag['value'] | undefined => {
    switch (tag.type) {
      case 'timeStamp':
        return formatUtcTimestamp(options.at);
      case 'username':
        return signer.name;
      case 'email':
        return signer.email;
      case 'userUuid':
        return signer.userId;
      case 'docUuid':
        return options.documentId;
      case 'reason':
      case 'reasonFreeText':
        return body.reason;
      case 'location':
        return body.location;
      default:
        return undefined;
    }
  };

  const filled: Tag[] = [];
  const fill = (tag: Tag): Tag => {
    const children = tag.children?.map(fill);
    if (!isTagFor(tag, signer)) return children ? { ...tag, children } : tag;
    // A signer's mark and what the server fills from who signs come from this request alone: a
    // value stored with the tag beforehand was put there by someone else (presetValueProblems).
    const stored = isSignerMadeTag(tag) || isServerFilledTag(tag) ? null : tag.value;
    let value = sent.has(tag.uuid) ? sent.get(tag.uuid)! : stored;
    if (tag.type === 'timeStamp' || (!isFilledValue(value) && serverValue(tag) !== undefined)) value = serverValue(tag) ?? value;
    const next: Tag = { ...tag, value: value ?? null, ...(children ? { children } : {}) };
    if (!isGroupTag(tag)) {
      const required = isRequiredTag(tag);
      if (required && !isFilledValue(next.value)) problems.push({ path: `values.${tag.uuid}`, message: tag.validations?.required?.message || 'required' });
      if (typeof next.value === 'string' && next.value.startsWith('data:')) {
        const image = imageOf(next.value);
        if (!image) problems.push({ path: `values.${tag.uuid}`, message: 'imageTypeNotAllowed' });
        else if (isSignatureLike(tag) || tag.type === 'userInitial') {
          if (image.data.length > SIGNATURE_IMAGE_MAX_BYTES) {
            throw new DomainError(ResponseCode.SIGNATURE_UPLOAD_SIZE, `A signature image may be at most ${SIGNATURE_IMAGE_MAX_BYTES / 1024 / 1024} MB.`, {
              issues: [{ path: `values.${tag.uuid}`, message: 'maxSizeExceeded' }],
            });
          }
        } else if (!isRubberStamp(tag)) {
          // A stamp's image was checked when it was uploaded (its own size limit), and the server
          // put it here itself.
          const problem = imageValueProblem(next);
          if (problem) problems.push({ path: `values.${tag.uuid}`, message: problem.messageKey });
        }
      } else if (textOf(next).length > TEXT_VALUE_MAX_LENGTH) {
        problems.push({ path: `values.${tag.uuid}`, message: `at most ${TEXT_VALUE_MAX_LENGTH} characters` });
      }
      if (isFilledValue(next.value)) filled.push(next);
    }
    return next;
  };
  const tags = options.tags.map(fill);
  if (problems.length > 0) throw invalidInput('Fill in every required field of yours before signing.', problems);
  return { tags, filled };
}

/** The owner's values set at compose time (letterhead, QR, custodian text) not yet drawn. */
function ownersUndrawn(tags: Tag[]): Tag[] {
  return flattenTags(tags).filter((tag) => !isGroupTag(tag) && !tag.userEmail && tag.status !== 'done' && isFilledValue(tag.value));
}

function markDone(tags: Tag[], uuids: ReadonlySet<string>): Tag[] {
  return tags.map((tag) => ({
    ...tag,
    ...(uuids.has(tag.uuid) ? { status: 'done' as const } : {}),
    ...(tag.children ? { children: markDone(tag.children, uuids) } : {}),
  }));
}

/** What one tag becomes in the PDF: a field drawn in the signer's revision. */
function fieldOf(tag: Tag, pages: PageGeometry[], index: number): FieldRequest | null {
  const page = pages[tag.pageNumber - 1];
  if (!page) return null;
  const rect = toPdfUserSpace(tagRect(tag), page) as PdfBox;
  const pageIndex = tag.pageNumber - 1;
  const fieldName = `Pakt ${tag.type} ${index + 1} ${tag.uuid.slice(0, 8)}`;
  if (tag.type === 'qrcode') {
    const payload = qrPayload(qrEntriesOf(tag));
    return payload ? { kind: 'image', pageIndex, rect, fieldName, image: { format: 'png', data: qrPng(payload) } } : null;
  }
  const text = textOf(tag);
  const image = text.startsWith('data:') ? imageOf(text) : null;
  if (image) return { kind: 'image', pageIndex, rect, fieldName, image };
  const rotate = page.rotate as Rotation;
  const lines = tag.type === 'textArea' ? text.split(/\r?\n/) : [text];
  return { kind: 'text', pageIndex, rect, fieldName, value: text, appearance: textAppearance({ ...shownSizeOfRect(rect, rotate), rotate, lines, ...(tag.fontSize ? { fontSize: tag.fontSize } : {}) }) };
}

/** The signature widget: the caller's first signature tag, or an invisible one when they have none here. */
function signatureOf(options: { tags: Tag[]; pages: PageGeometry[]; signer: Signer; body: SignDocumentBody; at: Date }): { request: SignatureRequest; uses: Tag | null } {
  const { signer, pages, at } = options;
  const tag = options.tags.find((candidate) => isSignatureLike(candidate) && pages[candidate.pageNumber - 1]);
  const common = {
    fieldName: `Pakt signature ${signer.recipientId.slice(0, 8)} ${at.getTime()}`,
    signerName: signer.name,
    signedAt: at,
    ...(options.body.reason ? { reason: options.body.reason } : {}),
    ...(options.body.location ? { location: options.body.location } : {}),
  };
  if (!tag) {
    // An invisible signature (zero-size widget on page 1): the revision is still signed.
    return { request: { ...common, pageIndex: 0, rect: [0, 0, 0, 0], appearance: textAppearance({ width: 0, height: 0, rotate: 0, lines: [] }) }, uses: null };
  }
  const page = pages[tag.pageNumber - 1]!;
  const rect = toPdfUserSpace(tagRect(tag), page) as PdfBox;
  const rotate = page.rotate as Rotation;
  const text = textOf(tag);
  const image = imageOf(text);
  const lines = image ? [] : [text || signer.name, `Signed ${formatUtcTimestamp(at)}`];
  return {
    request: {
      ...common,
      pageIndex: tag.pageNumber - 1,
      rect,
      appearance: textAppearance({ ...shownSizeOfRect(rect, rotate), rotate, lines, border: true }),
      ...(image ? { image } : {}),
    },
    uses: tag,
  };
}

/** Every place the caller has in the ePak (someone may be a recipient of several steps). */
async function placesOf(db: Db, epakId: string, userId: string): Promise<Signer[]> {
  const rows = await db
    .select({
      recipientId: epakRecipients.id,
      order: epakSteps.position,
      type: epakSteps.type,
      signedName: epakRecipients.signedName,
      email: users.email,
      firstName: users.firstName,
      lastName: users.lastName,
      userType: users.type,
    })
    .from(epakRecipients)
    .innerJoin(epakSteps, eq(epakSteps.id, epakRecipients.stepId))
    .innerJoin(users, eq(users.id, epakRecipients.userId))
    .where(and(eq(epakRecipients.epakId, epakId), eq(epakRecipients.userId, userId)))
    .orderBy(asc(epakSteps.position));
  return rows.map((row) => ({
    recipientId: row.recipientId,
    stepOrder: row.order,
    stepType: row.type,
    email: row.email.toLowerCase(),
    name: placeName({ ...row, type: row.userType }, row.signedName),
    userId,
    record: { email: row.email, firstName: row.firstName, lastName: row.lastName, type: row.userType },
    signedName: row.signedName,
  }));
}

/**
 * A sign that committed but whose answer was lost is retried with the same body; by then the
 * ePak may have moved on, even to another place of the same person. The answer is the revision
 * of the place the request was for: the place under way when it has signed this document; else
 * the earlier place whose fields the values name (or, with the ePak no longer waiting for the
 * caller, their latest signed place). Null: nothing was signed for this request yet.
 */
function alreadySigned(options: { places: Signer[]; current: Signer | undefined; revisions: Map<string, number>; tags: Tag[]; body: SignDocumentBody }): { place: Signer; revision: number } | null {
  const { places, current, revisions } = options;
  const signedPlaces = places.filter((place) => revisions.has(place.recipientId));
  if (current && revisions.has(current.recipientId)) return { place: current, revision: revisions.get(current.recipientId)! };
  if (signedPlaces.length === 0) return null;
  const byUuid = new Map(flattenTags(options.tags).map((tag) => [tag.uuid, tag]));
  const named = new Set(options.body.values.map((fill) => byUuid.get(fill.uuid)?.wfsOrderId).filter((order): order is number => order !== undefined));
  const target = signedPlaces.find((place) => named.has(place.stepOrder)) ?? (current ? undefined : signedPlaces.at(-1));
  return target ? { place: target, revision: revisions.get(target.recipientId)! } : null;
}

/** The engine's reason a recipient cannot act now (-28, -23, -72), thrown. */
function refuseLikeTheEngine(state: Parameters<typeof transition>[0], recipientId: string): never {
  const result = transition(state, { type: 'sign', recipientId });
  if (!result.ok) throw new DomainError(ResponseCode[result.code], result.reason);
  throw new DomainError(ResponseCode.USER_WORKFLOW_STATUS_NOT_PENDING, 'Nothing of this ePak is waiting for you now.');
}

export async function signDocument(options: SignDocumentOptions): Promise<SignDocumentResult> {
  const { ctx, body } = options;
  const db = ctx.database.db;
  if (body.action !== 'SIGN') {
    throw invalidInput(`${body.action} needs a signing policy with the signer's own device; this tenant signs with its seal (action SIGN).`, [{ path: 'action', message: body.action }]);
  }
  for (let attempt = 1; ; attempt++) {
    const outcome = await attemptSign(options, db);
    if (outcome !== 'moved') return outcome;
    // Another signer of the same step appended a revision while this one was being sealed.
    if (attempt >= MAX_SEAL_ATTEMPTS) throw new DomainError(ResponseCode.EPAK_MODIFIED, 'The document kept changing while it was being signed; try again.');
  }
}

async function attemptSign(options: SignDocumentOptions, db: Db): Promise<SignDocumentResult | 'moved'> {
  const { ctx, actor, body } = options;
  const at = options.now?.() ?? new Date();
  const { epak } = await loadVisibleEpak(db, actor, options.epakId, { action: 'epak.respond' });
  assertActionable(epak);
  assertNotOverdue(epak, at);
  const places = await placesOf(db, epak.id, actor.userId);
  const [doc] = await db.select().from(epakDocuments).where(and(eq(epakDocuments.id, options.documentId), eq(epakDocuments.epakId, epak.id)));
  if (!doc) throw new DomainError(ResponseCode.DOCUMENT_DOES_NOT_EXIST, 'No such document in this ePak.');

  // Read once, for the retry check here and the file sealed over below (the transaction checks
  // again that no revision came meanwhile).
  const revisions = await revisionsOf(db, doc.id);
  const revisionOf = new Map(revisions.filter((r) => r.recipientId !== null).map((r) => [r.recipientId!, r.seq]));
  const currentPlace = places.find((place) => place.stepOrder === epak.currentStep);
  const retried = alreadySigned({ places, current: currentPlace, revisions: revisionOf, tags: doc.tags as Tag[], body });
  if (retried) return presentResult(db, { epakId: epak.id, documentId: doc.id, recipientId: retried.place.recipientId, revision: retried.revision });
  const place = currentPlace ?? places[0]!;

  const stored = await loadEngineState(db, epak);
  const mine = stored.recipients.find((r) => r.id === place.recipientId);
  if (epak.status !== 'InProgress' || place.stepOrder !== epak.currentStep || (mine?.status !== 'Pending' && mine?.status !== 'DelegatePending')) {
    refuseLikeTheEngine(stored.state, place.recipientId);
  }
  if (place.stepType !== 'SIGN' && place.stepType !== 'INPERSONSIGN') {
    throw invalidInput('This step asks for a review, not a signature: mark it reviewed instead.', [{ path: 'action', message: place.stepType }]);
  }
  if (place.stepType === 'INPERSONSIGN' && !options.inPerson) {
    throw invalidInput('This step is signed in person, on the device of the person who sent it, after confirming your identity there.', [
      { path: 'action', message: 'INPERSONSIGN' },
    ]);
  }
  // Signer verification (issue 22): a place that must confirm a code and has not is refused (-151)
  // before any sealing work, so nothing is stored.
  await assertRecipientVerified(db, place.recipientId, 'sign');
  const viewer = await loadViewer(db, actor, epak);
  if (!viewer.eligibleForAction) {
    throw invalidInput('This ePak must be read before you act: open every document first.', [{ path: 'viewEnforced', message: 'notRead' }]);
  }
  // Spec §9 geolocation MANDATORY: refused before any sealing work, so nothing is stored. The
  // body's location is trimmed already; OPTIONAL and OFF take a location or none, as sent.
  if (viewer.geolocation === 'MANDATORY' && !body.location) {
    throw invalidInput('Say where you are signing: this organisation records the location of every signature.', [{ path: 'location', message: 'required' }]);
  }
  // Issue 22: an external signer signs under the name they type, never under their address.
  const typedName = typedSignerName({ user: place.record, signedName: place.signedName, typed: body.signerName });
  if (!typedName) throw invalidInput('Type your full name: it is the name you sign under.', [{ path: 'signerName', message: 'required' }]);
  const signer: Signer = { ...place, name: typedName };

  const pages = doc.pages as PageGeometry[];
  // Rubber stamps (issue 8): refused (-11) before any sealing work unless this signer may apply them.
  const stamps = await resolveStampUses({ db, storage: ctx.storage, tenantId: epak.tenantId, userId: actor.userId, uses: body.rubberStamps ?? [] });
  const stamped = (tags: Tag[]) => applyStamps({ tags, pages, signer, stamps });
  const { tags: filledTags, filled } = fillSignerTags({ tags: stamped(doc.tags as Tag[]), signer, body, documentId: doc.id, at });
  const seal = await ensureTenantSeal({ db, vault: ctx.vault, tenantId: actor.tenantId, keyAlgorithm: ctx.config.sealKeyAlgorithm });

  const before = currentVersion(doc, revisions);
  const current = await readCurrentDocumentHashed(ctx.storage, doc, revisions);
  // A file poppler can only read after rebuilding its cross-reference is rewritten once, before
  // its first signature (sealing/repair.ts); from then on everything is appended.
  const prepared: PreparedSource = revisions.length === 0 ? await prepareForSealing(current.bytes).catch(sealRefusal) : { source: current.bytes, repaired: false };

  const { request, uses } = signatureOf({ tags: filled, pages, signer, body, at });
  const owners = ownersUndrawn(filledTags);
  const drawn = [...filled.filter((tag) => tag !== uses), ...owners];
  const fields = drawn.map((tag, index) => fieldOf(tag, pages, index)).filter((field): field is FieldRequest => field !== null);
  // The first signature on a document draws its stamp line, where the tenant asks for one.
  if (revisions.length === 0 && (await loadTenantSettings(db, epak.tenantId)).documentQrStamp === true) {
    fields.push(...stampLineFields({ pages, source: prepared.source, epakId: epak.id, publicUrl: ctx.config.publicUrl, vault: ctx.vault }));
  }
  const chain = [seal.caCertificatePem];
  const sealed = await sealRevision({
    source: prepared.source,
    signature: request,
    fields,
    cmsMaxSize: maxCmsSize({ certificate: seal.sealCertificatePem, chain }),
    sign: (digest) => signDigest({ digest, key: seal.sealPrivateKeyPem, certificate: seal.sealCertificatePem, chain }),
    // A repaired file is other bytes than the ones hashed while reading.
    ...(prepared.repaired ? {} : { sourceHash: current.hash }),
    // Opened once: the check before the first signature has read it already.
    ...(prepared.file ? { file: prepared.file } : {}),
  }).catch(sealRefusal);

  // The bytes exist on disk before any row points at them.
  const base = prepared.repaired ? await ctx.storage.put(Readable.from([prepared.source])) : null;
  const tail = await ctx.storage.put(Readable.from([sealed.tail]));
  const afterSha = sealed.sha256;
  await options.afterBlobStored?.();

  const doneUuids = new Set([...filled, ...owners].map((tag) => tag.uuid));
  const committed = await db.transaction(async (tx) => {
    const [locked] = await tx.select().from(epaks).where(eq(epaks.id, epak.id)).for('update');
    if (!locked) throw new DomainError(ResponseCode.EPAK_DELETED, 'This ePak no longer exists.');
    assertActionable(locked);
    assertNotOverdue(locked, at);
    const [again] = await tx
      .select()
      .from(epakDocumentRevisions)
      .where(and(eq(epakDocumentRevisions.epakDocumentId, doc.id), eq(epakDocumentRevisions.recipientId, signer.recipientId)));
    if (again) return { revision: again.seq, result: null };
    const [docNow] = await tx.select().from(epakDocuments).where(eq(epakDocuments.id, doc.id));
    const revisionsNow = await tx.select().from(epakDocumentRevisions).where(eq(epakDocumentRevisions.epakDocumentId, doc.id)).orderBy(asc(epakDocumentRevisions.seq));
    if (currentVersion(docNow!, revisionsNow).sha256 !== before.sha256) return 'moved' as const;
    const state = await loadEngineState(tx, locked);
    const place = state.recipients.find((r) => r.id === signer.recipientId);
    if (locked.status !== 'InProgress' || signer.stepOrder !== locked.currentStep || (place?.status !== 'Pending' && place?.status !== 'DelegatePending')) {
      refuseLikeTheEngine(state.state, signer.recipientId);
    }

    if (base) await tx.update(epakDocuments).set({ sha256: base.sha256, size: base.size }).where(eq(epakDocuments.id, doc.id));
    const seq = revisionsNow.length + 1;
    await tx.insert(epakDocumentRevisions).values({
      epakDocumentId: doc.id,
      seq,
      recipientId: signer.recipientId,
      predecessorSha256: base?.sha256 ?? before.sha256,
      sha256: afterSha,
      size: prepared.source.length + sealed.tail.length,
      tailSha256: tail.sha256,
      tailSize: tail.size,
    });
    // The values go into the stored tags too, so every viewer shows what the PDF now shows. Tags
    // are re-read under the lock: another signer of this step may have filled theirs meanwhile.
    const { tags: latest } = fillSignerTags({ tags: stamped(docNow!.tags as Tag[]), signer, body, documentId: doc.id, at });
    await tx.update(epakDocuments).set({ tags: markDone(latest, doneUuids) }).where(eq(epakDocuments.id, doc.id));
    if (signer.record.type === 'external' && signer.name !== signer.signedName) {
      await storeTypedName(tx, { recipientId: signer.recipientId, userId: signer.userId, name: signer.name });
    }
    await recordEpakActivity(tx, {
      epakId: epak.id,
      actorId: actor.userId,
      action: 'documentSigned',
      details: {
        documentId: doc.id,
        documentName: doc.name,
        revision: seq,
        before: before.sha256,
        after: afterSha,
        repaired: prepared.repaired,
        fields: fields.length,
        reason: body.reason ?? null,
        signerName: signer.name,
        ...(stamps.length > 0 ? { rubberStamps: stampsOf(stamps) } : {}),
      },
      ip: options.ip ?? null,
    });

    // With the caller's last document their place is done and the engine moves on.
    const docIds = (await tx.select({ id: epakDocuments.id }).from(epakDocuments).where(eq(epakDocuments.epakId, epak.id)).orderBy(asc(epakDocuments.position))).map((d) => d.id);
    const signedIds = new Set(
      (await tx.select({ id: epakDocumentRevisions.epakDocumentId }).from(epakDocumentRevisions).where(eq(epakDocumentRevisions.recipientId, signer.recipientId))).map((r) => r.id),
    );
    // The answer, from what this transaction read and wrote (presentResult would read it all again after the commit).
    const answer = (epakStatus: string, signerStatus: string): SignDocumentResult => ({
      ePakId: epak.id,
      documentId: doc.id,
      documentStatus: 'Signed',
      signerStatus: signerStatus as SignerStatus,
      epakStatus: epakStatus as SignDocumentResult['epakStatus'],
      remainingDocumentIds: docIds.filter((id) => !signedIds.has(id)),
      revision: seq,
    });
    if (docIds.every((id) => signedIds.has(id))) {
      const result = transition(state.state, { type: 'sign', recipientId: signer.recipientId });
      if (!result.ok) throw new DomainError(ResponseCode[result.code], result.reason);
      await storeEngineState(tx, epak.id, state, result, result.state.status === 'InProgress' ? {} : { endedAt: at });
      await tx.update(epakRecipients).set({ actedAt: at }).where(eq(epakRecipients.id, signer.recipientId));
      await recordEpakActivity(tx, {
        epakId: epak.id,
        actorId: actor.userId,
        action: 'signed',
        details: { recipientId: signer.recipientId, step: signer.stepOrder, status: result.state.status, effects: result.effects, signerName: signer.name },
        ip: options.ip ?? null,
      });
      await queueEngineEffects(tx, {
        epakId: epak.id,
        effects: result.effects,
        publicUrl: ctx.config.publicUrl,
        linkDays: ctx.config.signingLinkDays,
        now: at,
        actorId: actor.userId,
        actorName: signer.name,
        // The signer's reason reaches the owner as a signerComments notification.
        comment: body.reason,
        commentBy: 'signer',
      });
      const after = result.state.steps.flatMap((step) => step.recipients).find((r) => r.recipientId === signer.recipientId);
      return { revision: seq, result: answer(result.state.status, after?.status ?? place!.status) };
    }
    return { revision: seq, result: answer(locked.status, place!.status) };
  });
  if (committed === 'moved') return 'moved';
  return committed.result ?? presentResult(db, { epakId: epak.id, documentId: doc.id, recipientId: signer.recipientId, revision: committed.revision });
}

/** What the activity log keeps of the stamps applied: which, and under what name then. */
const stampsOf = (stamps: readonly ResolvedStamp[]) => stamps.map((stamp) => ({ rubberStampId: stamp.rubberStampId, name: stamp.name }));

function sealRefusal(error: unknown): never {
  if (error instanceof SealError) throw new DomainError(ResponseCode.INVALID_DOCUMENT, `This document cannot be signed: ${error.message}`);
  throw error;
}

async function presentResult(db: Db, options: { epakId: string; documentId: string; recipientId: string; revision: number }): Promise<SignDocumentResult> {
  const [epak] = await db.select({ status: epaks.status }).from(epaks).where(eq(epaks.id, options.epakId));
  const [recipient] = await db.select({ status: epakRecipients.status }).from(epakRecipients).where(eq(epakRecipients.id, options.recipientId));
  const docIds = (await db.select({ id: epakDocuments.id }).from(epakDocuments).where(eq(epakDocuments.epakId, options.epakId)).orderBy(asc(epakDocuments.position))).map((d) => d.id);
  const signed = new Set(
    (await db.select({ id: epakDocumentRevisions.epakDocumentId }).from(epakDocumentRevisions).where(eq(epakDocumentRevisions.recipientId, options.recipientId))).map((r) => r.id),
  );
  return {
    ePakId: options.epakId,
    documentId: options.documentId,
    documentStatus: 'Signed',
    signerStatus: recipient!.status as SignerStatus,
    epakStatus: epak!.status as SignDocumentResult['epakStatus'],
    remainingDocumentIds: docIds.filter((id) => !signed.has(id)),
    revision: options.revision,
  };
}
