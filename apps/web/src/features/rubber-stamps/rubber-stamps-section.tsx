import { Alert, Badge, Button, Card, FileButton, Group, Image, Modal, MultiSelect, Paper, SimpleGrid, Skeleton, Stack, Text, TextInput, Title } from '@mantine/core';
import {
  createRubberStamp,
  deleteRubberStamp,
  downloadRubberStampImage,
  listRubberStamps,
  ResponseCode,
  RUBBER_STAMP_MAX_SIZE_BYTES,
  RUBBER_STAMP_MAX_SIZE_KB,
  RUBBER_STAMP_NAME_MAX_LENGTH,
  shareRubberStamp,
  updateRubberStamp,
  type RubberStamp,
} from '@pakt/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, callApi } from '../../api/client';
import { useObjectUrl } from '../../api/profile';
import { useSession } from '../../api/session-store';
import { PersonPicker, type PickedPerson } from '../../ui/person-picker';
import { useCan } from '../../api/access';
import { acceptOf, readImageFile, type ImageFileRule } from '../../ui/image-file';
import { PencilIcon, PlusIcon, TrashIcon, UsersIcon } from '../../ui/icons';
import { queryPlaceholder } from '../../ui/query-placeholder';
import { rubberStampQueryKeys } from './queries';

// The server judges the bytes again; this spares a round trip for the obvious mistakes.
const STAMP_RULE: ImageFileRule = { types: ['png', 'jpg', 'jpeg'], maxBytes: RUBBER_STAMP_MAX_SIZE_BYTES };

type Dialog = { kind: 'add' } | { kind: 'edit'; stamp: RubberStamp } | { kind: 'share'; stamp: RubberStamp } | { kind: 'delete'; stamp: RubberStamp };

/**
 * "Rubber stamps" on the profile page (issue 8): the member's own stamps and those shared with
 * them, with adding, editing, sharing and deleting. Shown only while the tenant's rubber-stamp
 * setting is on (rubberStamp.manage); applying a stamp happens in the signing ceremony.
 */
export function RubberStampsSection() {
  const may = useCan('rubberStamp.manage');
  if (!may) return null;
  return <Stamps />;
}

function Stamps() {
  const { t } = useTranslation();
  const session = useSession();
  const headingId = useId();
  const listKey = rubberStampQueryKeys.list(session?.tenantUuid);
  const list = useQuery({ queryKey: listKey, queryFn: ({ signal }) => callApi(listRubberStamps, undefined, { signal, failures: 'caller' }) });
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const close = () => setDialog(null);

  let body = queryPlaceholder(list, { loading: t('rubberStamps.title'), loadFailed: t('rubberStamps.loadFailed'), retry: t('root.retry') });
  if (list.isSuccess) {
    body = (
      <Stack gap="sm">
        {!list.data.passcodeFlag && (
          <Alert color="yellow" variant="light" data-testid="passcode-missing">
            {t('rubberStamps.passcodeMissing')}
          </Alert>
        )}
        {list.data.stamps.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('rubberStamps.empty')}
          </Text>
        ) : (
          <SimpleGrid component="ul" cols={{ base: 1, xs: 2 }} spacing="sm" m={0} p={0} style={{ listStyle: 'none' }} aria-labelledby={headingId}>
            {list.data.stamps.map((stamp) => (
              <StampCard key={stamp.rubberStampId} stamp={stamp} onDialog={setDialog} />
            ))}
          </SimpleGrid>
        )}
      </Stack>
    );
  }

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={headingId} data-testid="rubber-stamps">
      <Stack gap="md">
        <Group justify="space-between" gap="sm" align="flex-start">
          <Stack gap={2} style={{ flex: '1 1 240px' }}>
            <Title order={2} size="h4" id={headingId}>
              {t('rubberStamps.title')}
            </Title>
            <Text size="sm" c="dimmed">
              {t('rubberStamps.intro')}
            </Text>
          </Stack>
          <Button variant="light" leftSection={<PlusIcon size={16} />} onClick={() => setDialog({ kind: 'add' })}>
            {t('rubberStamps.add')}
          </Button>
        </Group>
        {body}
      </Stack>
      {(dialog?.kind === 'add' || dialog?.kind === 'edit') && <StampDialog stamp={dialog.kind === 'edit' ? dialog.stamp : null} onClose={close} />}
      {dialog?.kind === 'share' && list.data && <ShareDialog stamp={dialog.stamp} groups={list.data.groups} onClose={close} />}
      {dialog?.kind === 'delete' && <DeleteDialog stamp={dialog.stamp} onClose={close} />}
    </Card>
  );
}

