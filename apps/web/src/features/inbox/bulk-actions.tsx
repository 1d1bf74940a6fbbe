import { Alert, Badge, Button, Group, List, Modal, Paper, Stack, Text, TextInput } from '@mantine/core';
import { BULK_SIGN_MAX, can, DELETE_EPAKS_MAX, epakResourceOf, type EpakStatus, type EpakSummary } from '@pakt/domain';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useCan, useResourceActor } from '../../api/access';
import { useArchiveEpaks, useBulkSign, useDeleteEpaks, useMarkManyRead } from './queries';

const ENDED: readonly EpakStatus[] = ['Completed', 'Rejected', 'Stopped', 'Expired'];

/** Something the caller may sign now: waiting for them in a signing step. The server has the last word. */
export const isSignable = (epak: EpakSummary) =>
  epak.folders.includes('Inbox') && epak.currentWorkflowStateAction === 'SIGN' && (epak.signerStatus === 'Pending' || epak.signerStatus === null);

const isPutAway = (epak: EpakSummary) => epak.folders.includes('Deleted') || epak.folders.includes('Archived');

interface ResultRow {
  readonly ePakId: string;
  /** Taken when the results arrive: the selection is cleared by then. */
  readonly subject: string;
  readonly ok: boolean;
  readonly label: string;
  readonly detail: string | null;
}

type Dialog =
  | { readonly kind: 'sign' | 'delete' | 'archive' }
  | { readonly kind: 'results'; readonly title: string; readonly rows: readonly ResultRow[] }
  | null;

/**
 * What can be done to the selected ePaks at once: sign those waiting for the caller's signature
 * (the bulk-sign call answers SIGNED or SKIPPED for each, with the reason), mark read or unread,
 * and for the owner archive ended ones or delete them. Buttons the permission module refuses are
 * not shown; ones the selection does not allow are disabled with the reason beside them.
 */
