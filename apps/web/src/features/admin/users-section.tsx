import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Card,
  Checkbox,
  Chip,
  Grid,
  Group,
  Loader,
  Menu,
  Modal,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue, useDocumentTitle, useMediaQuery } from '@mantine/hooks';
import {
  type Actor,
  type AdminUser,
  ASSIGNABLE_ROLES,
  can,
  cancelUserInvitation,
  filteredUsers,
  type FilteredUsersQuery,
  makeUserAdmin,
  reinviteUser,
  ResponseCode,
  type RoleChange,
  setUserEnabled,
  setUserPasscodeFlag,
  updateUserRoles,
  USER_FOLDERS,
  USER_SORTS,
  type UserFolder,
} from '@pakt/domain';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, callApi } from '../../api/client';
import { useTenantConfiguration } from '../../api/tenant-queries';
import { useMailDelivered } from '../../api/public-queries';
import { useCurrentTenant } from '../../api/session-store';
import { SearchIcon, pageCount, WIDE_LAYOUT_QUERY } from '../inbox';
import { useCan, useActor } from '../../api/access';
import { DotsIcon, UploadIcon, UserPlusIcon } from '../../ui/icons';
import { afterUserChange, canOn, INVITED_STATUSES, roleLabelKey, type RoleUpdateOutcome, roleUpdateRefusals, statusBadge, userName, type UserProblem, userProblem } from './user-model';
import { userQueryKeys } from './queries';
import { AdminPagination } from './admin-pagination';
import { RoleDialog } from './role-dialog';
import { CsvInviteDialog, InviteDialog } from './user-invite';
import { RemovePhotoDialog, UserAvatar } from './user-photo';
import { ResetTwoFactorDialog } from './reset-two-factor-dialog';

/** Typing in the search box asks the server once the typing pauses. */
const SEARCH_DEBOUNCE_MS = 300;
const PAGE_SIZES = [10, 25, 50, 100] as const;
type UserSort = (typeof USER_SORTS)[number];
type AssignableRole = (typeof ASSIGNABLE_ROLES)[number];

interface ListState {
  readonly filter: UserFolder;
  readonly q: string;
  readonly sort: UserSort;
  readonly order: 'asc' | 'desc';
  readonly size: (typeof PAGE_SIZES)[number];
}

/** What the screen says after a change: done, or refused (with the refusals of a bulk change). */
type Notice =
  | { readonly kind: 'done'; readonly text: string }
  | { readonly kind: 'problem'; readonly problem: UserProblem }
  | { readonly kind: 'roles'; readonly outcome: RoleUpdateOutcome; readonly names: ReadonlyMap<string, string> };

/**
 * /admin?section=users: the tenant's people (§6 admin user folders, §7 Users), a folder at a time,
 * searched, sorted and paged on the server. What may be done to each person is the permissions
 * module's answer, never a role check here, and nothing is offered on one's own account.
 */
