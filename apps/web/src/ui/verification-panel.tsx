import { Alert, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { type EpakDetail, type RecipientVerification, VERIFICATION_CODE_LENGTH } from '@pakt/domain';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { usePublicConfiguration } from '../api/public-queries';
import { useSigningApi } from '../api/signing-api';
import { signingQueryKeys } from '../api/signing-query-keys';
import { SidePanel } from './side-panel';
import { useRecipientVerification, verificationErrorMessage } from '../api/recipient-verification';

/** The id the Sign button's gate moves the focus to, so a keyboard or screen-reader user lands here. */
export const VERIFICATION_PANEL_ID = 'signer-verification';

/**
 * Signer verification (issue 22, spec §9): before signing or delegating, the signer asks for a
 * one-time code (by mail, or by text when they have a phone on record) and types it here. The
 * field is a single labelled input the browser can fill from an SMS (autocomplete one-time-code).
 * Errors say what happened: a wrong code (with the tries left), an expired or void one, a lock
 * (with its wait), asking again too soon. Once confirmed, `onVerified` refreshes the host page.
 */
export function VerificationPanel({
  ePakId,
  verification,
  onVerified,
  framed = true,
}: {
  readonly ePakId: string;
  readonly verification: RecipientVerification;
  readonly onVerified: (verification: RecipientVerification) => void;
  /** In the ceremony's side column it is a panel of its own; inside a dialog, its content only. */
  readonly framed?: boolean;
}) {
  const { t } = useTranslation();
  const codeId = useId();
  const flow = useRecipientVerification({ ePakId, verification, onVerified });
  const [code, setCode] = useState('');
  const { state } = flow;
  const locked = flow.lockedFor > 0;
  const busy = flow.send.isPending || flow.confirm.isPending;
  const delivered = usePublicConfiguration().data?.mailDelivery === 'smtp';

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (code.length !== VERIFICATION_CODE_LENGTH || busy) return;
    flow.confirm.mutate(code, { onError: () => setCode('') });
  };
  const sendBy = (channel: 'email' | 'sms') => {
    setCode('');
    flow.send.mutate(channel);
  };

  const content = (
    <Stack gap="sm" id={framed ? undefined : VERIFICATION_PANEL_ID} tabIndex={framed ? undefined : -1} data-testid="verification-panel">
      {flow.sentTo ? (
        <Text size="sm" role="status" data-testid="verification-sent">
          {/* "Sent" only when a mail server delivers: otherwise the code waits in the outbox (issue 22). */}
          {t(`signing.verification.${delivered ? 'sent' : 'queued'}${flow.sentTo.channel === 'sms' ? 'ByText' : 'ByMail'}`, { to: flow.sentTo.to })}
        </Text>
      ) : state.codeOutstanding ? (
        <Text size="sm">{t('signing.verification.outstanding')}</Text>
      ) : null}

      {flow.error && (
        <Alert color="red" variant="light" role="alert" p="xs" data-testid="verification-error">
          {verificationErrorMessage(t, flow.error)}
        </Alert>
      )}
      {locked && !flow.error && (
        <Alert color="orange" variant="light" role="alert" p="xs">
          {t('signing.verification.errors.locked', { count: Math.ceil(flow.lockedFor / 60) })}
        </Alert>
      )}

      {flow.awaitingCode && !locked && (
        <form onSubmit={submit} noValidate>
          <Group gap="xs" align="flex-end" wrap="wrap">
            <TextInput
              id={codeId}
              label={t('signing.verification.codeLabel')}
              description={t('signing.verification.codeHint', { count: VERIFICATION_CODE_LENGTH })}
              value={code}
              onChange={(event) => setCode(event.currentTarget.value.replace(/\D/g, '').slice(0, VERIFICATION_CODE_LENGTH))}
              autoComplete="one-time-code"
              inputMode="numeric"
              pattern="[0-9]*"
              maxLength={VERIFICATION_CODE_LENGTH}
              required
              style={{ flex: '1 1 10rem' }}
              styles={{ input: { letterSpacing: '0.3em', fontVariantNumeric: 'tabular-nums' } }}
              data-testid="verification-code"
              data-autofocus
            />
            <Button type="submit" loading={flow.confirm.isPending} disabled={code.length !== VERIFICATION_CODE_LENGTH || flow.send.isPending} data-testid="verification-confirm">
              {t('signing.verification.confirm')}
            </Button>
          </Group>
        </form>
      )}

      {!locked && (
        <Stack gap={4}>
          <Group gap="xs" wrap="wrap">
            <Button
              variant={flow.awaitingCode ? 'subtle' : 'filled'}
              size={flow.awaitingCode ? 'compact-sm' : 'sm'}
              onClick={() => sendBy('email')}
              loading={flow.send.isPending && flow.send.variables === 'email'}
              disabled={flow.resendIn > 0 || busy}
              data-testid="verification-send-mail"
            >
              {t(flow.awaitingCode ? 'signing.verification.resendMail' : 'signing.verification.sendMail', { to: state.maskedEmail ?? '' })}
            </Button>
            {state.maskedPhone && (
              <Button
                variant={flow.awaitingCode ? 'subtle' : 'light'}
                size={flow.awaitingCode ? 'compact-sm' : 'sm'}
                onClick={() => sendBy('sms')}
                loading={flow.send.isPending && flow.send.variables === 'sms'}
                disabled={flow.resendIn > 0 || busy}
                data-testid="verification-send-text"
              >
                {t(flow.awaitingCode ? 'signing.verification.resendText' : 'signing.verification.sendText', { to: state.maskedPhone })}
              </Button>
            )}
          </Group>
          {flow.resendIn > 0 && (
            <Text size="xs" c="dimmed" data-testid="verification-countdown">
              {t('signing.verification.resendIn', { count: flow.resendIn })}
            </Text>
          )}
        </Stack>
      )}
    </Stack>
  );

  if (!framed) return content;
  return (
    <div id={VERIFICATION_PANEL_ID} tabIndex={-1}>
      <SidePanel title={t('signing.verification.heading')} intro={t('signing.verification.intro')} testId="verification-section">
        {content}
      </SidePanel>
    </div>
  );
}

/**
 * The ceremony's verification panel: once the code is confirmed, the ePak is fetched again (the
 * viewer says verified at once, so Sign works without waiting for the refetch).
 */
export function CeremonyVerificationPanel({ ePakId, verification }: { readonly ePakId: string; readonly verification: RecipientVerification }) {
  const { scope } = useSigningApi();
  const queryClient = useQueryClient();
  const onVerified = (next: RecipientVerification) => {
    const key = signingQueryKeys.epak(scope, ePakId);
    queryClient.setQueryData<EpakDetail>(key, (old) => (old?.viewer ? { ...old, viewer: { ...old.viewer, verification: next } } : old));
    void queryClient.invalidateQueries({ queryKey: key });
  };
  return <VerificationPanel ePakId={ePakId} verification={verification} onVerified={onVerified} />;
}

/** Sign pressed before the code is confirmed: the panel is brought into view and given the focus. */
export function showVerificationPanel(): void {
  const panel = document.getElementById(VERIFICATION_PANEL_ID);
  if (!panel) return;
  panel.scrollIntoView?.({ behavior: 'smooth', block: 'center' });
  panel.focus();
}
