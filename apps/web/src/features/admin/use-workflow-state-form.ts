import { useForm } from '@mantine/form';
import {
  createWorkflowState,
  ResponseCode,
  updateWorkflowState,
  type WorkflowStateDefinition,
  type WorkflowStateType,
} from '@pakt/domain';
import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, callApi } from '../../api/client';
import { stepLabel } from '../../ui/step-label';
import { useCurrentTenant } from '../../api/session-store';
import { workflowQueryKeys } from '../workflows';
import { adminAuditQueryKeys } from './queries';

export type StateProblem =
  | { readonly key: 'workflowStatesAdmin.errors.nameTaken'; readonly onName: true }
  | { readonly key: 'workflowStatesAdmin.errors.gone'; readonly gone: true }
  | { readonly key: 'common.unreachable' }
  | { readonly key: 'workflowStatesAdmin.errors.failed'; readonly detail?: string };

/** A refusal in the screen's words: a taken name belongs on the name field, a vanished state refreshes the list. */
export function stateProblem(error: unknown): StateProblem {
  if (!(error instanceof ApiError)) return { key: 'workflowStatesAdmin.errors.failed' };
  if (error.httpStatus === 0) return { key: 'common.unreachable' };
  if (error.code === ResponseCode.WORKFLOW_TEMPLATE_ALREADY_EXISTS.code) return { key: 'workflowStatesAdmin.errors.nameTaken', onName: true };
  if (error.httpStatus === 404) return { key: 'workflowStatesAdmin.errors.gone', gone: true };
  return { key: 'workflowStatesAdmin.errors.failed', ...(error.message ? { detail: error.message } : {}) };
}

/**
 * After a change: the catalogue and the templates (which show state names) are asked again by
 * whoever shows them, and so is the audit log the change was recorded in.
 */
export function afterStateChange(queryClient: QueryClient, tenant: string | null | undefined): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: workflowQueryKeys.states(tenant) }),
    queryClient.invalidateQueries({ queryKey: workflowQueryKeys.list(tenant) }),
    queryClient.invalidateQueries({ queryKey: adminAuditQueryKeys.all(tenant) }),
  ]);
}

export interface StateFormValues {
  readonly name: string;
  readonly type: WorkflowStateType;
  readonly description: string;
}

export interface StateFormOptions {
  /** The state being changed; null adds one. */
  readonly state: WorkflowStateDefinition | null;
  readonly onDone: (notice: { readonly kind: 'created' | 'updated'; readonly name: string }) => void;
}

/**
 * The state form's state: @mantine/form holds the name, type and description, and the refusal
 * shown on the name (blank, or taken), which clears as soon as the name changes; a refusal of the
 * whole save is said above the fields until the next try.
 */
export function useWorkflowStateForm({ state, onDone }: StateFormOptions) {
  const { t } = useTranslation();
  const tenantUuid = useCurrentTenant()?.tenantUuid;
  const queryClient = useQueryClient();
  const form = useForm<StateFormValues>({
    mode: 'controlled',
    initialValues: { name: state ? stepLabel(t, state) : '', type: state?.type ?? 'REVIEW', description: state?.description ?? '' },
  });
  const [problem, setProblem] = useState<StateProblem | null>(null);

  const save = useMutation({
    mutationFn: (input: { name: string; description: string | null }) =>
      state
        ? callApi(updateWorkflowState, { params: { workflowStateId: state.workflowStateId }, body: input })
        : callApi(createWorkflowState, { body: { ...input, type: form.getValues().type } }),
    onSuccess: async (saved) => {
      onDone({ kind: state ? 'updated' : 'created', name: stepLabel(t, saved) });
      await afterStateChange(queryClient, tenantUuid);
    },
    onError: async (error) => {
      const refusal = stateProblem(error);
      if ('onName' in refusal) form.setFieldError('name', t(refusal.key));
      else setProblem(refusal);
      if ('gone' in refusal) await afterStateChange(queryClient, tenantUuid);
    },
  });

  // Not form.onSubmit, which would clear the name's refusal: a second try with the same name keeps it in view.
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setProblem(null);
    const { name, description } = form.getValues();
    const trimmed = name.trim();
    if (!trimmed) {
      form.setFieldError('name', t('workflowStatesAdmin.errors.nameRequired'));
      return;
    }
    // A built-in name left as shown (translated) keeps its stored words, so it stays translated.
    const unchanged = state !== null && trimmed === stepLabel(t, state);
    // An emptied description clears it (null); the server keeps names and descriptions trimmed.
    save.mutate({ name: unchanged ? state.name : trimmed, description: description.trim() || null });
  };

  const setType = (value: string | null) => {
    if (value) form.setFieldValue('type', value as WorkflowStateType);
  };

  return { form, problem, save, submit, setType };
}
