import { Button, Group, Stack, Text } from '@mantine/core';
import { downloadEpak, type EpakDetail } from '@pakt/domain';
import { useMutation } from '@tanstack/react-query';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { actionErrorMessage } from './sign-errors';
import { useSigningApi } from '../../api/signing-api';
import { saveBlob } from '../../ui/save-blob';

const DownloadIcon = ({ size = 16 }: { readonly size?: number }) => (
  <svg width={size} height={size} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={1.75} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
    <path d="M12 4v11M7 10l5 5 5-5M5 20h14" />
  </svg>
);

/** A file name made of the subject: nothing a file system refuses, and never empty. */
export function downloadFileName(subject: string, type: string): string {
  const stem =
    subject
      .replace(/[\\/:*?"<>|\p{Cc}]+/gu, '_')
      .replace(/^[.\s]+/, '')
      .trim()
      .slice(0, 120) || 'epak';
  return `${stem}.${type.includes('zip') ? 'zip' : 'pdf'}`;
}


/**
 * GET …/epaks/{id}/download for its owner and its recipients (a signing link too): one document
 * under way is that PDF; otherwise a zip of every document, with the certificate of completion
 * once the ePak has ended. The call carries the ceremony's session, so it is fetched and saved
 * here rather than followed as a link (a link would carry no session).
 */
export function EpakDownloadButton({ epak }: { readonly epak: EpakDetail }) {
  const { t } = useTranslation();
  const { callApi } = useSigningApi();
  const hintId = useId();
  const download = useMutation({
    mutationFn: () => callApi(downloadEpak, { params: { ePakId: epak.ePakId } }, { failures: 'caller' }),
    onSuccess: (blob) => saveBlob(blob, downloadFileName(epak.subject, blob.type)),
  });
  if (epak.status === 'Draft') return null;
  const ended = epak.status !== 'InProgress';
  return (
    <Stack gap={2} align="flex-end" style={{ marginInlineStart: 'auto' }}>
      <Group gap="xs" wrap="nowrap" justify="flex-end">
        <Text size="xs" c="dimmed" ta="right" visibleFrom="sm" id={hintId}>
          {t(ended ? 'signing.download.hintEnded' : 'signing.download.hintUnderWay')}
        </Text>
        <Button
          size="xs"
          variant="default"
          leftSection={<DownloadIcon size={14} />}
          aria-describedby={hintId}
          onClick={() => download.mutate()}
          loading={download.isPending}
          data-testid="epak-download"
          style={{ flexShrink: 0 }}
        >
          {t('signing.download.button')}
        </Button>
      </Group>
      {download.isError && (
        <Text size="xs" c="red.8" role="alert">
          {actionErrorMessage(t, download.error)}
        </Text>
      )}
    </Stack>
  );
}
