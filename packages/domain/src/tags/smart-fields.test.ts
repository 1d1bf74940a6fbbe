import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TAG_TYPES } from '../constants/tags';
import { SMART_FIELD_GROUPS, SMART_TAG_FIELDS, groupSmartFields, searchSmartFields, type SmartTagField } from './smart-fields';

// A stand-in for i18next: the label is the last part of the key, spaced out ("signerEmail" → "signer email").
const translate = (labelKey: string) =>
  (labelKey.split('.').pop() ?? '').replace(/([A-Z])/g, ' $1').toLowerCase();
const keys = (fields: readonly SmartTagField[]) => fields.map((field) => field.key);

describe('SMART_TAG_FIELDS', () => {
  it('covers the ePak, signer and document data the picker offers', () => {
    expect(keys(SMART_TAG_FIELDS)).toEqual([
      'epak.subject',
      'epak.id',
      'epak.sentOn',
      'epak.expiresOn',
      'epak.custodianName',
      'epak.custodianEmail',
      'signer.firstName',
      'signer.lastName',
      'signer.fullName',
      'signer.email',
      'signer.title',
      'signer.phone',
      'signer.company',
      'signer.department',
      'document.name',
      'document.pageCount',
      'document.uuid',
    ]);
  });

  it('has unique keys and label keys, known tag types, and keys that start with their group', () => {
    expect(new Set(keys(SMART_TAG_FIELDS)).size).toBe(SMART_TAG_FIELDS.length);
    expect(new Set(SMART_TAG_FIELDS.map((field) => field.labelKey)).size).toBe(SMART_TAG_FIELDS.length);
    for (const field of SMART_TAG_FIELDS) {
      expect(TAG_TYPES).toContain(field.type);
      expect(SMART_FIELD_GROUPS).toContain(field.group);
      expect(field.key.startsWith(`${field.group}.`)).toBe(true);
      expect(field.labelKey).toMatch(/^tagPanel\.smartFields\.\w+$/);
    }
  });
});

describe('searchSmartFields', () => {
  it('returns everything for a blank query', () => {
    expect(searchSmartFields(SMART_TAG_FIELDS, '', translate)).toEqual(SMART_TAG_FIELDS);
    expect(searchSmartFields(SMART_TAG_FIELDS, '   ', translate)).toEqual(SMART_TAG_FIELDS);
  });

  it('matches the translated label, ignoring case', () => {
    expect(keys(searchSmartFields(SMART_TAG_FIELDS, 'DEPARTMENT', translate))).toEqual(['signer.department']);
    expect(keys(searchSmartFields(SMART_TAG_FIELDS, 'Expires', translate))).toEqual(['epak.expiresOn']);
  });

  it('matches the key too', () => {
    expect(keys(searchSmartFields(SMART_TAG_FIELDS, 'document.uuid', translate))).toEqual(['document.uuid']);
    expect(keys(searchSmartFields(SMART_TAG_FIELDS, 'pagecount', translate))).toEqual(['document.pageCount']);
  });

  it('needs every word of the query, in any order', () => {
    expect(keys(searchSmartFields(SMART_TAG_FIELDS, 'email signer', translate))).toEqual(['signer.email']);
    expect(keys(searchSmartFields(SMART_TAG_FIELDS, 'email', translate))).toEqual(['epak.custodianEmail', 'signer.email']);
    expect(searchSmartFields(SMART_TAG_FIELDS, 'email zebra', translate)).toEqual([]);
  });

  it('searches the labels of the language in use, not the English ones', () => {
    const hindi = (labelKey: string) => (labelKey.endsWith('signerEmail') ? 'हस्ताक्षरकर्ता का ईमेल' : 'अन्य');
    expect(keys(searchSmartFields(SMART_TAG_FIELDS, 'ईमेल', hindi))).toEqual(['signer.email']);
  });

  it('only ever narrows the list, keeping its order', () => {
    fc.assert(
      fc.property(fc.string(), (query) => {
        const found = searchSmartFields(SMART_TAG_FIELDS, query, translate);
        const positions = found.map((field) => SMART_TAG_FIELDS.indexOf(field));
        expect(positions.every((position) => position >= 0)).toBe(true);
        expect([...positions].sort((a, b) => a - b)).toEqual(positions);
        // Adding a word never finds more.
        expect(searchSmartFields(SMART_TAG_FIELDS, `${query} e`, translate).length).toBeLessThanOrEqual(found.length);
      }),
    );
  });
});

describe('groupSmartFields', () => {
  it('groups in the fixed group order and leaves empty groups out', () => {
    const grouped = groupSmartFields(searchSmartFields(SMART_TAG_FIELDS, 'name', translate));
    expect(grouped.map((entry) => entry.group)).toEqual(['epak', 'signer', 'document']);
    expect(keys(grouped[1]!.fields)).toEqual(['signer.firstName', 'signer.lastName', 'signer.fullName']);
    expect(groupSmartFields(searchSmartFields(SMART_TAG_FIELDS, 'phone', translate)).map((entry) => entry.group)).toEqual(['signer']);
  });
});
