import {
  Alert,
  Badge,
  Button,
  Card,
  Grid,
  Group,
  Loader,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue, useDocumentTitle, useMediaQuery } from '@mantine/hooks';
import { ADMIN_AUDIT_ACTIONS, type AdminAuditAction, type AdminAuditEntry, listAdminAudit } from '@pakt/domain';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { callApi } from '../../api/client';
import { useCurrentTenant } from '../../api/session-store';
import { pageCount, WIDE_LAYOUT_QUERY } from '../inbox';
import {
  AUDIT_PAGE_SIZES,
  type AuditFilters,
  type AuditPageSize,
  auditRangeProblem,
  auditRequestQuery,
  compactDetails,
  EMPTY_AUDIT_FILTERS,
  fullDetails,
  hasAuditFilters,
} from './audit-filters';
import { AdminPagination } from './admin-pagination';
import { adminAuditQueryKeys } from './queries';
import { formatDateTime } from '../../ui/dates';

/** Typing in the target filter asks the server once the typing pauses. */
const TARGET_DEBOUNCE_MS = 300;

/**
 * /admin?section=audit: the tenant's administration log (issue 7), newest first, a page at a time,
 * filtered by action, target and days. A table on a wide screen, one card per entry on a phone.
 */
export function AuditSection() {
  const { t } = useTranslation();
  const tenant = useCurrentTenant();
  const wide = useMediaQuery(WIDE_LAYOUT_QUERY, false, { getInitialValueInEffect: false });
  const [filters, setFilters] = useState<AuditFilters>(EMPTY_AUDIT_FILTERS);
  const [target] = useDebouncedValue(filters.target.trim(), TARGET_DEBOUNCE_MS);
  const asked: AuditFilters = { ...filters, target };
  // A page belongs to the filters it was turned on: other filters start again from the first.
  const filterKey = JSON.stringify(asked);
  const [paging, setPaging] = useState({ key: filterKey, pg: 0 });
  const pg = paging.key === filterKey ? paging.pg : 0;
  const rangeProblem = auditRangeProblem(filters);
  const query = auditRequestQuery(asked, pg);
  const log = useQuery({
    queryKey: [...adminAuditQueryKeys.all(tenant?.tenantUuid), query],
    queryFn: ({ signal }) => callApi(listAdminAudit, { query }, { signal }),
    enabled: rangeProblem === null,
    // Paging or filtering keeps the rows on screen until the next ones arrive.
    placeholderData: keepPreviousData,
  });
  useDocumentTitle(`${t('adminAudit.title')} · Pakt`);

  const change = (partial: Partial<AuditFilters>) => setFilters((current) => ({ ...current, ...partial }));

  const total = log.data?.total ?? 0;
  const pages = pageCount(total, filters.size);
  const first = total === 0 ? 0 : pg * filters.size + 1;
  const last = Math.min(total, (pg + 1) * filters.size);

  let body: ReactNode;
  if (rangeProblem) {
    body = null;
  } else if (log.isPending) {
    body = (
      <Group justify="center" py="xl">
        <Loader size="sm" aria-label={t('adminAudit.loading')} />
      </Group>
    );
  } else if (log.isError) {
    body = (
      <Alert color="red" variant="light" role="alert" title={t('adminAudit.loadFailed')}>
        {log.error.message && (
          <Text size="xs" mb="xs">
            {log.error.message}
          </Text>
        )}
        <Button variant="light" color="red" size="xs" onClick={() => void log.refetch()} loading={log.isFetching}>
          {t('adminAudit.retry')}
        </Button>
      </Alert>
    );
  } else if (log.data.items.length === 0) {
    body = (
      <Card withBorder padding="lg">
        <Text c="dimmed">{hasAuditFilters(asked) ? t('adminAudit.noMatch') : t('adminAudit.empty')}</Text>
      </Card>
    );
  } else {
    body = wide ? <AuditTable items={log.data.items} /> : <AuditCards items={log.data.items} />;
  }

  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={1} fz={{ base: 28, sm: 34 }}>
          {t('adminAudit.title')}
        </Title>
        <Text c="dimmed">{t('adminAudit.intro', { tenant: tenant?.tenantName ?? '' })}</Text>
      </Stack>

      <Card withBorder padding="md" component="form" role="search" aria-label={t('adminAudit.filters.label')} onSubmit={(event) => event.preventDefault()}>
        <Grid gap="sm" align="flex-end">
          <Grid.Col span={{ base: 12, sm: 6, lg: 3 }}>
            <Select
              label={t('adminAudit.filters.action')}
              placeholder={t('adminAudit.filters.anyAction')}
              data={ADMIN_AUDIT_ACTIONS.map((action) => ({ value: action, label: t(`adminAudit.actions.${action}`) }))}
              value={filters.action}
              onChange={(value) => change({ action: value as AdminAuditAction | null })}
              clearable
              searchable
              comboboxProps={{ withinPortal: true }}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6, lg: 3 }}>
            <TextInput
              type="search"
              label={t('adminAudit.filters.target')}
              placeholder={t('adminAudit.filters.targetPlaceholder')}
              value={filters.target}
              maxLength={200}
              onChange={(event) => change({ target: event.currentTarget.value })}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 6, sm: 4, lg: 2 }}>
            <TextInput type="date" label={t('adminAudit.filters.from')} value={filters.from} max={filters.to || undefined} onChange={(event) => change({ from: event.currentTarget.value })} />
          </Grid.Col>
          <Grid.Col span={{ base: 6, sm: 4, lg: 2 }}>
            <TextInput
              type="date"
              label={t('adminAudit.filters.to')}
              value={filters.to}
              min={filters.from || undefined}
              error={rangeProblem ? t(rangeProblem) : undefined}
              onChange={(event) => change({ to: event.currentTarget.value })}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 6, sm: 4, lg: 2 }}>
            <Select
              label={t('adminAudit.filters.size')}
              data={AUDIT_PAGE_SIZES.map((size) => String(size))}
              value={String(filters.size)}
              allowDeselect={false}
              onChange={(value) => value && change({ size: Number(value) as AuditPageSize })}
              comboboxProps={{ withinPortal: true }}
            />
          </Grid.Col>
        </Grid>
      </Card>

      <Stack gap="sm">
        {(hasAuditFilters(filters) || (log.data && !rangeProblem)) && (
          <Group justify="space-between" gap="xs" mih={30}>
            <Group gap="xs">
              {log.data && !rangeProblem && (
                <Text size="sm" c="dimmed" data-testid="audit-range">
                  {t('adminAudit.range', { first, last, total })}
                </Text>
              )}
              {log.isFetching && !log.isPending && <Loader size="xs" aria-label={t('adminAudit.loading')} />}
            </Group>
            {hasAuditFilters(filters) && (
              <Button variant="subtle" size="compact-sm" onClick={() => setFilters({ ...EMPTY_AUDIT_FILTERS, size: filters.size })}>
                {t('adminAudit.filters.clear')}
              </Button>
            )}
          </Group>
        )}
        {body}
        {log.data && !rangeProblem && pages > 1 && <AdminPagination pages={pages} pg={pg} wide={wide} onChange={(next) => setPaging({ key: filterKey, pg: next })} />}
      </Stack>
    </Stack>
  );
}

