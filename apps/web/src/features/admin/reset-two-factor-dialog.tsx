import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { type AdminUser, resetUserTwoFactor } from '@pakt/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { callApi } from '../../api/client';
import { useCurrentTenant } from '../../api/session-store';
import { afterUserChange, userName } from './user-model';

/**
 * Asks before an administrator switches off a member's authenticator sign-in (a lost phone):
 * it weakens the account until the member sets it up again, so it is never one click in a menu.
 */
export function ResetTwoFactorDialog({
  user,
  opened,
  onClose,
  onDone,
  onFailed,
}: {
  readonly user: AdminUser;
  readonly opened: boolean;
  readonly onClose: () => void;
  readonly onDone: () => void;
  readonly onFailed: (error: unknown) => void;
}) {
  const { t } = useTranslation();
  const tenant = useCurrentTenant();
  const queryClient = useQueryClient();
  const name = userName(user);
  const reset = useMutation({
    mutationFn: () => callApi(resetUserTwoFactor, { params: { userId: user.userId } }, { failures: 'caller' }),
    onSuccess: async () => {
      onDone();
      await afterUserChange(queryClient, tenant?.tenantUuid);
    },
    onError: (error) => onFailed(error),
  });
  return (
    <Modal opened={opened} onClose={() => !reset.isPending && onClose()} title={t('users.resetTwoFactor.title', { name })} centered>
      <Stack gap="md">
        <Text size="sm">{t('users.resetTwoFactor.body', { name, email: user.email })}</Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={reset.isPending} data-autofocus>
            {t('users.resetTwoFactor.keep')}
          </Button>
          <Button color="red" loading={reset.isPending} onClick={() => reset.mutate()}>
            {t('users.resetTwoFactor.confirm')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
