import {
  Alert,
  Button,
  Checkbox,
  Loader,
  Pagination,
  Paper,
  Stack,
  Text,
} from '@mantine/core';
import {
  listDocuments,
  type DocumentSummary,
} from '@pakt/domain';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { callApi } from '../../api/client';
import { useSession } from '../../api/session-store';
import { formatDateTime } from '../../ui/dates';
import { composeQueryKeys } from './queries';

/** The person's documents already on the server, newest first, to pick with checkboxes. */
export function DraftDocuments({
  chosen,
  onToggle,
}: {
  readonly chosen: readonly DocumentSummary[];
  readonly onToggle: (document: DocumentSummary, chosen: boolean) => void;
}) {
  const { t, i18n } = useTranslation();
  const session = useSession();
  const [page, setPage] = useState(1);
  const list = useQuery({
    queryKey: composeQueryKeys.documents(session?.tenantUuid, page),
    queryFn: ({ signal }) => callApi(listDocuments, { query: { page } }, { signal }),
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
  return (
    <Stack gap="sm">
      <Stack component="ul" gap={6} m={0} p={0} style={{ listStyle: 'none' }} aria-label={t('compose.tabs.drafts')}>
        {list.data.documents.map((document) => (
          <Paper component="li" key={document.documentId} withBorder px="sm" py={8} radius="sm">
            <Checkbox
              label={document.name}
              description={`${t('compose.documents.pages', { count: document.pageCount })} · ${formatDateTime(document.createdOn, i18n.language)}`}
              checked={chosen.some((other) => other.documentId === document.documentId)}
              onChange={(event) => onToggle(document, event.currentTarget.checked)}
              styles={{ label: { overflowWrap: 'anywhere' } }}
            />
          </Paper>
        ))}
      </Stack>
      {pages > 1 && <Pagination total={pages} value={page} onChange={setPage} size="sm" aria-label={t('compose.drafts.pages')} />}
    </Stack>
  );
}