export function StampImage({ stamp, height }: { readonly stamp: Pick<RubberStamp, 'rubberStampId' | 'name' | 'updatedOn'>; readonly height: number }) {
  const { t } = useTranslation();
  const session = useSession();
  const image = useQuery({
    queryKey: rubberStampQueryKeys.image(session?.tenantUuid, stamp.rubberStampId, stamp.updatedOn),
    queryFn: ({ signal }) => callApi(downloadRubberStampImage, { params: { rubberStampId: stamp.rubberStampId } }, { signal, failures: 'caller' }),
    staleTime: Infinity,
    retry: false,
  });
  const url = useObjectUrl(image.data);
  if (!url) return <Skeleton h={height} animate={image.isPending} radius="sm" />;
  return <Image src={url} alt={t('rubberStamps.imageAlt', { name: stamp.name })} h={height} fit="contain" radius="sm" bg="white" />;
}

function sharedWithText(t: TFunction, stamp: RubberStamp): string {
  const names = [...stamp.sharedWith.groups.map((group) => group.groupName), ...stamp.sharedWith.users.map((user) => user.name)];
  return names.length === 0 ? t('rubberStamps.notShared') : t('rubberStamps.sharedWith', { list: names.join(', ') });
}

function StampCard({ stamp, onDialog }: { readonly stamp: RubberStamp; readonly onDialog: (dialog: Dialog) => void }) {
  const { t } = useTranslation();
  return (
    <Paper component="li" withBorder p="sm" radius="sm" aria-label={stamp.name} data-testid="rubber-stamp">
      <Stack gap="xs">
        <Paper withBorder radius="sm" p={4}>
          <StampImage stamp={stamp} height={96} />
        </Paper>
        <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
          <Stack gap={2} miw={0}>
            <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
              {stamp.name}
            </Text>
            <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              {stamp.owned ? sharedWithText(t, stamp) : t('rubberStamps.sharedBy', { name: stamp.ownerName })}
            </Text>
          </Stack>
          {stamp.owned && (
            <Badge variant="light" tt="none" style={{ flexShrink: 0 }}>
              {t('rubberStamps.mine')}
            </Badge>
          )}
        </Group>
        <Group gap={6} wrap="wrap">
          {stamp.owned && (
            <>
              <Button size="compact-sm" variant="default" leftSection={<PencilIcon size={14} />} onClick={() => onDialog({ kind: 'edit', stamp })} aria-label={`${t('rubberStamps.edit')}: ${stamp.name}`}>
                {t('rubberStamps.edit')}
              </Button>
              <Button size="compact-sm" variant="default" leftSection={<UsersIcon size={14} />} onClick={() => onDialog({ kind: 'share', stamp })} aria-label={`${t('rubberStamps.share')}: ${stamp.name}`}>
                {t('rubberStamps.share')}
              </Button>
            </>
          )}
          {stamp.deletable && (
            <Button size="compact-sm" variant="subtle" color="red" leftSection={<TrashIcon size={14} />} onClick={() => onDialog({ kind: 'delete', stamp })} aria-label={`${t('rubberStamps.delete')}: ${stamp.name}`}>
              {t('rubberStamps.delete')}
            </Button>
          )}
        </Group>
      </Stack>
    </Paper>
  );
}

