import { Folder, INBOX_DEFAULT_PAGE_SIZE, INBOX_PAGE_SIZES, InboxSort, type EpakSummary, type InboxQuery, type SearchType } from '@pakt/domain';
import type { z } from 'zod';

/**
 * What the person chose to look at in the inbox: a folder, a page, an order and two filters. The
 * /epaks page keeps it in its address (so back, forward and shared links show the same list); the
 * dashboard keeps it in memory, since spec §2 gives the dashboard its own query parameters.
 */
export interface InboxState {
  readonly folder: Folder;
  /** 0-based, as the API counts. */
  readonly pg: number;
  readonly size: number;
  readonly sort: InboxSort;
  readonly order: 'asc' | 'desc';
  readonly starred: boolean;
  readonly unread: boolean;
}

/** A search of the global search bar (spec §2), already checked against its type. */
export interface InboxSearch {
  readonly searchKey: SearchType;
  readonly searchVal: string;
}

export const DEFAULT_INBOX_STATE: InboxState = {
  folder: 'Inbox',
  pg: 0,
  size: INBOX_DEFAULT_PAGE_SIZE,
  sort: 'sentOn',
  order: 'desc',
  starred: false,
  unread: false,
};

/** The order a sort starts in when first chosen: newest first for dates, A to Z for the subject. */
export const FIRST_ORDER_OF_SORT: Record<InboxSort, 'asc' | 'desc'> = {
  sentOn: 'desc',
  modifiedOn: 'desc',
  subject: 'asc',
  // Soonest expiry first: what runs out next is what needs attention.
  expiredOn: 'asc',
};

const pick = <T>(schema: z.ZodType<T>, raw: string | null, fallback: T): T => {
  const parsed = schema.safeParse(raw);
  return parsed.success ? parsed.data : fallback;
};

/**
 * The inbox state an address names. Anything missing or not understood falls back to the default
 * rather than failing: an old bookmark or a hand-edited link still opens the inbox.
 */
export function inboxStateFromParams(params: URLSearchParams): InboxState {
  const pg = Number(params.get('pg'));
  const size = Number(params.get('size'));
  const order = params.get('order');
  return {
    folder: pick(Folder, params.get('folder'), DEFAULT_INBOX_STATE.folder),
    pg: Number.isInteger(pg) && pg >= 0 && pg <= 100_000 ? pg : 0,
    size: (INBOX_PAGE_SIZES as readonly number[]).includes(size) ? size : DEFAULT_INBOX_STATE.size,
    sort: pick(InboxSort, params.get('sort'), DEFAULT_INBOX_STATE.sort),
    order: order === 'asc' || order === 'desc' ? order : DEFAULT_INBOX_STATE.order,
    starred: params.get('starred') === 'true',
    unread: params.get('unread') === 'true',
  };
}

/** The address parameters of a state, leaving out what is the default so links stay short. */
export function inboxStateToParams(state: InboxState): URLSearchParams {
  const params = new URLSearchParams();
  if (state.folder !== DEFAULT_INBOX_STATE.folder) params.set('folder', state.folder);
  if (state.pg !== 0) params.set('pg', String(state.pg));
  if (state.size !== DEFAULT_INBOX_STATE.size) params.set('size', String(state.size));
  if (state.sort !== DEFAULT_INBOX_STATE.sort) params.set('sort', state.sort);
  if (state.order !== DEFAULT_INBOX_STATE.order) params.set('order', state.order);
  if (state.starred) params.set('starred', 'true');
  if (state.unread) params.set('unread', 'true');
  return params;
}

/** The listEpaks query of a state and an optional search. Filters off are left out, not sent as false. */
export function inboxRequestQuery(state: InboxState, search: InboxSearch | null): z.input<typeof InboxQuery> {
  return {
    folder: state.folder,
    pg: state.pg,
    size: state.size,
    sort: state.sort,
    order: state.order,
    ...(state.starred ? { starred: 'true' as const } : {}),
    ...(state.unread ? { unread: 'true' as const } : {}),
    ...(search ? { searchKey: search.searchKey, searchVal: search.searchVal } : {}),
  };
}

/**
 * A change of state as the controls make it: a new folder, filter, order or page size starts
 * again at the first page (page 3 of another folder would usually be empty), a new page keeps the rest.
 */
export function changeInboxState(state: InboxState, change: Partial<InboxState>): InboxState {
  const next = { ...state, ...change };
  const resetsPage = (['folder', 'size', 'sort', 'order', 'starred', 'unread'] as const).some(
    (key) => key in change && change[key] !== state[key],
  );
  return resetsPage && !('pg' in change) ? { ...next, pg: 0 } : next;
}

/** Clicking a column's sort: the same column flips the order, another starts in its natural order. */
export function sortBy(state: InboxState, sort: InboxSort): InboxState {
  if (state.sort === sort) return changeInboxState(state, { order: state.order === 'asc' ? 'desc' : 'asc' });
  return changeInboxState(state, { sort, order: FIRST_ORDER_OF_SORT[sort] });
}

/** How many pages `total` rows make at `size` a page (at least one, so an empty list reads "1 of 1"). */
export function pageCount(total: number, size: number): number {
  return Math.max(1, Math.ceil(total / size));
}

/**
 * Where opening an ePak leads: a draft to compose (its owner goes on editing it), anything sent to
 * the signing page, which shows a recipient their ceremony and the owner the ePak's progress.
 */
export function epakPath(epak: Pick<EpakSummary, 'id' | 'status'>): string {
  return epak.status === 'Draft' ? `/compose?ePakId=${epak.id}` : `/sign?ePakId=${epak.id}`;
}

/** "First Middle Last" of an ePak's owner, without the gaps of a missing middle name. */
export function ownerName(epak: Pick<EpakSummary, 'ownerFirstName' | 'ownerMiddleName' | 'ownerLastName' | 'ownerUserName'>): string {
  const name = [epak.ownerFirstName, epak.ownerMiddleName, epak.ownerLastName].filter((part) => part && part.trim()).join(' ');
  return name || epak.ownerUserName;
}
