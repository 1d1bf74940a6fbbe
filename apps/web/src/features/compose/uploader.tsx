import {
  Badge,
  Button,
  FileButton,
  Group,
  Loader,
  Paper,
  Stack,
  Text,
} from '@mantine/core';
import {
  ResponseCode,
  uploadDocument,
  type DocumentSummary,
} from '@pakt/domain';
import { useQueryClient } from '@tanstack/react-query';
import type { ParseKeys } from 'i18next';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, callApi } from '../../api/client';
import { useSession } from '../../api/session-store';
import { CheckIcon, PlusIcon } from '../../ui/icons';
import { useFileDrop } from '../../ui/use-file-drop';
import { composeQueryKeys } from './queries';

/** A refusal's headline; the server's own message says which rule the file broke. */
export function uploadRefusal(error: unknown): { reason: ParseKeys; detail?: string } {
  if (!(error instanceof ApiError)) return { reason: 'compose.upload.failed' };
  if (error.httpStatus === 0) return { reason: 'common.unreachable' };
  const reasons: Partial<Record<number, ParseKeys>> = {
    [ResponseCode.INVALID_DOCUMENT.code]: 'compose.upload.invalid',
    [ResponseCode.INVALID_CHARACTER_IN_FILENAME.code]: 'compose.upload.badName',
    [ResponseCode.DOCUMENT_EXTENSION_NOT_ENABLED.code]: 'compose.upload.badFormat',
    [ResponseCode.DOCUMENT_CONVERSION_FAILED.code]: 'compose.upload.conversion',
  };
  return { reason: reasons[error.code] ?? 'compose.upload.failed', ...(error.message ? { detail: error.message } : {}) };
}

/** Several files picked at once go up one after the other, each with its own line of progress. */
export function Uploader({ onUploaded }: { readonly onUploaded: (document: DocumentSummary) => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const session = useSession();
  const [items, setItems] = useState<UploadItem[]>([]);
  const [busy, setBusy] = useState(false);
  const resetPicker = useRef<() => void>(null);
  const serial = useRef(0);

  const update = (key: number, next: UploadItem) => setItems((current) => current.map((item) => (item.key === key ? next : item)));

  const onPick = async (files: File[]) => {
    resetPicker.current?.();
    if (files.length === 0) return;
    const queued = files.map((file) => ({ file, item: { key: ++serial.current, name: file.name, status: 'waiting' as const } }));
    setItems((current) => [...current, ...queued.map((entry) => entry.item)]);
    setBusy(true);
    for (const { file, item } of queued) {
      update(item.key, { ...item, status: 'uploading' });
      try {
        const document = await callApi(uploadDocument, { files: { file } }, { failures: 'caller' });
        update(item.key, { key: item.key, name: document.name, status: 'done', pages: document.pageCount });
        onUploaded(document);
      } catch (error) {
        update(item.key, { key: item.key, name: item.name, status: 'refused', ...uploadRefusal(error) });
      }
    }
    setBusy(false);
    void queryClient.invalidateQueries({ queryKey: composeQueryKeys.allDocuments(session?.tenantUuid) });
  };

  const drop = useFileDrop((files) => {
    if (!busy) void onPick(files);
  });
  return (
    <Stack gap="sm">
      <Group gap="sm" p="sm" data-testid="upload-drop-zone" {...drop}>
        <FileButton onChange={(files) => void onPick(files)} multiple resetRef={resetPicker}>
          {(props) => (
            <Button {...props} leftSection={<PlusIcon size={16} />} loading={busy}>
              {t('compose.upload.choose')}
            </Button>
          )}
        </FileButton>
        <Text size="sm" c="dimmed">
          {t('compose.upload.hint')} {t('compose.upload.drop')}
        </Text>
      </Group>
      {items.length > 0 && (
        <Stack component="ul" gap={6} m={0} p={0} style={{ listStyle: 'none' }} aria-label={t('compose.upload.list')}>
          {items.map((item) => (
            <Paper component="li" key={item.key} withBorder px="sm" py={6} radius="sm">
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
                      {t('compose.upload.uploading')}
                    </Text>
                  </Group>
                )}
                {item.status === 'done' && (
                  <Badge variant="light" color="teal" tt="none" leftSection={<CheckIcon size={12} />} style={{ flexShrink: 0 }}>
                    {t('compose.upload.done', { count: item.pages })}
                  </Badge>
                )}
                {item.status === 'refused' && (
                  <Badge variant="light" color="red" tt="none" style={{ flexShrink: 0 }}>
                    {t('compose.upload.refused')}
                  </Badge>
                )}
              </Group>
              {item.status === 'refused' && (
                <Text size="xs" c="red" mt={4} role="alert">
                  {t(item.reason)}
                  {item.detail ? ` ${item.detail}` : ''}
                </Text>
              )}
            </Paper>
          ))}
        </Stack>
      )}
    </Stack>
  );
}

type UploadItem =
  | { readonly key: number; readonly name: string; readonly status: 'waiting' | 'uploading' }
  | { readonly key: number; readonly name: string; readonly status: 'done'; readonly pages: number }
  | { readonly key: number; readonly name: string; readonly status: 'refused'; readonly reason: ParseKeys; readonly detail?: string };
