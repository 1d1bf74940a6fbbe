import { Alert, Badge, Button, Card, Grid, Group, Loader, Modal, Stack, Text } from '@mantine/core';
import { type Announcement, can } from '@pakt/domain';
import { type UseQueryResult, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { callApi } from '../../api/client';
import { useSession } from '../../api/session-store';
import { effectiveRole } from '../../api/access';
import { announcementQueryKeys } from './queries';
import { serverErrors } from './announcement-form';
import { AnnouncementForm } from './announcement-form-card';
import { type AnnouncementScope, ENDPOINTS } from './use-announcement-form';
import { formatDateTime } from '../../ui/dates';

/**
 * Whether the person may manage announcements where they stand: a tenant admin their tenant's,
 * root the instance's. The permissions module decides; the server checks the same rule.
 */
export function useCanManageAnnouncements(): boolean {
  const session = useSession();
  if (!session) return false;
  const role = effectiveRole(session);
  if (!role) return false;
  return can(
    { role, userId: session.user.id, userStatus: session.user.status, ...(session.tenantUuid && !session.user.isRoot ? { tenantId: session.tenantUuid } : {}) },
    'announcement.manage',
  );
}

type Phase = 'scheduled' | 'live' | 'ended';

function phaseOf(announcement: Announcement, now: number): Phase {
  if (Date.parse(announcement.endTime) <= now) return 'ended';
  return Date.parse(announcement.startTime) <= now ? 'live' : 'scheduled';
}

const PHASE_COLOURS: Record<Phase, string> = { scheduled: 'blue', live: 'teal', ended: 'gray' };

/**
 * Lists, creates, edits and deletes announcements: a tenant's (on /admin) or the instance's (on
 * /root). Times are entered in the browser's zone; the server checks that the end follows the start
 * and its answer is shown on the field concerned.
 */
export function AnnouncementManager({ scope, tenantUuid }: { readonly scope: AnnouncementScope; readonly tenantUuid?: string | null }) {
  const endpoints = ENDPOINTS[scope];
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<Announcement | null>(null);
  const [deleting, setDeleting] = useState<Announcement | null>(null);
  const formRef = useRef<HTMLDivElement>(null);
  const queryKey = [...announcementQueryKeys.all, 'manage', scope, tenantUuid ?? null] as const;
  const list = useQuery({ queryKey, queryFn: ({ signal }) => callApi(endpoints.list, undefined, { signal }) });
  // The banner shows the same rows: it looks again too.
  const refresh = () => queryClient.invalidateQueries({ queryKey: announcementQueryKeys.all });

  const startEditing = (announcement: Announcement) => {
    setEditing(announcement);
    // On a phone the form sits above the list; bring it into view.
    formRef.current?.scrollIntoView?.({ behavior: 'smooth', block: 'start' });
  };

  return (
    <>
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 7 }} order={{ base: 2, md: 1 }}>
          <AnnouncementList query={list} onEdit={startEditing} onDelete={setDeleting} editingId={editing?.id ?? null} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }} order={{ base: 1, md: 2 }} ref={formRef}>
          <AnnouncementForm
            key={editing?.id ?? 'new'}
            scope={scope}
            editing={editing}
            onDone={() => {
              setEditing(null);
              void refresh();
            }}
            onCancel={() => setEditing(null)}
            onGone={() => {
              setEditing(null);
              void refresh();
            }}
          />
        </Grid.Col>
      </Grid>
      <DeleteDialog
        scope={scope}
        announcement={deleting}
        onClose={() => setDeleting(null)}
        onDeleted={(id) => {
          setDeleting(null);
          if (editing?.id === id) setEditing(null);
          void refresh();
        }}
      />
    </>
  );
}

