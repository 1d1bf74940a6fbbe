/**
 * What other features may use from rubber-stamps/: they import it from here, never from its files
 * (lint: pakt/feature-index).
 */
export { applyStamps, resolveStampUses } from './apply';
export type { ResolvedStamp } from './apply';
export { ceremonyStamps, loadAvailableStamp, mayApplyStamps, presentCeremonyStamps, stampsAvailableTo } from './rubber-stamps';
export type { StampChoiceRow } from './rubber-stamps';
