import { Alert, Button, Group, Stack } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { forcedRouteForStatus } from '@pakt/domain';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate } from 'react-router';
import { useLogout } from '../../api/session-lifecycle';
import { useSession } from '../../api/session-store';
import { homePathFor } from '../../api/access';
import { AuthCard } from '../../ui/auth-card';
import { PasswordField } from '../../ui/password-field';
import { NewPasswordFields } from '../../ui/password-fields';
import { PasswordIssues } from '../../ui/password-issues';
import { FormError } from '../../ui/form-error';
import { useChangePasswordForm } from '../../ui/use-change-password-form';

/**
 * Every role may open it (spec section 2), and so must anyone whose status forces it (section 4),
 * even before they belong to a tenant: only a session is needed.
 */
export function ChangePasswordPage() {
  const session = useSession();
  if (!session) return <Navigate to="/login" replace />;
  return <ChangePasswordForm />;
}

function ChangePasswordForm() {
  const { t } = useTranslation();
  const session = useSession();
  const navigate = useNavigate();
  const logout = useLogout();
  const { form, config, failed, submitted, refusal, message, change, onSubmit } = useChangePasswordForm({
    // The new status (enabled again) lifts the forced route at once.
    onSuccess: (user) => void navigate(homePathFor(user), { replace: true, state: { flash: 'passwordChangeSuccess' } }),
  });
  const forced = forcedRouteForStatus(session?.user.status) === 'changepassword';
  const title = t(forced ? 'changePassword.forcedTitle' : 'changePassword.title');
  useDocumentTitle(`${title} · Pakt`);

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
            {...form.getInputProps('oldPassword')}
          />
          <NewPasswordFields
            label={t('changePassword.newPassword')}
            value={form.getValues().newPassword}
            onChange={(newPassword) => form.setFieldValue('newPassword', newPassword)}
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
