import { isTagFor, newTag, type Tag } from '@pakt/domain';
import { describe, expect, it } from 'vitest';
import {
  autoFillTargets,
  formatTagDate,
  initialsOf,
  isCompositeComplete,
  isEditable,
  parseTagDate,
  requiredProgress,
  valuesToSend,
  type EditContext,
} from './signing-tags';

const signer = { email: 'Asha@Example.com', stepOrder: 2, name: 'Asha Rao' };
const context: EditContext = { signer, canAct: true, documentSigned: false };
let n = 0;
const tag = (type: Tag['type'], over: Partial<Tag> = {}): Tag => {
  n += 1;
  return { ...newTag({ uuid: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`, type, pageNumber: 1, positionX: 10, positionY: 10 * n, userEmail: 'asha@example.com', wfsOrderId: 2 }), ...over };
};

describe('whose tag, and who may fill it', () => {
  it('is the signer’s by address (any case) and step', () => {
    expect(isTagFor(tag('text'), signer)).toBe(true);
    expect(isTagFor(tag('text', { wfsOrderId: 1 }), signer)).toBe(false);
    expect(isTagFor(tag('text', { wfsOrderId: undefined }), signer)).toBe(true);
    expect(isTagFor(tag('text', { userEmail: 'ravi@example.com' }), signer)).toBe(false);
    expect(isTagFor(tag('text', { userEmail: undefined }), signer)).toBe(false);
  });

  it('follows spec §6 for the signer’s own tags, and only while they can act on an unsigned document', () => {
    expect(isEditable(tag('text'), context)).toBe(true);
    expect(isEditable(tag('text', { tagFor: 'all' }), context)).toBe(true);
    expect(isEditable(tag('text', { tagFor: 'custodian' }), context)).toBe(false);
    expect(isEditable(tag('timeStamp', { tagFor: 'all' }), context)).toBe(false);
    expect(isEditable(tag('text', { tagFor: 'custodian', key: 'CustodianText' }), context)).toBe(true);
    expect(isEditable(tag('userUuid'), context)).toBe(false);
    expect(isEditable(tag('attachment'), context)).toBe(true);
    expect(isEditable(tag('qrcode'), context)).toBe(false);
    expect(isEditable(tag('text'), { ...context, canAct: false })).toBe(false);
    expect(isEditable(tag('text'), { ...context, documentSigned: true })).toBe(false);
  });
});

describe('required fields', () => {
  it('counts the signer’s required fields and lists the empty ones in page order', () => {
    const required = { validations: { required: { value: true } } };
    const late = tag('text', { ...required, positionY: 500 });
    const early = tag('signature', { ...required, positionY: 20 });
    const filled = tag('text', { ...required, value: 'prefilled' });
    const others = tag('text', { ...required, userEmail: 'ravi@example.com' });
    const progress = requiredProgress([late, early, filled, others, tag('text')], {}, context);
    expect(progress).toMatchObject({ filled: 1, total: 3 });
    expect(progress.missing.map((item) => item.uuid)).toEqual([early.uuid, late.uuid]);
    expect(requiredProgress([late], { [late.uuid]: '  ' }, context).filled).toBe(0);
    expect(requiredProgress([late], { [late.uuid]: 'x' }, context).filled).toBe(1);
  });

  it('holds up signing for a signature block without members, as the server does, and not for a group', () => {
    const block = tag('composite');
    const member = tag('signature');
    const group = tag('composite', { children: [member] });
    expect(requiredProgress([block, group], {}, context).missing.map((item) => item.uuid)).toEqual([block.uuid, member.uuid]);
  });

  it('does not hold up signing for fields the server fills when left empty', () => {
    const required = { validations: { required: { value: true } } };
    const name = tag('username', required);
    const reason = tag('reasonFreeText', required);
    expect(requiredProgress([name, reason], {}, context).missing.map((item) => item.uuid)).toEqual([reason.uuid]);
    expect(requiredProgress([name, reason], {}, context, { reasonGiven: true })).toMatchObject({ filled: 2, total: 2 });
  });

  it('sends the filled values of the signer’s editable tags only, members of groups included', () => {
    const text = tag('text');
    const member = tag('signature');
    const group = tag('composite', { children: [member] });
    const theirs = tag('text', { userEmail: 'ravi@example.com', value: 'x' });
    const values = { [text.uuid]: 'hello', [member.uuid]: 'data:image/png;base64,AA==', [theirs.uuid]: 'y' };
    expect(valuesToSend([text, group, theirs, tag('text')], values, context)).toEqual([
      { uuid: text.uuid, value: 'hello' },
      { uuid: member.uuid, value: 'data:image/png;base64,AA==' },
    ]);
  });
});

describe('signature blocks', () => {
  it('are complete when their click-filled members are, and auto-fill targets the rest', () => {
    const signature = tag('signature');
    const name = tag('username');
    const stamp = tag('timeStamp');
    const block = tag('composite', { children: [signature, name, stamp] });
    const plain = tag('composite');
    expect(isCompositeComplete(block, { [signature.uuid]: 'data:image/png;base64,AA==' })).toBe(false);
    expect(isCompositeComplete(block, { [signature.uuid]: 'data:image/png;base64,AA==', [name.uuid]: 'Asha Rao' })).toBe(true);
    expect(isCompositeComplete(plain, {})).toBe(false);
    expect(autoFillTargets([block, plain], { [signature.uuid]: 'data:image/png;base64,AA==' }).map((item) => item.uuid)).toEqual([signature.uuid, name.uuid, plain.uuid]);
  });
});

describe('helpers', () => {
  it('writes initials and dates as a signer would', () => {
    expect(initialsOf('Asha  Rao')).toBe('AR');
    expect(initialsOf('asha')).toBe('A');
    expect(initialsOf('आशा राव')).toBe('आर');
    expect(formatTagDate('2025-03-07')).toBe('07 Mar 2025');
    expect(parseTagDate('07 Mar 2025')).toBe('2025-03-07');
    expect(formatTagDate('nonsense')).toBe('');
  });
});