export function UsersSection() {
  const { t } = useTranslation();
  const tenant = useCurrentTenant();
  const queryClient = useQueryClient();
  const actor = useActor();
  const showIds = useShowUserIds();
  const wide = useMediaQuery(WIDE_LAYOUT_QUERY, false, { getInitialValueInEffect: false });
  const [list, setList] = useState<ListState>({ filter: 'All', q: '', sort: 'name', order: 'asc', size: 25 });
  const [q] = useDebouncedValue(list.q.trim(), SEARCH_DEBOUNCE_MS);
  const asked = { filter: list.filter, q, sort: list.sort, order: list.order, size: list.size };
  // A page belongs to what it was turned on: another folder, search or sort starts from the first.
  const pagingKey = JSON.stringify(asked);
  const [paging, setPaging] = useState({ key: pagingKey, pg: 0 });
  const pg = paging.key === pagingKey ? paging.pg : 0;
  const query: FilteredUsersQuery = { ...asked, pg, ...(q ? { q } : { q: undefined }) };
  const users = useQuery({
    queryKey: userQueryKeys.list(tenant?.tenantUuid, query),
    queryFn: ({ signal }) => callApi(filteredUsers, { query }, { signal }),
    placeholderData: keepPreviousData,
  });
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [notice, setNotice] = useState<Notice | null>(null);
  const [inviting, setInviting] = useState<'one' | 'csv' | null>(null);
  useDocumentTitle(`${t('users.title')} · Pakt`);

  const change = (partial: Partial<ListState>) => {
    setList((current) => ({ ...current, ...partial }));
    setSelected(new Set());
  };
  const canInvite = actor !== null && canInviteAnyone(actor);
  const rows = users.data?.users ?? [];
  const selectable = rows.filter((user) => canOn(actor, 'user.bulkUpdateRoles', user));
  const chosen = selectable.filter((user) => selected.has(user.userId));

  const roles = useMutation({
    mutationFn: (changes: RoleChange[]) => callApi(updateUserRoles, { body: { users: changes } }),
    onMutate: () => setNotice(null),
    onSuccess: (outcome) => finishRoles(outcome),
    onError: (error) => {
      const refusals = roleUpdateRefusals(error);
      if (refusals) finishRoles(refusals);
      else setNotice({ kind: 'problem', problem: userProblem(error) });
    },
  });
  const names = new Map(rows.map((user) => [user.userId, userName(user)]));
  function finishRoles(outcome: RoleUpdateOutcome) {
    setNotice({ kind: 'roles', outcome, names });
    setSelected(new Set());
    void afterUserChange(queryClient, tenant?.tenantUuid);
  }

  const total = users.data?.total ?? 0;
  const pages = pageCount(total, list.size);
  const first = total === 0 ? 0 : pg * list.size + 1;
  const last = Math.min(total, (pg + 1) * list.size);

  let body: ReactNode;
  if (users.isPending) {
    body = (
      <Group justify="center" py="xl">
        <Loader size="sm" aria-label={t('users.loading')} />
      </Group>
    );
  } else if (users.isError) {
    body = (
      <Alert color="red" variant="light" role="alert" title={t('users.loadFailed')}>
        <Button variant="light" color="red" size="xs" onClick={() => void users.refetch()} loading={users.isFetching}>
          {t('users.retry')}
        </Button>
      </Alert>
    );
  } else if (rows.length === 0) {
    body = (
      <Card withBorder padding="lg">
        <Text c="dimmed">{q ? t('users.noMatch', { q }) : t('users.empty')}</Text>
      </Card>
    );
  } else {
    const rowProps = {
      users: rows,
      actor,
      selected,
      onSelect: (userId: string, on: boolean) =>
        setSelected((current) => {
          const next = new Set(current);
          if (on) next.add(userId);
          else next.delete(userId);
          return next;
        }),
      onNotice: setNotice,
      onRole: (change: RoleChange) => roles.mutate([change]),
      showIds,
    };
    body = wide ? (
      <UsersTable
        {...rowProps}
        allSelected={selectable.length > 0 && chosen.length === selectable.length}
        someSelected={chosen.length > 0}
        selectable={selectable.length > 0}
        onSelectAll={(on) => setSelected(new Set(on ? selectable.map((user) => user.userId) : []))}
      />
    ) : (
      <UsersCards {...rowProps} />
    );
  }

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end" gap="sm">
        <Stack gap={4} style={{ flex: '1 1 280px' }}>
          <Title order={1} fz={{ base: 28, sm: 34 }}>
            {t('users.title')}
          </Title>
          <Text c="dimmed">{t('users.intro', { tenant: tenant?.tenantName ?? '' })}</Text>
        </Stack>
        {canInvite && (
          <Group gap="xs">
            <Button leftSection={<UserPlusIcon size={16} />} onClick={() => setInviting('one')}>
              {t('users.invite.open')}
            </Button>
            <Button variant="light" leftSection={<UploadIcon size={16} />} onClick={() => setInviting('csv')}>
              {t('users.csv.open')}
            </Button>
          </Group>
        )}
      </Group>

      <Chip.Group multiple={false} value={list.filter} onChange={(value) => change({ filter: value as UserFolder })}>
        <Group gap="xs" role="radiogroup" aria-label={t('users.folders.label')}>
          {USER_FOLDERS.map((folder) => (
            <Chip key={folder} value={folder} variant="light" data-testid={`folder-${folder}`}>
              {t(`users.folders.${folder}`)}
              {users.data && (
                <Badge ml={6} size="sm" variant="white" color="gray" tt="none" component="span">
                  {users.data.counts[folder] ?? 0}
                </Badge>
              )}
            </Chip>
          ))}
        </Group>
      </Chip.Group>

      <Card withBorder padding="md" component="form" role="search" aria-label={t('users.filters.label')} onSubmit={(event) => event.preventDefault()}>
        <Grid gap="sm" align="flex-end">
          <Grid.Col span={{ base: 12, md: 5 }}>
            <TextInput
              type="search"
              label={t('users.filters.search')}
              placeholder={t('users.filters.searchPlaceholder')}
              leftSection={<SearchIcon size={16} />}
              value={list.q}
              maxLength={100}
              onChange={(event) => change({ q: event.currentTarget.value })}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 3 }}>
            <Select
              label={t('users.filters.sort')}
              data={USER_SORTS.map((sort) => ({ value: sort, label: t(`users.sorts.${sort}`) }))}
              value={list.sort}
              allowDeselect={false}
              onChange={(value) => value && change({ sort: value as UserSort })}
              comboboxProps={{ withinPortal: true }}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 6, md: 2 }}>
            <Select
              label={t('users.filters.order')}
              data={[
                { value: 'asc', label: t('users.filters.asc') },
                { value: 'desc', label: t('users.filters.desc') },
              ]}
              value={list.order}
              allowDeselect={false}
              onChange={(value) => value && change({ order: value as 'asc' | 'desc' })}
              comboboxProps={{ withinPortal: true }}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 6, md: 2 }}>
            <Select
              label={t('users.filters.size')}
              data={PAGE_SIZES.map((size) => String(size))}
              value={String(list.size)}
              allowDeselect={false}
              onChange={(value) => value && change({ size: Number(value) as ListState['size'] })}
              comboboxProps={{ withinPortal: true }}
            />
          </Grid.Col>
        </Grid>
      </Card>

      <NoticeAlert notice={notice} onClose={() => setNotice(null)} />

      {chosen.length > 0 && <BulkRoleBar count={chosen.length} busy={roles.isPending} onApply={(role) => roles.mutate(chosen.map((user) => ({ userId: user.userId, role })))} />}

      <Stack gap="sm">
        {users.data && (
          <Group gap="xs" mih={24}>
            <Text size="sm" c="dimmed" data-testid="users-range">
              {t('users.range', { first, last, total })}
            </Text>
            {users.isFetching && !users.isPending && <Loader size="xs" aria-label={t('users.loading')} />}
          </Group>
        )}
        {body}
        {users.data && pages > 1 && <AdminPagination pages={pages} pg={pg} wide={wide} onChange={(next) => setPaging({ key: pagingKey, pg: next })} />}
      </Stack>

      <InviteDialog opened={inviting === 'one'} onClose={() => setInviting(null)} />
      <CsvInviteDialog opened={inviting === 'csv'} onClose={() => setInviting(null)} />
    </Stack>
  );
}

