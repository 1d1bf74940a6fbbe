import { Alert, Anchor, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDocumentTitle } from '@mantine/hooks';
import { generateOtp, normalizeRecoveryCode, ResponseCode, validateOtp, verifyOtp, type OtpChannel, type TokenGrant, type TwoFactorChallenge } from '@pakt/domain';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useLocation, useNavigate, useSearchParams } from 'react-router';
import { ApiError, callApi } from '../../api/client';
import { useMailDelivered } from '../../api/public-queries';
import { useStartSession } from '../../api/session-lifecycle';
import { useSession } from '../../api/session-store';
import { challengeFrom, clearChallenge, loadChallenge, saveChallenge, type StoredChallenge } from '../../api/two-factor';
import { pathAfterSignIn } from '../../api/access';
import { RETURN_TO_PARAM, withReturnTo } from '../../api/return-to';
import { AuthCard } from '../../ui/auth-card';
import { RateLimitNotice, useRateLimitWait } from '../../ui/rate-limit-notice';
import { identityQueryKeys } from './queries';

/** How long to wait before offering to send again when the server did not say (its rule: 30 s). */
const DEFAULT_RESEND_WAIT = 30;

type VerifyRestartReason = 'expired' | 'locked' | 'paused';
type VerifyOutcome =
  | { readonly kind: 'message'; readonly key: 'authenticate.errors.wrongCode' | 'common.unreachable' | 'internalErrorMsg' }
  | { readonly kind: 'restart'; readonly reason: VerifyRestartReason };

/** Spec section 8 for the code step: a wrong code may be tried again; a dead challenge may not. */
export function verifyOutcome(error: unknown): VerifyOutcome {
  if (!(error instanceof ApiError)) return { kind: 'message', key: 'internalErrorMsg' };
  if (error.code === ResponseCode.WRONG_OTP.code) return { kind: 'message', key: 'authenticate.errors.wrongCode' };
  if (error.code === ResponseCode.MAXIMUM_OTP_ATTEMPTS.code) return { kind: 'restart', reason: 'locked' };
  if (error.code === ResponseCode.INVALID_OTP_ID.code) return { kind: 'restart', reason: 'expired' };
  // Too many wrong codes across sign-ins: the second factor is locked for a while (-14).
  if (error.code === ResponseCode.USER_LOCKED.code) return { kind: 'restart', reason: 'paused' };
  return { kind: 'message', key: error.httpStatus === 0 ? 'common.unreachable' : 'internalErrorMsg' };
}

/** The challenge from the login page's router state (fresh) or this tab's storage (a reload). */
function useChallenge(): StoredChallenge | null {
  const location = useLocation();
  const [stored] = useState(() => {
    const fromState = challengeFrom((location.state as { challenge?: unknown } | null)?.challenge);
    if (fromState) {
      const kept = loadChallenge();
      return kept?.challenge.otpId === fromState.otpId ? kept : saveChallenge(fromState);
    }
    return loadChallenge();
  });
  return stored;
}

export function AuthenticatePage() {
  const session = useSession();
  const stored = useChallenge();
  // The page sign-in was asked for by (/login?returnTo=…), carried through this step.
  const returnTo = useSearchParams()[0].get(RETURN_TO_PARAM);
  if (session) return <Navigate to={pathAfterSignIn(session, returnTo)} replace />;
  if (!stored) return <Navigate to={withReturnTo('/login?twofactor=expired', returnTo)} replace />;
  return <CodeForm challenge={stored.challenge} returnTo={returnTo} />;
}

/** Seconds left until `until` (epoch ms), re-rendered every second while positive. */
function useCountdown(until: number): number {
  const [now, setNow] = useState(() => Date.now());
  const left = Math.max(0, Math.ceil((until - now) / 1000));
  useEffect(() => {
    if (left <= 0) return;
    const timer = window.setTimeout(() => setNow(Date.now()), 1000);
    return () => window.clearTimeout(timer);
  }, [left, now]);
  return left;
}

