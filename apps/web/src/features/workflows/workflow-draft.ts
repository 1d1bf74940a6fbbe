import {
  MAX_STEP_RECIPIENTS,
  MAX_WORKFLOW_STEPS,
  WorkflowRecipient,
  WorkflowTemplateInput,
  type SigningPolicy,
  type WorkflowTemplate,
} from '@pakt/domain';
import type { ParseKeys } from 'i18next';
import type { ApiIssue } from '../../api/client';

/**
 * The workflow form's model and rules, apart from React: what a half-filled form holds, what it
 * sends, and where a refusal (the form's own checks, the domain schema's, or the server's
 * `issues`) is shown. Steps and recipients carry stable keys so that moving a step moves its
 * inputs and its errors with it.
 */

export type RecipientKind = WorkflowRecipient['type'];

export interface RecipientDraft {
  readonly key: string;
  readonly recipient: WorkflowRecipient;
}

export interface StepDraft {
  readonly key: string;
  /** '' until a state is chosen. */
  readonly workflowStateId: string;
  readonly recipients: readonly RecipientDraft[];
  /** What is being typed into the step's "add recipient" field, not yet added. */
  readonly pendingKind: RecipientKind;
  readonly pendingText: string;
}

export interface WorkflowDraft {
  readonly name: string;
  readonly description: string;
  readonly signingPolicy: SigningPolicy;
  readonly steps: readonly StepDraft[];
}

/** A message key of the bundles, with what it interpolates. */
export interface Message {
  readonly key: ParseKeys;
  readonly values?: Readonly<Record<string, string | number>>;
}

export interface StepErrors {
  readonly state?: Message;
  readonly recipients?: Message;
  readonly pending?: Message;
  /** By recipient key. */
  readonly recipient?: Readonly<Record<string, Message>>;
}

export interface DraftErrors {
  readonly name?: Message;
  readonly description?: Message;
  readonly steps?: Message;
  /** A refusal no field can show. */
  readonly form?: Message;
  /** By step key. */
  readonly step?: Readonly<Record<string, StepErrors>>;
}

export const NAME_MAX = 100;
export const DESCRIPTION_MAX = 500;
export const PLACEHOLDER_MAX = 60;
export { MAX_STEP_RECIPIENTS, MAX_WORKFLOW_STEPS };

let sequence = 0;
const newKey = (prefix: string) => `${prefix}-${++sequence}`;

export function emptyStep(): StepDraft {
  return { key: newKey('step'), workflowStateId: '', recipients: [], pendingKind: 'user', pendingText: '' };
}

export function emptyDraft(): WorkflowDraft {
  return { name: '', description: '', signingPolicy: 'ESIGNATURE', steps: [emptyStep()] };
}

export function draftOf(template: WorkflowTemplate): WorkflowDraft {
  return {
    name: template.name,
    description: template.description ?? '',
    signingPolicy: template.signingPolicy,
    steps: template.steps.map((step) => ({
      ...emptyStep(),
      workflowStateId: step.workflowStateId,
      recipients: step.recipients.map((recipient) => ({ key: newKey('recipient'), recipient })),
    })),
  };
}

/** Who a recipient is, the way the server tells duplicates apart: addresses and labels ignore case. */
export function recipientIdentity(recipient: WorkflowRecipient): string {
  return recipient.type === 'user' ? `user:${recipient.email.toLowerCase()}` : `placeholder:${recipient.label.trim().toLowerCase()}`;
}

export const recipientText = (recipient: WorkflowRecipient) => (recipient.type === 'user' ? recipient.email : recipient.label);

export const hasErrors = (errors: DraftErrors) =>
  !!(errors.name || errors.description || errors.steps || errors.form || Object.keys(errors.step ?? {}).length > 0);

/**
 * Reads a step's "add recipient" field: an address checked with the domain's EmailAddress (through
 * WorkflowRecipient, which also lower-cases it), or a placeholder's name; refused when the step
 * already has that recipient or is full.
 */
