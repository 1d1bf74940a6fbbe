import { Alert, Button, Group, Modal, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { delegateEpak, EmailAddress, type RecipientVerification } from '@pakt/domain';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMailDelivered } from '../../api/public-queries';
import { useSigningApi } from '../../api/signing-api';
import { dialogTestId } from './confirm-dialog';
import { manageErrorMessage } from './manage-errors';
import { useEpakAction, useRefreshEpak } from './use-manage-data';
import { verificationPending } from '../../api/recipient-verification';
import { VerificationPanel } from '../../ui/verification-panel';

/**
 * The owner who is also a recipient of the step under way hands their own place to someone else
 * (delegateEpak: the server delegates only the caller's place). The delegate is mailed, and the
 * delegation can be taken back from the timeline until they act.
 */
export function DelegateDialog({
  ePakId,
  opened,
  onClose,
  onDone,
  verification,
}: {
  readonly ePakId: string;
  readonly opened: boolean;
  readonly onClose: () => void;
  readonly onDone: (email: string) => void;
  /** The caller's place's signer verification (viewer.verification): a code is confirmed before the place is handed on (-152). */
  readonly verification?: RecipientVerification | undefined;
}) {
  const { t } = useTranslation();
  // Without a mail server the delegate is not mailed: the dialog says how they learn of it.
  const mailDelivered = useMailDelivered();
  const refresh = useRefreshEpak(ePakId);
  const verifying = verificationPending(verification);
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
        <Text size="sm">{t(mailDelivered ? 'epakManage.delegate.intro' : 'epakManage.delegate.introOutbox')}</Text>
        {verifying && (
          <Stack gap="xs" data-testid="manage-delegate-verification">
            <Text size="sm" fw={500}>
              {t('signing.verification.beforeDelegating')}
            </Text>
            <VerificationPanel ePakId={ePakId} verification={verification} onVerified={() => void refresh()} framed={false} />
          </Stack>
        )}
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
          <Button onClick={confirm} loading={delegate.isPending} disabled={verifying} data-testid="manage-delegate-dialog-confirm">
            {t('epakManage.delegate.confirm')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
