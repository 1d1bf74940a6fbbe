import { Stack, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { tenantOutbox } from '@pakt/domain';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { callApi } from '../api/client';
import { useCurrentTenant } from '../api/session-store';
import { RequireRoute } from '../routing/access';
import { OutboxList } from '../ui/outbox-list';

/** /admin: tenant administration. For now it holds the tenant's outbox (mail and SMS sent or queued). */
export function AdminPage() {
  return (
    <RequireRoute route="admin">
      <TenantOutbox />
    </RequireRoute>
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