/**
 * An address may break after its @ rather than anywhere: a narrow column shows "someone@" over
 * "example.com" instead of a word cut in two.
 */
function Breakable({ text }: { readonly text: string }) {
  const at = text.indexOf('@');
  if (at < 0) return text;
  return (
    <>
      {text.slice(0, at + 1)}
      <wbr />
      {text.slice(at + 1)}
    </>
  );
}

function useWhen() {
  const { i18n } = useTranslation();
  return (iso: string) => formatDateTime(iso, i18n.language);
}

function Who({ entry }: { readonly entry: AdminAuditEntry }) {
  const { t } = useTranslation();
  if (!entry.actor) {
    return (
      <Text size="sm" c="dimmed" fs="italic">
        {t('adminAudit.formerAccount')}
      </Text>
    );
  }
  return (
    <div>
      <Text size="sm" style={{ overflowWrap: 'break-word' }}>
        <Breakable text={entry.actor.name || entry.actor.email} />
      </Text>
      {entry.actor.name && (
        <Text size="xs" c="dimmed" style={{ overflowWrap: 'break-word' }}>
          <Breakable text={entry.actor.email} />
        </Text>
      )}
    </div>
  );
}

function ActionBadge({ action }: { readonly action: AdminAuditAction }) {
  const { t } = useTranslation();
  const color = action.startsWith('group_') ? 'indigo' : action.startsWith('user_') ? 'teal' : action.startsWith('admin_') ? 'blue' : 'gray';
  return (
    <Badge variant="light" color={color} tt="none" style={{ maxWidth: '100%', height: 'auto', whiteSpace: 'normal', textAlign: 'start' }}>
      {t(`adminAudit.actions.${action}`)}
    </Badge>
  );
}

