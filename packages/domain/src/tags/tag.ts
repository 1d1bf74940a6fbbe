import { z } from 'zod';
import { SigningPolicy } from '../constants/signing-policies';
import { IMAGE_TAG_MAX_UPLOAD_KB, TagCategory, TagCreateType, TagRole, TagType } from '../constants/tags';

/**
 * The tag editing model of spec §3: one form field a custodian places on a page, as the editor
 * (web) holds it and the server re-checks it on save.
 *
 * Geometry (see `geometry.ts`): positionX/positionY/blockWidth/blockHeight are PDF points in the
 * page's visible box, unrotated, origin at its top-left corner with y growing downward — the
 * same frame `PreconfiguredTag` uses. blockBounds is the same rectangle as ratios of the visible
 * box; it is derived, so the position in points is authoritative and the server recomputes the
 * ratios instead of trusting them. Sizes and their limits, on the other hand, mean the size as
 * the person sees it (`shownSize`): on a page turned a quarter a 150 x 50 signature is stored as
 * 50 x 150 in the page frame, so it still shows wide and low, and its value is drawn upright.
 */

/** A tag is either filled in (`done`) or still waiting for its value (spec §3: "done or not"). */
export const TAG_STATUSES = ['pending', 'done'] as const;
export const TagStatus = z.enum(TAG_STATUSES);
export type TagStatus = z.infer<typeof TagStatus>;

/**
 * A rubber stamp is not one of the 23 tag types: it is an image the signer stamps, so it is an
 * `image` tag with this subType. Keeping it an image means it renders, uploads and stamps like
 * any image; the subType only matters to the overlap rule (a stamp may cover a signature or
 * initials, spec §5) and to its own default size.
 */
export const RUBBER_STAMP_SUB_TYPE = 'rubberStamp';
export const RUBBER_STAMP_TAG_TYPE = 'image' satisfies TagType;

export const FONT_WEIGHTS = ['normal', 'bold'] as const;
export const FontWeight = z.enum(FONT_WEIGHTS);
export type FontWeight = z.infer<typeof FontWeight>;

export const FONT_STYLES = ['normal', 'italic'] as const;
export const FontStyle = z.enum(FONT_STYLES);
export type FontStyle = z.infer<typeof FontStyle>;

/**
 * Font sizes (points) a tag may use when it sets no min/max of its own (spec §5: "or the global
 * limits"). The spec gives no numbers; 6 pt is the smallest size still legible in print and
 * 72 pt is as large as a form field reasonably gets. Our design choice.
 */
export const FONT_SIZE_LIMITS = { min: 6, max: 72 } as const;
export const DEFAULT_TAG_FONT_SIZE = 12;

export interface Size {
  readonly width: number;
  readonly height: number;
}

export interface TagDimensions extends Size {
  readonly min: Size;
  readonly max: Size;
}

const dims = (width: number, height: number, min: [number, number], max: [number, number]): TagDimensions => ({
  width,
  height,
  min: { width: min[0], height: min[1] },
  max: { width: max[0], height: max[1] },
});

/**
 * Default size and resize limits per tag type, in PDF points (1/72 in; an A4 page is 595 x 842).
 * The spec gives none of these numbers: they are our design choice, sized so that
 * - the default fits its content at the default 12 pt font (one text line is 20 pt high);
 * - the minimum still shows that content legibly (a line needs ~12 pt, a signature ~60 x 20);
 * - the maximum stops a tag from swallowing the page while leaving room for generous layouts.
 * Minimum heights of one-line fields are kept low (12 pt) so form fields found in uploaded PDFs
 * usually fit; a tag that needs other limits carries its own `min`/`max`, which win.
 * No limit is above the page either way: a tag must also lie inside its page (spec §5).
 */
