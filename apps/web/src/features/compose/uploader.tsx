import {
  Button,
  FileButton,
  Group,
  Stack,
  Text,
} from '@mantine/core';
import { uploadDocument, type DocumentSummary } from '@pakt/domain';
import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { callApi } from '../../api/client';
import { useSession } from '../../api/session-store';
import { PlusIcon } from '../../ui/icons';
import { useFileDrop } from '../../ui/use-file-drop';
import { ConvertToPdf } from './convert-to-pdf';
import { composeQueryKeys } from './queries';
import { uploadRefusal } from './upload-refusal';
import { UploadRow, type UploadItem } from './upload-row';

/**
 * Several files picked at once go up one after the other, each with its own line: its bytes as
 * they leave, then the server reading it, then its pages or why it was refused (a refusal stays
 * until dismissed, so it is read).
 */
export function Uploader({ onUploaded }: { readonly onUploaded: (document: DocumentSummary) => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const session = useSession();
  const [items, setItems] = useState<UploadItem[]>([]);
  const [busy, setBusy] = useState(false);
  const resetPicker = useRef<() => void>(null);
  const serial = useRef(0);

  const update = (key: number, next: UploadItem) => setItems((current) => current.map((item) => (item.key === key ? next : item)));
  const dismiss = (key: number) => setItems((current) => current.filter((item) => item.key !== key));

  const onPick = async (files: File[]) => {
    resetPicker.current?.();
    if (files.length === 0) return;
    const queued = files.map((file) => ({ file, item: { key: ++serial.current, name: file.name, status: 'waiting' as const } }));
    setItems((current) => [...current, ...queued.map((entry) => entry.item)]);
    setBusy(true);
    for (const { file, item } of queued) {
      update(item.key, { key: item.key, name: item.name, status: 'uploading', loaded: 0, total: file.size || null });
      try {
        const document = await callApi(
          uploadDocument,
          { files: { file } },
          {
            failures: 'caller',
            onUploadProgress: ({ loaded, total }) => update(item.key, { key: item.key, name: item.name, status: 'uploading', loaded, total: total ?? (file.size || null) }),
          },
        );
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
            <UploadRow key={item.key} item={item} onDismiss={() => dismiss(item.key)} />
          ))}
        </Stack>
      )}
      <ConvertToPdf disabled={busy} onAdd={(file) => void onPick([file])} />
    </Stack>
  );
}
