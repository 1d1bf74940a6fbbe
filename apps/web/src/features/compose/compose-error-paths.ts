import type { FormErrors } from '@mantine/form';
import type { Message } from '../workflows';
import type { ComposeDraft, ComposeErrors } from './compose-draft';

/**
 * The compose refusals by the path of the field that shows them, as @mantine/form keeps a form's
 * errors: `subject`, `message`, `expiresOn`, `notificationStartDate`, `documentIds` (the chosen
 * documents), `steps`, and per step `steps.0.workflowStateId`, `steps.0.pendingText` (the "add
 * recipient" field), `steps.0.recipients` (nobody in the step) and `steps.0.recipients.1.email`.
 * Steps and recipients are found by key in `draft`, so the refusal of a draft sent earlier lands
 * where its step is now. The refusal for the form as a whole, which no field shows, is left out.
 */
export function composeErrorsByPath(draft: ComposeDraft, errors: ComposeErrors): Record<string, Message> {
  const byPath: Record<string, Message> = {};
  if (errors.subject) byPath.subject = errors.subject;
  if (errors.message) byPath.message = errors.message;
  if (errors.expiresOn) byPath.expiresOn = errors.expiresOn;
  if (errors.notificationStartDate) byPath.notificationStartDate = errors.notificationStartDate;
  if (errors.documents) byPath.documentIds = errors.documents;
  if (errors.steps) byPath.steps = errors.steps;
  draft.steps.forEach((step, index) => {
    const stepErrors = errors.step?.[step.key];
    if (!stepErrors) return;
    const path = `steps.${index}`;
    if (stepErrors.state) byPath[`${path}.workflowStateId`] = stepErrors.state;
    if (stepErrors.recipients) byPath[`${path}.recipients`] = stepErrors.recipients;
    if (stepErrors.pending) byPath[`${path}.pendingText`] = stepErrors.pending;
    step.recipients.forEach((recipient, recipientIndex) => {
      const error = stepErrors.recipient?.[recipient.key];
      if (error) byPath[`${path}.recipients.${recipientIndex}.email`] = error;
    });
  });
  return byPath;
}

/** The errors without those of the list's items (`steps.0`, `steps.0.recipients.1.email`); the list's own (`steps`) stays. */
export function withoutItemErrors(errors: FormErrors, listPath: string): FormErrors {
  const itemPath = new RegExp(`^${listPath.replace(/\./g, '\\.')}\\.\\d+(\\.|$)`);
  return Object.fromEntries(Object.entries(errors).filter(([path]) => !itemPath.test(path)));
}

/** The errors without the one at `path` and any under it (`steps` takes every step's along). */
export function withoutErrorsAt(errors: FormErrors, path: string): FormErrors {
  return Object.fromEntries(Object.entries(errors).filter(([other]) => other !== path && !other.startsWith(`${path}.`)));
}
