import { Alert, Anchor, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDocumentTitle } from '@mantine/hooks';
import { EmailAddress, forgotPassword, ResponseCode } from '@pakt/domain';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiError, callApi } from '../../api/client';
import { useMailDelivered } from '../../api/public-queries';
import { rememberedUsername } from '../../api/session-store';
import { AuthCard } from '../../ui/auth-card';
import { FormError } from '../../ui/form-error';
import { RateLimitNotice, useRateLimitWait } from '../../ui/rate-limit-notice';

type ForgotMessage = 'forgotPassword.tooMany' | 'common.unreachable' | 'internalErrorMsg';

export function forgotPasswordMessage(error: unknown): ForgotMessage {
  if (error instanceof ApiError && error.code === ResponseCode.MAXIMUM_PASSWORD_RESET_ATTEMPTS.code) return 'forgotPassword.tooMany';
  if (error instanceof ApiError && error.httpStatus === 0) return 'common.unreachable';
  return 'internalErrorMsg';
}

/** /forgetpassword: asks for the email and mails a reset link (the answer never says whether it has an account). */
export function ForgotPasswordPage() {
  const { t } = useTranslation();
  const [initialValues] = useState(() => ({ email: rememberedUsername() }));
  const form = useForm({
    mode: 'controlled',
    initialValues,
    validate: {
      email: (value) => {
        const address = value.trim();
        if (!address) return t('common.required');
        if (!EmailAddress.safeParse(address).success) return t('common.emailInvalid');
        return null;
      },
    },
    // A refusal stays until the next request is tried; typing does not clear it.
    clearInputErrorOnChange: false,
  });
  const [message, setMessage] = useState<ForgotMessage | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const rateLimit = useRateLimitWait();
  // Without a mail server the link only reaches the outbox: the page says who passes it on.
  const mailDelivered = useMailDelivered();
  useDocumentTitle(`${t('forgotPassword.title')} · Pakt`);

  const request = useMutation({
    mutationFn: (address: string) => callApi(forgotPassword, { body: { email: address } }, { failures: 'caller' }),
    onSuccess: (_, address) => setSentTo(address),
    onError: (error) => {
      if (!rateLimit.refuse(error)) setMessage(forgotPasswordMessage(error));
    },
  });

  if (sentTo) {
    return (
      <AuthCard title={t(mailDelivered ? 'forgotPassword.sentTitle' : 'forgotPassword.sentTitleOutbox')} maw={440}>
        <Alert color="teal" variant="light" role="status">
          {t(mailDelivered ? 'forgotPassword.sent' : 'forgotPassword.sentOutbox', { email: sentTo })}
        </Alert>
        <Button component={Link} to="/login" size="md">
          {t('common.backToLogin')}
        </Button>
      </AuthCard>
    );
  }

  const onSubmit = form.onSubmit(
    ({ email }) => {
      setMessage(null);
      request.mutate(email.trim());
    },
    () => setMessage(null),
  );

  return (
    <AuthCard title={t('forgotPassword.title')} description={t(mailDelivered ? 'forgotPassword.intro' : 'forgotPassword.introOutbox')} maw={440}>
      <FormError message={message} />
      <RateLimitNotice wait={rateLimit.wait} />
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          <TextInput
            label={t('common.email')}
            type="email"
            inputMode="email"
            autoComplete="username"
            required
            autoFocus
            {...form.getInputProps('email')}
          />
          <Button type="submit" size="md" fullWidth loading={request.isPending} disabled={rateLimit.wait > 0}>
            {t('forgotPassword.submit')}
          </Button>
        </Stack>
      </form>
      <Group justify="center">
        <Text size="sm">
          <Anchor component={Link} to="/login">
            {t('common.backToLogin')}
          </Anchor>
        </Text>
      </Group>
    </AuthCard>
  );
}
