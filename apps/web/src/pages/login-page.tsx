import { Alert, Button, Stack, TextInput } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { authenticate, EmailAddress, ResponseCode, WEB_CLIENT_ID } from '@pakt/domain';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { ApiError, callApi } from '../api/client';
import { useStartSession } from '../api/session-lifecycle';
import { rememberedUsername, useSession } from '../api/session-store';
import { landingPathFor } from '../routing/access';
import { AuthCard } from '../ui/auth-card';
import { PasswordField } from '../ui/password-field';

/** What a refused sign-in means for the person: a message to read, or a page to go to. */
export type LoginOutcome =
  | { readonly kind: 'message'; readonly key: LoginMessageKey }
  | { readonly kind: 'redirect'; readonly to: string };

type LoginMessageKey =
  | 'login.errors.wrongPassword'
  | 'login.errors.locked'
  | 'login.errors.licenseExpired'
  | 'USER_DISABLED_CONTACT_ADMIN'
  | 'common.unreachable'
  | 'internalErrorMsg';

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
    case ResponseCode.USER_NOT_ENABLED.code:
      return { kind: 'redirect', to: '/changepassword' };
    case ResponseCode.TWO_FACTOR_REQUIRED.code:
      return { kind: 'redirect', to: '/authenticate' };
  }
  return { kind: 'message', key: error.httpStatus === 0 ? 'common.unreachable' : 'internalErrorMsg' };
}

export function LoginPage() {
  const { t } = useTranslation();
  const session = useSession();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const beginSession = useStartSession();
  const [email, setEmail] = useState(() => rememberedUsername());
  const [password, setPassword] = useState('');
  const [fieldErrors, setFieldErrors] = useState<{ email?: string; password?: string }>({});
  const [message, setMessage] = useState<LoginMessageKey | null>(null);
  useDocumentTitle(`${t('login.title')} · Pakt`);

  const signIn = useMutation({
    mutationFn: () =>
      callApi(
        authenticate,
        { body: { username: email.trim(), password, client_id: WEB_CLIENT_ID } },
        { failures: 'caller' },
      ),
    // The new session re-renders this page, whose redirect below takes the person on.
    onSuccess: (grant) => void beginSession(grant),
    onError: (error) => {
      const outcome = loginOutcome(error);
      if (outcome.kind === 'redirect') void navigate(outcome.to);
      else setMessage(outcome.key);
      setPassword('');
    },
  });

  // Signed in (just now, or already before coming here): nothing to do on this page.
  if (session) return <Navigate to={landingPathFor(session.user)} replace />;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const errors: typeof fieldErrors = {};
    if (!email.trim()) errors.email = t('common.required');
    else if (!EmailAddress.safeParse(email).success) errors.email = t('common.emailInvalid');
    if (!password) errors.password = t('login.passwordRequired');
    setFieldErrors(errors);
    setMessage(null);
    if (errors.email || errors.password) return;
    signIn.mutate();
  };

  // Spec section 4: an ended user session is followed by an alert (uisSessionExpired).
  const sessionEnded = searchParams.get('session') === 'expired';

  return (
    <AuthCard title={t('login.title')} description={t('login.subtitle')} maw={420}>
      {sessionEnded && !message && (
        <Alert color="orange" variant="light" role="alert">
          {t('uisSessionExpired')}
        </Alert>
      )}
      {message && (
        <Alert color="red" variant="light" role="alert">
          {t(message)}
        </Alert>
      )}
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          <TextInput
            label={t('common.email')}
            type="email"
            autoComplete="username"
            inputMode="email"
            required
            value={email}
            error={fieldErrors.email}
            onChange={(event) => setEmail(event.currentTarget.value)}
            autoFocus={!email}
          />
          <PasswordField
            label={t('common.password')}
            autoComplete="current-password"
            required
            value={password}
            error={fieldErrors.password}
            onChange={(event) => setPassword(event.currentTarget.value)}
            autoFocus={!!email}
          />
          <Button type="submit" size="md" fullWidth loading={signIn.isPending} mt="xs">
            {t('login.submit')}
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
