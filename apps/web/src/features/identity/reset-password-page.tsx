import { Alert, Button, Group, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDocumentTitle } from '@mantine/hooks';
import { DEFAULT_PASSWORD_CONFIG, ResponseCode, resetPassword } from '@pakt/domain';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { ApiError, callApi } from '../../api/client';
import { endSession } from '../../api/session-lifecycle';
import { useSession } from '../../api/session-store';
import { AuthCard } from '../../ui/auth-card';
import { NewPasswordFields, newPasswordProblems, type NewPassword } from '../../ui/password-fields';
import { PasswordIssues, passwordRefusal, type PasswordRefusal } from '../../ui/password-issues';
import { FormError } from '../../ui/form-error';
import { RateLimitNotice, useRateLimitWait } from '../../ui/rate-limit-notice';

type LinkProblem = 'resetPassword.invalidLink' | 'resetPassword.expiredLink';

/** -42: unknown or already used; -120: too old. Either way a new link is the way on. */
export function resetLinkProblem(error: unknown): LinkProblem | null {
  if (!(error instanceof ApiError)) return null;
  if (error.code === ResponseCode.INVALID_EASY_SIGN_LINK.code) return 'resetPassword.invalidLink';
  if (error.code === ResponseCode.REGISTRATION_LINK_EXPIRED.code) return 'resetPassword.expiredLink';
  return null;
}

function LinkUnusable({ problem }: { readonly problem: LinkProblem }) {
  const { t } = useTranslation();
  return (
    <AuthCard title={t('resetPassword.unusableTitle')} maw={440}>
      <Alert color="orange" variant="light" role="alert">
        {t(problem)}
      </Alert>
      <Group>
        <Button component={Link} to="/forgetpassword">
          {t('resetPassword.requestNew')}
        </Button>
        <Button component={Link} to="/login" variant="subtle">
          {t('common.backToLogin')}
        </Button>
      </Group>
    </AuthCard>
  );
}

/** /resetpassword?token=…: the page the reset mail links to. */
export function ResetPasswordPage() {
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token');
  if (!token) return <LinkUnusable problem="resetPassword.invalidLink" />;
  return <ResetForm token={token} />;
}

function ResetForm({ token }: { readonly token: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const session = useSession();
  // The account's tenant is unknown before sign-in: the defaults guide, the server decides.
  const config = DEFAULT_PASSWORD_CONFIG;
  // The new password and its confirmation; their problems are NewPasswordFields' own, shown once submitted.
  const form = useForm<NewPassword>({ mode: 'controlled', initialValues: { password: '', confirm: '' } });
  const [submitted, setSubmitted] = useState(false);
  const [refusal, setRefusal] = useState<PasswordRefusal | null>(null);
  const [linkProblem, setLinkProblem] = useState<LinkProblem | null>(null);
  const [message, setMessage] = useState<'passwordChangeFailed' | 'common.unreachable' | null>(null);
  const [done, setDone] = useState(false);
  useDocumentTitle(`${t('resetPassword.title')} · Pakt`);

  const rateLimit = useRateLimitWait();
  const reset = useMutation({
    // Read from the form as the request starts, not handed to mutate, so the password is not kept
    // among the mutation's variables.
    mutationFn: () => {
      const password = form.getValues();
      return callApi(resetPassword, { body: { token, newPassword: password.password, confirmPassword: password.confirm } }, { failures: 'caller' });
    },
    onSuccess: () => setDone(true),
    onError: (error) => {
      if (rateLimit.refuse(error)) return;
      const problem = resetLinkProblem(error);
      if (problem) return setLinkProblem(problem);
      const refused = passwordRefusal(error);
      if (refused) return setRefusal(refused);
      setMessage(error instanceof ApiError && error.httpStatus === 0 ? 'common.unreachable' : 'passwordChangeFailed');
    },
  });

  if (linkProblem) return <LinkUnusable problem={linkProblem} />;
  if (done) {
    // Whoever is signed in in this browser (an admin who opened the mail, say) leaves first, so
    // the sign-in form opens for the person whose password this was.
    const toLogin = async () => {
      if (session) await endSession();
      await navigate('/login', { replace: true });
    };
    return (
      <AuthCard title={t('resetPassword.doneTitle')} maw={440}>
        <Alert color="teal" variant="light" role="status">
          {t('resetPassword.done')}
        </Alert>
        <Button size="md" onClick={() => void toLogin()}>
          {t('common.signIn')}
        </Button>
      </AuthCard>
    );
  }

  const onSubmit = form.onSubmit((password) => {
    setSubmitted(true);
    setRefusal(null);
    setMessage(null);
    if (Object.keys(newPasswordProblems(password, config)).length > 0) return;
    reset.mutate();
  });

  return (
    <AuthCard title={t('resetPassword.title')} description={t('resetPassword.intro')} maw={480}>
      <FormError message={message} />
      <RateLimitNotice wait={rateLimit.wait} />
      {refusal && refusal.rules.length > 0 && (
        <Alert color="red" variant="light" role="alert">
          <PasswordIssues rules={refusal.rules} config={config} />
        </Alert>
      )}
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          <NewPasswordFields
            label={t('changePassword.newPassword')}
            value={form.getValues()}
            onChange={form.setValues}
            showErrors={submitted}
            config={config}
            serverProblem={refusal?.mismatch ? { confirm: t('passwordMissMatch') } : undefined}
          />
          <Button type="submit" size="md" fullWidth loading={reset.isPending} disabled={rateLimit.wait > 0} mt="xs">
            {t('resetPassword.submit')}
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