function AnnouncementList({
  query,
  onEdit,
  onDelete,
  editingId,
}: {
  readonly query: UseQueryResult<{ items: Announcement[] }>;
  readonly onEdit: (announcement: Announcement) => void;
  readonly onDelete: (announcement: Announcement) => void;
  readonly editingId: string | null;
}) {
  const { t } = useTranslation();
  if (query.isPending) return <Loader size="sm" aria-label={t('announcements.listLabel')} />;
  if (query.isError) {
    return (
      <Alert color="red" variant="light" role="alert" title={t('announcements.loadFailed')}>
        <Button variant="light" color="red" size="xs" mt="xs" onClick={() => void query.refetch()} loading={query.isFetching}>
          {t('announcements.retry')}
        </Button>
      </Alert>
    );
  }
  if (query.data.items.length === 0) {
    return (
      <Card withBorder padding="lg">
        <Text c="dimmed">{t('announcements.empty')}</Text>
      </Card>
    );
  }
  const now = Date.now();
  return (
    <Stack gap="sm" component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label={t('announcements.listLabel')}>
      {query.data.items.map((announcement) => (
        <AnnouncementCard
          key={announcement.id}
          announcement={announcement}
          phase={phaseOf(announcement, now)}
          editing={announcement.id === editingId}
          onEdit={() => onEdit(announcement)}
          onDelete={() => onDelete(announcement)}
        />
      ))}
    </Stack>
  );
}

function AnnouncementCard({
  announcement,
  phase,
  editing,
  onEdit,
  onDelete,
}: {
  readonly announcement: Announcement;
  readonly phase: Phase;
  readonly editing: boolean;
  readonly onEdit: () => void;
  readonly onDelete: () => void;
}) {
  const { t, i18n } = useTranslation();
  // The card is named by its message's start, so a screen reader can tell cards apart.
  const name = announcement.text.length > 80 ? `${announcement.text.slice(0, 80)}…` : announcement.text;
  return (
    <Card
      withBorder
      padding="md"
      component="li"
      aria-label={name}
      style={editing ? { borderColor: 'var(--mantine-primary-color-filled)' } : undefined}
    >
      <Stack gap="xs">
        <Group justify="space-between" align="flex-start" gap="xs" wrap="nowrap">
          <Text style={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>{announcement.text}</Text>
          <Badge variant="light" color={PHASE_COLOURS[phase]} style={{ flexShrink: 0 }}>
            {t(`announcements.status.${phase}`)}
          </Badge>
        </Group>
        <Group gap={4} wrap="wrap">
          <Text size="sm" c="dimmed">
            {t('announcements.form.start')}: <time dateTime={announcement.startTime}>{formatDateTime(announcement.startTime, i18n.language)}</time>
          </Text>
          <Text size="sm" c="dimmed" aria-hidden="true">
            ·
          </Text>
          <Text size="sm" c="dimmed">
            {t('announcements.form.end')}: <time dateTime={announcement.endTime}>{formatDateTime(announcement.endTime, i18n.language)}</time>
          </Text>
        </Group>
        <Group gap="xs">
          <Button size="xs" variant="light" onClick={onEdit} disabled={editing}>
            {t('announcements.edit')}
          </Button>
          <Button size="xs" variant="subtle" color="red" onClick={onDelete}>
            {t('announcements.delete')}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

function DeleteDialog({
  scope,
  announcement,
  onClose,
  onDeleted,
}: {
  readonly scope: AnnouncementScope;
  readonly announcement: Announcement | null;
  readonly onClose: () => void;
  readonly onDeleted: (id: string) => void;
}) {
  const { t } = useTranslation();
  const endpoints = ENDPOINTS[scope];
  const remove = useMutation({
    mutationFn: (id: string) => callApi(endpoints.remove, { params: { announcementId: id } }),
    onSuccess: (result) => onDeleted(result.id),
    onError: (error, id) => {
      // Someone else deleted it first: the wish is fulfilled.
      if (serverErrors(error).message === 'announcements.errors.notFound') onDeleted(id);
    },
  });
  const close = () => {
    remove.reset();
    onClose();
  };
  return (
    <Modal opened={announcement !== null} onClose={close} title={t('announcements.confirmDelete.title')} centered>
      <Stack gap="sm">
        <Text size="sm">{t('announcements.confirmDelete.body')}</Text>
        {announcement && (
          <Text size="sm" fw={500} style={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>
            {announcement.text}
          </Text>
        )}
        {remove.isError && (
          <Alert color="red" variant="light" role="alert" p="xs">
            {t('announcements.errors.deleteFailed')}
          </Alert>
        )}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={close} disabled={remove.isPending}>
            {t('announcements.confirmDelete.cancel')}
          </Button>
          <Button color="red" loading={remove.isPending} onClick={() => announcement && remove.mutate(announcement.id)}>
            {t('announcements.confirmDelete.confirm')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
