import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MESSAGE_KEYS } from '../message-keys';
import {
  QR_MESSAGE_KEYS,
  QR_PAYLOAD_MAX_BYTES,
  qrDuplicateProblem,
  qrEditProblem,
  qrEntriesOf,
  qrLabelProblem,
  qrPayload,
  qrPayloadProblem,
  qrValueProblem,
  removeQrEntry,
  saveQrEntry,
  serializeQrEntries,
  utf8Length,
  withQrEntries,
  type QrEntry,
} from './qr';
import { Tag } from './tag';

const qrTag = (value: Tag['value'] = null): Tag =>
  Tag.parse({ uuid: '6f1c2a52-3d4e-4f5a-8b6c-7d8e9f0a1b2c', type: 'qrcode', pageNumber: 1, positionX: 10, positionY: 10, blockWidth: 80, blockHeight: 80, value });

const entries: QrEntry[] = [
  { label: 'Invoice', value: 'INV-42' },
  { label: 'Amount', value: '₹ 1,200' },
];

const entryArb = fc.record({ label: fc.string(), value: fc.string() });

describe('QR entries in the tag value', () => {
  it('stores them as a JSON array of {label, value} and reads them back', () => {
    const tag = withQrEntries(qrTag(), entries);
    expect(tag.value).toBe('[{"label":"Invoice","value":"INV-42"},{"label":"Amount","value":"₹ 1,200"}]');
    expect(qrEntriesOf(tag)).toEqual(entries);
    // The rest of the tag is untouched and the result is still a valid tag.
    expect(Tag.parse(tag)).toEqual(tag);
  });

  it('stores no entries as null', () => {
    expect(withQrEntries(qrTag('[{"label":"a","value":"b"}]'), []).value).toBeNull();
    expect(serializeQrEntries([])).toBeNull();
  });

  it('round-trips any list of entries, in order', () => {
    fc.assert(
      fc.property(fc.array(entryArb), (list) => {
        expect(qrEntriesOf(withQrEntries(qrTag(), list))).toEqual(list);
      }),
    );
  });

  it.each([
    ['null', null],
    ['an empty string', ''],
    ['text that is not JSON', 'Invoice: INV-42'],
    ['JSON that is not a list', '{"label":"a","value":"b"}'],
    ['a list of strings (the multi-value form)', ['a', 'b']],
    ['JSON null', 'null'],
  ] as const)('reads %s as no entries', (_, value) => {
    expect(qrEntriesOf({ value: value as Tag['value'] })).toEqual([]);
  });

  it('skips malformed items and drops stray properties', () => {
    const value = JSON.stringify([{ label: 'a', value: 'b', colour: 'red' }, { label: 1, value: 'x' }, 'loose', null, { label: 'c' }, { label: 'd', value: '' }]);
    expect(qrEntriesOf({ value })).toEqual([
      { label: 'a', value: 'b' },
      { label: 'd', value: '' },
    ]);
  });

  it('never throws, whatever the value holds', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json(), fc.constant(null), fc.array(fc.string())), (value) => {
        const read = qrEntriesOf({ value });
        expect(Array.isArray(read)).toBe(true);
        for (const entry of read) expect(Object.keys(entry).sort()).toEqual(['label', 'value']);
      }),
    );
  });
});

describe('the four validations of spec §5', () => {
  it('answers spec §8 message keys', () => {
    for (const key of QR_MESSAGE_KEYS) expect(MESSAGE_KEYS).toContain(key);
  });

  it.each(['', '   ', '\t\n'])('a blank label (%j) is qrLabelBlankValidation', (label) => {
    expect(qrLabelProblem(label)).toBe('qrLabelBlankValidation');
    expect(qrLabelProblem(` ${label}x`)).toBeNull();
  });

  it.each(['', '   '])('a blank value (%j) is qrValueBlankValidation', (value) => {
    expect(qrValueProblem(value)).toBe('qrValueBlankValidation');
    expect(qrValueProblem('0')).toBeNull();
  });

  it('a label equal to another, ignoring case and surrounding spaces, is qrDuplicateValidation', () => {
    expect(qrDuplicateProblem(entries, 'invoice')).toBe('qrDuplicateValidation');
    expect(qrDuplicateProblem(entries, '  AMOUNT ')).toBe('qrDuplicateValidation');
    expect(qrDuplicateProblem(entries, 'Invoice no.')).toBeNull();
    // A blank label is reported as blank, not as a duplicate.
    expect(qrDuplicateProblem([{ label: '', value: 'x' }], ' ')).toBeNull();
  });

  it('an entry being edited may keep its own label, in any case', () => {
    expect(qrDuplicateProblem(entries, 'INVOICE', 0)).toBeNull();
    expect(qrDuplicateProblem(entries, 'Amount', 0)).toBe('qrDuplicateValidation');
  });

  it('an entry can be loaded for editing only while the label field is empty (qrEditFieldValidation)', () => {
    expect(qrEditProblem({ label: '' })).toBeNull();
    expect(qrEditProblem({ label: '   ' })).toBeNull();
    expect(qrEditProblem({ label: 'Due date' })).toBe('qrEditFieldValidation');
    // Editing entry 0 while entry 1 is loaded: its label fills the field, so finish first.
    expect(qrEditProblem({ label: 'Amount' }, { editingIndex: 1, requestedIndex: 0 })).toBe('qrEditFieldValidation');
    // Choosing the entry already being edited changes nothing.
    expect(qrEditProblem({ label: 'Amount' }, { editingIndex: 1, requestedIndex: 1 })).toBeNull();
  });
});

