import { Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import type { EpakDetail } from '@pakt/domain';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { DraftDetailsEditor } from './draft-details-editor';
import { DraftDocumentList, DraftStepList } from './draft-view';
import { usePolicyName } from './signing-policy-picker';
import type { DraftDetailsState } from './use-draft-details';

/**
 * The first step of a saved draft. The server keeps a draft's documents as they were when it was
 * created (there is no call that changes them), so they are shown, with the way to start anew.
 */
export function DraftDocumentsStep({ epak }: { readonly epak: EpakDetail }) {
  const { t } = useTranslation();
  return (
    <Card withBorder padding="md" component="section" aria-labelledby="compose-draft-documents-heading">
      <Stack gap="sm">
        <Title order={2} size="h4" id="compose-draft-documents-heading">
          {t('compose.documents.heading')}
        </Title>
        <DraftDocumentList epak={epak} />
        <Group gap="sm" justify="space-between">
          <Text size="sm" c="dimmed" style={{ flex: '1 1 16rem' }}>
            {t('compose.flow.documentsFixed')}
          </Text>
          <Button component={Link} to="/compose" variant="default" size="compact-sm">
            {t('compose.flow.startNew')}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

/**
 * The second step of a saved draft: its steps, people and policy as saved (fixed, like its
 * documents), and the details that can still change, saved as they are typed.
 */
export function DraftRecipientsStep({ epak, details }: { readonly epak: EpakDetail; readonly details: DraftDetailsState }) {
  const { t } = useTranslation();
  const policyName = usePolicyName();
  return (
    <Stack gap="lg">
      <Card withBorder padding="md" component="section" aria-labelledby="compose-draft-workflow-heading">
        <Stack gap="sm">
          <Title order={2} size="h4" id="compose-draft-workflow-heading">
            {t('compose.workflow.heading')}
          </Title>
          <DraftStepList epak={epak} />
          <Stack gap={0}>
            <Text size="sm">
              {t('workflows.form.signingPolicy')}: <strong>{policyName(epak.signingPolicy)}</strong>
            </Text>
            <Text size="xs" c="dimmed">
              {t(`compose.policies.${epak.signingPolicy}.about`)}
            </Text>
          </Stack>
          {epak.viewEnforced && <Text size="sm">{t('compose.details.viewEnforced')}</Text>}
          <Text size="sm" c="dimmed">
            {t('compose.flow.recipientsFixed')}
          </Text>
        </Stack>
      </Card>
      <DraftDetailsEditor details={details} />
    </Stack>
  );
}
