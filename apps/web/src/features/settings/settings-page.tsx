import { Alert, Center, Loader, Stack, Tabs, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { getTenantSettings } from '@pakt/domain';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { callApi } from '../../api/client';
import { useCurrentTenant } from '../../api/session-store';
import { useCan, RequireRoute } from '../../api/access';
import { SuperadminsSection } from './superadmins-section';
import { SettingsForm } from './settings-form';
import { settingsQueryKey } from './use-settings-form';

/**
 * /settings (spec §2, super admin only): the tenant's settings and flags, in four groups, and its
 * super admins. One draft spans the groups, so a change on one tab is not lost by opening another;
 * saving sends only what differs, and the server's refusals are shown beside their fields.
 */
export function SettingsPage() {
  return (
    <RequireRoute route="settings">
      <SettingsScreen />
    </RequireRoute>
  );
}

const SECTIONS = ['features', 'signin', 'people', 'epaks', 'superadmins'] as const;
type Section = (typeof SECTIONS)[number];

function SettingsScreen() {
  const { t } = useTranslation();
  const tenant = useCurrentTenant();
  const [searchParams, setSearchParams] = useSearchParams();
  const canListSuperadmins = useCan('superadmin.list');
  useDocumentTitle(`${t('settings.title')} · Pakt`);
  const query = useQuery({
    queryKey: settingsQueryKey(tenant?.tenantUuid),
    queryFn: ({ signal }) => callApi(getTenantSettings, undefined, { signal }),
  });
  const sections = SECTIONS.filter((section) => section !== 'superadmins' || canListSuperadmins);
  const section: Section = sections.find((candidate) => candidate === searchParams.get('section')) ?? 'features';

  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={1} fz={{ base: 28, sm: 34 }}>
          {t('settings.title')}
        </Title>
        <Text c="dimmed">{t('settings.intro', { tenant: tenant?.tenantName ?? '' })}</Text>
      </Stack>
      <Tabs
        value={section}
        keepMounted={false}
        onChange={(value) => setSearchParams(value && value !== 'features' ? { section: value } : {}, { replace: true })}
      >
        <Tabs.List mb="lg">
          {sections.map((value) => (
            <Tabs.Tab key={value} value={value}>
              {t(`settings.sections.${value}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {section === 'superadmins' ? (
          <SuperadminsSection />
        ) : query.data ? (
          <SettingsForm view={query.data} section={section} />
        ) : query.isError ? (
          <Alert color="red" title={t('settings.loadFailed')}>
            {query.error.message}
          </Alert>
        ) : (
          <Center py="xl">
            <Loader size="sm" aria-label={t('settings.loading')} />
          </Center>
        )}
      </Tabs>
    </Stack>
  );
}
