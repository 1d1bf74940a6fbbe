import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Card,
  Grid,
  Group,
  Loader,
  Modal,
  NavLink,
  Stack,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import { useDebouncedValue, useDocumentTitle } from '@mantine/hooks';
import {
  addGroupUsers,
  createGroup,
  deleteGroup,
  getGroup,
  GROUP_NAME_LENGTH,
  type Group as GroupData,
  type GroupMember,
  listGroups,
  removeGroupUsers,
  renameGroup,
  displayName,
} from '@pakt/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { z } from 'zod';
import { callApi } from '../../api/client';
import { useCurrentTenant } from '../../api/session-store';
import { SearchIcon } from '../inbox';
import { PencilIcon, PlusIcon, TrashIcon, UsersIcon } from '../../ui/icons';
import { afterGroupChange, groupNameProblem, type GroupProblem, groupProblem, sortedMembers } from './group-model';
import { groupQueryKeys } from './queries';
import { type PickedPerson, PersonPicker } from '../../ui/person-picker';
import { formatDate } from '../../ui/dates';

/** The filter waits as the directory picker does before asking the server again. */
const FILTER_DEBOUNCE_MS = 200;

/** `?group=` names the open group; anything but an id is no group at all. */
const GroupId = z.uuid();

/** The address of a group on /admin, so it can be opened in a new tab, linked and gone back from. */
export const groupPath = (groupId: string) => `/admin?section=groups&group=${groupId}`;

/**
 * /admin?section=groups: the tenant's groups (§7 Groups) for whoever may manage them. The list
 * (filtered by name on the server) sits beside either the form for a new group or the open group
 * (`&group=<id>`), with its members, its manager and what can be done to them. On a phone the open
 * group comes first, the list after it.
 */
export function GroupsSection() {
  const { t } = useTranslation();
  const tenant = useCurrentTenant();
  const [searchParams, setSearchParams] = useSearchParams();
  const requested = searchParams.get('group');
  const openId = requested && GroupId.safeParse(requested).success ? requested : null;
  const panelRef = useRef<HTMLDivElement>(null);
  useDocumentTitle(`${t('groups.title')} · Pakt`);

  const show = (groupId: string | null) =>
    setSearchParams((current) => {
      const next = new URLSearchParams(current);
      if (groupId) next.set('group', groupId);
      else next.delete('group');
      return next;
    });

  // On a phone the panel sits above the list; once a group is opened from far down the list, the
  // panel is brought into view.
  useEffect(() => {
    if (openId) panelRef.current?.scrollIntoView?.({ behavior: 'smooth', block: 'start' });
  }, [openId]);

  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={1} fz={{ base: 28, sm: 34 }}>
          {t('groups.title')}
        </Title>
        <Text c="dimmed">{t('groups.intro', { tenant: tenant?.tenantName ?? '' })}</Text>
      </Stack>
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 5 }} order={{ base: openId ? 2 : 1, md: 1 }}>
          <GroupList openId={openId} onNew={() => show(null)} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 7 }} order={{ base: openId ? 1 : 2, md: 2 }} ref={panelRef}>
          {openId ? (
            <GroupDetail key={openId} groupId={openId} onGone={() => show(null)} />
          ) : (
            <CreateGroupForm onCreated={(group) => show(group.groupId)} />
          )}
        </Grid.Col>
      </Grid>
    </Stack>
  );
}

