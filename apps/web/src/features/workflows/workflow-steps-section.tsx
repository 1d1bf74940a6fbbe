import { Button, Group, Stack, Text, Title } from '@mantine/core';
import type { WorkflowStateDefinition } from '@pakt/domain';
import { useTranslation } from 'react-i18next';
import { PlusIcon } from '../../ui/icons';
import type { WorkflowFormState } from './use-workflow-form';
import { MAX_WORKFLOW_STEPS } from './workflow-draft';
import { WorkflowStepEditor } from './workflow-step-editor';

/** The template's steps in order, each in its own editor, and the button that adds one. */
export function WorkflowStepsSection({
  workflow,
  states,
}: {
  readonly workflow: WorkflowFormState;
  readonly states: readonly WorkflowStateDefinition[];
}) {
  const { t } = useTranslation();
  const { form } = workflow;
  const steps = form.values.steps;
  return (
    <Stack gap="sm" component="section" aria-labelledby="workflow-steps-heading">
      <Stack gap={2}>
        <Title order={3} size="h5" id="workflow-steps-heading">
          {t('workflows.form.stepsHeading')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('workflows.form.stepsHint')}
        </Text>
      </Stack>
      {form.errors.steps && (
        <Text size="sm" c="red" role="alert">
          {form.errors.steps}
        </Text>
      )}
      {steps.map((step, index) => (
        <WorkflowStepEditor key={step.key} workflow={workflow} step={step} index={index} count={steps.length} states={states} />
      ))}
      <Group gap="sm">
        <Button variant="light" leftSection={<PlusIcon size={16} />} disabled={steps.length >= MAX_WORKFLOW_STEPS} onClick={workflow.addStep}>
          {t('workflows.form.addStep')}
        </Button>
        {steps.length >= MAX_WORKFLOW_STEPS && (
          <Text size="sm" c="dimmed">
            {t('workflows.form.maxSteps', { count: MAX_WORKFLOW_STEPS })}
          </Text>
        )}
      </Group>
    </Stack>
  );
}
