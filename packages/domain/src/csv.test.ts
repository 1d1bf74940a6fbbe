import { describe, expect, it } from 'vitest';
import { csvField, parseCsv, toCsv } from './csv';

describe('parseCsv', () => {
  it('reads plain and quoted fields, CRLF and LF, a BOM, and skips empty lines', () => {
    expect(parseCsv('\uFEFFa,b,c\r\n1,"two, three","say ""hi"""\n\n"multi\nline",,x')).toEqual([
      ['a', 'b', 'c'],
      ['1', 'two, three', 'say "hi"'],
      ['multi\nline', '', 'x'],
    ]);
  });

  it('keeps empty fields and a trailing comma, and ends without a final line break', () => {
    expect(parseCsv('a,,\r\n,b')).toEqual([
      ['a', '', ''],
      ['', 'b'],
    ]);
    expect(parseCsv('')).toEqual([]);
    expect(parseCsv('\r\n\r\n')).toEqual([]);
  });
});

describe('csvField and toCsv', () => {
  it('neutralise formulas and quote what needs it', () => {
    expect(['=SUM(A1)', '+1', '-2', '@cmd', '\tx', 'plain', 'a,b', 'say "hi"'].map(csvField)).toEqual([
      "'=SUM(A1)",
      "'+1",
      "'-2",
      "'@cmd",
      "'\tx",
      'plain',
      '"a,b"',
      '"say ""hi"""',
    ]);
  });

  it.each([
    [' =cmd|\' /C calc\'!A0', "' =cmd|' /C calc'!A0"],
    ['\t=1+1', "'\t=1+1"],
    ['  +1', "'  +1"],
    ['\u00a0-2', "'\u00a0-2"],
    ['\u2028@SUM(A1)', "'\u2028@SUM(A1)"],
    ['\u0000=1', "'\u0000=1"],
    ['\rtext', "\"'\rtext\""],
    ['\n=1', "\"'\n=1\""],
    ['\tplain', "'\tplain"],
    [' plain', ' plain'],
    ['a=b', 'a=b'],
    ['x-1', 'x-1'],
    ['', ''],
  ])('neutralises %j as a formula when a spreadsheet would read one', (value, written) => {
    expect(csvField(value)).toBe(written);
    expect(parseCsv(`${csvField(value)},end`)[0]).toEqual([written.startsWith('"') ? written.slice(1, -1) : written, 'end']);
  });

  it('writes what parseCsv reads back', () => {
    const rows = [
      ['email', 'note'],
      ['a@example.test', 'line one\nline two, with "quotes"'],
    ];
    expect(parseCsv(toCsv(rows))).toEqual(rows);
  });
});
