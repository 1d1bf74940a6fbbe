import { isSignatureTag, SIGNATURE_FAMILY_TAG_TYPES } from './rules';
import { flattenTags, type Tag, type TagValue } from './tag';
import type { TagProblem } from './rules';

/**
 * How a signer's fields are filled, as the ceremony shows it and the server checks it: one home,
 * so the progress a signer sees and the refusal the server answers cannot disagree.
 */

/** A composite with members is a group: its members are filled, not the group itself. */
export function isGroupTag(tag: Pick<Tag, 'type' | 'children'>): boolean {
  return tag.type === 'composite' && (tag.children?.length ?? 0) > 0;
}

/** A value counts as given when it holds more than white space (a list: at least one entry). */
export function isFilledValue(value: TagValue | undefined): boolean {
  if (value === null || value === undefined) return false;
  if (Array.isArray(value)) return value.length > 0;
  return value.trim() !== '';
}

/**
 * A field the signer must fill before signing: a signature (a signature field, a typed signature,
 * or a signature block without members), or one the custodian marked required. A group is never
 * required itself; its members are.
 */
export function isRequiredTag(tag: Pick<Tag, 'type' | 'children' | 'validations'>): boolean {
  if (isGroupTag(tag)) return false;
  return isSignatureTag(tag) || tag.type === 'composite' || tag.validations?.required?.value === true;
}

/**
 * Tags whose value is the signer's own mark (a signature, a typed signature, initials, a signature
 * block without members): only the signer makes it, in the signing request itself. A value stored
 * with the tag beforehand (by whoever placed it) is never theirs, so it is refused when saved and
 * ignored when signing: otherwise a custodian could sign in someone else's name.
 */
export function isSignerMadeTag(tag: Pick<Tag, 'type' | 'children'>): boolean {
  return (SIGNATURE_FAMILY_TAG_TYPES as readonly string[]).includes(tag.type) || (tag.type === 'composite' && !isGroupTag(tag));
}

/** Tags the server fills from who signs and when (spec §3 sign tag ids): never taken from a stored value. */
export const SERVER_FILLED_TAG_TYPES = ['timeStamp', 'username', 'email', 'userUuid', 'docUuid'] as const satisfies readonly Tag['type'][];

export function isServerFilledTag(tag: Pick<Tag, 'type'>): boolean {
  return (SERVER_FILLED_TAG_TYPES as readonly string[]).includes(tag.type);
}

/**
 * Why a tag may not be saved with the value it carries, or null. A field for a recipient that
 * is their mark or that the server fills from who signs must reach them empty.
 */
export function presetValueProblem(tag: Pick<Tag, 'type' | 'children' | 'value' | 'userEmail'>): string | null {
  if (!isFilledValue(tag.value)) return null;
  if (isSignerMadeTag(tag)) return 'a signature is made by its signer when signing: it cannot be given in advance';
  if (tag.userEmail && isServerFilledTag(tag)) return 'this field is filled from who signs and when: it cannot be given in advance';
  return null;
}

/** Every tag (composite members included) saved with a value it may not carry: one problem each. */
export function presetValueProblems(tags: readonly Tag[]): TagProblem[] {
  return flattenTags(tags)
    .filter((tag) => presetValueProblem(tag) !== null)
    .map((tag) => ({ tagUuid: tag.uuid, messageKey: 'presetSignerValue' as const }));
}
