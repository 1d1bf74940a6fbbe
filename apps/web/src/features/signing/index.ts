/**
 * What other features may use from signing/: they import it from here, never from its files
 * (lint: pakt/feature-index).
 */
export { RETURN_TO_PARAM, loginReturningTo, pathAfterSignIn, safeReturnTo, withReturnTo } from './return-to';
export { SidePanel } from './side-panel';
export { useSigningApi } from './signing-api';
export { signingQueryKeys } from './queries';
