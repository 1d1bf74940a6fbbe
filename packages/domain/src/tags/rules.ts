import { supportsMultipleSignatureTags, type SigningPolicy } from '../constants/signing-policies';
import { IMAGE_TAG_DEFAULT_MAX_KB, TAG_PASTE_OFFSET, tagOverlapTolerance, type TagType } from '../constants/tags';
import { LETTERHEAD_MAX_SIZE_KB } from '../constants/ui';
import type { PageGeometry } from '../documents';
import { DomainError } from '../domain-error';
import type { MessageKey } from '../message-keys';
import { ResponseCode, type ResponseCodeName } from '../response-codes';
import { displayToPage, GEOMETRY_EPSILON, isInsidePage, pageFrameShift, pageToDisplay, rectsOverlap, shownSize, tagRect, toBlockBounds, type Rect } from './geometry';
import { FONT_SIZE_LIMITS, flattenTags, isRubberStamp, tagDimensions, type Tag } from './tag';

/**
 * The tag placement rules of spec §5 as pure functions. The editor runs `validateTagLayout`
 * live to colour invalid tags, and the server runs the same function on save, so the two can
 * never disagree. The edit helpers (`moveTag`, `resizeTag`, `pasteTag`) answer either the edited
 * tag or the problems that make the editor roll the edit back.
 *
 * All geometry is in the page frame of `geometry.ts` (points, unrotated, top-left origin).
 */

/** Problem keys that are spec §8 message keys. */
export const SPEC_TAG_PROBLEM_KEYS = ['tagOverlappingError', 'tagDimensionsCrossedMsg', 'pasteError', 'maxSizeExceeded'] as const satisfies readonly MessageKey[];

/**
 * Problem keys of ours, for §5 rules the spec names no message key for. They are not in
 * MESSAGE_KEYS (which mirrors spec §8), so the web app's bundles must define them on their own.
 * - tagOutsidePage: the tag does not lie fully inside its page, or its page does not exist.
 * - tagSizeMissing: width or height is zero ("width and height must be set").
 * - multipleSignatureTagsUnsupported: a second signature tag for one signer under a policy
 *   that signs once (SINGLE_SIGNATURE_TAG_POLICIES).
 * - reasonTagNotSelected: a signer's signature has no reason tag where the policy demands one
 *   (response code -49, ESIGNATURE_REASON_TAG_NOT_SELECTED).
 * - duplicateTagUuid: two tags share a uuid; every later one is reported.
 * - imageTypeNotAllowed: an image or letterhead tag holds something other than a PNG or JPEG.
 * - presetSignerValue: a signer's mark (signature, typed signature, initials, signature block) or a
 *   field the server fills from who signs (name, address, ids, time stamp) carries a value before
 *   signing (presetValueProblems in filling.ts).
 */
export const OWN_TAG_PROBLEM_KEYS = [
  'tagOutsidePage',
  'tagSizeMissing',
  'multipleSignatureTagsUnsupported',
  'reasonTagNotSelected',
  'duplicateTagUuid',
  'imageTypeNotAllowed',
  'presetSignerValue',
] as const;

export const TAG_PROBLEM_KEYS = [...SPEC_TAG_PROBLEM_KEYS, ...OWN_TAG_PROBLEM_KEYS] as const;
export type TagProblemKey = (typeof TAG_PROBLEM_KEYS)[number];

/** One broken rule: the tag to highlight, the message to show and the values it interpolates. */
export interface TagProblem {
  readonly tagUuid: string;
  readonly messageKey: TagProblemKey;
  readonly params?: Readonly<Record<string, string | number>>;
}

/** The catalogue code the server answers with for each problem (see `tagLayoutError`). */
export const TAG_PROBLEM_RESPONSE_CODES = {
  tagOverlappingError: 'INVALID_INPUT',
  tagDimensionsCrossedMsg: 'INVALID_INPUT',
  pasteError: 'INVALID_INPUT',
  tagOutsidePage: 'INVALID_INPUT',
  tagSizeMissing: 'INVALID_INPUT',
  multipleSignatureTagsUnsupported: 'INVALID_INPUT',
  reasonTagNotSelected: 'ESIGNATURE_REASON_TAG_NOT_SELECTED',
  duplicateTagUuid: 'INVALID_INPUT',
  maxSizeExceeded: 'INVALID_INPUT',
  imageTypeNotAllowed: 'INVALID_INPUT',
  presetSignerValue: 'INVALID_INPUT',
} as const satisfies Record<TagProblemKey, ResponseCodeName>;

