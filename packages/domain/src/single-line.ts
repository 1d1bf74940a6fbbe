import { z } from 'zod';

/**
 * Line breaks of every kind (CR, LF, vertical tab, form feed, NEL, U+2028, U+2029) and other
 * control characters, in runs.
 */
const BREAKS_AND_CONTROLS = /[\p{Cc}\u2028\u2029]+/gu;

/**
 * Text made one line: each run of line breaks or control characters becomes one space. A subject
 * travels into mail headers, where a line break would start a header of the sender's choosing
 * ("Bcc: ..."), and into one-line places (the inbox, notification titles), where it has no use.
 */
export function toSingleLine(text: string): string {
  return text.replace(BREAKS_AND_CONTROLS, ' ');
}

/** A one-line text field of 1 to `max` characters, stored as it will be shown: made one line, trimmed. */
export const singleLineText = (max: number) => z.string().overwrite(toSingleLine).trim().min(1).max(max);