function canInviteAnyone(actor: Actor): boolean {
  return can(actor, 'user.invite');
}

function NoticeAlert({ notice, onClose }: { readonly notice: Notice | null; readonly onClose: () => void }) {
  const { t } = useTranslation();
  if (!notice) return null;
  if (notice.kind === 'done') {
    return (
      <Alert color="green" variant="light" role="status" withCloseButton onClose={onClose} closeButtonLabel={t('users.close')}>
        {notice.text}
      </Alert>
    );
  }
  if (notice.kind === 'problem') {
    return (
      <Alert color="red" variant="light" role="alert" withCloseButton onClose={onClose} closeButtonLabel={t('users.close')}>
        {t(notice.problem.key)}
        {notice.problem.detail && (
          <Text size="xs" mt={4}>
            {notice.problem.detail}
          </Text>
        )}
      </Alert>
    );
  }
  const { updated, failed } = notice.outcome;
  return (
    <Alert
      color={failed.length ? 'yellow' : 'green'}
      variant="light"
      role={failed.length ? 'alert' : 'status'}
      withCloseButton
      onClose={onClose}
      closeButtonLabel={t('users.close')}
      data-testid="role-result"
    >
      <Text size="sm" fw={600}>
        {failed.length
          ? t('users.roles.resultWithRefusals', { changed: updated.length, refused: failed.length })
          : t('users.roles.result', { count: updated.length })}
      </Text>
      {failed.length > 0 && (
        <Stack gap={2} component="ul" mt={4} pl="md" m={0}>
          {failed.map((refusal) => (
            <Text key={refusal.userId} component="li" size="sm">
              {t('users.roles.refusal', { name: notice.names.get(refusal.userId) ?? refusal.userId, message: refusal.message })}
            </Text>
          ))}
        </Stack>
      )}
    </Alert>
  );
}

