import {
  Alert,
  Badge,
  Button,
  Card,
  Code,
  Group,
  NativeSelect,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import {
  confirmTotpEnrolment,
  disableTotp,
  LANGUAGES,
  ResponseCode,
  startTotpEnrolment,
  updateProfile,
  type SessionUser,
  type UserInfo,
} from '@pakt/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, callApi } from '../../api/client';
import { profileQuery, profileQueryKey } from '../../api/profile';
import { sessionStore } from '../../api/session-store';
import { RequireRoute } from '../../api/access';
import { ShieldIcon } from '../../ui/icons';
import { PasswordField } from '../../ui/password-field';
import { QrCode } from '../../ui/qr-code';
import { SetPasswordDialog } from '../../ui/set-password-dialog';
import { RubberStampsSection } from '../rubber-stamps';
import { ProfilePhotoSection } from './profile-photo-section';
import { queryPlaceholder } from '../../ui/query-placeholder';

export function ProfilePage() {
  return (
    <RequireRoute route="profile">
      <Profile />
    </RequireRoute>
  );
}

/** Keeps the header (name) and the session's view of two-factor in step with what the server says. */
function updateSessionUser(changes: Partial<SessionUser>): void {
  const current = sessionStore.get();
  if (current) sessionStore.set({ ...current, user: { ...current.user, ...changes } });
}

function Profile() {
  const { t } = useTranslation();
  const profile = useQuery(profileQuery);
  useDocumentTitle(`${t('profile.title')} · Pakt`);

  let body = queryPlaceholder(profile, { loading: t('profile.loading'), loadFailed: t('profile.loadFailed'), retry: t('root.retry') });
  if (profile.isSuccess) {
    body = (
      <>
        <ProfilePhotoSection profile={profile.data} />
        <ProfileForm profile={profile.data} />
        <TwoFactorSection enabled={profile.data.totpEnabled} />
        <PasswordSection />
        <RubberStampsSection />
      </>
    );
  }

  return (
    <Stack gap="lg" maw={760} mx="auto">
      <Stack gap={4}>
        <Title order={1} fz={{ base: 28, sm: 34 }}>
          {t('profile.title')}
        </Title>
        {profile.data && (
          <Text c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {profile.data.email}
          </Text>
        )}
      </Stack>
      {body}
    </Stack>
  );
}

/**
 * Signed in, the person has a password already: the set-password dialog updates it (its register
 * mode is for external invitees arriving with an invitation, who have no session yet).
 */
function PasswordSection() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="password-heading">
      <Group justify="space-between" gap="sm">
        <Stack gap={2}>
          <Title order={2} size="h4" id="password-heading">
            {t('profile.passwordHeading')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('profile.passwordHint')}
          </Text>
        </Stack>
        <Button variant="light" onClick={() => setOpen(true)}>
          {t('changePassword.title')}
        </Button>
      </Group>
      <SetPasswordDialog mode="update" opened={open} onClose={() => setOpen(false)} />
    </Card>
  );
}

type Editable = Record<'title' | 'firstName' | 'middleName' | 'lastName' | 'phone' | 'company' | 'department' | 'timeZone' | 'locale', string>;

function editableOf(profile: UserInfo): Editable {
  return {
    title: profile.title ?? '',
    firstName: profile.firstName,
    middleName: profile.middleName ?? '',
    lastName: profile.lastName,
    phone: profile.phone ?? '',
    company: profile.company ?? '',
    department: profile.department ?? '',
    timeZone: profile.timeZone ?? '',
    locale: profile.locale ?? '',
  };
}

function timeZones(): string[] {
  try {
    return Intl.supportedValuesOf('timeZone');
  } catch {
    return ['UTC', 'Asia/Kolkata'];
  }
}

const nullable = (value: string) => (value.trim() ? value.trim() : null);

