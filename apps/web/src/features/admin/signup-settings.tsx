import { Alert, Button, Card, Group, Loader, Stack, Switch, Text, Title } from '@mantine/core';
import { getInstallSettings, type InstallSettingsView, updateInstallSettings } from '@pakt/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { callApi } from '../../api/client';
import { publicQueryKeys } from '../../api/public-queries';
import { rootQueryKeys } from './queries';

/**
 * Root's switch for self sign-up. Off by default on an install that delivers no mail, since
 * whoever signs up confirms their address by mail; the card says so, and root may still switch
 * it on (the confirmation links then wait in the outbox for root to pass on).
 */
export function SignupSettings() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const settings = useQuery({
    queryKey: rootQueryKeys.settings,
    // The card says itself when the settings cannot be read; the rest of the console stays.
    queryFn: ({ signal }) => callApi(getInstallSettings, undefined, { signal, failures: 'caller' }),
  });
  const save = useMutation({
    mutationFn: (signup: boolean | null) => callApi(updateInstallSettings, { body: { signup } }, { failures: 'caller' }),
    onSuccess: async (view: InstallSettingsView) => {
      queryClient.setQueryData(rootQueryKeys.settings, view);
      // The login page offers sign-up from the public configuration.
      await queryClient.invalidateQueries({ queryKey: publicQueryKeys.configuration });
    },
  });

  let body;
  if (settings.isPending) body = <Loader size="sm" aria-label={t('root.signup.title')} />;
  else if (settings.isError) {
    body = (
      <Alert color="red" variant="light" role="alert">
        {t('root.signup.loadFailed')}
      </Alert>
    );
  } else {
    const { signup, mailDelivery } = settings.data;
    const state = (on: boolean) => t(on ? 'root.signup.on' : 'root.signup.off');
    body = (
      <Stack gap="xs">
        <Switch
          checked={signup.enabled}
          disabled={save.isPending}
          onChange={(event) => save.mutate(event.currentTarget.checked)}
          label={t('root.signup.label')}
          description={t(mailDelivery === 'smtp' ? 'root.signup.smtp' : 'root.signup.noMail')}
        />
        <Group gap="xs" justify="space-between" wrap="wrap">
          <Text size="xs" c="dimmed">
            {signup.chosen === null ? t('root.signup.default') : t('root.signup.chosen', { state: state(signup.byDefault) })}
          </Text>
          {signup.chosen !== null && (
            <Button size="compact-xs" variant="subtle" onClick={() => save.mutate(null)} loading={save.isPending}>
              {t('root.signup.reset')}
            </Button>
          )}
        </Group>
        {save.isError && (
          <Alert color="red" variant="light" role="alert">
            {t('root.signup.failed')}
          </Alert>
        )}
      </Stack>
    );
  }
  return (
    <Card withBorder padding="lg" component="section" aria-label={t('root.signup.title')}>
      <Stack gap="sm">
        <Title order={2} size="h4">
          {t('root.signup.title')}
        </Title>
        {body}
      </Stack>
    </Card>
  );
}
