import { Alert, Badge, Button, Card, Code, Group, Loader, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useDocumentTitle, useMediaQuery } from '@mantine/hooks';
import {
  getUserSyncUp,
  listUserSyncUps,
  startUserSyncUp,
  type UserSyncChange,
  type UserSyncCounts,
  type UserSyncError,
  type UserSyncRun,
  type UserSyncRunStatus,
  type UserSyncSource,
} from '@pakt/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, callApi } from '../../api/client';
import { useCurrentTenant } from '../../api/session-store';
import { WIDE_LAYOUT_QUERY } from '../inbox';
import { formatDateTime } from '../../ui/dates';
import { userSyncQueryKeys } from './queries';

/** While a run is queued or running its screen asks again this often; otherwise never. */
export const USER_SYNC_POLL_MS = 2000;

const isOpen = (status: UserSyncRunStatus) => status === 'queued' || status === 'running';

/**
 * The i18n key explaining a reported code. Field errors use the CSV field codes of spec §5, so
 * -2 on the first name is "first name", while -2 on the whole file is a system fault.
 */
type CodeExplanation = 'email' | 'firstName' | 'lastName' | 'invalid' | 'notAllowed' | 'accountDisabled' | 'unparsable' | 'columns' | 'mandatory' | 'empty' | 'other';

export function userSyncCodeKey(error: Pick<UserSyncError, 'code' | 'field'>): `userSync.codes.${CodeExplanation}` {
  if (error.field === 'email' && error.code === -1) return 'userSync.codes.email';
  if (error.field === 'firstName' && error.code === -2) return 'userSync.codes.firstName';
  if (error.field === 'lastName' && error.code === -3) return 'userSync.codes.lastName';
  const known: Record<number, CodeExplanation> = {
    [-6]: 'invalid',
    [-11]: 'notAllowed',
    [-13]: 'accountDisabled',
    [-136]: 'unparsable',
    [-175]: 'columns',
    [-181]: 'mandatory',
    [-182]: 'empty',
  };
  return `userSync.codes.${known[error.code] ?? 'other'}`;
}

/**
 * /admin?section=userSync: user sync-up (spec §2 admin sub-item, issue 7). Where the tenant's
 * directory feed goes and whether it is there, a start button, the latest runs and one run's
 * report. Tables on a wide screen, cards on a phone.
 */
