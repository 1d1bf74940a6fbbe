import { z } from 'zod';
import { SigningPolicy } from '../constants/signing-policies';
import { Folder, SignerStatus } from '../constants/statuses';
import { ChartScope, ChartType, WeeklyChartSeries } from '../constants/ui';
import { WorkflowStateType } from '../constants/workflow';
import { EpakStatus } from './epaks';
import { defineEndpoint } from './contract';

/**
 * The ePaks inbox, the dashboard statistics and the global search (issue 6; spec §2, §3, §4, §7).
 * Folders are computed per person by inbox/folders.ts; the server keeps them as rows, so a page
 * of a folder is one index range however many ePaks the tenant has.
 */

/** The global search bar's types (spec §2: all, from, to, subject, workflow, created on, expires on, ePak tag). */
export const SEARCH_TYPES = ['all', 'from', 'to', 'subject', 'workflow', 'createdOn', 'expiresOn', 'epakTag'] as const;
export const SearchType = z.enum(SEARCH_TYPES);
export type SearchType = z.infer<typeof SearchType>;

/** What each search type's input is: free text, one user (from/to autocomplete), or a date (YYYY-MM-DD). */
export const SEARCH_INPUT_OF_TYPE = {
  all: 'text',
  from: 'user',
  to: 'user',
  subject: 'text',
  workflow: 'text',
  createdOn: 'date',
  expiresOn: 'date',
  epakTag: 'text',
} as const satisfies Record<SearchType, 'text' | 'user' | 'date'>;

export const INBOX_SORTS = ['sentOn', 'modifiedOn', 'subject', 'expiredOn'] as const;
export const InboxSort = z.enum(INBOX_SORTS);
export type InboxSort = z.infer<typeof InboxSort>;

export const INBOX_PAGE_SIZES = [10, 25, 50, 100] as const;
export const INBOX_DEFAULT_PAGE_SIZE = 50;

const IsoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a date as YYYY-MM-DD');

/**
 * A search value checked against its type: a user id for from/to, a date for the date types,
 * 1 to 200 characters of text otherwise.
 */
export const InboxQuery = z
  .object({
    folder: Folder.default('Inbox'),
    /** 0-based page number. */
    pg: z.coerce.number().int().min(0).max(100_000).default(0),
    /**
     * Where the page starts instead of `pg`: the `nextCursor` of the page before, with the same
     * folder, sort and order (opaque: the server checks what it holds, -6 when it is not one of
     * its own for this folder, sort and order). Read as a range of the sort's index after that
     * page's last row, so a deep page costs what the first does, and rows that did not move
     * between two pages are neither repeated nor skipped. `pg` is then only echoed back.
     */
    cursor: z
      .string()
      .max(2048)
      .regex(/^[A-Za-z0-9_-]+$/, 'a nextCursor of the inbox')
      .optional(),
    size: z.coerce
      .number()
      .int()
      .refine((n) => (INBOX_PAGE_SIZES as readonly number[]).includes(n), 'one of 10, 25, 50, 100')
      .default(INBOX_DEFAULT_PAGE_SIZE),
    sort: InboxSort.default('sentOn'),
    order: z.enum(['asc', 'desc']).default('desc'),
    starred: z.enum(['true', 'false']).optional(),
    unread: z.enum(['true', 'false']).optional(),
    searchKey: SearchType.optional(),
    searchVal: z.string().trim().min(1).max(200).optional(),
  })
  .superRefine((query, ctx) => {
    if (!query.searchKey) return;
    const value = query.searchVal;
    if (value === undefined) {
      ctx.addIssue({ code: 'custom', path: ['searchVal'], message: 'a search type needs a value' });
      return;
    }
    const input = SEARCH_INPUT_OF_TYPE[query.searchKey];
    if (input === 'user' && !z.uuid().safeParse(value).success) ctx.addIssue({ code: 'custom', path: ['searchVal'], message: 'a user id' });
    if (input === 'date' && !IsoDate.safeParse(value).success) ctx.addIssue({ code: 'custom', path: ['searchVal'], message: 'a date as YYYY-MM-DD' });
  });
export type InboxQuery = z.infer<typeof InboxQuery>;

export const PendingSigner = z.object({ userId: z.uuid(), name: z.string(), email: z.string(), status: SignerStatus });

/** The ePak summary of spec §3, as the inbox lists it (fields the product does not have yet are left out). */
export const EpakSummary = z.object({
  id: z.uuid(),
  subject: z.string(),
  ePakName: z.string(),
  status: EpakStatus,
  signingPolicy: SigningPolicy,
  starred: z.boolean(),
  isRead: z.boolean(),
  sentOn: z.iso.datetime().nullable(),
  modifiedOn: z.iso.datetime(),
  expiredOn: z.iso.datetime().nullable(),
  retentionDate: z.iso.datetime().nullable(),
  notificationStartDate: z.iso.datetime().nullable(),
  deletedOn: z.iso.datetime().nullable(),
  archivalPeriodOver: z.boolean(),
  ownerId: z.uuid(),
  ownerFirstName: z.string(),
  ownerMiddleName: z.string().nullable(),
  ownerLastName: z.string(),
  ownerUserName: z.string(),
  /** Share of recipients' places done (reviewed, signed, emailed, delegated, skipped), 0 to 100. */
  progressPercent: z.number().int().min(0).max(100),
  currentWorkflowStateId: z.number().int().nullable(),
  currentWorkflowStateAction: WorkflowStateType.nullable(),
  currentStatePendingSigners: z.array(PendingSigner),
  /** The caller's own status in the ePak (their place of the step under way, else their last). */
  signerStatus: SignerStatus.nullable(),
  viewEnforced: z.boolean(),
  /** Folders this ePak is in for the caller. */
  folders: z.array(Folder),
});
export type EpakSummary = z.infer<typeof EpakSummary>;