function BulkRoleBar({ count, busy, onApply }: { readonly count: number; readonly busy: boolean; readonly onApply: (role: AssignableRole) => void }) {
  const { t } = useTranslation();
  const [role, setRole] = useState<AssignableRole | null>(null);
  return (
    <Card withBorder padding="sm" bg="var(--mantine-color-blue-light)" data-testid="bulk-bar">
      <Group gap="sm" align="flex-end">
        <Text size="sm" fw={600} style={{ alignSelf: 'center' }}>
          {t('users.bulk.selected', { count })}
        </Text>
        <Select
          label={t('users.bulk.role')}
          placeholder={t('users.roles.pick')}
          data={ASSIGNABLE_ROLES.map((value) => ({ value, label: t(roleLabelKey(value)) }))}
          value={role}
          onChange={(value) => setRole(value as AssignableRole | null)}
          comboboxProps={{ withinPortal: true }}
          size="xs"
          w={180}
        />
        <Button size="xs" disabled={!role} loading={busy} onClick={() => role && onApply(role)}>
          {t('users.bulk.apply')}
        </Button>
      </Group>
    </Card>
  );
}

interface RowsProps {
  readonly users: readonly AdminUser[];
  readonly actor: Actor | null;
  readonly selected: ReadonlySet<string>;
  readonly onSelect: (userId: string, on: boolean) => void;
  readonly onNotice: (notice: Notice) => void;
  readonly onRole: (change: RoleChange) => void;
  /** The tenant's "show user IDs" setting: each person's id is listed with them. */
  readonly showIds: boolean;
}

/** The tenant's "show user IDs" setting, from the configuration every screen of the tenant reads. */
function useShowUserIds(): boolean {
  const configuration = useTenantConfiguration();
  return configuration.data?.showUserUuidColumn ?? false;
}

function UserId({ user }: { readonly user: AdminUser }) {
  const { t } = useTranslation();
  return (
    <Text size="xs" ff="monospace" c="dimmed" style={{ overflowWrap: 'anywhere' }} aria-label={t('users.columns.userId')}>
      {user.userId}
    </Text>
  );
}

function StatusBadge({ user }: { readonly user: AdminUser }) {
  const { t } = useTranslation();
  const badge = statusBadge(user);
  return (
    <Badge variant="light" color={badge.color} tt="none" data-testid="user-status">
      {t(`users.status.${badge.key}`)}
    </Badge>
  );
}

