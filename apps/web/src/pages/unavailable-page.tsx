import { Button, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useLogout } from '../api/session-lifecycle';
import { useSession } from '../api/session-store';
import { KeyIcon, ShieldIcon } from '../ui/icons';

const presentation = {
  authenticate: { icon: <ShieldIcon size={36} />, copy: 'authenticate' },
  changepassword: { icon: <KeyIcon size={36} />, copy: 'changePassword' },
} as const;

/**
 * Where sign-in sends people whose next step (two-factor sign-in, a forced password change) is not
 * built yet. It says so plainly rather than pretending: these screens arrive with later issues.
 */
export function UnavailableStepPage({ step }: { readonly step: keyof typeof presentation }) {
  const { t } = useTranslation();
  const { icon, copy } = presentation[step];
  const signedIn = useSession() !== null;
  const logout = useLogout();
  const title = t(`${copy}.title`);
  useDocumentTitle(`${title} · Pakt`);
  return (
    <Stack align="center" ta="center" gap="lg" maw={560} mx="auto" py={{ base: 'lg', sm: 56 }}>
      <ThemeIcon size={72} radius="xl" variant="light" color="indigo">
        {icon}
      </ThemeIcon>
      <Stack gap="sm" align="center">
        <Title order={1} fz={{ base: 26, sm: 32 }}>
          {title}
        </Title>
        <Text size="lg" c="dimmed">
          {t(`${copy}.description`)}
        </Text>
      </Stack>
      {signedIn ? (
        // A signed-in visitor sent to /login would be sent straight back here; logging out ends the loop.
        <Button size="md" onClick={() => void logout()}>
          {t('shell.logout')}
        </Button>
      ) : (
        <Button component={Link} to="/login" size="md">
          {t('common.backToLogin')}
        </Button>
      )}
    </Stack>
  );
}
