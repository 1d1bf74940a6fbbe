import { Alert, Anchor, Button, Group, Loader, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDocumentTitle } from '@mantine/hooks';
import { DEFAULT_PASSWORD_CONFIG, EmailAddress, ResponseCode, signup } from '@pakt/domain';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useNavigate } from 'react-router';
import { ApiError, callApi } from '../../api/client';
import { useMailDelivered, usePublicConfiguration } from '../../api/public-queries';
import { useSession } from '../../api/session-store';
import { landingPathFor } from '../../api/access';
import { AuthCard } from '../../ui/auth-card';
import { NewPasswordFields, newPasswordProblems, type NewPassword } from '../../ui/password-fields';
import { PasswordIssues, passwordRefusal, type PasswordRefusal } from '../../ui/password-issues';
import { nameProblems, PersonNameFields } from '../../ui/person-name-fields';
import { RateLimitNotice, useRateLimitWait } from '../../ui/rate-limit-notice';

type SignupFailure =
  | { readonly field: 'email'; readonly key: 'signup.emailTaken' }
  | { readonly field: 'orgName'; readonly key: 'signup.orgTaken' }
  | { readonly field: null; readonly key: 'signup.unavailable' | 'signup.pending' | 'REGISTERATION_FAIL' | 'common.unreachable' };

/** -81 and -87 point at their field; -11 means sign-up was switched off meanwhile. */
export function signupFailure(error: unknown): SignupFailure {
  if (error instanceof ApiError) {
    if (error.code === ResponseCode.USER_ALREADY_EXISTS.code) return { field: 'email', key: 'signup.emailTaken' };
    if (error.code === ResponseCode.TENANT_ALREADY_EXISTS.code) return { field: 'orgName', key: 'signup.orgTaken' };
    if (error.code === ResponseCode.NOT_AUTHORIZED.code) return { field: null, key: 'signup.unavailable' };
    if (error.code === ResponseCode.REGISTRATION_PENDING.code) return { field: null, key: 'signup.pending' };
    if (error.httpStatus === 0) return { field: null, key: 'common.unreachable' };
  }
  return { field: null, key: 'REGISTERATION_FAIL' };
}

type LocalError = 'common.required' | 'common.emailInvalid' | 'signup.orgTooShort';

/** The fields checked here before sending, with their own rules; the name and password fields check themselves. */
type CheckedField = 'email' | 'orgName';
const FIELD_RULES: Record<CheckedField, (value: string) => LocalError | null> = {
  email: (email) => (!email.trim() ? 'common.required' : !EmailAddress.safeParse(email.trim()).success ? 'common.emailInvalid' : null),
  orgName: (orgName) => (orgName.trim().length < 2 ? 'signup.orgTooShort' : null),
};

interface SignupValues {
  readonly orgName: string;
  readonly email: string;
  readonly name: { readonly firstName: string; readonly lastName: string };
  readonly jobTitle: string;
  readonly newPassword: NewPassword;
}

/** Sign-up is off; on an install without a mail server the page says that is why. */
function SignupUnavailable() {
  const { t } = useTranslation();
  const mailDelivered = useMailDelivered();
  return (
    <AuthCard title={t('signup.title')} maw={440}>
      <Alert color="orange" variant="light" role="alert">
        {t(mailDelivered ? 'signup.unavailable' : 'signup.unavailableNoMail')}
      </Alert>
      <Button component={Link} to="/login">
        {t('common.signIn')}
      </Button>
    </AuthCard>
  );
}

/** /signup: a new organisation with its first admin, offered only when features.signup is on. */
export function SignupPage() {
  const { t } = useTranslation();
  const session = useSession();
  // Only someone signed in before arriving is sent away; the session the form starts goes to /thanks.
  const [signedInOnArrival] = useState(() => session !== null);
  const configuration = usePublicConfiguration();
  useDocumentTitle(`${t('signup.title')} · Pakt`);
  if (session && signedInOnArrival) return <Navigate to={landingPathFor(session)} replace />;
  if (configuration.isPending) return <Loader size="sm" mx="auto" display="block" aria-label={t('signup.title')} />;
  if (!configuration.data?.features.signup) return <SignupUnavailable />;
  return <SignupForm />;
}