export const TAG_DIMENSIONS = {
  // Drawn or uploaded signature image: wide and low, like a signature line.
  signature: dims(150, 50, [60, 20], [400, 200]),
  // Name typed in a script font: one tall line.
  signatureText: dims(150, 40, [60, 20], [400, 120]),
  userInitial: dims(60, 40, [20, 20], [200, 120]),
  // One-line text filled from the session or a list.
  reason: dims(150, 20, [40, 12], [400, 80]),
  username: dims(150, 20, [40, 12], [400, 80]),
  timeStamp: dims(150, 20, [60, 12], [300, 60]),
  location: dims(150, 20, [40, 12], [400, 80]),
  userTitle: dims(120, 20, [40, 12], [300, 60]),
  // A UUID is 36 characters: wide enough at a small font.
  userUuid: dims(220, 16, [100, 10], [400, 40]),
  docUuid: dims(220, 16, [100, 10], [400, 40]),
  // A placeholder showing the attachment's title (spec §3: a done tag shows its title).
  attachment: dims(120, 30, [20, 20], [300, 100]),
  selfSignAttachment: dims(120, 30, [20, 20], [300, 100]),
  // A group (e.g. signature with name and time stamp beneath): room for several children.
  composite: dims(200, 100, [100, 50], [500, 300]),
  email: dims(180, 20, [60, 12], [400, 60]),
  reasonFreeText: dims(200, 40, [60, 20], [500, 200]),
  image: dims(100, 100, [20, 20], [500, 500]),
  calendar: dims(100, 20, [60, 12], [250, 60]),
  text: dims(120, 20, [20, 12], [500, 200]),
  // Square; below 40 pt a printed QR code stops scanning reliably.
  qrcode: dims(80, 80, [40, 40], [250, 250]),
  // A letterhead spans the page: 540 pt is A4 width less margins; max is A4 landscape width.
  letterHead: dims(540, 90, [200, 30], [842, 250]),
  textArea: dims(200, 60, [40, 24], [550, 400]),
  singleSelect: dims(120, 20, [40, 12], [400, 60]),
  // A list of options, each one line with a small box.
  multiSelect: dims(150, 60, [60, 20], [400, 300]),
} as const satisfies Record<TagType, TagDimensions>;

/** A rubber stamp is square-ish like a seal, and smaller at most than a generic image. */
export const RUBBER_STAMP_DIMENSIONS: TagDimensions = dims(120, 120, [40, 40], [300, 300]);

/** Default size and limits of a tag of this type (and subType, for rubber stamps). */
export function tagDimensions(type: TagType, subType?: string | null): TagDimensions {
  return subType === RUBBER_STAMP_SUB_TYPE ? RUBBER_STAMP_DIMENSIONS : TAG_DIMENSIONS[type];
}

const finite = z.number();
const positive = z.number().positive();

/** The tag's rectangle as ratios of the page's visible box (spec §3 blockBounds). */
export const BlockBounds = z.object({
  top: finite,
  left: finite,
  heightRatio: z.number().nonnegative(),
  widthRatio: z.number().nonnegative(),
});
export type BlockBounds = z.infer<typeof BlockBounds>;

/** A tag's own min or max; any part left out falls back to the type's (or global) limit. */
export const TagLimits = z.object({
  width: positive.optional(),
  height: positive.optional(),
  fontSize: positive.optional(),
});
export type TagLimits = z.infer<typeof TagLimits>;

export const TagRequiredValidation = z.object({
  value: z.boolean(),
  /** Shown when the required tag is left empty; the editor switches it between mandatory and optional. */
  message: z.string().max(500).optional(),
});

export const TagValidations = z.object({ required: TagRequiredValidation.optional() });
export type TagValidations = z.infer<typeof TagValidations>;

/** A tag's value: text, a data URL for images and signatures, the chosen options of a multiSelect. */
export const TagValue = z.union([z.string(), z.array(z.string())]).nullable();
export type TagValue = z.infer<typeof TagValue>;

// Lenient on the UUID version: tags loaded from older documents need not be RFC 4122 v4.
const TagUuid = z.guid();
const ShortText = z.string().max(500);

