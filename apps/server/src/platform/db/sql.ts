/** SQL helpers any feature may use. */

/** A LIKE pattern for "contains `text`", lower-cased, with the user's \, % and _ taken literally. */
export function containing(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
