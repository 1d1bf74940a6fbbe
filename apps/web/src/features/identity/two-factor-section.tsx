import { Alert, Badge, Button, Card, Code, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { recoveryCodeStatus } from '@pakt/domain';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { FormEvent } from 'react';
import { callApi } from '../../api/client';
import { ShieldIcon } from '../../ui/icons';
import { PasswordField } from '../../ui/password-field';
import { QrCode } from '../../ui/qr-code';
import { identityQueryKeys } from './queries';
import { RecoveryCodesDialog } from './recovery-codes-dialog';
import { useTwoFactor } from './use-two-factor';

export function TwoFactorSection({ enabled }: { readonly enabled: boolean }) {
  const { t } = useTranslation();
  const { form, step, failure, notice, start, confirm, disable, regenerate, recoveryCodes, closeRecoveryCodes, begin, cancel, onStart, onConfirm, onDisable, onRegenerate } =
    useTwoFactor();
  // How many recovery codes are left, never the codes: they were shown once, when made.
  const codesLeft = useQuery({
    queryKey: identityQueryKeys.recoveryCodes,
    queryFn: ({ signal }) => callApi(recoveryCodeStatus, undefined, { signal, failures: 'caller' }),
    enabled,
  });

  const errorAlert = failure && (
    <Alert color="red" variant="light" role="alert">
      {t(failure)}
    </Alert>
  );
  const passwordField = (
    <PasswordField
      label={t('profile.twoFactor.password')}
      autoComplete="current-password"
      required
      autoFocus
      {...form.getInputProps('password')}
    />
  );

  // Starting, switching off and new recovery codes each ask for the password the same way.
  const passwordForm = (form: { onSubmit: (event?: FormEvent<HTMLFormElement>) => void; intro: string; submit: string; pending: boolean; color?: 'red' }) => (
    <form onSubmit={form.onSubmit} noValidate>
      <Stack gap="sm">
        <Text size="sm">{form.intro}</Text>
        {errorAlert}
        {passwordField}
        <Group gap="sm">
          <Button type="submit" color={form.color} loading={form.pending}>
            {form.submit}
          </Button>
          <Button variant="subtle" color="gray" onClick={cancel}>
            {t('profile.twoFactor.cancel')}
          </Button>
        </Group>
      </Stack>
    </form>
  );

  let body;
  if (step.kind === 'password') {
    body = (
      passwordForm({ onSubmit: onStart, intro: t('profile.twoFactor.passwordIntro'), submit: t('profile.twoFactor.continue'), pending: start.isPending })
    );
  } else if (step.kind === 'scan') {
    body = (
      <form onSubmit={onConfirm} noValidate>
        <Stack gap="md">
          <Text size="sm">{t('profile.twoFactor.scanIntro')}</Text>
          <Group align="flex-start" gap="lg" wrap="wrap">
            <QrCode value={step.otpauthUri} label={t('profile.twoFactor.qrLabel')} size={180} />
            <Stack gap={6} miw={0} style={{ flex: '1 1 220px' }}>
              <Text size="sm" fw={500}>
                {t('profile.twoFactor.manualEntry')}
              </Text>
              <Code block data-testid="totp-secret" style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap', fontSize: 15 }}>
                {step.secret}
              </Code>
            </Stack>
          </Group>
          {errorAlert}
          <TextInput
            label={t('authenticate.appCode')}
            description={t('authenticate.codeHint')}
            required
            autoComplete="one-time-code"
            inputMode="numeric"
            maxLength={6}
            {...form.getInputProps('code')}
            onChange={(event) => form.setFieldValue('code', event.currentTarget.value.replace(/\D/g, ''))}
            maw={260}
          />
          <Group gap="sm">
            <Button type="submit" loading={confirm.isPending}>
              {t('profile.twoFactor.confirm')}
            </Button>
            <Button variant="subtle" color="gray" onClick={cancel}>
              {t('profile.twoFactor.cancel')}
            </Button>
          </Group>
        </Stack>
      </form>
    );
  } else if (step.kind === 'disable') {
    body = (
      passwordForm({ onSubmit: onDisable, intro: t('profile.twoFactor.disableIntro'), submit: t('profile.twoFactor.disable'), pending: disable.isPending, color: 'red' as const })
    );
  } else if (step.kind === 'regenerate') {
    body = (
      passwordForm({ onSubmit: onRegenerate, intro: t('profile.recoveryCodes.regenerateIntro'), submit: t('profile.recoveryCodes.regenerate'), pending: regenerate.isPending })
    );
  } else {
    body = (
      <Group justify="space-between" gap="sm">
        <Text size="sm" c="dimmed" maw={460}>
          {t(enabled ? 'profile.twoFactor.onHint' : 'profile.twoFactor.offHint')}
        </Text>
        {enabled ? (
          <Button variant="light" color="red" onClick={() => begin('disable')}>
            {t('profile.twoFactor.disable')}
          </Button>
        ) : (
          <Button onClick={() => begin('password')}>{t('profile.twoFactor.enable')}</Button>
        )}
      </Group>
    );
  }

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="two-factor-heading">
      <Stack gap="md">
        <Group justify="space-between" gap="xs" wrap="nowrap">
          <Group gap="xs" wrap="nowrap">
            <ShieldIcon size={22} />
            <Title order={2} size="h4" id="two-factor-heading">
              {t('profile.twoFactor.heading')}
            </Title>
          </Group>
          <Badge variant="light" color={enabled ? 'teal' : 'gray'} data-testid="two-factor-status">
            {t(enabled ? 'profile.twoFactor.on' : 'profile.twoFactor.off')}
          </Badge>
        </Group>
        {notice && (
          <Alert color="teal" variant="light" role="status">
            {t(notice)}
          </Alert>
        )}
        {body}
        {enabled && step.kind === 'idle' && (
          <Group justify="space-between" gap="sm" pt="sm" style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}>
            <Stack gap={2} maw={460}>
              <Text size="sm" fw={600}>
                {t('profile.recoveryCodes.heading')}
              </Text>
              <Text size="sm" c={codesLeft.data?.remaining === 0 ? 'red' : 'dimmed'} data-testid="recovery-codes-left">
                {codesLeft.data ? t('profile.recoveryCodes.left', { count: codesLeft.data.remaining }) : t('profile.recoveryCodes.hint')}
              </Text>
            </Stack>
            <Button variant="light" onClick={() => begin('regenerate')}>
              {t('profile.recoveryCodes.regenerate')}
            </Button>
          </Group>
        )}
        {step.kind === 'scan' && (
          <Text size="xs" c="dimmed">
            {t('profile.twoFactor.appHint')}
          </Text>
        )}
      </Stack>
      <RecoveryCodesDialog codes={recoveryCodes} onClose={closeRecoveryCodes} />
    </Card>
  );
}
