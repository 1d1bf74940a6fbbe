import type { TagCategory, TagRole, TagType } from '../constants/tags';

/**
 * The tag editor's palette: the 23 tag types of spec §3 in the groups a custodian looks for them
 * in, and what a freshly placed tag of each type starts as. The spec lists the types but neither
 * their grouping nor these defaults; both are our design choice, kept here (not in the web app)
 * so the server, templates and any other editor place tags the same way.
 */
export const TAG_PALETTE_GROUPS = ['signature', 'signerData', 'formFields', 'media'] as const;
export type TagPaletteGroup = (typeof TAG_PALETTE_GROUPS)[number];

/**
 * Each type once, in palette order within its group:
 * - signature: the marks a signer makes;
 * - signerData: filled from who the signer is and when/why they sign, not typed by the custodian;
 * - formFields: inputs the signer fills in (a QR code is composed from key-value fields);
 * - media: images, files and document-level stamps.
 */
export const TAG_PALETTE = {
  signature: ['signature', 'signatureText', 'userInitial', 'composite'],
  signerData: ['username', 'email', 'userTitle', 'userUuid', 'location', 'reason', 'reasonFreeText', 'timeStamp'],
  formFields: ['text', 'textArea', 'calendar', 'singleSelect', 'multiSelect', 'qrcode'],
  media: ['image', 'attachment', 'selfSignAttachment', 'letterHead', 'docUuid'],
} as const satisfies Record<TagPaletteGroup, readonly TagType[]>;

export interface TagTypeDefaults {
  /** printed tags are drawn on the PDF; nonPrinted ones are data only. */
  readonly category: TagCategory;
  /** Who fills the tag in (Tag.tagFor). */
  readonly tagFor: TagRole;
}

const signer: TagTypeDefaults = { category: 'printed', tagFor: 'signer' };
const custodian: TagTypeDefaults = { category: 'printed', tagFor: 'custodian' };

/**
 * What a tag of each type starts as:
 * - everything a signer fills, and everything the server fills for the signer at signing time
 *   (time stamp, UUID), is for the signer and printed;
 * - attachments are files handed in beside the PDF, so nothing of them is printed;
 * - a QR code, a letterhead and an image are content the custodian supplies while composing;
 * - the document UUID is stamped by the system whoever signs, so it is for everyone (all).
 */
export const TAG_TYPE_DEFAULTS = {
  signature: signer,
  signatureText: signer,
  userInitial: signer,
  composite: signer,
  username: signer,
  email: signer,
  userTitle: signer,
  userUuid: signer,
  location: signer,
  reason: signer,
  reasonFreeText: signer,
  timeStamp: signer,
  text: signer,
  textArea: signer,
  calendar: signer,
  singleSelect: signer,
  multiSelect: signer,
  qrcode: custodian,
  image: { category: 'printed', tagFor: 'custodianOrSigner' },
  attachment: { category: 'nonPrinted', tagFor: 'signer' },
  selfSignAttachment: { category: 'nonPrinted', tagFor: 'custodian' },
  letterHead: custodian,
  docUuid: { category: 'printed', tagFor: 'all' },
} as const satisfies Record<TagType, TagTypeDefaults>;

/** The palette group a type is listed in. */
export function paletteGroupOf(type: TagType): TagPaletteGroup {
  for (const group of TAG_PALETTE_GROUPS) {
    if ((TAG_PALETTE[group] as readonly TagType[]).includes(type)) return group;
  }
  // Unreachable while palette.test.ts holds: every type is listed exactly once.
  throw new Error(`tag type ${type} is in no palette group`);
}

export function tagTypeDefaults(type: TagType): TagTypeDefaults {
  return TAG_TYPE_DEFAULTS[type];
}
