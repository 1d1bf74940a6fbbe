import { ActionIcon, Group, Paper, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { MailIcon, XIcon } from '../../ui/icons';
import { AddressInput } from './address-input';
import type { ComposeStep } from './compose-draft';
import { RecipientVerifySwitch, StepVerificationNote } from './recipient-verification-choice';
import type { ComposeFormState } from './use-compose-form';

/** The people a step goes to: addresses added by hand, and a template's placeholders to fill in, each showing its own refusal. */
export function ComposeStepRecipients({
  compose,
  step,
  index,
  headingId,
}: {
  readonly compose: ComposeFormState;
  readonly step: ComposeStep;
  readonly index: number;
  /** The step heading's id; the list is labelled by `${headingId}-recipients`. */
  readonly headingId: string;
}) {
  const { t } = useTranslation();
  const { form } = compose;
  const recipientsError = form.errors[`steps.${index}.recipients`];

  return (
    <Stack gap={6}>
      <Text size="sm" fw={500} id={`${headingId}-recipients`}>
        {t('workflows.form.recipients')}
      </Text>
      {step.recipients.length === 0 ? (
        <Text size="sm" c={recipientsError ? 'red' : 'dimmed'} role={recipientsError ? 'alert' : undefined}>
          {recipientsError ? recipientsError : t('compose.workflow.noRecipients')}
        </Text>
      ) : (
        <Stack component="ul" gap={6} m={0} p={0} style={{ listStyle: 'none' }} aria-labelledby={`${headingId}-recipients`}>
          {step.recipients.map((recipient, recipientIndex) => {
            const path = `steps.${index}.recipients.${recipientIndex}.email` as const;
            const error = form.errors[path];
            if (recipient.label !== undefined) {
              const fill = (email: string) => compose.setSlotEmail(index, recipientIndex, email);
              // A template's placeholder: an address to fill in, labelled with the placeholder's name.
              return (
                <li key={recipient.key} data-invalid={error ? true : undefined}>
                  <AddressInput label={recipient.label} required {...form.getInputProps(path)} onChange={fill} onPick={fill} />
                  <RecipientVerifySwitch compose={compose} step={step} stepIndex={index} recipient={recipient} recipientIndex={recipientIndex} />
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
                  <ActionIcon
                    variant="subtle"
                    color="gray"
                    size="sm"
                    aria-label={t('workflows.form.removeRecipient', { name: recipient.email })}
                    onClick={() => compose.removeRecipient(index, recipientIndex)}
                  >
                    <XIcon size={14} />
                  </ActionIcon>
                </Group>
                {error && (
                  <Text size="xs" c="red" mt={4}>
                    {error}
                  </Text>
                )}
                <RecipientVerifySwitch compose={compose} step={step} stepIndex={index} recipient={recipient} recipientIndex={recipientIndex} />
              </Paper>
            );
          })}
        </Stack>
      )}
      <StepVerificationNote compose={compose} step={step} />
    </Stack>
  );
}
