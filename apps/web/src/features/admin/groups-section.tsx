import { Alert, Badge, Button, Card, Grid, Group, Loader, NavLink, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue, useDocumentTitle } from '@mantine/hooks';
import { GROUP_NAME_LENGTH, listGroups, displayName } from '@pakt/domain';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { z } from 'zod';
import { callApi } from '../../api/client';
import { useCurrentTenant } from '../../api/session-store';
import { SearchIcon } from '../inbox';
import { PlusIcon } from '../../ui/icons';
import { GroupDetail } from './group-detail';
import { CreateGroupForm } from './group-form';
import { groupQueryKeys } from './queries';

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
