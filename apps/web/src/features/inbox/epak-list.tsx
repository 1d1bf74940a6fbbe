import { ActionIcon, Anchor, Badge, Card, Checkbox, Group, Progress, Stack, Table, Text, Tooltip, UnstyledButton, VisuallyHidden } from '@mantine/core';
import type { EpakSummary, InboxSort } from '@pakt/domain';
import type { MouseEvent, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDate } from '../../ui/dates';
import { EpakManageLink } from '../epak-manage';
import { expiryState, namesWithMore, STATUS_COLORS } from './epak-format';
import { SortIcon, StarIcon } from './inbox-icons';
import { epakPath, ownerName, type InboxState } from './inbox-state';

export interface EpakListProps {
  readonly items: readonly EpakSummary[];
  readonly state: InboxState;
  readonly onSort: (sort: InboxSort) => void;
  readonly selected: ReadonlySet<string>;
  readonly onSelectedChange: (selected: Set<string>) => void;
  /** Opening an ePak (a row, its subject or its card): the caller marks it read and goes there. */
  readonly onOpen: (epak: EpakSummary) => void;
  readonly onToggleStar: (epak: EpakSummary) => void;
  /** The ePak whose star is being changed, so its button can say so. */
  readonly starring: string | null;
}

/** A click on the row itself, not on one of its controls (checkbox, star, link), opens the ePak. */
function isOnControl(event: MouseEvent): boolean {
  return event.target instanceof Element && event.target.closest('a, button, input, label') !== null;
}

function StarButton({ epak, busy, onToggle }: { readonly epak: EpakSummary; readonly busy: boolean; readonly onToggle: () => void }) {
  const { t } = useTranslation();
  const label = t(epak.starred ? 'inbox.list.unstar' : 'inbox.list.star', { subject: epak.subject });
  return (
    <Tooltip label={label} withinPortal openDelay={400}>
      <ActionIcon
        variant="subtle"
        color={epak.starred ? 'yellow' : 'gray'}
        aria-label={label}
        aria-pressed={epak.starred}
        loading={busy}
        onClick={onToggle}
      >
        <StarIcon filled={epak.starred} size={18} />
      </ActionIcon>
    </Tooltip>
  );
}

function StatusBadge({ epak }: { readonly epak: EpakSummary }) {
  const { t } = useTranslation();
  return (
    // max-content: a table column may not squeeze the status into an ellipsis.
    <Badge variant="light" color={STATUS_COLORS[epak.status]} tt="none" style={{ flexShrink: 0, minWidth: 'max-content' }}>
      {t(`inbox.status.${epak.status}`)}
    </Badge>
  );
}

/** The step under way and who it waits for ("Sign · waiting for Asha Rao, Ravi Iyer +1"). */
function CurrentStep({ epak }: { readonly epak: EpakSummary }) {
  const { t } = useTranslation();
  if (!epak.currentWorkflowStateAction) return <Text size="sm" c="dimmed">{t('inbox.list.noStep')}</Text>;
  const { names, more } = namesWithMore(epak.currentStatePendingSigners.map((signer) => signer.name || signer.email));
  return (
    <div>
      <Text size="sm">{t(`workflowStateTypes.${epak.currentWorkflowStateAction}`)}</Text>
      {names && (
        <Text size="xs" c="dimmed" title={epak.currentStatePendingSigners.map((signer) => signer.name || signer.email).join(', ')}>
          {more > 0 ? t('inbox.list.waitingForMore', { names, count: more }) : t('inbox.list.waitingFor', { names })}
        </Text>
      )}
    </div>
  );
}

function ProgressCell({ epak }: { readonly epak: EpakSummary }) {
  const { t } = useTranslation();
  const done = epak.progressPercent === 100;
  return (
    <Group gap="xs" wrap="nowrap">
      <Progress
        value={epak.progressPercent}
        color={done ? 'teal' : 'indigo'}
        size="sm"
        w={56}
        aria-label={t('inbox.list.progressLabel', { percent: epak.progressPercent })}
      />
      <Text size="xs" c="dimmed" miw={32}>
        {epak.progressPercent}%
      </Text>
    </Group>
  );
}

