/**
 * What other features may use from rubber-stamps/: they import it from here, never from its files
 * (lint: pakt/feature-index).
 */
export { RubberStampsSection } from './rubber-stamps-section';
export { stampUseFor } from './stamp-placement';