function GroupList({ openId, onNew }: { readonly openId: string | null; readonly onNew: () => void }) {
  const { t } = useTranslation();
  const tenant = useCurrentTenant();
  const headingId = useId();
  const [filter, setFilter] = useState('');
  const [q] = useDebouncedValue(filter.trim(), FILTER_DEBOUNCE_MS);
  const list = useQuery({
    queryKey: groupQueryKeys.list(tenant?.tenantUuid, q),
    queryFn: ({ signal }) => callApi(listGroups, { query: q ? { q } : {} }, { signal }),
    // While a new filter is asked, the last rows stay rather than a blank list.
    placeholderData: (previous) => previous,
  });

  let body;
  if (list.isPending) {
    body = (
      <Group justify="center" py="md">
        <Loader size="sm" aria-label={t('groups.loading')} />
      </Group>
    );
  } else if (list.isError) {
    body = (
      <Alert color="red" variant="light" role="alert" title={t('groups.loadFailed')}>
        <Button variant="light" color="red" size="xs" mt="xs" onClick={() => void list.refetch()} loading={list.isFetching}>
          {t('groups.retry')}
        </Button>
      </Alert>
    );
  } else if (list.data.groups.length === 0) {
    body = (
      <Text c="dimmed" size="sm" py="xs">
        {q ? t('groups.noMatch', { q }) : t('groups.empty')}
      </Text>
    );
  } else {
    body = (
      <Stack gap={4} component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label={t('groups.listLabel')}>
        {list.data.groups.map((group) => (
          <li key={group.groupId}>
            <NavLink
              component={Link}
              to={groupPath(group.groupId)}
              active={group.groupId === openId}
              aria-current={group.groupId === openId ? 'page' : undefined}
              variant="light"
              label={
                <Text fw={600} size="sm" style={{ overflowWrap: 'anywhere' }}>
                  {group.groupName}
                </Text>
              }
              description={group.manager ? t('groups.managedBy', { name: displayName(group.manager) }) : t('groups.noManager')}
              rightSection={
                <Badge variant="light" color="gray" tt="none" style={{ flexShrink: 0 }}>
                  {t('groups.memberCount', { count: group.memberCount })}
                </Badge>
              }
              style={{ borderRadius: 'var(--mantine-radius-sm)' }}
              data-testid="group-row"
            />
          </li>
        ))}
      </Stack>
    );
  }

  return (
    <Card withBorder padding="md" component="section" aria-labelledby={headingId}>
      <Stack gap="sm">
        <Group justify="space-between" gap="xs" wrap="nowrap">
          <Group gap="xs" wrap="nowrap">
            <Title order={2} size="h4" id={headingId}>
              {t('groups.listTitle')}
            </Title>
            {list.isFetching && !list.isPending && <Loader size="xs" aria-label={t('groups.loading')} />}
          </Group>
          {openId && (
            <Button size="xs" variant="light" leftSection={<PlusIcon size={14} />} onClick={onNew}>
              {t('groups.new')}
            </Button>
          )}
        </Group>
        <TextInput
          type="search"
          label={t('groups.filter')}
          placeholder={t('groups.filterPlaceholder')}
          leftSection={<SearchIcon size={16} />}
          value={filter}
          maxLength={GROUP_NAME_LENGTH}
          onChange={(event) => setFilter(event.currentTarget.value)}
        />
        {body}
      </Stack>
    </Card>
  );
}

/** The problem said above a form or a group, in words of its own or the server's. */
function ProblemAlert({ problem }: { readonly problem: GroupProblem | null }) {
  const { t } = useTranslation();
  if (!problem) return null;
  return (
    <Alert color="red" variant="light" role="alert">
      {t(problem.key)}
      {problem.detail && (
        <Text size="xs" mt={4}>
          {problem.detail}
        </Text>
      )}
    </Alert>
  );
}

