import { isSignatureTag } from './rules';
import type { Tag, TagValue } from './tag';

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
