import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SIGNING_POLICIES, SINGLE_SIGNATURE_TAG_POLICIES, type SigningPolicy } from '../constants/signing-policies';
import { IMAGE_TAG_MAX_UPLOAD_KB, TAG_CREATE_TYPES, TAG_PASTE_OFFSET, TAG_TYPES, type TagCreateType, type TagType } from '../constants/tags';
import type { PageGeometry } from '../documents';
import { DomainError } from '../domain-error';
import { MESSAGE_KEYS } from '../message-keys';
import { ResponseCode } from '../response-codes';
import { displayToPage, GEOMETRY_EPSILON, isInsidePage, pageToDisplay, tagRect, toBlockBounds, type Rect } from './geometry';
import {
  isTagFor,
  OWN_TAG_PROBLEM_KEYS,
  SPEC_TAG_PROBLEM_KEYS,
  TAG_PROBLEM_KEYS,
  imageValueProblem,
  isForbiddenOverlap,
  moveTag,
  overlapProblems,
  pasteTag,
  policyRequiresReasonTag,
  resizeTag,
  resizeTagAsShown,
  signerKey,
  tagLayoutError,
  tagSizeLimits,
  validateTagLayout,
  withDerivedBounds,
  type TagProblem,
} from './rules';
import { FONT_SIZE_LIMITS, RUBBER_STAMP_SUB_TYPE, TAG_DIMENSIONS, Tag, flattenTags, newTag, type TagInput } from './tag';

// ---------------------------------------------------------------------------------------------
// Fixtures

let counter = 0;
const nextUuid = () => `00000000-0000-4000-8000-${String(++counter).padStart(12, '0')}`;

/** A tag with sensible defaults: a 150 x 50 signature at (100, 100) on page 1, existing. */
function mk(patch: Partial<TagInput> = {}): Tag {
  return Tag.parse({
    uuid: nextUuid(),
    type: 'signature',
    pageNumber: 1,
    positionX: 100,
    positionY: 100,
    blockWidth: 150,
    blockHeight: 50,
    createType: 'existing',
    ...patch,
  });
}

const stamp = (patch: Partial<TagInput> = {}) => mk({ type: 'image', subType: RUBBER_STAMP_SUB_TYPE, blockWidth: 120, blockHeight: 120, ...patch });

const A4: PageGeometry = { width: 595, height: 842, x: 0, y: 0, rotate: 0 };
const pages: PageGeometry[] = [A4, { ...A4, rotate: 90 }];

const keys = (problems: readonly TagProblem[]) => problems.map((problem) => problem.messageKey);

// ---------------------------------------------------------------------------------------------

describe('problem keys', () => {
  it('use the spec message keys where the spec names one', () => {
    for (const key of SPEC_TAG_PROBLEM_KEYS) expect(MESSAGE_KEYS).toContain(key);
  });

  it('keep our own keys apart from the spec catalogue', () => {
    for (const key of OWN_TAG_PROBLEM_KEYS) expect(MESSAGE_KEYS).not.toContain(key);
    expect(new Set(TAG_PROBLEM_KEYS).size).toBe(TAG_PROBLEM_KEYS.length);
  });
});

describe('isTagFor: whose tag it is to fill', () => {
  const tag = (userEmail: string | undefined, wfsOrderId?: number) => ({ userEmail, wfsOrderId });
  it.each([
    ['the same address, any case and spaces, at the same step', tag(' Asha@Example.com ', 2), { email: 'asha@example.com', stepOrder: 2 }, true],
    ['an address padded on the person side', tag('asha@example.com', 2), { email: ' ASHA@example.com', stepOrder: 2 }, true],
    ['a tag naming no step: theirs at any', tag('asha@example.com'), { email: 'asha@example.com', stepOrder: 3 }, true],
    ['a person in no particular step: any of their tags', tag('asha@example.com', 4), { email: 'asha@example.com', stepOrder: null }, true],
    ['another step', tag('asha@example.com', 1), { email: 'asha@example.com', stepOrder: 2 }, false],
    ['another address', tag('ravi@example.com', 2), { email: 'asha@example.com', stepOrder: 2 }, false],
    ['a tag for nobody', tag(undefined, 2), { email: 'asha@example.com', stepOrder: 2 }, false],
    ['a blank address never matches', tag('  ', 2), { email: '  ', stepOrder: 2 }, false],
  ] as const)('%s', (_name, given, person, expected) => {
    expect(isTagFor(given, person)).toBe(expected);
  });
});

