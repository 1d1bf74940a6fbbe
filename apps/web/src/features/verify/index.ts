/**
 * What the rest of the app may use from verify/: it imports it from here, never from its files
 * (lint: pakt/feature-index).
 */
export { VerifyPage } from './verify-page';
