import { displayName } from '@pakt/domain';
import { Badge, Box, Group, Paper, Stack, Text, Title, type MantineColor } from '@mantine/core';
import type { EpakDetail, EpakStatus, SignerStatus } from '@pakt/domain';
import { useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { stepLabel } from '../../ui/step-label';

const SIGNER_STATUS_COLOURS: Readonly<Record<SignerStatus, MantineColor>> = {
  Signed: 'teal',
  Reviewed: 'teal',
  Pending: 'yellow',
  DelegatePending: 'yellow',
  Delegated: 'grape',
  Rejected: 'red',
  Emailed: 'blue',
  NotRequired: 'gray',
  Skipped: 'gray',
};

export const EPAK_STATUS_COLOURS: Readonly<Record<EpakStatus, MantineColor>> = {
  Draft: 'gray',
  InProgress: 'blue',
  Completed: 'teal',
  Rejected: 'red',
  Stopped: 'orange',
  Expired: 'orange',
};

/** Subject, sender, status and the sender's message: what the person is asked to sign. */
export function EpakHeading({ epak, actions }: { readonly epak: EpakDetail; readonly actions?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Stack gap={6}>
      <Group gap="sm" align="flex-start" justify="space-between" wrap="nowrap">
        <Title order={1} size="h2" style={{ overflowWrap: 'anywhere' }}>
          {epak.subject}
        </Title>
        <Badge variant="light" color={EPAK_STATUS_COLOURS[epak.status]} tt="none" style={{ flexShrink: 0 }} data-testid="epak-status">
          {t(`compose.status.${epak.status}`)}
        </Badge>
      </Group>
      <Group gap="sm" justify="space-between" align="center" wrap="wrap">
        <Text size="sm" c="dimmed">
          {epak.ownerName ? t('signing.from', { name: epak.ownerName }) : t('signing.fromUnknown')}
        </Text>
        {actions}
      </Group>
      {epak.message && (
        <Paper withBorder p="sm" radius="sm" bg="var(--mantine-color-gray-0)">
          <Text size="xs" fw={600} c="dimmed" mb={4}>
            {t('signing.message')}
          </Text>
          <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {epak.message}
          </Text>
        </Paper>
      )}
    </Stack>
  );
}

/** The workflow's steps, each recipient with where they stand. */
export function EpakSteps({ epak, myRecipientId }: { readonly epak: EpakDetail; readonly myRecipientId: string | null }) {
  const { t } = useTranslation();
  const headingId = useId();
  // A step named after its kind ("Sign") would say the same twice.
  const typeName = (type: EpakDetail['steps'][number]['type']) => t(`workflowStateTypes.${type}`);
  return (
    <Box component="section" aria-labelledby={headingId}>
      <Title order={2} size="h5" id={headingId} mb={6}>
        {t('signing.steps.heading')}
      </Title>
      <Stack component="ol" gap="xs" m={0} p={0} style={{ listStyle: 'none' }}>
        {epak.steps.map((step) => {
          const current = epak.currentStep === step.order;
          const stepName = stepLabel(t, step);
          return (
            <Box
              component="li"
              key={step.order}
              p="xs"
              aria-current={current ? 'step' : undefined}
              style={{
                border: `1px solid ${current ? 'var(--mantine-color-blue-4)' : 'var(--mantine-color-gray-3)'}`,
                borderRadius: 'var(--mantine-radius-sm)',
                background: current ? 'var(--mantine-color-blue-0)' : undefined,
              }}
            >
              <Group gap={6} justify="space-between" wrap="nowrap">
                <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
                  {t('signing.steps.step', { number: step.order, name: stepName })}
                </Text>
                {(current || typeName(step.type).toLocaleLowerCase() !== stepName.trim().toLocaleLowerCase()) && (
                  <Text size="xs" c="dimmed" style={{ flexShrink: 0 }}>
                    {current ? t('signing.steps.current') : typeName(step.type)}
                  </Text>
                )}
              </Group>
              <Stack component="ul" gap={4} m={0} mt={4} p={0} style={{ listStyle: 'none' }}>
                {step.recipients.map((recipient) => {
                  const name = displayName(recipient);
                  const me = recipient.recipientId === myRecipientId;
                  return (
                    <Group component="li" key={recipient.recipientId} gap="xs" justify="space-between" wrap="nowrap" data-testid="step-recipient">
                      <Text size="sm" style={{ overflowWrap: 'anywhere', minWidth: 0 }} title={recipient.email}>
                        {me ? t('signing.steps.you', { name }) : name}
                      </Text>
                      <Badge size="sm" variant="light" color={SIGNER_STATUS_COLOURS[recipient.status]} tt="none" style={{ flexShrink: 0 }}>
                        {t(`compose.recipientStatus.${recipient.status}`)}
                      </Badge>
                    </Group>
                  );
                })}
              </Stack>
            </Box>
          );
        })}
      </Stack>
    </Box>
  );
}