function CreateGroupForm({ onCreated }: { readonly onCreated: (group: GroupData) => void }) {
  const { t } = useTranslation();
  const tenant = useCurrentTenant();
  const queryClient = useQueryClient();
  const headingId = useId();
  const [name, setName] = useState('');
  const [members, setMembers] = useState<PickedPerson[]>([]);
  const [submitted, setSubmitted] = useState(false);
  const [problem, setProblem] = useState<GroupProblem | null>(null);

  const create = useMutation({
    mutationFn: (groupName: string) => callApi(createGroup, { body: { groupName, userIds: members.map((person) => person.userId) } }),
    onSuccess: async (group) => {
      await afterGroupChange(queryClient, tenant?.tenantUuid, group);
      onCreated(group);
    },
    onError: (error) => setProblem(groupProblem(error)),
  });

  const localProblem = groupNameProblem(name);
  const nameError = (submitted && localProblem) || (problem?.onName ? problem.key : null);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    setProblem(null);
    // The domain's own schema, before anything is sent: a 16th character never reaches the server.
    if (localProblem) return;
    create.mutate(name.trim());
  };

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={headingId}>
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          <Title order={2} size="h3" id={headingId}>
            {t('groups.create.title')}
          </Title>
          {problem && !problem.onName && <ProblemAlert problem={problem} />}
          <TextInput
            label={t('groups.create.name')}
            description={t('groups.nameHint', { length: name.trim().length, max: GROUP_NAME_LENGTH })}
            required
            value={name}
            error={nameError ? t(nameError) : undefined}
            onChange={(event) => {
              setName(event.currentTarget.value);
              if (problem?.onName) setProblem(null);
            }}
          />
          <PersonPicker label={t('groups.create.members')} chosen={members} onChange={setMembers} disabled={create.isPending} />
          <Group>
            <Button type="submit" loading={create.isPending} leftSection={<PlusIcon size={16} />}>
              {t('groups.create.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}

type Notice =
  | { readonly key: 'groups.detail.renamed' }
  | { readonly key: 'groups.detail.added'; readonly count: number }
  | { readonly key: 'groups.detail.removed' | 'groups.detail.managerMade'; readonly name: string };

function GroupDetail({ groupId, onGone }: { readonly groupId: string; readonly onGone: () => void }) {
  const { t, i18n } = useTranslation();
  const tenant = useCurrentTenant();
  const queryClient = useQueryClient();
  const headingId = useId();
  const [problem, setProblem] = useState<GroupProblem | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [renaming, setRenaming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [adding, setAdding] = useState<PickedPerson[]>([]);

  const group = useQuery({
    queryKey: groupQueryKeys.detail(tenant?.tenantUuid, groupId),
    queryFn: ({ signal }) => callApi(getGroup, { params: { id: groupId } }, { signal }),
  });

  /** Every change answers with the group as it now is; a refusal is said above the members. */
  const change = <V,>(run: (variables: V) => Promise<GroupData>, done: (group: GroupData, variables: V) => Notice | null) =>
    ({
      mutationFn: run,
      onMutate: () => {
        setProblem(null);
        setNotice(null);
      },
      onSuccess: async (updated: GroupData, variables: V) => {
        setNotice(done(updated, variables));
        await afterGroupChange(queryClient, tenant?.tenantUuid, updated);
      },
      onError: (error: unknown) => {
        const found = groupProblem(error);
        setProblem(found);
        if (found.gone) void afterGroupChange(queryClient, tenant?.tenantUuid);
      },
    }) as const;

  const add = useMutation(
    change(
      (people: PickedPerson[]) => callApi(addGroupUsers, { params: { groupId }, body: { userIds: people.map((person) => person.userId), manager: false } }),
      (_, people) => {
        setAdding([]);
        return { key: 'groups.detail.added', count: people.length };
      },
    ),
  );
  const makeManager = useMutation(
    change(
      (member: GroupMember) => callApi(addGroupUsers, { params: { groupId }, body: { userIds: [member.userId], manager: true } }),
      (_, member) => ({ key: 'groups.detail.managerMade', name: displayName(member) }),
    ),
  );
  const remove = useMutation(
    change(
      (member: GroupMember) => callApi(removeGroupUsers, { params: { groupId }, body: { userIds: [member.userId] } }),
      (_, member) => ({ key: 'groups.detail.removed', name: displayName(member) }),
    ),
  );

  if (group.isPending) {
    return (
      <Card withBorder padding="lg">
        <Group justify="center" py="md">
          <Loader size="sm" aria-label={t('groups.detail.loading')} />
        </Group>
      </Card>
    );
  }
  if (group.isError) {
    const found = groupProblem(group.error);
    return (
      <Card withBorder padding="lg">
        <Stack gap="sm">
          <Alert color={found.gone ? 'yellow' : 'red'} variant="light" role="alert">
            {found.gone ? t('groups.detail.notFound') : t(found.key)}
          </Alert>
          <Group>
            <Button variant="default" size="xs" onClick={onGone}>
              {t('groups.detail.back')}
            </Button>
          </Group>
        </Stack>
      </Card>
    );
  }

  const data = group.data;
  const members = sortedMembers(data.users);
  const memberIds = new Set(members.map((member) => member.userId));
  const busy = add.isPending || makeManager.isPending || remove.isPending;
  const created = formatDate(data.createdOn, i18n.language);

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={headingId} data-testid="group-detail">
      <Stack gap="md">
        {renaming ? (
          <RenameForm
            group={data}
            onDone={(renamed) => {
              setRenaming(false);
              if (renamed) setNotice({ key: 'groups.detail.renamed' });
            }}
            onGone={onGone}
            headingId={headingId}
          />
        ) : (
          <Group justify="space-between" align="flex-start" gap="sm">
            {/* On a phone the buttons go under the name rather than squeezing it onto two lines. */}
            <Stack gap={2} miw={0} style={{ flex: '1 1 240px' }}>
              <Group gap="xs" wrap="nowrap" miw={0}>
                <UsersIcon size={22} />
                <Title order={2} size="h3" id={headingId} style={{ overflowWrap: 'anywhere' }}>
                  {data.groupName}
                </Title>
              </Group>
              <Text size="sm" c="dimmed">
                {t('groups.memberCount', { count: members.length })} · {t('groups.detail.createdOn', { date: created })}
              </Text>
            </Stack>
            <Group gap="xs">
              <Button
                size="xs"
                variant="light"
                leftSection={<PencilIcon size={14} />}
                onClick={() => {
                  // What was said about an earlier change no longer applies.
                  setProblem(null);
                  setNotice(null);
                  setRenaming(true);
                }}
              >
                {t('groups.detail.rename')}
              </Button>
              <Button size="xs" variant="light" color="red" leftSection={<TrashIcon size={14} />} onClick={() => setDeleting(true)}>
                {t('groups.detail.delete')}
              </Button>
            </Group>
          </Group>
        )}

        <ProblemAlert problem={problem} />
        {notice && (
          <Alert color="teal" variant="light" role="status" p="xs">
            {notice.key === 'groups.detail.added'
              ? t(notice.key, { count: notice.count })
              : notice.key === 'groups.detail.renamed'
                ? t(notice.key)
                : t(notice.key, { name: notice.name })}
          </Alert>
        )}

        <Stack gap="xs">
          <Title order={3} size="h5">
            {t('groups.detail.members')}
          </Title>
          {members.length === 0 ? (
            <Text size="sm" c="dimmed">
              {t('groups.detail.noMembers')}
            </Text>
          ) : (
            <Stack gap={0} component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label={t('groups.detail.membersOf', { name: data.groupName })}>
              {members.map((member) => (
                <MemberRow
                  key={member.userId}
                  member={member}
                  busy={busy}
                  onMakeManager={() => makeManager.mutate(member)}
                  onRemove={() => remove.mutate(member)}
                  working={
                    (makeManager.isPending && makeManager.variables?.userId === member.userId) ||
                    (remove.isPending && remove.variables?.userId === member.userId)
                  }
                />
              ))}
            </Stack>
          )}
        </Stack>

        <Stack gap="xs">
          <Title order={3} size="h5">
            {t('groups.detail.addTitle')}
          </Title>
          <PersonPicker label={t('groups.detail.addLabel')} chosen={adding} onChange={setAdding} exclude={memberIds} disabled={add.isPending} />
          <Group>
            <Button size="sm" leftSection={<PlusIcon size={16} />} disabled={adding.length === 0} loading={add.isPending} onClick={() => add.mutate(adding)}>
              {adding.length > 0 ? t('groups.detail.addCount', { count: adding.length }) : t('groups.detail.add')}
            </Button>
          </Group>
        </Stack>
      </Stack>
      <DeleteDialog group={deleting ? data : null} onClose={() => setDeleting(false)} onDeleted={onGone} />
    </Card>
  );
}

function MemberRow({
  member,
  busy,
  working,
  onMakeManager,
  onRemove,
}: {
  readonly member: GroupMember;
  readonly busy: boolean;
  readonly working: boolean;
  readonly onMakeManager: () => void;
  readonly onRemove: () => void;
}) {
  const { t } = useTranslation();
  const name = displayName(member);
  const removeLabel = t('groups.detail.removeLabel', { name });
  return (
    <Group
      component="li"
      aria-label={name}
      justify="space-between"
      gap="xs"
      wrap="nowrap"
      py={8}
      style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}
      data-testid="group-member"
    >
      <Stack gap={0} miw={0} style={{ flex: 1 }}>
        <Group gap={6} wrap="wrap">
          <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
            {name}
          </Text>
          {member.manager && (
            <Badge size="sm" variant="light" color="indigo" tt="none">
              {t('groups.detail.manager')}
            </Badge>
          )}
        </Group>
        <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {member.email}
        </Text>
      </Stack>
      <Group gap={4} wrap="nowrap" style={{ flexShrink: 0 }}>
        {!member.manager && (
          <Button
            size="compact-xs"
            variant="subtle"
            onClick={onMakeManager}
            disabled={busy}
            aria-label={t('groups.detail.makeManagerLabel', { name })}
          >
            {t('groups.detail.makeManager')}
          </Button>
        )}
        <Tooltip label={removeLabel} openDelay={400}>
          <ActionIcon variant="subtle" color="red" aria-label={removeLabel} onClick={onRemove} disabled={busy} loading={working}>
            <TrashIcon size={16} />
          </ActionIcon>
        </Tooltip>
      </Group>
    </Group>
  );
}

function RenameForm({
  group,
  onDone,
  onGone,
  headingId,
}: {
  readonly group: GroupData;
  readonly onDone: (renamed: boolean) => void;
  readonly onGone: () => void;
  readonly headingId: string;
}) {
  const { t } = useTranslation();
  const tenant = useCurrentTenant();
  const queryClient = useQueryClient();
  const [name, setName] = useState(group.groupName);
  const [submitted, setSubmitted] = useState(false);
  const [problem, setProblem] = useState<GroupProblem | null>(null);
  const rename = useMutation({
    mutationFn: (groupName: string) => callApi(renameGroup, { body: { groupId: group.groupId, groupName } }),
    onSuccess: async (renamed) => {
      await afterGroupChange(queryClient, tenant?.tenantUuid, renamed);
      onDone(true);
    },
    onError: (error) => {
      const found = groupProblem(error);
      setProblem(found);
      if (found.gone) {
        void afterGroupChange(queryClient, tenant?.tenantUuid);
        onGone();
      }
    },
  });
  const localProblem = groupNameProblem(name);
  const nameError = (submitted && localProblem) || (problem?.onName ? problem.key : null);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    setProblem(null);
    if (localProblem) return;
    if (name.trim() === group.groupName) return onDone(false);
    rename.mutate(name.trim());
  };
  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="sm">
        <Title order={2} size="h3" id={headingId}>
          {t('groups.detail.renameTitle', { name: group.groupName })}
        </Title>
        {problem && !problem.onName && <ProblemAlert problem={problem} />}
        <TextInput
          label={t('groups.detail.newName')}
          description={t('groups.nameHint', { length: name.trim().length, max: GROUP_NAME_LENGTH })}
          required
          value={name}
          data-autofocus
          autoFocus
          error={nameError ? t(nameError) : undefined}
          onChange={(event) => {
            setName(event.currentTarget.value);
            if (problem?.onName) setProblem(null);
          }}
        />
        <Group gap="sm">
          <Button type="submit" size="sm" loading={rename.isPending}>
            {t('groups.detail.save')}
          </Button>
          <Button variant="default" size="sm" onClick={() => onDone(false)} disabled={rename.isPending}>
            {t('groups.detail.cancel')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function DeleteDialog({ group, onClose, onDeleted }: { readonly group: GroupData | null; readonly onClose: () => void; readonly onDeleted: () => void }) {
  const { t } = useTranslation();
  const tenant = useCurrentTenant();
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: (groupId: string) => callApi(deleteGroup, { params: { groupId } }),
    onSuccess: async (result) => {
      queryClient.removeQueries({ queryKey: groupQueryKeys.detail(tenant?.tenantUuid, result.groupId) });
      await afterGroupChange(queryClient, tenant?.tenantUuid);
      onDeleted();
    },
    onError: async (error) => {
      // Someone else deleted it first: the wish is fulfilled.
      if (groupProblem(error).gone) {
        await afterGroupChange(queryClient, tenant?.tenantUuid);
        onDeleted();
      }
    },
  });
  const close = () => {
    remove.reset();
    onClose();
  };
  return (
    <Modal opened={group !== null} onClose={close} title={t('groups.confirmDelete.title')} centered>
      <Stack gap="sm">
        {group && (
          <Text size="sm">
            {t('groups.confirmDelete.body', { name: group.groupName })}
          </Text>
        )}
        {remove.isError && !groupProblem(remove.error).gone && <ProblemAlert problem={groupProblem(remove.error)} />}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={close} disabled={remove.isPending}>
            {t('groups.confirmDelete.cancel')}
          </Button>
          <Button color="red" loading={remove.isPending} onClick={() => group && remove.mutate(group.groupId)}>
            {t('groups.confirmDelete.confirm')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
