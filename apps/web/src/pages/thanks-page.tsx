import { Button, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useCurrentTenant, useCurrentUser } from '../api/session-store';
import { CheckIcon } from '../ui/icons';

/** /thanks: where sign-up ends, a short confirmation and the way in. */
export function ThanksPage() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const tenant = useCurrentTenant();
  useDocumentTitle(`${t('thanks.title')} · Pakt`);
  return (
    <Stack align="center" ta="center" gap="lg" maw={560} mx="auto" py={{ base: 'lg', sm: 56 }}>
      <ThemeIcon size={72} radius="xl" variant="light" color="teal">
        <CheckIcon size={36} />
      </ThemeIcon>
      <Stack gap="sm" align="center">
        <Title order={1} fz={{ base: 26, sm: 32 }}>
          {t('thanks.title')}
        </Title>
        <Text size="lg" c="dimmed">
          {user && tenant
            ? t('thanks.ready', { name: user.firstName, tenant: tenant.tenantName })
            : t('thanks.generic')}
        </Text>
      </Stack>
      <Button component={Link} to={user ? '/' : '/login'} size="md">
        {t(user ? 'common.goHome' : 'common.signIn')}
      </Button>
    </Stack>
  );
}
