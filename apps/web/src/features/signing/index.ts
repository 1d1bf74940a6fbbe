/**
 * What other features may use from signing/: they import it from here, never from its files
 * (lint: pakt/feature-index).
 */
export { saveBlob } from './epak-download';
export { reasonLabel } from './reason-picker';
export { RETURN_TO_PARAM, loginReturningTo, pathAfterSignIn, safeReturnTo, withReturnTo } from './return-to';
export { SidePanel } from './side-panel';
export { useSigningApi } from './signing-api';
export { signingQueryKeys } from './queries';
