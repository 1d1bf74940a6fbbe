import { Box, Group, Stack, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import type { Folder, WeeklyChartSeries } from '@pakt/domain';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FOLDER_DISPLAY_ORDER } from '../inbox';

/**
 * The dashboard's two charts, drawn here in plain SVG and HTML: @mantine/charts pins an exact
 * @mantine/core version other than ours and brings recharts (and Redux) along, far more bundle
 * than two small charts need.
 */

export const FOLDER_COLORS: Record<Folder, string> = {
  Inbox: 'indigo',
  Pending: 'yellow',
  Draft: 'gray',
  Signed: 'teal',
  Reviewed: 'cyan',
  Delegated: 'violet',
  Completed: 'green',
  Rejected: 'red',
  Stopped: 'dark',
  Expired: 'orange',
  Archived: 'blue',
  Deleted: 'pink',
};

export const SERIES_COLORS: Record<WeeklyChartSeries, string> = {
  received: 'indigo',
  rejected: 'red',
  signed: 'teal',
  pending: 'yellow',
  created: 'grape',
  stopped: 'gray',
  completed: 'green',
};

const color = (name: string, shade = 6) => `var(--mantine-color-${name}-${shade})`;

/**
 * The summary chart: one horizontal bar per folder, scaled to the largest. Bars are HTML, so
 * labels wrap and stay readable at any width; the numbers are in the text, not only in the bars.
 */
export function FolderBarChart({ folders, label }: { readonly folders: Partial<Record<Folder, number>>; readonly label: string }) {
  const { t } = useTranslation();
  const rows = FOLDER_DISPLAY_ORDER.map((folder) => ({ folder, value: folders[folder] ?? 0 }));
  const max = Math.max(1, ...rows.map((row) => row.value));
  return (
    <Stack gap={6} component="dl" m={0} aria-label={label} data-testid="summary-chart">
      {rows.map(({ folder, value }) => (
        <Group key={folder} gap="sm" wrap="nowrap" data-testid={`summary-${folder}`}>
          <Text component="dt" size="sm" lh={1.25} w={{ base: 96, sm: 140 }} style={{ flexShrink: 0, overflowWrap: 'anywhere' }}>
            {t(`inbox.folders.${folder}`)}
          </Text>
          <Box style={{ flex: 1, minWidth: 0 }} aria-hidden="true">
            <Box
              h={14}
              style={{
                width: `${(value / max) * 100}%`,
                minWidth: value > 0 ? 4 : 0,
                background: color(FOLDER_COLORS[folder]),
                borderRadius: 'var(--mantine-radius-sm)',
                transition: 'width 200ms ease',
              }}
            />
          </Box>
          <Text component="dd" m={0} size="sm" fw={600} w={40} ta="right" style={{ flexShrink: 0 }}>
            {value}
          </Text>
        </Group>
      ))}
    </Stack>
  );
}

/** The y axis has four equal steps of 1, 2 or 5 times a power of ten; its top is at least `value`. */
export function niceMax(value: number): number {
  // Counts are whole numbers: a step is at least 1.
  const raw = Math.max(1, value / 4);
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((factor) => factor * power).find((candidate) => candidate >= raw) ?? 10 * power;
  return step * 4;
}

const HEIGHT = 220;
const PAD = { top: 12, right: 16, bottom: 28, left: 36 };

/**
 * The weekly chart: one line per series of the scope (spec §9), weeks along the bottom. The legend
 * switches series on and off; a table with the same numbers is there for screen readers.
 */