// ---------------------------------------------------------------------------------------------
// Tag families

/**
 * Tags carrying a person's mark; none of them may overlap another (spec §5). `userInitial` is
 * the initials tag; `signatureText` is a typed signature.
 */
export const SIGNATURE_FAMILY_TAG_TYPES = ['signature', 'signatureText', 'userInitial'] as const satisfies readonly TagType[];

/** The tags that are a signer's signature: counted by the one-signature-tag and reason rules. */
export const SIGNATURE_TAG_TYPES = ['signature', 'signatureText'] as const satisfies readonly TagType[];

/** Either reason tag satisfies the reason rule: one picked from the list, or one typed freely. */
export const REASON_TAG_TYPES = ['reason', 'reasonFreeText'] as const satisfies readonly TagType[];

/**
 * Policies that demand a reason with every signature by default. ESIGNATURE is the only one
 * the -49 code names; its tag set (POLICY_TAG_SETS.ESIGN) carries the reasons tag.
 */
export const REASON_TAG_REQUIRED_POLICIES = ['ESIGNATURE'] as const satisfies readonly SigningPolicy[];

const includes = <T extends string>(list: readonly T[], value: string): value is T => (list as readonly string[]).includes(value);

export function isSignatureFamilyTag(tag: Pick<Tag, 'type'>): boolean {
  return includes(SIGNATURE_FAMILY_TAG_TYPES, tag.type);
}

export function isSignatureTag(tag: Pick<Tag, 'type'>): boolean {
  return includes(SIGNATURE_TAG_TYPES, tag.type);
}

export function isReasonTag(tag: Pick<Tag, 'type'>): boolean {
  return includes(REASON_TAG_TYPES, tag.type);
}

export function policyRequiresReasonTag(policy: SigningPolicy): boolean {
  return includes(REASON_TAG_REQUIRED_POLICIES, policy);
}

/**
 * Who a tag is for: one person (uuid, else email, case-folded) at one workflow step. The same
 * person signing at two steps signs twice, so those are two signers here. Null when the tag is
 * not assigned to anyone yet.
 */
export function signerKey(tag: Pick<Tag, 'userUuid' | 'userEmail' | 'wfsOrderId'>): string | null {
  const uuid = tag.userUuid?.trim();
  const email = tag.userEmail?.trim().toLowerCase();
  const who = uuid ? `uuid:${uuid}` : email ? `email:${email}` : null;
  return who === null ? null : `${tag.wfsOrderId ?? ''}|${who}`;
}

/** Who fills tags: an address and the step of their place (null: whichever step they are in). */
export interface TagFiller {
  readonly email: string;
  readonly stepOrder: number | null;
}

/**
 * Is this tag the person's to fill: meant for their address (both sides trimmed and case-folded)
 * and, when the tag and the person both name a step, for that step. A tag naming no step is
 * theirs in any; the same person may sign at two steps, each with its own tags. The one rule the
 * server (signing, stamps, attachments, the engine) and the web app (the ceremony, stamp
 * placement) both ask.
 */
export function isTagFor(tag: Pick<Tag, 'userEmail' | 'wfsOrderId'>, person: TagFiller): boolean {
  const email = tag.userEmail?.trim().toLowerCase();
  if (!email || email !== person.email.trim().toLowerCase()) return false;
  return tag.wfsOrderId === undefined || person.stepOrder === null || tag.wfsOrderId === person.stepOrder;
}

// ---------------------------------------------------------------------------------------------
// Overlap

/**
 * What a tag is to the overlap rule: a signature-family tag, a rubber stamp, or neither (not
 * checked at all). A stamp may cover a signature or initials, which is the one exception the
 * spec makes; two stamps must not overlap, since the upper one would hide the other.
 */
