import { Button, CloseButton, Group, Paper, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { sessionStore } from '../../api/session-store';
import { STORAGE_KEYS } from '../../api/storage-keys';
import { type DesktopPermission, desktopPermission, requestDesktopPermission } from './desktop-notifications';

function dismissedBefore(): boolean {
  try {
    return sessionStore.storage.getItem(STORAGE_KEYS.desktopNotificationsPromptDismissed) === 'true';
  } catch {
    return false;
  }
}

/**
 * The polite way to ask for desktop notifications: a small card the person may act on or close,
 * shown where notifications matter (the dashboard and the ePaks list) while the browser has not
 * been asked yet. The browser's own question comes only from its button. Not on a phone's width:
 * there it would cover the list, and phone browsers show page notifications only through a
 * service worker, which the app does not have.
 */
export function DesktopNotificationPrompt() {
  const { t } = useTranslation();
  const [permission, setPermission] = useState<DesktopPermission>(desktopPermission);
  const [dismissed, setDismissed] = useState(dismissedBefore);
  const [justDenied, setJustDenied] = useState(false);

  if (dismissed || (permission !== 'default' && !justDenied)) return null;

  const close = () => {
    setDismissed(true);
    try {
      sessionStore.storage.setItem(STORAGE_KEYS.desktopNotificationsPromptDismissed, 'true');
    } catch {
      // Shown again after a reload: no harm.
    }
  };

  const enable = async () => {
    const answer = await requestDesktopPermission();
    setPermission(answer);
    if (answer === 'denied') setJustDenied(true);
  };

  return (
    <Paper
      visibleFrom="sm"
      role="region"
      aria-label={t('notifications.desktop.title')}
      withBorder
      shadow="md"
      p="sm"
      pos="fixed"
      bottom={12}
      right={12}
      style={{ zIndex: 300, width: 'min(360px, calc(100vw - 24px))' }}
    >
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
        <Text size="sm" fw={600}>
          {t('notifications.desktop.title')}
        </Text>
        <CloseButton size="sm" aria-label={t('notifications.close')} onClick={close} />
      </Group>
      <Text size="sm" c="dimmed" mt={4}>
        {justDenied ? t('notifications.desktop.denied') : t('notifications.desktop.text')}
      </Text>
      {!justDenied && (
        <Group gap="xs" mt="sm">
          <Button size="xs" onClick={() => void enable()}>
            {t('notifications.desktop.enable')}
          </Button>
          <Button size="xs" variant="subtle" onClick={close}>
            {t('notifications.desktop.dismiss')}
          </Button>
        </Group>
      )}
    </Paper>
  );
}