describe('overlap rule', () => {
  // The second tag sits 20 pt right of the first, so the two overlap by 130 x 30 or so.
  const over = { positionX: 120, positionY: 110 };

  it.each<{ name: string; a: Partial<TagInput>; b: Partial<TagInput>; forbidden: boolean }>([
    { name: 'signature over signature', a: {}, b: over, forbidden: true },
    { name: 'signature over typed signature', a: {}, b: { ...over, type: 'signatureText' }, forbidden: true },
    { name: 'signature over initials', a: {}, b: { ...over, type: 'userInitial' }, forbidden: true },
    { name: 'initials over initials', a: { type: 'userInitial' }, b: { ...over, type: 'userInitial' }, forbidden: true },
    { name: 'typed signature over initials', a: { type: 'signatureText' }, b: { ...over, type: 'userInitial' }, forbidden: true },
    { name: 'rubber stamp over signature', a: {}, b: { ...over, type: 'image', subType: RUBBER_STAMP_SUB_TYPE }, forbidden: false },
    { name: 'rubber stamp over typed signature', a: { type: 'signatureText' }, b: { ...over, type: 'image', subType: RUBBER_STAMP_SUB_TYPE }, forbidden: false },
    { name: 'rubber stamp over initials', a: { type: 'userInitial' }, b: { ...over, type: 'image', subType: RUBBER_STAMP_SUB_TYPE }, forbidden: false },
    { name: 'rubber stamp over rubber stamp', a: { type: 'image', subType: RUBBER_STAMP_SUB_TYPE }, b: { ...over, type: 'image', subType: RUBBER_STAMP_SUB_TYPE }, forbidden: true },
    { name: 'text over signature', a: {}, b: { ...over, type: 'text' }, forbidden: false },
    { name: 'plain image over signature', a: {}, b: { ...over, type: 'image' }, forbidden: false },
    { name: 'time stamp over signature', a: {}, b: { ...over, type: 'timeStamp' }, forbidden: false },
    { name: 'text over text', a: { type: 'text' }, b: { ...over, type: 'text' }, forbidden: false },
    { name: 'signatures on different pages', a: {}, b: { ...over, pageNumber: 2 }, forbidden: false },
    { name: 'signatures side by side, touching', a: {}, b: { positionX: 250 }, forbidden: false },
  ])('$name → forbidden: $forbidden', ({ a, b, forbidden }) => {
    const first = mk(a);
    const second = mk(b);
    expect(isForbiddenOverlap(first, second)).toBe(forbidden);
    expect(isForbiddenOverlap(second, first)).toBe(forbidden);
    expect(keys(validateTagLayout({ tags: [first, second], pages })).filter((key) => key === 'tagOverlappingError')).toHaveLength(forbidden ? 2 : 0);
  });

  // The second signature starts `depth` points before the first one ends (x 250).
  it.each<{ a: TagCreateType | undefined; b: TagCreateType | undefined; depth: number; forbidden: boolean }>([
    { a: 'existing', b: 'existing', depth: 2, forbidden: false },
    { a: 'existing', b: 'existing', depth: 3, forbidden: false },
    { a: 'existing', b: 'existing', depth: 4, forbidden: true },
    { a: 'signer', b: undefined, depth: 3, forbidden: false },
    { a: 'new', b: 'existing', depth: 0.5, forbidden: true },
    { a: 'existing', b: 'new', depth: 0.5, forbidden: true },
    { a: 'new', b: 'new', depth: 0.5, forbidden: true },
    { a: 'new', b: 'new', depth: 0, forbidden: false },
  ])('tolerance: $a with $b overlapping by $depth pt → forbidden: $forbidden', ({ a, b, depth, forbidden }) => {
    const first = mk({ createType: a });
    const second = mk({ createType: b, positionX: 250 - depth });
    expect(isForbiddenOverlap(first, second)).toBe(forbidden);
  });

  it('reports both tags, each naming the other', () => {
    const a = mk();
    const b = mk({ positionX: 120 });
    expect(overlapProblems([a, b])).toEqual([
      { tagUuid: a.uuid, messageKey: 'tagOverlappingError', params: { otherTagUuid: b.uuid } },
      { tagUuid: b.uuid, messageKey: 'tagOverlappingError', params: { otherTagUuid: a.uuid } },
    ]);
  });

  it('checks the members of composites too', () => {
    const member = mk({ positionX: 120 });
    const composite = mk({ type: 'composite', positionX: 50, positionY: 50, blockWidth: 300, blockHeight: 200, children: [member] });
    const loose = mk();
    expect(validateTagLayout({ tags: [composite, loose], pages }).map((p) => p.tagUuid)).toEqual([member.uuid, loose.uuid]);
  });

  interface FamilySpec {
    kind: 'signature' | 'signatureText' | 'userInitial' | 'stamp' | 'text';
    createType: TagCreateType | undefined;
    pageNumber: number;
    x: number;
    y: number;
    width: number;
    height: number;
  }
  const familyTag: fc.Arbitrary<FamilySpec> = fc.record({
    kind: fc.constantFrom<FamilySpec['kind']>('signature', 'signatureText', 'userInitial', 'stamp', 'text'),
    createType: fc.constantFrom<TagCreateType | undefined>(...TAG_CREATE_TYPES, undefined),
    pageNumber: fc.constantFrom(1, 2),
    x: fc.double({ min: 0, max: 400, noNaN: true }),
    y: fc.double({ min: 0, max: 700, noNaN: true }),
    width: fc.double({ min: 1, max: 200, noNaN: true }),
    height: fc.double({ min: 1, max: 200, noNaN: true }),
  });
  const toTag = (t: FamilySpec) =>
    mk({
      ...(t.kind === 'stamp' ? { type: 'image', subType: RUBBER_STAMP_SUB_TYPE } : { type: t.kind }),
      createType: t.createType,
      pageNumber: t.pageNumber,
      positionX: t.x,
      positionY: t.y,
      blockWidth: t.width,
      blockHeight: t.height,
    });

  it('is symmetric (property)', () => {
    fc.assert(
      fc.property(familyTag, familyTag, (a, b) => {
        const first = toTag(a);
        const second = toTag(b);
        expect(isForbiddenOverlap(first, second)).toBe(isForbiddenOverlap(second, first));
      }),
    );
  });

  it('reports every overlap on both tags (property)', () => {
    fc.assert(
      fc.property(fc.array(familyTag, { maxLength: 8 }), (specs) => {
        const problems = overlapProblems(specs.map(toTag));
        const pairs = new Set(problems.map((p) => `${p.tagUuid}>${p.params?.otherTagUuid}`));
        for (const p of problems) expect(pairs.has(`${p.params?.otherTagUuid}>${p.tagUuid}`)).toBe(true);
      }),
    );
  });

  it('never holds between a tag and one strictly disjoint from it (property)', () => {
    const gap = fc.double({ min: 1e-3, max: 100, noNaN: true });
    fc.assert(
      fc.property(familyTag, familyTag, gap, fc.boolean(), (a, b, g, horizontally) => {
        const first = toTag(a);
        const second = toTag({
          ...b,
          pageNumber: a.pageNumber,
          ...(horizontally ? { x: a.x + a.width + g } : { y: a.y + a.height + g }),
        });
        expect(isForbiddenOverlap(first, second)).toBe(false);
      }),
    );
  });
});

