/**
 * What other features may use from workflows/: they import it from here, never from its files
 * (lint: pakt/feature-index).
 */
export { getWorkflowTemplate, listStates } from './workflows';
