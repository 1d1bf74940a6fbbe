import { useForm } from '@mantine/form';
import {
  createWorkflow,
  ResponseCode,
  SigningPolicy,
  updateWorkflow,
  type WorkflowTemplate,
  type WorkflowTemplateInput,
} from '@pakt/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, callApi } from '../../api/client';
import { useRevealRefusal } from '../../ui/use-reveal-refusal';
import { messageText } from './form-text';
import {
  addPending,
  checkDraft,
  draftOf,
  emptyDraft,
  emptyStep,
  errorsByPath,
  placeIssues,
  type DraftErrors,
  type Message,
  type RecipientKind,
  type WorkflowDraft,
} from './workflow-draft';

interface Submission {
  readonly draft: WorkflowDraft;
  readonly body: WorkflowTemplateInput;
}

export interface WorkflowFormOptions {
  /** The template being changed; null creates a new one. */
  readonly template: WorkflowTemplate | null;
  /** The query key of the list, refreshed after a save. */
  readonly listKey: readonly unknown[];
  readonly onSaved: (saved: WorkflowTemplate) => void;
  readonly onBusy: (busy: boolean) => void;
}

const stepPath = (index: number) => `steps.${index}` as const;

/**
 * The workflow form's state and what changes it. @mantine/form holds the draft and the refusals
 * its fields show, by path (`steps.0.recipients.1`), so moving or removing a step or a recipient
 * takes its refusals along. workflow-draft.ts keeps the rules, run at save, and says which field
 * shows each refusal. The sections render it; only the field adding a recipient keeps a refusal
 * of its own.
 */
export function useWorkflowForm({ template, listKey, onSaved, onBusy }: WorkflowFormOptions) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [initialValues] = useState<WorkflowDraft>(() => (template ? draftOf(template) : emptyDraft()));
  const form = useForm<WorkflowDraft>({
    mode: 'controlled',
    initialValues,
    // A change clears only the refusals it answers, named with it below: a refused description,
    // say, keeps its message until the next save.
    clearInputErrorOnChange: false,
  });
  // A refusal no field can show, above the buttons.
  const [formError, setFormError] = useState<Message | undefined>(undefined);
  const { formRef, reveal } = useRevealRefusal();
  const refuse = (errors: DraftErrors) => {
    // Mantine's inputs show an error as given, so each is translated as it is placed.
    const byPath = errorsByPath(form.getValues(), errors);
    form.setErrors(Object.fromEntries(Object.entries(byPath).map(([path, message]) => [path, messageText(t, message)])));
    setFormError(errors.form);
    reveal();
  };

  const save = useMutation({
    mutationFn: ({ body }: Submission) =>
      template ? callApi(updateWorkflow, { params: { workflowId: template.workflowId }, body }) : callApi(createWorkflow, { body }),
    onMutate: () => onBusy(true),
    onSettled: () => onBusy(false),
    onSuccess: (saved) => {
      void queryClient.invalidateQueries({ queryKey: listKey });
      onSaved(saved);
    },
    onError: (error, { draft: sent }) => {
      if (!(error instanceof ApiError)) return refuse({ form: { key: 'workflows.errors.saveFailed' } });
      if (error.code === ResponseCode.WORKFLOW_TEMPLATE_ALREADY_EXISTS.code) return refuse({ name: { key: 'workflows.errors.nameTaken' } });
      if (error.code === ResponseCode.INVALID_INPUT.code && error.issues?.length) {
        const placed = placeIssues(sent, error.issues);
        return refuse(placed.unplaced > 0 ? { ...placed.errors, form: { key: 'workflows.errors.invalid' } } : placed.errors);
      }
      if (error.httpStatus === 0) return refuse({ form: { key: 'common.unreachable' } });
      if (error.httpStatus === 404) {
        // Deleted by someone else meanwhile: the list should stop offering it.
        void queryClient.invalidateQueries({ queryKey: listKey });
        return refuse({ form: { key: 'workflows.errors.notFound' } });
      }
      refuse({ form: { key: 'workflows.errors.saveFailed' } });
    },
  });

  // No rules are given to useForm: checkDraft is them, and it also adds a recipient still being typed.
  const onSubmit = form.onSubmit((values) => {
    const checked = checkDraft(values);
    form.setValues(checked.draft);
    if (!checked.ok) return refuse(checked.errors);
    form.clearErrors();
    setFormError(undefined);
    save.mutate({ draft: checked.draft, body: checked.body });
  });

  const setName = (name: string) => {
    form.setFieldValue('name', name);
    form.clearFieldError('name');
  };

  const setSigningPolicy = (value: string) => {
    const parsed = SigningPolicy.safeParse(value);
    if (parsed.success) form.setFieldValue('signingPolicy', parsed.data);
  };

  const addStep = () => {
    form.insertListItem('steps', emptyStep());
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

  const setPendingKind = (index: number, kind: RecipientKind) => {
    form.setFieldValue(`${stepPath(index)}.pendingKind`, kind);
    form.clearFieldError(`${stepPath(index)}.pendingText`);
  };

  const setPendingText = (index: number, text: string) => {
    form.setFieldValue(`${stepPath(index)}.pendingText`, text);
    form.clearFieldError(`${stepPath(index)}.pendingText`);
  };

  /** Adds the recipient typed into a step's field, or says why it cannot be. */
  const addRecipient = (index: number): Message | null => {
    const step = form.getValues().steps[index];
    if (!step) return null;
    const added = addPending(step);
    if ('error' in added) return added.error;
    form.setFieldValue(stepPath(index), added.step);
    form.clearFieldError(`${stepPath(index)}.recipients`);
    form.clearFieldError(`${stepPath(index)}.pendingText`);
    return null;
  };

  const removeRecipient = (index: number, recipientIndex: number) => form.removeListItem(`${stepPath(index)}.recipients`, recipientIndex);

  return {
    form,
    formRef,
    formError,
    save,
    onSubmit,
    setName,
    setSigningPolicy,
    addStep,
    moveStep,
    removeStep,
    setState,
    setPendingKind,
    setPendingText,
    addRecipient,
    removeRecipient,
  };
}

export type WorkflowFormState = ReturnType<typeof useWorkflowForm>;
