import { type Announcement, clampTimerDelay, routeFromPathname, type AppRoute } from '@pakt/domain';

/**
 * Spec §2: the banner is "checked on the login, dashboard and two-factor routes"; two-factor is
 * /authenticate.
 */
export const BANNER_ROUTES: readonly AppRoute[] = ['login', 'dashboard', 'authenticate'];

export function isBannerRoute(pathname: string): boolean {
  const route = routeFromPathname(pathname);
  return route !== undefined && BANNER_ROUTES.includes(route);
}

export interface BannerState {
  /** What to show now, in the server's order (earliest start first). */
  readonly visible: readonly Announcement[];
  /** The next moment anything appears or disappears, epoch ms; null when nothing will. */
  readonly nextChangeAt: number | null;
}

/**
 * Spec §4: "hidden before startTime and shown again at that time; shown between start and end;
 * hidden after the end". Start is inclusive, end exclusive, like the server's `end_time > now`.
 */
export function bannerState(announcements: readonly Announcement[], now: number, dismissed: ReadonlySet<string> = new Set()): BannerState {
  const visible: Announcement[] = [];
  let nextChangeAt: number | null = null;
  const consider = (at: number) => {
    if (at > now && (nextChangeAt === null || at < nextChangeAt)) nextChangeAt = at;
  };
  for (const announcement of announcements) {
    if (dismissed.has(announcement.id)) continue;
    const start = Date.parse(announcement.startTime);
    const end = Date.parse(announcement.endTime);
    if (!(end > now)) continue;
    if (start <= now) visible.push(announcement);
    consider(start);
    consider(end);
  }
  return { visible, nextChangeAt };
}

/**
 * How long to wait before looking again. Spec §9 caps announcement timers at 2147483647 ms: a
 * longer delay would overflow the browser's 32-bit timer and fire at once. A capped timer fires
 * early on purpose; the banner then simply looks again and waits for what remains.
 */
export function delayUntil(nextChangeAt: number, now: number): number {
  return clampTimerDelay(nextChangeAt - now);
}
