import { LANGUAGES } from '@pakt/domain';
import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  Loader,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { usePublicAlive, usePublicConfiguration } from '../../api/public-queries';
import { useCurrentTenant, useCurrentUser } from '../../api/session-store';
import { BuildingIcon, PackageIcon, RouteIcon, UsersIcon } from '../../ui/icons';
import { formatDateTime } from '../../ui/dates';

function StatusItem({ label, children }: { readonly label: string; readonly children: ReactNode }) {
  return (
    <div>
      <Text component="dt" size="sm" c="dimmed">
        {label}
      </Text>
      <Text component="dd" m={0} fw={500} style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </div>
  );
}

function ServerStatus() {
  const { t, i18n } = useTranslation();
  const alive = usePublicAlive();
  const configuration = usePublicConfiguration();

  const languageNames = configuration.data?.supportedLanguages
    .map((code) => LANGUAGES.find((language) => language.code === code)?.nativeName ?? code)
    .join(', ');

  let body: ReactNode;
  if (alive.isPending) {
    body = (
      <Group gap="sm">
        <Loader size="sm" />
        <Text c="dimmed">{t('home.statusChecking')}</Text>
      </Group>
    );
  } else if (alive.isError) {
    body = (
      <Alert color="red" variant="light" title={t('home.statusUnreachable')}>
        <Button
          variant="light"
          color="red"
          size="xs"
          mt="xs"
          loading={alive.isFetching}
          onClick={() => void alive.refetch()}
        >
          {t('home.retry')}
        </Button>
      </Alert>
    );
  } else {
    const serverTime = formatDateTime(alive.data.serverTime, i18n.language);
    body = (
      <SimpleGrid component="dl" cols={{ base: 1, xs: 2 }} spacing="md" verticalSpacing="sm" m={0}>
        <StatusItem label={t('home.version')}>{alive.data.version}</StatusItem>
        <StatusItem label={t('home.database')}>{t(`home.databaseKinds.${alive.data.database}`)}</StatusItem>
        <StatusItem label={t('home.serverTime')}>{serverTime}</StatusItem>
        <StatusItem label={t('home.languages')}>
          {languageNames ?? <Skeleton component="span" display="inline-block" h={16} w={120} />}
        </StatusItem>
      </SimpleGrid>
    );
  }

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="server-status-heading">
      <Group justify="space-between" align="center" mb="md" gap="xs">
        <Title order={2} size="h3" id="server-status-heading">
          {t('home.statusHeading')}
        </Title>
        {alive.isSuccess && (
          <Badge variant="dot" color="teal" size="lg" data-testid="server-status">
            {t('home.statusUp')}
          </Badge>
        )}
      </Group>
      <div aria-live="polite">{body}</div>
    </Card>
  );
}

const features = [
  { icon: <PackageIcon />, title: 'home.bundleTitle', text: 'home.bundleText' },
  { icon: <RouteIcon />, title: 'home.routeTitle', text: 'home.routeText' },
  { icon: <UsersIcon />, title: 'home.trackTitle', text: 'home.trackText' },
] as const;

/** Who is signed in, and in which organisation and role they act right now. */
function Welcome() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const tenant = useCurrentTenant();
  if (!user) return null;

  let body: ReactNode;
  if (user.isRoot) {
    body = (
      <Stack gap="md" align="flex-start">
        <Text>{t('home.rootIntro')}</Text>
        <Button component={Link} to="/root">
          {t('home.openConsole')}
        </Button>
      </Stack>
    );
  } else if (!tenant) {
    body = <Text>{t('home.noTenant')}</Text>;
  } else {
    body = (
      <Stack gap="md">
        <SimpleGrid component="dl" cols={{ base: 1, xs: 2 }} spacing="md" verticalSpacing="sm" m={0}>
          <StatusItem label={t('home.currentTenant')}>
            <span data-testid="current-tenant">{tenant.tenantName}</span>
          </StatusItem>
          <StatusItem label={t('home.currentRole')}>
            <span data-testid="current-role">{t(`roles.${tenant.userRole}`)}</span>
          </StatusItem>
        </SimpleGrid>
        {user.tenants.length > 1 && (
          <Text size="sm" c="dimmed">
            {t('home.switchHint')}
          </Text>
        )}
      </Stack>
    );
  }

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="welcome-heading">
      <Group gap="sm" mb="md" wrap="nowrap">
        <ThemeIcon variant="light" size={40} radius="md">
          <BuildingIcon />
        </ThemeIcon>
        <Text c="dimmed">{t('home.signedInIntro')}</Text>
      </Group>
      {body}
    </Card>
  );
}

export function HomePage() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const location = useLocation();
  // A page that finished something (a changed password) says so here, once.
  const flash = (location.state as { flash?: unknown } | null)?.flash === 'passwordChangeSuccess';
  useDocumentTitle('Pakt');

  return (
    <Stack gap="xl">
      <Stack gap="xs">
        <Title order={1} fz={{ base: 36, sm: 48 }} id={user ? 'welcome-heading' : undefined}>
          {user ? t('home.welcome', { name: user.firstName }) : 'Pakt'}
        </Title>
        <Text size="xl" c="dimmed" maw={640}>
          {t('home.tagline')}
        </Text>
      </Stack>

      {flash && user && (
        <Alert color="teal" variant="light" role="status">
          {t('passwordChangeSuccess')}
        </Alert>
      )}

      <Welcome />

      <ServerStatus />

      <Stack gap="md" component="section" aria-labelledby="what-heading">
        <Title order={2} size="h3" id="what-heading">
          {t('home.whatHeading')}
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
          {features.map((feature) => (
            <Card key={feature.title} withBorder padding="lg">
              <ThemeIcon variant="light" size={44} radius="md" mb="sm">
                {feature.icon}
              </ThemeIcon>
              <Text fw={600} mb={4}>
                {t(feature.title)}
              </Text>
              <Text size="sm" c="dimmed">
                {t(feature.text)}
              </Text>
            </Card>
          ))}
        </SimpleGrid>
      </Stack>
    </Stack>
  );
}
