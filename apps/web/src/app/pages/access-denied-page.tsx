import { Button, Group, Stack, Text, ThemeIcon, Title, type MantineColor } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { ACCESS_DENIED_STATUSES, type AccessDeniedStatus } from '@pakt/domain';
import { AlertTriangleIcon, CalendarOffIcon, ClockIcon, LockIcon, BanIcon } from '../../ui/icons';

/** Anything else, or no status at all, is treated as forbidden: it claims the least. */
export function parseAccessDeniedStatus(value: string | null): AccessDeniedStatus {
  return ACCESS_DENIED_STATUSES.find((status) => status === value) ?? 'forbidden';
}

type Action = { kind: 'link'; to: string } | { kind: 'retry' };

const presentation: Record<AccessDeniedStatus, { icon: ReactNode; color: MantineColor; action: Action }> = {
  expired: { icon: <ClockIcon size={36} />, color: 'orange', action: { kind: 'link', to: '/login' } },
  unauthorized: { icon: <LockIcon size={36} />, color: 'grape', action: { kind: 'link', to: '/login' } },
  licenseexpired: { icon: <CalendarOffIcon size={36} />, color: 'yellow', action: { kind: 'link', to: '/' } },
  servererror: { icon: <AlertTriangleIcon size={36} />, color: 'red', action: { kind: 'retry' } },
  forbidden: { icon: <BanIcon size={36} />, color: 'indigo', action: { kind: 'link', to: '/' } },
};

/** React Router numbers its history entries; index 0 means we were the first page of the tab. */
function hasPreviousEntry(): boolean {
  const state: unknown = window.history.state;
  return typeof state === 'object' && state !== null && 'idx' in state && typeof state.idx === 'number' && state.idx > 0;
}

export function AccessDeniedPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const status = parseAccessDeniedStatus(searchParams.get('status'));
  const { icon, color, action } = presentation[status];
  const title = t(`accessDenied.${status}.title`);
  useDocumentTitle(`${title} · Pakt`);

  const primary =
    action.kind === 'link' ? (
      <Button component={Link} to={action.to} size="md">
        {t(`accessDenied.${status}.action`)}
      </Button>
    ) : (
      // Back to the page whose request failed, so "try again" repeats it; a fresh tab goes home.
      <Button size="md" onClick={() => void (hasPreviousEntry() ? navigate(-1) : navigate('/'))}>
        {t(`accessDenied.${status}.action`)}
      </Button>
    );
  const offersHome = !(action.kind === 'link' && action.to === '/');

  return (
    <Stack align="center" ta="center" gap="lg" maw={560} mx="auto" py={{ base: 'lg', sm: 56 }}>
      <ThemeIcon size={72} radius="xl" variant="light" color={color}>
        {icon}
      </ThemeIcon>
      <Stack gap="sm" align="center">
        <Title order={1} fz={{ base: 26, sm: 32 }}>
          {title}
        </Title>
        <Text size="lg" c="dimmed">
          {t(`accessDenied.${status}.description`)}
        </Text>
      </Stack>
      <Group justify="center" gap="sm">
        {primary}
        {offersHome && (
          <Button component={Link} to="/" variant="subtle" size="md">
            {t('common.goHome')}
          </Button>
        )}
      </Group>
    </Stack>
  );
}
