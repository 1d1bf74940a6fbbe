import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiClient, type ApiClient } from '../../api/client';
import { useIdleWarning } from '../../api/session-lifecycle';
import { sessionStore, type SessionStore } from '../../api/session-store';

/** Seconds as the countdown shows them: 1:00, 0:59 … 0:00. */
export function formatCountdown(seconds: number): string {
  const whole = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
}

/**
 * A minute before the UIS session ends for inactivity (spec §4), the person is told and may stay:
 * "Stay signed in" renews the tokens as activity does (the client's shared refresh), which re-arms
 * the session timer; "Sign out" ends the session now. Left alone, the timer ends it as before.
 */
export function IdleSignOutWarning({
  onSignOut,
  client = apiClient,
  store = sessionStore,
}: {
  readonly onSignOut: () => void;
  readonly client?: ApiClient;
  readonly store?: SessionStore;
}) {
  const endsAt = useIdleWarning(store);
  if (endsAt === null) return null;
  // Keyed by the deadline, so each warning starts with its own state.
  return <WarningDialog key={endsAt} endsAt={endsAt} onSignOut={onSignOut} client={client} />;
}

function WarningDialog({ endsAt, onSignOut, client }: { readonly endsAt: number; readonly onSignOut: () => void; readonly client: ApiClient }) {
  const { t } = useTranslation();
  const [now, setNow] = useState(() => Date.now());
  const [staying, setStaying] = useState(false);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, []);

  const stay = () => {
    setStaying(true);
    setFailed(false);
    // Success brings new tokens, and with them a new timer: this dialog goes by itself.
    void client.refreshSession().then((outcome) => {
      setStaying(false);
      if (outcome !== 'refreshed') setFailed(true);
    });
  };

  return (
    <Modal
      opened
      onClose={stay}
      title={t('idleWarning.title')}
      centered
      closeOnClickOutside={false}
      withCloseButton={false}
      data-testid="idle-warning"
    >
      <Stack gap="md">
        <Text>{t('idleWarning.body', { time: formatCountdown((endsAt - now) / 1000) })}</Text>
        {failed && (
          <Alert color="red" variant="light" role="alert">
            {t('idleWarning.failed')}
          </Alert>
        )}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onSignOut}>
            {t('idleWarning.signOut')}
          </Button>
          <Button onClick={stay} loading={staying} data-autofocus>
            {t('idleWarning.stay')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
