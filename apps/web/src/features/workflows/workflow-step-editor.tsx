import { ActionIcon, Badge, Card, Group, NativeSelect, Stack, Title } from '@mantine/core';
import type { WorkflowStateDefinition, WorkflowStateType } from '@pakt/domain';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { ArrowDownIcon, ArrowUpIcon, TrashIcon } from '../../ui/icons';
import { stateOptionLabel } from '../../ui/step-label';
import { STATE_TYPE_COLORS } from './state-type-colors';
import type { WorkflowFormState } from './use-workflow-form';
import type { StepDraft } from './workflow-draft';
import { WorkflowRecipientInput } from './workflow-recipient-input';
import { WorkflowStepRecipients } from './workflow-step-recipients';

/** One step: its place in the order, the state it is, and who it goes to. */
export function WorkflowStepEditor({
  workflow,
  step,
  index,
  count,
  states,
}: {
  readonly workflow: WorkflowFormState;
  readonly step: StepDraft;
  readonly index: number;
  readonly count: number;
  readonly states: readonly WorkflowStateDefinition[];
}) {
  const { t } = useTranslation();
  const headingId = useId();
  const number = index + 1;
  const selected = states.find((state) => state.workflowStateId === step.workflowStateId);
  const typeLabel = (type: WorkflowStateType) => t(`workflowStateTypes.${type}`);

  const stateData = [
    { value: '', label: t('workflows.form.chooseState'), disabled: true },
    ...states.map((state) => ({ value: state.workflowStateId, label: stateOptionLabel(t, state) })),
    // A state removed from the catalogue since the template was made: shown, so the select does not lie.
    ...(step.workflowStateId && !selected ? [{ value: step.workflowStateId, label: t('workflows.form.removedState') }] : []),
  ];

  return (
    <Card withBorder padding="md" role="group" aria-labelledby={headingId} data-testid="workflow-step">
      <Stack gap="sm">
        <Group justify="space-between" gap="xs" wrap="nowrap">
          <Group gap="xs" wrap="nowrap" miw={0}>
            <Title order={4} size="h6" id={headingId}>
              {t('workflows.form.step', { number })}
            </Title>
            {selected && (
              <Badge variant="light" color={STATE_TYPE_COLORS[selected.type]} tt="none">
                {typeLabel(selected.type)}
              </Badge>
            )}
          </Group>
          <Group gap={4} wrap="nowrap">
            <ActionIcon
              variant="subtle"
              color="gray"
              aria-label={t('workflows.form.moveUp', { number })}
              disabled={index === 0}
              onClick={() => workflow.moveStep(index, -1)}
            >
              <ArrowUpIcon size={18} />
            </ActionIcon>
            <ActionIcon
              variant="subtle"
              color="gray"
              aria-label={t('workflows.form.moveDown', { number })}
              disabled={index === count - 1}
              onClick={() => workflow.moveStep(index, 1)}
            >
              <ArrowDownIcon size={18} />
            </ActionIcon>
            <ActionIcon variant="subtle" color="red" aria-label={t('workflows.form.removeStep', { number })} onClick={() => workflow.removeStep(index)}>
              <TrashIcon size={18} />
            </ActionIcon>
          </Group>
        </Group>

        <NativeSelect
          label={t('workflows.form.state')}
          required
          data={stateData}
          {...workflow.form.getInputProps(`steps.${index}.workflowStateId`)}
          onChange={(event) => workflow.setState(index, event.currentTarget.value)}
        />

        <WorkflowStepRecipients workflow={workflow} step={step} index={index} headingId={headingId} />
        <WorkflowRecipientInput workflow={workflow} step={step} index={index} />
      </Stack>
    </Card>
  );
}