export const FolderCount = z.object({ total: z.number().int().min(0), unread: z.number().int().min(0) });
export const FolderCounts = z.record(Folder, FolderCount);
export type FolderCounts = z.infer<typeof FolderCounts>;

export const InboxPage = z.object({
  folder: Folder,
  pg: z.number().int(),
  size: z.number().int(),
  /** Rows matching the folder, filters and search. */
  total: z.number().int(),
  items: z.array(EpakSummary),
  /** Every folder's count for the caller (filters and search left out). */
  counts: FolderCounts,
  /** With a search: how many of the caller's ePaks match it in each folder (filters left out). */
  searchHits: z.record(Folder, z.number().int().min(0)).optional(),
  /**
   * The `cursor` of the next page (same folder, sort, order and filters), null on the last page.
   * The server always sends it; optional only so that older answers still parse.
   */
  nextCursor: z.string().nullable().optional(),
});
export type InboxPage = z.infer<typeof InboxPage>;

export const listEpaks = defineEndpoint({
  method: 'GET',
  path: '/msbapi/v2/epaks',
  access: 'tenant',
  action: 'epak.act',
  summary: "The caller's ePaks in one folder: a page, sorted, filtered (starred, unread) and searched, with every folder's count.",
  query: InboxQuery,
  response: InboxPage,
});

export const markEpakRead = defineEndpoint({
  method: 'PUT',
  path: '/msbapi/v2/epaks/:ePakId/read',
  access: 'tenant',
  action: 'epak.act',
  summary: 'Marks an ePak read or unread for the caller (the inbox shows unread ones in bold and counts them).',
  params: z.object({ ePakId: z.uuid() }),
  body: z.object({ isRead: z.boolean() }),
  response: z.object({ id: z.uuid(), isRead: z.boolean() }),
});

export const StatisticsQuery = z.object({
  type: ChartType.default('summary'),
  scope: ChartScope.default('user'),
  /** groupuser: the member of one of the caller's groups whose numbers are shown. */
  userId: z.uuid().optional(),
  /** weekly: how many weeks back, this week included. */
  weeks: z.coerce.number().int().min(1).max(52).default(8),
});
export type StatisticsQuery = z.infer<typeof StatisticsQuery>;

/** A member of the caller's groups whose own numbers the caller may read (scope groupuser). */
export const StatisticsMember = z.object({ userId: z.uuid(), firstName: z.string(), lastName: z.string(), email: z.string() });
export type StatisticsMember = z.infer<typeof StatisticsMember>;

export const SummaryStatistics = z.object({
  type: z.literal('summary'),
  scope: ChartScope,
  /**
   * Per folder, the number of ePaks (for user and groupuser: that person's folders; for group
   * and all: ePaks owned there, by the folder their state puts them in).
   */
  folders: z.record(Folder, z.number().int().min(0)),
  /**
   * Scope group only: the people whose numbers the caller may open with scope groupuser (the
   * members of the groups they manage; for an administrator, of every group they are in).
   */
  members: z.array(StatisticsMember).optional(),
});
export const WeeklyStatistics = z.object({
  type: z.literal('weekly'),
  scope: ChartScope,
  /** Monday of each week (UTC, YYYY-MM-DD), oldest first. */
  weeks: z.array(z.string()),
  /**
   * One number per week for each series of the scope (spec §9: all has seven, user and group
   * four), and only those: a partial record, since zod 4's record of an enum wants every key.
   */
  series: z.partialRecord(WeeklyChartSeries, z.array(z.number().int().min(0))),
});
export const Statistics = z.discriminatedUnion('type', [SummaryStatistics, WeeklyStatistics]);
export type Statistics = z.infer<typeof Statistics>;

export const getStatistics = defineEndpoint({
  method: 'GET',
  path: '/msbapi/v2/statistics',
  access: 'tenant',
  action: 'epak.act',
  summary: 'Dashboard charts: a summary by folder or a weekly series, for the caller, their groups, a group member, or the whole tenant (admins).',
  query: StatisticsQuery,
  response: Statistics,
});

export const UserStatistics = z.object({
  /** The caller's folder counts, as the inbox shows them. */
  counts: FolderCounts,
  /** ePaks waiting for the caller now, and how many of those are overdue (past expiry). */
  awaitingMe: z.number().int().min(0),
  /** ePaks the caller sent that wait for others. */
  awaitingOthers: z.number().int().min(0),
  /** ePaks expiring within 7 days that still wait for the caller. */
  expiringSoon: z.number().int().min(0),
});
export type UserStatistics = z.infer<typeof UserStatistics>;

export const getUserStatistics = defineEndpoint({
  method: 'GET',
  path: '/msbapi/v1/users/statistics',
  access: 'tenant',
  action: 'epak.act',
  summary: "The caller's own numbers for the dashboard tiles.",
  response: UserStatistics,
});
