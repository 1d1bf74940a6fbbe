import { Alert, Anchor, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDocumentTitle } from '@mantine/hooks';
import { authenticate, EmailAddress, ResponseCode, WEB_CLIENT_ID, type TwoFactorChallenge } from '@pakt/domain';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { ApiError, callApi } from '../../api/client';
import { useStartSession } from '../../api/session-lifecycle';
import { usePublicConfiguration } from '../../api/public-queries';
import { rememberedUsername, useSession } from '../../api/session-store';
import { challengeFrom, saveChallenge } from '../../api/two-factor';
import { pathAfterSignIn } from '../../api/access';
import { RETURN_TO_PARAM, safeReturnTo, withReturnTo } from '../../api/return-to';
import { AuthCard } from '../../ui/auth-card';
import { PasswordField } from '../../ui/password-field';
import { FormError } from '../../ui/form-error';
import { RateLimitNotice, useRateLimitWait } from '../../ui/rate-limit-notice';

/** What a refused sign-in means for the person: a message to read, or a page to go to. */
export type LoginOutcome =
  | { readonly kind: 'message'; readonly key: LoginMessageKey }
  | { readonly kind: 'redirect'; readonly to: string }
  | { readonly kind: 'twoFactor'; readonly challenge: TwoFactorChallenge };

type LoginMessageKey =
  | 'login.errors.wrongPassword'
  | 'login.errors.locked'
  | 'login.errors.notEnabled'
  | 'login.errors.licenseExpired'
  | 'login.errors.pending'
  | 'login.errors.expired'
  | 'USER_DISABLED_CONTACT_ADMIN'
  | 'common.unreachable'
  | 'internalErrorMsg'
  | 'authenticate.errors.expired'
  | 'authenticate.errors.tooManyAttempts';

/** Why /authenticate sent the person back here (`?twofactor=`). */
const TWO_FACTOR_RETURN: Record<string, LoginMessageKey> = {
  expired: 'authenticate.errors.expired',
  locked: 'authenticate.errors.tooManyAttempts',
  paused: 'login.errors.locked',
};

/** Spec section 8 applied to sign-in, where every refusal is explained on the form itself. */
export function loginOutcome(error: unknown): LoginOutcome {
  if (!(error instanceof ApiError)) return { kind: 'message', key: 'internalErrorMsg' };
  switch (error.code) {
    // An unknown email gets the same answer as a wrong password: the form must not reveal who has an account.
    case ResponseCode.INVALID_PASSWORD.code:
    case ResponseCode.WRONG_PASSWORD.code:
    case ResponseCode.USER_DOES_NOT_EXIST.code:
      return { kind: 'message', key: 'login.errors.wrongPassword' };
    case ResponseCode.USER_LOCKED.code:
      return { kind: 'message', key: 'login.errors.locked' };
    case ResponseCode.USER_DISABLED.code:
      return { kind: 'message', key: 'USER_DISABLED_CONTACT_ADMIN' };
    case ResponseCode.TRIAL_PERIOD_EXPIRED.code:
      return { kind: 'message', key: 'login.errors.licenseExpired' };
    case ResponseCode.REGISTRATION_PENDING.code:
      return { kind: 'message', key: 'login.errors.pending' };
    case ResponseCode.USER_EXPIRED.code:
      return { kind: 'message', key: 'login.errors.expired' };
    // Sign-in itself answers -73 only for an account that is not enabled at all (one whose password
    // must change signs in, to a session that can only change it): nothing to redirect to.
    case ResponseCode.USER_NOT_ENABLED.code:
      return { kind: 'message', key: 'login.errors.notEnabled' };
    case ResponseCode.TWO_FACTOR_REQUIRED.code: {
      const challenge = challengeFrom(error.data);
      return challenge ? { kind: 'twoFactor', challenge } : { kind: 'message', key: 'internalErrorMsg' };
    }
  }
  return { kind: 'message', key: error.httpStatus === 0 ? 'common.unreachable' : 'internalErrorMsg' };
}

