import { Alert, Button, Group, Loader, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDocumentTitle } from '@mantine/hooks';
import {
  invitationDetails,
  joinWithInvitation,
  registerUserTenant,
  usersValid,
  type EndpointData,
} from '@pakt/domain';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { ApiError, callApi } from '../../api/client';
import { endSession, useStartSession } from '../../api/session-lifecycle';
import { refreshSessionUser, selectTenant, sessionStore, useSession } from '../../api/session-store';
import { loginReturningTo } from '../../api/return-to';
import { landingPathFor } from '../../api/access';
import { AuthCard } from '../../ui/auth-card';
import { NewPasswordFields, newPasswordProblems, type NewPassword } from '../../ui/password-fields';
import { nameProblems, PersonNameFields } from '../../ui/person-name-fields';
import { FormError } from '../../ui/form-error';
import { invitationProblem, registerErrorMessage, type InvitationProblem, type RegisterMessage } from '../../ui/registration-errors';
import { RateLimitNotice, useRateLimitWait } from '../../ui/rate-limit-notice';
import { usePasswordConfig } from '../../api/password-config';
import { identityQueryKeys } from './queries';

export function RegisterPage() {
  const [searchParams] = useSearchParams();
  const invite = searchParams.get('invite');
  const tenant = searchParams.get('tenant');
  if (!invite || !tenant) return <InvitationUnusable problem="register.invalid.missing" />;
  return <Invitation inviteCode={invite} tenantUuid={tenant} />;
}

function InvitationUnusable({ problem }: { readonly problem: InvitationProblem }) {
  const { t } = useTranslation();
  useDocumentTitle(`${t('register.invalid.title')} · Pakt`);
  return (
    <AuthCard title={t('register.invalid.title')}>
      <Alert color={problem === 'register.invalid.alreadyRegistered' ? 'blue' : 'orange'} variant="light" role="alert">
        {t(problem)}
      </Alert>
      <Group>
        <Button component={Link} to="/login" variant={problem === 'register.invalid.alreadyRegistered' ? 'filled' : 'light'}>
          {t('common.signIn')}
        </Button>
      </Group>
    </AuthCard>
  );
}

function Invitation({ inviteCode, tenantUuid }: { readonly inviteCode: string; readonly tenantUuid: string }) {
  const { t } = useTranslation();
  const details = useQuery({
    queryKey: identityQueryKeys.invitation(inviteCode),
    queryFn: ({ signal }) => callApi(invitationDetails, { params: { inviteCode } }, { signal, failures: 'caller' }),
  });

  if (details.isPending) {
    return (
      <Group justify="center" py="xl" gap="sm">
        <Loader size="sm" />
        <Text c="dimmed">{t('register.checking')}</Text>
      </Group>
    );
  }
  if (details.isError) {
    const problem = invitationProblem(details.error);
    if (problem) return <InvitationUnusable problem={problem} />;
    return (
      <AuthCard title={t('register.invalid.title')}>
        <Alert color="red" variant="light" role="alert">
          {t(details.error instanceof ApiError && details.error.httpStatus === 0 ? 'common.unreachable' : 'internalErrorMsg')}
        </Alert>
        <Group>
          <Button variant="light" onClick={() => void details.refetch()} loading={details.isFetching}>
            {t('root.retry')}
          </Button>
        </Group>
      </AuthCard>
    );
  }
  // A link whose tenant does not match its invitation was altered or mixed up with another one.
  if (details.data.tenantUuid !== tenantUuid) return <InvitationUnusable problem="register.invalid.notFound" />;
  if (details.data.hasAccount) return <JoinWithAccount inviteCode={inviteCode} invitation={details.data} />;
  return <RegisterForm inviteCode={inviteCode} invitation={details.data} />;
}

type Invitation = EndpointData<typeof invitationDetails>;

/**
 * An invitation to an address that has an account already. Joining needs a session opened by
 * signing in (password, throttling and second factor, all at /authenticate), never the password
 * typed here: so the page sends the person to sign in and back, then joins with one click.
 */