describe('size and font limits', () => {
  it.each<{ name: string; size: [number, number]; crossed: boolean }>([
    { name: 'the default', size: [150, 50], crossed: false },
    { name: 'exactly the minimum', size: [60, 20], crossed: false },
    { name: 'exactly the maximum', size: [400, 200], crossed: false },
    { name: 'a hair under the minimum (rounding)', size: [60 - 1e-9, 20], crossed: false },
    { name: 'too narrow', size: [59, 50], crossed: true },
    { name: 'too low', size: [150, 19.5], crossed: true },
    { name: 'too wide', size: [401, 50], crossed: true },
    { name: 'too high', size: [150, 201], crossed: true },
  ])('a signature of $name → crossed: $crossed', ({ size: [width, height], crossed }) => {
    const problems = validateTagLayout({ tags: [mk({ positionX: 10, positionY: 10, blockWidth: width, blockHeight: height })], pages });
    expect(problems).toEqual(
      crossed
        ? [expect.objectContaining({ messageKey: 'tagDimensionsCrossedMsg', params: { dimension: 'size', minWidth: 60, minHeight: 20, maxWidth: 400, maxHeight: 200 } })]
        : [],
    );
  });

  it.each(TAG_TYPES)('a %s at its default size is within its limits', (type) => {
    const d = TAG_DIMENSIONS[type];
    expect(validateTagLayout({ tags: [mk({ type, positionX: 0, positionY: 0, blockWidth: d.width, blockHeight: d.height })], pages })).toEqual([]);
  });

  it('prefers the tag’s own limits', () => {
    const tag = mk({ blockWidth: 30, blockHeight: 15, min: { width: 20, height: 10 }, max: { width: 40 } });
    expect(tagSizeLimits(tag)).toMatchObject({ minWidth: 20, minHeight: 10, maxWidth: 40, maxHeight: 200 });
    expect(validateTagLayout({ tags: [tag], pages })).toEqual([]);
  });

  it('never lets an own limit empty the range', () => {
    expect(tagSizeLimits(mk({ min: { width: 500 } }))).toMatchObject({ minWidth: 500, maxWidth: 500 });
    expect(tagSizeLimits(mk({ max: { width: 30 } }))).toMatchObject({ minWidth: 30, maxWidth: 30 });
  });

  it.each<{ name: string; patch: Partial<TagInput>; crossed: boolean }>([
    { name: 'no font size', patch: {}, crossed: false },
    { name: 'the global minimum', patch: { fontSize: FONT_SIZE_LIMITS.min }, crossed: false },
    { name: 'below the global minimum', patch: { fontSize: FONT_SIZE_LIMITS.min - 1 }, crossed: true },
    { name: 'above the global maximum', patch: { fontSize: FONT_SIZE_LIMITS.max + 1 }, crossed: true },
    { name: 'below global but within its own', patch: { fontSize: 4, min: { fontSize: 4 } }, crossed: false },
    { name: 'within global but above its own', patch: { fontSize: 30, max: { fontSize: 24 } }, crossed: true },
  ])('font: $name → crossed: $crossed', ({ patch, crossed }) => {
    const tag = mk({ type: 'text', blockWidth: 120, blockHeight: 20, ...patch });
    const problems = validateTagLayout({ tags: [tag], pages });
    expect(problems).toEqual(crossed ? [expect.objectContaining({ messageKey: 'tagDimensionsCrossedMsg', params: expect.objectContaining({ dimension: 'fontSize' }) })] : []);
  });

  it('asks for a size before checking limits', () => {
    expect(keys(validateTagLayout({ tags: [mk({ blockWidth: 0 })], pages }))).toEqual(['tagSizeMissing']);
    expect(keys(validateTagLayout({ tags: [mk({ blockHeight: 0 })], pages }))).toEqual(['tagSizeMissing']);
  });
});