describe('saveQrEntry', () => {
  it('adds a trimmed entry at the end', () => {
    expect(saveQrEntry(entries, { label: ' Due ', value: ' 1 May ' })).toEqual({ ok: true, entries: [...entries, { label: 'Due', value: '1 May' }] });
  });

  it('replaces the entry being edited in place', () => {
    expect(saveQrEntry(entries, { label: 'Invoice no.', value: 'INV-43' }, 0)).toEqual({
      ok: true,
      entries: [{ label: 'Invoice no.', value: 'INV-43' }, entries[1]],
    });
  });

  it('reports each field that is wrong at once', () => {
    expect(saveQrEntry(entries, { label: ' ', value: '' })).toEqual({ ok: false, problems: { label: 'qrLabelBlankValidation', value: 'qrValueBlankValidation' } });
    expect(saveQrEntry(entries, { label: 'amount', value: '' })).toEqual({ ok: false, problems: { label: 'qrDuplicateValidation', value: 'qrValueBlankValidation' } });
    expect(saveQrEntry(entries, { label: 'x', value: ' ' })).toEqual({ ok: false, problems: { value: 'qrValueBlankValidation' } });
  });

  it('never leaves blank or duplicate labels behind, whatever is saved', () => {
    fc.assert(
      fc.property(fc.array(entryArb, { maxLength: 12 }), (attempts) => {
        let list: QrEntry[] = [];
        for (const attempt of attempts) {
          const saved = saveQrEntry(list, attempt);
          if (saved.ok) list = saved.entries;
        }
        const labels = list.map((entry) => entry.label.toLocaleLowerCase());
        expect(new Set(labels).size).toBe(labels.length);
        for (const entry of list) {
          expect(entry.label.trim()).toBe(entry.label);
          expect(entry.label).not.toBe('');
          expect(entry.value).not.toBe('');
        }
        expect(qrPayloadProblem(list)).toBeNull();
      }),
    );
  });

  it('refuses an entry that would make the payload too long for a scannable code', () => {
    const long = 'x'.repeat(QR_PAYLOAD_MAX_BYTES);
    const saved = saveQrEntry(entries, { label: 'Notes', value: long });
    expect(saved.ok).toBe(false);
    if (!saved.ok) expect(saved.problems.payload).toEqual({ bytes: utf8Length(qrPayload([...entries, { label: 'Notes', value: long }])), max: QR_PAYLOAD_MAX_BYTES });
  });

  it('removes by position', () => {
    expect(removeQrEntry(entries, 0)).toEqual([entries[1]]);
    expect(removeQrEntry(entries, 5)).toEqual(entries);
  });
});

describe('the payload', () => {
  it('is one "label: value" line per entry, line breaks inside an entry flattened', () => {
    expect(qrPayload(entries)).toBe('Invoice: INV-42\nAmount: ₹ 1,200');
    expect(qrPayload([{ label: 'a\nb', value: 'c\r\nd' }])).toBe('a b: c d');
    expect(qrPayload([])).toBe('');
  });

  it('is measured in UTF-8 bytes, as the QR code stores it', () => {
    expect(utf8Length('abc')).toBe(3);
    expect(utf8Length('₹')).toBe(3);
    expect(utf8Length('नमस्ते')).toBe(18);
    expect(utf8Length('😀')).toBe(4);
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (text) => {
        expect(utf8Length(text)).toBe(new TextEncoder().encode(text).length);
      }),
    );
  });

  it('fits exactly at the limit and not one byte over', () => {
    const fill = (bytes: number) => [{ label: 'a', value: 'x'.repeat(bytes - 'a: '.length) }];
    expect(qrPayloadProblem(fill(QR_PAYLOAD_MAX_BYTES))).toBeNull();
    expect(qrPayloadProblem(fill(QR_PAYLOAD_MAX_BYTES + 1))).toEqual({ bytes: QR_PAYLOAD_MAX_BYTES + 1, max: QR_PAYLOAD_MAX_BYTES });
  });
});
