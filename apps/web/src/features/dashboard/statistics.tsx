import { Alert, Button, Card, Group, SegmentedControl, Select, SimpleGrid, Skeleton, Stack, Text, ThemeIcon, Title, type ComboboxItem, type OptionsFilter } from '@mantine/core';
import { WEEKLY_SERIES_ALL, WEEKLY_SERIES_USER_OR_GROUP, type ChartScope, type StatisticsMember, type WeeklyChartSeries, displayName } from '@pakt/domain';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { CheckCircleIcon, ClockAlertIcon, InboxIcon, SendIcon, useStatistics, useUserStatistics } from '../inbox';
import { useCan } from '../../api/access';
import { FolderBarChart, WeeklyLineChart } from './charts';

interface Tile {
  readonly id: string;
  readonly label: string;
  readonly value: number | undefined;
  readonly to: string;
  readonly icon: ReactNode;
  readonly color: string;
}

/**
 * The caller's own numbers (GET /v1/users/statistics), each a way into the inbox list it counts.
 */
export function StatisticsTiles() {
  const { t } = useTranslation();
  const stats = useUserStatistics();
  if (stats.isError) {
    return (
      <Alert color="red" variant="light" role="alert" title={t('inbox.tiles.loadFailed')}>
        <Button variant="light" color="red" size="xs" mt="xs" onClick={() => void stats.refetch()} loading={stats.isFetching}>
          {t('inbox.list.retry')}
        </Button>
      </Alert>
    );
  }
  const data = stats.data;
  const tiles: Tile[] = [
    { id: 'awaitingMe', label: t('inbox.tiles.awaitingMe'), value: data?.awaitingMe, to: '/epaks', icon: <InboxIcon />, color: 'indigo' },
    { id: 'awaitingOthers', label: t('inbox.tiles.awaitingOthers'), value: data?.awaitingOthers, to: '/epaks?folder=Pending', icon: <SendIcon />, color: 'yellow' },
    { id: 'expiringSoon', label: t('inbox.tiles.expiringSoon'), value: data?.expiringSoon, to: '/epaks?sort=expiredOn&order=asc', icon: <ClockAlertIcon />, color: 'orange' },
    { id: 'completed', label: t('inbox.tiles.completed'), value: data?.counts.Completed?.total, to: '/epaks?folder=Completed', icon: <CheckCircleIcon />, color: 'teal' },
  ];
  return (
    <SimpleGrid cols={{ base: 2, sm: 4 }} spacing={{ base: 'xs', sm: 'md' }} component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label={t('inbox.tiles.label')}>
      {tiles.map((tile) => (
        <li key={tile.id}>
          <Card withBorder padding="md" h="100%" component={Link} to={tile.to} data-testid={`tile-${tile.id}`} style={{ textDecoration: 'none' }}>
            <Group gap="sm" wrap="nowrap" align="flex-start">
              <ThemeIcon variant="light" color={tile.color} size={36} radius="md" visibleFrom="xs">
                {tile.icon}
              </ThemeIcon>
              <div style={{ minWidth: 0 }}>
                {tile.value === undefined ? (
                  <Skeleton h={28} w={40} mb={4} />
                ) : (
                  <Text fz={28} fw={700} lh={1.1} data-testid="tile-value">
                    {tile.value}
                  </Text>
                )}
                <Text size="sm" c="dimmed">
                  {tile.label}
                </Text>
              </div>
            </Group>
          </Card>
        </li>
      ))}
    </SimpleGrid>
  );
}

/**
 * The weekly series a scope has (spec §9): seven for the whole tenant, four for a person (user,
 * groupuser) or the caller's groups (group).
 */
export function seriesOfScope(scope: ChartScope): readonly WeeklyChartSeries[] {
  return scope === 'all' ? WEEKLY_SERIES_ALL : WEEKLY_SERIES_USER_OR_GROUP;
}

/** The scopes the dashboard's switch offers; groupuser is "My groups" with a member picked. */
export type ChartScopeChoice = Exclude<ChartScope, 'groupuser'>;

/**
 * What the charts show: the switch's scope and, under "My groups", the member picked (if any),
 * whose own numbers are then shown (scope groupuser).
 */
export interface ChartSelection {
  readonly scope: ChartScopeChoice;
  readonly member: StatisticsMember | null;
}

export const DEFAULT_CHART_SELECTION: ChartSelection = { scope: 'user', member: null };

/** A member by name, as the picker lists them and the chart titles name them. */

/** A chart under its title; `stale`: the numbers shown are the last scope's, until the new ones arrive. */
function ChartCard({ title, stale = false, children }: { readonly title: string; readonly stale?: boolean; readonly children: ReactNode }) {
  return (
    <Card withBorder padding="md" aria-busy={stale} style={{ opacity: stale ? 0.55 : 1, transition: 'opacity 150ms ease' }}>
      <Title order={3} size="h5" mb="sm">
        {title}
      </Title>
      {children}
    </Card>
  );
}

function Failed({ onRetry, retrying }: { readonly onRetry: () => void; readonly retrying: boolean }) {
  const { t } = useTranslation();
  return (
    <Alert color="red" variant="light" role="alert" title={t('inbox.charts.loadFailed')}>
      <Button variant="light" color="red" size="xs" mt="xs" onClick={onRetry} loading={retrying}>
        {t('inbox.list.retry')}
      </Button>
    </Alert>
  );
}

/**
 * The statistics charts (GET /v2/statistics): ePaks by folder and week by week, for the caller
 * (user), the people of their groups (group) or, for those the permission module lets see it
 * ('statistics.tenant'), the whole organisation (all). Under "My groups", the group summary's
 * `members` (whom the caller may look at: the members of the groups they manage) are offered in
 * a picker; picking one shows that person's own numbers (groupuser), clearing it the group again.
 */
