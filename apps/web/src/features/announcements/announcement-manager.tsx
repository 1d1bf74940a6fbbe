import {
  Alert,
  Badge,
  Button,
  Card,
  Grid,
  Group,
  Loader,
  Modal,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import {
  type Announcement,
  can,
  createAnnouncement,
  createInstanceAnnouncement,
  deleteAnnouncement,
  deleteInstanceAnnouncement,
  listAnnouncements,
  listInstanceAnnouncements,
  updateAnnouncement,
  updateInstanceAnnouncement,
} from '@pakt/domain';
import { type UseQueryResult, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ParseKeys } from 'i18next';
import { type FormEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { callApi } from '../../api/client';
import { useSession } from '../../api/session-store';
import { effectiveRole } from '../../api/access';
import { announcementQueryKeys } from './queries';
import {
  type AnnouncementDraft,
  draftProblems,
  type DraftErrors,
  emptyDraft,
  isoFromLocalInput,
  serverErrors,
  toLocalInput,
} from './announcement-form';
import { formatDateTime } from '../../ui/dates';

/** The server's limit (AnnouncementInput.text). */
const TEXT_MAX_LENGTH = 1000;

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

/** The two sets of endpoints: a tenant's own announcements, and root's instance-wide ones. */
const ENDPOINTS = {
  tenant: { list: listAnnouncements, create: createAnnouncement, update: updateAnnouncement, remove: deleteAnnouncement },
  instance: {
    list: listInstanceAnnouncements,
    create: createInstanceAnnouncement,
    update: updateInstanceAnnouncement,
    remove: deleteInstanceAnnouncement,
  },
} as const;

export type AnnouncementScope = keyof typeof ENDPOINTS;

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

function AnnouncementForm({
  scope,
  editing,
  onDone,
  onCancel,
  onGone,
}: {
  readonly scope: AnnouncementScope;
  readonly editing: Announcement | null;
  readonly onDone: () => void;
  readonly onCancel: () => void;
  readonly onGone: () => void;
}) {
  const { t } = useTranslation();
  const endpoints = ENDPOINTS[scope];
  const [draft, setDraft] = useState<AnnouncementDraft>(() =>
    editing ? { text: editing.text, start: toLocalInput(editing.startTime), end: toLocalInput(editing.endTime) } : emptyDraft(),
  );
  const [submitted, setSubmitted] = useState(false);
  const [server, setServer] = useState<ReturnType<typeof serverErrors> | null>(null);
  const [saved, setSaved] = useState<'announcements.published' | 'announcements.saved' | null>(null);
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;

  const save = useMutation({
    mutationFn: () => {
      const body = { text: draft.text.trim(), startTime: isoFromLocalInput(draft.start)!, endTime: isoFromLocalInput(draft.end)! };
      return editing
        ? callApi(endpoints.update, { params: { announcementId: editing.id }, body })
        : callApi(endpoints.create, { body });
    },
    onSuccess: () => {
      setSaved(editing ? 'announcements.saved' : 'announcements.published');
      if (!editing) {
        setDraft(emptyDraft());
        setSubmitted(false);
      }
      onDone();
    },
    onError: (error) => {
      const answer = serverErrors(error);
      setServer(answer);
      if (answer.message === 'announcements.errors.notFound') onGone();
    },
  });

  const local = draftProblems(draft);
  const errors: DraftErrors = { ...(submitted ? local : {}), ...server?.fields };
  const change = (field: keyof AnnouncementDraft, value: string) => {
    setDraft((current) => ({ ...current, [field]: value }));
    setSaved(null);
    // A field's server answer no longer applies once it changes; end-before-start concerns both.
    setServer((current) => {
      if (!current) return current;
      const fields = { ...current.fields };
      delete fields[field];
      if (field === 'start') delete fields.end;
      return { fields };
    });
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    setServer(null);
    setSaved(null);
    if (Object.keys(local).length > 0) return;
    save.mutate();
  };
  const fieldError = (key: keyof AnnouncementDraft) => {
    const message: ParseKeys | undefined = errors[key];
    return message ? t(message) : undefined;
  };

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="announcement-form-heading">
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          <Title order={2} size="h3" id="announcement-form-heading">
            {editing ? t('announcements.form.editTitle') : t('announcements.form.createTitle')}
          </Title>
          {server?.message && (
            <Alert color="red" variant="light" role="alert">
              {t(server.message)}
              {server.detail && (
                <Text size="xs" mt={4}>
                  {server.detail}
                </Text>
              )}
            </Alert>
          )}
          {saved && (
            <Alert color="teal" variant="light" role="status" p="xs">
              {t(saved)}
            </Alert>
          )}
          <Textarea
            label={t('announcements.form.text')}
            description={t('announcements.form.textHint')}
            required
            rows={4}
            maxLength={TEXT_MAX_LENGTH}
            value={draft.text}
            error={fieldError('text')}
            onChange={(event) => change('text', event.currentTarget.value)}
          />
          <TextInput
            type="datetime-local"
            label={t('announcements.form.start')}
            required
            value={draft.start}
            error={fieldError('start')}
            onChange={(event) => change('start', event.currentTarget.value)}
          />
          <TextInput
            type="datetime-local"
            label={t('announcements.form.end')}
            required
            value={draft.end}
            error={fieldError('end')}
            onChange={(event) => change('end', event.currentTarget.value)}
          />
          <Text size="xs" c="dimmed">
            {t('announcements.form.timeZoneHint', { zone })}
          </Text>
          <Group gap="sm">
            <Button type="submit" loading={save.isPending}>
              {editing ? t('announcements.form.save') : t('announcements.form.create')}
            </Button>
            {editing && (
              <Button variant="default" onClick={onCancel} disabled={save.isPending}>
                {t('announcements.form.cancel')}
              </Button>
            )}
          </Group>
        </Stack>
      </form>
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
