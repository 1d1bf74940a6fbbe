import { describe, expect, it } from 'vitest';
import { csvField, toCsv } from './csv';

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
  });
});

describe('toCsv', () => {
  it('writes every field through csvField and ends each row with CRLF', () => {
    expect(toCsv([['email', 'note'], ['a@example.test', '=1, "two"']])).toBe('email,note\r\na@example.test,"\'=1, ""two"""\r\n');
  });
});