const TagObject = z.object({
  uuid: TagUuid,
  name: ShortText.default(''),
  /** The data key a smart tag fills from (several tags may share one). */
  key: ShortText.default(''),
  type: TagType,
  category: TagCategory.default('printed'),
  tagFor: TagRole.default('signer'),
  value: TagValue.default(null),
  status: TagStatus.default('pending'),
  /** 1-based, like the viewer's page numbers. */
  pageNumber: z.number().int().positive(),
  positionX: finite,
  positionY: finite,
  // Zero is accepted here so that validateTagLayout can say "width and height must be set"
  // (tagSizeMissing) instead of the whole tag failing to parse.
  blockWidth: z.number().nonnegative(),
  blockHeight: z.number().nonnegative(),
  blockBounds: BlockBounds.optional(),
  fontSize: positive.optional(),
  fontWeight: FontWeight.optional(),
  fontStyle: FontStyle.optional(),
  fontFamily: z.string().max(200).optional(),
  min: TagLimits.optional(),
  max: TagLimits.optional(),
  validations: TagValidations.optional(),
  readOnly: z.boolean().default(false),
  disabled: z.boolean().default(false),
  /** new: placed in this session; existing: loaded from the document; signer: dropped by a signer. */
  createType: TagCreateType.optional(),
  /** The tag this one was copied from (paste), so a copy can be traced to its source. */
  originUuid: TagUuid.optional(),
  /** The person the tag is for; with wfsOrderId this identifies one signer in one workflow step. */
  userEmail: z.string().max(254).optional(),
  userUuid: z.string().max(100).optional(),
  /** Order of the workflow state the tag belongs to. */
  wfsOrderId: z.number().int().nonnegative().optional(),
  /** Largest upload in KB for image and attachment tags (spec §5 shows it to the user). */
  maxUpload: positive.max(IMAGE_TAG_MAX_UPLOAD_KB).optional(),
  policyType: SigningPolicy.optional(),
  /** Server-side sign tag id (SIGN_TAG_IDS: signature 5, signer name 1, ...). */
  tagId: z.number().int().optional(),
  label: ShortText.optional(),
  /** Where a select's options (or a smart tag's value) come from. */
  dataSource: ShortText.optional(),
  uniqueKey: ShortText.optional(),
  /** A refinement of the type; `rubberStamp` on an image tag marks a rubber stamp. */
  subType: z.string().max(100).optional(),
  /** Members of a composite tag; each is a full tag with its own page-frame position. */
  get children(): z.ZodOptional<z.ZodArray<typeof Tag>> {
    return z.array(Tag).optional();
  },
});

/**
 * One tag of the editing model. Beyond the field types it refuses what no rule could make sense
 * of: a min above its max, children on anything but a composite, and a rubber stamp that is not
 * an image.
 */
export const Tag = TagObject.superRefine((tag, ctx) => {
  for (const dimension of ['width', 'height', 'fontSize'] as const) {
    const min = tag.min?.[dimension];
    const max = tag.max?.[dimension];
    if (min !== undefined && max !== undefined && min > max) {
      ctx.addIssue({ code: 'custom', path: ['min', dimension], message: `min ${dimension} is above max ${dimension}` });
    }
  }
  if (tag.children !== undefined && tag.children.length > 0 && tag.type !== 'composite') {
    ctx.addIssue({ code: 'custom', path: ['children'], message: 'only a composite tag has children' });
  }
  if (tag.subType === RUBBER_STAMP_SUB_TYPE && tag.type !== RUBBER_STAMP_TAG_TYPE) {
    ctx.addIssue({ code: 'custom', path: ['subType'], message: `a rubber stamp is an ${RUBBER_STAMP_TAG_TYPE} tag` });
  }
});
export type Tag = z.output<typeof TagObject>;
export type TagInput = z.input<typeof TagObject>;

export function isRubberStamp(tag: Pick<Tag, 'subType'>): boolean {
  return tag.subType === RUBBER_STAMP_SUB_TYPE;
}

/** A composite's members and theirs, depth first, after the tag itself. */
export function flattenTags(tags: readonly Tag[]): Tag[] {
  const out: Tag[] = [];
  const visit = (tag: Tag) => {
    out.push(tag);
    for (const child of tag.children ?? []) visit(child);
  };
  for (const tag of tags) visit(tag);
  return out;
}

/** What a freshly placed tag needs; everything else takes the schema's or the type's default. */
export type NewTagInit = Pick<TagInput, 'uuid' | 'type' | 'pageNumber' | 'positionX' | 'positionY'> &
  Partial<Omit<TagInput, 'uuid' | 'type' | 'pageNumber' | 'positionX' | 'positionY'>>;

/**
 * A tag the custodian just placed: the type's default size as shown on its page (a rubber
 * stamp's own), createType `new` (so the strict overlap tolerance applies). A tag without fontSize is drawn at
 * DEFAULT_TAG_FONT_SIZE. Throws a ZodError for input no tag could have.
 */
export function newTag(init: NewTagInit, page: { readonly rotate: 0 | 90 | 180 | 270 } = { rotate: 0 }): Tag {
  // The type's size is the size as shown; on a page turned a quarter its page-frame sides swap.
  const turned = page.rotate === 90 || page.rotate === 270;
  const dimensions = tagDimensions(init.type, init.subType);
  const size = turned ? { width: dimensions.height, height: dimensions.width } : dimensions;
  return Tag.parse({
    ...init,
    blockWidth: init.blockWidth ?? size.width,
    blockHeight: init.blockHeight ?? size.height,
    createType: init.createType ?? 'new',
  });
}