function Expiry({ epak }: { readonly epak: EpakSummary }) {
  const { t, i18n } = useTranslation();
  const state = expiryState(epak);
  if (state === 'none') return <Text size="sm" c="dimmed">{t('inbox.list.noExpiry')}</Text>;
  const color = state === 'past' ? 'red' : state === 'soon' ? 'orange' : undefined;
  return (
    <Text size="sm" c={color} fw={state === 'soon' || state === 'past' ? 600 : undefined}>
      {formatDate(epak.expiredOn, i18n.language)}
      {state === 'soon' && <VisuallyHidden> ({t('inbox.list.expiresSoon')})</VisuallyHidden>}
    </Text>
  );
}

/** The subject as a link (so it opens in a new tab too), bold while unread. */
function SubjectLink({ epak, onOpen }: { readonly epak: EpakSummary; readonly onOpen: (epak: EpakSummary) => void }) {
  const { t } = useTranslation();
  return (
    <Anchor
      component={Link}
      to={epakPath(epak)}
      c="inherit"
      fw={epak.isRead ? 500 : 700}
      onClick={(event) => {
        // A new tab or window keeps this page; only a plain click is this page's navigation.
        if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
        event.preventDefault();
        onOpen(epak);
      }}
      // A block, so a subject on two lines is one clickable rectangle rather than two line boxes.
      style={{ overflowWrap: 'anywhere', display: 'inline-block' }}
    >
      {!epak.isRead && <VisuallyHidden>{t('inbox.list.unread')}: </VisuallyHidden>}
      {epak.subject}
    </Anchor>
  );
}

function SortHeader({ sort, state, onSort, children }: { readonly sort: InboxSort; readonly state: InboxState; readonly onSort: (sort: InboxSort) => void; readonly children: ReactNode }) {
  const { t } = useTranslation();
  const direction = state.sort === sort ? state.order : null;
  return (
    <Table.Th aria-sort={direction === 'asc' ? 'ascending' : direction === 'desc' ? 'descending' : undefined}>
      <UnstyledButton onClick={() => onSort(sort)} aria-label={t('inbox.list.sortBy', { column: t(`inbox.sorts.${sort}`) })}>
        <Group gap={4} wrap="nowrap">
          <Text component="span" size="sm" fw={700}>
            {children}
          </Text>
          <SortIcon direction={direction} />
        </Group>
      </UnstyledButton>
    </Table.Th>
  );
}

function useSelection({ items, selected, onSelectedChange }: Pick<EpakListProps, 'items' | 'selected' | 'onSelectedChange'>) {
  const onPage = items.filter((item) => selected.has(item.id)).length;
  const all = items.length > 0 && onPage === items.length;
  const toggle = (id: string) => {
    const next = new Set(selected);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    onSelectedChange(next);
  };
  const toggleAll = () => {
    const next = new Set(selected);
    for (const item of items) {
      if (all) next.delete(item.id);
      else next.add(item.id);
    }
    onSelectedChange(next);
  };
  return { all, some: onPage > 0 && !all, toggle, toggleAll };
}

