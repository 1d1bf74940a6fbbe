import type { AdminAuditAction, AdminAuditQuery } from '@pakt/domain';

/** The page sizes listAdminAudit accepts (AdminAuditQuery.size). */
export const AUDIT_PAGE_SIZES = [10, 25, 50, 100] as const;
export type AuditPageSize = (typeof AUDIT_PAGE_SIZES)[number];

/** What the filter bar holds; empty strings are filters not set. */
export interface AuditFilters {
  readonly action: AdminAuditAction | null;
  readonly target: string;
  /** YYYY-MM-DD, as `<input type="date">` gives it. */
  readonly from: string;
  readonly to: string;
  readonly size: AuditPageSize;
}

export const EMPTY_AUDIT_FILTERS: AuditFilters = { action: null, target: '', from: '', to: '', size: 25 };

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The query of one page: only the filters that are set, so the address stays short and the
 * server's defaults apply to the rest. The days go as typed: the log's days are UTC days, close
 * enough to a person's own for picking a stretch of the log.
 */
export function auditRequestQuery(filters: AuditFilters, pg: number): Partial<AdminAuditQuery> {
  const target = filters.target.trim();
  return {
    ...(filters.action ? { action: filters.action } : {}),
    ...(target ? { target: target.slice(0, 200) } : {}),
    ...(DAY.test(filters.from) ? { from: filters.from } : {}),
    ...(DAY.test(filters.to) ? { to: filters.to } : {}),
    pg,
    size: filters.size,
  };
}

/** A stretch that ends before it starts can match nothing: said instead of asked. */
export function auditRangeProblem(filters: Pick<AuditFilters, 'from' | 'to'>): 'adminAudit.filters.rangeInvalid' | null {
  return DAY.test(filters.from) && DAY.test(filters.to) && filters.to < filters.from ? 'adminAudit.filters.rangeInvalid' : null;
}

export function hasAuditFilters(filters: AuditFilters): boolean {
  return filters.action !== null || filters.target.trim() !== '' || filters.from !== '' || filters.to !== '';
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MAX_LISTED = 3;
const MAX_VALUE_LENGTH = 60;

function shorten(text: string): string {
  // An id says little to a person; its start is enough to tell two apart.
  if (UUID.test(text)) return `${text.slice(0, 8)}…`;
  return text.length > MAX_VALUE_LENGTH ? `${text.slice(0, MAX_VALUE_LENGTH - 1)}…` : text;
}

function compactValue(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'string') return shorten(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) {
    if (value.length === 0) return '—';
    const listed = value.slice(0, MAX_LISTED).map(compactValue).join(', ');
    return value.length > MAX_LISTED ? `${listed} +${value.length - MAX_LISTED}` : listed;
  }
  return shorten(JSON.stringify(value));
}

/**
 * An entry's details on one line ("members: a@x.test, b@x.test +1 · userId: 3f2a…"): what changed,
 * short enough for a table cell. The whole of it stays available as JSON (see `fullDetails`).
 */
export function compactDetails(details: Readonly<Record<string, unknown>>): string {
  // By name: the database keeps no order of its own (jsonb), and "from" before "to" reads right.
  return Object.entries(details)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, value]) => `${key}: ${compactValue(value)}`)
    .join(' · ');
}

export function fullDetails(details: Readonly<Record<string, unknown>>): string {
  return JSON.stringify(details, null, 2);
}