export function UserSyncSection() {
  const { t } = useTranslation();
  const tenant = useCurrentTenant();
  const tenantUuid = tenant?.tenantUuid;
  const wide = useMediaQuery(WIDE_LAYOUT_QUERY, false, { getInitialValueInEffect: false });
  const queryClient = useQueryClient();
  const [chosen, setChosen] = useState<string | null>(null);
  const overview = useQuery({
    queryKey: userSyncQueryKeys.all(tenantUuid),
    queryFn: ({ signal }) => callApi(listUserSyncUps, undefined, { signal }),
    // Polled only while a run waits or works: a finished list does not change by itself.
    refetchInterval: (query) => (query.state.data?.runs.some((run) => isOpen(run.status)) ? USER_SYNC_POLL_MS : false),
  });
  const start = useMutation({
    mutationFn: () => callApi(startUserSyncUp),
    onSuccess: async (run) => {
      setChosen(run.runId);
      await queryClient.invalidateQueries({ queryKey: userSyncQueryKeys.all(tenantUuid) });
    },
  });
  useDocumentTitle(`${t('userSync.title')} · Pakt`);

  const runs = overview.data?.runs ?? [];
  const busy = runs.some((run) => isOpen(run.status));
  const shownRunId = chosen ?? runs[0]?.runId ?? null;

  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={1} fz={{ base: 28, sm: 34 }}>
          {t('userSync.title')}
        </Title>
        <Text c="dimmed">{t('userSync.intro', { tenant: tenant?.tenantName ?? '' })}</Text>
      </Stack>

      {overview.isPending ? (
        <Group justify="center" py="xl">
          <Loader size="sm" aria-label={t('userSync.loading')} />
        </Group>
      ) : overview.isError ? (
        <Alert color="red" variant="light" role="alert" title={t('userSync.loadFailed')}>
          {overview.error.message && (
            <Text size="xs" mb="xs">
              {overview.error.message}
            </Text>
          )}
          <Button variant="light" color="red" size="xs" onClick={() => void overview.refetch()} loading={overview.isFetching}>
            {t('userSync.retry')}
          </Button>
        </Alert>
      ) : (
        <>
          <SourceCard source={overview.data.source} />
          <Group gap="sm" align="center">
            <Button onClick={() => start.mutate()} loading={start.isPending} disabled={busy || !overview.data.source.fileName}>
              {t('userSync.start')}
            </Button>
            {busy && (
              <Group gap={6}>
                <Loader size="xs" aria-hidden="true" />
                <Text size="sm" c="dimmed">
                  {t('userSync.busy')}
                </Text>
              </Group>
            )}
          </Group>
          {start.isError && (
            <Alert color="red" variant="light" role="alert" title={t('userSync.startFailed')}>
              {start.error instanceof ApiError && start.error.httpStatus === 0 ? t('common.unreachable') : start.error.message}
            </Alert>
          )}
          <Stack gap="sm">
            <Title order={2} fz="lg">
              {t('userSync.runs.title')}
            </Title>
            {runs.length === 0 ? (
              <Card withBorder padding="lg">
                <Text c="dimmed">{t('userSync.runs.empty')}</Text>
              </Card>
            ) : wide ? (
              <RunsTable runs={runs} shown={shownRunId} onShow={setChosen} />
            ) : (
              <RunsCards runs={runs} shown={shownRunId} onShow={setChosen} />
            )}
          </Stack>
          {shownRunId && <RunReport runId={shownRunId} wide={wide} />}
        </>
      )}
    </Stack>
  );
}

function useFormats() {
  const { i18n } = useTranslation();
  const number = new Intl.NumberFormat(i18n.language);
  return {
    when: (iso: string) => formatDateTime(iso, i18n.language),
    size: (bytes: number) => (bytes < 1024 ? `${number.format(bytes)} B` : `${number.format(Math.ceil(bytes / 1024))} KB`),
  };
}

function SourceCard({ source }: { readonly source: UserSyncSource }) {
  const { t } = useTranslation();
  const { when, size } = useFormats();
  return (
    <Card withBorder padding="md" aria-label={t('userSync.source.title')} component="section">
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" gap="xs">
          <Title order={2} fz="lg">
            {t('userSync.source.title')}
          </Title>
          {source.fileName && (
            <Badge color={source.file.present ? 'teal' : 'orange'} variant="light" data-testid="user-sync-file-state">
              {source.file.present ? t('userSync.source.present') : t('userSync.source.missing')}
            </Badge>
          )}
        </Group>
        {source.fileName ? (
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <Fact label={t('userSync.source.fileName')}>
              <Code style={{ overflowWrap: 'anywhere' }}>{source.fileName}</Code>
            </Fact>
            <Fact label={t('userSync.source.folder')}>
              <Code style={{ overflowWrap: 'anywhere' }}>{source.folder}</Code>
            </Fact>
            {source.file.present && source.file.size !== null && source.file.modifiedOn && (
              <Fact label={t('userSync.source.file')}>{t('userSync.source.fileFacts', { size: size(source.file.size), when: when(source.file.modifiedOn) })}</Fact>
            )}
            <Fact label={t('userSync.source.rules')}>
              {t(source.disableMissing ? 'userSync.source.disableMissingOn' : 'userSync.source.disableMissingOff')}{' '}
              {t('userSync.source.defaultRole', { role: t(`roles.${source.defaultRole as 'signer'}`, { defaultValue: source.defaultRole }) })}
            </Fact>
          </SimpleGrid>
        ) : (
          <Text size="sm">{t('userSync.source.notConfigured')}</Text>
        )}
        <Text size="sm" c="dimmed">
          {t('userSync.source.where', { folder: source.folder })}
        </Text>
        <Text size="sm" c="dimmed">
          {t('userSync.source.format')}
        </Text>
      </Stack>
    </Card>
  );
}

