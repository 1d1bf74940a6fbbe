/**
 * What other features may use from settings/: they import it from here, never from its files
 * (lint: pakt/feature-index).
 */
export { RootSuperadminDialog } from './superadmin-invite';
