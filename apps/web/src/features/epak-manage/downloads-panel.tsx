import { Alert, Button, Stack, Text } from '@mantine/core';
import { CERTIFICATE_FILE_NAME, downloadEpak, downloadEpakCertificate, downloadEpakDocument, type EpakDetail } from '@pakt/domain';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { saveBlob } from '../../ui/save-blob';
import { useSigningApi } from '../../api/signing-api';
import { SidePanel } from '../../ui/side-panel';
import { ENDED_STATUSES } from './manage-abilities';
import { manageErrorMessage } from './manage-errors';

/** A file name from a subject or document name: nothing a file system refuses, never empty. */
export function safeFileName(name: string, type: string): string {
  const stem =
    name
      .replace(/\.pdf$/i, '')
      .replace(/[\\/:*?"<>|\p{Cc}]+/gu, '_')
      .replace(/^[.\s]+/, '')
      .trim()
      .slice(0, 120) || 'epak';
  return `${stem}.${type.includes('zip') ? 'zip' : 'pdf'}`;
}

type Wanted = { readonly kind: 'all' } | { readonly kind: 'certificate' } | { readonly kind: 'document'; readonly documentId: string; readonly name: string };

/**
 * What the owner takes away: everything at once (one document's PDF while it is under way, else a
 * zip with the certificate once it has ended), each document as it stands now, and the sealed
 * certificate of completion on its own once the ePak has ended. The calls carry the session, so
 * the bytes are fetched and handed to the browser rather than followed as links.
 */
export function DownloadsPanel({ epak }: { readonly epak: EpakDetail }) {
  const { t } = useTranslation();
  const { callApi } = useSigningApi();
  const ePakId = epak.ePakId;
  const download = useMutation({
    mutationFn: async (wanted: Wanted) => {
      if (wanted.kind === 'all') return { blob: await callApi(downloadEpak, { params: { ePakId } }, { failures: 'caller' }), name: epak.subject };
      if (wanted.kind === 'certificate') return { blob: await callApi(downloadEpakCertificate, { params: { ePakId } }, { failures: 'caller' }), name: CERTIFICATE_FILE_NAME };
      return { blob: await callApi(downloadEpakDocument, { params: { ePakId, documentId: wanted.documentId } }, { failures: 'caller' }), name: wanted.name };
    },
    onSuccess: ({ blob, name }) => saveBlob(blob, safeFileName(name, blob.type)),
  });
  const busy = (wanted: Wanted) =>
    download.isPending && download.variables.kind === wanted.kind && (wanted.kind !== 'document' || (download.variables.kind === 'document' && download.variables.documentId === wanted.documentId));
  const ended = ENDED_STATUSES.includes(epak.status);
  const all: Wanted = { kind: 'all' };
  const certificate: Wanted = { kind: 'certificate' };
  return (
    <SidePanel title={t('epakManage.downloads.heading')} intro={t(ended ? 'epakManage.downloads.introEnded' : 'epakManage.downloads.introUnderWay')} testId="manage-downloads">
      <Stack gap={6}>
        <Button variant="light" onClick={() => download.mutate(all)} loading={busy(all)} data-testid="manage-download-all">
          {t('epakManage.downloads.all')}
        </Button>
        {ended && (
          <Button variant="default" onClick={() => download.mutate(certificate)} loading={busy(certificate)} data-testid="manage-download-certificate">
            {t('epakManage.downloads.certificate')}
          </Button>
        )}
        <Text size="xs" fw={600} c="dimmed" mt={4}>
          {t('epakManage.downloads.documents')}
        </Text>
        {epak.documents.map((document) => {
          const wanted: Wanted = { kind: 'document', documentId: document.documentId, name: document.name };
          return (
            <Button
              key={document.documentId}
              variant="subtle"
              justify="flex-start"
              onClick={() => download.mutate(wanted)}
              loading={busy(wanted)}
              data-testid="manage-download-document"
              h="auto"
              mih={30}
              styles={{ label: { whiteSpace: 'normal', overflowWrap: 'anywhere', textAlign: 'start' } }}
            >
              {document.name}
            </Button>
          );
        })}
      </Stack>
      {download.isError && (
        <Alert color="red" variant="light" role="alert" p="xs" data-testid="manage-download-error">
          {manageErrorMessage(t, download.error)}
        </Alert>
      )}
    </SidePanel>
  );
}