function overlapClass(tag: Tag): 'signature' | 'stamp' | null {
  if (isRubberStamp(tag)) return 'stamp';
  return isSignatureFamilyTag(tag) ? 'signature' : null;
}

/**
 * True when the two tags overlap in a way spec §5 forbids. The tolerance is the stricter of the
 * two tags' (`tagOverlapTolerance`: 0 when either is new, else 3 points), so placing a new tag
 * is checked strictly and tags loaded from a document get slack for rounding. Tags that merely
 * touch along an edge never overlap. Symmetric in a and b; the caller excludes a tag from being
 * compared with itself.
 */
export function isForbiddenOverlap(a: Tag, b: Tag): boolean {
  if (a.pageNumber !== b.pageNumber) return false;
  const classA = overlapClass(a);
  const classB = overlapClass(b);
  if (classA === null || classB === null || classA !== classB) return false;
  const tolerance = Math.min(tagOverlapTolerance(a.createType), tagOverlapTolerance(b.createType));
  return rectsOverlap(tagRect(a), tagRect(b), tolerance);
}

/** Every forbidden overlap, reported on both tags, each naming the other. */
export function overlapProblems(tags: readonly Tag[]): TagProblem[] {
  const byPage = new Map<number, Tag[]>();
  for (const tag of tags) {
    if (overlapClass(tag) === null) continue;
    const onPage = byPage.get(tag.pageNumber) ?? [];
    onPage.push(tag);
    byPage.set(tag.pageNumber, onPage);
  }
  const problems: TagProblem[] = [];
  for (const onPage of byPage.values()) {
    for (let i = 0; i < onPage.length; i++) {
      for (let j = i + 1; j < onPage.length; j++) {
        const a = onPage[i]!;
        const b = onPage[j]!;
        if (!isForbiddenOverlap(a, b)) continue;
        problems.push({ tagUuid: a.uuid, messageKey: 'tagOverlappingError', params: { otherTagUuid: b.uuid } });
        problems.push({ tagUuid: b.uuid, messageKey: 'tagOverlappingError', params: { otherTagUuid: a.uuid } });
      }
    }
  }
  return problems;
}

// ---------------------------------------------------------------------------------------------
// Size and font limits

/** The limits a tag is held to, each resolved from the tag's own min/max or the defaults. */
export interface TagSizeLimits {
  readonly minWidth: number;
  readonly minHeight: number;
  readonly maxWidth: number;
  readonly maxHeight: number;
  readonly minFontSize: number;
  readonly maxFontSize: number;
}

/**
 * A tag's own limit wins over the default (spec §5: "the tag's own min and max, or the global
 * limits"). When one own limit crosses the other side's default (own min 500 against the
 * default max 400), the default side gives way so the range never empties.
 */
function resolveRange(ownMin: number | undefined, ownMax: number | undefined, min: number, max: number): [number, number] {
  const lo = ownMin ?? min;
  const hi = ownMax ?? max;
  if (lo <= hi) return [lo, hi];
  return ownMax !== undefined && ownMin === undefined ? [hi, hi] : [lo, lo];
}

export function tagSizeLimits(tag: Pick<Tag, 'type' | 'subType' | 'min' | 'max'>): TagSizeLimits {
  const defaults = tagDimensions(tag.type, tag.subType);
  const [minWidth, maxWidth] = resolveRange(tag.min?.width, tag.max?.width, defaults.min.width, defaults.max.width);
  const [minHeight, maxHeight] = resolveRange(tag.min?.height, tag.max?.height, defaults.min.height, defaults.max.height);
  const [minFontSize, maxFontSize] = resolveRange(tag.min?.fontSize, tag.max?.fontSize, FONT_SIZE_LIMITS.min, FONT_SIZE_LIMITS.max);
  return { minWidth, minHeight, maxWidth, maxHeight, minFontSize, maxFontSize };
}

const within = (value: number, min: number, max: number) => value >= min - GEOMETRY_EPSILON && value <= max + GEOMETRY_EPSILON;

