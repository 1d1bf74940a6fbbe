import {
  ActionIcon,
  Badge,
  Button,
  Card,
  Group,
  NativeSelect,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import {
  type WorkflowStateDefinition,
} from '@pakt/domain';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ArrowDownIcon, ArrowUpIcon, TrashIcon } from '../../ui/icons';
import { stateOptionLabel } from '../../ui/step-label';
import { type ComposeStep } from './compose-draft';
import { type Message, STATE_TYPE_COLORS, messageText } from '../workflows';
import { AddressInput } from './address-input';
import { ComposeStepRecipients } from './compose-step-recipients';
import type { ComposeFormState } from './use-compose-form';

/** One step of the new ePak: its place in the order, its state, its recipients and the field that adds them. */
export function ComposeStepEditor({
  compose,
  step,
  index,
  count,
  states,
}: {
  readonly compose: ComposeFormState;
  readonly step: ComposeStep;
  readonly index: number;
  readonly count: number;
  readonly states: readonly WorkflowStateDefinition[];
}) {
  const { t } = useTranslation();
  const { form } = compose;
  const headingId = useId();
  const number = index + 1;
  const selected = states.find((state) => state.workflowStateId === step.workflowStateId);
  const pendingPath = `steps.${index}.pendingText` as const;
  // A refusal of the addresses being added; the form's own check on save arrives in the form's errors.
  const [pendingError, setPendingError] = useState<Message | null>(null);
  const shownPendingError = pendingError ? messageText(t, pendingError) : form.errors[pendingPath];

  const stateData = [
    { value: '', label: t('workflows.form.chooseState'), disabled: true },
    ...states.map((state) => ({ value: state.workflowStateId, label: stateOptionLabel(t, state) })),
    ...(step.workflowStateId && !selected ? [{ value: step.workflowStateId, label: t('workflows.form.removedState') }] : []),
  ];

  const add = (text: string) => setPendingError(compose.addRecipients(index, text));

  const onPendingChange = (text: string) => {
    // Several addresses pasted (or a semicolon typed) are added at once.
    if (text.includes(';')) return add(text);
    setPendingError(null);
    compose.setPendingText(index, text);
  };

  return (
    <Card withBorder padding="sm" role="group" aria-labelledby={headingId} data-testid="compose-step">
      <Stack gap="sm">
        <Group justify="space-between" gap="xs" wrap="nowrap">
          <Group gap="xs" wrap="nowrap" miw={0}>
            <Title order={3} size="h6" id={headingId}>
              {t('workflows.form.step', { number })}
            </Title>
            {selected && (
              <Badge variant="light" color={STATE_TYPE_COLORS[selected.type]} tt="none">
                {t(`workflowStateTypes.${selected.type}`)}
              </Badge>
            )}
          </Group>
          <Group gap={4} wrap="nowrap">
            <ActionIcon
              variant="subtle"
              color="gray"
              aria-label={t('workflows.form.moveUp', { number })}
              disabled={index === 0}
              onClick={() => compose.moveStep(index, -1)}
            >
              <ArrowUpIcon size={18} />
            </ActionIcon>
            <ActionIcon
              variant="subtle"
              color="gray"
              aria-label={t('workflows.form.moveDown', { number })}
              disabled={index === count - 1}
              onClick={() => compose.moveStep(index, 1)}
            >
              <ArrowDownIcon size={18} />
            </ActionIcon>
            <ActionIcon variant="subtle" color="red" aria-label={t('workflows.form.removeStep', { number })} onClick={() => compose.removeStep(index)}>
              <TrashIcon size={18} />
            </ActionIcon>
          </Group>
        </Group>

        <NativeSelect
          label={t('workflows.form.state')}
          required
          data={stateData}
          {...form.getInputProps(`steps.${index}.workflowStateId`)}
          onChange={(event) => compose.setState(index, event.currentTarget.value)}
        />

        <ComposeStepRecipients compose={compose} step={step} index={index} headingId={headingId} />

        <AddressInput
          label={t('compose.workflow.addRecipient', { number })}
          {...form.getInputProps(pendingPath)}
          error={shownPendingError || undefined}
          onChange={onPendingChange}
          onPick={(email) => add(email)}
          onEnter={() => add(step.pendingText)}
          rightSection={
            <Button size="compact-sm" variant="light" onClick={() => add(step.pendingText)} aria-label={t('workflows.form.addRecipientTo', { number })}>
              {t('workflows.form.add')}
            </Button>
          }
        />
        <Text size="xs" c="dimmed" mt={-6}>
          {t('compose.workflow.pasteHint')}
        </Text>
      </Stack>
    </Card>
  );
}