function SignupForm() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const config = DEFAULT_PASSWORD_CONFIG;
  const form = useForm<SignupValues>({
    mode: 'controlled',
    initialValues: { orgName: '', email: '', name: { firstName: '', lastName: '' }, jobTitle: '', newPassword: { password: '', confirm: '' } },
    validate: FIELD_RULES,
    // The refusals are held as message keys and translated as they are shown, so they follow a change of language.
    enhanceGetInputProps: ({ inputProps }) => ({ error: inputProps.error ? t(inputProps.error as LocalError | SignupFailure['key']) : undefined }),
    // Typing does not simply clear a refusal: after a submit, setChecked below works out what the field shows.
    clearInputErrorOnChange: false,
  });
  const [submitted, setSubmitted] = useState(false);
  const [failure, setFailure] = useState<SignupFailure | null>(null);
  const [refusal, setRefusal] = useState<PasswordRefusal | null>(null);
  // Without a mail server the confirmation link only reaches the outbox: never say it was mailed.
  const mailDelivered = useMailDelivered();

  /**
   * What a field shows once the form was submitted: its own problem with what it holds now, else the
   * server's refusal of it, which stays until the next submit.
   */
  const shownError = (field: CheckedField, value: string, refused: SignupFailure | null) =>
    FIELD_RULES[field](value) ?? (refused?.field === field ? refused.key : null);

  const rateLimit = useRateLimitWait();
  const create = useMutation({
    // Read from the form as the request starts, not handed to mutate, so the password is not kept
    // among the mutation's variables.
    mutationFn: () => {
      const { email, name, orgName, jobTitle, newPassword } = form.getValues();
      return callApi(
        signup,
        {
          body: {
            email: email.trim(),
            firstName: name.firstName.trim(),
            lastName: name.lastName.trim(),
            orgName: orgName.trim(),
            jobTitle: jobTitle.trim() || undefined,
            newPassword: newPassword.password,
            confirmPassword: newPassword.confirm,
          },
        },
        { failures: 'caller' },
      );
    },
    onSuccess: (result) => {
      void navigate('/thanks', { replace: true, state: { verificationSentTo: result.email } });
    },
    onError: (error) => {
      if (rateLimit.refuse(error)) return;
      const refused = passwordRefusal(error);
      if (refused) return setRefusal(refused);
      const failed = signupFailure(error);
      setFailure(failed);
      if (failed.field) form.setFieldError(failed.field, shownError(failed.field, form.getValues()[failed.field], failed));
    },
  });

  const setChecked = (field: CheckedField, value: string) => {
    form.setFieldValue(field, value);
    if (submitted) form.setFieldError(field, shownError(field, value, failure));
  };

  // Every submit, valid or not, shows the fields' problems and forgets the last refusal.
  const begin = () => {
    setSubmitted(true);
    setFailure(null);
    setRefusal(null);
  };
  const onSubmit = form.onSubmit(({ name, newPassword }) => {
    begin();
    if (Object.keys({ ...nameProblems(name), ...newPasswordProblems(newPassword, config) }).length > 0) return;
    create.mutate();
  }, begin);

  return (
    <AuthCard title={t('signup.title')} description={t('signup.intro')} maw={500}>
      {failure && failure.field === null && (
        <Alert color="red" variant="light" role="alert">
          {t(failure.key === 'signup.pending' && !mailDelivered ? 'signup.pendingOutbox' : failure.key)}
        </Alert>
      )}
      {refusal && refusal.rules.length > 0 && (
        <Alert color="red" variant="light" role="alert">
          <PasswordIssues rules={refusal.rules} config={config} />
        </Alert>
      )}
      <RateLimitNotice wait={rateLimit.wait} />
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          <TextInput
            label={t('signup.orgName')}
            required
            maxLength={100}
            autoComplete="organization"
            {...form.getInputProps('orgName')}
            onChange={(event) => setChecked('orgName', event.currentTarget.value)}
          />
          <TextInput
            label={t('common.email')}
            type="email"
            inputMode="email"
            autoComplete="email"
            required
            {...form.getInputProps('email')}
            onChange={(event) => setChecked('email', event.currentTarget.value)}
          />
          <PersonNameFields value={form.getValues().name} onChange={(name) => form.setFieldValue('name', name)} showErrors={submitted} />
          <TextInput
            label={t('signup.jobTitle')}
            maxLength={100}
            autoComplete="organization-title"
            {...form.getInputProps('jobTitle')}
          />
          <NewPasswordFields
            value={form.getValues().newPassword}
            onChange={(newPassword) => form.setFieldValue('newPassword', newPassword)}
            showErrors={submitted}
            config={config}
            serverProblem={refusal?.mismatch ? { confirm: t('passwordMissMatch') } : undefined}
          />
          <Button type="submit" size="md" fullWidth loading={create.isPending} disabled={rateLimit.wait > 0} mt="xs">
            {t('signup.submit')}
          </Button>
        </Stack>
      </form>
      <Group justify="center">
        <Text size="sm" c="dimmed">
          {t('signup.haveAccount')}{' '}
          <Anchor component={Link} to="/login" fw={500}>
            {t('common.signIn')}
          </Anchor>
        </Text>
      </Group>
    </AuthCard>
  );
}
