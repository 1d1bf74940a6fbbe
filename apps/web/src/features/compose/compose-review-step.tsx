import { Alert, Button, Card, Group, Loader, Stack, Text, Title } from '@mantine/core';
import type { EpakDetail } from '@pakt/domain';
import { useTranslation } from 'react-i18next';
import { SaveAsTemplate } from '../document-templates';
import { CheckIcon } from '../../ui/icons';
import { DraftSummary } from './draft-view';
import type { useDraftTags } from './queries';
import { missingForSend, type MissingItem } from './send-checklist';
import { StartEpakButton } from './start-epak-button';

function useMissingText() {
  const { t } = useTranslation();
  return (item: MissingItem): string => {
    switch (item.kind) {
      case 'signatureField':
        return t('compose.review.noSignatureField', { name: item.name, email: item.email, step: item.stepOrder });
      case 'reasonField':
        return t('compose.review.reasonMissing', { name: item.name ?? t('compose.review.unassignedSigner'), document: item.documentName });
      case 'notInWorkflow':
        return t('compose.start.notInWorkflow', { email: item.email });
      case 'unassigned':
        return t('compose.start.unassigned', { count: item.count });
      case 'layout':
        return t('compose.review.layout', { count: item.count, document: item.documentName });
    }
  };
}

/**
 * Review and send: what the draft holds, what still keeps it from going (each with the way to
 * the step that fixes it), and Send, which waits until nothing is missing.
 */
export function ComposeReviewStep({
  epak,
  tags,
  onFix,
  onStarted,
}: {
  readonly epak: EpakDetail;
  readonly tags: ReturnType<typeof useDraftTags>;
  readonly onFix: () => void;
  readonly onStarted: (started: EpakDetail) => void;
}) {
  const { t } = useTranslation();
  const text = useMissingText();
  const missing = tags.isPending || tags.isError ? [] : missingForSend(epak, tags.tags);
  return (
    <Stack gap="lg">
      <Card withBorder padding="md" component="section" aria-labelledby="compose-review-heading">
        <Stack gap="sm">
          <Title order={2} size="h4" id="compose-review-heading">
            {t('compose.review.heading')}
          </Title>
          {tags.isPending ? (
            <Loader size="sm" aria-label={t('compose.review.checking')} />
          ) : tags.isError ? (
            <Alert color="red" variant="light" role="alert" title={t('compose.review.checkFailed')}>
              <Button variant="light" color="red" size="xs" mt="xs" loading={tags.isFetching} onClick={() => void tags.refetch()}>
                {t('workflows.retry')}
              </Button>
            </Alert>
          ) : missing.length === 0 ? (
            <Group gap="xs" wrap="nowrap" role="status">
              <Text c="teal" component="span" display="flex" aria-hidden>
                <CheckIcon size={18} />
              </Text>
              <Text size="sm">{t('compose.review.ready')}</Text>
            </Group>
          ) : (
            <Alert color="yellow" variant="light" title={t('compose.review.missingTitle', { count: missing.length })} data-testid="compose-missing">
              <Stack component="ul" gap={6} m={0} p={0} style={{ listStyle: 'none' }} aria-label={t('compose.review.missingTitle', { count: missing.length })}>
                {missing.map((item) => {
                  const said = text(item);
                  return (
                    <Group component="li" key={said} gap="xs" justify="space-between" wrap="nowrap">
                      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                        {said}
                      </Text>
                      <Button variant="light" size="compact-sm" style={{ flexShrink: 0 }} aria-label={t('compose.review.fixThis', { problem: said })} onClick={onFix}>
                        {t('compose.review.fix')}
                      </Button>
                    </Group>
                  );
                })}
              </Stack>
            </Alert>
          )}
        </Stack>
      </Card>
      <DraftSummary epak={epak} />
      <StartEpakButton epak={epak} blocked={missing.length > 0} onStarted={onStarted} onFix={onFix} />
      <SaveAsTemplate epak={epak} />
    </Stack>
  );
}
