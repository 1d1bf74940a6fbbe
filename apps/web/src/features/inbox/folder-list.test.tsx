import { fireEvent, render, screen, within } from '@testing-library/react';
import { FOLDERS, type Folder } from '@pakt/domain';
import { describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../api/query-client';
import en from '../../i18n/en.json';
import { AppProviders } from '../../app/providers';
import { FOLDER_DISPLAY_ORDER, FolderList, FolderSelect } from './folder-list';
import { folderCounts } from '../../test/inbox-fixtures';

const renderWithProviders = (ui: React.ReactNode) =>
  render(
    <AppProviders queryClient={createQueryClient()} env="test">
      {ui}
    </AppProviders>,
  );

const counts = folderCounts({ Inbox: [4, 2], Signed: [9, 0], Deleted: [1, 0] });

describe('FolderList', () => {
  it('lists all twelve folders of spec §4, once each', () => {
    expect([...FOLDER_DISPLAY_ORDER].sort()).toEqual([...FOLDERS].sort());
    renderWithProviders(<FolderList counts={counts} active="Inbox" onSelect={() => undefined} />);
    const nav = screen.getByRole('navigation', { name: en.inbox.folders.label });
    expect(within(nav).getAllByRole('button')).toHaveLength(12);
    expect(within(nav).getAllByRole('button').map((button) => button.getAttribute('data-testid'))).toEqual(FOLDER_DISPLAY_ORDER.map((folder) => `folder-${folder}`));
  });

  it('shows counts, a folder with unread ePaks in bold with how many, and marks the open one', () => {
    renderWithProviders(<FolderList counts={counts} active="Signed" onSelect={() => undefined} />);
    const inbox = screen.getByTestId('folder-Inbox');
    expect(inbox.getAttribute('aria-label')).toBe('Inbox, 4 ePaks, 2 unread');
    expect(screen.getByTestId('folder-Deleted').getAttribute('aria-label')).toBe('Deleted, 1 ePak');
    expect(inbox.hasAttribute('data-unread')).toBe(true);
    expect(within(inbox).getByText(en.inbox.folders.Inbox).style.fontWeight).toBe('700');
    const signed = screen.getByTestId('folder-Signed');
    expect(signed.getAttribute('aria-label')).toBe('Signed, 9 ePaks');
    expect(signed.hasAttribute('data-unread')).toBe(false);
    expect(within(signed).getByText(en.inbox.folders.Signed).style.fontWeight).toBe('500');
    expect(signed.getAttribute('aria-current')).toBe('page');
    expect(inbox.hasAttribute('aria-current')).toBe(false);
    expect(within(screen.getByTestId('folder-Draft')).getByText('0')).toBeTruthy();
  });

  it('opens the folder chosen', () => {
    const onSelect = vi.fn<(folder: Folder) => void>();
    renderWithProviders(<FolderList counts={counts} active="Inbox" onSelect={onSelect} />);
    fireEvent.click(screen.getByTestId('folder-Deleted'));
    expect(onSelect).toHaveBeenCalledWith('Deleted');
  });

  it('waits for the counts without showing zeros', () => {
    renderWithProviders(<FolderList counts={undefined} active="Inbox" onSelect={() => undefined} />);
    expect(within(screen.getByTestId('folder-Inbox')).queryByText('0')).toBeNull();
  });
});

describe('FolderSelect (phone)', () => {
  it('offers the same folders with counts, unread ones saying so', () => {
    const onSelect = vi.fn<(folder: Folder) => void>();
    renderWithProviders(<FolderSelect counts={counts} active="Inbox" onSelect={onSelect} />);
    const select = screen.getByRole('combobox', { name: en.inbox.folders.label }) as HTMLSelectElement;
    expect(select.value).toBe('Inbox');
    expect(within(select).getAllByRole('option').map((option) => option.textContent)).toEqual(
      expect.arrayContaining(['Inbox (2 unread of 4)', 'Signed (9)', 'Deleted (1)']),
    );
    fireEvent.change(select, { target: { value: 'Signed' } });
    expect(onSelect).toHaveBeenCalledWith('Signed');
  });
});
