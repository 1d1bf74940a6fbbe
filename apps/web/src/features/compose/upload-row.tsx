import { ActionIcon, Badge, Group, Loader, Paper, Progress, Stack, Text } from '@mantine/core';
import { bytesToMegabytes } from '@pakt/domain';
import type { ParseKeys } from 'i18next';
import { useTranslation } from 'react-i18next';
import { CheckIcon, XIcon } from '../../ui/icons';

export type UploadItem =
  | { readonly key: number; readonly name: string; readonly status: 'waiting' }
  /** `total` null: the browser cannot tell the size, so only the bytes sent are shown. */
  | { readonly key: number; readonly name: string; readonly status: 'uploading'; readonly loaded: number; readonly total: number | null }
  | { readonly key: number; readonly name: string; readonly status: 'done'; readonly pages: number }
  | { readonly key: number; readonly name: string; readonly status: 'refused'; readonly reason: ParseKeys; readonly detail?: string };

const megabytes = (bytes: number) => bytesToMegabytes(bytes).toFixed(1);

/** One upload's line: waiting, its bytes going, the server reading it, done, or refused (dismissable). */
export function UploadRow({ item, onDismiss }: { readonly item: UploadItem; readonly onDismiss: () => void }) {
  const { t } = useTranslation();
  // Every byte sent, the server is still reading (or converting) the file: that can take a while.
  const reading = item.status === 'uploading' && item.total !== null && item.loaded >= item.total;
  const percent = item.status === 'uploading' && item.total ? Math.min(100, Math.round((item.loaded / item.total) * 100)) : 0;
  return (
    <Paper component="li" withBorder px="sm" py={6} radius="sm" data-status={item.status}>
      <Group gap="xs" wrap="nowrap" justify="space-between">
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {item.name}
        </Text>
        {item.status === 'waiting' && (
          <Badge variant="light" color="gray" tt="none" style={{ flexShrink: 0 }}>
            {t('compose.upload.waiting')}
          </Badge>
        )}
        {item.status === 'uploading' && (
          <Group gap={6} wrap="nowrap" style={{ flexShrink: 0 }}>
            <Loader size="xs" />
            <Text size="xs" c="dimmed">
              {reading ? t('compose.upload.reading') : t('compose.upload.uploading')}
            </Text>
          </Group>
        )}
        {item.status === 'done' && (
          <Badge variant="light" color="teal" tt="none" leftSection={<CheckIcon size={12} />} style={{ flexShrink: 0 }}>
            {t('compose.upload.done', { count: item.pages })}
          </Badge>
        )}
        {item.status === 'refused' && (
          <Group gap={4} wrap="nowrap" style={{ flexShrink: 0 }}>
            <Badge variant="light" color="red" tt="none">
              {t('compose.upload.refused')}
            </Badge>
            <ActionIcon variant="subtle" color="gray" size="sm" aria-label={t('compose.upload.dismiss', { name: item.name })} onClick={onDismiss}>
              <XIcon size={14} />
            </ActionIcon>
          </Group>
        )}
      </Group>
      {item.status === 'uploading' && !reading && (
        <Stack gap={2} mt={4}>
          {item.total !== null && <Progress value={percent} size="sm" aria-label={t('compose.upload.progressOf', { name: item.name })} />}
          <Text size="xs" c="dimmed" data-testid="upload-progress">
            {item.total !== null
              ? t('compose.upload.progress', { percent, sent: megabytes(item.loaded), total: megabytes(item.total) })
              : t('compose.upload.progressUnknown', { sent: megabytes(item.loaded) })}
          </Text>
        </Stack>
      )}
      {item.status === 'refused' && (
        <Text size="xs" c="red" mt={4} role="alert">
          {t(item.reason)}
          {item.detail ? ` ${item.detail}` : ''}
        </Text>
      )}
    </Paper>
  );
}
