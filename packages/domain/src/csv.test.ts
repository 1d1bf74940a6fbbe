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

  it('writes what parseCsv reads back', () => {
    const rows = [
      ['email', 'note'],
      ['a@example.test', 'line one\nline two, with "quotes"'],
    ];
    expect(parseCsv(toCsv(rows))).toEqual(rows);
  });
});
