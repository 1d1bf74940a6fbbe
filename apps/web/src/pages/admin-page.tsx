import { Stack, Tabs, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { tenantOutbox } from '@pakt/domain';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { AnnouncementManager, useCanManageAnnouncements } from '../announcements/announcement-manager';
import { callApi } from '../api/client';
import { useCurrentTenant } from '../api/session-store';
import { RequireRoute } from '../routing/access';
import { MailIcon, MegaphoneIcon } from '../ui/icons';
import { OutboxList } from '../ui/outbox-list';

/**
 * /admin: tenant administration. For now it holds the tenant's outbox (mail and SMS sent or queued)
 * and, for whoever the permissions module lets manage them, the tenant's announcements
 * (`?section=announcements`, so the section can be linked to).
 */
export function AdminPage() {
  return (
    <RequireRoute route="admin">
      <AdminSections />
    </RequireRoute>
  );
}

function AdminSections() {
  const { t } = useTranslation();
  const [searchParams, setSearchParams] = useSearchParams();
  const canAnnounce = useCanManageAnnouncements();
  if (!canAnnounce) return <TenantOutbox />;
  const section = searchParams.get('section') === 'announcements' ? 'announcements' : 'outbox';
  return (
    <Tabs
      value={section}
      keepMounted={false}
      onChange={(value) => setSearchParams(value === 'announcements' ? { section: value } : {}, { replace: true })}
    >
      <Tabs.List mb="lg">
        <Tabs.Tab value="outbox" leftSection={<MailIcon size={16} />}>
          {t('outbox.title')}
        </Tabs.Tab>
        <Tabs.Tab value="announcements" leftSection={<MegaphoneIcon size={16} />}>
          {t('announcements.tab')}
        </Tabs.Tab>
      </Tabs.List>
      <Tabs.Panel value="outbox">
        <TenantOutbox />
      </Tabs.Panel>
      <Tabs.Panel value="announcements">
        <TenantAnnouncements />
      </Tabs.Panel>
    </Tabs>
  );
}

function TenantAnnouncements() {
  const { t } = useTranslation();
  const tenant = useCurrentTenant();
  useDocumentTitle(`${t('announcements.title')} · Pakt`);
  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={1} fz={{ base: 28, sm: 34 }}>
          {t('announcements.title')}
        </Title>
        <Text c="dimmed">{t('announcements.tenantIntro', { tenant: tenant?.tenantName ?? '' })}</Text>
      </Stack>
      <AnnouncementManager scope="tenant" tenantUuid={tenant?.tenantUuid ?? null} />
    </Stack>
  );
}

function TenantOutbox() {
  const { t } = useTranslation();
  const tenant = useCurrentTenant();
  const outbox = useQuery({
    queryKey: ['tenant', tenant?.tenantUuid, 'outbox'],
    queryFn: ({ signal }) => callApi(tenantOutbox, undefined, { signal }),
  });
  useDocumentTitle(`${t('outbox.title')} · Pakt`);
  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={1} fz={{ base: 28, sm: 34 }}>
          {t('outbox.title')}
        </Title>
        <Text c="dimmed">{t('outbox.tenantIntro', { tenant: tenant?.tenantName ?? '' })}</Text>
      </Stack>
      <OutboxList query={outbox} label={t('outbox.title')} />
    </Stack>
  );
}
