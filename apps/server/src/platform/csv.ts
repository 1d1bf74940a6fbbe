import { invalidInput } from '@pakt/domain';
import { CsvError, type Options, parse, type Parser } from 'csv-parse';
import { parse as parseSync } from 'csv-parse/sync';

/**
 * CSV as people's spreadsheets write it, read through csv-parse (one library for every file:
 * invitations, user sync-up, bulk compose). Quoted fields may hold commas, quotes ("") and line
 * breaks; CRLF, LF and CR all end a row, mixed in one file; a byte-order mark is dropped; rows may
 * differ in length; a stray quote inside an unquoted field is kept as it is. Blank lines, and lines
 * holding only "", are left out. Writing is the domain's (csvField, toCsv), shared with the browser.
 */
const OPTIONS: Options = {
  bom: true,
  record_delimiter: ['\r\n', '\n', '\r'],
  relax_column_count: true,
  relax_quotes: true,
  skip_empty_lines: true,
  on_record: (row: string[]) => (row.length === 1 && row[0] === '' ? null : row),
};

/**
 * What a malformed file is answered with: -6, saying where it went wrong. Anything that is not a
 * CSV error is given back unchanged.
 */
export function csvRefusal(error: unknown): unknown {
  if (!(error instanceof CsvError)) return error;
  const line = (error as CsvError & { lines?: number }).lines;
  const where = line ? ` (line ${line})` : '';
  const what = error.code === 'CSV_QUOTE_NOT_CLOSED' ? 'a quoted field is never closed' : 'it is not valid CSV';
  return invalidInput(`The file cannot be read: ${what}${where}.`, [{ path: 'file', message: error.code }]);
}

/** The rows of a CSV text. A malformed one (a quote never closed) is refused with -6. */
export function parseCsv(text: string): string[][] {
  try {
    return parseSync(text, OPTIONS) as string[][];
  } catch (error) {
    throw csvRefusal(error);
  }
}

/**
 * Bytes in, rows (string[]) out, for a file read as it arrives: chunk and line boundaries may fall
 * anywhere, inside a UTF-8 character too. Its errors are csv-parse's: pass them to csvRefusal.
 */
export function csvRows(): Parser {
  return parse(OPTIONS);
}
