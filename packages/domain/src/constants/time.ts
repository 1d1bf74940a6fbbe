// Timing constants (spec §9). Units are ms unless the name says otherwise.

export const EPAK_LIST_REFRESH_MS = 300000;

// Unit not given by the spec (likely seconds before token expiry); kept as a bare number.
export const TOKEN_REFRESH_CALL_TIME = 300;

export const UIS_HEARTBEAT_TIMEOUT_MS = 7000;

// Subtracted from the token expiry so the UIS session ends before the token does.
export const SESSION_CORRECTION = 120;

// UIS session length: token expiry minus the correction, never below 1 (spec §4).
export function uisSessionLength(tokenExpiry: number): number {
  return Math.max(1, tokenExpiry - SESSION_CORRECTION);
}

// Success toasts clear faster because there is nothing to act on.
export const TOAST_DURATION_MS = { error: 4000, info: 4000, success: 2500 } as const;

export const FONT_LOAD_TIMEOUT_MS = 1000000;

// Auto-scroll while dragging: move this many px every interval.
export const SCROLLER_STEP = { px: 2, intervalMs: 50 } as const;

export const VIEW_LOADER_TICK_MS = 100;
export const VIEW_LOADER_HIDE_DELAY_MS = 800;

// Signer autocomplete: avoid querying the user list on every keystroke.
export const AUTOCOMPLETE_MIN_CHARS = 2;
export const AUTOCOMPLETE_DEBOUNCE_MS = 200;
