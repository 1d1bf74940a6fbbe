import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  Loader,
  Paper,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import {
  type EpakDetail,
} from '@pakt/domain';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client';
import { useSession } from '../../api/session-store';
import { TagEditor } from '../tag-editor';
import { SaveAsTemplate } from '../document-templates';
import { StartEpakButton } from './start-epak-button';
import { STATE_TYPE_COLORS } from '../workflows';
import { composeQueryKeys, useEpak } from './queries';

/** A saved draft, as the server keeps it. */
export function DraftView({ ePakId }: { readonly ePakId: string }) {
  const { t } = useTranslation();
  const session = useSession();
  const queryClient = useQueryClient();
  // The server sends what is saved: fields still only in the editor would silently be left out.
  const [unsaved, setUnsaved] = useState(false);
  const epak = useEpak(ePakId);
  if (epak.isPending) return <Loader size="sm" aria-label={t('compose.draft.loading')} />;
  if (epak.isError) {
    const missing = epak.error instanceof ApiError && (epak.error.httpStatus === 404 || epak.error.httpStatus === 400);
    return (
      <Alert color="red" variant="light" role="alert" title={t(missing ? 'compose.draft.notFound' : 'compose.draft.loadFailed')}>
        {!missing && (
          <Button variant="light" color="red" size="xs" mt="xs" onClick={() => void epak.refetch()} loading={epak.isFetching}>
            {t('workflows.retry')}
          </Button>
        )}
      </Alert>
    );
  }
  return (
    <Stack gap="lg">
      <DraftSummary epak={epak.data} />
      {/* Tags are placed while the ePak is a draft; the server refuses them afterwards. */}
      {epak.data.status === 'Draft' && <TagEditor epak={epak.data} onUnsavedChange={setUnsaved} />}
      <StartEpakButton
        epak={epak.data}
        unsavedFields={unsaved}
        onStarted={(started) => queryClient.setQueryData(composeQueryKeys.epak(session?.tenantUuid, ePakId), started)}
      />
      <SaveAsTemplate epak={epak.data} unsavedFields={unsaved} />
    </Stack>
  );
}

export function DraftSummary({ epak }: { readonly epak: EpakDetail }) {
  const { t } = useTranslation();
  return (
    <Stack gap="md">
      {epak.status === 'Draft' && (
        <Alert color="blue" variant="light" role="status" title={t('compose.draft.saved')}>
          {t('compose.draft.tagsNext')}
        </Alert>
      )}
      <Card withBorder padding="md" component="section" aria-label={t('compose.draft.summary')}>
        <Stack gap="sm">
          <Group gap="xs" wrap="wrap">
            <Title order={2} size="h4" style={{ overflowWrap: 'anywhere' }}>
              {epak.subject}
            </Title>
            <Badge variant="light" color="gray" tt="none">
              {t(`compose.status.${epak.status}`)}
            </Badge>
            <Badge variant="outline" color="gray" tt="none">
              {epak.signingPolicy}
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
          <Stack component="ol" gap={4} m={0} pl="lg" aria-label={t('compose.documents.heading')}>
            {epak.documents.map((document) => (
              <li key={document.documentId}>
                <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                  {document.name} · {t('compose.documents.pages', { count: document.pageCount })}
                </Text>
              </li>
            ))}
          </Stack>

          <Title order={3} size="h5">
            {t('workflows.form.stepsHeading')}
          </Title>
          <Stack component="ol" gap="xs" m={0} p={0} style={{ listStyle: 'none' }} aria-label={t('workflows.form.stepsHeading')}>
            {epak.steps.map((step) => (
              <Paper component="li" key={step.order} withBorder px="sm" py={8} radius="sm" aria-label={t('workflows.form.step', { number: step.order })}>
                <Group gap="xs" mb={4} wrap="wrap">
                  <Text size="sm" fw={600}>
                    {t('workflows.form.step', { number: step.order })}
                  </Text>
                  <Badge variant="light" color={STATE_TYPE_COLORS[step.type]} tt="none">
                    {step.name}
                  </Badge>
                </Group>
                <Stack component="ul" gap={2} m={0} pl="md">
                  {step.recipients.map((recipient) => (
                    <li key={recipient.recipientId}>
                      <Group gap="xs" wrap="wrap">
                        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                          {recipient.email}
                        </Text>
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
        </Stack>
      </Card>
    </Stack>
  );
}
