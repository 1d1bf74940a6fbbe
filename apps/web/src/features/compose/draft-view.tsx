import {
  Alert,
  Badge,
  Card,
  Group,
  Paper,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { type EpakDetail } from '@pakt/domain';
import { useTranslation } from 'react-i18next';
import { SaveAsTemplate } from '../document-templates';
import { STATE_TYPE_COLORS } from '../workflows';
import { usePolicyName } from './signing-policy-picker';
import { stepLabel } from '../../ui/step-label';

/** A sent ePak, as /compose?ePakId=… shows it once it has gone: what it holds and where each person stands. */
export function SentEpakView({ epak }: { readonly epak: EpakDetail }) {
  const { t } = useTranslation();
  return (
    <Stack gap="lg">
      <DraftSummary epak={epak} />
      <Alert color="teal" variant="light" role="status" title={t('compose.start.sent')}>
        {t('compose.start.sentDetail', { count: epak.signerCount })}
      </Alert>
      <SaveAsTemplate epak={epak} unsavedFields={false} />
    </Stack>
  );
}

/** The documents of a saved ePak, in order, with their pages. */
export function DraftDocumentList({ epak }: { readonly epak: Pick<EpakDetail, 'documents'> }) {
  const { t } = useTranslation();
  return (
    <Stack component="ol" gap={4} m={0} pl="lg" aria-label={t('compose.documents.heading')}>
      {epak.documents.map((document) => (
        <li key={document.documentId}>
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {document.name} · {t('compose.documents.pages', { count: document.pageCount })}
          </Text>
        </li>
      ))}
    </Stack>
  );
}

/** The steps of a saved ePak, each with its people (and, once sent, where each stands). */
export function DraftStepList({ epak }: { readonly epak: Pick<EpakDetail, 'steps' | 'status' | 'currentStep'> }) {
  const { t } = useTranslation();
  return (
    <Stack component="ol" gap="xs" m={0} p={0} style={{ listStyle: 'none' }} aria-label={t('workflows.form.stepsHeading')}>
      {epak.steps.map((step) => (
        <Paper component="li" key={step.order} withBorder px="sm" py={8} radius="sm" aria-label={t('workflows.form.step', { number: step.order })}>
          <Group gap="xs" mb={4} wrap="wrap">
            <Text size="sm" fw={600}>
              {t('workflows.form.step', { number: step.order })}
            </Text>
            <Badge variant="light" color={STATE_TYPE_COLORS[step.type]} tt="none">
              {stepLabel(t, step)}
            </Badge>
          </Group>
          <Stack component="ul" gap={2} m={0} pl="md">
            {step.recipients.map((recipient) => (
              <li key={recipient.recipientId}>
                <Group gap="xs" wrap="wrap">
                  <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                    {recipient.email}
                  </Text>
                  {recipient.verificationRequired && (
                    <Badge size="sm" variant="outline" color="grape" tt="none">
                      {t('compose.verification.badge')}
                    </Badge>
                  )}
                  {/* Once sent, where each person stands (spec §4 signer statuses). */}
                  {epak.status !== 'Draft' && (
                    <Badge size="sm" variant="light" color={recipient.status === 'Pending' ? (epak.currentStep === step.order ? 'blue' : 'gray') : 'teal'} tt="none">
                      {t(`compose.recipientStatus.${recipient.status}`)}
                    </Badge>
                  )}
                </Group>
              </li>
            ))}
          </Stack>
        </Paper>
      ))}
    </Stack>
  );
}

/** What a saved ePak holds: subject, status, policy, message, signers, documents and steps. */
export function DraftSummary({ epak }: { readonly epak: EpakDetail }) {
  const { t } = useTranslation();
  const policyName = usePolicyName();
  return (
    <Card withBorder padding="md" component="section" aria-label={t('compose.draft.summary')}>
      <Stack gap="sm">
        <Group gap="xs" wrap="wrap">
          <Title order={2} size="h4" style={{ overflowWrap: 'anywhere' }}>
            {epak.subject}
          </Title>
          <Badge variant="light" color="gray" tt="none">
            {t(`compose.status.${epak.status}`)}
          </Badge>
          <Badge variant="outline" color="gray" tt="none" title={t(`compose.policies.${epak.signingPolicy}.about`)}>
            {policyName(epak.signingPolicy)}
          </Badge>
        </Group>
        {epak.message && (
          <Text size="sm" c="dimmed" style={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>
            {epak.message}
          </Text>
        )}
        <Text size="sm">{t('workflows.list.signers', { count: epak.signerCount })}</Text>
        <Title order={3} size="h5">
          {t('compose.documents.heading')}
        </Title>
        <DraftDocumentList epak={epak} />
        <Title order={3} size="h5">
          {t('workflows.form.stepsHeading')}
        </Title>
        <DraftStepList epak={epak} />
      </Stack>
    </Card>
  );
}
