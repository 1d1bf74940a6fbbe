/**
 * What other features may use from documents/: they import it from here, never from its files
 * (lint: pakt/feature-index).
 */
export { loadOwnDocument, storeUploadedPdf } from './documents';
export type { DocumentLimits } from './documents';
export { findLibreOffice } from './office';
export { parserQueueOf } from './parser-queue';