function Fact({ label, children }: { readonly label: string; readonly children: React.ReactNode }) {
  return (
    <Stack gap={2} miw={0}>
      <Text size="xs" c="dimmed" fw={600}>
        {label}
      </Text>
      <Text size="sm" component="div" style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </Stack>
  );
}

const STATUS_COLORS: Record<UserSyncRunStatus, string> = { queued: 'gray', running: 'blue', succeeded: 'teal', failed: 'red' };

function StatusBadge({ status }: { readonly status: UserSyncRunStatus }) {
  const { t } = useTranslation();
  return (
    <Badge color={STATUS_COLORS[status]} variant="light" leftSection={isOpen(status) ? <Loader size={10} color={STATUS_COLORS[status]} aria-hidden="true" /> : undefined}>
      {t(`userSync.status.${status}`)}
    </Badge>
  );
}

function CountsLine({ counts }: { readonly counts: UserSyncCounts | null }) {
  const { t } = useTranslation();
  if (!counts) return <Text size="sm" c="dimmed">—</Text>;
  return <Text size="sm">{t('userSync.runs.summary', counts)}</Text>;
}

function RunsTable({ runs, shown, onShow }: { readonly runs: readonly UserSyncRun[]; readonly shown: string | null; readonly onShow: (runId: string) => void }) {
  const { t } = useTranslation();
  const { when } = useFormats();
  return (
    <Table.ScrollContainer minWidth={760}>
      <Table verticalSpacing="sm" highlightOnHover aria-label={t('userSync.runs.title')}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={170}>{t('userSync.runs.when')}</Table.Th>
            <Table.Th>{t('userSync.runs.by')}</Table.Th>
            <Table.Th w={130}>{t('userSync.runs.status')}</Table.Th>
            <Table.Th>{t('userSync.runs.result')}</Table.Th>
            <Table.Th w={120} />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {runs.map((run) => (
            <Table.Tr key={run.runId} data-testid="user-sync-run" bg={run.runId === shown ? 'var(--mantine-color-blue-light)' : undefined}>
              <Table.Td>
                <Text size="sm" component="time" dateTime={run.createdOn} style={{ whiteSpace: 'nowrap' }}>
                  {when(run.createdOn)}
                </Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                  {run.startedBy?.name || run.startedBy?.email || t('userSync.runs.formerAccount')}
                </Text>
                <Text size="xs" c="dimmed">
                  {run.fileName}
                </Text>
              </Table.Td>
              <Table.Td>
                <StatusBadge status={run.status} />
              </Table.Td>
              <Table.Td>{run.error ? <Text size="sm" c="red">{run.error}</Text> : <CountsLine counts={run.counts} />}</Table.Td>
              <Table.Td>
                <Button variant="subtle" size="compact-sm" onClick={() => onShow(run.runId)} aria-pressed={run.runId === shown}>
                  {t('userSync.runs.show')}
                </Button>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function RunsCards({ runs, shown, onShow }: { readonly runs: readonly UserSyncRun[]; readonly shown: string | null; readonly onShow: (runId: string) => void }) {
  const { t } = useTranslation();
  const { when } = useFormats();
  return (
    <Stack gap="sm" component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label={t('userSync.runs.title')}>
      {runs.map((run) => (
        <Card key={run.runId} component="li" withBorder padding="sm" data-testid="user-sync-run" style={run.runId === shown ? { borderColor: 'var(--mantine-color-blue-filled)' } : undefined}>
          <Stack gap={6}>
            <Group justify="space-between" gap="xs" wrap="nowrap">
              <StatusBadge status={run.status} />
              <Text size="xs" c="dimmed" component="time" dateTime={run.createdOn}>
                {when(run.createdOn)}
              </Text>
            </Group>
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              {run.startedBy?.name || run.startedBy?.email || t('userSync.runs.formerAccount')} · {run.fileName}
            </Text>
            {run.error ? <Text size="sm" c="red">{run.error}</Text> : <CountsLine counts={run.counts} />}
            <Button variant="light" size="compact-sm" onClick={() => onShow(run.runId)} aria-pressed={run.runId === shown} style={{ alignSelf: 'flex-start' }}>
              {t('userSync.runs.show')}
            </Button>
          </Stack>
        </Card>
      ))}
    </Stack>
  );
}

const COUNT_KEYS = ['rows', 'invited', 'roleChanged', 'enabled', 'disabled', 'unchanged', 'errors'] as const satisfies ReadonlyArray<keyof UserSyncCounts>;

function RunReport({ runId, wide }: { readonly runId: string; readonly wide: boolean }) {
  const { t } = useTranslation();
  const tenant = useCurrentTenant();
  const { when } = useFormats();
  const run = useQuery({
    queryKey: userSyncQueryKeys.run(tenant?.tenantUuid, runId),
    queryFn: ({ signal }) => callApi(getUserSyncUp, { params: { runId } }, { signal }),
    refetchInterval: (query) => (query.state.data && isOpen(query.state.data.status) ? USER_SYNC_POLL_MS : false),
  });
  if (run.isPending) return <Loader size="sm" aria-label={t('userSync.loading')} />;
  if (run.isError) {
    return (
      <Alert color="red" variant="light" role="alert" title={t('userSync.loadFailed')}>
        {run.error.message}
      </Alert>
    );
  }
  const detail = run.data;
  return (
    <Card withBorder padding="md" component="section" aria-label={t('userSync.report.title')} data-testid="user-sync-report">
      <Stack gap="md">
        <Group justify="space-between" align="flex-start" gap="xs">
          <Stack gap={2}>
            <Title order={2} fz="lg">
              {t('userSync.report.title')}
            </Title>
            <Text size="xs" c="dimmed">
              {detail.fileName} · {when(detail.createdOn)}
            </Text>
          </Stack>
          <StatusBadge status={detail.status} />
        </Group>
        {isOpen(detail.status) && <Text size="sm">{t('userSync.report.waiting')}</Text>}
        {detail.status === 'failed' && (
          <Alert color="red" variant="light" title={t('userSync.report.failed')}>
            {detail.error}
          </Alert>
        )}
        {detail.counts && (
          <SimpleGrid cols={{ base: 2, xs: 4, md: 7 }} spacing="xs">
            {COUNT_KEYS.map((key) => (
              <Card key={key} withBorder padding="xs" data-testid={`user-sync-count-${key}`}>
                <Text fz="xl" fw={700} lh={1.1}>
                  {detail.counts![key]}
                </Text>
                <Text size="xs" c="dimmed">
                  {t(`userSync.counts.${key}`)}
                </Text>
              </Card>
            ))}
          </SimpleGrid>
        )}
        {detail.report && detail.status === 'succeeded' && <Changes changes={detail.report.changes} wide={wide} />}
        {detail.report && detail.report.errors.length > 0 && detail.status === 'succeeded' && <Errors errors={detail.report.errors} wide={wide} />}
      </Stack>
    </Card>
  );
}

/** A role (invitations, role changes) or a membership status (enabling, disabling), translated. */
function ChangeValue({ change, value }: { readonly change: UserSyncChange; readonly value: string | null }) {
  const { t } = useTranslation();
  if (value === null) return '—';
  if (change.kind === 'invited' || change.kind === 'roleChanged') return t(`roles.${value as 'signer'}`, { defaultValue: value });
  return t(`userSync.memberStatus.${value as 'active'}`, { defaultValue: value });
}

function Changes({ changes, wide }: { readonly changes: readonly UserSyncChange[]; readonly wide: boolean }) {
  const { t } = useTranslation();
  const where = (line: number | null) => (line === null ? t('userSync.report.notInFeed') : String(line));
  return (
    <Stack gap="xs">
      <Title order={3} fz="md">
        {t('userSync.report.changes', { count: changes.length })}
      </Title>
      {changes.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('userSync.report.noChanges')}
        </Text>
      ) : wide ? (
        <Table.ScrollContainer minWidth={640}>
          <Table verticalSpacing="xs" aria-label={t('userSync.report.changesLabel')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={90}>{t('userSync.report.line')}</Table.Th>
                <Table.Th>{t('userSync.report.email')}</Table.Th>
                <Table.Th w={160}>{t('userSync.report.kind')}</Table.Th>
                <Table.Th>{t('userSync.report.fromTo')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {changes.map((change) => (
                <Table.Tr key={`${change.email}-${change.kind}`} data-testid="user-sync-change">
                  <Table.Td>{where(change.line)}</Table.Td>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>{change.email}</Table.Td>
                  <Table.Td>
                    <Badge variant="light" tt="none">
                      {t(`userSync.kinds.${change.kind}`)}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    <ChangeValue change={change} value={change.from} /> → <ChangeValue change={change} value={change.to} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : (
        <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label={t('userSync.report.changesLabel')}>
          {changes.map((change) => (
            <Card key={`${change.email}-${change.kind}`} component="li" withBorder padding="xs" data-testid="user-sync-change">
              <Group justify="space-between" gap="xs" wrap="nowrap">
                <Badge variant="light" tt="none">
                  {t(`userSync.kinds.${change.kind}`)}
                </Badge>
                <Text size="xs" c="dimmed">
                  {t('userSync.report.line')} {where(change.line)}
                </Text>
              </Group>
              <Text size="sm" mt={4} style={{ overflowWrap: 'anywhere' }}>
                {change.email}
              </Text>
              <Text size="xs" c="dimmed">
                <ChangeValue change={change} value={change.from} /> → <ChangeValue change={change} value={change.to} />
              </Text>
            </Card>
          ))}
        </Stack>
      )}
    </Stack>
  );
}

function Errors({ errors, wide }: { readonly errors: readonly UserSyncError[]; readonly wide: boolean }) {
  const { t } = useTranslation();
  const where = (line: number | null) => (line === null ? t('userSync.report.notInFeed') : String(line));
  const field = (name: UserSyncError['field']) => (name ? t(`userSync.fields.${name}`) : '—');
  return (
    <Stack gap="xs">
      <Title order={3} fz="md">
        {t('userSync.report.errors', { count: errors.length })}
      </Title>
      <Text size="sm" c="dimmed">
        {t('userSync.report.errorsIntro')}
      </Text>
      {wide ? (
        <Table.ScrollContainer minWidth={720}>
          <Table verticalSpacing="xs" aria-label={t('userSync.report.errorsLabel')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={90}>{t('userSync.report.line')}</Table.Th>
                <Table.Th>{t('userSync.report.email')}</Table.Th>
                <Table.Th w={120}>{t('userSync.report.field')}</Table.Th>
                <Table.Th w={80}>{t('userSync.report.code')}</Table.Th>
                <Table.Th>{t('userSync.report.message')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {errors.map((error, index) => (
                <Table.Tr key={index} data-testid="user-sync-error">
                  <Table.Td>{where(error.line)}</Table.Td>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>{error.email ?? '—'}</Table.Td>
                  <Table.Td>{field(error.field)}</Table.Td>
                  <Table.Td>
                    <Code>{error.code}</Code>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{error.message}</Text>
                    <Text size="xs" c="dimmed">
                      {t(userSyncCodeKey(error))}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : (
        <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label={t('userSync.report.errorsLabel')}>
          {errors.map((error, index) => (
            <Card key={index} component="li" withBorder padding="xs" data-testid="user-sync-error">
              <Group justify="space-between" gap="xs" wrap="nowrap">
                <Text size="xs" fw={600}>
                  {t('userSync.report.line')} {where(error.line)} · {field(error.field)}
                </Text>
                <Code>{error.code}</Code>
              </Group>
              {error.email && (
                <Text size="sm" mt={4} style={{ overflowWrap: 'anywhere' }}>
                  {error.email}
                </Text>
              )}
              <Text size="sm">{error.message}</Text>
              <Text size="xs" c="dimmed">
                {t(userSyncCodeKey(error))}
              </Text>
            </Card>
          ))}
        </Stack>
      )}
    </Stack>
  );
}
