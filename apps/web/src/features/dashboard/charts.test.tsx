import { fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createQueryClient } from '../../api/query-client';
import en from '../../i18n/en.json';
import { AppProviders } from '../../app/providers';
import { FolderBarChart, niceMax, WeeklyLineChart } from './charts';

const renderWithProviders = (ui: React.ReactNode) =>
  render(
    <AppProviders queryClient={createQueryClient()} env="test">
      {ui}
    </AppProviders>,
  );

describe('chart scales', () => {
  it.each([
    [0, 4],
    [3, 4],
    [4, 4],
    [5, 8],
    [9, 20],
    [37, 40],
    [41, 80],
    [1234, 2000],
  ])('tops %i at %i, in four equal round steps', (value, top) => {
    expect(niceMax(value)).toBe(top);
  });
});

describe('FolderBarChart', () => {
  it('lists every folder with its number, missing ones as 0', () => {
    renderWithProviders(<FolderBarChart folders={{ Inbox: 3, Completed: 7 }} label="By folder" />);
    expect(within(screen.getByTestId('summary-Inbox')).getByText('3')).toBeTruthy();
    expect(within(screen.getByTestId('summary-Completed')).getByText('7')).toBeTruthy();
    expect(within(screen.getByTestId('summary-Deleted')).getByText('0')).toBeTruthy();
  });
});

describe('WeeklyLineChart', () => {
  it('draws a line per series and gives the same numbers as a table', () => {
    renderWithProviders(
      <WeeklyLineChart
        weeks={['2025-01-06', '2025-01-13']}
        series={[
          { name: 'created', values: [2, 5] },
          { name: 'completed', values: [0, 1] },
        ]}
        label="Weekly"
        language="en"
      />,
    );
    const chart = screen.getByRole('img', { name: 'Weekly' });
    expect(chart.querySelectorAll('polyline')).toHaveLength(2);
    const table = screen.getByRole('table', { name: 'Weekly' });
    expect(within(table).getAllByRole('row').map((row) => row.textContent)).toEqual([
      `${en.inbox.charts.week}${en.inbox.series.created}${en.inbox.series.completed}`,
      'Jan 620',
      'Jan 1351',
    ]);
    // The legend turns a line off and on.
    const created = within(screen.getByRole('group', { name: en.inbox.charts.legend })).getByRole('button', { name: en.inbox.series.created });
    fireEvent.click(created);
    expect(created.getAttribute('aria-pressed')).toBe('false');
    expect(chart.querySelectorAll('polyline')).toHaveLength(1);
    fireEvent.click(created);
    expect(chart.querySelectorAll('polyline')).toHaveLength(2);
  });
});
