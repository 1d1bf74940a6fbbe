import { ActionIcon, Badge, Group, Paper, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { MailIcon, TagIcon, XIcon } from '../../ui/icons';
import type { WorkflowFormState } from './use-workflow-form';
import { recipientText, type StepDraft } from './workflow-draft';

/** The people a step goes to, each removable and showing its own refusal. */
export function WorkflowStepRecipients({
  workflow,
  step,
  index,
  headingId,
}: {
  readonly workflow: WorkflowFormState;
  readonly step: StepDraft;
  readonly index: number;
  /** The step heading's id; the list is labelled by `${headingId}-recipients`. */
  readonly headingId: string;
}) {
  const { t } = useTranslation();
  const { errors } = workflow.form;
  const recipientsError = errors[`steps.${index}.recipients`];

  return (
    <Stack gap={6}>
      <Text size="sm" fw={500} id={`${headingId}-recipients`}>
        {t('workflows.form.recipients')}
      </Text>
      {step.recipients.length === 0 ? (
        <Text size="sm" c={recipientsError ? 'red' : 'dimmed'} role={recipientsError ? 'alert' : undefined}>
          {recipientsError ? recipientsError : t('workflows.form.noRecipients')}
        </Text>
      ) : (
        <Stack component="ul" gap={6} m={0} p={0} style={{ listStyle: 'none' }} aria-labelledby={`${headingId}-recipients`}>
          {step.recipients.map((entry, recipientIndex) => {
            const error = errors[`steps.${index}.recipients.${recipientIndex}`];
            const text = recipientText(entry.recipient);
            return (
              <Paper
                component="li"
                key={entry.key}
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
                      {entry.recipient.type === 'user' ? <MailIcon size={16} /> : <TagIcon size={16} />}
                    </Text>
                    <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                      {text}
                    </Text>
                    {entry.recipient.type === 'placeholder' && (
                      <Badge size="xs" variant="outline" color="gray" tt="none" style={{ flexShrink: 0 }}>
                        {t('workflows.form.kind.placeholder')}
                      </Badge>
                    )}
                  </Group>
                  <ActionIcon
                    variant="subtle"
                    color="gray"
                    size="sm"
                    aria-label={t('workflows.form.removeRecipient', { name: text })}
                    onClick={() => workflow.removeRecipient(index, recipientIndex)}
                  >
                    <XIcon size={14} />
                  </ActionIcon>
                </Group>
                {error && (
                  <Text size="xs" c="red" mt={4}>
                    {error}
                  </Text>
                )}
              </Paper>
            );
          })}
        </Stack>
      )}
    </Stack>
  );
}
