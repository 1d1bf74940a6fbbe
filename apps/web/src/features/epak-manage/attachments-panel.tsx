import { Alert, Button, FileButton, Group, Stack, Text } from '@mantine/core';
import { attachToEpak, downloadEpakAttachment, EPAK_ATTACHMENT_MAX_BYTES, type EpakAttachment } from '@pakt/domain';
import { useMutation, type UseQueryResult } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../ui/dates';
import { saveBlob } from '../../ui/save-blob';
import { useSigningApi } from '../../api/signing-api';
import { SidePanel } from '../../ui/side-panel';
import type { ManageAbilities } from './manage-abilities';
import { manageErrorMessage } from './manage-errors';
import type { Notice } from './recipient-timeline';
import { useEpakAction } from './use-manage-data';

/** "1.2 MB", "340 KB": enough to tell a scan from a note. */
function sizeText(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/**
 * Files attached to the ePak (by signers to their attachment fields, or to the ePak as a whole):
 * each downloadable, and the owner may attach a supporting file while it is under way.
 */
export function AttachmentsPanel({
  ePakId,
  attachments,
  abilities,
  onNotice,
}: {
  readonly ePakId: string;
  readonly attachments: UseQueryResult<{ attachments: EpakAttachment[] }>;
  readonly abilities: ManageAbilities;
  readonly onNotice: Notice;
}) {
  const { t, i18n } = useTranslation();
  const { callApi } = useSigningApi();
  const fetchOne = useMutation({
    mutationFn: async (attachment: EpakAttachment) => callApi(downloadEpakAttachment, { params: { ePakId, attachmentId: attachment.attachmentId } }, { failures: 'caller' }),
    onSuccess: (blob, attachment) => saveBlob(blob, attachment.name),
  });
  const upload = useEpakAction(ePakId, (file: File) => callApi(attachToEpak, { params: { ePakId }, files: { file } }, { failures: 'caller' }), {
    onSuccess: (answer) => onNotice(t('epakManage.notices.attached', { name: answer.name })),
  });
  const list = attachments.data?.attachments ?? [];
  const [tooLarge, setTooLarge] = useState<string | null>(null);
  const failure = fetchOne.error ?? upload.error ?? attachments.error;
  return (
    <SidePanel title={t('epakManage.attachments.heading')} intro={t('epakManage.attachments.intro')} testId="manage-attachments">
      {attachments.isSuccess && list.length === 0 && (
        <Text size="sm" c="dimmed">
          {t('epakManage.attachments.none')}
        </Text>
      )}
      <Stack component="ul" gap={4} m={0} p={0} style={{ listStyle: 'none' }}>
        {list.map((attachment) => (
          <Group component="li" key={attachment.attachmentId} gap="xs" justify="space-between" wrap="nowrap" data-testid="manage-attachment">
            <Stack gap={0} style={{ minWidth: 0 }}>
              <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                {attachment.name}
              </Text>
              <Text size="xs" c="dimmed">
                {sizeText(attachment.size)} · {formatDateTime(attachment.createdOn, i18n.language)}
              </Text>
            </Stack>
            <Button
              size="compact-sm"
              variant="default"
              style={{ flexShrink: 0 }}
              onClick={() => fetchOne.mutate(attachment)}
              loading={fetchOne.isPending && fetchOne.variables.attachmentId === attachment.attachmentId}
              aria-label={t('epakManage.attachments.downloadOne', { name: attachment.name })}
              data-testid="manage-attachment-download"
            >
              {t('epakManage.attachments.download')}
            </Button>
          </Group>
        ))}
      </Stack>
      {abilities.attach && (
        <FileButton
          onChange={(file) => {
            setTooLarge(null);
            if (!file) return;
            // Refused here rather than after the whole file has travelled to the server.
            if (file.size > EPAK_ATTACHMENT_MAX_BYTES) return setTooLarge(file.name);
            upload.mutate(file);
          }}
        >
          {(props) => (
            <Button {...props} variant="light" w="fit-content" loading={upload.isPending} data-testid="manage-attach">
              {t('epakManage.attachments.attach')}
            </Button>
          )}
        </FileButton>
      )}
      {(tooLarge || failure) && (
        <Alert color="red" variant="light" role="alert" p="xs" data-testid="manage-attachments-error">
          {tooLarge ? t('epakManage.attachments.tooLarge', { name: tooLarge, size: sizeText(EPAK_ATTACHMENT_MAX_BYTES) }) : manageErrorMessage(t, failure)}
        </Alert>
      )}
    </SidePanel>
  );
}