export function LoginPage() {
  const { t } = useTranslation();
  const session = useSession();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const beginSession = useStartSession();
  const [initialValues] = useState(() => ({ email: rememberedUsername(), password: '' }));
  const form = useForm({
    mode: 'controlled',
    initialValues,
    validate: {
      email: (value) => (!value.trim() ? t('common.required') : !EmailAddress.safeParse(value).success ? t('common.emailInvalid') : null),
      password: (value) => (value ? null : t('login.passwordRequired')),
    },
    // A refusal stays until the next sign-in is tried; typing does not clear it.
    clearInputErrorOnChange: false,
  });
  const [message, setMessage] = useState<LoginMessageKey | null>(null);
  const configuration = usePublicConfiguration();
  const rateLimit = useRateLimitWait();
  // The page that sent the person here to sign in (/sign?…), checked before it is followed.
  const returnTo = searchParams.get(RETURN_TO_PARAM);
  useDocumentTitle(`${t('login.title')} · Pakt`);

  const signIn = useMutation({
    // The credentials are read from the form as the request starts, not handed to mutate, so the
    // password is not kept among the mutation's variables.
    mutationFn: () => {
      const { email, password } = form.getValues();
      return callApi(
        authenticate,
        { body: { username: email.trim(), password, client_id: WEB_CLIENT_ID } },
        { failures: 'caller' },
      );
    },
    // The new session re-renders this page, whose redirect below takes the person on.
    onSuccess: (grant) => void beginSession(grant),
    onError: (error) => {
      // Too many sign-ins from this address: nothing was checked, so the password is kept for later.
      if (rateLimit.refuse(error)) return;
      const outcome = loginOutcome(error);
      if (outcome.kind === 'redirect') void navigate(outcome.to);
      else if (outcome.kind === 'twoFactor') {
        // The challenge travels in router state and this tab's storage, never in the address.
        saveChallenge(outcome.challenge);
        void navigate(withReturnTo('/authenticate', returnTo), { state: { challenge: outcome.challenge } });
      } else setMessage(outcome.key);
      form.setFieldValue('password', '');
    },
  });

  // Signed in (just now, or already before coming here): nothing to do on this page.
  if (session) return <Navigate to={pathAfterSignIn(session, returnTo)} replace />;

  const onSubmit = form.onSubmit(
    () => {
      setMessage(null);
      signIn.mutate();
    },
    () => setMessage(null),
  );

  // Spec section 4: an ended user session is followed by an alert (uisSessionExpired).
  const sessionEnded = searchParams.get('session') === 'expired';
  // One session per person (a tenant setting): a sign-in elsewhere ended this one (-32).
  const signedInElsewhere = searchParams.get('session') === 'elsewhere';
  const twoFactorReturn = TWO_FACTOR_RETURN[searchParams.get('twofactor') ?? ''];

  return (
    <AuthCard title={t('login.title')} description={t('login.subtitle')} maw={420}>
      {sessionEnded && !message && (
        <Alert color="orange" variant="light" role="alert">
          {t('uisSessionExpired')}
        </Alert>
      )}
      {signedInElsewhere && !message && (
        <Alert color="orange" variant="light" role="alert">
          {t('signedInElsewhere')}
        </Alert>
      )}
      {twoFactorReturn && !message && (
        <Alert color="orange" variant="light" role="alert">
          {t(twoFactorReturn)}
        </Alert>
      )}
      {safeReturnTo(returnTo) && !sessionEnded && !signedInElsewhere && !twoFactorReturn && !message && (
        <Alert color="blue" variant="light" role="status">
          {t('login.returnTo')}
        </Alert>
      )}
      {/* Without a mail server the confirmation link only reaches the outbox: never say it was mailed. */}
      <FormError message={message === 'login.errors.pending' && configuration.data?.mailDelivery !== 'smtp' ? 'login.errors.pendingOutbox' : message} />
      <RateLimitNotice wait={rateLimit.wait} />
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          <TextInput
            label={t('common.email')}
            type="email"
            autoComplete="username"
            inputMode="email"
            required
            {...form.getInputProps('email')}
            autoFocus={!form.getValues().email}
          />
          <PasswordField
            label={t('common.password')}
            autoComplete="current-password"
            required
            {...form.getInputProps('password')}
            autoFocus={!!form.getValues().email}
          />
          <Group justify="flex-end" mt={-8}>
            <Anchor component={Link} to="/forgetpassword" size="sm">
              {t('login.forgotPassword')}
            </Anchor>
          </Group>
          <Button type="submit" size="md" fullWidth loading={signIn.isPending} disabled={rateLimit.wait > 0} mt="xs">
            {t('login.submit')}
          </Button>
        </Stack>
      </form>
      {configuration.data?.features.signup && (
        <Text size="sm" ta="center" c="dimmed">
          {t('login.noAccount')}{' '}
          <Anchor component={Link} to="/signup" fw={500}>
            {t('login.signupLink')}
          </Anchor>
        </Text>
      )}
      {/* Issue 20: whoever was sent a signed PDF often arrives at sign-in first; checking it needs no account. */}
      <Text size="sm" ta="center">
        <Anchor component={Link} to="/verify" c="dimmed" size="sm">
          {t('verify.loginLink')}
        </Anchor>
      </Text>
    </AuthCard>
  );
}