describe('page rule', () => {
  it.each<{ name: string; patch: Partial<TagInput>; inside: boolean }>([
    { name: 'inside page 1', patch: {}, inside: true },
    { name: 'in the bottom-right corner', patch: { positionX: 445, positionY: 792 }, inside: true },
    { name: 'over the right edge', patch: { positionX: 446 }, inside: false },
    { name: 'over the bottom edge', patch: { positionY: 800 }, inside: false },
    { name: 'left of the page', patch: { positionX: -1 }, inside: false },
    // Page 2 is rotated, but tags live in the unrotated frame: 595 wide, 842 high (and a
    // signature shown wide there is tall in that frame).
    { name: 'low on rotated page 2', patch: { pageNumber: 2, positionY: 692, blockWidth: 50, blockHeight: 150 }, inside: true },
    { name: 'past the bottom of rotated page 2', patch: { pageNumber: 2, positionY: 693, blockWidth: 50, blockHeight: 150 }, inside: false },
    { name: 'on a page the document lacks', patch: { pageNumber: 3 }, inside: false },
  ])('$name → inside: $inside', ({ patch, inside }) => {
    const tag = mk(patch);
    expect(validateTagLayout({ tags: [tag], pages })).toEqual(inside ? [] : [{ tagUuid: tag.uuid, messageKey: 'tagOutsidePage', params: { pageNumber: tag.pageNumber } }]);
  });
});

describe('one signature tag per signer', () => {
  const alice = { userUuid: 'alice', wfsOrderId: 1 };
  const twoForAlice = () => [mk(alice), mk({ ...alice, positionY: 300 })];

  it.each(SIGNING_POLICIES)('%s', (policy) => {
    const tags = twoForAlice();
    const single = (SINGLE_SIGNATURE_TAG_POLICIES as readonly SigningPolicy[]).includes(policy);
    expect(validateTagLayout({ tags, pages, policy, reasonTagRequired: false })).toEqual(
      single ? [{ tagUuid: tags[1]!.uuid, messageKey: 'multipleSignatureTagsUnsupported', params: { policy } }] : [],
    );
  });

  it.each<{ name: string; first: Partial<TagInput>; second: Partial<TagInput>; refused: boolean }>([
    { name: 'a typed signature counts as a signature', first: alice, second: { ...alice, type: 'signatureText' }, refused: true },
    { name: 'the same person by email', first: { userEmail: 'a@x.co' }, second: { userEmail: 'A@X.co' }, refused: true },
    { name: 'initials do not count', first: alice, second: { ...alice, type: 'userInitial' }, refused: false },
    { name: 'a rubber stamp does not count', first: alice, second: { ...alice, type: 'image', subType: RUBBER_STAMP_SUB_TYPE, blockWidth: 120, blockHeight: 120 }, refused: false },
    { name: 'another signer', first: alice, second: { userUuid: 'bob', wfsOrderId: 1 }, refused: false },
    { name: 'the same person at another step', first: alice, second: { userUuid: 'alice', wfsOrderId: 2 }, refused: false },
    { name: 'unassigned tags', first: {}, second: {}, refused: false },
  ])('INTERNAL: $name → refused: $refused', ({ first, second, refused }) => {
    const tags = [mk(first), mk({ positionY: 300, ...second })];
    expect(keys(validateTagLayout({ tags, pages, policy: 'INTERNAL' }))).toEqual(refused ? ['multipleSignatureTagsUnsupported'] : []);
  });

  it('knows a signer by email, whatever its case', () => {
    expect(signerKey({ userEmail: 'Alice@Example.com' })).toBe(signerKey({ userEmail: ' alice@example.com' }));
    expect(signerKey({ userUuid: 'u1', userEmail: 'a@b.co' })).toBe(signerKey({ userUuid: 'u1' }));
    expect(signerKey({ userUuid: '  ' })).toBeNull();
  });
});

