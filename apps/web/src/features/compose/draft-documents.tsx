import {
  ActionIcon,
  Alert,
  Button,
  Checkbox,
  Group,
  Loader,
  Pagination,
  Paper,
  Stack,
  Text,
} from '@mantine/core';
import {
  deleteDocuments,
  listDocuments,
  type DocumentSummary,
} from '@pakt/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, callApi } from '../../api/client';
import { useSession } from '../../api/session-store';
import { formatDateTime } from '../../ui/dates';
import { TrashIcon } from '../../ui/icons';
import { ConfirmReplaceModal } from './confirm-replace-modal';
import { composeQueryKeys } from './queries';

/** The person's documents already on the server, newest first, to pick with checkboxes, or to delete for good. */
export function DraftDocuments({
  chosen,
  onToggle,
  onDeleted,
}: {
  readonly chosen: readonly DocumentSummary[];
  readonly onToggle: (document: DocumentSummary, chosen: boolean) => void;
  /** A document deleted from the server: it can no longer be in the ePak either. */
  readonly onDeleted: (documentId: string) => void;
}) {
  const { t, i18n } = useTranslation();
  const session = useSession();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const [deleting, setDeleting] = useState<DocumentSummary | null>(null);
  const list = useQuery({
    queryKey: composeQueryKeys.documents(session?.tenantUuid, page),
    queryFn: ({ signal }) => callApi(listDocuments, { query: { page } }, { signal }),
  });
  const remove = useMutation({
    mutationFn: (document: DocumentSummary) => callApi(deleteDocuments, { body: { documentIds: [document.documentId] } }, { failures: 'caller' }),
    onSuccess: (_deleted, document) => {
      onDeleted(document.documentId);
      setDeleting(null);
      void queryClient.invalidateQueries({ queryKey: composeQueryKeys.allDocuments(session?.tenantUuid) });
    },
    onError: () => setDeleting(null),
  });
  if (list.isPending) return <Loader size="sm" aria-label={t('compose.drafts.loading')} />;
  if (list.isError) {
    return (
      <Alert color="red" variant="light" role="alert" title={t('compose.drafts.loadFailed')}>
        <Button variant="light" color="red" size="xs" mt="xs" onClick={() => void list.refetch()} loading={list.isFetching}>
          {t('workflows.retry')}
        </Button>
      </Alert>
    );
  }
  if (list.data.documents.length === 0) return <Text size="sm" c="dimmed">{t('compose.drafts.empty')}</Text>;
  const pages = Math.max(1, Math.ceil(list.data.total / list.data.pageSize));
  const removeFailed = remove.isError && remove.variables;
  return (
    <Stack gap="sm">
      {removeFailed && (
        <Alert color="red" variant="light" role="alert" withCloseButton closeButtonLabel={t('compose.convert.dismiss')} onClose={() => remove.reset()}>
          {t(remove.error instanceof ApiError && remove.error.httpStatus === 0 ? 'common.unreachable' : 'compose.drafts.deleteFailed', { name: remove.variables.name })}
        </Alert>
      )}
      <Stack component="ul" gap={6} m={0} p={0} style={{ listStyle: 'none' }} aria-label={t('compose.tabs.drafts')}>
        {list.data.documents.map((document) => (
          <Paper component="li" key={document.documentId} withBorder px="sm" py={8} radius="sm">
            <Group justify="space-between" gap="xs" wrap="nowrap">
              <Checkbox
                label={document.name}
                description={`${t('compose.documents.pages', { count: document.pageCount })} · ${formatDateTime(document.createdOn, i18n.language)}`}
                checked={chosen.some((other) => other.documentId === document.documentId)}
                onChange={(event) => onToggle(document, event.currentTarget.checked)}
                styles={{ label: { overflowWrap: 'anywhere' } }}
              />
              <ActionIcon variant="subtle" color="red" aria-label={t('compose.drafts.delete', { name: document.name })} onClick={() => setDeleting(document)}>
                <TrashIcon size={16} />
              </ActionIcon>
            </Group>
          </Paper>
        ))}
      </Stack>
      {pages > 1 && <Pagination total={pages} value={page} onChange={setPage} size="sm" aria-label={t('compose.drafts.pages')} />}
      <ConfirmReplaceModal
        opened={deleting !== null}
        title={t('compose.drafts.deleteTitle')}
        body={t('compose.drafts.deleteBody', { name: deleting?.name ?? '' })}
        confirm={t('compose.drafts.deleteConfirm')}
        keep={t('compose.drafts.deleteKeep')}
        busy={remove.isPending}
        onKeep={() => setDeleting(null)}
        onConfirm={() => deleting && remove.mutate(deleting)}
      />
    </Stack>
  );
}
