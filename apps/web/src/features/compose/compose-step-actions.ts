import type { UseFormReturnType } from '@mantine/form';
import type { Message } from '../workflows';
import { addAddresses, emptyComposeStep, type ComposeDraft } from './compose-draft';
import { withoutItemErrors } from './compose-error-paths';

const stepPath = (index: number) => `steps.${index}` as const;

/**
 * What changes the compose form's steps. Moving or removing a step goes through the form's list
 * operations, so its refusals go with it. A step's recipients are refused together: changing a
 * slot's address or removing a recipient clears the refusals of all the step's recipients (not the
 * step's "nobody yet", shown again should the list become empty).
 */
export function composeStepActions(form: UseFormReturnType<ComposeDraft>) {
  const clearRecipientErrors = (index: number) => form.setErrors((current) => withoutItemErrors(current, `${stepPath(index)}.recipients`));

  const addStep = () => {
    form.insertListItem('steps', emptyComposeStep());
    form.clearFieldError('steps');
  };

  const moveStep = (index: number, by: -1 | 1) => {
    const to = index + by;
    if (to < 0 || to >= form.getValues().steps.length) return;
    form.reorderListItem('steps', { from: index, to });
  };

  const removeStep = (index: number) => form.removeListItem('steps', index);

  const setState = (index: number, workflowStateId: string) => {
    form.setFieldValue(`${stepPath(index)}.workflowStateId`, workflowStateId);
    form.clearFieldError(`${stepPath(index)}.workflowStateId`);
  };

  const setPendingText = (index: number, text: string) => {
    form.setFieldValue(`${stepPath(index)}.pendingText`, text);
    form.clearFieldError(`${stepPath(index)}.pendingText`);
  };

  /** Adds the addresses in `text` to a step; what cannot be added stays in its field, and the first reason is returned. */
  const addRecipients = (index: number, text: string): Message | null => {
    const step = form.getValues().steps[index];
    if (!step) return null;
    const added = addAddresses(step, text);
    form.setFieldValue(stepPath(index), added.step);
    if (added.error) return added.error;
    form.clearFieldError(`${stepPath(index)}.recipients`);
    form.clearFieldError(`${stepPath(index)}.pendingText`);
    return null;
  };

  /** Fills a template's placeholder slot. */
  const setSlotEmail = (index: number, recipientIndex: number, email: string) => {
    form.setFieldValue(`${stepPath(index)}.recipients.${recipientIndex}.email`, email);
    clearRecipientErrors(index);
  };

  const removeRecipient = (index: number, recipientIndex: number) => {
    form.removeListItem(`${stepPath(index)}.recipients`, recipientIndex);
    clearRecipientErrors(index);
  };

  return { addStep, moveStep, removeStep, setState, setPendingText, addRecipients, setSlotEmail, removeRecipient };
}
