import type { TagType } from '../constants/tags';

/**
 * The smart-tags picker of spec §2: data fields a smart (non-printed) tag can be filled from.
 * Picking one gives the tag its `key` (the data key the value is filled from) and `type`; the
 * server fills the value when the ePak is sent or signed.
 *
 * The spec lists no fields; these are the data the spec's entities carry (§3: ePak summary,
 * user info, documents) that a form would plausibly want. `key` is `<group>.<field>` and is what
 * gets stored, so keys never change once released; labels are translated (`labelKey`).
 */
export const SMART_FIELD_GROUPS = ['epak', 'signer', 'document'] as const;
export type SmartFieldGroup = (typeof SMART_FIELD_GROUPS)[number];

export interface SmartTagField {
  /** Stored in the tag's `key`: `<group>.<field>`. */
  readonly key: string;
  /** The tag type the field becomes (a date is a calendar, an address an email, …). */
  readonly type: TagType;
  /** i18n key of the field's name, under `tagPanel.smartFields`. */
  readonly labelKey: `tagPanel.smartFields.${string}`;
  readonly group: SmartFieldGroup;
}

const field = (group: SmartFieldGroup, name: string, type: TagType, label: string): SmartTagField => ({
  key: `${group}.${name}`,
  type,
  labelKey: `tagPanel.smartFields.${label}`,
  group,
});

export const SMART_TAG_FIELDS: readonly SmartTagField[] = [
  // The ePak the document travels in (spec §3 ePak summary).
  field('epak', 'subject', 'text', 'epakSubject'),
  field('epak', 'id', 'text', 'epakId'),
  field('epak', 'sentOn', 'calendar', 'epakSentOn'),
  field('epak', 'expiresOn', 'calendar', 'epakExpiresOn'),
  field('epak', 'custodianName', 'text', 'custodianName'),
  field('epak', 'custodianEmail', 'email', 'custodianEmail'),
  // The signer the tag is assigned to (spec §3 user info).
  field('signer', 'firstName', 'text', 'signerFirstName'),
  field('signer', 'lastName', 'text', 'signerLastName'),
  field('signer', 'fullName', 'username', 'signerFullName'),
  field('signer', 'email', 'email', 'signerEmail'),
  field('signer', 'title', 'userTitle', 'signerTitle'),
  field('signer', 'phone', 'text', 'signerPhone'),
  field('signer', 'company', 'text', 'signerCompany'),
  field('signer', 'department', 'text', 'signerDepartment'),
  // The document the tag is placed on.
  field('document', 'name', 'text', 'documentName'),
  field('document', 'pageCount', 'text', 'documentPageCount'),
  field('document', 'uuid', 'docUuid', 'documentUuid'),
];

/**
 * The fields matching a search, in their original order. Case-insensitive; the query is split
 * on white space and every word must occur in the field's translated label or in its key, so
 * "signer mail" finds the signer's email and "expires" finds the expiry date in any language
 * whose label says so. A blank query matches everything.
 */
export function searchSmartFields<F extends SmartTagField>(fields: readonly F[], query: string, translate: (labelKey: F['labelKey']) => string): F[] {
  const words = query.toLocaleLowerCase().split(/\s+/).filter((word) => word !== '');
  if (words.length === 0) return [...fields];
  return fields.filter((candidate) => {
    const haystack = `${translate(candidate.labelKey)}\n${candidate.key}`.toLocaleLowerCase();
    return words.every((word) => haystack.includes(word));
  });
}

/** The fields by group, groups in SMART_FIELD_GROUPS order, empty groups left out. */
export function groupSmartFields<F extends SmartTagField>(fields: readonly F[]): { readonly group: SmartFieldGroup; readonly fields: F[] }[] {
  return SMART_FIELD_GROUPS.map((group) => ({ group, fields: fields.filter((candidate) => candidate.group === group) })).filter(
    (entry) => entry.fields.length > 0,
  );
}
