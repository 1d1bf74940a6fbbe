import { SEARCH_INPUT_OF_TYPE, type SearchType } from '@pakt/domain';
import { dashboardSearchPath } from '../../features/dashboard/dashboard-params';

/**
 * Spec §2, global search bar: hidden on teamroom and stamppapers; reset when the first path
 * segment changes; maximised on epaks and minimised on the dashboard.
 */
export const SEARCH_BAR_HIDDEN_ON: readonly string[] = ['teamroom', 'stamppapers'];

/** The first segment of a path ("/epaks/x" → "epaks", "/" → ""): what identifies a screen. */
export function firstSegment(pathname: string): string {
  return pathname.split('/').filter((part) => part.length > 0)[0] ?? '';
}

export function isSearchBarHidden(pathname: string): boolean {
  return SEARCH_BAR_HIDDEN_ON.includes(firstSegment(pathname));
}

/**
 * Whether arriving at a screen opens or folds the bar: epaks opens it, the dashboard folds it,
 * any other screen leaves it as the person last had it (null).
 */
export function searchBarModeOn(pathname: string): 'maximised' | 'minimised' | null {
  const segment = firstSegment(pathname);
  if (segment === 'epaks') return 'maximised';
  if (segment === 'dashboard') return 'minimised';
  return null;
}

/** What the bar holds: a type (or none) and the value of its input, as the API wants it. */
export interface SearchDraft {
  readonly type: SearchType | null;
  /** Text, a picked user's id, or a date as YYYY-MM-DD. */
  readonly value: string;
}

export const EMPTY_SEARCH: SearchDraft = { type: 'all', value: '' };

/**
 * Where searching leads: the dashboard with searchKey, searchVal and a timestamp (so the same
 * search run twice is run twice), or, with no type or nothing to look for, the plain dashboard.
 */
export function searchTarget(draft: SearchDraft, now: number = Date.now()): string {
  const value = draft.value.trim();
  if (!draft.type || value === '') return dashboardSearchPath(null);
  return dashboardSearchPath({ searchKey: draft.type, searchVal: value }, now);
}

/** Changing the type keeps the value only when the new type takes the same kind of input. */
export function changeSearchType(draft: SearchDraft, type: SearchType | null): SearchDraft {
  const before = draft.type ? SEARCH_INPUT_OF_TYPE[draft.type] : 'text';
  const after = type ? SEARCH_INPUT_OF_TYPE[type] : 'text';
  return { type, value: before === after ? draft.value : '' };
}