function Target({ entry }: { readonly entry: AdminAuditEntry }) {
  const { t } = useTranslation();
  return (
    <div>
      <Text size="sm" style={{ overflowWrap: 'break-word' }}>
        <Breakable text={entry.targetLabel ?? entry.targetId ?? t(`adminAudit.targetTypes.${entry.targetType}`)} />
      </Text>
      {(entry.targetLabel ?? entry.targetId) && (
        <Text size="xs" c="dimmed">
          {t(`adminAudit.targetTypes.${entry.targetType}`)}
        </Text>
      )}
    </div>
  );
}

function Details({ entry }: { readonly entry: AdminAuditEntry }) {
  const compact = compactDetails(entry.details);
  if (!compact) {
    return (
      <Text size="sm" c="dimmed" aria-hidden="true">
        —
      </Text>
    );
  }
  return (
    // Break anywhere: details are many short pieces, and a long one must not widen the column.
    <Text size="xs" ff="monospace" lineClamp={3} title={fullDetails(entry.details)} style={{ overflowWrap: 'anywhere' }}>
      {compact}
    </Text>
  );
}

function AuditTable({ items }: { readonly items: readonly AdminAuditEntry[] }) {
  const { t } = useTranslation();
  const when = useWhen();
  return (
    <Table.ScrollContainer minWidth={820}>
      <Table verticalSpacing="sm" highlightOnHover aria-label={t('adminAudit.tableLabel')} data-testid="audit-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={170}>{t('adminAudit.columns.when')}</Table.Th>
            <Table.Th>{t('adminAudit.columns.who')}</Table.Th>
            <Table.Th w={180}>{t('adminAudit.columns.action')}</Table.Th>
            <Table.Th>{t('adminAudit.columns.target')}</Table.Th>
            <Table.Th miw={220}>{t('adminAudit.columns.details')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.map((entry) => (
            <Table.Tr key={entry.id} data-testid="audit-entry">
              <Table.Td>
                <Text size="sm" component="time" dateTime={entry.createdOn} style={{ whiteSpace: 'nowrap' }}>
                  {when(entry.createdOn)}
                </Text>
              </Table.Td>
              <Table.Td>
                <Who entry={entry} />
              </Table.Td>
              <Table.Td>
                <ActionBadge action={entry.action} />
              </Table.Td>
              <Table.Td>
                <Target entry={entry} />
              </Table.Td>
              <Table.Td>
                <Details entry={entry} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function AuditCards({ items }: { readonly items: readonly AdminAuditEntry[] }) {
  const { t } = useTranslation();
  const when = useWhen();
  return (
    <Stack gap="sm" component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label={t('adminAudit.tableLabel')}>
      {items.map((entry) => (
        <Card key={entry.id} component="li" withBorder padding="sm" data-testid="audit-entry">
          <Stack gap={6}>
            <Group justify="space-between" align="flex-start" gap="xs" wrap="nowrap">
              <ActionBadge action={entry.action} />
              <Text size="xs" c="dimmed" component="time" dateTime={entry.createdOn} style={{ whiteSpace: 'nowrap' }}>
                {when(entry.createdOn)}
              </Text>
            </Group>
            <Group gap="md" align="flex-start" grow wrap="nowrap">
              <Stack gap={0} miw={0}>
                <Text size="xs" c="dimmed" fw={600}>
                  {t('adminAudit.columns.who')}
                </Text>
                <Who entry={entry} />
              </Stack>
              <Stack gap={0} miw={0}>
                <Text size="xs" c="dimmed" fw={600}>
                  {t('adminAudit.columns.target')}
                </Text>
                <Target entry={entry} />
              </Stack>
            </Group>
            <Details entry={entry} />
          </Stack>
        </Card>
      ))}
    </Stack>
  );
}
