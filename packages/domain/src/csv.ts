/**
 * CSV as RFC 4180 writes it, read and written the same way on the server and in the browser
 * (invitations from a file, bulk compose, exports).
 */

/**
 * The rows of a CSV text: fields split on commas, quoted fields may hold commas, quotes ("")
 * and line breaks; CRLF and LF both end a row; a byte-order mark is dropped; rows that are
 * wholly empty are left out. A quote left open runs to the end of the text.
 */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const endRow = () => {
    row.push(field);
    if (row.length > 1 || row[0] !== '') rows.push(row);
    row = [];
    field = '';
  };
  for (; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else field += c;
    } else if (c === '"' && field === '') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n') endRow();
    else if (c === '\r') {
      if (text[i + 1] === '\n') i++;
      endRow();
    } else field += c;
  }
  if (field !== '' || row.length > 0) endRow();
  return rows;
}

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
