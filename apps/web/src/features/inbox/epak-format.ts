import type { EpakStatus, EpakSummary } from '@pakt/domain';

/** Mantine colours of the ePak statuses: blue under way, teal done, red refused, grey put aside. */
export const STATUS_COLORS: Record<EpakStatus, string> = {
  Draft: 'gray',
  InProgress: 'blue',
  Completed: 'teal',
  Rejected: 'red',
  Stopped: 'dark',
  Expired: 'orange',
};

const DAY_MS = 86_400_000;
/** Within this many days an expiry is flagged, as the dashboard's "expiring soon" tile counts it. */
export const EXPIRY_WARNING_DAYS = 7;

export type ExpiryState = 'none' | 'later' | 'soon' | 'past';

/** How urgent an ePak's expiry is, for one still under way; an ended ePak's expiry no longer matters. */
export function expiryState(epak: Pick<EpakSummary, 'expiredOn' | 'status'>, now: number = Date.now()): ExpiryState {
  if (!epak.expiredOn) return 'none';
  if (epak.status !== 'InProgress') return 'later';
  const left = Date.parse(epak.expiredOn) - now;
  if (left <= 0) return 'past';
  return left <= EXPIRY_WARNING_DAYS * DAY_MS ? 'soon' : 'later';
}


/** The first `shown` names and how many more there are ("Asha, Ravi +2"). */
export function namesWithMore(names: readonly string[], shown = 2): { readonly names: string; readonly more: number } {
  return { names: names.slice(0, shown).join(', '), more: Math.max(0, names.length - shown) };
}
