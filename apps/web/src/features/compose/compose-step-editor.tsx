import {
  ActionIcon,
  Badge,
  Button,
  Card,
  Group,
  NativeSelect,
  Paper,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import {
  type WorkflowStateDefinition,
} from '@pakt/domain';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ArrowDownIcon, ArrowUpIcon, MailIcon, TrashIcon, XIcon } from '../../ui/icons';
import {
  addAddresses,
  type ComposeStep,
} from './compose-draft';
import { type Message, type StepErrors, STATE_TYPE_COLORS, messageText } from '../workflows';
import { AddressInput } from './address-input';

export function ComposeStepEditor({
  step,
  index,
  count,
  states,
  errors,
  onChange,
  onMove,
  onRemove,
}: {
  readonly step: ComposeStep;
  readonly index: number;
  readonly count: number;
  readonly states: readonly WorkflowStateDefinition[];
  readonly errors: StepErrors | undefined;
  readonly onChange: (step: ComposeStep, clear: readonly (keyof StepErrors)[] | 'recipient') => void;
  readonly onMove: (by: -1 | 1) => void;
  readonly onRemove: () => void;
}) {
  const { t } = useTranslation();
  const headingId = useId();
  const number = index + 1;
  const selected = states.find((state) => state.workflowStateId === step.workflowStateId);
  const [pendingError, setPendingError] = useState<Message | null>(null);
  const shownPendingError = pendingError ?? errors?.pending;

  const stateData = [
    { value: '', label: t('workflows.form.chooseState'), disabled: true },
    ...states.map((state) => {
      const type = t(`workflowStateTypes.${state.type}`);
      const label = state.name.trim().toLowerCase() === type.toLowerCase() ? state.name : t('workflows.form.stateOption', { name: state.name, type });
      return { value: state.workflowStateId, label };
    }),
    ...(step.workflowStateId && !selected ? [{ value: step.workflowStateId, label: t('workflows.form.removedState') }] : []),
  ];

  const add = (text: string) => {
    const added = addAddresses(step, text);
    setPendingError(added.error ?? null);
    onChange(added.step, added.error ? [] : ['recipients', 'pending']);
  };

  const onPendingChange = (text: string) => {
    // Several addresses pasted (or a semicolon typed) are added at once.
    if (text.includes(';')) return add(text);
    setPendingError(null);
    onChange({ ...step, pendingText: text }, ['pending']);
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
            <ActionIcon variant="subtle" color="gray" aria-label={t('workflows.form.moveUp', { number })} disabled={index === 0} onClick={() => onMove(-1)}>
              <ArrowUpIcon size={18} />
            </ActionIcon>
            <ActionIcon variant="subtle" color="gray" aria-label={t('workflows.form.moveDown', { number })} disabled={index === count - 1} onClick={() => onMove(1)}>
              <ArrowDownIcon size={18} />
            </ActionIcon>
            <ActionIcon variant="subtle" color="red" aria-label={t('workflows.form.removeStep', { number })} onClick={onRemove}>
              <TrashIcon size={18} />
            </ActionIcon>
          </Group>
        </Group>

        <NativeSelect
          label={t('workflows.form.state')}
          required
          data={stateData}
          value={step.workflowStateId}
          error={messageText(t, errors?.state)}
          onChange={(event) => onChange({ ...step, workflowStateId: event.currentTarget.value }, ['state'])}
        />

        <Stack gap={6}>
          <Text size="sm" fw={500} id={`${headingId}-recipients`}>
            {t('workflows.form.recipients')}
          </Text>
          {step.recipients.length === 0 ? (
            <Text size="sm" c={errors?.recipients ? 'red' : 'dimmed'} role={errors?.recipients ? 'alert' : undefined}>
              {errors?.recipients ? messageText(t, errors.recipients) : t('compose.workflow.noRecipients')}
            </Text>
          ) : (
            <Stack component="ul" gap={6} m={0} p={0} style={{ listStyle: 'none' }} aria-labelledby={`${headingId}-recipients`}>
              {step.recipients.map((recipient) => {
                const error = errors?.recipient?.[recipient.key];
                const remove = () => onChange({ ...step, recipients: step.recipients.filter((other) => other.key !== recipient.key) }, 'recipient');
                if (recipient.label !== undefined) {
                  // A template's placeholder: an address to fill in, labelled with the placeholder's name.
                  return (
                    <li key={recipient.key} data-invalid={error ? true : undefined}>
                      <AddressInput
                        label={recipient.label}
                        required
                        value={recipient.email}
                        error={messageText(t, error)}
                        onChange={(email) =>
                          onChange({ ...step, recipients: step.recipients.map((other) => (other.key === recipient.key ? { ...other, email } : other)) }, 'recipient')
                        }
                        onPick={(email) =>
                          onChange({ ...step, recipients: step.recipients.map((other) => (other.key === recipient.key ? { ...other, email } : other)) }, 'recipient')
                        }
                      />
                    </li>
                  );
                }
                return (
                  <Paper
                    component="li"
                    key={recipient.key}
                    withBorder
                    px="sm"
                    py={6}
                    radius="sm"
                    data-invalid={error ? true : undefined}
                    style={error ? { borderColor: 'var(--mantine-color-red-6)' } : undefined}
                  >
                    <Group justify="space-between" gap="xs" wrap="nowrap">
                      <Group gap={8} wrap="nowrap" miw={0}>
                        <Text c="dimmed" component="span" display="flex" aria-hidden>
                          <MailIcon size={16} />
                        </Text>
                        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                          {recipient.email}
                        </Text>
                      </Group>
                      <ActionIcon variant="subtle" color="gray" size="sm" aria-label={t('workflows.form.removeRecipient', { name: recipient.email })} onClick={remove}>
                        <XIcon size={14} />
                      </ActionIcon>
                    </Group>
                    {error && (
                      <Text size="xs" c="red" mt={4}>
                        {messageText(t, error)}
                      </Text>
                    )}
                  </Paper>
                );
              })}
            </Stack>
          )}
        </Stack>

        <AddressInput
          label={t('compose.workflow.addRecipient', { number })}
          value={step.pendingText}
          error={messageText(t, shownPendingError ?? undefined)}
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
