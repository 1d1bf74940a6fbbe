import { z } from 'zod';

// Kinds of step an ePak passes through (spec §4).
export const WORKFLOW_STATE_TYPES = ['REVIEW', 'SIGN', 'EMAIL', 'INPERSONSIGN'] as const;
export const WorkflowStateType = z.enum(WORKFLOW_STATE_TYPES);
export type WorkflowStateType = z.infer<typeof WorkflowStateType>;

/**
 * The catalogue a tenant starts with: each type once, named plainly (in English, as stored). The
 * server seeds these names; a screen that finds a state still named so shows it in the reader's
 * language, while a renamed or added state keeps the words its admin typed.
 */
export const BUILT_IN_WORKFLOW_STATE_NAMES = {
  REVIEW: 'Review',
  SIGN: 'Sign',
  EMAIL: 'Email',
  INPERSONSIGN: 'In-person sign',
} as const satisfies Record<WorkflowStateType, string>;

/** Whether a state (or an ePak's step) still carries the built-in name of its type. */
export function isBuiltInWorkflowStateName(state: { readonly name: string; readonly type: WorkflowStateType }): boolean {
  return state.name === BUILT_IN_WORKFLOW_STATE_NAMES[state.type];
}

// Phases of a signing call (spec §4).
export const SIGN_ACTIONS = ['SIGN', 'PRESIGN', 'POSTSIGN'] as const;
export const SignAction = z.enum(SIGN_ACTIONS);
export type SignAction = z.infer<typeof SignAction>;

// Per-ePak outcome reported by a bulk sign (spec §4).
export const BULK_SIGN_RESULTS = ['SIGNED', 'SKIPPED'] as const;
export const BulkSignResult = z.enum(BULK_SIGN_RESULTS);
export type BulkSignResult = z.infer<typeof BulkSignResult>;

// Only signing can be done in bulk today (spec §9).
export const BULK_OPERATIONS = ['sign'] as const;
export const BulkOperation = z.enum(BULK_OPERATIONS);
export type BulkOperation = z.infer<typeof BulkOperation>;

// Steps whose recipients sign (the others review or receive mail).
export const SIGNING_STATE_TYPES = ['SIGN', 'INPERSONSIGN'] as const satisfies readonly WorkflowStateType[];

/** Signers of a workflow: recipients of its signing steps (what -107 compares with a document's). */
export function signerCountOf(steps: readonly { type: WorkflowStateType; recipients: readonly unknown[] }[]): number {
  return steps
    .filter((step) => (SIGNING_STATE_TYPES as readonly WorkflowStateType[]).includes(step.type))
    .reduce((sum, step) => sum + step.recipients.length, 0);
}
