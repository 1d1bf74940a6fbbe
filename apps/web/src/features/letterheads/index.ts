/**
 * What other features may use from letterheads/: they import it from here, never from its files
 * (lint: pakt/feature-index).
 */
export { LetterheadTemplates } from './letterhead-templates';
