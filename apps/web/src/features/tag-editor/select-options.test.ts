import { describe, expect, it } from 'vitest';
import { placed } from '../../test/panel-test-harness';
import { addSelectOption, SELECT_OPTIONS_MAX_CHARS, selectOptionsOf, withSelectOptions } from './select-options';

describe('select options in dataSource', () => {
  it('are a JSON array of strings, none stored as no dataSource', () => {
    const tag = withSelectOptions(placed('singleSelect'), ['Yes', 'No']);
    expect(tag.dataSource).toBe('["Yes","No"]');
    expect(selectOptionsOf(tag)).toEqual(['Yes', 'No']);
    expect('dataSource' in withSelectOptions(tag, [])).toBe(false);
  });

  it.each([undefined, '', 'Yes,No', '{"a":1}', '[1,"Yes",null]'])('read tolerantly from %j', (dataSource) => {
    const options = selectOptionsOf({ dataSource });
    expect(options).toEqual(dataSource === '[1,"Yes",null]' ? ['Yes'] : []);
  });

  it('drop a chosen value that is no longer offered', () => {
    const single = withSelectOptions({ ...placed('singleSelect'), value: 'No' }, ['Yes']);
    expect(single.value).toBeNull();
    expect(withSelectOptions({ ...placed('singleSelect'), value: 'Yes' }, ['Yes']).value).toBe('Yes');
    expect(withSelectOptions({ ...placed('multiSelect'), value: ['A', 'B'] }, ['B', 'C']).value).toEqual(['B']);
    expect(withSelectOptions({ ...placed('multiSelect'), value: ['A'] }, ['C']).value).toBeNull();
  });
});

describe('addSelectOption', () => {
  it('appends a trimmed option', () => {
    expect(addSelectOption(['Yes'], '  No ')).toEqual({ ok: true, options: ['Yes', 'No'] });
  });

  it('refuses blank and repeated options (ignoring case)', () => {
    expect(addSelectOption(['Yes'], '   ')).toEqual({ ok: false, problem: 'blank' });
    expect(addSelectOption(['Yes'], ' yes')).toEqual({ ok: false, problem: 'duplicate' });
  });

  it('refuses an option that would not fit in dataSource', () => {
    const long = 'x'.repeat(SELECT_OPTIONS_MAX_CHARS - 4); // ["…"] takes 4 more;
    expect(addSelectOption([], long)).toEqual({ ok: true, options: [long] });
    expect(addSelectOption([], `${long}x`)).toEqual({ ok: false, problem: 'tooLong' });
  });
});
