import {
  Alert,
  Badge,
  Button,
  Card,
  CopyButton,
  Grid,
  Group,
  Loader,
  Stack,
  Tabs,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue, useDocumentTitle } from '@mantine/hooks';
import { EmailAddress, listTenants, setupStatus, systemOutbox, type TenantSummary } from '@pakt/domain';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useSearchParams } from 'react-router';
import { AnnouncementManager, useCanManageAnnouncements } from '../announcements';
import { callApi } from '../../api/client';
import { useSession } from '../../api/session-store';
import { useMailDelivered } from '../../api/public-queries';
import { RequireRoute } from '../../api/access';
import { AuthCard } from '../../ui/auth-card';
import { BuildingIcon, CheckIcon, ClipboardListIcon, CopyIcon, MailIcon, MegaphoneIcon, ShieldIcon } from '../../ui/icons';
import { OutboxList } from '../../ui/outbox-list';
import { RootSuperadminDialog } from '../settings';
import { formatDate } from '../../ui/dates';
import { CreateTenantForm } from './create-tenant-form';
import { SignupSettings } from './signup-settings';
import { rootQueryKeys } from './queries';
import { ServerStatus } from './server-status';
import { SetupForm } from './setup-form';

const OUTBOX_FILTER_DEBOUNCE_MS = 300;
/** A whole phone number, as text messages are addressed. */
const PHONE_NUMBER = /^\+?\d[\d ().-]{6,}$/;

/**
 * /root serves two people: on a fresh install, whoever holds the one-time setup link (`?setup=`)
 * creates the root account; afterwards root manages the tenants here.
 */
export function RootPage() {
  const [searchParams] = useSearchParams();
  const session = useSession();
  const setupToken = searchParams.get('setup');
  if (setupToken !== null) {
    // Once root is signed in (just now by the form, or earlier) the spent token leaves the address.
    if (session?.user.isRoot) return <Navigate to="/root" replace />;
    return <SetupGate token={setupToken} />;
  }
  return (
    <RequireRoute route="root">
      <TenantConsole />
    </RequireRoute>
  );
}

function SetupGate({ token }: { readonly token: string }) {
  const { t } = useTranslation();
  const status = useQuery({
    queryKey: rootQueryKeys.setupStatus,
    queryFn: ({ signal }) => callApi(setupStatus, undefined, { signal }),
  });
  useDocumentTitle(`${t('setup.title')} · Pakt`);

  if (status.isPending) {
    return (
      <Group justify="center" py="xl" gap="sm">
        <Loader size="sm" />
        <Text c="dimmed">{t('setup.checking')}</Text>
      </Group>
    );
  }
  if (status.isError) {
    return (
      <AuthCard title={t('setup.title')}>
        <Alert color="red" variant="light" role="alert">
          {t('internalErrorMsg')}
        </Alert>
        <Button variant="light" onClick={() => void status.refetch()} loading={status.isFetching}>
          {t('root.retry')}
        </Button>
      </AuthCard>
    );
  }
  if (!status.data.required) {
    return (
      <AuthCard title={t('setup.done.title')} description={t('setup.done.description')}>
        <Button component={Link} to="/login" size="md">
          {t('common.signIn')}
        </Button>
      </AuthCard>
    );
  }
  return <SetupForm token={token} />;
}

