import { z } from 'zod';
import { SigningPolicy } from '../constants/signing-policies';
import { EmailAddress } from '../constants/validation';
import { WorkflowStateType } from '../constants/workflow';
import { defineEndpoint } from './contract';

/**
 * Workflow states (spec §7 `/v1/workflow/states`): the tenant's catalogue of named steps, each of
 * one of the four types, in an order admins choose. Workflow templates are built from them.
 * The spec shows none of these fields; they are our design.
 */
export const WorkflowStateDefinition = z.object({
  workflowStateId: z.uuid(),
  name: z.string(),
  type: WorkflowStateType,
  /** 1-based place in the catalogue. */
  order: z.number().int().positive(),
  description: z.string().nullable(),
});
export type WorkflowStateDefinition = z.infer<typeof WorkflowStateDefinition>;

const StateName = z.string().trim().min(1).max(60);
const Description = z.string().trim().max(500).nullable().optional();

export const listWorkflowStates = defineEndpoint({
  method: 'GET',
  path: '/msbapi/v1/workflow/states',
  access: 'tenant',
  action: 'workflow.manage',
  summary: "The tenant's workflow states in their order (the four types, named plainly, until an admin changes them).",
  response: z.object({ states: z.array(WorkflowStateDefinition) }),
});

export const createWorkflowState = defineEndpoint({
  method: 'POST',
  path: '/msbapi/v1/workflow/states',
  access: 'tenant',
  action: 'workflowState.edit',
  summary: 'Admin: add a named workflow state at the end of the catalogue.',
  body: z.object({ name: StateName, type: WorkflowStateType, description: Description }),
  response: WorkflowStateDefinition,
});

const StateParams = z.object({ workflowStateId: z.uuid() });

export const updateWorkflowState = defineEndpoint({
  method: 'PUT',
  path: '/msbapi/v1/workflow/states/:workflowStateId',
  access: 'tenant',
  action: 'workflowState.edit',
  summary: 'Admin: rename or describe a workflow state (its type stays: templates rely on it).',
  params: StateParams,
  body: z.object({ name: StateName.optional(), description: Description }),
  response: WorkflowStateDefinition,
});

export const reorderWorkflowState = defineEndpoint({
  method: 'PUT',
  path: '/msbapi/v1/workflow/states/:workflowStateId/:workflowStateOrder',
  access: 'tenant',
  action: 'workflowState.edit',
  summary: 'Admin: move a workflow state to a new place (1-based); the others close up around it.',
  params: StateParams.extend({ workflowStateOrder: z.coerce.number().int().positive() }),
  response: z.object({ states: z.array(WorkflowStateDefinition) }),
});

/**
 * Who a step goes to: a named person (by address; an unknown address becomes an invited
 * external user when the ePak is composed), or a placeholder filled in at compose time
 * ("Client", "Witness"), so one template serves many ePaks.
 */
export const WorkflowRecipient = z.discriminatedUnion('type', [
  z.object({ type: z.literal('user'), email: z.string().trim().toLowerCase().pipe(EmailAddress) }),
  z.object({ type: z.literal('placeholder'), label: z.string().trim().min(1).max(60) }),
]);
export type WorkflowRecipient = z.infer<typeof WorkflowRecipient>;

export const MAX_WORKFLOW_STEPS = 30;
export const MAX_STEP_RECIPIENTS = 50;

export const WorkflowStepInput = z.object({
  workflowStateId: z.uuid(),
  recipients: z.array(WorkflowRecipient).min(1).max(MAX_STEP_RECIPIENTS),
});

/** A step as templates answer it: the state's name and type come along, and its 1-based order. */
export const WorkflowStep = WorkflowStepInput.extend({
  order: z.number().int().positive(),
  name: z.string(),
  type: WorkflowStateType,
});
export type WorkflowStep = z.infer<typeof WorkflowStep>;

export const WorkflowTemplate = z.object({
  workflowId: z.uuid(),
  name: z.string(),
  description: z.string().nullable(),
  signingPolicy: SigningPolicy,
  steps: z.array(WorkflowStep),
  /** Recipients of SIGN and INPERSONSIGN steps: what a document's signer tags must match (-107). */
  signerCount: z.number().int().nonnegative(),
  ownerId: z.uuid(),
  ownerName: z.string(),
  createdOn: z.iso.datetime(),
  modifiedOn: z.iso.datetime(),
});
export type WorkflowTemplate = z.infer<typeof WorkflowTemplate>;

export const WorkflowTemplateInput = z.object({
  name: z.string().trim().min(1).max(100),
  description: Description,
  signingPolicy: SigningPolicy.default('ESIGNATURE'),
  steps: z.array(WorkflowStepInput).min(1).max(MAX_WORKFLOW_STEPS),
});
export type WorkflowTemplateInput = z.infer<typeof WorkflowTemplateInput>;

export const listWorkflows = defineEndpoint({
  method: 'GET',
  path: '/msbapi/v2/workflows',
  access: 'tenant',
  action: 'workflow.manage',
  summary: "The tenant's workflow templates, by name.",
  response: z.object({ workflows: z.array(WorkflowTemplate) }),
});

export const createWorkflow = defineEndpoint({
  method: 'POST',
  path: '/msbapi/v2/workflows',
  access: 'tenant',
  action: 'workflow.manage',
  summary: 'Create a workflow template: its steps in order, each with its recipients (-63 when the name is taken).',
  body: WorkflowTemplateInput,
  response: WorkflowTemplate,
});

const WorkflowParams = z.object({ workflowId: z.uuid() });

export const getWorkflow = defineEndpoint({
  method: 'GET',
  path: '/msbapi/v2/workflows/:workflowId',
  access: 'tenant',
  action: 'workflow.manage',
  summary: 'One workflow template.',
  params: WorkflowParams,
  response: WorkflowTemplate,
});

export const updateWorkflow = defineEndpoint({
  method: 'PUT',
  path: '/msbapi/v2/workflows/:workflowId',
  access: 'tenant',
  action: 'workflow.manage',
  summary: 'Replace a workflow template (its owner or an admin).',
  params: WorkflowParams,
  body: WorkflowTemplateInput,
  response: WorkflowTemplate,
});

export const deleteWorkflow = defineEndpoint({
  method: 'DELETE',
  path: '/msbapi/v2/workflows/:workflowId',
  access: 'tenant',
  action: 'workflow.manage',
  summary: 'Delete a workflow template (its owner or an admin); ePaks made from it keep their own copy.',
  params: WorkflowParams,
  response: z.object({ deleted: z.literal(true) }),
});
