import { InboxQuery, SEARCH_INPUT_OF_TYPE, type SearchType } from '@pakt/domain';
import { z } from 'zod';
import type { InboxSearch } from '../inbox';

/**
 * What the dashboard's address asks for (spec §2: searchKey, searchVal, ts, ePakId):
 * - `open`: an ePak to open (a notification's "open the dashboard on that ePak", spec §4);
 * - `search`: the global search bar's search, checked against its type as the API checks it;
 * - `invalid`: something was asked that cannot be done (an unknown type, a value that does not
 *   fit it, an ePakId that names no ePak), so the page can say so instead of silently ignoring it.
 */
export interface DashboardRequest {
  readonly open: string | null;
  readonly search: InboxSearch | null;
  readonly ts: string | null;
  readonly invalid: 'search' | 'ePak' | null;
}

export function dashboardRequest(params: URLSearchParams): DashboardRequest {
  const ts = params.get('ts');
  const rawId = params.get('ePakId');
  const rawKey = params.get('searchKey');
  const rawVal = params.get('searchVal');
  let invalid: DashboardRequest['invalid'] = null;

  let open: string | null = null;
  if (rawId !== null) {
    const id = z.uuid().safeParse(rawId.trim());
    if (id.success) open = id.data.toLowerCase();
    else invalid = 'ePak';
  }

  let search: InboxSearch | null = null;
  // A type without a value is the search bar's "no search": the plain dashboard (spec §2).
  if (rawKey !== null && rawKey !== '' && rawVal !== null && rawVal.trim() !== '') {
    const parsed = InboxQuery.safeParse({ searchKey: rawKey, searchVal: rawVal });
    if (parsed.success && parsed.data.searchKey && parsed.data.searchVal) {
      search = { searchKey: parsed.data.searchKey, searchVal: parsed.data.searchVal };
    } else {
      invalid ??= 'search';
    }
  }
  return { open, search, ts: ts && ts.trim() !== '' ? ts : null, invalid };
}

/** The dashboard address of a search (what the global search bar navigates to). */
export function dashboardSearchPath(search: InboxSearch | null, now: number = Date.now()): string {
  if (!search) return '/dashboard';
  const params = new URLSearchParams({ searchKey: search.searchKey, searchVal: search.searchVal, ts: String(now) });
  return `/dashboard?${params.toString()}`;
}

/** Whether a search type names a person (its value a user id) or a date: the chip shows those differently. */
export const searchInputOf = (key: SearchType) => SEARCH_INPUT_OF_TYPE[key];