function useRefreshStamps() {
  const session = useSession();
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: rubberStampQueryKeys.list(session?.tenantUuid) });
}

/** Why the server refused an image, in the words of the form. */
function uploadProblem(t: TFunction, error: unknown): string {
  if (error instanceof ApiError && error.code === ResponseCode.SIGNATURE_UPLOAD_SIZE.code) return t('rubberStamps.tooLarge', { maxKb: RUBBER_STAMP_MAX_SIZE_KB });
  if (error instanceof ApiError && error.code === ResponseCode.INVALID_INPUT.code && error.issues?.some((issue) => issue.path === 'file')) return t('rubberStamps.notImage');
  return t('rubberStamps.saveFailed');
}

function StampDialog({ stamp, onClose }: { readonly stamp: RubberStamp | null; readonly onClose: () => void }) {
  const { t } = useTranslation();
  const refresh = useRefreshStamps();
  const [name, setName] = useState(stamp?.name ?? '');
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const resetPicker = useRef<() => void>(null);
  const previewUrl = useObjectUrl(file ?? undefined);

  const save = useMutation({
    mutationFn: async () => {
      const trimmed = name.trim();
      if (stamp) {
        return callApi(updateRubberStamp, { body: { rubberStampId: stamp.rubberStampId, ...(trimmed && trimmed !== stamp.name ? { name: trimmed } : {}) }, ...(file ? { files: { file } } : {}) }, { failures: 'caller' });
      }
      return callApi(createRubberStamp, { body: { name: trimmed }, files: { file: file! } }, { failures: 'caller' });
    },
    onSuccess: async () => {
      await refresh();
      onClose();
    },
    onError: (error) => setProblem(uploadProblem(t, error)),
  });

  const onPick = async (picked: File | null) => {
    resetPicker.current?.();
    if (!picked) return;
    const checked = await readImageFile(picked, STAMP_RULE);
    if (!checked.ok) {
      setFile(null);
      return setProblem(checked.problem === 'tooLarge' ? t('rubberStamps.tooLarge', { maxKb: RUBBER_STAMP_MAX_SIZE_KB }) : t('rubberStamps.notImage'));
    }
    setProblem(null);
    setFile(picked);
    if (!name.trim()) setName(picked.name.replace(/\.(png|jpe?g)$/i, '').slice(0, RUBBER_STAMP_NAME_MAX_LENGTH));
  };

  const nameMissing = name.trim() === '';
  const nothingToSave = stamp !== null && !file && name.trim() === stamp.name;
  return (
    <Modal opened onClose={onClose} title={t(stamp ? 'rubberStamps.editTitle' : 'rubberStamps.addTitle')} centered>
      <Stack
        gap="md"
        component="form"
        onSubmit={(event) => {
          event.preventDefault();
          if (!stamp && !file) return setProblem(t('rubberStamps.imageRequired'));
          save.mutate();
        }}
      >
        <TextInput label={t('rubberStamps.name')} value={name} maxLength={RUBBER_STAMP_NAME_MAX_LENGTH} onChange={(event) => setName(event.currentTarget.value)} required data-autofocus />
        <Stack gap={4}>
          <Text size="sm" fw={500}>
            {t(stamp ? 'rubberStamps.replaceImage' : 'rubberStamps.image')}
          </Text>
          <Text size="xs" c="dimmed">
            {t('rubberStamps.imageHelp', { maxKb: RUBBER_STAMP_MAX_SIZE_KB })}
          </Text>
          <Group gap="sm" wrap="wrap">
            <FileButton onChange={(picked) => void onPick(picked)} accept={acceptOf(STAMP_RULE)} resetRef={resetPicker}>
              {(props) => (
                <Button {...props} variant="default" size="xs">
                  {t('rubberStamps.chooseImage')}
                </Button>
              )}
            </FileButton>
            {file && (
              <Text size="xs" style={{ overflowWrap: 'anywhere', minWidth: 0 }} data-testid="stamp-file-name">
                {file.name}
              </Text>
            )}
          </Group>
          {previewUrl && (
            <Paper withBorder radius="sm" p={4} w="fit-content">
              <Image src={previewUrl} alt={t('rubberStamps.imageAlt', { name: name.trim() || file?.name || '' })} h={96} w="auto" fit="contain" />
            </Paper>
          )}
        </Stack>
        {problem && (
          <Alert color="red" variant="light" role="alert" p="xs">
            {problem}
          </Alert>
        )}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            {t('rubberStamps.cancel')}
          </Button>
          <Button type="submit" loading={save.isPending} disabled={nameMissing || nothingToSave}>
            {t(stamp ? 'rubberStamps.save' : 'rubberStamps.create')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function ShareDialog({ stamp, groups, onClose }: { readonly stamp: RubberStamp; readonly groups: readonly { groupId: string; groupName: string }[]; readonly onClose: () => void }) {
  const { t } = useTranslation();
  const refresh = useRefreshStamps();
  // The directory is searched by whoever may compose; a signer shares with groups.
  const maySearchPeople = useCan('epak.compose');
  const [people, setPeople] = useState<PickedPerson[]>(stamp.sharedWith.users.map((user) => ({ userId: user.userId, name: user.name, email: user.email })));
  const [groupIds, setGroupIds] = useState<string[]>(stamp.sharedWith.groups.map((group) => group.groupId));
  const save = useMutation({
    mutationFn: () => callApi(shareRubberStamp, { body: { rubberStampId: stamp.rubberStampId, userIds: people.map((person) => person.userId), groupIds } }, { failures: 'caller' }),
    onSuccess: async () => {
      await refresh();
      onClose();
    },
  });
  return (
    <Modal opened onClose={onClose} title={t('rubberStamps.shareTitle', { name: stamp.name })} centered>
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          {t('rubberStamps.shareIntro')}
        </Text>
        {groups.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('rubberStamps.noGroups')}
          </Text>
        ) : (
          <MultiSelect
            label={t('rubberStamps.groups')}
            placeholder={t('rubberStamps.groupsPlaceholder')}
            data={groups.map((group) => ({ value: group.groupId, label: group.groupName }))}
            value={groupIds}
            onChange={setGroupIds}
            searchable
            comboboxProps={{ withinPortal: true }}
          />
        )}
        {maySearchPeople ? (
          <PersonPicker label={t('rubberStamps.people')} chosen={people} onChange={setPeople} />
        ) : (
          <Text size="xs" c="dimmed">
            {t('rubberStamps.peopleUnavailable')}
          </Text>
        )}
        {save.isError && (
          <Alert color="red" variant="light" role="alert" p="xs">
            {t('rubberStamps.shareFailed')}
          </Alert>
        )}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            {t('rubberStamps.cancel')}
          </Button>
          <Button onClick={() => save.mutate()} loading={save.isPending}>
            {t('rubberStamps.save')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function DeleteDialog({ stamp, onClose }: { readonly stamp: RubberStamp; readonly onClose: () => void }) {
  const { t } = useTranslation();
  const refresh = useRefreshStamps();
  const remove = useMutation({
    mutationFn: () => callApi(deleteRubberStamp, { params: { rubberStampId: stamp.rubberStampId } }, { failures: 'caller' }),
    onSuccess: async () => {
      await refresh();
      onClose();
    },
  });
  return (
    <Modal opened onClose={onClose} title={t('rubberStamps.deleteTitle')} centered>
      <Stack gap="md">
        <Text size="sm">{t('rubberStamps.deleteBody', { name: stamp.name })}</Text>
        {remove.isError && (
          <Alert color="red" variant="light" role="alert" p="xs">
            {t('rubberStamps.saveFailed')}
          </Alert>
        )}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            {t('rubberStamps.cancel')}
          </Button>
          <Button color="red" onClick={() => remove.mutate()} loading={remove.isPending}>
            {t('rubberStamps.delete')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