function ProfileForm({ profile }: { readonly profile: UserInfo }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [value, setValue] = useState<Editable>(() => editableOf(profile));
  const [errors, setErrors] = useState<Partial<Record<keyof Editable, string>>>({});
  const [result, setResult] = useState<'saved' | 'failed' | 'unreachable' | null>(null);
  const zones = useMemo(() => {
    const all = timeZones();
    return value.timeZone && !all.includes(value.timeZone) ? [value.timeZone, ...all] : all;
  }, [value.timeZone]);

  const save = useMutation({
    mutationFn: () =>
      callApi(updateProfile, {
        body: {
          title: nullable(value.title),
          firstName: value.firstName.trim(),
          middleName: nullable(value.middleName),
          lastName: value.lastName.trim(),
          phone: nullable(value.phone),
          company: nullable(value.company),
          department: nullable(value.department),
          timeZone: nullable(value.timeZone),
          locale: value.locale === 'en' || value.locale === 'hi' ? value.locale : null,
        },
      }),
    onSuccess: (saved) => {
      queryClient.setQueryData(profileQueryKey, saved);
      updateSessionUser({ firstName: saved.firstName, middleName: saved.middleName, lastName: saved.lastName, locale: saved.locale });
      setValue(editableOf(saved));
      setResult('saved');
    },
    onError: (error) => {
      if (error instanceof ApiError && error.code === ResponseCode.INVALID_INPUT.code && error.issues?.length) {
        const fieldErrors: typeof errors = {};
        for (const issue of error.issues) {
          if (issue.path in value) fieldErrors[issue.path as keyof Editable] = t(`profile.invalid.${issue.path === 'phone' || issue.path === 'timeZone' ? issue.path : 'generic'}`);
        }
        setErrors(fieldErrors);
        if (Object.keys(fieldErrors).length > 0) return;
      }
      setResult(error instanceof ApiError && error.httpStatus === 0 ? 'unreachable' : 'failed');
    },
  });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setResult(null);
    const problems: typeof errors = {};
    if (!value.firstName.trim()) problems.firstName = t('common.required');
    if (!value.lastName.trim()) problems.lastName = t('common.required');
    if (value.phone.trim() && !/^\+?[0-9 ()-]{6,20}$/.test(value.phone.trim())) problems.phone = t('profile.invalid.phone');
    setErrors(problems);
    if (Object.keys(problems).length > 0) return;
    save.mutate();
  };

  const field = (name: keyof Editable, extra: { required?: boolean; autoComplete?: string; type?: string; maxLength?: number } = {}) => (
    <TextInput
      label={t(`profile.fields.${name}`)}
      value={value[name]}
      error={errors[name]}
      maxLength={extra.maxLength ?? 100}
      onChange={(event) => setValue({ ...value, [name]: event.currentTarget.value })}
      {...extra}
    />
  );

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="profile-details-heading">
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          <Title order={2} size="h4" id="profile-details-heading">
            {t('profile.detailsHeading')}
          </Title>
          {result === 'saved' && (
            <Alert color="teal" variant="light" role="status">
              {t('profile.saved')}
            </Alert>
          )}
          {(result === 'failed' || result === 'unreachable') && (
            <Alert color="red" variant="light" role="alert">
              {t(result === 'failed' ? 'profile.saveFailed' : 'common.unreachable')}
            </Alert>
          )}
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="md">
            {field('title', { autoComplete: 'honorific-prefix' })}
            {field('firstName', { required: true, autoComplete: 'given-name' })}
            {field('middleName', { autoComplete: 'additional-name' })}
            {field('lastName', { required: true, autoComplete: 'family-name' })}
            {field('phone', { type: 'tel', autoComplete: 'tel', maxLength: 20 })}
            {field('company', { autoComplete: 'organization', maxLength: 200 })}
            {field('department', { maxLength: 200 })}
            <NativeSelect
              label={t('profile.fields.timeZone')}
              value={value.timeZone}
              error={errors.timeZone}
              data={[{ value: '', label: t('profile.notSet') }, ...zones.map((zone) => ({ value: zone, label: zone.replace(/_/g, ' ') }))]}
              onChange={(event) => setValue({ ...value, timeZone: event.currentTarget.value })}
            />
            <NativeSelect
              label={t('profile.fields.locale')}
              value={value.locale}
              data={[{ value: '', label: t('profile.notSet') }, ...LANGUAGES.map((language) => ({ value: language.code, label: language.nativeName }))]}
              onChange={(event) => setValue({ ...value, locale: event.currentTarget.value })}
            />
          </SimpleGrid>
          <Group justify="flex-end">
            <Button type="submit" loading={save.isPending}>
              {t('profile.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}

type TwoFactorStep = { kind: 'idle' } | { kind: 'password' } | { kind: 'scan'; secret: string; otpauthUri: string } | { kind: 'disable' };

/** -1004 wrong password, -138 wrong code; everything else is a plain failure. */
function twoFactorMessage(error: unknown): 'profile.twoFactor.wrongPassword' | 'authenticate.errors.wrongCode' | 'common.unreachable' | 'internalErrorMsg' {
  if (error instanceof ApiError) {
    if (error.code === ResponseCode.WRONG_PASSWORD.code || error.code === ResponseCode.INVALID_PASSWORD.code) return 'profile.twoFactor.wrongPassword';
    if (error.code === ResponseCode.WRONG_OTP.code) return 'authenticate.errors.wrongCode';
    if (error.httpStatus === 0) return 'common.unreachable';
  }
  return 'internalErrorMsg';
}

function TwoFactorSection({ enabled }: { readonly enabled: boolean }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [step, setStep] = useState<TwoFactorStep>({ kind: 'idle' });
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [error, setError] = useState<ReturnType<typeof twoFactorMessage> | 'authenticate.codeInvalid' | 'common.required' | null>(null);
  const [notice, setNotice] = useState<'profile.twoFactor.enabledNotice' | 'profile.twoFactor.disabledNotice' | null>(null);

  const settle = (user: SessionUser, message: NonNullable<typeof notice>) => {
    updateSessionUser({ totpEnabled: user.totpEnabled });
    queryClient.setQueryData<UserInfo>(profileQueryKey, (old) => (old ? { ...old, totpEnabled: user.totpEnabled } : old));
    setStep({ kind: 'idle' });
    setPassword('');
    setCode('');
    setError(null);
    setNotice(message);
  };

  const start = useMutation({
    mutationFn: () => callApi(startTotpEnrolment, { body: { password } }, { failures: 'caller' }),
    onSuccess: (enrolment) => {
      setPassword('');
      setError(null);
      setStep({ kind: 'scan', ...enrolment });
    },
    onError: (failure) => {
      setPassword('');
      setError(twoFactorMessage(failure));
    },
  });
  const confirm = useMutation({
    mutationFn: () => callApi(confirmTotpEnrolment, { body: { code } }, { failures: 'caller' }),
    onSuccess: (user) => settle(user, 'profile.twoFactor.enabledNotice'),
    onError: (failure) => {
      setCode('');
      setError(twoFactorMessage(failure));
    },
  });
  const disable = useMutation({
    mutationFn: () => callApi(disableTotp, { body: { password } }, { failures: 'caller' }),
    onSuccess: (user) => settle(user, 'profile.twoFactor.disabledNotice'),
    onError: (failure) => {
      setPassword('');
      setError(twoFactorMessage(failure));
    },
  });

  const cancel = () => {
    setStep({ kind: 'idle' });
    setPassword('');
    setCode('');
    setError(null);
  };
  const requirePassword = (then: () => void) => (event: FormEvent) => {
    event.preventDefault();
    if (!password) return setError('common.required');
    setError(null);
    then();
  };
  const onConfirm = (event: FormEvent) => {
    event.preventDefault();
    if (!/^\d{6}$/.test(code)) return setError('authenticate.codeInvalid');
    setError(null);
    confirm.mutate();
  };

  const errorAlert = error && error !== 'common.required' && error !== 'authenticate.codeInvalid' && (
    <Alert color="red" variant="light" role="alert">
      {t(error)}
    </Alert>
  );
  const passwordField = (
    <PasswordField
      label={t('profile.twoFactor.password')}
      autoComplete="current-password"
      required
      autoFocus
      value={password}
      error={error === 'common.required' ? t('common.required') : undefined}
      onChange={(event) => setPassword(event.currentTarget.value)}
    />
  );

  let body;
  if (step.kind === 'password') {
    body = (
      <form onSubmit={requirePassword(() => start.mutate())} noValidate>
        <Stack gap="sm">
          <Text size="sm">{t('profile.twoFactor.passwordIntro')}</Text>
          {errorAlert}
          {passwordField}
          <Group gap="sm">
            <Button type="submit" loading={start.isPending}>
              {t('profile.twoFactor.continue')}
            </Button>
            <Button variant="subtle" color="gray" onClick={cancel}>
              {t('profile.twoFactor.cancel')}
            </Button>
          </Group>
        </Stack>
      </form>
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
            value={code}
            error={error === 'authenticate.codeInvalid' ? t('authenticate.codeInvalid') : undefined}
            onChange={(event) => setCode(event.currentTarget.value.replace(/\D/g, ''))}
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
      <form onSubmit={requirePassword(() => disable.mutate())} noValidate>
        <Stack gap="sm">
          <Text size="sm">{t('profile.twoFactor.disableIntro')}</Text>
          {errorAlert}
          {passwordField}
          <Group gap="sm">
            <Button type="submit" color="red" loading={disable.isPending}>
              {t('profile.twoFactor.disable')}
            </Button>
            <Button variant="subtle" color="gray" onClick={cancel}>
              {t('profile.twoFactor.cancel')}
            </Button>
          </Group>
        </Stack>
      </form>
    );
  } else {
    body = (
      <Group justify="space-between" gap="sm">
        <Text size="sm" c="dimmed" maw={460}>
          {t(enabled ? 'profile.twoFactor.onHint' : 'profile.twoFactor.offHint')}
        </Text>
        {enabled ? (
          <Button variant="light" color="red" onClick={() => (setNotice(null), setStep({ kind: 'disable' }))}>
            {t('profile.twoFactor.disable')}
          </Button>
        ) : (
          <Button onClick={() => (setNotice(null), setStep({ kind: 'password' }))}>{t('profile.twoFactor.enable')}</Button>
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
        {step.kind === 'scan' && (
          <Text size="xs" c="dimmed">
            {t('profile.twoFactor.appHint')}
          </Text>
        )}
      </Stack>
    </Card>
  );
}
