import { Button, Code, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { CompassIcon } from '../../ui/icons';

export function NotFoundPage() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const title = t('notFound.title');
  useDocumentTitle(`${title} · Pakt`);

  return (
    <Stack align="center" ta="center" gap="lg" maw={560} mx="auto" py={{ base: 'lg', sm: 56 }}>
      <ThemeIcon size={72} radius="xl" variant="light" color="gray">
        <CompassIcon size={36} />
      </ThemeIcon>
      <Stack gap="sm" align="center">
        <Title order={1} fz={{ base: 26, sm: 32 }}>
          {title}
        </Title>
        <Text size="lg" c="dimmed">
          {t('notFound.description')}
        </Text>
        <Code fz="sm" style={{ overflowWrap: 'anywhere' }}>
          {pathname}
        </Code>
      </Stack>
      <Button component={Link} to="/" size="md">
        {t('common.goHome')}
      </Button>
    </Stack>
  );
}