export function WeeklyLineChart({
  weeks,
  series,
  label,
  language,
}: {
  readonly weeks: readonly string[];
  readonly series: ReadonlyArray<{ readonly name: WeeklyChartSeries; readonly values: readonly number[] }>;
  readonly label: string;
  readonly language: string;
}) {
  const { t } = useTranslation();
  const { ref, width: measured } = useElementSize();
  const [hidden, setHidden] = useState<ReadonlySet<WeeklyChartSeries>>(new Set());
  const width = measured > 0 ? measured : 600;
  const shown = series.filter((line) => !hidden.has(line.name));
  const max = niceMax(Math.max(0, ...shown.flatMap((line) => line.values)));
  const plotW = width - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const x = (index: number) => PAD.left + (weeks.length <= 1 ? plotW / 2 : (index / (weeks.length - 1)) * plotW);
  const y = (value: number) => PAD.top + plotH - (value / max) * plotH;
  const weekLabel = (iso: string) =>
    new Intl.DateTimeFormat(language, { day: 'numeric', month: 'short', timeZone: 'UTC' }).format(new Date(`${iso}T00:00:00Z`));
  // Labels need about 48 px each; on a phone every other (or third) week is labelled.
  const labelEvery = Math.max(1, Math.ceil((weeks.length * 48) / Math.max(plotW, 1)));
  const ticks = [0, 1, 2, 3, 4].map((step) => (max / 4) * step);

  const toggle = (name: WeeklyChartSeries) =>
    setHidden((current) => {
      const next = new Set(current);
      if (next.has(name)) next.delete(name);
      else next.add(name);
      return next;
    });

  return (
    <Stack gap="xs" data-testid="weekly-chart">
      <Box ref={ref} w="100%">
        <svg width={width} height={HEIGHT} viewBox={`0 0 ${width} ${HEIGHT}`} role="img" aria-label={label} style={{ display: 'block', maxWidth: '100%' }}>
          {ticks.map((tick) => (
            <g key={tick}>
              <line x1={PAD.left} x2={width - PAD.right} y1={y(tick)} y2={y(tick)} stroke="var(--mantine-color-gray-3)" strokeDasharray={tick === 0 ? undefined : '3 3'} />
              <text x={PAD.left - 6} y={y(tick)} dy="0.32em" textAnchor="end" fontSize={11} fill="var(--mantine-color-dimmed)">
                {tick}
              </text>
            </g>
          ))}
          {weeks.map((week, index) =>
            index % labelEvery === 0 ? (
              // The last label ends at its point, so it is not cut off at the chart's right edge.
              <text key={week} x={x(index)} y={HEIGHT - 8} textAnchor={index === weeks.length - 1 && weeks.length > 1 ? 'end' : 'middle'} fontSize={11} fill="var(--mantine-color-dimmed)">
                {weekLabel(week)}
              </text>
            ) : null,
          )}
          {shown.map((line) => (
            <g key={line.name} data-series={line.name}>
              <polyline
                fill="none"
                stroke={color(SERIES_COLORS[line.name])}
                strokeWidth={2}
                strokeLinejoin="round"
                points={line.values.map((value, index) => `${x(index)},${y(value)}`).join(' ')}
              />
              {line.values.map((value, index) => (
                <circle key={index} cx={x(index)} cy={y(value)} r={3} fill={color(SERIES_COLORS[line.name])}>
                  <title>{`${t(`inbox.series.${line.name}`)} · ${weekLabel(weeks[index] ?? '')}: ${value}`}</title>
                </circle>
              ))}
            </g>
          ))}
        </svg>
      </Box>
      <Group gap="xs" wrap="wrap" role="group" aria-label={t('inbox.charts.legend')}>
        {series.map((line) => {
          const off = hidden.has(line.name);
          return (
            <UnstyledButton key={line.name} onClick={() => toggle(line.name)} aria-pressed={!off} px={6} py={2} style={{ borderRadius: 'var(--mantine-radius-sm)', opacity: off ? 0.45 : 1 }}>
              <Group gap={6} wrap="nowrap">
                <Box w={10} h={10} style={{ borderRadius: 10, background: color(SERIES_COLORS[line.name]) }} />
                <Text size="xs">{t(`inbox.series.${line.name}`)}</Text>
              </Group>
            </UnstyledButton>
          );
        })}
      </Group>
      <VisuallyHidden>
        <table>
          <caption>{label}</caption>
          <thead>
            <tr>
              <th scope="col">{t('inbox.charts.week')}</th>
              {series.map((line) => (
                <th key={line.name} scope="col">
                  {t(`inbox.series.${line.name}`)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {weeks.map((week, index) => (
              <tr key={week}>
                <th scope="row">{weekLabel(week)}</th>
                {series.map((line) => (
                  <td key={line.name}>{line.values[index] ?? 0}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </VisuallyHidden>
    </Stack>
  );
}
