import { Alert } from '@mantine/core';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { retryAfterSeconds } from '../api/rate-limit';

export interface RateLimitWait {
  /** Seconds left before the form may be sent again; 0 when it may. */
  readonly wait: number;
  /** Starts the wait when `error` is a rate-limit refusal; says whether it was one. */
  readonly refuse: (error: unknown) => boolean;
}

/**
 * The wait a form owes after the server said "too many requests from this address": a countdown
 * (re-rendered every second) that the form shows and disables its submit button with, so the
 * person does not spend further attempts that would be refused anyway.
 */
export function useRateLimitWait(): RateLimitWait {
  const [until, setUntil] = useState(0);
  const [now, setNow] = useState(() => Date.now());
  const wait = Math.max(0, Math.ceil((until - now) / 1000));
  useEffect(() => {
    if (wait <= 0) return;
    const timer = window.setTimeout(() => setNow(Date.now()), 1000);
    return () => window.clearTimeout(timer);
  }, [wait, now]);
  const refuse = useCallback((error: unknown) => {
    const seconds = retryAfterSeconds(error);
    if (seconds === null) return false;
    const at = Date.now();
    setNow(at);
    setUntil(at + seconds * 1000);
    return true;
  }, []);
  return { wait, refuse };
}

/** "Too many attempts: try again in N seconds", while the wait lasts. */
export function RateLimitNotice({ wait }: { readonly wait: number }) {
  const { t } = useTranslation();
  if (wait <= 0) return null;
  return (
    <Alert color="orange" variant="light" role="alert">
      {t('common.tooManyAttempts', { count: wait })}
    </Alert>
  );
}
