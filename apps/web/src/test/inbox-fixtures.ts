import { FOLDERS, WEEKLY_SERIES_ALL, WEEKLY_SERIES_USER_OR_GROUP, type EpakSummary, type Folder, type FolderCounts, type InboxPage, type UserStatistics } from '@pakt/domain';
import { adminUser, jsonResponse, type FakeRoute } from './fake-api';

/** Test data for the inbox and dashboard tests: summaries as GET /v2/epaks answers them. */

let serial = 0;
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

export const OWNER_ID = '6a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';

export function epakSummary(overrides: Partial<EpakSummary> = {}): EpakSummary {
  serial += 1;
  return {
    id: uuid(serial),
    subject: `Lease ${serial}`,
    ePakName: `Lease ${serial}`,
    status: 'InProgress',
    signingPolicy: 'ESIGNATURE',
    starred: false,
    isRead: true,
    sentOn: '2025-01-10T09:00:00.000Z',
    modifiedOn: '2025-01-11T09:00:00.000Z',
    expiredOn: null,
    retentionDate: null,
    notificationStartDate: null,
    deletedOn: null,
    archivalPeriodOver: false,
    ownerId: OWNER_ID,
    ownerFirstName: 'Meera',
    ownerMiddleName: null,
    ownerLastName: 'Shah',
    ownerUserName: 'meera@example.com',
    progressPercent: 50,
    currentWorkflowStateId: 1,
    currentWorkflowStateAction: 'SIGN',
    currentStatePendingSigners: [{ userId: adminUser.id, name: 'Asha Rao', email: adminUser.email, status: 'Pending' }],
    signerStatus: 'Pending',
    viewEnforced: false,
    folders: ['Inbox'],
    ...overrides,
  };
}

export function folderCounts(counts: Partial<Record<(typeof FOLDERS)[number], [number, number]>> = {}): FolderCounts {
  return Object.fromEntries(FOLDERS.map((folder) => [folder, { total: counts[folder]?.[0] ?? 0, unread: counts[folder]?.[1] ?? 0 }])) as FolderCounts;
}

export function inboxPage(items: EpakSummary[], overrides: Partial<InboxPage> = {}): InboxPage {
  return {
    folder: 'Inbox',
    pg: 0,
    size: 50,
    total: items.length,
    items,
    counts: folderCounts({ Inbox: [items.length, items.filter((item) => !item.isRead).length] }),
    ...overrides,
  };
}

export function userStatistics(overrides: Partial<UserStatistics> = {}): UserStatistics {
  return {
    counts: folderCounts({ Inbox: [3, 1], Completed: [7, 0] }),
    awaitingMe: 3,
    awaitingOthers: 2,
    expiringSoon: 1,
    ...overrides,
  };
}

export interface WeeklyFixture {
  readonly weeks: string[];
  readonly series: Record<string, number[]>;
}

export const WEEKS = ['2025-01-06', '2025-01-13', '2025-01-20'];

/** The series of a scope only (spec §9: seven for all, four for a person or group), as the server sends them. */
export function weeklyFor(scope: string): WeeklyFixture {
  const names = scope === 'all' ? WEEKLY_SERIES_ALL : WEEKLY_SERIES_USER_OR_GROUP;
  return { weeks: WEEKS, series: Object.fromEntries(names.map((name, index) => [name, [index, index + 1, index + 2]])) };
}

export function summaryFolders(values: Partial<Record<Folder, number>>): Record<Folder, number> {
  return Object.fromEntries(FOLDERS.map((folder) => [folder, values[folder] ?? 0])) as Record<Folder, number>;
}

/**
 * The inbox and statistics endpoints of a fake server: `list` answers GET /v2/epaks from the
 * query it was asked (as URLSearchParams); the statistics answer with fixed numbers.
 */
export function inboxRoutes(list: (query: URLSearchParams) => InboxPage, stats: UserStatistics = userStatistics()): Record<string, FakeRoute> {
  const queryOf = (url: string) => new URLSearchParams(url.split('?')[1] ?? '');
  return {
    'GET /msbapi/v2/epaks': ({ url }) => jsonResponse({ code: 1, data: list(queryOf(url)) }),
    'GET /msbapi/v1/users/statistics': () => jsonResponse({ code: 1, data: stats }),
    'GET /msbapi/v2/statistics': ({ url }) => {
      const query = queryOf(url);
      const scope = query.get('scope') ?? 'user';
      if (query.get('type') === 'weekly') return jsonResponse({ code: 1, data: { type: 'weekly', scope, ...weeklyFor(scope) } });
      return jsonResponse({ code: 1, data: { type: 'summary', scope, folders: summaryFolders({ Inbox: scope === 'all' ? 40 : 3, Completed: 7, Pending: 2 }) } });
    },
  };
}

/** Lays the app out as on a desktop screen (the test setup's matchMedia matches nothing: a phone). */
export function wideScreen(): () => void {
  const original = window.matchMedia;
  window.matchMedia = ((query: string) => ({
    matches: /min-width/.test(query),
    media: query,
    onchange: null,
    addListener: () => undefined,
    removeListener: () => undefined,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    dispatchEvent: () => false,
  })) as typeof window.matchMedia;
  return () => {
    window.matchMedia = original;
  };
}
