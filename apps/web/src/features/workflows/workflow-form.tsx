import { Alert, Button, Drawer, Group, Loader, Stack } from '@mantine/core';
import type { WorkflowStateDefinition, WorkflowTemplate } from '@pakt/domain';
import type { UseQueryResult } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormError } from '../../ui/form-error';
import { useWorkflowForm } from './use-workflow-form';
import { WorkflowDetailsSection } from './workflow-details-section';
import { WorkflowStepsSection } from './workflow-steps-section';

export interface WorkflowFormProps {
  readonly opened: boolean;
  /** A new value starts a fresh form (the drawer keeps its last content while it slides away). */
  readonly formKey: number;
  /** The template being changed; null creates a new one. */
  readonly template: WorkflowTemplate | null;
  readonly states: UseQueryResult<{ states: WorkflowStateDefinition[] }>;
  /** The query key of the list, refreshed after a save. */
  readonly listKey: readonly unknown[];
  readonly onClose: () => void;
  readonly onSaved: (saved: WorkflowTemplate) => void;
}

/** Create or change a workflow template, in a drawer from the side (the whole width of a phone). */
export function WorkflowFormDrawer({ opened, formKey, template, states, listKey, onClose, onSaved }: WorkflowFormProps) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  return (
    <Drawer
      opened={opened}
      onClose={() => !busy && onClose()}
      position="right"
      // Mantine caps a drawer at the viewport's width, so on a phone it fills the screen.
      size="lg"
      title={t(template ? 'workflows.form.editTitle' : 'workflows.form.createTitle')}
      // A long form is easy to lose to a stray click beside it; Escape and the close button remain.
      closeOnClickOutside={false}
      closeButtonProps={{ 'aria-label': t('workflows.form.close') }}
    >
      {states.isPending ? (
        <Loader size="sm" aria-label={t('workflows.form.loadingStates')} />
      ) : states.isError ? (
        <Alert color="red" variant="light" role="alert" title={t('workflows.form.statesFailed')}>
          <Button variant="light" color="red" size="xs" mt="xs" onClick={() => void states.refetch()} loading={states.isFetching}>
            {t('workflows.retry')}
          </Button>
        </Alert>
      ) : (
        <WorkflowForm
          key={formKey}
          template={template}
          states={states.data.states}
          listKey={listKey}
          onCancel={onClose}
          onSaved={onSaved}
          onBusy={setBusy}
        />
      )}
    </Drawer>
  );
}

function WorkflowForm({
  template,
  states,
  listKey,
  onCancel,
  onSaved,
  onBusy,
}: {
  readonly template: WorkflowTemplate | null;
  readonly states: readonly WorkflowStateDefinition[];
  readonly listKey: readonly unknown[];
  readonly onCancel: () => void;
  readonly onSaved: (saved: WorkflowTemplate) => void;
  readonly onBusy: (busy: boolean) => void;
}) {
  const { t } = useTranslation();
  const workflow = useWorkflowForm({ template, listKey, onSaved, onBusy });
  return (
    <form
      ref={workflow.formRef}
      onSubmit={workflow.onSubmit}
      noValidate
      aria-label={t(template ? 'workflows.form.editTitle' : 'workflows.form.createTitle')}
    >
      <Stack gap="md">
        <WorkflowDetailsSection workflow={workflow} />
        <WorkflowStepsSection workflow={workflow} states={states} />
        <FormError message={workflow.formError?.key} />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel} disabled={workflow.save.isPending}>
            {t('workflows.form.cancel')}
          </Button>
          <Button type="submit" loading={workflow.save.isPending}>
            {t(template ? 'workflows.form.save' : 'workflows.form.create')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
