import { isFilledValue, isGroupTag, isRequiredTag, isTagFor, flattenTags, isRubberStamp, isTagReadOnlyFor, type EpakViewer, type Tag, type TagType, type TagValue } from '@pakt/domain';

/**
 * What the signing ceremony needs to know about tags, kept free of React so it can be tested as
 * plain rules: whose a tag is, whether the person at the screen may fill it, what kind of input it
 * takes, and whether the required ones are filled.
 */

/** The person signing: who the viewer says they are in the step under way. */
export interface Signer {
  readonly email: string;
  /** Their step's order (viewer.stepOrder); null when they have no place in the ePak. */
  readonly stepOrder: number | null;
  readonly name: string;
}

/**
 * How a tag is filled:
 * - signature, initials, typedName: an image the person makes once and then applies with a click;
 * - name: their full name, applied with a click;
 * - reason: mirrors the reason chosen for the signature, so one choice serves both;
 * - server: filled by the server when the document is signed (time, UUIDs);
 * - attachment: a file handed in beside the PDF, uploaded at once; the tag then holds its name;
 * - static: the custodian's content (QR code, letterhead);
 * - the rest: an input of that kind.
 */
export type ValueKind =
  | 'signature'
  | 'initials'
  | 'typedName'
  | 'name'
  | 'reason'
  | 'text'
  | 'email'
  | 'date'
  | 'textArea'
  | 'select'
  | 'multiSelect'
  | 'image'
  | 'server'
  | 'attachment'
  | 'static';

/**
 * signatureText is "a name typed in a script font": it travels as a PNG of the name drawn in the
 * signature font, so the page shows script and not the server's Helvetica. Should the server
 * want the plain name instead, this is the one line to change.
 */
export const SIGNATURE_TEXT_KIND: ValueKind = 'typedName';

const KIND_OF_TYPE: Readonly<Record<TagType, ValueKind>> = {
  signature: 'signature',
  composite: 'signature',
  signatureText: SIGNATURE_TEXT_KIND,
  userInitial: 'initials',
  username: 'name',
  reason: 'reason',
  reasonFreeText: 'textArea',
  timeStamp: 'server',
  userUuid: 'server',
  docUuid: 'server',
  location: 'text',
  userTitle: 'text',
  text: 'text',
  email: 'email',
  calendar: 'date',
  textArea: 'textArea',
  singleSelect: 'select',
  multiSelect: 'multiSelect',
  image: 'image',
  attachment: 'attachment',
  selfSignAttachment: 'attachment',
  qrcode: 'static',
  letterHead: 'static',
};

export function valueKindOf(tag: Pick<Tag, 'type'>): ValueKind {
  return KIND_OF_TYPE[tag.type];
}

/** Kinds a click fills by itself (spec §4: "Clicking a tag sets its value"). */
export const CLICK_FILLED_KINDS: ReadonlySet<ValueKind> = new Set(['signature', 'initials', 'typedName', 'name']);

/** Kinds whose value is an image made from the person's signature or initials. */
export const IMAGE_KINDS: ReadonlySet<ValueKind> = new Set(['signature', 'initials', 'typedName', 'image']);

export interface EditContext {
  readonly signer: Signer;
  /** Something waits for the signer now (viewer.canAct). */
  readonly canAct: boolean;
  /** The document is signed by them already: what they put there is sealed. */
  readonly documentSigned: boolean;
}

/**
 * The signer may fill this tag: it is theirs, they can act now, the document is not yet signed
 * by them, and spec §6 does not make it read-only for a signer (tags for the custodian, and time
 * stamps). Tags of other signers stay read-only even when their tagFor is all: the server takes
 * values for the caller's own tags only. Server-filled and static tags take no input.
 */
export function isEditable(tag: Tag, context: EditContext): boolean {
  if (!context.canAct || context.documentSigned) return false;
  if (!isTagFor(tag, context.signer)) return false;
  if (isTagReadOnlyFor(tag, 'signer')) return false;
  // A rubber-stamp tag takes one of the signer's stamps through the stamp chooser, never an upload.
  if (isRubberStamp(tag)) return false;
  const kind = valueKindOf(tag);
  return kind !== 'server' && kind !== 'static';
}

/**
 * Fields the server fills itself when the signer leaves them empty: their name and address from
 * their account, the reason fields from the reason given for the signature. Left empty they are
 * not missing, so they neither hold up signing nor count against the progress.
 */
export function filledBySigning(tag: Pick<Tag, 'type'>, options: { readonly reasonGiven: boolean }): boolean {
  if (tag.type === 'username' || tag.type === 'email') return true;
  if (tag.type === 'reason' || tag.type === 'reasonFreeText') return options.reasonGiven;
  return false;
}

/** Every tag that takes a value: groups give way to their members. */
export function fillableTags(tags: readonly Tag[]): Tag[] {
  return flattenTags(tags).filter((tag) => !isGroupTag(tag));
}

/** The values as they stand: what the signer entered over what the tags came with. */
export type Values = Readonly<Record<string, TagValue>>;

export function valueOf(tag: Pick<Tag, 'uuid' | 'value'>, values: Values): TagValue {
  return Object.prototype.hasOwnProperty.call(values, tag.uuid) ? (values[tag.uuid] ?? null) : tag.value;
}

export interface RequiredProgress {
  readonly filled: number;
  readonly total: number;
  /** The required tags still empty, in page order. */
  readonly missing: readonly Tag[];
}

