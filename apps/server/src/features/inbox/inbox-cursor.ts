import { Folder, InboxSort, invalidInput } from '@pakt/domain';
import { z } from 'zod';

/**
 * Where a keyset page of the inbox starts: after the row with this sort key and ePak id, in one
 * folder, sort and order. The key is what PostgreSQL holds: lower(subject) for subject, else the
 * timestamp in UTC to the microsecond (a JavaScript date would round it to the millisecond and
 * land between two rows). Only expiredOn has rows without a key (no expiry).
 */
export interface InboxCursor {
  folder: Folder;
  sort: InboxSort;
  order: 'asc' | 'desc';
  key: string | null;
  id: string;
}

const VERSION = 1;

/** Any year PostgreSQL can read back (zod's date pattern lets 0000 through). */
const Timestamp = z.iso.datetime({ offset: true }).refine((value) => !value.startsWith('0000'), 'a year after 0');

/**
 * The cursor as sent: version, folder, sort, order, key, id. A tuple keeps it short, and the
 * version lets a later server refuse an older shape with -6 instead of misreading it.
 */
const CursorJson = z.tuple([z.literal(VERSION), Folder, InboxSort, z.enum(['asc', 'desc']), z.string().max(1000).nullable(), z.guid()]);

export function encodeInboxCursor(cursor: InboxCursor): string {
  return Buffer.from(JSON.stringify([VERSION, cursor.folder, cursor.sort, cursor.order, cursor.key, cursor.id]), 'utf8').toString('base64url');
}

/**
 * The cursor a page was asked with, checked: it must be one this server wrote, for the folder,
 * sort and order asked (-6 otherwise, with the reason). What it holds only positions the page
 * inside the caller's own folder: another person's cursor, or a forged one, can never show a
 * row that is not in the caller's folder.
 */
export function decodeInboxCursor(cursor: string, query: { folder: Folder; sort: InboxSort; order: 'asc' | 'desc' }): InboxCursor {
  const refuse = (message: string) => invalidInput(message, [{ path: 'querystring.cursor', message }]);
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw refuse('The cursor is not one of the inbox: start again from the first page.');
  }
  const parsed = CursorJson.safeParse(json);
  if (!parsed.success) throw refuse('The cursor is not one of the inbox: start again from the first page.');
  const [, folder, sort, order, key, id] = parsed.data;
  if (folder !== query.folder || sort !== query.sort || order !== query.order) {
    throw refuse('The cursor is of another folder, sort or order: start again from the first page.');
  }
  const keyProblem =
    sort === 'subject'
      ? key === null && 'a subject'
      : key === null
        ? sort !== 'expiredOn' && 'a date'
        : !Timestamp.safeParse(key).success && 'a date';
  if (keyProblem) throw refuse(`The cursor's sort key is not ${keyProblem}: start again from the first page.`);
  return { folder, sort, order, key, id };
}