function RoleText({ user }: { readonly user: AdminUser }) {
  const { t } = useTranslation();
  return (
    <Text size="sm">
      {t(roleLabelKey(user.role))}
      {user.retentionAdmin && (
        <Text span size="xs" c="dimmed">
          {' · '}
          {t('users.retention')}
        </Text>
      )}
      {user.passcodeFlag && (
        <Text span size="xs" c="dimmed" data-testid="passcode-flag">
          {' · '}
          {t('rubberStamps.passcode.badge')}
        </Text>
      )}
    </Text>
  );
}

function SelectBox({ user, actor, selected, onSelect }: Pick<RowsProps, 'actor' | 'selected' | 'onSelect'> & { readonly user: AdminUser }) {
  const { t } = useTranslation();
  if (!canOn(actor, 'user.bulkUpdateRoles', user)) return null;
  return (
    <Checkbox
      aria-label={t('users.bulk.select', { name: userName(user) })}
      checked={selected.has(user.userId)}
      onChange={(event) => onSelect(user.userId, event.currentTarget.checked)}
    />
  );
}

function UsersTable({
  allSelected,
  someSelected,
  selectable,
  onSelectAll,
  ...props
}: RowsProps & { readonly allSelected: boolean; readonly someSelected: boolean; readonly selectable: boolean; readonly onSelectAll: (on: boolean) => void }) {
  const { t } = useTranslation();
  return (
    <Table.ScrollContainer minWidth={860}>
      <Table verticalSpacing="sm" highlightOnHover aria-label={t('users.tableLabel')} data-testid="users-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={40}>
              {selectable && (
                <Checkbox
                  aria-label={t('users.bulk.selectAll')}
                  checked={allSelected}
                  indeterminate={someSelected && !allSelected}
                  onChange={(event) => onSelectAll(event.currentTarget.checked)}
                />
              )}
            </Table.Th>
            <Table.Th>{t('users.columns.name')}</Table.Th>
            <Table.Th>{t('users.columns.email')}</Table.Th>
            {props.showIds && <Table.Th>{t('users.columns.userId')}</Table.Th>}
            <Table.Th>{t('users.columns.role')}</Table.Th>
            <Table.Th>{t('users.columns.type')}</Table.Th>
            <Table.Th>{t('users.columns.status')}</Table.Th>
            <Table.Th w={56}>
              <Text span size="sm" className="sr-only" style={{ position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)' }}>
                {t('users.columns.actions')}
              </Text>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {props.users.map((user) => (
            <Table.Tr key={user.userId} data-testid="user-row" aria-label={userName(user)}>
              <Table.Td>
                <SelectBox user={user} {...props} />
              </Table.Td>
              <Table.Td>
                <Group gap="sm" wrap="nowrap">
                  <UserAvatar user={user} />
                  <Text size="sm" fw={600}>
                    {userName(user)}
                  </Text>
                </Group>
              </Table.Td>
              <Table.Td>
                <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                  {user.email}
                </Text>
              </Table.Td>
              {props.showIds && (
                <Table.Td maw={180}>
                  <UserId user={user} />
                </Table.Td>
              )}
              <Table.Td>
                <RoleText user={user} />
              </Table.Td>
              <Table.Td>
                <Text size="sm">{t(`users.types.${user.type}`)}</Text>
              </Table.Td>
              <Table.Td>
                <StatusBadge user={user} />
              </Table.Td>
              <Table.Td>
                <UserActions user={user} actor={props.actor} onNotice={props.onNotice} onRole={props.onRole} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function UsersCards(props: RowsProps) {
  const { t } = useTranslation();
  return (
    <Stack gap="sm" component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label={t('users.tableLabel')}>
      {props.users.map((user) => (
        <Card key={user.userId} component="li" withBorder padding="sm" data-testid="user-row" aria-label={userName(user)}>
          <Group justify="space-between" align="flex-start" gap="xs" wrap="nowrap">
            <Group gap="sm" align="flex-start" wrap="nowrap" miw={0}>
              <SelectBox user={user} {...props} />
              <UserAvatar user={user} />
              <Stack gap={2} miw={0}>
                <Text size="sm" fw={600}>
                  {userName(user)}
                </Text>
                <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                  {user.email}
                </Text>
                {props.showIds && <UserId user={user} />}
                <Group gap={6} mt={4}>
                  <StatusBadge user={user} />
                  <Badge variant="outline" color="gray" tt="none">
                    {t(roleLabelKey(user.role))}
                    {user.retentionAdmin ? ` · ${t('users.retention')}` : ''}
                    {user.passcodeFlag ? ` · ${t('rubberStamps.passcode.badge')}` : ''}
                  </Badge>
                  <Text size="xs" c="dimmed">
                    {t(`users.types.${user.type}`)}
                  </Text>
                </Group>
              </Stack>
            </Group>
            <UserActions user={user} actor={props.actor} onNotice={props.onNotice} onRole={props.onRole} />
          </Group>
        </Card>
      ))}
    </Stack>
  );
}

/** The menu of what may be done to one person: only what the permissions module allows, never on oneself. */
function UserActions({ user, actor, onNotice, onRole }: { readonly user: AdminUser } & Pick<RowsProps, 'actor' | 'onNotice' | 'onRole'>) {
  const { t } = useTranslation();
  const tenant = useCurrentTenant();
  const queryClient = useQueryClient();
  const [dialog, setDialog] = useState<'role' | 'cancel' | 'photo' | 'twoFactor' | null>(null);
  const stampsOn = useCan('rubberStamp.manage');
  const name = userName(user);
  const invited = INVITED_STATUSES.includes(user.status);
  const may = {
    role: canOn(actor, 'user.updateRole', user),
    admin: user.role !== 'admin' && canOn(actor, 'user.updateRole', user, { newRole: 'admin' }),
    disable: canOn(actor, 'user.disable', user),
    invite: invited && canOn(actor, 'user.invite', user),
    photo: user.hasPhoto && canOn(actor, 'user.photo.delete', user),
    // Offered while rubber stamps are on in this tenant: the flag means nothing otherwise.
    passcode: stampsOn && canOn(actor, 'user.passcodeFlag', user),
    // Whether the account is shared with another tenant is the server's to know (it refuses, -11).
    twoFactor: user.twoFactorEnabled && canOn(actor, 'user.resetTwoFactor', user, { targetInOtherTenants: false }),
  };

  // Without a mail server a new invitation only reaches the outbox: the notice says so.
  const mailDelivered = useMailDelivered();
  const action = useMutation({
    mutationFn: async (kind: 'admin' | 'enable' | 'disable' | 'reinvite' | 'cancel' | 'passcodeOn' | 'passcodeOff') => {
      const params = { params: { userId: user.userId } };
      if (kind === 'passcodeOn' || kind === 'passcodeOff') await callApi(setUserPasscodeFlag, { ...params, body: { passcodeFlag: kind === 'passcodeOn' } });
      else if (kind === 'admin') await callApi(makeUserAdmin, params);
      else if (kind === 'reinvite') await callApi(reinviteUser, params);
      else if (kind === 'cancel') await callApi(cancelUserInvitation, params);
      else await callApi(setUserEnabled, { ...params, body: { enabled: kind === 'enable' } });
      return kind;
    },
    onSuccess: async (kind) => {
      setDialog(null);
      onNotice({ kind: 'done', text: kind === 'passcodeOn' || kind === 'passcodeOff' ? t(`rubberStamps.passcode.${kind}`, { name }) : kind === 'reinvite' && !mailDelivered ? t('users.done.reinviteOutbox', { name }) : t(`users.done.${kind}`, { name }) });
      await afterUserChange(queryClient, tenant?.tenantUuid);
    },
    onError: (error) => {
      setDialog(null);
      onNotice({ kind: 'problem', problem: userProblem(error) });
    },
  });

  if (!may.role && !may.admin && !may.disable && !may.invite && !may.photo && !may.passcode && !may.twoFactor) return null;
  return (
    <>
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <ActionIcon variant="subtle" color="gray" aria-label={t('users.actions.label', { name })} loading={action.isPending}>
            <DotsIcon size={18} />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          {may.role && <Menu.Item onClick={() => setDialog('role')}>{t('users.actions.changeRole')}</Menu.Item>}
          {may.admin && <Menu.Item onClick={() => action.mutate('admin')}>{t('users.actions.makeAdmin')}</Menu.Item>}
          {may.passcode && (
            <Menu.Item onClick={() => action.mutate(user.passcodeFlag ? 'passcodeOff' : 'passcodeOn')}>
              {t(user.passcodeFlag ? 'rubberStamps.passcode.clear' : 'rubberStamps.passcode.set')}
            </Menu.Item>
          )}
          {may.disable &&
            (user.enabled ? (
              <Menu.Item color="red" onClick={() => action.mutate('disable')}>
                {t('users.actions.disable')}
              </Menu.Item>
            ) : (
              <Menu.Item onClick={() => action.mutate('enable')}>{t('users.actions.enable')}</Menu.Item>
            ))}
          {may.photo && (
            <Menu.Item color="red" onClick={() => setDialog('photo')}>
              {t('userPhotoAdmin.remove')}
            </Menu.Item>
          )}
          {may.twoFactor && (
            <Menu.Item color="red" onClick={() => setDialog('twoFactor')}>
              {t('users.actions.resetTwoFactor')}
            </Menu.Item>
          )}
          {may.invite && (
            <>
              <Menu.Divider />
              <Menu.Item onClick={() => action.mutate('reinvite')}>{t('users.actions.reinvite')}</Menu.Item>
              <Menu.Item color="red" onClick={() => setDialog('cancel')}>
                {t('users.actions.cancelInvite')}
              </Menu.Item>
            </>
          )}
        </Menu.Dropdown>
      </Menu>
      {dialog === 'role' && (
        <RoleDialog
          user={user}
          onClose={() => setDialog(null)}
          onSave={(change) => {
            setDialog(null);
            onRole(change);
          }}
        />
      )}
      {may.photo && (
        <RemovePhotoDialog
          user={user}
          opened={dialog === 'photo'}
          onClose={() => setDialog(null)}
          onRemoved={() => {
            setDialog(null);
            onNotice({ kind: 'done', text: t('userPhotoAdmin.removed', { name }) });
          }}
          onFailed={(error) => {
            setDialog(null);
            const problem = userProblem(error);
            onNotice({ kind: 'problem', problem: problem.key === 'users.errors.failed' ? { ...problem, key: 'userPhotoAdmin.failed' } : problem });
          }}
        />
      )}
      {may.twoFactor && (
        <ResetTwoFactorDialog
          user={user}
          opened={dialog === 'twoFactor'}
          onClose={() => setDialog(null)}
          onDone={() => {
            setDialog(null);
            onNotice({ kind: 'done', text: t('users.resetTwoFactor.done', { name }) });
          }}
          onFailed={(error) => {
            setDialog(null);
            // -11 here means the account is shared with another tenant (the menu offers nothing else refused).
            const shared = error instanceof ApiError && error.code === ResponseCode.NOT_AUTHORIZED.code;
            onNotice({ kind: 'problem', problem: shared ? { key: 'users.resetTwoFactor.shared' } : userProblem(error) });
          }}
        />
      )}
      <Modal opened={dialog === 'cancel'} onClose={() => setDialog(null)} title={t('users.cancelInvite.title')} centered>
        <Stack gap="md">
          <Text size="sm">{t('users.cancelInvite.body', { name, email: user.email })}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setDialog(null)}>
              {t('users.cancelInvite.keep')}
            </Button>
            <Button color="red" loading={action.isPending} onClick={() => action.mutate('cancel')}>
              {t('users.cancelInvite.confirm')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
