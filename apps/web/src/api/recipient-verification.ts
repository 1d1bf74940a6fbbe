import {
  confirmVerificationCode,
  type RecipientVerification,
  ResponseCode,
  sendVerificationCode,
  type VerificationChannel,
} from '@pakt/domain';
import { useMutation } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useEffect, useState } from 'react';
import { ApiError } from './client';
import { useSigningApi } from './signing-api';

/** Whether the caller's place still waits for a confirmed code before they may sign or delegate. */
export function verificationPending(verification: RecipientVerification | undefined): verification is RecipientVerification {
  return verification !== undefined && verification.required && !verification.verified;
}

/** Seconds from now until an ISO time (0 once it has passed, or for none). */
function secondsUntil(iso: string | null, now: number): number {
  if (!iso) return 0;
  return Math.max(0, Math.ceil((new Date(iso).getTime() - now) / 1000));
}

/** A clock ticking every second while `running`, for the resend countdown. */
function useNow(running: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!running) return;
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, [running]);
  return now;
}

/**
 * Signer verification in the ceremony (issue 22): asking for a code (by mail, or by text when the
 * person has a phone), confirming it, and when a new one may be asked for. `onVerified` hears the
 * place's new state once the code is right, so the host page fetches the ePak again.
 */
export function useRecipientVerification({
  ePakId,
  verification,
  onVerified,
}: {
  readonly ePakId: string;
  readonly verification: RecipientVerification;
  readonly onVerified: (verification: RecipientVerification) => void;
}) {
  const { callApi } = useSigningApi();
  // What the last answer said of the place, until the viewer is fetched again (then it knows better).
  const [answered, setAnswered] = useState<{ readonly basis: RecipientVerification; readonly value: RecipientVerification } | null>(null);
  const latest = answered && answered.basis === verification ? answered.value : verification;
  const setLatest = (change: (current: RecipientVerification) => RecipientVerification) => setAnswered({ basis: verification, value: change(latest) });
  const [sentTo, setSentTo] = useState<{ channel: VerificationChannel; to: string } | null>(null);
  // A wait the server told of (-198) before the viewer knew of the last code.
  const [waitUntil, setWaitUntil] = useState<string | null>(null);

  const confirm = useMutation({
    mutationFn: (code: string) => callApi(confirmVerificationCode, { params: { ePakId }, body: { code } }, { failures: 'caller' }),
    onSuccess: (answer) => {
      setLatest(() => answer.verification);
      onVerified(answer.verification);
    },
    onError: (error) => {
      // A void code or a lock: the code on screen can no longer be confirmed.
      if (error instanceof ApiError && (error.code === ResponseCode.MAXIMUM_OTP_ATTEMPTS.code || error.code === ResponseCode.INVALID_OTP_ID.code)) {
        setLatest((current) => ({
          ...current,
          codeOutstanding: false,
          attemptsLeft: 0,
          ...(typeof error.data?.['lockedUntil'] === 'string' ? { lockedUntil: error.data['lockedUntil'] } : {}),
        }));
      }
    },
  });

  const send = useMutation({
    mutationFn: (channel: VerificationChannel) => callApi(sendVerificationCode, { params: { ePakId }, body: { channel } }, { failures: 'caller' }),
    onSuccess: (answer) => {
      setLatest(() => answer.verification);
      setSentTo({ channel: answer.channel, to: answer.sentTo });
      setWaitUntil(null);
      confirm.reset();
    },
    onError: (error) => {
      const resendAfter = error instanceof ApiError && error.code === ResponseCode.OTP_RETRY_TIMEOUT.code ? error.data?.['resendAfter'] : undefined;
      if (typeof resendAfter === 'number') setWaitUntil(new Date(Date.now() + resendAfter * 1000).toISOString());
    },
  });
  const resendAt = [latest.resendAt, waitUntil].filter((value): value is string => value !== null).sort().at(-1) ?? null;
  const ticking = resendAt !== null || latest.lockedUntil !== null;
  const now = useNow(ticking);
  const resendIn = secondsUntil(resendAt, now);
  const lockedFor = secondsUntil(latest.lockedUntil, now);

  return {
    state: latest,
    /** A code was sent in this visit (where to), or one sent earlier may still be typed. */
    sentTo,
    awaitingCode: sentTo !== null || latest.codeOutstanding,
    resendIn,
    lockedFor,
    send,
    confirm,
    error: confirm.error ?? send.error,
  };
}

export type RecipientVerificationState = ReturnType<typeof useRecipientVerification>;

/** The words for a refused send or confirmation: wrong, expired, void, locked, too soon. */
export function verificationErrorMessage(t: TFunction, error: unknown): string {
  if (!(error instanceof ApiError)) return t('signing.verification.errors.generic');
  if (error.httpStatus === 0) return t('common.unreachable');
  switch (error.code) {
    case ResponseCode.WRONG_OTP.code: {
      const left = error.data?.['attemptsLeft'];
      return typeof left === 'number' ? t('signing.verification.errors.wrong', { count: left }) : t('signing.verification.errors.wrongPlain');
    }
    case ResponseCode.INVALID_OTP_ID.code:
      return t('signing.verification.errors.expired');
    case ResponseCode.MAXIMUM_OTP_ATTEMPTS.code: {
      const retryAfter = error.data?.['retryAfter'];
      return typeof retryAfter === 'number' ? t('signing.verification.errors.locked', { count: Math.ceil(retryAfter / 60) }) : t('signing.verification.errors.tooManyTries');
    }
    case ResponseCode.OTP_RETRY_TIMEOUT.code: {
      const resendAfter = error.data?.['resendAfter'];
      return t('signing.verification.errors.tooSoon', { count: typeof resendAfter === 'number' ? resendAfter : 60 });
    }
    case ResponseCode.INVALID_INPUT.code:
      if ((error.issues ?? []).some((issue) => issue.path === 'channel')) return t('signing.verification.errors.noText');
      return error.message || t('signing.verification.errors.generic');
    case ResponseCode.USER_WORKFLOW_STATUS_NOT_PENDING.code:
      return t('signing.errors.notPending');
    default:
      return error.message || t('signing.verification.errors.generic');
  }
}
