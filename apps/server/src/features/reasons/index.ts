/**
 * What other features may use from reasons/ (the tenant's signing reasons, spec §9): they import it
 * from here, never from its files (lint: pakt/feature-index).
 */
export { listCeremonyReasons } from './reasons';
