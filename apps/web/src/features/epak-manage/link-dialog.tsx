import { Alert, Button, CopyButton, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { showSigningLink } from '@pakt/domain';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../ui/dates';
import { useSigningApi } from '../../api/signing-api';
import { dialogTestId } from './confirm-dialog';
import { manageErrorMessage } from './manage-errors';
import type { TimelineRecipient } from './timeline';
import { useEpakAction } from './use-manage-data';

/**
 * A recipient's signing link for the owner to hand on (issue 21). The link opens the ePak as that
 * person, so it is fetched only when the owner asks in so many words, after being told that the
 * showing goes into the ePak's activity; it lives in this dialog's memory and nowhere else.
 */
export function LinkDialog({ ePakId, recipient, onClose }: { readonly ePakId: string; readonly recipient: TimelineRecipient | null; readonly onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const { callApi } = useSigningApi();
  const show = useEpakAction(ePakId, (recipientId: string) => callApi(showSigningLink, { params: { ePakId, recipientId } }, { failures: 'caller' }));
  const close = () => {
    // The link is forgotten with the dialog: opening it again asks (and logs) afresh.
    show.reset();
    onClose();
  };
  const answer = show.data && show.data.recipientId === recipient?.recipientId ? show.data : null;
  return (
    <Modal opened={recipient !== null} onClose={close} title={t('epakManage.link.title', { name: recipient?.name ?? '' })} centered attributes={dialogTestId('manage-link-dialog')}>
      <Stack gap="sm">
        {!answer ? (
          <>
            <Text size="sm">{t('epakManage.link.intro', { name: recipient?.name ?? '', email: recipient?.email ?? '' })}</Text>
            <Alert color="yellow" variant="light" p="xs">
              {t('epakManage.link.logged')}
            </Alert>
          </>
        ) : (
          <>
            <TextInput label={t('epakManage.link.label')} value={answer.link} readOnly onFocus={(event) => event.currentTarget.select()} data-testid="manage-link-value" />
            <Text size="xs" c="dimmed">
              {t('epakManage.link.expires', { date: formatDateTime(answer.expiresOn, i18n.language) })}
            </Text>
          </>
        )}
        {show.isError && (
          <Alert color="red" variant="light" role="alert" p="xs" data-testid="manage-dialog-error">
            {manageErrorMessage(t, show.error)}
          </Alert>
        )}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={close}>
            {t(answer ? 'epakManage.close' : 'epakManage.cancel')}
          </Button>
          {answer ? (
            <CopyButton value={answer.link}>
              {({ copied, copy }) => (
                <Button color={copied ? 'teal' : undefined} onClick={copy} data-testid="manage-link-copy">
                  {t(copied ? 'epakManage.link.copied' : 'epakManage.link.copy')}
                </Button>
              )}
            </CopyButton>
          ) : (
            <Button onClick={() => recipient && show.mutate(recipient.recipientId)} loading={show.isPending} data-testid="manage-link-show">
              {t('epakManage.link.show')}
            </Button>
          )}
        </Group>
      </Stack>
    </Modal>
  );
}
