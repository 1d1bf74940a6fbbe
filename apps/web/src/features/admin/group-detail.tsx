import { ActionIcon, Alert, Badge, Button, Card, Group, Loader, Modal, Stack, Text, Title, Tooltip } from '@mantine/core';
import { addGroupUsers, deleteGroup, getGroup, type Group as GroupData, type GroupMember, removeGroupUsers, displayName } from '@pakt/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { callApi } from '../../api/client';
import { useCurrentTenant } from '../../api/session-store';
import { PencilIcon, PlusIcon, TrashIcon, UsersIcon } from '../../ui/icons';
import { type PickedPerson, PersonPicker } from '../../ui/person-picker';
import { formatDate } from '../../ui/dates';
import { afterGroupChange, type GroupProblem, groupProblem, sortedMembers } from './group-model';
import { ProblemAlert, RenameForm } from './group-form';
import { groupQueryKeys } from './queries';

type Notice =
  | { readonly key: 'groups.detail.renamed' }
  | { readonly key: 'groups.detail.added'; readonly count: number }
  | { readonly key: 'groups.detail.removed' | 'groups.detail.managerMade'; readonly name: string };

export function GroupDetail({ groupId, onGone }: { readonly groupId: string; readonly onGone: () => void }) {
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