function JoinWithAccount({ inviteCode, invitation }: { readonly inviteCode: string; readonly invitation: Invitation }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const session = useSession();
  const [message, setMessage] = useState<RegisterMessage | null>(null);
  const title = t('register.title', { tenant: invitation.tenantName });
  useDocumentTitle(`${title} · Pakt`);
  const here = `/register?invite=${encodeURIComponent(inviteCode)}&tenant=${encodeURIComponent(invitation.tenantUuid)}`;
  const signedInAsInvitee = session?.user.email.toLowerCase() === invitation.email.toLowerCase();

  const rateLimit = useRateLimitWait();
  const join = useMutation({
    mutationFn: async () => {
      const joined = await callApi(joinWithInvitation, { body: { inviteCode, tenantUuid: invitation.tenantUuid } }, { failures: 'caller' });
      refreshSessionUser(await callApi(usersValid, {}, { failures: 'caller' }));
      selectTenant(joined.tenantUuid);
      return joined;
    },
    onSuccess: () => {
      const current = sessionStore.get();
      void navigate(current ? landingPathFor(current) : '/dashboard', { replace: true });
    },
    onError: (error) => {
      if (!rateLimit.refuse(error)) setMessage(registerErrorMessage(error));
    },
  });

  const signInAsInvitee = async () => {
    // Someone else is signed in in this browser: signed out properly first, so their session ends.
    if (session) await endSession();
    void navigate(loginReturningTo(here));
  };

  return (
    <AuthCard
      title={title}
      description={t(signedInAsInvitee ? 'register.existing.introSignedIn' : 'register.existing.intro', {
        tenant: invitation.tenantName,
        role: t(`roles.${invitation.role}`),
        email: invitation.email,
      })}
      maw={500}
    >
      <FormError message={message} />
      <RateLimitNotice wait={rateLimit.wait} />
      {signedInAsInvitee ? (
        <Button size="md" fullWidth loading={join.isPending} disabled={rateLimit.wait > 0} onClick={() => join.mutate()}>
          {t('register.existing.join', { tenant: invitation.tenantName })}
        </Button>
      ) : (
        <Stack gap="sm">
          {session && (
            <Alert color="blue" variant="light" role="status">
              {t('register.existing.otherAccount', { current: session.user.email, email: invitation.email })}
            </Alert>
          )}
          <Button size="md" fullWidth onClick={() => void signInAsInvitee()}>
            {t('register.existing.signIn')}
          </Button>
        </Stack>
      )}
    </AuthCard>
  );
}

interface RegisterValues {
  readonly name: { readonly firstName: string; readonly middleName: string; readonly lastName: string };
  readonly newPassword: NewPassword;
}

function RegisterForm({ inviteCode, invitation }: { readonly inviteCode: string; readonly invitation: Invitation }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const beginSession = useStartSession();
  // The name (the invitation's, to correct) and the new password. Their problems are
  // PersonNameFields' and NewPasswordFields' own, shown once the form was submitted.
  const form = useForm<RegisterValues>({
    mode: 'controlled',
    initialValues: {
      name: { firstName: invitation.firstName, middleName: invitation.middleName ?? '', lastName: invitation.lastName },
      newPassword: { password: '', confirm: '' },
    },
  });
  const [submitted, setSubmitted] = useState(false);
  const [message, setMessage] = useState<RegisterMessage | null>(null);
  const title = t('register.title', { tenant: invitation.tenantName });
  useDocumentTitle(`${title} · Pakt`);
  const { config, failed: rulesFailed } = usePasswordConfig(invitation.tenantUuid);

  const rateLimit = useRateLimitWait();
  const register = useMutation({
    // Read from the form as the request starts, not handed to mutate, so the password is not kept
    // among the mutation's variables.
    mutationFn: async () => {
      const { name, newPassword: password } = form.getValues();
      const grant = await callApi(
        registerUserTenant,
        {
          body: {
            userEmail: invitation.email,
            firstName: name.firstName.trim(),
            middleName: name.middleName.trim() || undefined,
            lastName: name.lastName.trim(),
            userType: 'internal',
            userLoginType: 'Email',
            newPassword: password.password,
            confirmPassword: password.confirm,
            inviteCode,
            tenantUuid: invitation.tenantUuid,
          },
        },
        { failures: 'caller' },
      );
      // Whoever was signed in in this browser before (root handing over the link, say) is signed
      // out properly, so their tokens do not outlive the switch.
      if (sessionStore.get()) await endSession();
      return grant;
    },
    onSuccess: (grant) => {
      void navigate(landingPathFor(beginSession(grant)), { replace: true });
    },
    onError: (error) => {
      if (!rateLimit.refuse(error)) setMessage(registerErrorMessage(error));
    },
  });

  const onSubmit = form.onSubmit(({ name, newPassword }) => {
    setSubmitted(true);
    setMessage(null);
    if (Object.keys({ ...nameProblems(name), ...newPasswordProblems(newPassword, config) }).length > 0) return;
    register.mutate();
  });

  return (
    <AuthCard
      title={title}
      description={t('register.intro', { tenant: invitation.tenantName, role: t(`roles.${invitation.role}`) })}
      maw={500}
    >
      <FormError message={message} />
      <RateLimitNotice wait={rateLimit.wait} />
      {rulesFailed && (
        <Alert color="yellow" variant="light" role="status">
          {t('passwordConfigError')}
        </Alert>
      )}
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          <TextInput label={t('common.email')} value={invitation.email} readOnly variant="filled" autoComplete="username" />
          <PersonNameFields
            value={form.getValues().name}
            onChange={(name) => form.setFieldValue('name', name)}
            showErrors={submitted}
            withMiddleName
          />
          <NewPasswordFields
            value={form.getValues().newPassword}
            onChange={(newPassword) => form.setFieldValue('newPassword', newPassword)}
            showErrors={submitted}
            config={config}
          />
          <Button type="submit" size="md" fullWidth loading={register.isPending} disabled={rateLimit.wait > 0} mt="xs">
            {t('register.submit')}
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
