import {
  ActionIcon,
  Alert,
  Box,
  Button,
  Card,
  Chip,
  EmptyState,
  Group,
  Loader,
  Pagination,
  Select,
  Stack,
  Text,
  Title,
  Tooltip,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { INBOX_PAGE_SIZES, INBOX_SORTS, type EpakSummary, type Folder, type InboxSort } from '@pakt/domain';
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { useCan } from '../../api/access';
import { ArrowDownIcon, ArrowUpIcon } from '../../ui/icons';
import { BulkActions } from './bulk-actions';
import { EpakCards, EpakTable, type EpakListProps } from './epak-list';
import { FOLDER_DISPLAY_ORDER, FolderList, FolderSelect } from './folder-list';
import { InboxIcon } from './inbox-icons';
import { useInboxPage, useMarkRead, useToggleStar } from './queries';
import { changeInboxState, epakPath, pageCount, sortBy, type InboxSearch, type InboxState } from './inbox-state';

/** Mantine's md breakpoint: from here the folders sit beside a table; below it, a select above cards. */
export const WIDE_LAYOUT_QUERY = '(min-width: 62em)';

export interface InboxViewProps {
  readonly state: InboxState;
  readonly onStateChange: (state: InboxState) => void;
  readonly search?: InboxSearch | null;
  /** The search's timestamp (spec §2 ts): a new one runs the same search again. */
  readonly ts?: string | null;
  /** Shown above the list, e.g. the dashboard's removable search chip. */
  readonly above?: ReactNode;
  /** The heading level of the folder's name under the page's own heading. */
  readonly headingOrder?: 2 | 3;
}

/**
 * The ePaks inbox (spec §2, §3, §4): folders with counts, one page of a folder as a table (desktop)
 * or cards (phone), sorting, paging, the starred and unread filters, stars, read state and the
 * bulk actions. Used by /epaks and by the dashboard, which each keep the state their own way.
 */
export function InboxView({ state, onStateChange, search = null, ts = null, above, headingOrder = 2 }: InboxViewProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const wide = useMediaQuery(WIDE_LAYOUT_QUERY, false, { getInitialValueInEffect: false });
  const page = useInboxPage(state, search, ts);
  const star = useToggleStar();
  const markRead = useMarkRead();
  const [selected, setSelected] = useState<Set<string>>(() => new Set());
  const mayCompose = useCan('epak.compose');

  // A selection belongs to the rows it was made on: another folder, page or search starts afresh.
  const listKey = JSON.stringify([state, search, ts]);
  useEffect(() => setSelected(new Set()), [listKey]);

  const items = useMemo(() => page.data?.items ?? [], [page.data]);

  // A search opens the folder where its hits are (issue 21): when the folder it starts in has none,
  // the first folder that has some is opened, once per search; choosing a folder afterwards is the person's.
  const searchKey = search ? JSON.stringify([search, ts]) : null;
  const placed = useRef<string | null>(null);
  const hits = page.data?.searchHits;
  useEffect(() => {
    if (!searchKey || !hits || placed.current === searchKey) return;
    placed.current = searchKey;
    if ((hits[state.folder] ?? 0) > 0) return;
    const where = FOLDER_DISPLAY_ORDER.find((folder) => (hits[folder] ?? 0) > 0);
    if (where) onStateChange(changeInboxState(state, { folder: where }));
  }, [searchKey, hits, state, onStateChange]);
  const selectedItems = items.filter((item) => selected.has(item.id));
  const change = (partial: Partial<InboxState>) => onStateChange(changeInboxState(state, partial));

  const open = (epak: EpakSummary) => {
    // Opening is reading it: the inbox shows it in normal weight from now on. Not waited for, and
    // a failure costs nothing but the bold row.
    if (!epak.isRead) markRead.mutate({ ePakId: epak.id, isRead: true });
    void navigate(epakPath(epak));
  };

  const listProps: EpakListProps = {
    items,
    state,
    onSort: (sort) => onStateChange(sortBy(state, sort)),
    selected,
    onSelectedChange: setSelected,
    onOpen: open,
    onToggleStar: (epak) => star.mutate(epak.id),
    starring: star.isPending ? (star.variables ?? null) : null,
  };

  const total = page.data?.total ?? 0;
  const pages = pageCount(total, state.size);
  const first = total === 0 ? 0 : state.pg * state.size + 1;
  const last = Math.min(total, (state.pg + 1) * state.size);
  const folderName = t(`inbox.folders.${state.folder}`);
  const filtered = state.starred || state.unread || search !== null;

  let body: ReactNode;
  if (page.isPending) {
    body = (
      <Group justify="center" py="xl">
        <Loader size="sm" aria-label={t('inbox.list.loading')} />
      </Group>
    );
  } else if (page.isError) {
    body = (
      <Alert color="red" variant="light" role="alert" title={t('inbox.list.loadFailed')}>
        <Button variant="light" color="red" size="xs" mt="xs" onClick={() => void page.refetch()} loading={page.isFetching}>
          {t('inbox.list.retry')}
        </Button>
      </Alert>
    );
  } else if (items.length === 0 && search) {
    // The API pages one folder at a time: a search that finds nothing here points at the folders
    // where it has hits, so a completed ePak searched from a notification is one click away.
    const others = FOLDER_DISPLAY_ORDER.filter((folder) => folder !== state.folder && (page.data?.searchHits?.[folder] ?? 0) > 0);
    body = (
      <Card withBorder padding="xl">
        <EmptyState
          icon={<InboxIcon size={28} />}
          variant="light"
          title={t('inbox.empty.searchTitle', { folder: folderName })}
          description={others.length > 0 ? t('inbox.empty.searchText') : t('inbox.empty.filteredText')}
        >
          {others.length > 0 && (
            <EmptyState.Actions>
              <Group gap="xs" justify="center" wrap="wrap" role="group" aria-label={t('inbox.empty.lookIn')}>
                {others.map((folder) => (
                  <Button key={folder} size="xs" variant="light" onClick={() => change({ folder })}>
                    {t('inbox.empty.folderHits', { folder: t(`inbox.folders.${folder}`), count: page.data?.searchHits?.[folder] ?? 0 })}
                  </Button>
                ))}
              </Group>
            </EmptyState.Actions>
          )}
        </EmptyState>
      </Card>
    );
  } else if (items.length === 0) {
    // Someone with nothing anywhere yet, who may compose, is shown where to start (issue 21).
    const firstTime = !filtered && mayCompose && FOLDER_DISPLAY_ORDER.every((folder) => (page.data?.counts[folder]?.total ?? 0) === 0);
    body = (
      <Card withBorder padding="xl">
        <EmptyState
          icon={<InboxIcon size={28} />}
          variant="light"
          title={filtered ? t('inbox.empty.filteredTitle') : t('inbox.empty.title', { folder: folderName })}
          description={filtered ? t('inbox.empty.filteredText') : firstTime ? t('inbox.empty.firstTimeText') : t(`inbox.empty.text.${state.folder}`)}
        >
          {firstTime && (
            <EmptyState.Actions>
              <Button component={Link} to="/compose" data-testid="compose-first">
                {t('inbox.empty.composeFirst')}
              </Button>
            </EmptyState.Actions>
          )}
        </EmptyState>
      </Card>
    );
  } else {
    body = wide ? <EpakTable {...listProps} /> : <EpakCards {...listProps} />;
  }

  const folders = (onSelect: (folder: Folder) => void) =>
    wide ? (
      <Box w={220} style={{ flexShrink: 0 }}>
        <FolderList counts={page.data?.counts} active={state.folder} onSelect={onSelect} />
      </Box>
    ) : (
      <FolderSelect counts={page.data?.counts} active={state.folder} onSelect={onSelect} />
    );

  return (
    <Box style={{ display: 'flex', flexDirection: wide ? 'row' : 'column', gap: 'var(--mantine-spacing-lg)', alignItems: wide ? 'flex-start' : 'stretch' }}>
      {folders((folder) => change({ folder }))}
      <Stack gap="sm" style={{ flex: 1, minWidth: 0 }}>
        <Group justify="space-between" align="flex-end" gap="xs" wrap="wrap">
          <Group gap="xs" align="baseline" wrap="nowrap">
            <Title order={headingOrder} size="h3" data-testid="folder-heading">
              {folderName}
            </Title>
            {page.data && (
              <Text size="sm" c="dimmed" data-testid="folder-total">
                {t('inbox.list.total', { count: total })}
              </Text>
            )}
            {page.isFetching && !page.isPending && <Loader size="xs" aria-label={t('inbox.list.refreshing')} />}
          </Group>
          <Group gap="xs" wrap="wrap">
            <Chip size="sm" checked={state.starred} onChange={(starred) => change({ starred })}>
              {t('inbox.filters.starred')}
            </Chip>
            <Chip size="sm" checked={state.unread} onChange={(unread) => change({ unread })}>
              {t('inbox.filters.unread')}
            </Chip>
          </Group>
        </Group>
        {above}
        <Group gap="xs" wrap="wrap" justify="space-between">
          <Group gap={4} wrap="nowrap">
            <Select
              size="xs"
              w={170}
              label={t('inbox.sorts.label')}
              data={INBOX_SORTS.map((sort) => ({ value: sort, label: t(`inbox.sorts.${sort}`) }))}
              value={state.sort}
              allowDeselect={false}
              // A sort chosen here starts in its natural order, as a column header does.
              onChange={(value) => value && value !== state.sort && onStateChange(sortBy(state, value as InboxSort))}
              comboboxProps={{ withinPortal: true }}
            />
            <Tooltip label={t(state.order === 'asc' ? 'inbox.sorts.ascending' : 'inbox.sorts.descending')}>
              <ActionIcon
                variant="default"
                size="lg"
                mt={20}
                aria-label={t(state.order === 'asc' ? 'inbox.sorts.ascending' : 'inbox.sorts.descending')}
                onClick={() => change({ order: state.order === 'asc' ? 'desc' : 'asc' })}
                data-testid="sort-order"
              >
                {state.order === 'asc' ? <ArrowUpIcon size={16} /> : <ArrowDownIcon size={16} />}
              </ActionIcon>
            </Tooltip>
          </Group>
        </Group>
        <BulkActions selected={selectedItems} onDone={() => setSelected(new Set())} />
        {body}
        {page.data && total > 0 && (
          <Group justify="space-between" gap="sm" wrap="wrap">
            <Group gap="xs" wrap="nowrap">
              <Text size="sm" c="dimmed" data-testid="page-range">
                {t('inbox.paging.range', { first, last, total })}
              </Text>
              <Select
                size="xs"
                w={80}
                aria-label={t('inbox.paging.size')}
                data={INBOX_PAGE_SIZES.map((size) => String(size))}
                value={String(state.size)}
                allowDeselect={false}
                onChange={(value) => value && change({ size: Number(value) })}
                comboboxProps={{ withinPortal: true }}
              />
            </Group>
            {pages > 1 && (
              <Pagination
                total={pages}
                value={state.pg + 1}
                onChange={(value) => change({ pg: value - 1 })}
                size="sm"
                siblings={wide ? 1 : 0}
                boundaries={1}
                getControlProps={(control) => ({ 'aria-label': t(`inbox.paging.${control}`) })}
                getItemProps={(value) => ({ 'aria-label': t('inbox.paging.page', { page: value }) })}
              />
            )}
          </Group>
        )}
      </Stack>
    </Box>
  );
}