describe('reason tag (-49)', () => {
  const alice = { userUuid: 'alice', wfsOrderId: 1 };
  const reasonFor = (who: Partial<TagInput>, type: TagType = 'reason') => mk({ ...who, type, positionY: 400, blockWidth: 150, blockHeight: 20 });

  it('is demanded by ESIGNATURE alone', () => {
    expect(SIGNING_POLICIES.filter(policyRequiresReasonTag)).toEqual(['ESIGNATURE']);
  });

  it.each<{ name: string; tags: () => Tag[]; missing: boolean }>([
    { name: 'a signature without a reason', tags: () => [mk(alice)], missing: true },
    { name: 'a signature with the signer’s reason', tags: () => [mk(alice), reasonFor(alice)], missing: false },
    { name: 'a signature with a free-text reason', tags: () => [mk(alice), reasonFor(alice, 'reasonFreeText')], missing: false },
    { name: 'a signature with another signer’s reason', tags: () => [mk(alice), reasonFor({ userUuid: 'bob', wfsOrderId: 1 })], missing: true },
    { name: 'unassigned signature and reason', tags: () => [mk(), reasonFor({})], missing: false },
    { name: 'no signature at all', tags: () => [reasonFor(alice)], missing: false },
    { name: 'initials only', tags: () => [mk({ ...alice, type: 'userInitial', blockWidth: 60, blockHeight: 40 })], missing: false },
  ])('ESIGNATURE, $name → missing: $missing', ({ tags, missing }) => {
    const layout = tags();
    expect(validateTagLayout({ tags: layout, pages, policy: 'ESIGNATURE' })).toEqual(missing ? [{ tagUuid: layout[0]!.uuid, messageKey: 'reasonTagNotSelected' }] : []);
  });

  it('is reported once per signer, on their first signature', () => {
    const first = mk(alice);
    const second = mk({ ...alice, positionY: 300 });
    expect(validateTagLayout({ tags: [first, second], pages, policy: 'ESIGNATURE' })).toEqual([{ tagUuid: first.uuid, messageKey: 'reasonTagNotSelected' }]);
  });

  it('follows an explicit setting over the policy', () => {
    expect(keys(validateTagLayout({ tags: [mk(alice)], pages, policy: 'QUICKSIGN' }))).toEqual([]);
    expect(keys(validateTagLayout({ tags: [mk(alice)], pages, policy: 'QUICKSIGN', reasonTagRequired: true }))).toEqual(['reasonTagNotSelected']);
    expect(keys(validateTagLayout({ tags: [mk(alice)], pages, policy: 'ESIGNATURE', reasonTagRequired: false }))).toEqual([]);
    expect(keys(validateTagLayout({ tags: [mk(alice)], pages, policy: null }))).toEqual([]);
  });
});

describe('validateTagLayout', () => {
  it('passes a clean layout', () => {
    const alice = { userUuid: 'alice', wfsOrderId: 1 };
    const tags = [
      mk({ ...alice, createType: 'new' }),
      mk({ ...alice, type: 'reason', positionY: 160, blockHeight: 20 }),
      stamp({ ...alice, positionX: 150, positionY: 80 }),
      mk({ type: 'text', pageNumber: 2, positionX: 0, positionY: 0, blockWidth: 120, blockHeight: 20, fontSize: 12 }),
    ];
    expect(validateTagLayout({ tags, pages, policy: 'ESIGNATURE' })).toEqual([]);
  });

  it('reports a duplicated uuid on its later copies', () => {
    const a = mk({ type: 'text', blockWidth: 120, blockHeight: 20 });
    const b = Tag.parse({ ...a, positionY: 400 });
    expect(validateTagLayout({ tags: [a, b], pages })).toEqual([{ tagUuid: a.uuid, messageKey: 'duplicateTagUuid' }]);
  });

  it('lists problems in a stable order', () => {
    const outside = mk({ positionX: 500, createType: 'new' });
    const clash = mk({ positionX: 430, createType: 'new' });
    expect(keys(validateTagLayout({ tags: [outside, clash], pages, policy: 'ESIGNATURE' }))).toEqual([
      'tagOutsidePage',
      'tagOverlappingError',
      'tagOverlappingError',
      'reasonTagNotSelected',
    ]);
  });
});

describe('tagLayoutError', () => {
  it('is null when nothing is wrong', () => {
    expect(tagLayoutError([])).toBeNull();
  });

  it('answers -6 for placement problems, with issues and the problems as data', () => {
    const problems: TagProblem[] = [
      { tagUuid: 'a', messageKey: 'tagOutsidePage', params: { pageNumber: 3 } },
      { tagUuid: 'b', messageKey: 'reasonTagNotSelected' },
    ];
    const error = tagLayoutError(problems)!;
    expect(error).toBeInstanceOf(DomainError);
    expect(error.code).toBe(ResponseCode.INVALID_INPUT.code);
    expect(error.issues).toEqual([
      { path: 'tags.a', message: 'tagOutsidePage' },
      { path: 'tags.b', message: 'reasonTagNotSelected' },
    ]);
    expect(error.data).toEqual({ problems });
  });

  it('answers -49 when only a reason tag is missing', () => {
    const error = tagLayoutError([{ tagUuid: 'b', messageKey: 'reasonTagNotSelected' }])!;
    expect(error.code).toBe(-49);
    expect(error.httpStatus).toBe(ResponseCode.ESIGNATURE_REASON_TAG_NOT_SELECTED.httpStatus);
  });
});

// ---------------------------------------------------------------------------------------------
// Edits