function TenantConsole() {
  const { t } = useTranslation();
  const [invite, setInvite] = useState<{ tenantName: string; email: string; link: string } | null>(null);
  const canAnnounce = useCanManageAnnouncements();
  useDocumentTitle(`${t('root.title')} · Pakt`);

  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={1} fz={{ base: 28, sm: 34 }}>
          {t('root.title')}
        </Title>
        <Text c="dimmed">{t('root.intro')}</Text>
      </Stack>
      {invite && <InvitePanel {...invite} onDismiss={() => setInvite(null)} />}
      <Tabs defaultValue="tenants" keepMounted={false}>
        <Tabs.List mb="lg">
          <Tabs.Tab value="tenants" leftSection={<BuildingIcon size={16} />}>
            {t('root.tabs.tenants')}
          </Tabs.Tab>
          <Tabs.Tab value="outbox" leftSection={<MailIcon size={16} />}>
            {t('root.tabs.outbox')}
          </Tabs.Tab>
          {canAnnounce && (
            <Tabs.Tab value="announcements" leftSection={<MegaphoneIcon size={16} />}>
              {t('announcements.tab')}
            </Tabs.Tab>
          )}
          <Tabs.Tab value="server" leftSection={<ClipboardListIcon size={16} />}>
            {t('root.server.tab')}
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="tenants">
          <Grid gap="lg">
            <Grid.Col span={{ base: 12, md: 7 }} order={{ base: 2, md: 1 }}>
              <TenantList />
            </Grid.Col>
            <Grid.Col span={{ base: 12, md: 5 }} order={{ base: 1, md: 2 }}>
              <Stack gap="lg">
                <CreateTenantForm onCreated={setInvite} />
                <SignupSettings />
              </Stack>
            </Grid.Col>
          </Grid>
        </Tabs.Panel>
        <Tabs.Panel value="outbox">
          <SystemOutbox />
        </Tabs.Panel>
        {canAnnounce && (
          <Tabs.Panel value="announcements">
            <Stack gap="sm">
              <Text c="dimmed">{t('announcements.instanceIntro')}</Text>
              <AnnouncementManager scope="instance" />
            </Stack>
          </Tabs.Panel>
        )}
        {/* The installation's internals, which the public home page no longer shows. */}
        <Tabs.Panel value="server">
          <ServerStatus />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}

function SystemOutbox() {
  const { t } = useTranslation();
  // Root's outbox spans every tenant; handing a link on starts from the address it went to.
  const [recipient, setRecipient] = useState('');
  // The server matches whole addresses, so a half-typed one keeps the list as it was.
  const [complete, setComplete] = useState('');
  const [filter] = useDebouncedValue(complete, OUTBOX_FILTER_DEBOUNCE_MS);
  const outbox = useQuery({
    queryKey: [...rootQueryKeys.outbox, filter],
    queryFn: ({ signal }) => callApi(systemOutbox, filter ? { query: { recipient: filter } } : undefined, { signal }),
  });
  const changeRecipient = (value: string) => {
    setRecipient(value);
    const typed = value.trim();
    if (typed === '' || EmailAddress.safeParse(typed).success || PHONE_NUMBER.test(typed)) setComplete(typed.toLowerCase());
  };
  return (
    <Stack gap="sm">
      <Text c="dimmed">{t('outbox.systemIntro')}</Text>
      <Text c="dimmed" size="sm">
        {t('outbox.systemHandOn')}
      </Text>
      <TextInput
        type="search"
        label={t('outbox.recipientFilter')}
        placeholder={t('outbox.recipientFilterPlaceholder')}
        value={recipient}
        onChange={(event) => changeRecipient(event.currentTarget.value)}
        maw={420}
      />
      <OutboxList query={outbox} label={t('root.tabs.outbox')} showTenant />
    </Stack>
  );
}

function TenantList() {
  const { t } = useTranslation();
  const tenants = useQuery({
    queryKey: rootQueryKeys.tenants,
    queryFn: ({ signal }) => callApi(listTenants, undefined, { signal }),
  });

  if (tenants.isPending) return <Loader size="sm" aria-label={t('root.title')} />;
  if (tenants.isError) {
    return (
      <Alert color="red" variant="light" role="alert" title={t('root.loadFailed')}>
        <Button variant="light" color="red" size="xs" mt="xs" onClick={() => void tenants.refetch()} loading={tenants.isFetching}>
          {t('root.retry')}
        </Button>
      </Alert>
    );
  }
  if (tenants.data.tenants.length === 0) {
    return (
      <Card withBorder padding="lg">
        {/* The create form sits beside the list on a wide screen and above it on a phone: named, not placed. */}
        <Text c="dimmed">{t('root.empty', { form: t('root.create.title') })}</Text>
      </Card>
    );
  }
  return (
    <Stack gap="sm" component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label={t('root.title')}>
      {tenants.data.tenants.map((tenant) => (
        <TenantCard key={tenant.tenantUuid} tenant={tenant} />
      ))}
    </Stack>
  );
}

