import { describe, expect, it } from 'vitest';
import { TAG_ROLES, TAG_TYPES, type TagRole, type TagType } from '../constants/tags';
import { CUSTODIAN_TEXT_TAG_KEY, canDragOrResizeTags, isTagReadOnlyFor, mayDropOwnTags, maySign, mayUseRubberStamp } from './tags';

const RO = true; // read-only
const ED = false; // editable

/** Spec §6 tag rules, role x tagFor x type, written out by hand. Columns: custodian, signer. */
// prettier-ignore
const READ_ONLY_TABLE: ReadonlyArray<readonly [type: TagType, tagFor: TagRole, custodian: boolean, signer: boolean]> = [
  //  type         tagFor               custodian signer
  ['text',        'custodian',          ED,       RO],
  ['text',        'signer',             RO,       ED],
  ['text',        'all',                ED,       ED],
  ['text',        'custodianOrSigner',  ED,       ED],
  ['signature',   'custodian',          ED,       RO],
  ['signature',   'signer',             RO,       ED],
  ['signature',   'all',                ED,       ED],
  ['signature',   'custodianOrSigner',  ED,       ED],
  ['image',       'custodian',          ED,       RO],
  ['image',       'signer',             RO,       ED],
  ['image',       'all',                ED,       ED],
  ['image',       'custodianOrSigner',  ED,       ED],
  ['composite',   'custodian',          ED,       RO],
  ['composite',   'signer',             RO,       ED],
  ['composite',   'all',                ED,       ED],
  ['composite',   'custodianOrSigner',  ED,       ED],
  ['timeStamp',   'custodian',          RO,       RO],
  ['timeStamp',   'signer',             RO,       RO],
  ['timeStamp',   'all',                RO,       RO],
  ['timeStamp',   'custodianOrSigner',  RO,       RO],
];

const rows = READ_ONLY_TABLE.flatMap(([type, tagFor, custodian, signer]) => [
  [type, tagFor, 'custodian', custodian] as const,
  [type, tagFor, 'signer', signer] as const,
]);

describe('isTagReadOnlyFor', () => {
  it.each(rows)('%s tag for %s, viewed as %s: read-only %s', (type, tagFor, role, readOnly) => {
    expect(isTagReadOnlyFor({ type, tagFor }, role)).toBe(readOnly);
  });

  // The CustodianText tag is always editable, whoever it is for and whoever views it.
  it.each(TAG_ROLES.flatMap((tagFor) => (['custodian', 'signer'] as const).map((role) => [tagFor, role] as const)))(
    'CustodianText tag for %s is editable as %s',
    (tagFor, role) => {
      expect(isTagReadOnlyFor({ type: 'text', tagFor, key: CUSTODIAN_TEXT_TAG_KEY }, role)).toBe(false);
    },
  );

  // A tag as the editor holds it has a name too; only the key identifies CustodianText.
  const named = { type: 'text', tagFor: 'custodian', name: CUSTODIAN_TEXT_TAG_KEY } as const;
  it.each([
    ['named CustodianText without the key', named, 'signer', true],
    ['another key', { type: 'text', tagFor: 'custodian', key: 'CustodianNote' }, 'signer', true],
    ['a timestamp carrying the key', { type: 'timeStamp', tagFor: 'all', key: CUSTODIAN_TEXT_TAG_KEY }, 'custodian', true],
  ] as const)('CustodianText is recognised by key only: %s', (_label, tag, role, readOnly) => {
    expect(isTagReadOnlyFor(tag, role)).toBe(readOnly);
  });

  // Every type but timeStamp follows the tagFor rule, exactly like the text rows above.
  it.each(TAG_TYPES.filter((type) => type !== 'timeStamp'))('%s follows the tagFor rule', (type) => {
    for (const [, tagFor, role, readOnly] of rows.filter(([t]) => t === 'text')) {
      expect(isTagReadOnlyFor({ type, tagFor }, role), `${type} ${tagFor} ${role}`).toBe(readOnly);
    }
  });
});

describe('tag handling by role', () => {
  it.each([
    ['custodian', true, true],
    ['custodian', false, false],
    ['signer', true, false],
    ['signer', false, false],
  ] as const)('drag/resize as %s, viewer allows %s: %s', (role, viewerAllows, allowed) => {
    expect(canDragOrResizeTags(role, viewerAllows)).toBe(allowed);
  });

  it.each([
    ['signer', true, true],
    ['signer', false, false],
    ['custodian', true, false],
    ['custodian', false, false],
  ] as const)('drop own tags as %s, permitted %s: %s', (role, permitted, allowed) => {
    expect(mayDropOwnTags(role, permitted)).toBe(allowed);
  });

  it.each([
    ['signer', true],
    ['custodian', false],
  ] as const)('sign as %s: %s', (role, allowed) => {
    expect(maySign(role)).toBe(allowed);
  });

  it.each([
    [true, true, true],
    [true, false, false],
    [false, true, false],
    [false, false, false],
  ] as const)('rubber stamp with config %s and passcode %s: %s', (rubberStampEnabled, passcodeFlag, allowed) => {
    expect(mayUseRubberStamp({ rubberStampEnabled, passcodeFlag })).toBe(allowed);
  });
});