/** How many of the signer's required fields of one document are filled (spec: progress indicator). */
export function requiredProgress(tags: readonly Tag[], values: Values, context: EditContext, options: { readonly reasonGiven: boolean } = { reasonGiven: false }): RequiredProgress {
  const required = fillableTags(tags)
    .filter((tag) => isRequiredTag(tag) && isEditable(tag, context))
    .sort(byReadingOrder);
  const missing = required.filter((tag) => !isFilledValue(valueOf(tag, values)) && !filledBySigning(tag, options));
  return { filled: required.length - missing.length, total: required.length, missing };
}

/** What a sign request carries for one document: the filled values of the signer's editable tags. */
export function valuesToSend(tags: readonly Tag[], values: Values, context: EditContext): { uuid: string; value: TagValue }[] {
  return fillableTags(tags)
    .filter((tag) => isEditable(tag, context))
    .map((tag) => ({ uuid: tag.uuid, value: valueOf(tag, values) }))
    .filter((fill) => isFilledValue(fill.value));
}

/** Reading order on a page: top to bottom, then left to right (pages first when they differ). */
export function byReadingOrder(a: Pick<Tag, 'pageNumber' | 'positionX' | 'positionY'>, b: Pick<Tag, 'pageNumber' | 'positionX' | 'positionY'>): number {
  return a.pageNumber - b.pageNumber || a.positionY - b.positionY || a.positionX - b.positionX;
}

/**
 * The fields an adopted signature (or initials) goes into at once (issue 22): every one of the
 * signer's editable fields of that kind, outside signature blocks. Composites and their members
 * are left to the composite auto-fill question of spec §4, asked once.
 */
export function markTargets(tags: readonly Tag[], context: EditContext, kind: 'signature' | 'initials'): Tag[] {
  const inBlocks = new Set(flattenTags(tags).filter((tag) => tag.type === 'composite').flatMap((composite) => [composite.uuid, ...flattenTags(composite.children ?? []).map((child) => child.uuid)]));
  return fillableTags(tags).filter((tag) => !inBlocks.has(tag.uuid) && valueKindOf(tag) === kind && isEditable(tag, context));
}

/** The signer's date fields: each starts as today (issue 22), which they may change. */
export function dateTargets(tags: readonly Tag[], context: EditContext): Tag[] {
  return fillableTags(tags).filter((tag) => valueKindOf(tag) === 'date' && isEditable(tag, context));
}

/** The signer's composites (signature blocks), in page order: the auto-fill question is about them. */
export function ownComposites(tags: readonly Tag[], context: EditContext): Tag[] {
  return flattenTags(tags)
    .filter((tag) => tag.type === 'composite' && isTagFor(tag, context.signer) && !isTagReadOnlyFor(tag, 'signer'))
    .sort((a, b) => a.pageNumber - b.pageNumber || a.positionY - b.positionY);
}

/** The tags that make a composite's value: the group's click-filled members, or the composite itself. */
function compositeParts(composite: Tag): Tag[] {
  if (!isGroupTag(composite)) return [composite];
  return fillableTags(composite.children ?? []).filter((child) => CLICK_FILLED_KINDS.has(valueKindOf(child)));
}

/** A signature block is complete when each of its click-filled parts holds a value. */
export function isCompositeComplete(composite: Tag, values: Values): boolean {
  const parts = compositeParts(composite);
  return parts.length > 0 && parts.every((part) => isFilledValue(valueOf(part, values)));
}

/** The parts of the composites still incomplete, i.e. what auto-fill would fill. */
export function autoFillTargets(composites: readonly Tag[], values: Values): Tag[] {
  return composites.filter((composite) => !isCompositeComplete(composite, values)).flatMap(compositeParts);
}

/** The viewer's state as the ceremony reads it, when the ePak answer carries none. */
export const NO_VIEWER: EpakViewer = {
  isOwner: false,
  recipientId: null,
  stepOrder: null,
  stepType: null,
  status: null,
  canAct: false,
  isRead: false,
  eligibleForAction: false,
  viewedDocumentIds: [],
  signedDocumentIds: [],
  starred: false,
  geolocation: 'OFF',
  reasons: [],
  signerName: null,
  nameRequired: false,
};

/** Initials of a name as a signer writes them: first letters of the first and last words. */
export function initialsOf(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return '';
  const first = [...words[0]!][0] ?? '';
  const last = words.length > 1 ? ([...words[words.length - 1]!][0] ?? '') : '';
  return `${first}${last}`.toLocaleUpperCase();
}

/** spec §9: the default date format is DD MMM YYYY. English month names: the PDF font has no others. */
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

/** A date input's yyyy-mm-dd as the tag stores it (DD MMM YYYY); '' for anything else. */
export function formatTagDate(iso: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  if (!match) return '';
  const month = MONTHS[Number(match[2]) - 1];
  return month ? `${match[3]} ${month} ${match[1]}` : '';
}

/**
 * Today, on the signer's own calendar, as a date field stores it. No tenant carries a date format
 * of its own, so this is the app's: spec §9's default DD MMM YYYY (DEFAULT_DATE_FORMAT).
 */
export function todayTagDate(now: Date = new Date()): string {
  const iso = `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
  return formatTagDate(iso);
}

/** The other way, for showing a stored date in the date input again. */
export function parseTagDate(value: string): string {
  const match = /^(\d{2}) ([A-Za-z]{3}) (\d{4})$/.exec(value.trim());
  if (!match) return /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : '';
  const month = MONTHS.findIndex((name) => name.toLowerCase() === match[2]!.toLowerCase());
  return month < 0 ? '' : `${match[3]}-${String(month + 1).padStart(2, '0')}-${match[1]}`;
}