function TenantCard({ tenant }: { readonly tenant: TenantSummary }) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const [invitingSuperadmin, setInvitingSuperadmin] = useState(false);
  const created = formatDate(tenant.tenantCreatedOn, i18n.language);
  return (
    <Card withBorder padding="md" component="li" aria-label={tenant.tenantName}>
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
        <Group gap="sm" wrap="nowrap" miw={0}>
          <BuildingIcon size={22} />
          <Stack gap={0} miw={0}>
            <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
              {tenant.tenantName}
            </Text>
            <Text size="sm" c="dimmed">
              {t('root.createdOn', { date: created })}
            </Text>
          </Stack>
        </Group>
        <Group gap={6} wrap="nowrap" style={{ flexShrink: 0 }}>
          {/* A sign-up whose owner has not confirmed their address yet: nobody works in it. */}
          {tenant.status === 'PENDING' && (
            <Badge variant="light" color="orange">
              {t('root.status.PENDING')}
            </Badge>
          )}
          <Badge variant="light" color="gray">
            {t('root.userCount', { count: tenant.userCount })}
          </Badge>
        </Group>
      </Group>
      {tenant.status === 'PENDING' && (
        <Text size="sm" c="dimmed" mt="xs">
          {t('root.pendingHint')}
        </Text>
      )}
      {tenant.admins.length > 0 && (
        <Stack gap={4} mt="sm">
          <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
            {t('root.admins')}
          </Text>
          {tenant.admins.map((admin) => (
            <Group key={admin.email} gap="xs" wrap="nowrap">
              <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                {admin.email}
              </Text>
              <Badge size="sm" variant="dot" color={admin.status === 'active' ? 'teal' : 'orange'} style={{ flexShrink: 0 }}>
                {t(`root.adminStatus.${admin.status}`)}
              </Badge>
            </Group>
          ))}
        </Stack>
      )}
      {/* A tenant's first super admin can only come from here (super_admin is never a role to change into). */}
      <Group justify="flex-end" mt="sm">
        <Button
          size="xs"
          variant="light"
          leftSection={<ShieldIcon size={14} />}
          aria-label={t('superadmins.root.openLabel', { tenant: tenant.tenantName })}
          onClick={() => setInvitingSuperadmin(true)}
        >
          {t('superadmins.root.open')}
        </Button>
      </Group>
      {invitingSuperadmin && (
        <RootSuperadminDialog
          tenant={tenant}
          onClose={() => setInvitingSuperadmin(false)}
          onInvited={() => void queryClient.invalidateQueries({ queryKey: rootQueryKeys.tenants })}
        />
      )}
    </Card>
  );
}

function InvitePanel({
  tenantName,
  email,
  link,
  onDismiss,
}: {
  readonly tenantName: string;
  readonly email: string;
  readonly link: string;
  readonly onDismiss: () => void;
}) {
  const { t } = useTranslation();
  // Without a mail server the invitation only reaches the outbox: never say it was sent.
  const mailDelivered = useMailDelivered();
  return (
    <Alert color="teal" variant="light" title={t('root.invite.title', { tenant: tenantName })} icon={<CheckIcon size={20} />} role="status">
      <Stack gap="sm">
        <Text size="sm">{t(mailDelivered ? 'root.invite.description' : 'root.invite.descriptionOutbox', { email })}</Text>
        <Group gap="xs" align="flex-end" wrap="wrap">
          <TextInput
            label={t('root.invite.link')}
            value={link}
            readOnly
            onFocus={(event) => event.currentTarget.select()}
            style={{ flex: '1 1 240px' }}
            miw={0}
          />
          <CopyButton value={link}>
            {({ copied, copy }) => (
              <Button
                onClick={copy}
                color={copied ? 'teal' : undefined}
                leftSection={copied ? <CheckIcon size={16} /> : <CopyIcon size={16} />}
              >
                {copied ? t('root.invite.copied') : t('root.invite.copy')}
              </Button>
            )}
          </CopyButton>
          <Button variant="subtle" color="gray" onClick={onDismiss}>
            {t('root.invite.dismiss')}
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}
