import { z } from 'zod';

// The 23 tag (form-field) types a custodian can place (spec §3).
export const TAG_TYPES = [
  'signature',
  'signatureText',
  'userInitial',
  'reason',
  'username',
  'timeStamp',
  'location',
  'userTitle',
  'userUuid',
  'docUuid',
  'attachment',
  'selfSignAttachment',
  'composite',
  'email',
  'reasonFreeText',
  'image',
  'calendar',
  'text',
  'qrcode',
  'letterHead',
  'textArea',
  'singleSelect',
  'multiSelect',
] as const;
export const TagType = z.enum(TAG_TYPES);
export type TagType = z.infer<typeof TagType>;

// Printed tags end up on the PDF; non-printed ones are data only (smart tags).
export const TAG_CATEGORIES = ['printed', 'nonPrinted'] as const;
export const TagCategory = z.enum(TAG_CATEGORIES);
export type TagCategory = z.infer<typeof TagCategory>;

// Who a tag is meant for (the tag's tagFor field).
export const TAG_ROLES = ['all', 'custodian', 'signer', 'custodianOrSigner'] as const;
export const TagRole = z.enum(TAG_ROLES);
export type TagRole = z.infer<typeof TagRole>;

// Tags for these roles stay editable whoever is viewing (spec §6).
export const SHARED_TAG_ROLES = ['all', 'custodianOrSigner'] as const satisfies readonly TagRole[];

// Timestamps are filled by the server, so nobody may edit them (spec §6).
export const ALWAYS_READ_ONLY_TAG_TYPES = ['timeStamp'] as const satisfies readonly TagType[];

// Where a tag came from: freshly placed, loaded from the document, or dropped by a signer.
export const TAG_CREATE_TYPES = ['new', 'existing', 'signer'] as const;
export const TagCreateType = z.enum(TAG_CREATE_TYPES);
export type TagCreateType = z.infer<typeof TagCreateType>;

// Sign tags stored per signature block, with their server-side ids (spec §3).
export const SIGN_TAG_NAMES = ['signature', 'signerName', 'reasons', 'timeStamp', 'userUuid'] as const;
export const SignTagName = z.enum(SIGN_TAG_NAMES);
export type SignTagName = z.infer<typeof SignTagName>;

export const SIGN_TAG_IDS = {
  signature: 5,
  signerName: 1,
  reasons: 4,
  timeStamp: 2,
  userUuid: 8,
} as const satisfies Record<SignTagName, number>;
export type SignTagId = (typeof SIGN_TAG_IDS)[SignTagName];

// Which sign tags each family of policy places (spec §9). ESIGN also carries the user UUID tag.
export const TAG_SET_KINDS = ['ESIGN', 'QUICKSIGN', 'DIGITAL'] as const;
export const TagSetKind = z.enum(TAG_SET_KINDS);
export type TagSetKind = z.infer<typeof TagSetKind>;

export const POLICY_TAG_SETS = {
  ESIGN: ['signature', 'signerName', 'reasons', 'timeStamp', 'userUuid'],
  QUICKSIGN: ['signature', 'userUuid'],
  DIGITAL: ['signature', 'reasons'],
} as const satisfies Record<TagSetKind, readonly SignTagName[]>;

// Colour roles for tag highlighting; the actual colours are a theme concern.
export const TAG_COLOURS = ['selected', 'configured', 'remaining', 'invalid'] as const;
export const TagColour = z.enum(TAG_COLOURS);
export type TagColour = z.infer<typeof TagColour>;

// Overlap tolerance in px: new tags must not touch at all, loaded ones get slack for rounding.
export const TAG_OVERLAP_TOLERANCE_NEW = 0;
export const TAG_OVERLAP_TOLERANCE_DEFAULT = 3;

export function tagOverlapTolerance(createType: TagCreateType | undefined): number {
  return createType === 'new' ? TAG_OVERLAP_TOLERANCE_NEW : TAG_OVERLAP_TOLERANCE_DEFAULT;
}

// A pasted tag is nudged so it doesn't sit exactly on top of its source.
export const TAG_PASTE_OFFSET = { x: 10, y: 8 } as const;

// Tags loaded per page when tag pagination is on.
export const TAG_PAGE_SIZE = 10;

// Tag border width in px; letterheads use a thinner border.
export const TAG_BORDER_WIDTH = 6;
export const LETTERHEAD_TAG_BORDER_WIDTH = 4;

// Image tags accept only these file types (spec §5).
export const IMAGE_TAG_FILE_TYPES = ['png', 'jpg'] as const;
export const ImageTagFileType = z.enum(IMAGE_TAG_FILE_TYPES);
export type ImageTagFileType = z.infer<typeof ImageTagFileType>;

// Largest upload of an image tag when the tag sets no maxUpload of its own (KB; spec §5 shows
// it). The spec gives no number: the letterhead's 500 KB is reused, an image tag being no larger.
export const IMAGE_TAG_DEFAULT_MAX_KB = 500;

// The largest maxUpload a custodian may give an image tag (KB). Tag images travel inline in the
// tags (as data URLs, a third larger) and the tags of one document in one request of at most
// SIGNATURE_BLOCKS_MAX_BODY_BYTES (16 MB): 5 MB keeps a couple of large images within it.
export const IMAGE_TAG_MAX_UPLOAD_KB = 5120;
