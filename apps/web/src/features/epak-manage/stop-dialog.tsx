import { Alert, Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { setEpakStatus } from '@pakt/domain';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSigningApi } from '../../api/signing-api';
import { dialogTestId } from './confirm-dialog';
import { manageErrorMessage } from './manage-errors';
import { useEpakAction } from './use-manage-data';

/** setEpakStatus keeps a comment of up to 2,000 characters. */
const REASON_MAX_LENGTH = 2000;

/**
 * Stopping (voiding) ends the ePak for everyone and cannot be undone, so it is confirmed here with
 * a reason: the reason goes into the activity log, and the timeline shows it as the ePak's end.
 */
export function StopDialog({ ePakId, opened, onClose, onStopped }: { readonly ePakId: string; readonly opened: boolean; readonly onClose: () => void; readonly onStopped: () => void }) {
  const { t } = useTranslation();
  const { callApi } = useSigningApi();
  const [reason, setReason] = useState('');
  const [missing, setMissing] = useState(false);
  const stop = useEpakAction(ePakId, (comment: string) => callApi(setEpakStatus, { body: { ePakId, status: 'Stopped', comment } }, { failures: 'caller' }), {
    onSuccess: () => {
      setReason('');
      onStopped();
    },
  });
  const close = () => {
    stop.reset();
    setMissing(false);
    onClose();
  };
  const confirm = () => {
    const text = reason.trim();
    if (!text) return setMissing(true);
    stop.mutate(text);
  };
  return (
    <Modal opened={opened} onClose={close} title={t('epakManage.stop.title')} centered attributes={dialogTestId('manage-stop-dialog')}>
      <Stack gap="sm">
        <Text size="sm">{t('epakManage.stop.intro')}</Text>
        <Textarea
          label={t('epakManage.stop.reason')}
          required
          rows={3}
          maxLength={REASON_MAX_LENGTH}
          value={reason}
          error={missing ? t('epakManage.stop.reasonRequired') : undefined}
          data-autofocus
          data-testid="manage-stop-reason"
          onChange={(event) => {
            setReason(event.currentTarget.value);
            if (event.currentTarget.value.trim()) setMissing(false);
          }}
        />
        {stop.isError && (
          <Alert color="red" variant="light" role="alert" p="xs" data-testid="manage-dialog-error">
            {manageErrorMessage(t, stop.error)}
          </Alert>
        )}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={close} disabled={stop.isPending}>
            {t('epakManage.cancel')}
          </Button>
          <Button color="red" onClick={confirm} loading={stop.isPending} data-testid="manage-stop-dialog-confirm">
            {t('epakManage.stop.confirm')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