/** True when a width and height are set (spec §5: "width and height must be set"). */
function hasSize(size: Pick<Rect, 'width' | 'height'>): boolean {
  return size.width > GEOMETRY_EPSILON && size.height > GEOMETRY_EPSILON;
}

/**
 * tagDimensionsCrossedMsg when the size is outside the tag's limits, giving both limits. `size`
 * is in the page frame; the limits hold for the size as shown on a page of that rotation.
 */
export function sizeProblem(tag: Tag, size: Pick<Rect, 'width' | 'height'> = tagRect(tag), rotate: PageGeometry['rotate'] = 0): TagProblem | null {
  const limits = tagSizeLimits(tag);
  const shown = shownSize(size, rotate);
  if (within(shown.width, limits.minWidth, limits.maxWidth) && within(shown.height, limits.minHeight, limits.maxHeight)) return null;
  return {
    tagUuid: tag.uuid,
    messageKey: 'tagDimensionsCrossedMsg',
    params: {
      dimension: 'size',
      minWidth: limits.minWidth,
      minHeight: limits.minHeight,
      maxWidth: limits.maxWidth,
      maxHeight: limits.maxHeight,
    },
  };
}

/** tagDimensionsCrossedMsg when a set font size is outside the tag's (or global) limits. */
export function fontSizeProblem(tag: Tag): TagProblem | null {
  if (tag.fontSize === undefined) return null;
  const limits = tagSizeLimits(tag);
  if (within(tag.fontSize, limits.minFontSize, limits.maxFontSize)) return null;
  return {
    tagUuid: tag.uuid,
    messageKey: 'tagDimensionsCrossedMsg',
    params: { dimension: 'fontSize', minFontSize: limits.minFontSize, maxFontSize: limits.maxFontSize },
  };
}

// ---------------------------------------------------------------------------------------------
// Page bounds

/** The page a tag is on, or undefined when its pageNumber is past the document's pages. */
export function pageOf(tag: Pick<Tag, 'pageNumber'>, pages: readonly PageGeometry[]): PageGeometry | undefined {
  return pages[tag.pageNumber - 1];
}

/** tagOutsidePage unless the tag lies fully inside its page (spec §5). */
export function pageProblem(tag: Tag, pages: readonly PageGeometry[]): TagProblem | null {
  const page = pageOf(tag, pages);
  if (page !== undefined && isInsidePage(tagRect(tag), page)) return null;
  return { tagUuid: tag.uuid, messageKey: 'tagOutsidePage', params: { pageNumber: tag.pageNumber } };
}

// ---------------------------------------------------------------------------------------------
// Images held by a tag

/** Image tags hold PNG or JPEG (spec §5: png/jpg; a letterhead's jpeg is a JPEG too). */
const IMAGE_DATA_URL = /^data:image\/(png|jpeg);base64,([A-Za-z0-9+/]*={0,2})$/;

/** The largest image a tag may hold, in KB: a letterhead 500 KB, an image tag its maxUpload. */
export function imageLimitKb(tag: Pick<Tag, 'type' | 'maxUpload'>): number | null {
  if (tag.type === 'letterHead') return LETTERHEAD_MAX_SIZE_KB;
  if (tag.type === 'image') return tag.maxUpload ?? IMAGE_TAG_DEFAULT_MAX_KB;
  return null;
}

/**
 * The editor checks a picked file before reading it; the server checks what arrives, since a
 * tag's value is whatever the client sent. Reports imageTypeNotAllowed for anything that is not a
 * base64 PNG or JPEG data URL, and maxSizeExceeded (with the limit) past the tag's limit.
 */
export function imageValueProblem(tag: Tag): TagProblem | null {
  const limitKb = imageLimitKb(tag);
  if (limitKb === null || tag.value === null || tag.value === '') return null;
  const match = typeof tag.value === 'string' ? IMAGE_DATA_URL.exec(tag.value) : null;
  if (!match) return { tagUuid: tag.uuid, messageKey: 'imageTypeNotAllowed' };
  const base64 = match[2]!;
  const bytes = (base64.length * 3) / 4 - (base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0);
  return bytes > limitKb * 1024 ? { tagUuid: tag.uuid, messageKey: 'maxSizeExceeded', params: { maxKb: limitKb } } : null;
}