export function readPending(step: StepDraft): { recipient: WorkflowRecipient } | { error: Message } {
  const text = step.pendingText.trim();
  if (!text) return { error: { key: step.pendingKind === 'user' ? 'workflows.errors.emailRequired' : 'workflows.errors.placeholderRequired' } };
  const parsed = WorkflowRecipient.safeParse(step.pendingKind === 'user' ? { type: 'user', email: text } : { type: 'placeholder', label: text });
  if (!parsed.success) return { error: { key: step.pendingKind === 'user' ? 'common.emailInvalid' : 'workflows.errors.recipientInvalid' } };
  const identity = recipientIdentity(parsed.data);
  if (step.recipients.some((existing) => recipientIdentity(existing.recipient) === identity)) {
    return { error: { key: 'workflows.errors.alreadyPresent' } };
  }
  if (step.recipients.length >= MAX_STEP_RECIPIENTS) {
    return { error: { key: 'workflows.errors.tooManyRecipients', values: { count: MAX_STEP_RECIPIENTS } } };
  }
  return { recipient: parsed.data };
}

/** The step with its pending recipient added and the field cleared, or the reason it cannot be. */
export function addPending(step: StepDraft): { step: StepDraft } | { error: Message } {
  const read = readPending(step);
  if ('error' in read) return read;
  return { step: { ...step, recipients: [...step.recipients, { key: newKey('recipient'), recipient: read.recipient }], pendingText: '' } };
}

/** Swaps an entry with its neighbour (steps here; compose moves documents with it too). */
export function moveStep<T>(steps: readonly T[], index: number, by: -1 | 1): T[] {
  const target = index + by;
  const moved = [...steps];
  if (target < 0 || target >= steps.length) return moved;
  [moved[index], moved[target]] = [moved[target]!, moved[index]!];
  return moved;
}

/** What the form sends; `description` empty means none. */
export function bodyOf(draft: WorkflowDraft): WorkflowTemplateInput {
  const description = draft.description.trim();
  return {
    name: draft.name.trim(),
    description: description ? description : null,
    signingPolicy: draft.signingPolicy,
    steps: draft.steps.map((step) => ({ workflowStateId: step.workflowStateId, recipients: step.recipients.map((entry) => entry.recipient) })),
  };
}

function withStepError(errors: DraftErrors, stepKey: string, change: (current: StepErrors) => StepErrors): DraftErrors {
  const step = { ...errors.step };
  step[stepKey] = change(step[stepKey] ?? {});
  return { ...errors, step };
}

/**
 * Places refusals on the fields they name. Paths are the body's (`steps.1.recipients.0`), as the
 * server's domain checks write them, optionally under `body.` (its schema validation) and with a
 * trailing field of the recipient (`.email`). `unplaced` counts the issues no field can show.
 */
export function placeIssues(draft: WorkflowDraft, issues: readonly ApiIssue[]): { errors: DraftErrors; unplaced: number } {
  let errors: DraftErrors = {};
  let unplaced = 0;
  for (const issue of issues) {
    const path = issue.path.replace(/^body\./, '').split('.');
    const [head, stepIndex, field, recipientIndex] = path;
    if (head === 'name' && path.length === 1) {
      errors = { ...errors, name: { key: 'workflows.errors.invalidValue' } };
      continue;
    }
    if (head === 'description' && path.length === 1) {
      errors = { ...errors, description: { key: 'workflows.errors.invalidValue' } };
      continue;
    }
    if (head !== 'steps') {
      unplaced += 1;
      continue;
    }
    if (stepIndex === undefined) {
      errors = { ...errors, steps: { key: 'workflows.errors.stepsInvalid', values: { count: MAX_WORKFLOW_STEPS } } };
      continue;
    }
    const step = draft.steps[Number(stepIndex)];
    if (!step) {
      unplaced += 1;
      continue;
    }
    if (field === 'workflowStateId') {
      const key = /no such/i.test(issue.message) ? 'workflows.errors.stateUnavailable' : 'workflows.errors.stateRequired';
      errors = withStepError(errors, step.key, (current) => ({ ...current, state: { key } }));
      continue;
    }
    if (field !== 'recipients') {
      unplaced += 1;
      continue;
    }
    const recipient = recipientIndex === undefined ? undefined : step.recipients[Number(recipientIndex)];
    if (recipientIndex === undefined) {
      errors = withStepError(errors, step.key, (current) => ({
        ...current,
        recipients: { key: 'workflows.errors.recipientsInvalid', values: { count: MAX_STEP_RECIPIENTS } },
      }));
    } else if (recipient) {
      const key = /already present/i.test(issue.message) ? 'workflows.errors.alreadyPresent' : 'workflows.errors.recipientInvalid';
      errors = withStepError(errors, step.key, (current) => ({ ...current, recipient: { ...current.recipient, [recipient.key]: { key } } }));
    } else {
      unplaced += 1;
    }
  }
  return { errors, unplaced };
}

