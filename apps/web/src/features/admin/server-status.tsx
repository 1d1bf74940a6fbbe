import { LANGUAGES } from '@pakt/domain';
import { Alert, Badge, Button, Card, Group, Loader, SimpleGrid, Skeleton, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { usePublicAlive, usePublicConfiguration } from '../../api/public-queries';
import { formatDateTime } from '../../ui/dates';

function StatusItem({ label, children }: { readonly label: string; readonly children: ReactNode }) {
  return (
    <div>
      <Text component="dt" size="sm" c="dimmed">
        {label}
      </Text>
      <Text component="dd" m={0} fw={500} style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </div>
  );
}

/**
 * The installation's own state (version, database, server time, languages): root's business, so it
 * lives in root's console rather than on the page every visitor sees.
 */
export function ServerStatus() {
  const { t, i18n } = useTranslation();
  const alive = usePublicAlive();
  const configuration = usePublicConfiguration();

  const languageNames = configuration.data?.supportedLanguages
    .map((code) => LANGUAGES.find((language) => language.code === code)?.nativeName ?? code)
    .join(', ');

  let body: ReactNode;
  if (alive.isPending) {
    body = (
      <Group gap="sm">
        <Loader size="sm" />
        <Text c="dimmed">{t('root.server.checking')}</Text>
      </Group>
    );
  } else if (alive.isError) {
    body = (
      <Alert color="red" variant="light" title={t('root.server.unreachable')}>
        <Button variant="light" color="red" size="xs" mt="xs" loading={alive.isFetching} onClick={() => void alive.refetch()}>
          {t('root.server.retry')}
        </Button>
      </Alert>
    );
  } else {
    const serverTime = formatDateTime(alive.data.serverTime, i18n.language);
    body = (
      <SimpleGrid component="dl" cols={{ base: 1, xs: 2 }} spacing="md" verticalSpacing="sm" m={0}>
        <StatusItem label={t('root.server.version')}>{alive.data.version}</StatusItem>
        <StatusItem label={t('root.server.database')}>{t(`root.server.databaseKinds.${alive.data.database}`)}</StatusItem>
        <StatusItem label={t('root.server.serverTime')}>{serverTime}</StatusItem>
        <StatusItem label={t('root.server.languages')}>
          {languageNames ?? <Skeleton component="span" display="inline-block" h={16} w={120} />}
        </StatusItem>
      </SimpleGrid>
    );
  }

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="server-status-heading">
      <Group justify="space-between" align="center" mb="md" gap="xs">
        <Title order={2} size="h3" id="server-status-heading">
          {t('root.server.heading')}
        </Title>
        {alive.isSuccess && (
          <Badge variant="dot" color="teal" size="lg" data-testid="server-status">
            {t('root.server.up')}
          </Badge>
        )}
      </Group>
      <div aria-live="polite">{body}</div>
    </Card>
  );
}