describe('moveTag', () => {
  it('moves a tag to another page and recomputes its block bounds', () => {
    const tag = mk();
    const result = moveTag(tag, { pageNumber: 2, x: 10, y: 20 }, pages);
    expect(result).toEqual({
      ok: true,
      // Page 2 is turned a quarter: the signature keeps showing 150 x 50, so its page-frame sides swap.
      tag: {
        ...tag,
        pageNumber: 2,
        positionX: 10,
        positionY: 20,
        blockWidth: 50,
        blockHeight: 150,
        blockBounds: toBlockBounds({ x: 10, y: 20, width: 50, height: 150 }, A4),
      },
    });
  });

  it('moves a composite’s members with it', () => {
    const member = mk({ positionX: 110, positionY: 110 });
    const composite = mk({ type: 'composite', blockWidth: 200, blockHeight: 100, children: [member] });
    const result = moveTag(composite, { pageNumber: 2, x: 200, y: 300 }, pages);
    expect(result.ok && result.tag.children?.[0]).toMatchObject({ uuid: member.uuid, pageNumber: 2, positionX: 210, positionY: 310 });
  });

  it.each<{ name: string; to: { pageNumber: number; x: number; y: number } }>([
    { name: 'off the right edge', to: { pageNumber: 1, x: 500, y: 10 } },
    { name: 'above the page', to: { pageNumber: 1, x: 10, y: -5 } },
    { name: 'onto a missing page', to: { pageNumber: 3, x: 10, y: 10 } },
  ])('reverts a drop $name', ({ to }) => {
    const tag = mk();
    expect(moveTag(tag, to, pages)).toEqual({ ok: false, problems: [{ tagUuid: tag.uuid, messageKey: 'tagOutsidePage', params: { pageNumber: to.pageNumber } }] });
  });

  it('reverts a composite whose member would leave the page', () => {
    const member = mk({ positionX: 300 });
    const composite = mk({ type: 'composite', blockWidth: 200, blockHeight: 100, children: [member] });
    const result = moveTag(composite, { pageNumber: 1, x: 350, y: 100 }, pages);
    expect(result).toEqual({ ok: false, problems: [expect.objectContaining({ tagUuid: member.uuid, messageKey: 'tagOutsidePage' })] });
  });
});

describe('resizeTag', () => {
  it('takes a new rectangle within the limits', () => {
    const tag = mk();
    const rect = { x: 90, y: 95, width: 200, height: 60 };
    const result = resizeTag(tag, rect, A4);
    expect(result).toEqual({ ok: true, tag: { ...tag, positionX: 90, positionY: 95, blockWidth: 200, blockHeight: 60, blockBounds: toBlockBounds(rect, A4) } });
  });

  it.each<{ name: string; rect: Rect; problem: string }>([
    { name: 'below the minimum', rect: { x: 100, y: 100, width: 50, height: 50 }, problem: 'tagDimensionsCrossedMsg' },
    { name: 'above the maximum', rect: { x: 100, y: 100, width: 150, height: 250 }, problem: 'tagDimensionsCrossedMsg' },
    { name: 'off the page', rect: { x: 500, y: 100, width: 150, height: 50 }, problem: 'tagOutsidePage' },
    { name: 'to nothing', rect: { x: 100, y: 100, width: 0, height: 50 }, problem: 'tagSizeMissing' },
  ])('rolls back a resize $name', ({ rect, problem }) => {
    const result = resizeTag(mk(), rect, A4);
    expect(result.ok).toBe(false);
    expect(!result.ok && keys(result.problems)).toEqual([problem]);
  });

  it('gives the min and max with tagDimensionsCrossedMsg', () => {
    const result = resizeTag(mk(), { x: 100, y: 100, width: 50, height: 50 }, A4);
    expect(!result.ok && result.problems[0]?.params).toEqual({ dimension: 'size', minWidth: 60, minHeight: 20, maxWidth: 400, maxHeight: 200 });
  });

  it('keeps every accepted size within the limits and the page (property)', () => {
    const type = fc.constantFrom(...TAG_TYPES);
    const n = fc.double({ min: -100, max: 1_000, noNaN: true });
    fc.assert(
      fc.property(type, fc.boolean(), n, n, n, n, (tagType, asStamp, x, y, width, height) => {
        const tag = asStamp ? stamp() : mk({ type: tagType, blockWidth: TAG_DIMENSIONS[tagType].width, blockHeight: TAG_DIMENSIONS[tagType].height });
        const result = resizeTag(tag, { x, y, width, height }, A4);
        if (!result.ok) return;
        const limits = tagSizeLimits(tag);
        const { blockWidth, blockHeight } = result.tag;
        expect(blockWidth).toBeGreaterThanOrEqual(limits.minWidth - GEOMETRY_EPSILON);
        expect(blockWidth).toBeLessThanOrEqual(limits.maxWidth + GEOMETRY_EPSILON);
        expect(blockHeight).toBeGreaterThanOrEqual(limits.minHeight - GEOMETRY_EPSILON);
        expect(blockHeight).toBeLessThanOrEqual(limits.maxHeight + GEOMETRY_EPSILON);
        expect(isInsidePage(tagRect(result.tag), A4)).toBe(true);
        expect(validateTagLayout({ tags: [result.tag], pages })).toEqual([]);
      }),
    );
  });
});