/**
 * The refusals by the path of the field that shows them, as @mantine/form keeps a form's errors
 * (`name`, `steps.0.workflowStateId`, `steps.0.pendingText`, `steps.0.recipients.1`). Steps and
 * recipients are found by key in `draft`, so the refusal of a draft sent earlier lands where its
 * step is now. The refusal for the form as a whole, which no field shows, is left out.
 */
export function errorsByPath(draft: WorkflowDraft, errors: DraftErrors): Record<string, Message> {
  const byPath: Record<string, Message> = {};
  if (errors.name) byPath.name = errors.name;
  if (errors.description) byPath.description = errors.description;
  if (errors.steps) byPath.steps = errors.steps;
  draft.steps.forEach((step, index) => {
    const stepErrors = errors.step?.[step.key];
    if (!stepErrors) return;
    const path = `steps.${index}`;
    if (stepErrors.state) byPath[`${path}.workflowStateId`] = stepErrors.state;
    if (stepErrors.recipients) byPath[`${path}.recipients`] = stepErrors.recipients;
    if (stepErrors.pending) byPath[`${path}.pendingText`] = stepErrors.pending;
    step.recipients.forEach((entry, recipientIndex) => {
      const error = stepErrors.recipient?.[entry.key];
      if (error) byPath[`${path}.recipients.${recipientIndex}`] = error;
    });
  });
  return byPath;
}

export type Checked =
  | { readonly ok: true; readonly draft: WorkflowDraft; readonly body: WorkflowTemplateInput }
  | { readonly ok: false; readonly draft: WorkflowDraft; readonly errors: DraftErrors };

/**
 * Everything the form checks before sending: a name, at least one step, a state and at least one
 * recipient per step. A recipient typed but not yet added counts as added when it is valid (people
 * press Save straight after typing), and stops the save when it is not. Last, the body must pass
 * the domain's own WorkflowTemplateInput, so nothing the server would refuse on shape is sent.
 */
export function checkDraft(input: WorkflowDraft): Checked {
  let errors: DraftErrors = {};
  const steps = input.steps.map((step) => {
    if (!step.pendingText.trim()) return step;
    const added = addPending(step);
    if ('step' in added) return added.step;
    errors = withStepError(errors, step.key, (current) => ({ ...current, pending: added.error }));
    return step;
  });
  const draft: WorkflowDraft = { ...input, steps };

  if (!draft.name.trim()) errors = { ...errors, name: { key: 'common.required' } };
  if (draft.steps.length === 0) errors = { ...errors, steps: { key: 'workflows.errors.stepsRequired' } };
  for (const step of draft.steps) {
    if (!step.workflowStateId) errors = withStepError(errors, step.key, (current) => ({ ...current, state: { key: 'workflows.errors.stateRequired' } }));
    if (step.recipients.length === 0 && !errors.step?.[step.key]?.pending) {
      errors = withStepError(errors, step.key, (current) => ({ ...current, recipients: { key: 'workflows.errors.recipientsRequired' } }));
    }
  }
  if (hasErrors(errors)) return { ok: false, draft, errors };

  const parsed = WorkflowTemplateInput.safeParse(bodyOf(draft));
  if (!parsed.success) {
    const placed = placeIssues(
      draft,
      parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })),
    );
    // The checks above cover every field; whatever is left is refused for the form as a whole.
    const form: Message | undefined = placed.unplaced > 0 || !hasErrors(placed.errors) ? { key: 'workflows.errors.invalid' } : undefined;
    return { ok: false, draft, errors: { ...placed.errors, ...(form ? { form } : {}) } };
  }
  return { ok: true, draft, body: parsed.data };
}
