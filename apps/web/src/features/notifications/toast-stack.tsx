import { Box, Button, Group, Notification as MantineNotification, Stack, Text } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type ToastKind, toastDurationOf } from './notification-target';

export interface ToastItem {
  readonly id: string;
  readonly kind: ToastKind;
  readonly title: string;
  readonly message: string;
  /** Opens what the toast is about (its click, and its Open button for keyboards). */
  readonly onOpen: () => void;
}

const COLOUR_OF_KIND: Record<ToastKind, string> = { info: 'blue', success: 'teal', error: 'red' };

/** At most this many at once: a burst (a bulk send) shows the newest, not a wall of them. */
export const MAX_TOASTS = 4;

/**
 * In-app toasts, top right under the header (full width on a phone). Each leaves after its
 * duration (spec §9), but not while the pointer or keyboard focus is on it: nobody should lose
 * a toast they are about to click.
 */
export function ToastStack({ toasts, onDismiss }: { readonly toasts: readonly ToastItem[]; readonly onDismiss: (id: string) => void }) {
  const { t } = useTranslation();
  return (
    <Box
      role="region"
      aria-label={t('notifications.region')}
      aria-live="polite"
      pos="fixed"
      top={72}
      right={12}
      style={{ zIndex: 400, width: 'min(380px, calc(100vw - 24px))', pointerEvents: toasts.length > 0 ? undefined : 'none' }}
    >
      <Stack gap="xs">
        {toasts.map((toast) => (
          <Toast key={toast.id} toast={toast} onDismiss={onDismiss} />
        ))}
      </Stack>
    </Box>
  );
}

function Toast({ toast, onDismiss }: { readonly toast: ToastItem; readonly onDismiss: (id: string) => void }) {
  const { t } = useTranslation();
  const [held, setHeld] = useState(false);
  const dismiss = useRef(onDismiss);
  dismiss.current = onDismiss;

  useEffect(() => {
    if (held) return undefined;
    const timer = setTimeout(() => dismiss.current(toast.id), toastDurationOf(toast.kind));
    return () => clearTimeout(timer);
  }, [held, toast.id, toast.kind]);

  const open = () => {
    onDismiss(toast.id);
    toast.onOpen();
  };

  return (
    <MantineNotification
      data-testid="notification-toast"
      title={toast.title}
      color={COLOUR_OF_KIND[toast.kind]}
      withBorder
      onClose={() => onDismiss(toast.id)}
      closeButtonProps={{ 'aria-label': t('notifications.close') }}
      onMouseEnter={() => setHeld(true)}
      onMouseLeave={() => setHeld(false)}
      onFocus={() => setHeld(true)}
      onBlur={() => setHeld(false)}
      onClick={(event) => {
        // The close button closes; anywhere else opens.
        if ((event.target as HTMLElement).closest('button')) return;
        open();
      }}
      style={{ cursor: 'pointer', boxShadow: 'var(--mantine-shadow-md)' }}
    >
      <Group justify="space-between" align="flex-end" wrap="nowrap" gap="xs">
        <Text size="sm" c="dimmed" lineClamp={3}>
          {toast.message}
        </Text>
        <Button size="compact-xs" variant="light" color={COLOUR_OF_KIND[toast.kind]} onClick={open} style={{ flexShrink: 0 }}>
          {t('notifications.open')}
        </Button>
      </Group>
    </MantineNotification>
  );
}
