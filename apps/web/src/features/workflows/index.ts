/**
 * What other features may use from workflows/: they import it from here, never from its files
 * (lint: pakt/feature-index).
 */
export { MAX_WORKFLOW_STEPS, moveStep } from './workflow-draft';
export type { Message, StepErrors } from './workflow-draft';
export { STATE_TYPE_COLORS } from './state-type-colors';
export { workflowQueryKeys } from './queries';
export { messageText, signingPolicyData } from './form-text';
