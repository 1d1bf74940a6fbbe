import { Alert, Anchor, Badge, Button, Card, FileInput, Group, Loader, Progress, Select, Stack, Table, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import {
  type BulkComposeFailure,
  type BulkComposeRun,
  downloadBulkComposeFailures,
  downloadBulkComposeHeader,
  getBulkComposeColumns,
  getBulkComposeRun,
  listBulkComposeRuns,
  listDocumentTemplates,
  uploadBulkCompose,
} from '@pakt/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ParseKeys } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiError, callApi } from '../../api/client';
import { useSession } from '../../api/session-store';
import { RequireRoute } from '../../api/access';
import { DownloadIcon, UploadIcon } from '../../ui/icons';
import { saveBlob } from '../../ui/save-blob';
import { formatDateTime } from '../../ui/dates';
import { bulkComposeQueryKeys } from './queries';

/**
 * /bulkcompose (issue 8): choose a document template, download its CSV header, upload a file of
 * rows (one ePak each). The server answers the run at once and a job makes the ePaks; the page
 * polls the run for its progress, then shows the refused rows with each field's code and offers
 * them as a CSV to correct and send again. Earlier runs are listed below.
 */
export function BulkComposePage() {
  return (
    <RequireRoute route="bulkcompose">
      <BulkCompose />
    </RequireRoute>
  );
}

/** The codes the page explains in words; anything else shows the server's message. */
const CODE_KEYS: Record<number, ParseKeys> = {
  [-1]: 'bulkCompose.codes.email',
  [-2]: 'bulkCompose.codes.firstName',
  [-3]: 'bulkCompose.codes.lastName',
  [-4]: 'bulkCompose.codes.phone',
  [-5]: 'bulkCompose.codes.countryCode',
  [-171]: 'bulkCompose.codes.minimumSigners',
  [-175]: 'bulkCompose.codes.headerCount',
  [-181]: 'bulkCompose.codes.mandatoryHeaders',
  [-182]: 'bulkCompose.codes.emptyFile',
  [-143]: 'bulkCompose.codes.recordLimit',
};

const working = (run: BulkComposeRun | undefined) => run !== undefined && (run.status === 'queued' || run.status === 'running');

function BulkCompose() {
  const { t, i18n } = useTranslation();
  const session = useSession();
  const tenantUuid = session?.tenantUuid;
  const queryClient = useQueryClient();
  const [templateId, setTemplateId] = useState<string | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const [runId, setRunId] = useState<string | null>(null);
  const [existing, setExisting] = useState(false);
  useDocumentTitle(`${t('bulkCompose.title')} · Pakt`);

  const templates = useQuery({ queryKey: bulkComposeQueryKeys.templates(tenantUuid), queryFn: ({ signal }) => callApi(listDocumentTemplates, undefined, { signal }) });
  const columns = useQuery({
    queryKey: bulkComposeQueryKeys.columns(tenantUuid, templateId ?? ''),
    queryFn: ({ signal }) => callApi(getBulkComposeColumns, { params: { docTemplateId: templateId! } }, { signal, failures: 'caller' }),
    enabled: templateId !== null,
    retry: false,
  });
  const runs = useQuery({ queryKey: bulkComposeQueryKeys.runs(tenantUuid), queryFn: ({ signal }) => callApi(listBulkComposeRuns, undefined, { signal }) });

  const header = useMutation({
    mutationFn: (id: string) => callApi(downloadBulkComposeHeader, { params: { docTemplateId: id } }, { failures: 'caller' }),
    onSuccess: (blob) => {
      const name = templates.data?.templates.find((tpl) => tpl.docTemplateId === templateId)?.name ?? 'template';
      if (blob instanceof Blob) saveBlob(blob, `${name}-bulk.csv`);
    },
  });
  const upload = useMutation({
    mutationFn: (input: { id: string; chosen: File }) => callApi(uploadBulkCompose, { body: { docTemplateId: input.id }, files: { file: input.chosen } }, { failures: 'caller' }),
    onSuccess: async (data) => {
      setRunId(data.run.runId);
      setExisting(data.existing);
      setFile(null);
      await queryClient.invalidateQueries({ queryKey: bulkComposeQueryKeys.runs(tenantUuid) });
    },
  });

  const noTemplates = templates.data !== undefined && templates.data.templates.length === 0;
  const options = (templates.data?.templates ?? []).map((tpl) => ({ value: tpl.docTemplateId, label: tpl.name, disabled: tpl.workflowId === null }));
  const uploadError = upload.error instanceof ApiError ? upload.error : null;

  return (
    <Stack gap="lg" maw={960} mx="auto" w="100%">
      <Stack gap={4}>
        <Title order={1}>{t('bulkCompose.title')}</Title>
        <Text size="sm" c="dimmed">
          {t('bulkCompose.intro')}
        </Text>
      </Stack>

      {noTemplates ? (
        // An empty picker would leave the person guessing where templates come from (issue 21).
        <Alert color="blue" variant="light" title={t('bulkCompose.emptyTitle')} data-testid="bulk-no-templates">
          <Stack gap="sm" align="flex-start">
            <Text size="sm">{t('bulkCompose.emptyBody')}</Text>
            <Button component={Link} to="/compose" size="sm">
              {t('bulkCompose.emptyAction')}
            </Button>
          </Stack>
        </Alert>
      ) : (
        <Card withBorder padding="md">
          <Stack gap="md">
            <Select
              label={t('bulkCompose.template')}
              placeholder={templates.isLoading ? t('bulkCompose.loading') : t('bulkCompose.templatePlaceholder')}
              data={options}
              value={templateId}
              onChange={(value) => {
                setTemplateId(value);
                upload.reset();
              }}
              searchable
              nothingFoundMessage={t('bulkCompose.noTemplates')}
              description={options.length > 0 && options.every((o) => o.disabled) ? t('bulkCompose.needsWorkflow') : undefined}
            />
            {templateId && columns.data && (
              <Stack gap={6} data-testid="bulk-columns">
                <Text size="sm" fw={600}>
                  {t('bulkCompose.columns')}
                </Text>
                <Group gap={6}>
                  {columns.data.columns.map((column) => (
                    <Badge key={column.name} variant={column.mandatory ? 'filled' : 'light'} tt="none" style={{ maxWidth: '100%' }} title={column.label}>
                      {column.name}
                    </Badge>
                  ))}
                </Group>
                <Text size="xs" c="dimmed">
                  {t('bulkCompose.columnsHint')}
                </Text>
              </Stack>
            )}
            {columns.error instanceof ApiError && (
              <Alert color="red" variant="light" role="alert">
                {columns.error.message}
              </Alert>
            )}
            <Group gap="xs">
              <Button variant="light" leftSection={<DownloadIcon size={16} />} disabled={!templateId || !columns.data} loading={header.isPending} onClick={() => templateId && header.mutate(templateId)}>
                {t('bulkCompose.downloadHeader')}
              </Button>
            </Group>
            <FileInput
              label={t('bulkCompose.file')}
              placeholder={t('bulkCompose.filePlaceholder')}
              accept=".csv,text/csv"
              value={file}
              onChange={(chosen) => {
                setFile(chosen);
                upload.reset();
              }}
              clearable
              leftSection={<UploadIcon size={16} />}
            />
            {uploadError && (
              <Alert color="red" variant="light" role="alert" data-testid="bulk-file-error">
                <Text size="sm" fw={600}>
                  {CODE_KEYS[uploadError.code] ? t(CODE_KEYS[uploadError.code]!) : t('bulkCompose.uploadFailed')} ({uploadError.code})
                </Text>
                <Text size="xs" style={{ overflowWrap: 'anywhere' }}>
                  {uploadError.message}
                </Text>
              </Alert>
            )}
            <Group justify="flex-end">
              <Button
                disabled={!templateId || !file || !columns.data}
                loading={upload.isPending}
                leftSection={<UploadIcon size={16} />}
                onClick={() => templateId && file && upload.mutate({ id: templateId, chosen: file })}
              >
                {t('bulkCompose.upload')}
              </Button>
            </Group>
          </Stack>
        </Card>
      )}

      {runId && <RunView runId={runId} existing={existing} />}

      <Stack gap="xs">
        <Title order={2}>{t('bulkCompose.earlierRuns')}</Title>
        {runs.isLoading && <Loader size="sm" />}
        {runs.data && runs.data.runs.length === 0 && (
          <Text size="sm" c="dimmed">
            {t('bulkCompose.noRuns')}
          </Text>
        )}
        {runs.data?.runs.map((run) => (
          <Card key={run.runId} withBorder padding="sm" data-testid="bulk-run-item">
            <Group justify="space-between" wrap="wrap" gap="xs">
              <Stack gap={0} style={{ minWidth: 0, flex: '1 1 220px' }}>
                <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
                  {run.fileName}
                </Text>
                <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                  {run.templateName ?? t('bulkCompose.templateGone')} · {formatDateTime(run.createdOn, i18n.language)}
                </Text>
                <Text size="xs">{t('bulkCompose.counts', { created: run.createdEpaks, failed: run.failedRows, total: run.totalRows })}</Text>
              </Stack>
              <Group gap="xs">
                <StatusBadge run={run} />
                <Anchor
                  component="button"
                  type="button"
                  size="sm"
                  onClick={() => {
                    setRunId(run.runId);
                    setExisting(false);
                  }}
                >
                  {t('bulkCompose.view')}
                </Anchor>
              </Group>
            </Group>
          </Card>
        ))}
      </Stack>
    </Stack>
  );
}

function StatusBadge({ run }: { readonly run: BulkComposeRun }) {
  const { t } = useTranslation();
  const color = run.status === 'completed' ? (run.failedRows > 0 ? 'yellow' : 'green') : run.status === 'failed' ? 'red' : 'blue';
  return (
    <Badge color={color} variant="light">
      {t(`bulkCompose.status.${run.status}`)}
    </Badge>
  );
}

/** One run: its progress while the job works (polled), then its refused rows. */
export function RunView({ runId, existing }: { readonly runId: string; readonly existing: boolean }) {
  const { t } = useTranslation();
  const session = useSession();
  const queryClient = useQueryClient();
  const tenantUuid = session?.tenantUuid;
  const [page, setPage] = useState(1);
  const run = useQuery({
    queryKey: [...bulkComposeQueryKeys.run(tenantUuid, runId), page],
    queryFn: async ({ signal }) => {
      const data = await callApi(getBulkComposeRun, { params: { runId }, query: { page } }, { signal });
      // The list shows the same counts: refreshed when the run ends.
      if (!working(data.run)) void queryClient.invalidateQueries({ queryKey: bulkComposeQueryKeys.runs(tenantUuid) });
      return data;
    },
    refetchInterval: (query) => (working(query.state.data?.run) ? 1000 : false),
  });
  const failures = useMutation({
    mutationFn: () => callApi(downloadBulkComposeFailures, { params: { runId } }, { failures: 'caller' }),
    onSuccess: (blob) => {
      if (blob instanceof Blob) saveBlob(blob, `${(run.data?.run.fileName ?? 'bulk').replace(/\.csv$/i, '')}-failed-rows.csv`);
    },
  });
  if (!run.data) return run.isLoading ? <Loader size="sm" /> : null;
  const { run: current, failures: rows, pageSize } = run.data;
  const percent = current.totalRows > 0 ? Math.round((current.processedRows / current.totalRows) * 100) : 0;
  return (
    <Card withBorder padding="md" data-testid="bulk-run">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Text fw={600} style={{ overflowWrap: 'anywhere', minWidth: 0 }}>
            {current.fileName}
          </Text>
          <StatusBadge run={current} />
        </Group>
        {existing && (
          <Alert color="blue" variant="light" role="status">
            {t('bulkCompose.sameFile')}
          </Alert>
        )}
        <Progress value={current.status === 'completed' ? 100 : percent} animated={working(current)} aria-label={t('bulkCompose.progress')} data-testid="bulk-progress" />
        <Text size="sm" data-testid="bulk-counts">
          {t('bulkCompose.progressText', { processed: current.processedRows, total: current.totalRows, created: current.createdEpaks, failed: current.failedRows })}
        </Text>
        {current.status === 'failed' && current.message && (
          <Alert color="red" variant="light" role="alert">
            {current.message} ({current.code})
          </Alert>
        )}
        {current.failedRows > 0 && (
          <Stack gap="xs">
            <Group justify="space-between" wrap="wrap" gap="xs">
              <Text size="sm" fw={600}>
                {t('bulkCompose.failedRows', { count: current.failedRows })} ({current.code})
              </Text>
              <Button size="xs" variant="light" leftSection={<DownloadIcon size={14} />} loading={failures.isPending} onClick={() => failures.mutate()}>
                {t('bulkCompose.downloadFailed')}
              </Button>
            </Group>
            <FailureTable rows={rows} />
            {current.failedRows > pageSize && (
              <Group gap="xs" justify="center">
                <Button size="xs" variant="default" disabled={page === 1} onClick={() => setPage(page - 1)}>
                  {t('bulkCompose.previous')}
                </Button>
                <Text size="xs">{t('bulkCompose.page', { page, pages: Math.ceil(current.failedRows / pageSize) })}</Text>
                <Button size="xs" variant="default" disabled={page * pageSize >= current.failedRows} onClick={() => setPage(page + 1)}>
                  {t('bulkCompose.next')}
                </Button>
              </Group>
            )}
          </Stack>
        )}
      </Stack>
    </Card>
  );
}

/** A column name that may break after its dots (step1.recipient1.email) rather than mid-word. */
function ColumnName({ name }: { readonly name: string }) {
  const parts = name.split('.');
  return (
    <>
      {parts.map((part, at) => (
        <span key={at}>
          {part}
          {at < parts.length - 1 && (
            <>
              .<wbr />
            </>
          )}
        </span>
      ))}
    </>
  );
}

function FailureTable({ rows }: { readonly rows: readonly BulkComposeFailure[] }) {
  const { t } = useTranslation();
  return (
    <Table striped withTableBorder fz="sm" layout="fixed" data-testid="bulk-failures">
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={56}>{t('bulkCompose.row')}</Table.Th>
            <Table.Th>{t('bulkCompose.field')}</Table.Th>
            <Table.Th w={64}>{t('bulkCompose.code')}</Table.Th>
            <Table.Th>{t('bulkCompose.problem')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.flatMap((row) =>
            row.errors.map((error, at) => (
              <Table.Tr key={`${row.row}-${at}`} data-testid="bulk-failure">
                <Table.Td>{row.row}</Table.Td>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>{error.field ? <ColumnName name={error.field} /> : t('bulkCompose.wholeRow')}</Table.Td>
                <Table.Td>{error.code}</Table.Td>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>{CODE_KEYS[error.code] ? t(CODE_KEYS[error.code]!) : error.message}</Table.Td>
              </Table.Tr>
            )),
          )}
        </Table.Tbody>
    </Table>
  );
}
