import { Alert, Button, Checkbox, Group, Loader, Pagination, Paper, Stack, Text, TextInput } from '@mantine/core';
import { listDocuments, mergeDocuments, type DocumentSummary } from '@pakt/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { callApi } from '../../api/client';
import { useSession } from '../../api/session-store';
import { documentNameError } from './document-names';
import { composeQueryKeys } from './queries';
import { uploadRefusal } from './upload-refusal';

const MERGE_MIN = 2;
const MERGE_MAX = 50;

/**
 * The spec's mergeDocuments tab: two or more of the person's documents made into one, pages in
 * the order they were ticked (POST /documents/merge keeps the originals). The merged document
 * goes into the ePak in place of the parts that were in it.
 */
export function MergeDocumentsTab({ onMerged }: { readonly onMerged: (merged: DocumentSummary, parts: readonly DocumentSummary[]) => void }) {
  const { t } = useTranslation();
  const session = useSession();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const [parts, setParts] = useState<DocumentSummary[]>([]);
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  const list = useQuery({
    queryKey: composeQueryKeys.documents(session?.tenantUuid, page),
    queryFn: ({ signal }) => callApi(listDocuments, { query: { page } }, { signal }),
  });
  const merge = useMutation({
    mutationFn: (input: { name: string; parts: DocumentSummary[] }) =>
      callApi(mergeDocuments, { body: { name: input.name, documentIds: input.parts.map((part) => part.documentId) } }, { failures: 'caller' }),
    onSuccess: (merged, input) => {
      onMerged(merged, input.parts);
      setParts([]);
      setName('');
      void queryClient.invalidateQueries({ queryKey: composeQueryKeys.allDocuments(session?.tenantUuid) });
    },
  });
  const toggle = (document: DocumentSummary, picked: boolean) => {
    merge.reset();
    setParts((current) => (picked ? [...current.filter((part) => part.documentId !== document.documentId), document] : current.filter((part) => part.documentId !== document.documentId)));
  };
  const submit = () => {
    const typed = name.trim() || t('compose.merge.defaultName');
    const named = /\.pdf$/i.test(typed) ? typed : `${typed}.pdf`;
    const problem = documentNameError(named);
    if (problem) return setNameError(t(problem.key, problem.values));
    merge.mutate({ name: named, parts });
  };

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
  if (list.data.documents.length < MERGE_MIN && parts.length === 0) return <Text size="sm" c="dimmed">{t('compose.merge.tooFew')}</Text>;
  const pages = Math.max(1, Math.ceil(list.data.total / list.data.pageSize));
  const refusal = merge.isError ? uploadRefusal(merge.error) : null;
  return (
    <Stack gap="sm">
      <Text size="sm">{t('compose.merge.intro')}</Text>
      <Stack component="ul" gap={6} m={0} p={0} style={{ listStyle: 'none' }} aria-label={t('compose.merge.listLabel')}>
        {list.data.documents.map((document) => {
          const at = parts.findIndex((part) => part.documentId === document.documentId);
          return (
            <Paper component="li" key={document.documentId} withBorder px="sm" py={8} radius="sm">
              <Checkbox
                label={document.name}
                description={at >= 0 ? t('compose.merge.position', { number: at + 1, pages: t('compose.documents.pages', { count: document.pageCount }) }) : t('compose.documents.pages', { count: document.pageCount })}
                checked={at >= 0}
                disabled={at < 0 && parts.length >= MERGE_MAX}
                onChange={(event) => toggle(document, event.currentTarget.checked)}
                styles={{ label: { overflowWrap: 'anywhere' } }}
              />
            </Paper>
          );
        })}
      </Stack>
      {pages > 1 && <Pagination total={pages} value={page} onChange={setPage} size="sm" aria-label={t('compose.drafts.pages')} />}
      <Group gap="sm" align="flex-end" wrap="wrap">
        <TextInput
          label={t('compose.merge.name')}
          placeholder={t('compose.merge.defaultName')}
          value={name}
          error={nameError}
          style={{ flex: '1 1 14rem' }}
          onChange={(event) => {
            setName(event.currentTarget.value);
            setNameError(null);
          }}
          onKeyDown={(event) => {
            // Enter merges here; it must not also submit the compose form around the tab.
            if (event.key !== 'Enter') return;
            event.preventDefault();
            if (parts.length >= MERGE_MIN) submit();
          }}
        />
        <Button disabled={parts.length < MERGE_MIN} loading={merge.isPending} onClick={submit}>
          {t('compose.merge.submit')}
        </Button>
      </Group>
      {parts.length < MERGE_MIN && (
        <Text size="xs" c="dimmed">
          {t('compose.merge.needTwo')}
        </Text>
      )}
      {merge.isSuccess && (
        <Text size="sm" c="teal" role="status">
          {t('compose.merge.done', { name: merge.data.name })}
        </Text>
      )}
      {refusal && (
        <Alert color="red" variant="light" role="alert">
          {t(refusal.reason)}
          {refusal.detail ? ` ${refusal.detail}` : ''}
        </Alert>
      )}
    </Stack>
  );
}