function CodeForm({ challenge, returnTo }: { readonly challenge: TwoFactorChallenge; readonly returnTo: string | null }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const beginSession = useStartSession();
  const form = useForm({
    mode: 'controlled',
    initialValues: { code: '' },
    validate: { code: (value) => (/^\d{6}$/.test(value.trim()) ? null : t('authenticate.codeInvalid')) },
    // A refusal stays until the next code is tried; typing does not clear it.
    clearInputErrorOnChange: false,
  });
  const [message, setMessage] = useState<VerifyOutcome & { kind: 'message' } | null>(null);
  const [sendMessage, setSendMessage] = useState<
    'authenticate.sent' | 'authenticate.smsSent' | 'authenticate.errors.resendTooSoon' | 'authenticate.errors.sendFailed' | null
  >(null);
  const [channel, setChannel] = useState<OtpChannel>('email');
  const [resendAt, setResendAt] = useState(0);
  const wait = useCountdown(resendAt);
  const rateLimit = useRateLimitWait();
  useDocumentTitle(`${t('authenticate.title')} · Pakt`);

  const restart = (reason: VerifyRestartReason) => {
    clearChallenge();
    void navigate(withReturnTo(`/login?twofactor=${reason}`, returnTo), { replace: true });
  };

  // Whether the challenge still lives (a reload may come after it ended) and how many tries are left.
  const status = useQuery({
    queryKey: identityQueryKeys.otpChallenge(challenge.otpId),
    queryFn: ({ signal }) => callApi(validateOtp, { body: { otpId: challenge.otpId } }, { signal, failures: 'caller' }),
    retry: false,
    staleTime: Infinity,
  });
  useEffect(() => {
    if (!status.error) return;
    const outcome = verifyOutcome(status.error);
    if (outcome.kind === 'restart') restart(outcome.reason);
  });

  const send = useMutation({
    mutationFn: (via: OtpChannel) => callApi(generateOtp, { body: { otpId: challenge.otpId, channel: via } }, { failures: 'caller' }),
    onSuccess: (result) => {
      setChannel(result.channel);
      setSendMessage(result.channel === 'sms' ? 'authenticate.smsSent' : 'authenticate.sent');
      setResendAt(Date.now() + result.resendAfter * 1000);
    },
    onError: (error) => {
      if (rateLimit.refuse(error)) return;
      if (error instanceof ApiError && error.code === ResponseCode.OTP_RETRY_TIMEOUT.code) {
        setSendMessage('authenticate.errors.resendTooSoon');
        const after = error.data?.['resendAfter'];
        setResendAt(Date.now() + (typeof after === 'number' ? after : DEFAULT_RESEND_WAIT) * 1000);
        return;
      }
      const outcome = verifyOutcome(error);
      if (outcome.kind === 'restart') restart(outcome.reason);
      else setSendMessage('authenticate.errors.sendFailed');
    },
  });

  // An emailed code is sent on arrival, once (a re-render or React's double effects must not mail twice).
  const sentOnArrival = useRef(false);
  useEffect(() => {
    if (challenge.method !== 'email' || sentOnArrival.current) return;
    sentOnArrival.current = true;
    send.mutate('email');
  }, [challenge.method, send]);

  const verify = useMutation({
    // The code is read from the form as the request starts, not handed to mutate, so it is not kept
    // among the mutation's variables.
    mutationFn: () => callApi(verifyOtp, { body: { otpId: challenge.otpId, code: form.getValues().code.trim() } }, { failures: 'caller' }),
    onSuccess: (grant) => {
      clearChallenge();
      void navigate(pathAfterSignIn(beginSession(grant), returnTo), { replace: true });
    },
    onError: (error) => {
      // Too many requests from this address: the code was not checked, so it is kept for later.
      if (rateLimit.refuse(error)) return;
      const outcome = verifyOutcome(error);
      if (outcome.kind === 'restart') return restart(outcome.reason);
      setMessage(outcome);
      form.setFieldValue('code', '');
      void status.refetch();
    },
  });

  const onSubmit = form.onSubmit(
    () => {
      setMessage(null);
      verify.mutate();
    },
    () => setMessage(null),
  );

  // A lost phone: one of the recovery codes stands in for the app's code.
  const [withRecoveryCode, setWithRecoveryCode] = useState(false);
  const isEmail = challenge.method === 'email';
  const mailDelivered = useMailDelivered();
  const phone = challenge.maskedPhone?.slice(-4) ?? null;
  const attemptsLeft = status.data?.attemptsLeft;
  let intro = t('authenticate.totpIntro');
  if (isEmail && channel === 'sms') intro = t('authenticate.smsIntro', { phone });
  // Without a mail server the code only reaches the outbox: never say it was emailed.
  else if (isEmail && phone) intro = t(mailDelivered ? 'authenticate.emailIntroChoice' : 'authenticate.emailIntroChoiceOutbox', { email: challenge.maskedEmail, phone });
  else if (isEmail) intro = t(mailDelivered ? 'authenticate.emailIntro' : 'authenticate.emailIntroOutbox', { email: challenge.maskedEmail });
  const codeLabel = !isEmail ? 'authenticate.appCode' : channel === 'sms' ? 'authenticate.smsCode' : 'authenticate.emailCode';
  if (withRecoveryCode && !isEmail) {
    return (
      <RecoveryCodeForm
        otpId={challenge.otpId}
        onBack={() => setWithRecoveryCode(false)}
        onRestart={restart}
        onSignedIn={(grant) => {
          clearChallenge();
          void navigate(pathAfterSignIn(beginSession(grant), returnTo), { replace: true });
        }}
      />
    );
  }
  return (
    <AuthCard title={t('authenticate.title')} description={intro} maw={440}>
      {message && (
        <Alert color="red" variant="light" role="alert">
          {t(message.key)}
          {message.key === 'authenticate.errors.wrongCode' && attemptsLeft !== undefined && ` ${t('authenticate.attemptsLeft', { count: attemptsLeft })}`}
        </Alert>
      )}
      {isEmail && sendMessage && (
        <Alert color={sendMessage === 'authenticate.sent' || sendMessage === 'authenticate.smsSent' ? 'teal' : 'orange'} variant="light" role="status">
          {t(sendMessage === 'authenticate.sent' && !mailDelivered ? 'authenticate.sentOutbox' : sendMessage, { email: challenge.maskedEmail, phone })}
        </Alert>
      )}
      <RateLimitNotice wait={rateLimit.wait} />
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          <TextInput
            label={t(codeLabel)}
            description={t('authenticate.codeHint')}
            required
            autoFocus
            autoComplete="one-time-code"
            inputMode="numeric"
            maxLength={6}
            {...form.getInputProps('code')}
            onChange={(event) => form.setFieldValue('code', event.currentTarget.value.replace(/\D/g, ''))}
            styles={{ input: { letterSpacing: '0.4em', fontSize: 20 } }}
          />
          <Button type="submit" size="md" fullWidth loading={verify.isPending} disabled={rateLimit.wait > 0}>
            {t('authenticate.submit')}
          </Button>
          {!isEmail && (
            <Button variant="subtle" onClick={() => setWithRecoveryCode(true)}>
              {t('authenticate.recovery.open')}
            </Button>
          )}
          {isEmail && (
            <Button variant="subtle" onClick={() => send.mutate(channel)} disabled={wait > 0 || rateLimit.wait > 0} loading={send.isPending}>
              {wait > 0 ? t('authenticate.resendIn', { count: wait }) : t('authenticate.resend')}
            </Button>
          )}
          {isEmail && phone && (
            <Button variant="subtle" onClick={() => send.mutate(channel === 'sms' ? 'email' : 'sms')} disabled={wait > 0 || send.isPending}>
              {t(channel === 'sms' ? 'authenticate.sendEmail' : 'authenticate.sendSms')}
            </Button>
          )}
        </Stack>
      </form>
      <Group justify="center">
        <Text size="sm" c="dimmed">
          <Anchor component={Link} to="/login" onClick={() => clearChallenge()}>
            {t('authenticate.cancel')}
          </Anchor>
        </Text>
      </Group>
    </AuthCard>
  );
}

