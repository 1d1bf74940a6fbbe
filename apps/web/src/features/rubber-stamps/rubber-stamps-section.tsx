import { Alert, Badge, Button, Card, Group, Image, Modal, Paper, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { deleteRubberStamp, downloadRubberStampImage, listRubberStamps, type RubberStamp } from '@pakt/domain';
import { useMutation, useQuery } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { callApi } from '../../api/client';
import { useObjectUrl } from '../../api/profile';
import { useSession } from '../../api/session-store';
import { useCan } from '../../api/access';
import { PencilIcon, PlusIcon, TrashIcon, UsersIcon } from '../../ui/icons';
import { queryPlaceholder } from '../../ui/query-placeholder';
import { rubberStampQueryKeys } from './queries';
import { ShareDialog, StampDialog } from './stamp-form-dialogs';
import { useRefreshStamps } from './use-stamp-form';

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
