import { Alert, Button, Group, Stack } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { changePassword, forcedRouteForStatus, ResponseCode } from '@pakt/domain';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate } from 'react-router';
import { ApiError, callApi } from '../api/client';
import { usePasswordConfig } from '../api/password-config';
import { useLogout } from '../api/session-lifecycle';
import { sessionStore, useSession } from '../api/session-store';
import { homePathFor } from '../routing/access';
import { AuthCard } from '../ui/auth-card';
import { PasswordField } from '../ui/password-field';
import { NewPasswordFields, newPasswordProblems, type NewPassword } from '../ui/password-fields';
import { PasswordIssues, passwordRefusal, type PasswordRefusal } from '../ui/password-issues';
import { FormError } from '../ui/form-error';

/**
 * Every role may open it (spec section 2), and so must anyone whose status forces it (section 4),
 * even before they belong to a tenant: only a session is needed.
 */
export function ChangePasswordPage() {
  const session = useSession();
  if (!session) return <Navigate to="/login" replace />;
  return <ChangePasswordForm />;
}

type FormMessage = 'passwordChangeFailed' | 'common.unreachable';

function ChangePasswordForm() {
  const { t } = useTranslation();
  const session = useSession();
  const navigate = useNavigate();
  const logout = useLogout();
  const { config, failed } = usePasswordConfig(session?.tenantUuid);
  const [oldPassword, setOldPassword] = useState('');
  const [password, setPassword] = useState<NewPassword>({ password: '', confirm: '' });
  const [submitted, setSubmitted] = useState(false);
  const [oldError, setOldError] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<PasswordRefusal | null>(null);
  const [message, setMessage] = useState<FormMessage | null>(null);
  const forced = forcedRouteForStatus(session?.user.status) === 'changepassword';
  const title = t(forced ? 'changePassword.forcedTitle' : 'changePassword.title');
  useDocumentTitle(`${title} · Pakt`);

  const change = useMutation({
    mutationFn: () =>
      callApi(
        changePassword,
        { body: { oldPassword, newPassword: password.password, confirmPassword: password.confirm } },
        { failures: 'caller' },
      ),
    onSuccess: (user) => {
      const current = sessionStore.get();
      // The new status (enabled again) lifts the forced route at once.
      if (current) sessionStore.set({ ...current, user });
      void navigate(homePathFor(user), { replace: true, state: { flash: 'passwordChangeSuccess' } });
    },
    onError: (error) => {
      if (error instanceof ApiError && (error.code === ResponseCode.WRONG_OLD_PASSWORD.code || error.code === ResponseCode.WRONG_PASSWORD.code)) {
        setOldError(t('changePassword.wrongOld'));
        setOldPassword('');
        return;
      }
      const refused = passwordRefusal(error);
      if (refused) return setRefusal(refused);
      setMessage(error instanceof ApiError && error.httpStatus === 0 ? 'common.unreachable' : 'passwordChangeFailed');
    },
  });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    setOldError(oldPassword ? null : t('common.required'));
    setRefusal(null);
    setMessage(null);
    if (!oldPassword || Object.keys(newPasswordProblems(password, config)).length > 0) return;
    change.mutate();
  };

  return (
    <AuthCard title={title} description={t(forced ? 'changePassword.forcedIntro' : 'changePassword.intro')} maw={480}>
      <FormError message={message} />
      {refusal && refusal.rules.length > 0 && (
        <Alert color="red" variant="light" role="alert">
          <PasswordIssues rules={refusal.rules} config={config} />
        </Alert>
      )}
      {failed && (
        <Alert color="yellow" variant="light" role="status">
          {t('passwordConfigError')}
        </Alert>
      )}
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          <PasswordField
            label={t('changePassword.oldPassword')}
            autoComplete="current-password"
            required
            value={oldPassword}
            error={oldError}
            onChange={(event) => setOldPassword(event.currentTarget.value)}
          />
          <NewPasswordFields
            label={t('changePassword.newPassword')}
            value={password}
            onChange={setPassword}
            showErrors={submitted}
            config={config}
            serverProblem={refusal?.mismatch ? { confirm: t('passwordMissMatch') } : refusal ? { password: t('passwordInvalid') } : undefined}
          />
          <Button type="submit" size="md" fullWidth loading={change.isPending} mt="xs">
            {t('changePassword.submit')}
          </Button>
        </Stack>
      </form>
      {forced && (
        // Someone who cannot change it now must still be able to leave: every other page sends them back here.
        <Group justify="center">
          <Button variant="subtle" color="gray" onClick={() => void logout()}>
            {t('shell.logout')}
          </Button>
        </Group>
      )}
    </AuthCard>
  );
}
