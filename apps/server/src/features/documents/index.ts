/**
 * What other features may use from documents/: they import it from here, never from its files
 * (lint: pakt/feature-index).
 */
export { loadOwnDocument, storeUploadedPdf, withReceivedPdf } from './documents';
export { DEFAULT_SANDBOX_LIMITS, runScriptInSandbox } from './sandbox';
export type { SandboxLimits } from './sandbox';
export type { SandboxFailure } from './sandbox-protocol';
export type { DocumentLimits } from './documents';
export { findLibreOffice } from './office';
export { parserQueueOf } from './parser-queue';
export type { ParserQueue } from './parser-queue';
export { childEnvironment } from './child-environment';