describe('pasteTag', () => {
  it(`copies the definition ${TAG_PASTE_OFFSET.x}/${TAG_PASTE_OFFSET.y} pt from the source, not the fill`, () => {
    const source = mk({ value: 'data:image/png;base64,AAAA', status: 'done', uniqueKey: 'k', userUuid: 'alice', fontSize: 10 });
    const uuid = nextUuid();
    const result = pasteTag(source, { page: A4, newUuid: () => uuid });
    const { uniqueKey: _uniqueKey, ...definition } = source;
    expect(result).toEqual({
      ok: true,
      tag: {
        ...definition,
        uuid,
        originUuid: source.uuid,
        createType: 'new',
        status: 'pending',
        value: null,
        positionX: 110,
        positionY: 108,
        blockBounds: toBlockBounds({ x: 110, y: 108, width: 150, height: 50 }, A4),
      },
    });
    expect(Tag.safeParse(result.ok && result.tag).success).toBe(true);
  });

  it('pastes onto another page, offset as the person sees it on a turned one', () => {
    const result = pasteTag(mk(), { page: pages[1]!, pageNumber: 2, newUuid: nextUuid });
    // Turned a quarter clockwise: +10 right on screen is -10 in page-frame y, +8 down is +8 in x.
    expect(result.ok && result.tag).toMatchObject({ pageNumber: 2, positionX: 108, positionY: 90 });
    const source = mk();
    const copy = pasteTag(source, { page: pages[1]!, pageNumber: 2, newUuid: nextUuid });
    const shownSource = pageToDisplay(tagRect(source), pages[1]!, 1);
    const shownCopy = copy.ok ? pageToDisplay(tagRect(copy.tag), pages[1]!, 1) : null;
    expect(shownCopy && { dx: shownCopy.x - shownSource.x, dy: shownCopy.y - shownSource.y }).toEqual({ dx: TAG_PASTE_OFFSET.x, dy: TAG_PASTE_OFFSET.y });
  });

  it('gives a composite’s members new uuids and the same offset', () => {
    const member = mk({ positionX: 120, positionY: 120 });
    const composite = mk({ type: 'composite', blockWidth: 200, blockHeight: 100, children: [member] });
    const result = pasteTag(composite, { page: A4, newUuid: nextUuid });
    if (!result.ok) throw new Error('paste refused');
    const [copy, memberCopy] = flattenTags([result.tag]);
    expect(copy?.uuid).not.toBe(composite.uuid);
    expect(memberCopy).toMatchObject({ originUuid: member.uuid, positionX: 130, positionY: 128, createType: 'new' });
    expect(memberCopy?.uuid).not.toBe(member.uuid);
    expect(memberCopy?.uuid).not.toBe(copy?.uuid);
  });

  it.each<{ name: string; patch: Partial<TagInput> }>([
    { name: 'at the right edge', patch: { positionX: 440 } },
    { name: 'at the bottom edge', patch: { positionY: 790 } },
  ])('refuses a paste $name with pasteError', ({ patch }) => {
    const source = mk(patch);
    expect(pasteTag(source, { page: A4, newUuid: nextUuid })).toEqual({ ok: false, problems: [{ tagUuid: source.uuid, messageKey: 'pasteError' }] });
  });

  it('either lands inside the page or reports pasteError (property)', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 595, noNaN: true }),
        fc.double({ min: 0, max: 842, noNaN: true }),
        fc.double({ min: 1, max: 400, noNaN: true }),
        fc.double({ min: 1, max: 200, noNaN: true }),
        (x, y, width, height) => {
          const source = mk({ positionX: x, positionY: y, blockWidth: width, blockHeight: height });
          const result = pasteTag(source, { page: A4, newUuid: nextUuid });
          if (result.ok) {
            expect(isInsidePage(tagRect(result.tag), A4)).toBe(true);
            expect(result.tag.positionX).toBe(x + TAG_PASTE_OFFSET.x);
            expect(result.tag.positionY).toBe(y + TAG_PASTE_OFFSET.y);
          } else {
            expect(result.problems).toEqual([{ tagUuid: source.uuid, messageKey: 'pasteError' }]);
            expect(isInsidePage({ x: x + TAG_PASTE_OFFSET.x, y: y + TAG_PASTE_OFFSET.y, width, height }, A4)).toBe(false);
          }
        },
      ),
    );
  });
});

describe('images held by tags', () => {
  const png = (bytes: number) => `data:image/png;base64,${btoa('x'.repeat(bytes))}`;
  const imageTag = (over: Partial<Tag>) => ({ ...newTag({ uuid: '0b7f3c1e-2d4a-4f6b-8c9d-0e1f2a3b4c5d', type: 'image', pageNumber: 1, positionX: 10, positionY: 10 }), ...over });

  it('limits a letterhead to 500 KB and an image tag to its maxUpload (default 500 KB)', () => {
    expect(imageValueProblem(imageTag({ value: png(500 * 1024) }))).toBeNull();
    expect(imageValueProblem(imageTag({ value: png(500 * 1024 + 1) }))).toEqual({
      tagUuid: '0b7f3c1e-2d4a-4f6b-8c9d-0e1f2a3b4c5d',
      messageKey: 'maxSizeExceeded',
      params: { maxKb: 500 },
    });
    expect(imageValueProblem(imageTag({ value: png(20 * 1024), maxUpload: 10 }))?.messageKey).toBe('maxSizeExceeded');
    expect(imageValueProblem(imageTag({ type: 'letterHead', value: png(501 * 1024), maxUpload: 2000 }))?.messageKey).toBe('maxSizeExceeded');
  });

  it('takes PNG and JPEG data URLs only, and an empty value', () => {
    expect(imageValueProblem(imageTag({ value: 'data:image/jpeg;base64,/9j/' }))).toBeNull();
    expect(imageValueProblem(imageTag({ value: null }))).toBeNull();
    expect(imageValueProblem(imageTag({ value: 'data:image/gif;base64,R0lG' }))?.messageKey).toBe('imageTypeNotAllowed');
    expect(imageValueProblem(imageTag({ value: 'https://example.test/a.png' }))?.messageKey).toBe('imageTypeNotAllowed');
    expect(imageValueProblem(imageTag({ type: 'text', value: 'anything' }))).toBeNull();
  });

  it('is part of the layout check, so the server refuses a crafted value', () => {
    const tags = [imageTag({ value: 'data:text/html;base64,PGgxPg==' })];
    expect(validateTagLayout({ tags, pages: [{ width: 595, height: 842, x: 0, y: 0, rotate: 0 }] }).map((problem) => problem.messageKey)).toEqual([
      'imageTypeNotAllowed',
    ]);
  });

  it('bounds maxUpload so images fit the tags request', () => {
    expect(Tag.safeParse({ ...imageTag({}), maxUpload: IMAGE_TAG_MAX_UPLOAD_KB + 1 }).success).toBe(false);
  });
});

