import { Alert, Button, Loader, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { verifyEmail } from '@pakt/domain';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useSearchParams } from 'react-router';
import { callApi } from '../../api/client';
import { useMailDelivered } from '../../api/public-queries';
import { useStartSession } from '../../api/session-lifecycle';
import { useCurrentTenant, useCurrentUser } from '../../api/session-store';
import { CheckIcon, MailIcon } from '../../ui/icons';

/**
 * /thanks: where sign-up ends. Straight after the form it says where the confirmation link went;
 * the link itself (`?verify=`) comes back here, confirms the address and signs the person in.
 */
export function ThanksPage() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const tenant = useCurrentTenant();
  const location = useLocation();
  const [searchParams] = useSearchParams();
  const token = searchParams.get('verify');
  const sentTo = (location.state as { verificationSentTo?: unknown } | null)?.verificationSentTo;
  const beginSession = useStartSession();
  // Without a mail server the confirmation link only reaches the outbox: never say it was mailed.
  const mailDelivered = useMailDelivered();
  const confirm = useMutation({
    mutationFn: (value: string) => callApi(verifyEmail, { body: { token: value } }, { failures: 'caller' }),
    onSuccess: (grant) => beginSession(grant),
  });
  // The link works once: React's double effects (or a re-render) must not spend it twice.
  const spent = useRef<string | null>(null);
  useEffect(() => {
    if (!token || spent.current === token) return;
    spent.current = token;
    confirm.mutate(token);
  }, [token, confirm]);
  useDocumentTitle(`${t('thanks.title')} · Pakt`);

  let body;
  let waiting = false;
  if (token && (confirm.isPending || confirm.isIdle)) {
    waiting = true;
    body = (
      <Text size="lg" c="dimmed" role="status">
        <Loader size="sm" mr="xs" />
        {t('thanks.verifying')}
      </Text>
    );
  } else if (token && confirm.isError) {
    body = (
      <Alert color="orange" variant="light" role="alert" ta="left">
        {t(mailDelivered ? 'thanks.verifyFailed' : 'thanks.verifyFailedOutbox')}
      </Alert>
    );
  } else if (user && tenant) {
    body = (
      <Text size="lg" c="dimmed">
        {t('thanks.ready', { name: user.firstName, tenant: tenant.tenantName })}
      </Text>
    );
  } else if (typeof sentTo === 'string') {
    body = (
      <>
        <Text size="lg" c="dimmed" role="status">
          {t(mailDelivered ? 'thanks.checkMail' : 'thanks.checkMailOutbox', { email: sentTo })}
        </Text>
        <Text size="sm" c="dimmed">
          {t(mailDelivered ? 'thanks.checkMailHint' : 'thanks.checkMailHintOutbox')}
        </Text>
      </>
    );
  } else {
    body = (
      <Text size="lg" c="dimmed">
        {t('thanks.generic')}
      </Text>
    );
  }

  const mailStep = typeof sentTo === 'string' && !user;
  return (
    <Stack align="center" ta="center" gap="lg" maw={560} mx="auto" py={{ base: 'lg', sm: 56 }}>
      <ThemeIcon size={72} radius="xl" variant="light" color={mailStep ? 'blue' : 'teal'}>
        {mailStep ? <MailIcon size={36} /> : <CheckIcon size={36} />}
      </ThemeIcon>
      <Stack gap="sm" align="center">
        <Title order={1} fz={{ base: 26, sm: 32 }}>
          {t('thanks.title')}
        </Title>
        {body}
      </Stack>
      {!waiting && (
        <Button component={Link} to={user ? '/' : '/login'} size="md">
          {t(user ? 'common.goHome' : 'common.signIn')}
        </Button>
      )}
    </Stack>
  );
}
