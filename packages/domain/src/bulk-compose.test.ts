import { describe, expect, it } from 'vitest';
import {
  bulkComposeHeaderCsv,
  bulkComposeLayout,
  checkBulkHeader,
  validateBulkRow,
  type BulkTemplateStep,
} from './bulk-compose';
import { Tag, type TagInput } from './tags/tag';

const tag = (init: Partial<TagInput>): Tag =>
  Tag.parse({ uuid: crypto.randomUUID(), type: 'signature', pageNumber: 1, positionX: 10, positionY: 10, blockWidth: 100, blockHeight: 30, ...init });

const steps: BulkTemplateStep[] = [
  { order: 1, recipients: [{ type: 'placeholder', label: 'Client' }, { type: 'user', email: 'boss@example.com' }] },
  { order: 2, recipients: [{ type: 'placeholder', label: 'Witness' }] },
];
const tags = [tag({ userEmail: 'slot:1.1', wfsOrderId: 1 }), tag({ type: 'text', name: 'Amount', positionY: 200 }), tag({ type: 'signature', name: 'Amount', positionY: 300 })];
const layout = bulkComposeLayout({ tags, steps });
const header = layout.columns.map((c) => c.name);

const good = (over: Record<string, string> = {}) => {
  const values: Record<string, string> = {
    'step1.recipient1.email': 'ann@example.com',
    'step1.recipient1.firstName': 'Ann',
    'step1.recipient1.lastName': 'Lee',
    'step1.recipient1.phone': '',
    'step1.recipient1.countryCode': 'IN',
    'step2.recipient1.email': 'wit@example.com',
    'step2.recipient1.firstName': 'Wit',
    'step2.recipient1.lastName': 'Ness',
    'step2.recipient1.phone': '555-123-4567',
    'step2.recipient1.countryCode': '',
    Amount: '100',
    ...over,
  };
  return header.map((name) => values[name] ?? '');
};

describe('bulk compose layout and header', () => {
  it('has a column group per placeholder place and one column per named field tag', () => {
    expect(header).toEqual([
      'step1.recipient1.email',
      'step1.recipient1.firstName',
      'step1.recipient1.lastName',
      'step1.recipient1.phone',
      'step1.recipient1.countryCode',
      'step2.recipient1.email',
      'step2.recipient1.firstName',
      'step2.recipient1.lastName',
      'step2.recipient1.phone',
      'step2.recipient1.countryCode',
      'Amount',
    ]);
    expect(layout.columns.filter((c) => c.mandatory).map((c) => c.name.split('.').pop())).toEqual(['email', 'firstName', 'lastName', 'email', 'firstName', 'lastName']);
    expect(layout.places.map((p) => [p.label, p.required])).toEqual([
      ['Client', true],
      ['Witness', true],
    ]);
    expect(bulkComposeHeaderCsv(layout)).toBe(`${header.join(',')}\r\n`);
  });

  it.each([
    ['empty (-182)', [''], -182],
    ['a mandatory column missing (-181)', header.filter((n) => n !== 'step2.recipient1.lastName'), -181],
    ['an unknown column (-175)', [...header, 'Other'], -175],
    ['a column twice (-175)', [...header, 'Amount'], -175],
  ])('refuses a header %s', (_name, given, code) => {
    expect(checkBulkHeader(given, layout)?.code).toBe(code);
  });

  it('accepts the header without the optional columns, and with a trailing errors column', () => {
    expect(checkBulkHeader(layout.columns.filter((c) => c.mandatory).map((c) => c.name), layout)).toBeNull();
    expect(checkBulkHeader([...header, 'errors'], layout)).toBeNull();
  });
});

describe('validateBulkRow', () => {
  const check = (cells: string[]) => validateBulkRow({ header, cells, layout, steps });

  it('binds a good row: fixed people stay, placeholders are filled, field values by tag name', () => {
    const result = check(good());
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.steps.map((s) => s.recipients.map((r) => r?.email))).toEqual([['ann@example.com', 'boss@example.com'], ['wit@example.com']]);
    expect(result.values.get('Amount')).toBe('100');
  });

  it.each([
    ['step1.recipient1.email', 'not-an-address', -1],
    ['step1.recipient1.firstName', '', -2],
    ['step1.recipient1.lastName', 'x'.repeat(101), -3],
    ['step2.recipient1.phone', '12', -4],
    ['step2.recipient1.countryCode', 'ZZ', -5],
  ])('gives %s = %j its code', (field, value, code) => {
    const result = check(good({ [field]: value }));
    expect(result).toEqual({ ok: false, errors: [{ field, code, message: expect.any(String) }] });
  });

  it('refuses a row without a required place (-171)', () => {
    const result = check(good({ 'step2.recipient1.email': '', 'step2.recipient1.firstName': '', 'step2.recipient1.lastName': '', 'step2.recipient1.phone': '' }));
    expect(result.ok ? [] : result.errors.map((e) => [e.field, e.code])).toEqual([['step2.recipient1.email', -171]]);
  });

  it('refuses the same address twice in a step, and a row of the wrong width (-175)', () => {
    const twice = check(good({ 'step1.recipient1.email': 'BOSS@example.com' }));
    expect(twice.ok ? [] : twice.errors.map((e) => e.code)).toEqual([-1]);
    const short = check(good().slice(0, 3));
    expect(short.ok ? [] : short.errors.map((e) => [e.field, e.code])).toEqual([[null, -175]]);
  });
});
