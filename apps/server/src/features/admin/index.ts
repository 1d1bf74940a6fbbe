/**
 * What other features may use from admin/: they import it from here, never from its files
 * (lint: pakt/feature-index).
 */
export { listCeremonyReasons } from './reasons';
