/**
 * What other features may use from anchors/: they import it from here, never from its files
 * (lint: pakt/feature-index).
 */
export { registerAnchorRoutes } from './anchor-routes';