export function BulkActions({ selected, onDone }: { readonly selected: readonly EpakSummary[]; readonly onDone: () => void }) {
  const { t } = useTranslation();
  const mayAct = useCan('epak.act');
  const mayCompose = useCan('epak.compose');
  const [dialog, setDialog] = useState<Dialog>(null);
  const [reason, setReason] = useState('');
  const sign = useBulkSign();
  const remove = useDeleteEpaks();
  const archive = useArchiveEpaks();
  const markRead = useMarkManyRead();

  const ids = selected.map((epak) => epak.id);
  const subjectOf = (id: string) => selected.find((epak) => epak.id === id)?.subject ?? id;
  const actor = useResourceActor();
  // Archiving and deleting are the owner's (epak.manage), for every ePak selected.
  const owned = actor !== null && selected.every((epak) => can(actor, 'epak.manage', epakResourceOf(actor, epak)));
  const signable = selected.some(isSignable);
  const tooManyToSign = selected.length > BULK_SIGN_MAX;
  const archivable = owned && selected.every((epak) => ENDED.includes(epak.status) && !isPutAway(epak));
  const deletable = owned && selected.length <= DELETE_EPAKS_MAX && selected.every((epak) => !isPutAway(epak));
  const unread = selected.some((epak) => !epak.isRead);

  const close = () => {
    setDialog(null);
    sign.reset();
    remove.reset();
    archive.reset();
  };
  const showResults = (title: string, rows: readonly Omit<ResultRow, 'subject'>[]) => {
    setDialog({ kind: 'results', title, rows: rows.map((row) => ({ ...row, subject: subjectOf(row.ePakId) })) });
    onDone();
  };

  const runSign = () =>
    sign.mutate(
      { ePakIds: ids, reason: reason.trim() || undefined },
      {
        onSuccess: ({ results }) =>
          showResults(
            t('inbox.bulk.signResults'),
            results.map((result) => ({
              ePakId: result.ePakId,
              ok: result.result === 'SIGNED',
              label: t(`inbox.bulk.signResult.${result.result}`),
              detail: result.reason,
            })),
          ),
      },
    );
  const runDelete = () =>
    remove.mutate(ids, {
      onSuccess: ({ results }) =>
        showResults(
          t('inbox.bulk.deleteResults'),
          results.map((result) => ({
            ePakId: result.ePakId,
            ok: result.result === 'DELETED' || result.result === 'ALREADY_DELETED',
            label: t(`inbox.bulk.deleteResult.${result.result}`),
            detail: null,
          })),
        ),
    });
  const runArchive = () =>
    archive.mutate(ids, {
      onSuccess: (outcomes) =>
        showResults(
          t('inbox.bulk.archiveResults'),
          outcomes.map((outcome) => ({
            ePakId: outcome.ePakId,
            ok: outcome.archived,
            label: t(outcome.archived ? 'inbox.bulk.archived' : 'inbox.bulk.notArchived'),
            detail: outcome.message,
          })),
        ),
    });

  const failure = (error: Error | null) =>
    error && (
      <Alert color="red" variant="light" role="alert">
        {error.message || t('inbox.bulk.failed')}
      </Alert>
    );

  const confirm = (title: string, body: ReactNode, action: () => void, pending: boolean, error: Error | null, label: string, color?: string) => (
    <Modal opened onClose={close} title={title} centered>
      <Stack gap="md">
        {body}
        {failure(error)}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={close} disabled={pending}>
            {t('inbox.bulk.cancel')}
          </Button>
          <Button onClick={action} loading={pending} color={color}>
            {label}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );

  const subjects = (
    <List size="sm" spacing={2} style={{ overflowWrap: 'anywhere' }}>
      {selected.slice(0, 8).map((epak) => (
        <List.Item key={epak.id}>{epak.subject}</List.Item>
      ))}
      {selected.length > 8 && <List.Item>{t('inbox.bulk.andMore', { count: selected.length - 8 })}</List.Item>}
    </List>
  );

  return (
    <>
      {selected.length > 0 && (
      <Paper withBorder p="xs" radius="md" bg="var(--mantine-primary-color-light)" role="region" aria-label={t('inbox.bulk.label')}>
        <Group gap="xs" justify="space-between" wrap="wrap">
          <Text size="sm" fw={600} data-testid="selected-count">
            {t('inbox.bulk.selected', { count: selected.length })}
          </Text>
          <Group gap="xs" wrap="wrap">
            {mayAct && (
              <Button size="xs" onClick={() => setDialog({ kind: 'sign' })} disabled={!signable || tooManyToSign}>
                {t('inbox.bulk.sign')}
              </Button>
            )}
            <Button size="xs" variant="default" onClick={() => markRead.mutate({ ePakIds: ids, isRead: unread }, { onSuccess: onDone })} loading={markRead.isPending}>
              {t(unread ? 'inbox.bulk.markRead' : 'inbox.bulk.markUnread')}
            </Button>
            {mayCompose && (
              <Button size="xs" variant="default" onClick={() => setDialog({ kind: 'archive' })} disabled={!archivable}>
                {t('inbox.bulk.archive')}
              </Button>
            )}
            {mayCompose && (
              <Button size="xs" variant="light" color="red" onClick={() => setDialog({ kind: 'delete' })} disabled={!deletable}>
                {t('inbox.bulk.delete')}
              </Button>
            )}
            <Button size="xs" variant="subtle" color="gray" onClick={onDone}>
              {t('inbox.bulk.clear')}
            </Button>
          </Group>
        </Group>
        {tooManyToSign && signable && (
          <Text size="xs" c="dimmed" mt={4}>
            {t('inbox.bulk.tooManyToSign', { max: BULK_SIGN_MAX })}
          </Text>
        )}
        {mayCompose && !owned && (
          <Text size="xs" c="dimmed" mt={4}>
            {t('inbox.bulk.ownerOnly')}
          </Text>
        )}
      </Paper>
      )}

      {dialog?.kind === 'sign' &&
        confirm(
          t('inbox.bulk.signTitle', { count: selected.length }),
          <>
            <Text size="sm">{t('inbox.bulk.signIntro')}</Text>
            {subjects}
            <TextInput label={t('inbox.bulk.reason')} description={t('inbox.bulk.reasonHint')} value={reason} maxLength={200} onChange={(event) => setReason(event.currentTarget.value)} />
          </>,
          runSign,
          sign.isPending,
          sign.error,
          t('inbox.bulk.signConfirm', { count: selected.length }),
        )}
      {dialog?.kind === 'delete' &&
        confirm(
          t('inbox.bulk.deleteTitle', { count: selected.length }),
          <>
            <Text size="sm">{t('inbox.bulk.deleteIntro')}</Text>
            {subjects}
          </>,
          runDelete,
          remove.isPending,
          remove.error,
          t('inbox.bulk.deleteConfirm', { count: selected.length }),
          'red',
        )}
      {dialog?.kind === 'archive' &&
        confirm(
          t('inbox.bulk.archiveTitle', { count: selected.length }),
          <>
            <Text size="sm">{t('inbox.bulk.archiveIntro')}</Text>
            {subjects}
          </>,
          runArchive,
          archive.isPending,
          archive.error,
          t('inbox.bulk.archiveConfirm', { count: selected.length }),
        )}
      {dialog?.kind === 'results' && (
        <Modal opened onClose={close} title={dialog.title} centered>
          <Stack gap="sm">
            <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }} data-testid="bulk-results">
              {dialog.rows.map((row) => (
                <li key={row.ePakId}>
                  <Group justify="space-between" wrap="nowrap" gap="sm" align="flex-start">
                    <div style={{ minWidth: 0 }}>
                      <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
                        {row.subject}
                      </Text>
                      {row.detail && (
                        <Text size="xs" c="dimmed">
                          {row.detail}
                        </Text>
                      )}
                    </div>
                    <Badge color={row.ok ? 'teal' : 'gray'} variant="light" style={{ flexShrink: 0 }}>
                      {row.label}
                    </Badge>
                  </Group>
                </li>
              ))}
            </Stack>
            <Group justify="flex-end">
              <Button onClick={close}>{t('inbox.bulk.close')}</Button>
            </Group>
          </Stack>
        </Modal>
      )}
    </>
  );
}
