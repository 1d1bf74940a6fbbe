import { Alert, Anchor, Badge, Button, Card, Group, List, Loader, Spoiler, Stack, Text } from '@mantine/core';
import type { OutboxMessage } from '@pakt/domain';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from './dates';

const URL_PATTERN = /(https?:\/\/[^\s<>"')]+)/g;

/** Mail bodies are plain text; their links become clickable, everything else stays text. */
export function linkify(text: string): ReactNode[] {
  return text.split(URL_PATTERN).map((part, index) =>
    index % 2 === 1 ? (
      <Anchor key={index} href={part} style={{ overflowWrap: 'anywhere' }}>
        {part}
      </Anchor>
    ) : (
      part
    ),
  );
}

function MessageCard({ message, showTenant }: { readonly message: OutboxMessage; readonly showTenant: boolean }) {
  const { t, i18n } = useTranslation();
  const time = formatDateTime(message.createdAt, i18n.language);
  const state = message.lastError ? 'failed' : message.sentAt ? 'sent' : 'queued';
  return (
    <Card withBorder padding="md" component="li" aria-label={message.subject}>
      <Stack gap={6}>
        <Group justify="space-between" align="flex-start" gap="xs" wrap="nowrap">
          <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
            {message.subject}
          </Text>
          <Badge variant="light" color={state === 'failed' ? 'red' : state === 'sent' ? 'teal' : 'gray'} style={{ flexShrink: 0 }}>
            {t(`outbox.state.${state}`)}
          </Badge>
        </Group>
        <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {t('outbox.to', { recipient: message.recipient })} · <time dateTime={message.createdAt}>{time}</time>
          {showTenant && message.tenantName && <> · {t('outbox.tenant', { tenant: message.tenantName })}</>}
        </Text>
        {message.body === null ? (
          // A tenant admin never gets the text: its links and codes are the recipient's secrets.
          <Text size="sm" c="dimmed" fs="italic" data-testid="outbox-body-withheld">
            {t('outbox.bodyWithheld')}
          </Text>
        ) : (
          <Spoiler maxHeight={320} showLabel={t('outbox.showMore')} hideLabel={t('outbox.showLess')}>
            <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} data-testid="outbox-body">
              {linkify(message.body)}
            </Text>
          </Spoiler>
        )}
        {message.attachments.length > 0 && (
          <div>
            <Text size="xs" c="dimmed" id={`outbox-attachments-${message.id}`}>
              {t('outbox.attachments')}
            </Text>
            <List size="xs" aria-labelledby={`outbox-attachments-${message.id}`} style={{ overflowWrap: 'anywhere' }}>
              {message.attachments.map((attachment, index) => (
                <List.Item key={index}>{attachment.fileName}</List.Item>
              ))}
            </List>
          </div>
        )}
        {message.lastError && (
          <Text size="xs" c="red">
            {message.lastError}
          </Text>
        )}
      </Stack>
    </Card>
  );
}

/**
 * The messages of an outbox query, newest first as the server sends them. `showTenant` names each
 * message's tenant: root's outbox spans them all, while an admin's holds only their own.
 */
export function OutboxList({
  query,
  label,
  showTenant = false,
}: {
  readonly query: UseQueryResult<{ messages: OutboxMessage[] }>;
  readonly label: string;
  readonly showTenant?: boolean;
}) {
  const { t } = useTranslation();
  if (query.isPending) return <Loader size="sm" aria-label={label} />;
  if (query.isError) {
    return (
      <Alert color="red" variant="light" role="alert" title={t('outbox.loadFailed')}>
        <Button variant="light" color="red" size="xs" mt="xs" onClick={() => void query.refetch()} loading={query.isFetching}>
          {t('root.retry')}
        </Button>
      </Alert>
    );
  }
  return (
    <Stack gap="sm">
      <Group justify="space-between" gap="xs">
        <Text size="sm" c="dimmed">
          {t('outbox.count', { count: query.data.messages.length })}
        </Text>
        <Button variant="subtle" size="xs" onClick={() => void query.refetch()} loading={query.isFetching}>
          {t('outbox.refresh')}
        </Button>
      </Group>
      {query.data.messages.length === 0 ? (
        <Card withBorder padding="lg">
          <Text c="dimmed">{t('outbox.empty')}</Text>
        </Card>
      ) : (
        <Stack gap="sm" component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label={label}>
          {query.data.messages.map((message) => (
            <MessageCard key={message.id} message={message} showTenant={showTenant} />
          ))}
        </Stack>
      )}
    </Stack>
  );
}
