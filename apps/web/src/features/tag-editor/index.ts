/**
 * What other features may use from tag-editor/: they import it from here, never from its files
 * (lint: pakt/feature-index).
 */
export { DocumentPages } from './document-pages';
export type { EpakDocument } from './document-pages';
export { problemMessage } from './problem-message';
export { selectOptionsOf } from './select-options';
export { TagEditor } from './tag-editor';
export type { FieldsSaveState, TagEditorAutoSave } from './use-tag-autosave';
export { useOpenedPdf } from './use-pdf-document';
export type { PdfState } from './use-pdf-document';
export { clampZoom, fitToWidthZoom, stepZoom, zoomPercent } from './zoom';
export type { ZoomLimits } from './zoom';
