/**
 * What other features may use from document-templates/: they import it from here, never from its files
 * (lint: pakt/feature-index).
 */
export { DocumentTemplatesTab } from './document-templates-tab';
export { SaveAsTemplate } from './save-as-template';
export { documentTemplateQueryKeys } from './queries';
