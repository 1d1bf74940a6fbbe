import { Alert, Button, Group, Modal, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { delegateEpak, EmailAddress } from '@pakt/domain';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSigningApi } from '../../api/signing-api';
import { dialogTestId } from './confirm-dialog';
import { manageErrorMessage } from './manage-errors';
import { useEpakAction } from './use-manage-data';

/**
 * The owner who is also a recipient of the step under way hands their own place to someone else
 * (delegateEpak: the server delegates only the caller's place). The delegate is mailed, and the
 * delegation can be taken back from the timeline until they act.
 */
export function DelegateDialog({ ePakId, opened, onClose, onDone }: { readonly ePakId: string; readonly opened: boolean; readonly onClose: () => void; readonly onDone: (email: string) => void }) {
  const { t } = useTranslation();
  const { callApi } = useSigningApi();
  const [email, setEmail] = useState('');
  const [comment, setComment] = useState('');
  const [invalid, setInvalid] = useState(false);
  const delegate = useEpakAction(ePakId, (input: { email: string; comment?: string }) => callApi(delegateEpak, { params: { ePakId }, body: input }, { failures: 'caller' }), {
    onSuccess: (answer) => {
      setEmail('');
      setComment('');
      onDone(answer.delegate.email);
    },
  });
  const close = () => {
    delegate.reset();
    setInvalid(false);
    onClose();
  };
  const confirm = () => {
    const address = email.trim().toLowerCase();
    if (!EmailAddress.safeParse(address).success) return setInvalid(true);
    delegate.mutate({ email: address, ...(comment.trim() ? { comment: comment.trim() } : {}) });
  };
  return (
    <Modal opened={opened} onClose={close} title={t('epakManage.delegate.title')} centered attributes={dialogTestId('manage-delegate-dialog')}>
      <Stack gap="sm">
        <Text size="sm">{t('epakManage.delegate.intro')}</Text>
        <TextInput
          type="email"
          label={t('epakManage.delegate.email')}
          required
          value={email}
          error={invalid ? t('common.emailInvalid') : undefined}
          data-autofocus
          data-testid="manage-delegate-email"
          onChange={(event) => {
            setEmail(event.currentTarget.value);
            setInvalid(false);
          }}
        />
        <Textarea label={t('epakManage.delegate.comment')} rows={2} maxLength={2000} value={comment} onChange={(event) => setComment(event.currentTarget.value)} />
        {delegate.isError && (
          <Alert color="red" variant="light" role="alert" p="xs" data-testid="manage-dialog-error">
            {manageErrorMessage(t, delegate.error)}
          </Alert>
        )}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={close} disabled={delegate.isPending}>
            {t('epakManage.cancel')}
          </Button>
          <Button onClick={confirm} loading={delegate.isPending} data-testid="manage-delegate-dialog-confirm">
            {t('epakManage.delegate.confirm')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