// ---------------------------------------------------------------------------------------------
// Policy rules

function groupSignatureTags(tags: readonly Tag[]): Map<string | null, Tag[]> {
  const groups = new Map<string | null, Tag[]>();
  for (const tag of tags) {
    if (!isSignatureTag(tag)) continue;
    const key = signerKey(tag);
    const group = groups.get(key) ?? [];
    group.push(tag);
    groups.set(key, group);
  }
  return groups;
}

/**
 * Under a policy that signs once (supportsMultipleSignatureTags false), every signature tag of a
 * signer after their first is reported. Unassigned tags are skipped: they may yet go to
 * different signers.
 */
export function multipleSignatureProblems(tags: readonly Tag[], policy: SigningPolicy): TagProblem[] {
  if (supportsMultipleSignatureTags(policy)) return [];
  const problems: TagProblem[] = [];
  for (const [key, group] of groupSignatureTags(tags)) {
    if (key === null) continue;
    for (const extra of group.slice(1)) {
      problems.push({ tagUuid: extra.uuid, messageKey: 'multipleSignatureTagsUnsupported', params: { policy } });
    }
  }
  return problems;
}

/**
 * Every signer with a signature tag needs a reason tag of their own (-49). Reported once per
 * signer, on their first signature tag, which is where the editor points the user. Unassigned
 * signature tags are matched with unassigned reason tags.
 */
export function reasonTagProblems(tags: readonly Tag[]): TagProblem[] {
  const withReason = new Set<string | null>();
  for (const tag of tags) if (isReasonTag(tag)) withReason.add(signerKey(tag));
  const problems: TagProblem[] = [];
  for (const [key, group] of groupSignatureTags(tags)) {
    if (!withReason.has(key)) problems.push({ tagUuid: group[0]!.uuid, messageKey: 'reasonTagNotSelected' });
  }
  return problems;
}

// ---------------------------------------------------------------------------------------------
// The whole layout

export interface TagLayoutInput {
  readonly tags: readonly Tag[];
  /** The document's pages in order; tag.pageNumber n is pages[n - 1]. */
  readonly pages: readonly PageGeometry[];
  /** Null or absent while no policy is chosen: the policy rules are skipped then. */
  readonly policy?: SigningPolicy | null;
  /**
   * Whether each signature needs a reason tag. Defaults to what the policy demands
   * (`policyRequiresReasonTag`); a tenant setting may override it.
   */
  readonly reasonTagRequired?: boolean;
}

/**
 * Every placement problem of a document's tags (composite members included), in a stable order:
 * duplicate uuids, then per tag its page, size and font size, then overlaps, then the policy
 * rules. Empty means the layout may be saved.
 */
export function validateTagLayout(input: TagLayoutInput): TagProblem[] {
  const tags = flattenTags(input.tags);
  const problems: TagProblem[] = [];

  const seen = new Set<string>();
  for (const tag of tags) {
    if (seen.has(tag.uuid)) problems.push({ tagUuid: tag.uuid, messageKey: 'duplicateTagUuid' });
    seen.add(tag.uuid);
  }

  for (const tag of tags) {
    const outside = pageProblem(tag, input.pages);
    if (outside) problems.push(outside);
    if (!hasSize(tagRect(tag))) {
      problems.push({ tagUuid: tag.uuid, messageKey: 'tagSizeMissing' });
    } else {
      const size = sizeProblem(tag, tagRect(tag), pageOf(tag, input.pages)?.rotate ?? 0);
      if (size) problems.push(size);
    }
    const font = fontSizeProblem(tag);
    if (font) problems.push(font);
    const image = imageValueProblem(tag);
    if (image) problems.push(image);
  }

  problems.push(...overlapProblems(tags));

  const policy = input.policy ?? null;
  if (policy !== null) problems.push(...multipleSignatureProblems(tags, policy));
  if (input.reasonTagRequired ?? (policy !== null && policyRequiresReasonTag(policy))) {
    problems.push(...reasonTagProblems(tags));
  }
  return problems;
}

