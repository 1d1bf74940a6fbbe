import { Alert, Box, Button, Container, Group, Modal, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { authorizeInPersonSigner, displayName, ResponseCode, type EndpointData, type EpakRecipient } from '@pakt/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client';
import { useMailDelivered } from '../../api/public-queries';
import type { Outcome } from './action-panel';
import { createInPersonClient, type InPersonClient } from './in-person-session';
import { actionErrorMessage } from './sign-errors';
import { SigningApiProvider, useSigningApi } from '../../api/signing-api';
import { signingQueryKeys } from '../../api/signing-query-keys';
import { SigningCeremony } from './signing-ceremony';
import type { CeremonyPerson } from './use-ceremony';

type AuthorizeAnswer = EndpointData<typeof authorizeInPersonSigner>;

/** What a refused code means, worded for the host and the signer at the screen together. */
export function inPersonCodeError(t: TFunction, error: unknown): { readonly message: string; readonly newCode: boolean } {
  if (error instanceof ApiError) {
    if (error.code === ResponseCode.WRONG_OTP.code) return { message: t('signing.inPerson.errors.wrongCode'), newCode: false };
    if (error.code === ResponseCode.MAXIMUM_OTP_ATTEMPTS.code) return { message: t('signing.inPerson.errors.tooMany'), newCode: true };
    if (error.code === ResponseCode.INVALID_OTP_ID.code) return { message: t('signing.inPerson.errors.expired'), newCode: true };
    if (error.code === ResponseCode.USER_WORKFLOW_STATUS_NOT_PENDING.code) return { message: t('signing.inPerson.errors.notPending'), newCode: false };
  }
  return { message: actionErrorMessage(t, error), newCode: false };
}

/**
 * Confirming who is at the host's screen: a six-digit code mailed to the signer, which they read
 * out or type here. The right code yields the signer's sign-auth token (handed to `onAuthorized`,
 * never stored). Calls carry the host's session: only the ePak's owner may ask.
 */
export function InPersonDialog({
  ePakId,
  recipient,
  onClose,
  onAuthorized,
}: {
  readonly ePakId: string;
  readonly recipient: EpakRecipient | null;
  readonly onClose: () => void;
  readonly onAuthorized: (answer: AuthorizeAnswer & { readonly signAuthToken: string }) => void;
}) {
  const { t } = useTranslation();
  const { callApi } = useSigningApi();
  const [sent, setSent] = useState<{ readonly otpId: string; readonly sentTo: string | null } | null>(null);
  // The code typed: checked for six digits at each confirm, its refusal shown until the next one.
  const form = useForm({
    mode: 'controlled',
    initialValues: { code: '' },
    clearInputErrorOnChange: false,
    validate: { code: (value) => (/^\d{6}$/.test(value.trim()) ? null : t('signing.inPerson.codeInvalid')) },
  });
  const { reset } = form;
  const [error, setError] = useState<string | null>(null);
  // Without a mail server the code only reaches the outbox: never say it was mailed.
  const mailDelivered = useMailDelivered();

  // Every opening, for whoever it is, starts from sending a code.
  const recipientId = recipient?.recipientId ?? null;
  useEffect(() => {
    setSent(null);
    reset();
    setError(null);
  }, [recipientId, reset]);

  const send = useMutation({
    mutationFn: (id: string) => callApi(authorizeInPersonSigner, { body: { ePakId, recipientId: id } }, { failures: 'caller' }),
    onMutate: () => setError(null),
    onSuccess: (answer) => {
      if (!answer.otpId) return setError(t('signing.errors.generic'));
      setSent({ otpId: answer.otpId, sentTo: answer.sentTo });
      form.setFieldValue('code', '');
    },
    onError: (failure) => setError(inPersonCodeError(t, failure).message),
  });

  const confirm = useMutation({
    mutationFn: (input: { recipientId: string; otpId: string; code: string }) => callApi(authorizeInPersonSigner, { body: { ePakId, ...input } }, { failures: 'caller' }),
    onMutate: () => setError(null),
    onSuccess: (answer) => {
      if (!answer.signAuthToken) return setError(t('signing.errors.generic'));
      onAuthorized({ ...answer, signAuthToken: answer.signAuthToken });
    },
    onError: (failure) => {
      const { message, newCode } = inPersonCodeError(t, failure);
      setError(message);
      form.setFieldValue('code', '');
      // The challenge is over (too many tries, or expired): only a new code helps now.
      if (newCode) setSent(null);
    },
  });

  if (!recipient) return <Modal opened={false} onClose={onClose} />;
  const name = displayName(recipient);

  const onSubmit = form.onSubmit(({ code }) => {
    if (sent) confirm.mutate({ recipientId: recipient.recipientId, otpId: sent.otpId, code: code.trim() });
  });

  return (
    <Modal opened onClose={onClose} title={t('signing.inPerson.dialogTitle', { name })} centered>
      <Stack gap="sm">
        {error && (
          <Alert color="red" variant="light" role="alert" p="xs" data-testid="in-person-error">
            {error}
          </Alert>
        )}
        {!sent ? (
          <>
            <Text size="sm">{t(mailDelivered ? 'signing.inPerson.sendIntro' : 'signing.inPerson.sendIntroOutbox', { name, email: recipient.email })}</Text>
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={onClose}>
                {t('signing.cancel')}
              </Button>
              <Button onClick={() => send.mutate(recipient.recipientId)} loading={send.isPending}>
                {t('signing.inPerson.send')}
              </Button>
            </Group>
          </>
        ) : (
          <form onSubmit={onSubmit} noValidate>
            <Stack gap="sm">
              <Text size="sm" role="status">
                {t(mailDelivered ? 'signing.inPerson.sent' : 'signing.inPerson.sentOutbox', { name, email: sent.sentTo ?? recipient.email })}
              </Text>
              <TextInput
                label={t('signing.inPerson.code')}
                description={t('signing.inPerson.codeHint')}
                required
                autoFocus
                autoComplete="one-time-code"
                inputMode="numeric"
                maxLength={6}
                {...form.getInputProps('code')}
                onChange={(event) => form.setFieldValue('code', event.currentTarget.value.replace(/\D/g, ''))}
                styles={{ input: { letterSpacing: '0.4em', fontSize: 20 } }}
              />
              <Group justify="space-between" gap="sm">
                <Button variant="subtle" size="compact-sm" onClick={() => send.mutate(recipient.recipientId)} loading={send.isPending}>
                  {t('signing.inPerson.resend')}
                </Button>
                <Group gap="sm">
                  <Button variant="default" onClick={onClose}>
                    {t('signing.cancel')}
                  </Button>
                  <Button type="submit" loading={confirm.isPending}>
                    {t('signing.inPerson.confirm')}
                  </Button>
                </Group>
              </Group>
            </Stack>
          </form>
        )}
      </Stack>
    </Modal>
  );
}

/** How the signer's turn ended, told to the host when the screen is theirs again. */
type TurnEnd = { readonly kind: 'signed' | 'rejected' | 'cancelled' | 'expired'; readonly name: string };

/**
 * The signing ceremony of /sign with INPERSONSIGN hosted on it: the host's own ceremony, whose
 * side column offers "Sign in person with …" while an in-person step waits; once the signer's
 * code is confirmed the whole screen becomes the signer's ceremony, acting with their sign-auth
 * token (in memory only; the host's session stays as it was), under a banner saying whose turn
 * it is. When the signer has signed, rejected, or the turn is ended, the host's view is back.
 */
export function HostedSigningCeremony({ ePakId, person, tenantId }: { readonly ePakId: string; readonly person: CeremonyPerson; readonly tenantId: string }) {
  const { t } = useTranslation();
  const host = useSigningApi();
  const queryClient = useQueryClient();
  const [asking, setAsking] = useState<EpakRecipient | null>(null);
  const [turn, setTurn] = useState<InPersonClient | null>(null);
  const [ended, setEnded] = useState<TurnEnd | null>(null);

  /** The signer's turn under way, for callbacks that outlive the render that made them. */
  const current = useRef<InPersonClient | null>(null);

  const backToHost = (end: TurnEnd) => {
    current.current = null;
    setTurn(null);
    setEnded(end);
    // Where everyone stands now, as the host sees it.
    void queryClient.invalidateQueries({ queryKey: signingQueryKeys.all(host.scope, ePakId) });
  };

  if (turn) {
    const name = displayName(turn.signer);
    return (
      <InPersonTurn
        client={turn}
        ePakId={ePakId}
        onDone={(outcome) => {
          // The signer's cached answers go with their turn.
          queryClient.removeQueries({ queryKey: signingQueryKeys.scope(turn.scope) });
          backToHost({ kind: outcome === 'cancelled' ? 'cancelled' : outcome === 'expired' ? 'expired' : outcome.kind === 'rejected' ? 'rejected' : 'signed', name });
        }}
      />
    );
  }

  return (
    <Stack gap="md">
      {ended && (
        <Alert color={ended.kind === 'signed' ? 'teal' : ended.kind === 'rejected' ? 'red' : 'orange'} variant="light" role="status" withCloseButton closeButtonLabel={t('signing.inPerson.dismiss')} onClose={() => setEnded(null)} data-testid="in-person-ended">
          {t(`signing.inPerson.ended.${ended.kind}`, { name: ended.name })}
        </Alert>
      )}
      <SigningCeremony ePakId={ePakId} person={person} onSignInPerson={setAsking} withManage />
      <InPersonDialog
        ePakId={ePakId}
        recipient={asking}
        onClose={() => setAsking(null)}
        onAuthorized={(answer) => {
          setAsking(null);
          setEnded(null);
          const client = createInPersonClient(answer, tenantId, {
            // The token ran out (15 minutes): the turn is over, the host asks for a new code. A
            // late answer for a turn already over changes nothing.
            onEnded: () => {
              if (current.current === client) backToHost({ kind: 'expired', name: displayName(answer.signer) });
            },
          });
          current.current = client;
          setTurn(client);
        }}
      />
    </Stack>
  );
}

/**
 * The signer's turn: the screen is covered by their ceremony (the app's header, menu and the
 * host's account are out of reach behind it) under a banner naming them.
 */
function InPersonTurn({ client, ePakId, onDone }: { readonly client: InPersonClient; readonly ePakId: string; readonly onDone: (outcome: Outcome | 'cancelled' | 'expired') => void }) {
  const { t } = useTranslation();
  const titleId = useId();
  const name = displayName(client.signer);
  const api = useMemo(() => ({ callApi: client.callApi, scope: client.scope }), [client]);
  return (
    <Box
      role="dialog"
      aria-modal="true"
      aria-labelledby={titleId}
      data-testid="in-person-turn"
      pos="fixed"
      inset={0}
      bg="var(--mantine-color-body)"
      style={{ zIndex: 150, overflowY: 'auto' }}
    >
      <Box bg="var(--mantine-color-grape-0)" style={{ borderBottom: '1px solid var(--mantine-color-grape-3)' }}>
        <Container size="lg" py="sm" px={{ base: 'sm', sm: 'lg' }}>
          <Group justify="space-between" align="center" gap="sm" wrap="wrap">
            <Stack gap={2} style={{ minWidth: 0, flex: '1 1 240px' }}>
              <Title order={2} size="h4" id={titleId} data-testid="in-person-banner" style={{ overflowWrap: 'anywhere' }}>
                {t('signing.inPerson.banner', { name })}
              </Title>
              <Text size="sm" c="dimmed">
                {t('signing.inPerson.bannerHint', { name })}
              </Text>
            </Stack>
            <Button variant="outline" color="grape" onClick={() => onDone('cancelled')}>
              {t('signing.inPerson.end')}
            </Button>
          </Group>
        </Container>
      </Box>
      <Container size="lg" py={{ base: 'md', sm: 'lg' }} px={{ base: 'sm', sm: 'lg' }}>
        <SigningApiProvider api={api}>
          <SigningCeremony key={client.scope} ePakId={ePakId} person={{ email: client.signer.email, name }} onSettled={onDone} withDownload={false} />
        </SigningApiProvider>
      </Container>
    </Box>
  );
}