type RecoveryMessage = 'authenticate.recovery.wrong' | 'common.unreachable' | 'internalErrorMsg';

/**
 * The second step with a recovery code instead of the app's code. Each code works once, and a
 * wrong one counts as a wrong code on the server (the same tries, the same lock), so the
 * refusals and restarts are the code form's.
 */
function RecoveryCodeForm({
  otpId,
  onBack,
  onRestart,
  onSignedIn,
}: {
  readonly otpId: string;
  readonly onBack: () => void;
  readonly onRestart: (reason: VerifyRestartReason) => void;
  readonly onSignedIn: (grant: TokenGrant) => void;
}) {
  const { t } = useTranslation();
  const rateLimit = useRateLimitWait();
  const form = useForm({
    mode: 'controlled',
    initialValues: { recoveryCode: '' },
    validate: { recoveryCode: (value) => (normalizeRecoveryCode(value) ? null : t('authenticate.recovery.invalid')) },
    clearInputErrorOnChange: false,
  });
  const [message, setMessage] = useState<RecoveryMessage | null>(null);
  const verify = useMutation({
    // Read from the form as the request starts, so the code is not kept among the mutation's variables.
    mutationFn: () => callApi(verifyOtp, { body: { otpId, recoveryCode: form.getValues().recoveryCode.trim() } }, { failures: 'caller' }),
    onSuccess: onSignedIn,
    onError: (error) => {
      if (rateLimit.refuse(error)) return;
      const outcome = verifyOutcome(error);
      if (outcome.kind === 'restart') return onRestart(outcome.reason);
      setMessage(outcome.key === 'authenticate.errors.wrongCode' ? 'authenticate.recovery.wrong' : outcome.key);
      form.setFieldValue('recoveryCode', '');
    },
  });
  const onSubmit = form.onSubmit(
    () => {
      setMessage(null);
      verify.mutate();
    },
    () => setMessage(null),
  );
  return (
    <AuthCard title={t('authenticate.title')} description={t('authenticate.recovery.intro')} maw={440}>
      {message && (
        <Alert color="red" variant="light" role="alert">
          {t(message)}
        </Alert>
      )}
      <RateLimitNotice wait={rateLimit.wait} />
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          <TextInput
            label={t('authenticate.recovery.label')}
            description={t('authenticate.recovery.hint')}
            required
            autoFocus
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            maxLength={40}
            {...form.getInputProps('recoveryCode')}
            styles={{ input: { letterSpacing: '0.1em', fontSize: 18 } }}
          />
          <Button type="submit" size="md" fullWidth loading={verify.isPending} disabled={rateLimit.wait > 0}>
            {t('authenticate.submit')}
          </Button>
          <Button variant="subtle" onClick={onBack}>
            {t('authenticate.recovery.useApp')}
          </Button>
        </Stack>
      </form>
      <Group justify="center">
        <Text size="sm" c="dimmed">
          <Anchor component={Link} to="/login" onClick={() => clearChallenge()}>
            {t('authenticate.cancel')}
          </Anchor>
        </Text>
      </Group>
    </AuthCard>
  );
}