export function StatisticsCharts({ selection, onSelectionChange }: { readonly selection: ChartSelection; readonly onSelectionChange: (selection: ChartSelection) => void }) {
  const { t, i18n } = useTranslation();
  const mayTenant = useCan('statistics.tenant');
  const scope: ChartScopeChoice = selection.scope === 'all' && !mayTenant ? 'user' : selection.scope;
  // Whom the picker offers: the group summary's members, kept while a member's charts are shown.
  const groupSummary = useStatistics('summary', 'group', null, { enabled: scope === 'group' });
  const members = scope === 'group' && groupSummary.data?.type === 'summary' ? groupSummary.data.members : undefined;
  // A member no longer offered (they left the group, or its manager changed) is not asked for:
  // the server would refuse; the group's charts are shown instead.
  const member = scope === 'group' && selection.member && (members === undefined || members.some((m) => m.userId === selection.member?.userId)) ? selection.member : null;
  const effective: ChartScope = member ? 'groupuser' : scope;

  const summary = useStatistics('summary', effective, member?.userId);
  const weekly = useStatistics('weekly', effective, member?.userId);
  const scopeName = member ? displayName(member) : t(`inbox.charts.scopes.${effective}`);

  let summaryBody: ReactNode = <Skeleton h={200} />;
  if (summary.isError) summaryBody = <Failed onRetry={() => void summary.refetch()} retrying={summary.isFetching} />;
  else if (summary.data?.type === 'summary') summaryBody = <FolderBarChart folders={summary.data.folders} label={t('inbox.charts.summaryLabel', { scope: scopeName })} />;

  let weeklyBody: ReactNode = <Skeleton h={220} />;
  if (weekly.isError) weeklyBody = <Failed onRetry={() => void weekly.refetch()} retrying={weekly.isFetching} />;
  else if (weekly.data?.type === 'weekly') {
    const data = weekly.data;
    const series = seriesOfScope(effective).map((name) => ({ name, values: data.series[name] ?? data.weeks.map(() => 0) }));
    weeklyBody = <WeeklyLineChart weeks={data.weeks} series={series} label={t('inbox.charts.weeklyLabel', { scope: scopeName })} language={i18n.language} />;
  }

  const scopes: readonly ChartScopeChoice[] = mayTenant ? ['user', 'group', 'all'] : ['user', 'group'];
  // Whose numbers a chart shows is in its title once a person is picked (the switch says "My groups").
  const summaryTitle = member ? t('inbox.charts.summaryLabel', { scope: scopeName }) : t('inbox.charts.summary');
  const weeklyTitle = member ? t('inbox.charts.weeklyLabel', { scope: scopeName }) : t('inbox.charts.weekly');

  return (
    <Stack gap="md" component="section" aria-labelledby="statistics-heading">
      <Group justify="space-between" align="center" gap="sm">
        <Title order={2} size="h3" id="statistics-heading">
          {t('inbox.charts.heading')}
        </Title>
        <SegmentedControl
          size="xs"
          value={scope}
          onChange={(value) => onSelectionChange({ scope: value as ChartScopeChoice, member: null })}
          aria-label={t('inbox.charts.scope')}
          data={scopes.map((value) => ({ value, label: t(`inbox.charts.scopes.${value}`) }))}
          data-testid="chart-scope"
        />
      </Group>
      {members && members.length > 0 && (
        <MemberPicker members={members} member={member} onChange={(picked) => onSelectionChange({ scope: 'group', member: picked })} />
      )}
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <ChartCard title={summaryTitle} stale={summary.isPlaceholderData}>
          {summaryBody}
        </ChartCard>
        <ChartCard title={weeklyTitle} stale={weekly.isPlaceholderData}>
          {weeklyBody}
        </ChartCard>
      </SimpleGrid>
    </Stack>
  );
}

/** "A group member": whose own numbers to show, searched by name or address; cleared, the group's. */
function MemberPicker({ members, member, onChange }: { readonly members: readonly StatisticsMember[]; readonly member: StatisticsMember | null; readonly onChange: (member: StatisticsMember | null) => void }) {
  const { t } = useTranslation();
  const byId = new Map(members.map((m) => [m.userId, m]));
  const filter: OptionsFilter = ({ options, search }) => {
    const needle = search.trim().toLocaleLowerCase();
    if (!needle) return options;
    return (options as ComboboxItem[]).filter((option) => option.label.toLocaleLowerCase().includes(needle) || (byId.get(option.value)?.email.toLocaleLowerCase().includes(needle) ?? false));
  };
  return (
    <Select
      label={t('inbox.charts.scopes.groupuser')}
      placeholder={t('inbox.charts.memberPlaceholder')}
      nothingFoundMessage={t('inbox.charts.memberNone')}
      data={members.map((m) => ({ value: m.userId, label: displayName(m) }))}
      value={member?.userId ?? null}
      onChange={(value) => onChange(value ? (byId.get(value) ?? null) : null)}
      filter={filter}
      renderOption={({ option }) => (
        <div style={{ minWidth: 0 }}>
          <Text size="sm" truncate>
            {option.label}
          </Text>
          <Text size="xs" c="dimmed" truncate>
            {byId.get(option.value)?.email}
          </Text>
        </div>
      )}
      searchable
      clearable
      // Mantine leaves its clear button out of the tab order and hidden from screen readers: here it
      // is the way back to the whole group, so it is a button like any other.
      clearButtonProps={{ 'aria-label': t('inbox.charts.memberClear'), 'aria-hidden': false, tabIndex: 0 }}
      w={{ base: '100%', xs: 320 }}
      comboboxProps={{ withinPortal: true }}
      data-testid="chart-member"
    />
  );
}
