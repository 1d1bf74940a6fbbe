import { bulkFailureCsvLine, bulkFailuresCsvHeader, csvField, DomainError, toCsv } from '@pakt/domain';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { csvRefusal, csvRows, parseCsv } from './csv';

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

describe('reading back what the domain writes', () => {
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
  ])('reads %j back as written', (value, written) => {
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

describe('failed rows CSV', () => {
  it('adds an errors column and neutralises formula cells', () => {
    const head = bulkFailuresCsvHeader(['a', 'b']);
    const line = bulkFailureCsvLine(['a', 'b'], ['=HYPERLINK("x")', '@SUM(1)'], [{ field: 'a', code: -1, message: 'Not an e-mail address.' }]);
    expect(parseCsv(head + line)).toEqual([
      ['a', 'b', 'errors'],
      [`'=HYPERLINK("x")`, `'@SUM(1)`, 'a: -1 Not an e-mail address.'],
    ]);
    for (const start of ['+1', '-1', '\tx', '\rx']) expect(parseCsv(bulkFailureCsvLine(['a'], [start], []))[0]![0]).toBe(`'${start}`);
  });
});

describe('csvRows', () => {
  it('reads what parseCsv reads, whatever the chunk boundaries, inside a character too', async () => {
    const text = '\ufeffa,b,c\r\n"x, ""quoted""",2,"line\r\nbreak"\n\n,,\r\nlast,"",end,é';
    const bytes = Buffer.from(text);
    for (let size = 1; size <= bytes.length; size++) {
      const chunks: Buffer[] = [];
      for (let at = 0; at < bytes.length; at += size) chunks.push(bytes.subarray(at, at + size));
      const rows: string[][] = [];
      for await (const row of Readable.from(chunks).pipe(csvRows())) rows.push(row as string[]);
      expect(rows, `chunks of ${size}`).toEqual(parseCsv(text));
    }
  });
});

describe('malformed files', () => {
  it('mixes CRLF, LF and CR in one file, and keeps a stray quote inside a field', () => {
    expect(parseCsv('a\rb\r\nc\nd,e"f')).toEqual([['a'], ['b'], ['c'], ['d', 'e"f']]);
  });

  it('refuses a quote that is never closed with -6, saying where', () => {
    const refused = (() => {
      try {
        parseCsv('email\n"open,x');
      } catch (error) {
        return error;
      }
    })() as DomainError;
    expect(refused).toBeInstanceOf(DomainError);
    expect([refused.code, refused.message, refused.issues]).toEqual([-6, 'The file cannot be read: a quoted field is never closed (line 2).', [{ path: 'file', message: 'CSV_QUOTE_NOT_CLOSED' }]]);
  });

  it('gives the same answer for a file read as it arrives', async () => {
    const error = await (async () => {
      try {
        for await (const row of Readable.from([Buffer.from('a\n"open')]).pipe(csvRows())) void row;
      } catch (caught) {
        return csvRefusal(caught);
      }
      return null;
    })();
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe(-6);
    const other = new Error('other');
    expect(csvRefusal(other)).toBe(other);
  });
});