/**
 * The error the server answers a save with, or null when there are no problems. -6 (invalid
 * input) when any placement is wrong; -49 when the only thing missing is a reason tag. Each
 * problem becomes an issue (path `tags.<uuid>`, message = its key) and the full list travels in
 * `data.problems` so the editor can show the same messages it shows live.
 */
export function tagLayoutError(problems: readonly TagProblem[]): DomainError | null {
  if (problems.length === 0) return null;
  const codes = new Set(problems.map((problem) => TAG_PROBLEM_RESPONSE_CODES[problem.messageKey]));
  const name: ResponseCodeName = codes.has('INVALID_INPUT') ? 'INVALID_INPUT' : 'ESIGNATURE_REASON_TAG_NOT_SELECTED';
  const entry = ResponseCode[name];
  return new DomainError(entry, name === 'INVALID_INPUT' ? 'The tag layout breaks the placement rules.' : entry.meaning, {
    issues: problems.map((problem) => ({ path: `tags.${problem.tagUuid}`, message: problem.messageKey })),
    data: { problems: problems.map((problem) => ({ ...problem })) },
  });
}

/**
 * The tags with their blockBounds worked out again from their positions (composite members
 * included). The ratios are derived data: whoever stores tags keeps these, never a client's.
 * Tags on a page the document lacks are left as they are (validateTagLayout refuses them).
 */
export function withDerivedBounds(tags: readonly Tag[], pages: readonly PageGeometry[]): Tag[] {
  return tags.map((tag) => {
    const page = pageOf(tag, pages);
    const children = tag.children ? { children: withDerivedBounds(tag.children, pages) } : {};
    return page ? { ...tag, ...children, blockBounds: toBlockBounds(tagRect(tag), page) } : { ...tag, ...children };
  });
}

// ---------------------------------------------------------------------------------------------
// Edits: each answers the edited tag, or the problems for which the editor rolls the edit back.
// Overlaps do not refuse an edit: they show live through validateTagLayout until fixed, so a
// user can move one of two overlapping tags away step by step.

export type TagEdit = { readonly ok: true; readonly tag: Tag } | { readonly ok: false; readonly problems: readonly TagProblem[] };

/** Shift a tag and its members, put them on a page and recompute their blockBounds. */
function relocate(tag: Tag, dx: number, dy: number, pageNumber: number, page: PageGeometry, rewrite: (moved: Tag, source: Tag) => Tag = (moved) => moved): Tag {
  const rect = { x: tag.positionX + dx, y: tag.positionY + dy, width: tag.blockWidth, height: tag.blockHeight };
  const moved: Tag = {
    ...tag,
    pageNumber,
    positionX: rect.x,
    positionY: rect.y,
    blockBounds: toBlockBounds(rect, page),
    ...(tag.children ? { children: tag.children.map((child) => relocate(child, dx, dy, pageNumber, page, rewrite)) } : {}),
  };
  return rewrite(moved, tag);
}

function outsideProblems(tag: Tag, page: PageGeometry): TagProblem[] {
  return flattenTags([tag])
    .filter((member) => !isInsidePage(tagRect(member), page))
    .map((member) => ({ tagUuid: member.uuid, messageKey: 'tagOutsidePage' as const, params: { pageNumber: member.pageNumber } }));
}

/**
 * Drag a tag (with a composite's members) so its page-frame top-left corner lands at (x, y) on a
 * page, possibly another one (spec §3). A drop off the page, or onto a page that does not exist, is
 * refused and the editor reverts it.
 */