describe('sizes as shown on turned pages', () => {
  const turned = pages[1]!;

  it('places a new tag wide and low as the person sees a turned page', () => {
    const tag = newTag({ uuid: nextUuid(), type: 'signature', pageNumber: 2, positionX: 100, positionY: 100 }, turned);
    expect([tag.blockWidth, tag.blockHeight]).toEqual([TAG_DIMENSIONS.signature.height, TAG_DIMENSIONS.signature.width]);
    const shown = pageToDisplay(tagRect(tag), turned, 1);
    expect([shown.width, shown.height]).toEqual([TAG_DIMENSIONS.signature.width, TAG_DIMENSIONS.signature.height]);
    expect(validateTagLayout({ tags: [tag], pages })).toEqual([]);
  });

  it('holds the limits to the size as shown', () => {
    // 150 x 50 in the page frame shows 50 wide on the turned page: narrower than a signature may be.
    const sideways = mk({ pageNumber: 2 });
    expect(keys(validateTagLayout({ tags: [sideways], pages }))).toEqual(['tagDimensionsCrossedMsg']);
    expect(keys(validateTagLayout({ tags: [mk({ pageNumber: 2, blockWidth: 50, blockHeight: 150 })], pages }))).toEqual([]);
  });

  it('resizes as shown, keeping the shown top-left corner (property)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<PageGeometry['rotate']>(0, 90, 180, 270),
        fc.double({ min: 60, max: 400, noNaN: true }),
        fc.double({ min: 20, max: 200, noNaN: true }),
        (rotate, width, height) => {
          const page = { ...A4, rotate };
          const tag = newTag({ uuid: nextUuid(), type: 'signature', pageNumber: 1, positionX: 100, positionY: 100 }, page);
          const before = pageToDisplay(tagRect(tag), page, 1);
          const result = resizeTagAsShown(tag, { width, height }, page);
          if (result.ok) {
            const after = pageToDisplay(tagRect(result.tag), page, 1);
            expect(after.x).toBeCloseTo(before.x, 6);
            expect(after.y).toBeCloseTo(before.y, 6);
            expect(after.width).toBeCloseTo(width, 6);
            expect(after.height).toBeCloseTo(height, 6);
          } else {
            // Within the limits, only the page edge can refuse it.
            expect(isInsidePage(displayToPage({ ...before, width, height }, page, 1), page)).toBe(false);
          }
        },
      ),
    );
  });

  it('keeps the size as shown when a tag is moved onto a page turned a quarter from its own', () => {
    const tag = newTag({ uuid: nextUuid(), type: 'signature', pageNumber: 1, positionX: 100, positionY: 100 });
    const moved = moveTag(tag, { pageNumber: 2, x: 200, y: 300 }, pages);
    expect(moved.ok && [moved.tag.positionX, moved.tag.positionY, moved.tag.blockWidth, moved.tag.blockHeight]).toEqual([200, 300, 50, 150]);
    expect(moved.ok && validateTagLayout({ tags: [moved.tag], pages })).toEqual([]);
    const back = moved.ok ? moveTag(moved.tag, { pageNumber: 1, x: 100, y: 100 }, pages) : null;
    expect(back?.ok && [back.tag.blockWidth, back.tag.blockHeight]).toEqual([150, 50]);
  });
});

describe('withDerivedBounds', () => {
  it('replaces whatever ratios a client sent with those of the position, members included', () => {
    const member = mk({ positionX: 110, positionY: 120, blockBounds: { top: 9, left: 9, heightRatio: 9, widthRatio: 9 } });
    const group = mk({ type: 'composite', blockWidth: 200, blockHeight: 100, children: [member], blockBounds: { top: 1, left: 1, heightRatio: 1, widthRatio: 1 } });
    const [fixed] = withDerivedBounds([group], pages);
    expect(fixed!.blockBounds).toEqual(toBlockBounds({ x: 100, y: 100, width: 200, height: 100 }, A4));
    expect(fixed!.children![0]!.blockBounds).toEqual(toBlockBounds({ x: 110, y: 120, width: 150, height: 50 }, A4));
  });
});
