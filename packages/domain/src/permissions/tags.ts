import { ALWAYS_READ_ONLY_TAG_TYPES, SHARED_TAG_ROLES, type TagRole, type TagType } from '../constants/tags';

/**
 * The two sides of tag editing: the custodian who places tags and the signer who fills them. These
 * are tag roles (a tag's `tagFor`), not account roles: an admin composing an ePak edits as custodian.
 */
export type TagEditorRole = Extract<TagRole, 'custodian' | 'signer'>;

/**
 * Spec §6 "The CustodianText tag is always editable." CustodianText is not one of the tag types of §3,
 * so it names one particular tag. We identify it by `key`, not `name`: a key is a stable identifier
 * (§6 applies coordinates by "a tag key from a fixed list"), while a name is a label a custodian may
 * change or translate.
 */
export const CUSTODIAN_TEXT_TAG_KEY = 'CustodianText';

export interface TagAccessSubject {
  readonly type: TagType;
  readonly tagFor: TagRole;
  readonly key?: string;
}

/**
 * Spec §6: "a tag is read-only for a role it is not meant for, except tags for all or
 * custodianOrSigner. Timestamp tags are always read-only. The CustodianText tag is always editable."
 * Should a timestamp ever carry the CustodianText key, the timestamp rule wins: the server fills
 * timestamps, so an edited one would be a forged time.
 */
export function isTagReadOnlyFor(tag: TagAccessSubject, role: TagEditorRole): boolean {
  if ((ALWAYS_READ_ONLY_TAG_TYPES as readonly TagType[]).includes(tag.type)) return true;
  if (tag.key === CUSTODIAN_TEXT_TAG_KEY) return false;
  if ((SHARED_TAG_ROLES as readonly TagRole[]).includes(tag.tagFor)) return false;
  return tag.tagFor !== role;
}

/** Spec §6 "Only custodians can drag and resize tags when the viewer allows it." */
export function canDragOrResizeTags(role: TagEditorRole, viewerAllows: boolean): boolean {
  return role === 'custodian' && viewerAllows;
}

/**
 * Spec §6 "Signers may drop their own tags where permitted." `permitted` is the ePak's or viewer's
 * permission for signer-placed tags (createType 'signer', §3); the spec does not name its source.
 */
export function mayDropOwnTags(role: TagEditorRole, permitted: boolean): boolean {
  return role === 'signer' && permitted;
}

/** Spec §6 "Only the signer may sign." */
export function maySign(role: TagEditorRole): boolean {
  return role === 'signer';
}

/** Spec §6 "The rubber stamp needs an enabled config flag and the signer's passcode flag." */
export function mayUseRubberStamp(options: { readonly rubberStampEnabled: boolean; readonly passcodeFlag: boolean }): boolean {
  return options.rubberStampEnabled && options.passcodeFlag;
}
