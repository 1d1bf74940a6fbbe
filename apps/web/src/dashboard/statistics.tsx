import { Alert, Button, Card, Group, SegmentedControl, SimpleGrid, Skeleton, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { WEEKLY_SERIES_ALL, WEEKLY_SERIES_USER_OR_GROUP, type ChartScope, type WeeklyChartSeries } from '@pakt/domain';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { CheckCircleIcon, ClockAlertIcon, InboxIcon, SendIcon } from '../inbox/inbox-icons';
import { useCan, useStatistics, useUserStatistics } from '../inbox/inbox-queries';
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

/** The weekly series a scope has (spec §9): seven for the whole tenant, four for a person or group. */
export function seriesOfScope(scope: ChartScope): readonly WeeklyChartSeries[] {
  return scope === 'all' ? WEEKLY_SERIES_ALL : WEEKLY_SERIES_USER_OR_GROUP;
}

function ChartCard({ title, children }: { readonly title: string; readonly children: ReactNode }) {
  return (
    <Card withBorder padding="md">
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
 * (scope user) or, for those the permission module lets see it ('statistics.tenant'), the whole
 * organisation. Group scopes wait for groups to exist.
 */
export function StatisticsCharts({ scope, onScopeChange }: { readonly scope: ChartScope; readonly onScopeChange: (scope: ChartScope) => void }) {
  const { t, i18n } = useTranslation();
  const mayTenant = useCan('statistics.tenant');
  const effective: ChartScope = mayTenant ? scope : 'user';
  const summary = useStatistics('summary', effective);
  const weekly = useStatistics('weekly', effective);
  const scopeName = t(`inbox.charts.scopes.${effective}`);

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

  return (
    <Stack gap="md" component="section" aria-labelledby="statistics-heading">
      <Group justify="space-between" align="center" gap="sm">
        <Title order={2} size="h3" id="statistics-heading">
          {t('inbox.charts.heading')}
        </Title>
        {mayTenant && (
          <SegmentedControl
            size="xs"
            value={effective}
            onChange={(value) => onScopeChange(value as ChartScope)}
            aria-label={t('inbox.charts.scope')}
            data={(['user', 'all'] as const).map((value) => ({ value, label: t(`inbox.charts.scopes.${value}`) }))}
          />
        )}
      </Group>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <ChartCard title={t('inbox.charts.summary')}>{summaryBody}</ChartCard>
        <ChartCard title={t('inbox.charts.weekly')}>{weeklyBody}</ChartCard>
      </SimpleGrid>
    </Stack>
  );
}