/** Desktop: one row per ePak with every summary field of spec §3 the inbox shows. */
export function EpakTable(props: EpakListProps) {
  const { t, i18n } = useTranslation();
  const { items, state, onSort, selected, onOpen, onToggleStar, starring } = props;
  const selection = useSelection(props);
  return (
    <Table.ScrollContainer minWidth={880}>
      <Table highlightOnHover verticalSpacing="sm" aria-label={t('inbox.list.label')} data-testid="epak-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={40}>
              <Checkbox
                aria-label={t('inbox.list.selectAll')}
                checked={selection.all}
                indeterminate={selection.some}
                onChange={selection.toggleAll}
                disabled={items.length === 0}
              />
            </Table.Th>
            <Table.Th w={44}>
              <VisuallyHidden>{t('inbox.list.starred')}</VisuallyHidden>
            </Table.Th>
            <SortHeader sort="subject" state={state} onSort={onSort}>
              {t('inbox.columns.subject')}
            </SortHeader>
            <Table.Th>{t('inbox.columns.from')}</Table.Th>
            <SortHeader sort="sentOn" state={state} onSort={onSort}>
              {t('inbox.columns.sentOn')}
            </SortHeader>
            <Table.Th>{t('inbox.columns.step')}</Table.Th>
            <Table.Th>{t('inbox.columns.progress')}</Table.Th>
            <SortHeader sort="expiredOn" state={state} onSort={onSort}>
              {t('inbox.columns.expiredOn')}
            </SortHeader>
            <Table.Th>{t('inbox.columns.status')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.map((epak) => (
            <Table.Tr
              key={epak.id}
              data-testid="epak-row"
              data-unread={!epak.isRead || undefined}
              bg={selected.has(epak.id) ? 'var(--mantine-primary-color-light)' : undefined}
              style={{ cursor: 'pointer' }}
              onClick={(event) => {
                if (!isOnControl(event)) onOpen(epak);
              }}
            >
              <Table.Td>
                <Checkbox
                  aria-label={t('inbox.list.select', { subject: epak.subject })}
                  checked={selected.has(epak.id)}
                  onChange={() => selection.toggle(epak.id)}
                />
              </Table.Td>
              <Table.Td>
                <StarButton epak={epak} busy={starring === epak.id} onToggle={() => onToggleStar(epak)} />
              </Table.Td>
              <Table.Td maw={280}>
                <SubjectLink epak={epak} onOpen={onOpen} />
              </Table.Td>
              <Table.Td>
                <Text size="sm" fw={epak.isRead ? undefined : 600}>
                  {ownerName(epak)}
                </Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                  {epak.sentOn ? formatDate(epak.sentOn, i18n.language) : t('inbox.list.notSent')}
                </Text>
              </Table.Td>
              <Table.Td maw={220}>
                <CurrentStep epak={epak} />
              </Table.Td>
              <Table.Td>
                <ProgressCell epak={epak} />
              </Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>
                <Expiry epak={epak} />
              </Table.Td>
              <Table.Td>
                <Group gap={4} wrap="nowrap">
                  <StatusBadge epak={epak} />
                  {/* The owner's shortcut to the ePak's management tab (issue 21). */}
                  <EpakManageLink epak={epak} />
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** Phone: one card per ePak, the same fields stacked. */
export function EpakCards(props: EpakListProps) {
  const { t, i18n } = useTranslation();
  const { items, selected, onOpen, onToggleStar, starring } = props;
  const selection = useSelection(props);
  return (
    <Stack gap="sm">
      <Checkbox
        label={t('inbox.list.selectAll')}
        checked={selection.all}
        indeterminate={selection.some}
        onChange={selection.toggleAll}
        disabled={items.length === 0}
        size="sm"
      />
      <Stack gap="sm" component="ul" p={0} m={0} aria-label={t('inbox.list.label')} style={{ listStyle: 'none' }}>
        {items.map((epak) => (
          <Card
            key={epak.id}
            component="li"
            withBorder
            padding="sm"
            data-testid="epak-card"
            data-unread={!epak.isRead || undefined}
            bg={selected.has(epak.id) ? 'var(--mantine-primary-color-light)' : undefined}
            style={{ borderLeft: epak.isRead ? undefined : '4px solid var(--mantine-primary-color-filled)' }}
            onClick={(event: MouseEvent) => {
              if (!isOnControl(event)) onOpen(epak);
            }}
          >
            <Group gap="xs" wrap="nowrap" align="flex-start">
              <Checkbox
                mt={6}
                aria-label={t('inbox.list.select', { subject: epak.subject })}
                checked={selected.has(epak.id)}
                onChange={() => selection.toggle(epak.id)}
              />
              <Stack gap={6} style={{ flex: 1, minWidth: 0 }}>
                <Group justify="space-between" wrap="nowrap" gap="xs" align="flex-start">
                  <div style={{ minWidth: 0, paddingTop: 4 }}>
                    <SubjectLink epak={epak} onOpen={onOpen} />
                  </div>
                  <Group gap={0} wrap="nowrap">
                    <EpakManageLink epak={epak} />
                    <StarButton epak={epak} busy={starring === epak.id} onToggle={() => onToggleStar(epak)} />
                  </Group>
                </Group>
                <Group justify="space-between" wrap="nowrap" gap="xs">
                  <Text size="sm" c="dimmed" truncate>
                    {ownerName(epak)} · {epak.sentOn ? formatDate(epak.sentOn, i18n.language) : t('inbox.list.notSent')}
                  </Text>
                  <StatusBadge epak={epak} />
                </Group>
                <CurrentStep epak={epak} />
                <Group justify="space-between" wrap="nowrap" gap="xs">
                  <ProgressCell epak={epak} />
                  <Group gap={4} wrap="nowrap">
                    <Text size="xs" c="dimmed">
                      {t('inbox.columns.expiredOn')}:
                    </Text>
                    <Expiry epak={epak} />
                  </Group>
                </Group>
              </Stack>
            </Group>
          </Card>
        ))}
      </Stack>
    </Stack>
  );
}