export function moveTag(tag: Tag, to: { readonly pageNumber: number; readonly x: number; readonly y: number }, pages: readonly PageGeometry[]): TagEdit {
  const page = pages[to.pageNumber - 1];
  if (page === undefined) return { ok: false, problems: [{ tagUuid: tag.uuid, messageKey: 'tagOutsidePage', params: { pageNumber: to.pageNumber } }] };
  // A tag keeps its size as shown: onto a page turned a quarter from its own, its page-frame
  // sides swap. (A composite keeps its members' layout as it is.)
  const from = pages[tag.pageNumber - 1];
  const quarter = (rotate: PageGeometry['rotate']) => rotate === 90 || rotate === 270;
  const turns = from !== undefined && quarter(from.rotate) !== quarter(page.rotate) && (tag.children?.length ?? 0) === 0;
  const sized = turns ? { ...tag, blockWidth: tag.blockHeight, blockHeight: tag.blockWidth } : tag;
  const moved = relocate(sized, to.x - tag.positionX, to.y - tag.positionY, to.pageNumber, page);
  const problems = outsideProblems(moved, page);
  return problems.length > 0 ? { ok: false, problems } : { ok: true, tag: moved };
}

/**
 * Resize a tag to a new page-frame rectangle (a handle may move its top-left corner too). Refused
 * when the size is missing, crosses the tag's limits (tagDimensionsCrossedMsg with the limits)
 * or leaves the page (spec §3: such a resize is rolled back). A composite's members keep their
 * places.
 */
export function resizeTag(tag: Tag, rect: Rect, page: PageGeometry): TagEdit {
  const problems: TagProblem[] = [];
  if (!hasSize(rect)) {
    problems.push({ tagUuid: tag.uuid, messageKey: 'tagSizeMissing' });
  } else {
    const size = sizeProblem(tag, rect, page.rotate);
    if (size) problems.push(size);
  }
  if (!isInsidePage(rect, page)) problems.push({ tagUuid: tag.uuid, messageKey: 'tagOutsidePage', params: { pageNumber: tag.pageNumber } });
  if (problems.length > 0) return { ok: false, problems };
  return {
    ok: true,
    tag: { ...tag, positionX: rect.x, positionY: rect.y, blockWidth: rect.width, blockHeight: rect.height, blockBounds: toBlockBounds(rect, page) },
  };
}

/**
 * Resize a tag to a width and height as shown (what the properties panel edits), keeping the
 * corner the person sees at the top left where it is. Same rules as `resizeTag`.
 */
export function resizeTagAsShown(tag: Tag, size: Pick<Rect, 'width' | 'height'>, page: PageGeometry): TagEdit {
  const shown = pageToDisplay(tagRect(tag), page, 1);
  return resizeTag(tag, displayToPage({ x: shown.x, y: shown.y, width: size.width, height: size.height }, page, 1), page);
}

export interface PasteOptions {
  /** The page pasted onto. */
  readonly page: PageGeometry;
  /** Its number; the source's page when absent. */
  readonly pageNumber?: number;
  /** Makes the uuid of the copy (and of each composite member); e.g. `() => crypto.randomUUID()`. */
  readonly newUuid: () => string;
}

/**
 * Paste a copy of a tag TAG_PASTE_OFFSET (+10, +8 points, as shown) from its source so it does
 * not hide it. The copy takes the source's definition (type, size, font, limits, signer, validations) but
 * not its fill: a new uuid, createType `new`, status pending, no value and no uniqueKey, with
 * originUuid naming the tag it was copied from. A copy that would not fit its page is refused
 * with pasteError (spec §5), reported on the source tag since the copy never comes to exist.
 */
export function pasteTag(source: Tag, options: PasteOptions): TagEdit {
  const pageNumber = options.pageNumber ?? source.pageNumber;
  // The offset is what the person sees (+10 right, +8 down), whatever the page's rotation.
  const shift = pageFrameShift(TAG_PASTE_OFFSET.x, TAG_PASTE_OFFSET.y, options.page.rotate);
  const copy = relocate(source, shift.dx, shift.dy, pageNumber, options.page, (moved, original) => {
    const { uniqueKey: _uniqueKey, ...rest } = moved;
    return { ...rest, uuid: options.newUuid(), originUuid: original.uuid, createType: 'new', status: 'pending', value: null };
  });
  if (outsideProblems(copy, options.page).length > 0) return { ok: false, problems: [{ tagUuid: source.uuid, messageKey: 'pasteError' }] };
  return { ok: true, tag: copy };
}
