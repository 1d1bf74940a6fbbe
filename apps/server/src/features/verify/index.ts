/**
 * What other parts may use from verify/: they import it from here, never from its files
 * (lint: pakt/feature-index).
 */
export { registerVerifyRoutes } from './verify-routes';
