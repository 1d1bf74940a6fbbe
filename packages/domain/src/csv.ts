/**
 * CSV as RFC 4180 writes it, the same way on the server and in the browser (exports, the failed
 * rows of bulk compose, templates to fill in). Reading CSV is the server's, through csv-parse
 * (apps/server/src/platform/csv.ts).
 */

/**
 * Whether a spreadsheet could take the value for a formula: its first character that is not
 * blank (spaces, tabs, line breaks, other control characters; spreadsheets skip them) is =, +, -
 * or @, or it starts with a tab or a carriage return at all (OWASP "CSV injection").
 */
export function looksLikeFormula(value: string): boolean {
  return /^[\s\p{Cc}]*[=+\-@]/u.test(value) || /^[\t\r]/.test(value);
}

/**
 * One CSV field, the only way exports write one. A value that looks like a formula is written
 * with a leading apostrophe, so opening an export cannot run anything; a field with a comma,
 * quote or line break is quoted.
 */
export function csvField(value: string): string {
  const safe = looksLikeFormula(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** Rows as CSV text, CRLF line ends (RFC 4180). */
export function toCsv(rows: ReadonlyArray<ReadonlyArray<string>>): string {
  return rows.map((row) => row.map(csvField).join(',')).join('\r\n') + '\r\n';
}
