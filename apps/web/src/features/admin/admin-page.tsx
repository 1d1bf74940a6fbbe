import { Stack, Tabs, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { tenantOutbox } from '@pakt/domain';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import type { ReactNode } from 'react';
import { AuditSection } from './audit-section';
import { GroupsSection } from './groups-section';
import { ReasonsSection } from './reasons-section';
import { UsersSection } from './users-section';
import { UserSyncSection } from './user-sync-section';
import { WorkflowStatesSection } from './workflow-states-section';
import { AnnouncementManager, useCanManageAnnouncements } from '../announcements';
import { callApi } from '../../api/client';
import { useCurrentTenant } from '../../api/session-store';
import { useCan, RequireRoute } from '../../api/access';
import { ClipboardListIcon, MailIcon, MegaphoneIcon, PencilIcon, RefreshIcon, RouteIcon, UserIcon, UsersIcon } from '../../ui/icons';
import { OutboxList } from '../../ui/outbox-list';
import { adminQueryKeys } from './queries';

/**
 * /admin: tenant administration. It holds the tenant's outbox (mail and SMS sent or queued) and,
 * each for whoever the permissions module lets do it, the tenant's people (first), its
 * announcements, its groups and its administration audit log. `?section=` names the section, so each can be linked to.
 */
export function AdminPage() {
  return (
    <RequireRoute route="admin">
      <AdminSections />
    </RequireRoute>
  );
}

/**
 * Mantine's tab padding (16 px a side, 10 px after the icon) wrapped the admin's eight tabs at
 * 1280 px; a little less room around each label keeps them on one row with a margin to spare.
 */
const TAB_STYLES = {
  tab: { paddingInline: 'var(--mantine-spacing-xs)' },
  tabSection: { marginInlineEnd: 6 },
} as const;

type Section = 'users' | 'outbox' | 'announcements' | 'groups' | 'workflowStates' | 'reasons' | 'userSync' | 'audit';

function AdminSections() {
  const { t } = useTranslation();
  const [searchParams, setSearchParams] = useSearchParams();
  const canAnnounce = useCanManageAnnouncements();
  const canManageGroups = useCan('group.manage');
  const canReadAudit = useCan('audit.read');
  const canListUsers = useCan('user.list');
  // The sub-item "edit workflow states" (spec section 2), shown only when the tenant's setting shows it.
  const canEditWorkflowStates = useCan('workflowState.edit');
  // The sub-item "user sync up" (spec section 2): its action carries the showUserSyncUp gate.
  const canSyncUsers = useCan('userSync.start');
  // The sub-item "edit reasons" (spec section 2): its action carries the showEditReasons gate.
  const canEditReasons = useCan('reason.manage');
  // The sections this person may see, in tab order; the outbox is everyone's who reaches /admin.
  // The people come first for whoever may manage them, and are then what /admin opens on.
  const sections: { value: Section; label: string; icon: ReactNode; panel: ReactNode }[] = [
    ...(canListUsers ? [{ value: 'users' as const, label: t('users.tab'), icon: <UserIcon size={16} />, panel: <UsersSection /> }] : []),
    { value: 'outbox', label: t('outbox.title'), icon: <MailIcon size={16} />, panel: <TenantOutbox /> },
    ...(canAnnounce
      ? [{ value: 'announcements' as const, label: t('announcements.tab'), icon: <MegaphoneIcon size={16} />, panel: <TenantAnnouncements /> }]
      : []),
    ...(canManageGroups ? [{ value: 'groups' as const, label: t('groups.tab'), icon: <UsersIcon size={16} />, panel: <GroupsSection /> }] : []),
    ...(canEditWorkflowStates
      ? [{ value: 'workflowStates' as const, label: t('workflowStatesAdmin.tab'), icon: <RouteIcon size={16} />, panel: <WorkflowStatesSection /> }]
      : []),
    ...(canEditReasons ? [{ value: 'reasons' as const, label: t('reasonsAdmin.tab'), icon: <PencilIcon size={16} />, panel: <ReasonsSection /> }] : []),
    ...(canSyncUsers ? [{ value: 'userSync' as const, label: t('userSync.tab'), icon: <RefreshIcon size={16} />, panel: <UserSyncSection /> }] : []),
    ...(canReadAudit
      ? [{ value: 'audit' as const, label: t('adminAudit.tab'), icon: <ClipboardListIcon size={16} />, panel: <AuditSection /> }]
      : []),
  ];
  if (sections.length === 1) return <TenantOutbox />;
  // A section this person may not see (or none) shows the first one: the people, else the outbox.
  const fallback = sections[0]!.value;
  const section = sections.find((candidate) => candidate.value === searchParams.get('section'))?.value ?? fallback;
  return (
    <Tabs
      value={section}
      keepMounted={false}
      onChange={(value) => setSearchParams(value && value !== fallback ? { section: value } : {}, { replace: true })}
      styles={TAB_STYLES}
    >
      {/* Its tabs do not fit a phone's width: they wrap onto a second row, all of them in sight. On
          a laptop (1280 px, the page 960 px wide) all eight fit one row, in English and Hindi. */}
      <Tabs.List mb="lg">
        {sections.map(({ value, label, icon }) => (
          <Tabs.Tab key={value} value={value} leftSection={icon}>
            {label}
          </Tabs.Tab>
        ))}
      </Tabs.List>
      {sections.map(({ value, panel }) => (
        <Tabs.Panel key={value} value={value}>
          {panel}
        </Tabs.Panel>
      ))}
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
    queryKey: adminQueryKeys.outbox(tenant?.tenantUuid),
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
        <Text c="dimmed" size="sm">
          {t('outbox.tenantPrivacy')}
        </Text>
      </Stack>
      <OutboxList query={outbox} label={t('outbox.title')} />
    </Stack>
  );
}
