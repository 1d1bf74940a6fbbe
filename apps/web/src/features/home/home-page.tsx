import { Anchor, Button, Card, Center, Group, Loader, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useLocation } from 'react-router';
import { useLandingPath } from '../../api/access';
import { usePublicConfiguration } from '../../api/public-queries';
import { useCurrentUser } from '../../api/session-store';
import { BuildingIcon, CheckIcon, PackageIcon, RouteIcon, ShieldIcon, UsersIcon } from '../../ui/icons';

/** What Pakt does, in claims the product keeps: each point names something built. */
const features = [
  { icon: <ShieldIcon />, title: 'home.padesTitle', text: 'home.padesText' },
  { icon: <RouteIcon />, title: 'home.routeTitle', text: 'home.routeText' },
  { icon: <BuildingIcon />, title: 'home.selfHostedTitle', text: 'home.selfHostedText' },
  { icon: <PackageIcon />, title: 'home.bundleTitle', text: 'home.bundleText' },
  { icon: <UsersIcon />, title: 'home.trackTitle', text: 'home.trackText' },
  { icon: <CheckIcon />, title: 'home.verifyTitle', text: 'home.verifyText' },
] as const;

/**
 * `/`: for a visitor, what Pakt is and the way in; for someone signed in, their landing page (the
 * one sign-in leads to). Only a person without any tenant, whose landing page this is, stays here.
 */
export function HomePage() {
  const user = useCurrentUser();
  const location = useLocation();
  const landing = useLandingPath();
  if (!user) return <ProductPage />;
  if (!landing.known) {
    return (
      <Center py="xl">
        <Loader size="sm" />
      </Center>
    );
  }
  // What a page handed here (a flash message) goes along to the page that shows it.
  if (landing.path !== '/') return <Navigate to={landing.path} replace state={location.state as unknown} />;
  return <NoTenantHome firstName={user.firstName} />;
}

function NoTenantHome({ firstName }: { readonly firstName: string }) {
  const { t } = useTranslation();
  useDocumentTitle('Pakt');
  return (
    <Stack gap="md">
      <Title order={1} fz={{ base: 32, sm: 40 }}>
        {t('home.welcome', { name: firstName })}
      </Title>
      <Card withBorder padding="lg">
        <Text>{t('home.noTenant')}</Text>
      </Card>
    </Stack>
  );
}

function ProductPage() {
  const { t } = useTranslation();
  const configuration = usePublicConfiguration();
  // Offered only when the install lets people sign themselves up (the public feature flag).
  const signup = configuration.data?.features.signup === true;
  useDocumentTitle('Pakt');

  return (
    <Stack gap="xl">
      <Stack gap="md" align="flex-start">
        <Title order={1} fz={{ base: 36, sm: 48 }}>
          Pakt
        </Title>
        <Text size="xl" c="dimmed" maw={640}>
          {t('home.tagline')}
        </Text>
        <Group gap="sm">
          <Button component={Link} to="/login" size="md">
            {t('common.signIn')}
          </Button>
          {signup && (
            <Button component={Link} to="/signup" size="md" variant="default">
              {t('home.createAccount')}
            </Button>
          )}
        </Group>
        {/* Said only once the install's answer is in, so it never flashes past someone who may sign up. */}
        {configuration.isSuccess && !signup && (
          <Text size="sm" c="dimmed" maw={640}>
            {t('home.inviteOnly')}
          </Text>
        )}
      </Stack>

      <Stack gap="md" component="section" aria-labelledby="what-heading">
        <Title order={2} size="h3" id="what-heading">
          {t('home.whatHeading')}
        </Title>
        <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="md">
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
              {feature.title === 'home.verifyTitle' && (
                <Anchor component={Link} to="/verify" size="sm" mt="xs" fw={500} display="inline-block">
                  {t('home.verifyLink')}
                </Anchor>
              )}
            </Card>
          ))}
        </SimpleGrid>
      </Stack>
    </Stack>
  );
}
